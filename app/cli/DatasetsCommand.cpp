// attnlab-cli datasets: lists the built-in datasets, or writes one to a TSV file.
#include <algorithm>
#include <cstdint>
#include <iostream>
#include <limits>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "Commands.h"
#include "CorpusOptions.h"
#include "ImageSources.h"
#include "SeriesSources.h"
#include "base/forecast/Series.h"
#include "base/TaskIds.h"
#include "base/vision/Captions.h"
#include "base/translation/Corpus.h"
#include "base/text/ClassifyDatasets.h"
#include "base/translation/Datasets.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"

namespace attnlab::cli {

namespace {

// The generated time series (train --task forecast --dataset NAME), with their defaults.
std::vector<std::pair<std::string, std::string>> seriesDescriptions() {
    const GeneratedSeriesOptions d;
    const std::string n = std::to_string(d.length), p = std::to_string(d.period);
    return {{toString(SeriesKind::Seasonal),
             n + " values: a sine of period " + p + " (--period; --second-period adds one), a slight trend, noise"},
            {toString(SeriesKind::Echo),
             n + " values: smoothed noise that comes back " + std::to_string(d.lag) + " steps later (--lag), plus noise"},
            {toString(SeriesKind::Regime),
             n + " values: period " + p + " for the first half, " + std::to_string(2 * d.period - 1) +
                 " after (--second-period)"}};
}

void printTable(bool json) {
    const auto& infos = builtinDatasets();
    if (json) {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& d : infos)
            out.push_back({{"name", d.name},
                           {"task", tasks::kTranslate},
                           {"default_max_len", d.defaultMaxLen},
                           {"description", d.description},
                           {"tokenizer",
                            {{"lowercase", d.tokenizer.lowercase},
                             {"split_punctuation", d.tokenizer.splitPunctuation},
                             {"split_cjk_characters", d.tokenizer.splitCjkCharacters}}}});
        const TokenizerOptions tokens;  // the classification sets are read with the default tokenizer
        for (const auto& d : classificationDatasets())
            out.push_back({{"name", d.name},
                           {"task", tasks::kClassify},
                           {"description", d.description},
                           {"tokenizer",
                            {{"lowercase", tokens.lowercase},
                             {"split_punctuation", tokens.splitPunctuation},
                             {"split_cjk_characters", tokens.splitCjkCharacters}}}});
        for (const auto& [name, description] : seriesDescriptions())
            out.push_back({{"name", name}, {"task", tasks::kForecast}, {"description", description}});
        std::cout << out.dump(2) << "\n";
        return;
    }
    const std::string nameHeader = "NAME", lenHeader = "MAX-LEN";
    std::size_t nameWidth = nameHeader.size();
    for (const auto& d : infos) nameWidth = std::max(nameWidth, d.name.size());
    for (const auto& d : classificationDatasets()) nameWidth = std::max(nameWidth, d.name.size());
    nameWidth = std::max(nameWidth, std::string("fashion-mnist").size());  // the image sets below
    auto pad = [](const std::string& s, std::size_t width) {
        return s + std::string(width > s.size() ? width - s.size() : 0, ' ');
    };
    auto padLeft = [](const std::string& s, std::size_t width) { return std::string(width - s.size(), ' ') + s; };
    std::cout << pad(nameHeader, nameWidth) << "  " << lenHeader << "  DESCRIPTION\n";
    for (const auto& d : infos)
        std::cout << pad(d.name, nameWidth) << "  " << padLeft(std::to_string(d.defaultMaxLen), lenHeader.size())
                  << "  " << d.description << "\n";
    std::cout << "\nFor text classification (train --task classify --dataset NAME; each text has its gold rationale):\n";
    for (const auto& d : classificationDatasets())
        std::cout << pad(d.name, nameWidth) << "  " << std::string(lenHeader.size(), ' ') << "  " << d.description
                  << "\n";
    std::cout << "\nImages (inspect --task image-classify|caption --dataset NAME; --write NAME --out DIR writes a folder):\n"
              << pad("glyphs", nameWidth) << "  " << std::string(lenHeader.size(), ' ')
              << "  32x32 grey: a 6x6 mark (plus, ring, slash, corner) among distractor dashes; the mark's box is known.\n"
              << pad("scenes", nameWidth) << "  " << std::string(lenHeader.size(), ' ')
              << "  48x48 RGB: two or three coloured shapes anywhere, each related to the one named before\n"
              << pad("", nameWidth) << "  " << std::string(lenHeader.size(), ' ')
              << "  (left of, right of, above, below); each object's box is known.\n"
              << pad("fashion-mnist", nameWidth) << "  " << std::string(lenHeader.size(), ' ')
              << "  28x28 grey garments in 10 classes, from Debian's dataset-fashion-mnist.\n";
    std::cout << "\nTime series (train --task forecast --dataset NAME; --write NAME --out FILE.csv writes t,NAME):\n";
    for (const auto& [name, description] : seriesDescriptions())
        std::cout << pad(name, nameWidth) << "  " << std::string(lenHeader.size(), ' ') << "  " << description << "\n";
}

}  // namespace

