// Checkpoints that disagree with themselves: every case must be a ModelFileError
// naming the file, never a crash or an unbounded allocation.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "base/translation/ModelSize.h"
#include "base/io/Safetensors.h"
#include "engine/translation/TranslationTrainer.h"

#include "TempDir.h"
#include "TinyModels.h"

using namespace attnlab;

namespace {

// The test program's scratch directory (TempDir.h), removed at exit.
const test::TempDir& scratch() {
    static test::TempDir dir;
    return dir;
}

std::string tempPath(const std::string& name) { return scratch() / name; }

// A small trained GRU model saved once; each test tampers with a copy of its content.
const SafetensorsContent& savedModel() {
    static SafetensorsContent content = [] {
        DatasetOptions o;
        o.size = 40;
        o.maxLen = 5;
        ModelConfig c = test::tinyGru(AttentionKind::Additive, 8);
        c.maxLength = 16;
        TranslationTrainingOptions t;
        t.epochs = 1;
        TranslationTrainer trainer(generateDataset("copy", o), c, t);
        const std::string path = tempPath("base.safetensors");
        trainer.model().save(path);
        SafetensorsContent loaded = readSafetensors(path);
        std::filesystem::remove(path);
        return loaded;
    }();
    return content;
}

void expectLoadError(const SafetensorsContent& content, const std::string& fragment) {
    const std::string path = tempPath("tampered.safetensors");
    writeSafetensors(path, content);
    try {
        Seq2SeqModel::load(path);
        FAIL("expected ModelFileError containing: " << fragment);
    } catch (const ModelFileError& e) {
        const std::string what = e.what();
        CHECK(what.rfind(path + ": ", 0) == 0);  // names the file first
        CHECK(what.find(fragment) != std::string::npos);
        CHECK(what.find('\n') == std::string::npos);
    }
    std::filesystem::remove(path);
}

TEST_CASE("an untouched checkpoint loads as the model that was saved", "[checkpoint]") {
    const std::string path = tempPath("ok.safetensors");
    writeSafetensors(path, savedModel());
    const Seq2SeqModel model = Seq2SeqModel::load(path);
    // Its configuration is the one it was trained with (test::tinyGru, additive, hidden 8).
    CHECK(model.config().architecture == Architecture::Gru);
    CHECK(model.config().attention == AttentionKind::Additive);
    CHECK(model.config().hidden == 8);
    CHECK(model.config().maxLength == 16);
    // Saved again, every tensor and every metadata entry is the file's, to the bit.
    const std::string again = tempPath("again.safetensors");
    model.save(again);
    const SafetensorsContent reloaded = readSafetensors(again);
    const SafetensorsContent& original = savedModel();
    CHECK(reloaded.metadata == original.metadata);
    REQUIRE(reloaded.tensors.size() == original.tensors.size());
    for (const TensorRecord& t : original.tensors) {
        INFO(t.name);
        const TensorRecord* r = reloaded.find(t.name);
        REQUIRE(r != nullptr);
        CHECK(r->shape == t.shape);
        CHECK(r->data == t.data);
    }
    std::filesystem::remove(path);
    std::filesystem::remove(again);
}

TEST_CASE("shapes that disagree with the config are refused", "[checkpoint]") {
    SafetensorsContent c = savedModel();
    auto* t = const_cast<TensorRecord*>(c.find("output.weight"));
    REQUIRE(t);
    // Same number of values, different shape.
    std::swap(t->shape[0], t->shape[1]);
    expectLoadError(c, "tensor 'output.weight' has shape");
}

TEST_CASE("a config larger than the file is refused before allocating", "[checkpoint]") {
    SafetensorsContent c = savedModel();
    ModelConfig config = modelConfigFromJson(c.metadata.at("config"));
    config.hidden = 4096;
    config.layers = 16;
    c.metadata["config"] = toJson(config);
    expectLoadError(c, "the config describes");
}

TEST_CASE("missing, extra and renamed tensors are refused", "[checkpoint]") {
    SafetensorsContent missing = savedModel();
    missing.tensors.pop_back();
    expectLoadError(missing, "weights but the file holds");

    SafetensorsContent extra = savedModel();
    extra.tensors.push_back(TensorRecord{"stray", {1}, {0.5f}});
    expectLoadError(extra, "weights but the file holds");

    SafetensorsContent renamed = savedModel();
    renamed.tensors.front().name = "not_a_parameter";
    expectLoadError(renamed, "is missing");
}

TEST_CASE("bad or missing metadata is refused", "[checkpoint]") {
    SafetensorsContent noConfig = savedModel();
    noConfig.metadata.erase("config");
    expectLoadError(noConfig, "metadata 'config' is missing");

    SafetensorsContent version = savedModel();
    version.metadata["format_version"] = "99";
    expectLoadError(version, "unsupported format version 99");

    SafetensorsContent config = savedModel();
    config.metadata["config"] = "{not json";
    expectLoadError(config, "bad model config");

    SafetensorsContent vocab = savedModel();
    vocab.metadata["source_vocab"] = "[\"a\", \"b\"]";
    expectLoadError(vocab, "source_vocab");

    SafetensorsContent vocabSize = savedModel();
    vocabSize.metadata["target_vocab"] = "[\"<pad>\", \"<s>\", \"</s>\", \"<unk>\", \"x\"]";
    expectLoadError(vocabSize, "vocabulary sizes disagree");

    SafetensorsContent tokenizer = savedModel();
    tokenizer.metadata["tokenizer"] = "[]";
    expectLoadError(tokenizer, "tokenizer");
}

// Loads `content` from a temporary file.
Seq2SeqModel loadContent(const SafetensorsContent& content) {
    const std::string path = tempPath("tokenizer.safetensors");
    writeSafetensors(path, content);
    Seq2SeqModel model = Seq2SeqModel::load(path);
    std::filesystem::remove(path);
    return model;
}

TEST_CASE("the tokenizer options survive a checkpoint; older files split CJK per character", "[checkpoint]") {
    // Saved with the defaults: every option written out.
    CHECK(savedModel().metadata.at("tokenizer") ==
          R"({"lowercase":true,"split_cjk_characters":true,"split_punctuation":true})");

    SafetensorsContent words = savedModel();
    words.metadata["tokenizer"] = R"({"lowercase":false,"split_punctuation":false,"split_cjk_characters":false})";
    const Seq2SeqModel wordModel = loadContent(words);
    CHECK_FALSE(wordModel.tokenizerOptions().lowercase);
    CHECK_FALSE(wordModel.tokenizerOptions().splitPunctuation);
    CHECK_FALSE(wordModel.tokenizerOptions().splitCjkCharacters);
    CHECK(wordModel.sourceTokens("汤姆 追逐") == std::vector<std::string>{"<unk>", "<unk>", "</s>"});
    // ... and saving it again keeps them.
    const std::string path = tempPath("resaved.safetensors");
    wordModel.save(path);
    CHECK_FALSE(Seq2SeqModel::load(path).tokenizerOptions().splitCjkCharacters);
    std::filesystem::remove(path);

    // A file written before the option existed.
    SafetensorsContent old = savedModel();
    old.metadata["tokenizer"] = R"({"lowercase":true,"split_punctuation":true})";
    const Seq2SeqModel oldModel = loadContent(old);
    CHECK(oldModel.tokenizerOptions().splitCjkCharacters);
    CHECK(oldModel.sourceTokens("汤姆 追逐").size() == 5);  // four characters and </s>

    SafetensorsContent wrongType = savedModel();
    wrongType.metadata["tokenizer"] = R"({"lowercase":true,"split_punctuation":true,"split_cjk_characters":"no"})";
    expectLoadError(wrongType, "metadata 'tokenizer' is malformed");
}

TEST_CASE("non-finite weights are refused", "[checkpoint]") {
    SafetensorsContent c = savedModel();
    c.tensors.front().data[0] = std::numeric_limits<float>::quiet_NaN();
    expectLoadError(c, "NaN or infinity");
}

TEST_CASE("empty, truncated and foreign files are refused", "[checkpoint]") {
    const std::string path = tempPath("raw.safetensors");
    auto write = [&](const std::string& bytes) {
        std::ofstream(path, std::ios::binary) << bytes;
    };
    write("");
    CHECK_THROWS_AS(Seq2SeqModel::load(path), ModelFileError);
    // A valid model cut in half.
    writeSafetensors(path, savedModel());
    const auto size = std::filesystem::file_size(path);
    std::filesystem::resize_file(path, size / 2);
    CHECK_THROWS_AS(Seq2SeqModel::load(path), ModelFileError);
    // A safetensors file that is not an AttnLab model.
    SafetensorsContent foreign;
    foreign.tensors.push_back(TensorRecord{"w", {2}, {1, 2}});
    writeSafetensors(path, foreign);
    CHECK_THROWS_WITH(Seq2SeqModel::load(path), Catch::Contains("not an AttnLab model"));
    std::filesystem::remove(path);
    CHECK_THROWS_AS(Seq2SeqModel::load(path), ModelFileError);  // gone
    CHECK_THROWS_AS(Seq2SeqModel::load(scratch().path.string()), ModelFileError);
}

TEST_CASE("parameterCount(config) matches the network the engine builds", "[checkpoint]") {
    DatasetOptions o;
    o.size = 30;
    o.maxLen = 4;
    ParallelCorpus corpus = generateDataset("reverse", o);
    TranslationTrainingOptions t;
    t.epochs = 1;
    std::vector<ModelConfig> configs;
    for (auto kind : {AttentionKind::None, AttentionKind::Dot, AttentionKind::General, AttentionKind::ScaledDot,
                      AttentionKind::Additive, AttentionKind::LocalM, AttentionKind::LocalP}) {
        ModelConfig c;
        c.attention = kind;
        c.hidden = 6;
        c.layers = kind == AttentionKind::Dot ? 3 : 1;
        c.bidirectional = kind == AttentionKind::General || kind == AttentionKind::Dot;
        c.embedding = kind == AttentionKind::Additive ? 5 : 0;
        configs.push_back(c);
    }
    ModelConfig tr;
    tr.architecture = Architecture::Transformer;
    tr.hidden = 8;
    tr.heads = 2;
    tr.layers = 2;
    tr.feedForward = 12;
    configs.push_back(tr);
    for (const auto& c : configs) {
        TranslationTrainer trainer(corpus, c, t);
        INFO(toJson(trainer.model().config()));
        CHECK(parameterCount(trainer.model().config()) == trainer.model().parameterCount());
    }
}

}  // namespace
