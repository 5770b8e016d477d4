// attnlab-cli inspect: reads a corpus the way `train` would and reports what it found,
// so a user can fix their data before spending time on training.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include <map>

#include "ArgParser.h"
#include "ClassifierData.h"
#include "ImageSources.h"
#include "SeriesSources.h"
#include "Commands.h"
#include "CorpusOptions.h"
#include "base/forecast/ForecastConfig.h"
#include "base/forecast/Series.h"
#include "base/text/ClassifierConfig.h"
#include "base/translation/Corpus.h"
#include "base/InputError.h"
#include "base/gettext/Gettext.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageDatasets.h"
#include "base/vision/ImageFiles.h"
#include "base/Tokenizer.h"
#include "base/Vocabulary.h"

namespace attnlab::cli {

namespace {

constexpr std::size_t kBucketWidth = 5;

// {"1-5": n, "6-10": n, ...}: every bucket up to the longest sentence, empty ones too,
// so the result plots directly; "0" only when some side has no tokens at all.
nlohmann::ordered_json histogram(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t zero = 0;
    std::vector<std::size_t> buckets;
    for (const auto& s : sentences) {
        if (s.empty()) {
            ++zero;
            continue;
        }
        const std::size_t b = (s.size() - 1) / kBucketWidth;
        if (b >= buckets.size()) buckets.resize(b + 1, 0);
        ++buckets[b];
    }
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    if (zero > 0) out["0"] = zero;
    for (std::size_t b = 0; b < buckets.size(); ++b)
        out[std::to_string(b * kBucketWidth + 1) + "-" + std::to_string((b + 1) * kBucketWidth)] = buckets[b];
    return out;
}

std::size_t totalTokens(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t n = 0;
    for (const auto& s : sentences) n += s.size();
    return n;
}

std::size_t longest(const std::vector<std::vector<std::string>>& sentences) {
    std::size_t n = 0;
    for (const auto& s : sentences) n = std::max(n, s.size());
    return n;
}

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

}  // namespace

// inspect --task classify: a classification corpus as train --task classify reads it.
int inspectClassification(const Args& args) {
    std::set<std::string> valueFlags = classifierDataFlags();
    valueFlags.insert({"--min-freq", "--max-vocab", "--units"});
    ArgParser p(args, valueFlags, tokenizerSwitches());
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const int minFrequency = static_cast<int>(p.integer("--min-freq", 1, 1, 1000000000));
    const auto maxVocab = static_cast<std::size_t>(p.integer("--max-vocab", 0, 4, 100000000));
    const TokenizerOptions tokenization = tokenizerOptions(p);
    TextUnits units = TextUnits::Words;
    try {
        units = parseTextUnits(p.text("--units", p.text("--dataset", "") == "langid" ? "characters" : "words"));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--units: ") + e.what());
    }
    const ClassificationCorpus corpus = loadClassificationCorpus(p);
    std::vector<std::vector<std::string>> texts;
    std::map<std::string, std::size_t> perLabel;
    for (const auto& e : corpus.examples) {
        texts.push_back(classifierTokens(e.text, units, tokenization));
        ++perLabel[e.label];
    }
    nlohmann::ordered_json labels = nlohmann::ordered_json::object();
    for (const auto& l : corpus.labels) labels[l] = perLabel[l];
    nlohmann::ordered_json out;
    out["name"] = corpus.name;
    out["texts"] = corpus.examples.size();
    out["labels"] = std::move(labels);
    out["skipped_blank_lines"] = corpus.skippedLines;
    out["warnings"] = corpus.warnings;
    out["vocab"] = Vocabulary::build(texts, minFrequency, maxVocab).size();
    out["tokens"] = totalTokens(texts);
    out["length_histogram"] = histogram(texts);
    out["max_len"] = longest(texts);
    out["has_rationales"] = corpus.hasRationales;
    out["units"] = toString(units);
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

// inspect --task image-classify: images and labels from a folder (--images DIR: DIR/CLASS/*.png|jpg,
// as --channels 1|3 and --image-size N), IDX files (--idx IMAGES LABELS, plain or .gz), Debian's
// Fashion-MNIST (--dataset fashion-mnist [--split train|test]) or the generated glyphs (--dataset
// glyphs [--size N] [--data-seed S]).
int inspectImages(const Args& args) {
    IdxFiles idx;
    std::set<std::string> flags = imageDataFlags();
    flags.insert("--task");
    ArgParser p(takeIdxFlag(args, &idx), flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const std::string split = p.text("--split", "train");
    if (split != "train" && split != "test") throw UsageError("--split must be train or test, got '" + split + "'");
    ImageFolderReport report;
    const ImageDataset d = loadImageDataset(p, idx, split, &report);
    std::vector<std::size_t> perClass(d.classes.size(), 0);
    double sum = 0;
    std::size_t pixels = 0;
    for (std::size_t i = 0; i < d.images.size(); ++i) {
        ++perClass[static_cast<std::size_t>(d.labels[i])];
        for (std::uint8_t v : d.images[i].pixels) sum += v;
        pixels += d.images[i].pixels.size();
    }
    nlohmann::ordered_json classes = nlohmann::ordered_json::object();
    for (std::size_t k = 0; k < d.classes.size(); ++k) classes[d.classes[k]] = perClass[k];
    nlohmann::ordered_json out;
    out["name"] = d.name;
    out["images"] = d.images.size();
    out["height"] = d.images.front().height;
    out["width"] = d.images.front().width;
    out["channels"] = d.images.front().channels;
    out["classes"] = std::move(classes);
    out["mean_pixel"] = pixels ? sum / static_cast<double>(pixels) / 255.0 : 0.0;
    out["has_boxes"] = !d.boxes.empty();
    if (p.has("--images")) {
        nlohmann::ordered_json skipped = nlohmann::ordered_json::array();
        for (const auto& [file, reason] : report.skipped) skipped.push_back({{"file", file}, {"reason", reason}});
        out["skipped"] = std::move(skipped);
    }
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

// inspect --task caption: a caption list (--captions F.tsv, images relative to it, read as --channels
// 1|3 at --image-size N) or the generated scenes (--dataset scenes [--size N] [--data-seed S]).
int inspectCaptions(const Args& args) {
    std::set<std::string> flags = captionDataFlags();
    flags.insert("--task");
    ArgParser p(args, flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const CaptionDataset d = loadCaptionDataset(p);
    std::set<std::string> vocabulary;
    std::size_t captions = 0, longest = 0;
    for (const auto& list : d.captions)
        for (const std::string& c : list) {
            ++captions;
            std::size_t n = 0;
            std::istringstream in(c);
            for (std::string w; in >> w; ++n) vocabulary.insert(w);
            longest = std::max(longest, n);
        }
    nlohmann::ordered_json out;
    out["name"] = d.name;
    out["images"] = d.images.size();
    out["captions"] = captions;
    out["height"] = d.images.front().height;
    out["width"] = d.images.front().width;
    out["channels"] = d.images.front().channels;
    out["vocabulary"] = vocabulary.size();
    out["max_caption_words"] = longest;
    out["has_boxes"] = !d.objects.empty();
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

// inspect --task forecast: a series as train --task forecast reads it (--series F.csv --column NAME
// [--timestamp-column NAME] or --dataset seasonal|echo|regime with the generator's flags); with
// --context C and --horizon H also the split the trainer would make (--val-fraction, default 0.2).
int inspectSeries(const Args& args) {
    std::set<std::string> flags = seriesDataFlags();
    flags.insert({"--context", "--horizon", "--val-fraction"});
    ArgParser p(args, flags, {});
    if (!p.positionals().empty()) throw UsageError("unexpected argument '" + p.positionals().front() + "'");
    const bool split = p.has("--context") || p.has("--horizon");
    if (p.has("--val-fraction") && !split) throw UsageError("--val-fraction applies with --context and --horizon");
    const ForecastConfig defaults;
    const int context = static_cast<int>(p.integer("--context", defaults.context, 2, 4096));
    const int horizon = static_cast<int>(p.integer("--horizon", defaults.horizon, 1, 512));
    const double tail = p.real("--val-fraction", 0.2, 0.01, 0.9);
    const Series s = loadSeries(p);
    const long length = static_cast<long>(s.values.size());
    nlohmann::ordered_json out;
    out["name"] = s.name;
    out["source"] = s.source;
    out["values"] = length;
    out["has_timestamps"] = !s.timestamps.empty();
    if (!s.timestamps.empty()) {
        out["first_timestamp"] = s.timestamps.front();
        out["last_timestamp"] = s.timestamps.back();
    }
    long end = length;
    if (split) {
        const SeriesSplit parts = splitSeries(s, context, horizon, tail);  // InputError when too short
        end = parts.trainEnd;
        out["split"] = {{"context", context}, {"horizon", horizon}, {"val_fraction", tail},
                        {"train_end", parts.trainEnd}, {"held_out", parts.length - parts.trainEnd}};
    }
    const Standardizer st = fitStandardizer(s.values, end);
    out["mean"] = st.mean;
    out["std"] = st.std;
    out["min"] = length ? *std::min_element(s.values.begin(), s.values.end()) : 0.0;
    out["max"] = length ? *std::max_element(s.values.begin(), s.values.end()) : 0.0;
    const int maxLag = static_cast<int>(std::min<long>(split ? context : 1000, end / 2));
    out["estimated_period"] = maxLag >= 2 ? estimatePeriod(s.values, end, maxLag) : 0;
    if (s.source.empty())
        out["truth"] = {{"period", s.truth.period}, {"second_period", s.truth.secondPeriod}, {"lag", s.truth.lag},
                        {"change_at", s.truth.changeAt}};
    std::cout << out.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
    return kOk;
}

int runInspect(const Args& args) {
    const std::string task = taskOf(args);
    if (task == tasks::kCaption) return inspectCaptions(args);
    if (task == tasks::kClassify) return inspectClassification(args);
    if (task == tasks::kImageClassify) return inspectImages(args);
    if (task == tasks::kForecast) return inspectSeries(args);
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
    const Corpus corpus = loadCorpus(p, maxLen);
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

}  // namespace attnlab::cli
