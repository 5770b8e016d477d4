// attnlab-cli's translation task, front end (no LibTorch): inspect --task translate (a corpus as train
// reads it, or one gettext catalogue), the built-in parallel datasets in `datasets` and their
// writer, and its part of train's help.
#include <filesystem>
#include <iostream>
#include <limits>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ArgParser.h"
#include "CliTasks.h"
#include "support/CorpusOptions.h"
#include "support/InspectSupport.h"
#include "base/InputError.h"
#include "base/TaskIds.h"
#include "base/Tokenizer.h"
#include "base/Vocabulary.h"
#include "base/gettext/Gettext.h"
#include "base/translation/Alignments.h"
#include "base/translation/ParallelCorpus.h"
#include "base/translation/Datasets.h"
#include "translate/TranslationCli.h"

namespace attnlab::cli {

namespace {

// --gettext names a catalogue file (FILE.mo, FILE.po, or any file that exists) rather than a LANG.
bool isCatalogueFile(const std::string& value) {
    auto endsWith = [&](const char* suffix) {
        const std::string s(suffix);
        return value.size() >= s.size() && value.compare(value.size() - s.size(), s.size(), s) == 0;
    };
    std::error_code ec;
    return endsWith(".mo") || endsWith(".po") || std::filesystem::is_regular_file(value, ec);
}

// The pairs one catalogue gives and what it skipped, as JSON.
void printCatalogue(const std::string& path) {
    GettextReport report;
    const std::vector<GettextPair> pairs = readGettextFile(path, report);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& pair : pairs) list.push_back({{"english", pair.english}, {"translation", pair.translation}});
    nlohmann::ordered_json skipped = nlohmann::ordered_json::object();
    for (const auto& [reason, count] : report.skipped) skipped[toString(reason)] = count;
    nlohmann::ordered_json out;
    out["file"] = path;
    out["entries"] = report.entries;
    out["pairs"] = pairs.size();
    out["skipped"] = std::move(skipped);
    out["messages"] = std::move(list);
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

// inspect --task translate (the default): a corpus as train reads it, or one gettext catalogue.
int inspectTranslationData(const Args& args) {
    std::set<std::string> valueFlags = corpusValueFlags();
    valueFlags.insert({"--task", "--max-len", "--min-freq", "--max-vocab"});
    ArgParser p(args, valueFlags, tokenizerSwitches());
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    // Validate every option before reading what may be a large file.
    const int minFrequency = static_cast<int>(p.integer("--min-freq", 1, 1, 1000000000));
    const auto maxVocab = static_cast<std::size_t>(p.integer("--max-vocab", 0, 4, 100000000));
    const TokenizerOptions tokenization = tokenizerOptions(p);

    // Unlike train, inspect has no model whose length --max-len could bound.
    if (p.has("--max-len") && (p.has("--corpus") || p.has("--src") || p.has("--tgt")))
        throw UsageError("--max-len only applies to --dataset");
    const int maxLen = static_cast<int>(p.integer("--max-len", 0, 1, 200));

    if (auto catalogue = p.value("--gettext"); catalogue && isCatalogueFile(*catalogue)) {
        printCatalogue(*catalogue);
        return kOk;
    }
    const ParallelCorpus corpus = loadCorpus(p, maxLen);
    const Tokenizer tokenizer(tokenization);
    std::vector<std::vector<std::string>> sources, targets;
    sources.reserve(corpus.pairs.size());
    targets.reserve(corpus.pairs.size());
    for (const auto& pair : corpus.pairs) {
        sources.push_back(tokenizer.tokenize(pair.source));
        targets.push_back(tokenizer.tokenize(pair.target));
    }

    nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
    for (const auto& s : corpus.skipped) skipped.push_back({{"line", s.line}, {"reason", s.reason}});

    nlohmann::ordered_json out;
    out["name"] = corpus.name;
    out["pairs"] = corpus.pairs.size();
    out["skipped"] = std::move(skipped);
    out["warnings"] = corpus.warnings;
    out["source_vocab"] = Vocabulary::build(sources, minFrequency, maxVocab).size();
    out["target_vocab"] = Vocabulary::build(targets, minFrequency, maxVocab).size();
    out["source_tokens"] = totalTokens(sources);
    out["target_tokens"] = totalTokens(targets);
    out["length_histogram"] = {{"source", histogram(sources)}, {"target", histogram(targets)}};
    out["max_source_len"] = longest(sources);
    out["max_target_len"] = longest(targets);
    out["has_alignments"] = corpus.hasAlignments;
    out["tokenizer"] = {{"lowercase", tokenization.lowercase},
                        {"split_punctuation", tokenization.splitPunctuation},
                        {"split_cjk_characters", tokenization.splitCjkCharacters}};
    // File names need not be UTF-8; replace rather than throw while printing.
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

std::vector<DatasetRow> translationDatasets() {
    std::vector<DatasetRow> rows;
    for (const auto& d : builtinDatasets()) {
        DatasetRow row;
        row.name = d.name;
        row.maxLength = d.defaultMaxLen;
        row.description = {d.description};
        row.json = {{"name", d.name},
                    {"task", tasks::kTranslate},
                    {"default_max_len", d.defaultMaxLen},
                    {"description", d.description},
                    {"tokenizer",
                     {{"lowercase", d.tokenizer.lowercase},
                      {"split_punctuation", d.tokenizer.splitPunctuation},
                      {"split_cjk_characters", d.tokenizer.splitCjkCharacters}}}};
        rows.push_back(std::move(row));
    }
    return rows;
}

bool writeTranslationDataset(const ArgParser& p, const std::string& name, const std::string& out) {
    if (findBuiltinDataset(name) == nullptr) return false;
    refuseFlags(p, {"--period", "--second-period", "--lag", "--noise"}, "applies to the series seasonal, echo and regime");
    checkOutputFile("--out", out);
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

    // Impossible lengths are ConfigErrors from the generator (exit 2).
    ParallelCorpus corpus = generateDataset(name, options);
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
    return true;
}

const char* kTrainHelp = R"(Data:
  --corpus FILE        TSV corpus (source<TAB>target)
  --src F --tgt F      two line-aligned files
  --gettext LANG       English -> LANG message pairs from this machine's GNU gettext
                       catalogues (--locale-dir DIR, default /usr/share/locale)
  --dataset NAME       a built-in dataset (see: attnlab-cli datasets)
  --size N --data-seed S --max-len N   options for --dataset (defaults 2000, 1, per dataset)
  --alignments FILE    gold word links for a corpus file, in the Pharaoh format fast_align
                       and GIZA++ write: one line per corpus line, "i-j" (sure) or "i?j"
                       (possible) over space-separated words from 0; the epochs' "aer" then
                       measures the attention against them, with "align_precision" and
                       "align_recall" (Och & Ney: possible links count for precision only)
  --val-fraction F     share held out for validation (default 0.1)
  --min-freq N         drop tokens seen fewer times (default 1)
  --no-lowercase, --no-split-punct      tokenizer switches
  --split-cjk, --no-split-cjk           Chinese/Japanese/Korean one token per character, or
                       space-separated words kept whole. Default: per character, except
                       for a dataset written in words (toy-en-zh). The model keeps the choice.
Model:
  --arch A             gru or transformer
  --attention K        none, dot, general, scaled-dot, additive, local-m, local-p (GRU; default additive)
  --hidden N           hidden size / d_model (default 128)
  --layers N           layers (default 1 for GRU, 2 for Transformer)
  --bidirectional, --no-bidirectional
                       GRU encoder reading both ways (default on: with it the attention
                       points at the right words far more often; docs/defaults.md)
  --query Q            after or before: the GRU decoder's attention asks with the state
                       after reading the previous word (Luong) or before it (Bahdanau).
                       Default after: its maps matched the gold word links best
  --heads N            attention heads (Transformer, default 4)
  --ff N               feed-forward size (Transformer, default 512)
  --window D           local attention half-width (default 3): a GRU's local-m/local-p,
                       a Transformer's local and strided patterns
  --attention-pattern P  full, local, strided, chunked or linear (Transformer self-attention;
                       default full; cross-attention stays full). local: keys within D of
                       the query (the decoder: the D before it); strided: that band and every
                       s-th key from the query (Child et al. 2019); chunked: its chunk of C
                       keys and the mean key/value of every other chunk (the decoder: earlier
                       ones); linear: phi(q).phi(k), phi = elu + 1, no softmax (O(N))
  --chunk C            the chunk size (chunked) or stride s (strided); default 0 =
                       ceil(sqrt(max length))
  --positional P       sinusoidal, learned or none: the Transformer's position signal
                       (default sinusoidal; none leaves the encoder blind to word order)
  --dropout F          dropout (default 0.1)
  --dropout-on P       embeddings, attention or both (GRU). Default embeddings: dropping
                       attention weights too blurred the maps without gaining accuracy
Training:
  --epochs N (10)  --batch N (32)  --lr F (0.001)  --clip F (1.0)
  --teacher-forcing F (1.0)  --seed N (1)  --threads N (1)
  --coverage-penalty F  add F * sum over source tokens of (tau - the attention they
                       received)^2 per sentence, tau = target length / source length (Xu et
                       al. 2015's doubly stochastic attention): every word gets attended;
                       a Transformer's last layer, heads averaged (default 0 = off)
  --guided-alignment F  add F * the cross-entropy between each target token's gold links
                       and its attention (Garg et al. 2019); needs word links (--alignments
                       or a built-in dataset). "aer" then scores that head (default 0 = off)
  --alignment-head L:H  the Transformer cross-attention head guided alignment pulls
                       (default: the last layer's first head)

Prints one JSON object per epoch on stdout; a progress bar on stderr when it is a
terminal. The model is saved atomically after every epoch and at the end. Ctrl-C
finishes the current batch, saves, and exits 130.
)";

}  // namespace

FrontTask translationFrontTask() {
    FrontTask t;
    t.id = tasks::kTranslate;
    t.datasets = translationDatasets;
    t.writeDataset = writeTranslationDataset;
    t.inspect = inspectTranslationData;
    t.trainHelp = kTrainHelp;
    return t;
}

}  // namespace attnlab::cli