int runDatasets(const Args& args) {
    std::set<std::string> switches = splitCjkSwitches();
    switches.insert("--json");
    ArgParser p(args, {"--write", "--out", "--size", "--seed", "--objects", "--max-len", "--alignments", "--length", "--split", "--period",
                       "--second-period", "--lag", "--noise"},
                switches);
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");

    if (!p.has("--write")) {
        for (const char* flag : {"--out", "--size", "--seed", "--max-len", "--alignments", "--split-cjk",
                                 "--no-split-cjk", "--length", "--period", "--second-period", "--lag", "--noise"})
            if (p.has(flag)) throw UsageError(std::string(flag) + " needs --write NAME");
        printTable(p.has("--json"));
        return kOk;
    }
    if (p.has("--json")) throw UsageError("--json only applies to the listing, not to --write");

    const std::string name = p.required("--write");
    const std::string out = p.required("--out");
    if (out.empty()) throw UsageError("--out needs a file name");
    if (const auto kind = parseSeriesKind(name)) {  // a time series: t,NAME as CSV
        for (const char* flag : {"--size", "--max-len", "--alignments", "--split-cjk", "--no-split-cjk", "--split"})
            if (p.has(flag)) throw UsageError(std::string(flag) + " does not apply to a series (--length N sets its values)");
        checkOutputFile("--out", out);
        const Series series = generateSeries(generatedSeriesOptions(p, *kind, "--seed"));
        writeSeriesCsv(series, out);
        std::cerr << "wrote " << series.values.size() << " values of " << series.name << " to " << out << " (columns t,"
                  << series.name << ")\n";
        return kOk;
    }
    for (const char* flag : {"--period", "--second-period", "--lag", "--noise"})
        if (p.has(flag)) throw UsageError(std::string(flag) + " applies to the series seasonal, echo and regime");
    if (name == "glyphs" || name == "scenes" || name == "fashion-mnist") {  // images: a folder
        for (const char* flag : {"--max-len", "--alignments", "--split-cjk", "--no-split-cjk", "--length"})
            if (p.has(flag)) throw UsageError(std::string(flag) + " applies to text datasets");
        checkOutputFolder("--out", out);
        const std::string split = p.text("--split", "train");
        if (p.has("--split") && name != "fashion-mnist") throw UsageError("--split applies to fashion-mnist");
        if (split != "train" && split != "test") throw UsageError("--split must be train or test, got '" + split + "'");
        const long long fallback = name == "fashion-mnist" ? 60000
                                   : name == "glyphs"      ? static_cast<long long>(kDefaultGlyphCount)
                                                           : static_cast<long long>(kDefaultSceneCount);
        const auto size = static_cast<std::size_t>(p.integer("--size", fallback, 1, 1000000));
        const auto seed = static_cast<std::uint64_t>(p.integer("--seed", 1, 0, std::numeric_limits<long long>::max()));
        if (p.has("--objects") && name != "scenes") throw UsageError("--objects applies to scenes");
        if (name == "scenes") {
            const CaptionDataset d = makeScenes(size, seed, sceneOptionsOf(p));
            writeCaptionFolder(d, out);
            std::cerr << "wrote " << d.images.size() << " scenes to " << out << " (captions.tsv, objects.tsv, images/)\n";
            return kOk;
        }
        ImageDataset d;
        if (name == "glyphs") {
            if (size < 2) throw UsageError("--size must be at least 2 for glyphs");
            d = makeGlyphs(size, seed);
        } else {  // the first --size images of Debian's package (a split), for reference trainers that read folders
            if (p.has("--seed")) throw UsageError("--seed does not apply to fashion-mnist (its images are fixed)");
            d = readFashionMnist(split == "train");
            if (size < d.images.size()) {
                d.images.resize(size);
                d.labels.resize(size);
            }
        }
        writeImageFolder(d, out);
        std::cerr << "wrote " << d.images.size() << " images in " << d.classes.size() << " class folders to " << out
                  << (d.boxes.empty() ? "" : " (boxes in boxes.tsv)") << "\n";
        return kOk;
    }
    checkOutputFile("--out", out);
    if (findClassificationDataset(name)) {
        for (const char* flag : {"--max-len", "--alignments", "--split-cjk", "--no-split-cjk"})
            if (p.has(flag)) throw UsageError(std::string(flag) + " applies to translation datasets");
        const ClassificationCorpus corpus = makeClassificationDataset(
            name, static_cast<std::size_t>(p.integer("--size", 2000, 2, 1000000)),
            static_cast<std::uint64_t>(p.integer("--seed", 1, 0, std::numeric_limits<long long>::max())),
            static_cast<int>(p.integer("--length", 0, kMinNeedleLength, kMaxNeedleLength)));
        writeClassificationTsv(corpus, out);
        std::cerr << "wrote " << corpus.examples.size() << " texts in " << corpus.labels.size() << " classes to " << out
                  << "\n";
        return kOk;
    }
    if (p.has("--length")) throw UsageError("--length applies to --write needle");
    DatasetOptions options;
    options.size = static_cast<std::size_t>(p.integer("--size", 2000, 1, 1000000));
    options.seed = static_cast<std::uint64_t>(p.integer("--seed", 1, 0, std::numeric_limits<long long>::max()));
    options.maxLen = static_cast<int>(p.integer("--max-len", 0, 1, 200));
    const std::string alignments = p.text("--alignments", "");
    if (p.has("--alignments")) checkOutputFile("--alignments", alignments);
    const std::optional<bool> splitCjk = splitCjkFlag(p);
    if (splitCjk && !p.has("--alignments"))
        throw UsageError(std::string(*splitCjk ? "--split-cjk" : "--no-split-cjk") +
                         " only changes the tokens the --alignments file indexes; give --alignments FILE");

    // Unknown names and impossible lengths are ConfigErrors from the generator (exit 2).
    Corpus corpus = generateDataset(name, options);
    // The generator links words, which are the dataset's tokens; other tokens get the links mapped.
    TokenizerOptions tokens = findBuiltinDataset(name)->tokenizer;
    if (splitCjk && *splitCjk != tokens.splitCjkCharacters) {
        tokens.splitCjkCharacters = *splitCjk;
        const Tokenizer tokenizer(tokens);
        for (SentencePair& pair : corpus.pairs) pair.alignment = alignmentOverTokens(pair, tokenizer);
    }
    writeTsvCorpus(corpus, out, alignments);
    std::cerr << "wrote " << corpus.pairs.size() << " pairs to " << out;
    if (!alignments.empty()) std::cerr << " (alignments in " << alignments << ")";
    std::cerr << "\n";
    return kOk;
}

}  // namespace attnlab::cli
