#include "support/CorpusOptions.h"

#include "base/translation/Alignments.h"
#include "base/translation/Datasets.h"
#include "base/gettext/Gettext.h"
#include "base/Tokenizer.h"

#include <algorithm>
#include <climits>
#include <iostream>

namespace attnlab::cli {

ParallelCorpus gettextCorpus(const std::string& localeDir, const std::string& lang) {
    GettextReport report;
    const std::vector<GettextPair> pairs = gettextTranslationPairs(localeDir, lang, report);
    ParallelCorpus corpus;
    corpus.name = localeDir + "/" + lang;
    for (const auto& p : pairs) corpus.pairs.push_back({p.english, p.translation, 0, {}, {}});
    for (const auto& problem : report.problems) corpus.warnings.push_back("left out " + problem);
    std::cerr << "gettext " << lang << ": " << corpus.pairs.size() << " English -> " << lang << " pairs from "
              << report.catalogues << " catalogues (skipped: " << describeSkips(report) << ")\n";
    return corpus;
}

std::string describeSkips(const GettextReport& report) {
    std::string out;
    for (const auto& [reason, count] : report.skipped)
        out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + toString(reason);
    return out.empty() ? "none" : out;
}

const std::set<std::string>& corpusValueFlags() {
    static const std::set<std::string> flags{"--corpus", "--src", "--tgt", "--dataset", "--size", "--data-seed",
                                             "--alignments", "--gettext", "--locale-dir"};
    return flags;
}


ParallelCorpus loadCorpus(const ArgParser& args, int maxLen) {
    ParallelCorpus corpus = loadCorpusOnly(args, maxLen);
    if (auto path = args.value("--alignments")) {
        if (args.has("--dataset"))
            throw UsageError("--alignments applies to a corpus read from a file; built-in datasets carry their own");
        attachAlignments(corpus, *path);
    }
    return corpus;
}

ParallelCorpus loadCorpusOnly(const ArgParser& args, int maxLen) {
    const int sources = (args.has("--corpus") ? 1 : 0) + (args.has("--src") || args.has("--tgt") ? 1 : 0) +
                        (args.has("--dataset") ? 1 : 0) + (args.has("--gettext") ? 1 : 0);
    if (sources != 1)
        throw UsageError("give exactly one of --corpus FILE, --src FILE --tgt FILE, --dataset NAME, --gettext LANG");
    if (args.has("--locale-dir") && !args.has("--gettext")) throw UsageError("--locale-dir only applies to --gettext");
    if (auto lang = args.value("--gettext")) return gettextCorpus(args.text("--locale-dir", kDefaultLocaleDir), *lang);
    if (!args.has("--dataset") && (args.has("--size") || args.has("--data-seed")))
        throw UsageError(std::string(args.has("--size") ? "--size" : "--data-seed") + " only applies to --dataset");
    if (auto path = args.value("--corpus")) return readTsvCorpus(*path);
    if (args.has("--src") || args.has("--tgt")) {
        if (!args.has("--src")) throw UsageError("--tgt needs --src");
        if (!args.has("--tgt")) throw UsageError("--src needs --tgt");
        return readParallelCorpus(*args.value("--src"), *args.value("--tgt"));
    }
    DatasetOptions options;
    options.size = static_cast<std::size_t>(args.integer("--size", 2000, 1, 1000000));
    options.seed = static_cast<std::uint64_t>(args.integer("--data-seed", 1, 0, 1LL << 62));
    options.maxLen = maxLen;
    return generateDataset(args.required("--dataset"), options);
}

const std::set<std::string>& splitCjkSwitches() {
    static const std::set<std::string> switches{"--split-cjk", "--no-split-cjk"};
    return switches;
}

const std::set<std::string>& tokenizerSwitches() {
    static const std::set<std::string> switches{"--no-lowercase", "--no-split-punct", "--split-cjk",
                                                "--no-split-cjk"};
    return switches;
}

std::optional<bool> splitCjkFlag(const ArgParser& args) {
    if (args.has("--split-cjk") && args.has("--no-split-cjk"))
        throw UsageError("--split-cjk and --no-split-cjk contradict each other; give one");
    if (args.has("--split-cjk")) return true;
    if (args.has("--no-split-cjk")) return false;
    return std::nullopt;
}

TokenizerOptions tokenizerOptions(const ArgParser& args) {
    TokenizerOptions options;
    if (auto name = args.value("--dataset"))
        if (const DatasetInfo* info = findBuiltinDataset(*name)) options = info->tokenizer;
    if (args.has("--no-lowercase")) options.lowercase = false;
    if (args.has("--no-split-punct")) options.splitPunctuation = false;
    if (auto split = splitCjkFlag(args)) options.splitCjkCharacters = *split;
    return options;
}

}  // namespace attnlab::cli
