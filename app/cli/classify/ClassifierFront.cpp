// attnlab-cli's text classification task, front end (no LibTorch): inspect --task classify, the
// built-in classification datasets in `datasets` and their writer, its part of train's help.
#include <iostream>
#include <limits>
#include <map>
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
#include "base/text/ClassifierConfig.h"
#include "base/text/ClassifyCorpus.h"
#include "base/text/ClassifyDatasets.h"
#include "classify/ClassifierCli.h"
#include "classify/ClassifierData.h"

namespace attnlab::cli {

namespace {

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

std::vector<DatasetRow> classificationDatasetRows() {
    std::vector<DatasetRow> rows;
    const TokenizerOptions tokens;  // the classification sets are read with the default tokenizer
    for (const auto& d : classificationDatasets()) {
        DatasetRow row;
        row.name = d.name;
        row.description = {d.description};
        row.json = {{"name", d.name},
                    {"task", tasks::kClassify},
                    {"description", d.description},
                    {"tokenizer",
                     {{"lowercase", tokens.lowercase},
                      {"split_punctuation", tokens.splitPunctuation},
                      {"split_cjk_characters", tokens.splitCjkCharacters}}}};
        rows.push_back(std::move(row));
    }
    return rows;
}

bool writeClassificationDataset(const ArgParser& p, const std::string& name, const std::string& out) {
    if (!findClassificationDataset(name)) return false;
    refuseFlags(p, {"--period", "--second-period", "--lag", "--noise"}, "applies to the series seasonal, echo and regime");
    checkOutputFile("--out", out);
    refuseFlags(p, {"--max-len", "--alignments", "--split-cjk", "--no-split-cjk"}, "applies to translation datasets");
    const ClassificationCorpus corpus = makeClassificationDataset(
        name, static_cast<std::size_t>(p.integer("--size", 2000, 2, 1000000)),
        static_cast<std::uint64_t>(p.integer("--seed", 1, 0, std::numeric_limits<long long>::max())),
        static_cast<int>(p.integer("--length", 0, kMinNeedleLength, kMaxNeedleLength)));
    writeClassificationTsv(corpus, out);
    std::cerr << "wrote " << corpus.examples.size() << " texts in " << corpus.labels.size() << " classes to " << out
              << "\n";
    return true;
}

const char* kTrainHelp = R"(Text classification: attnlab-cli train --task classify (--corpus FILE.tsv | --dataset NAME)
                         --arch gru|transformer --out MODEL.safetensors [options]
  --corpus FILE.tsv    text<TAB>label per line (two or more classes)
  --dataset NAME       sentiment, topic or needle (--size N, --data-seed S, --length N for needle);
                       langid: this machine's gettext translations labelled by language
                       (--languages de,fr,... or all; default 12 common ones; --size N per
                       language, default 2000; --locale-dir DIR, default /usr/share/locale)
  --units U            words (default) or characters (default for langid)
  --attention P        pooling: additive (default), dot, scaled-dot, none (last state), mean
  --hops R             attention rows (Lin et al. 2017; default 1)   --penalty F  ||AA^T - I||^2 weight
  --hidden N (64)  --embedding N  --attention-size N  --no-bidirectional  --dropout F (0.1)
  --max-len N (256)  --epochs N (10)  --batch N (32)  --lr F (0.002)  --clip F  --seed N
  --arch transformer   a [CLS] token and encoder layers: --layers N (2) --heads N (4) --ff N (256);
                       its attention is each layer's self-attention and the [CLS] rollout;
                       --attention-pattern P [--window W (3)] [--chunk C (0 = ceil(sqrt(max
                       length + 1)))] as for translation, not causal. [CLS] is position 0, so
                       under local, strided or chunked its row and column see only what the
                       pattern allows (local: the first W words; the rest through the layers)
  Each epoch's JSON: epoch, train_loss, val_loss, val_accuracy, val_macro_f1,
  attention_entropy, rationale_mass (built-in datasets: mean attention on the deciding
  words, beside uniform_rationale_mass), pairs_per_sec (texts), seconds.
)";

}  // namespace

FrontTask classifierFrontTask() {
    FrontTask t;
    t.id = tasks::kClassify;
    t.datasetsHeading =
        "For text classification (train --task classify --dataset NAME; each text has its gold rationale):";
    t.datasets = classificationDatasetRows;
    t.writeDataset = writeClassificationDataset;
    t.inspect = inspectClassification;
    t.trainHelp = kTrainHelp;
    return t;
}

}  // namespace attnlab::cli
