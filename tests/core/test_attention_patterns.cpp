// Attention patterns for long inputs (engine/nn/AttentionPatterns.h): local, strided and
// chunked against masked full attention over the same scores (-inf outside the pattern,
// softmax), forward and gradients w.r.t. q, k and v, with padding and the causal mask; linear
// against its O(N^2) formula; a decoding step against the forward's row; maps whose rows sum
// to 1 and are zero outside the pattern; a tiny translation Transformer trained with each, and
// the text classifier's and the ViT's encoders likewise.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "TempDir.h"
#include "TinyModels.h"
#include "base/InputError.h"
#include "base/text/ClassifyDatasets.h"
#include "base/translation/ModelConfig.h"
#include "base/vision/ImageDatasets.h"
#include "engine/text/ClassifierTrainer.h"
#include "engine/text/TextClassifier.h"
#include "engine/vision/ImageModels.h"
#include "engine/vision/VisionTrainer.h"
#include "engine/nn/networks/AttentionPatterns.h"
#include "engine/nn/networks/MultiHeadAttention.h"
#include "engine/translation/Seq2SeqModel.h"

using torch::Tensor;
using attnlab::AttentionPattern;
using attnlab::nn::PatternSpec;
using attnlab::nn::patternAttention;

namespace {

// The pattern's rule, written out independently of patternKeyIndex: may query position p see
// key j (j >= Tk: the summary of chunk j - Tk)?
bool allowed(const PatternSpec& s, int64_t p, int64_t j, int64_t Tk, bool causal) {
    const int64_t W = s.window, C = s.chunk;
    if (j >= Tk) {  // a chunk summary
        const int64_t c = j - Tk, own = p / C;
        return s.pattern == AttentionPattern::Chunked && c != own && (!causal || c < own);
    }
    if (causal && j > p) return false;
    switch (s.pattern) {
    case AttentionPattern::Local: return std::abs(p - j) <= W;
    case AttentionPattern::Strided: return std::abs(p - j) <= W || (p - j) % C == 0;
    case AttentionPattern::Chunked: return j / C == p / C;
    default: return true;
    }
}

struct Inputs {
    Tensor q, k, v, pad;  // pad [B, T] bool, or undefined
};

Inputs inputs(int64_t B, int64_t H, int64_t T, int64_t dk, bool padded, uint64_t seed) {
    torch::manual_seed(static_cast<int64_t>(seed));
    Inputs in{torch::randn({B, H, T, dk}, torch::kDouble), torch::randn({B, H, T, dk}, torch::kDouble),
              torch::randn({B, H, T, dk}, torch::kDouble), Tensor()};
    if (padded) {  // the second row's last two positions are padding
        in.pad = torch::zeros({B, T}, torch::kBool);
        in.pad.index_put_({B - 1, torch::indexing::Slice(T - 2, torch::indexing::None)}, true);
    }
    return in;
}

struct Reference {
    Tensor out, map;
};

// Masked full attention over the keys plus (chunked) every chunk's mean key and value.
Reference reference(const PatternSpec& s, const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& pad,
                    bool causal) {
    const int64_t B = q.size(0), T = q.size(2), Tk = k.size(2), C = s.chunk;
    const int64_t chunks = s.pattern == AttentionPattern::Chunked ? (Tk + C - 1) / C : 0;
    Tensor keep = pad.defined() ? pad.logical_not().to(torch::kDouble) : torch::ones({B, Tk}, torch::kDouble);
    std::vector<Tensor> ks{k}, vs{v};
    Tensor member = torch::zeros({B, chunks, Tk}, torch::kDouble);  // chunk membership / count
    Tensor summaryPad = torch::zeros({B, chunks}, torch::kBool);
    for (int64_t c = 0; c < chunks; ++c) {
        const int64_t from = c * C, n = std::min(C, Tk - from);
        Tensor w = keep.narrow(1, from, n);  // [B, n]
        Tensor count = w.sum(1);             // [B]
        for (int64_t b = 0; b < B; ++b) {
            summaryPad[b][c] = count[b].item<double>() == 0;
            if (count[b].item<double>() > 0) member[b][c].narrow(0, from, n).copy_(w[b] / count[b]);
        }
        Tensor wk = w.view({B, 1, n, 1});
        ks.push_back((k.narrow(2, from, n) * wk).sum(2, true) / count.clamp_min(1).view({B, 1, 1, 1}));
        vs.push_back((v.narrow(2, from, n) * wk).sum(2, true) / count.clamp_min(1).view({B, 1, 1, 1}));
    }
    Tensor K = torch::cat(ks, 2), V = torch::cat(vs, 2);
    Tensor blocked = torch::zeros({B, 1, T, Tk + chunks}, torch::kBool);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < T; ++i)
            for (int64_t j = 0; j < Tk + chunks; ++j) {
                const bool padded = j < Tk ? (pad.defined() && pad[b][j].item<bool>()) : summaryPad[b][j - Tk].item<bool>();
                blocked[b][0][i][j] = padded || !allowed(s, i, j, Tk, causal);
            }
    REQUIRE(blocked.logical_not().any(-1).all().item<bool>());  // every row sees a key
    Tensor scores = torch::matmul(q, K.transpose(-2, -1)) / std::sqrt(static_cast<double>(q.size(3)));
    Tensor w = torch::softmax(scores.masked_fill(blocked, -std::numeric_limits<double>::infinity()), -1);
    Reference r;
    r.out = torch::matmul(w, V);
    Tensor map = w.detach().narrow(-1, 0, Tk);
    if (chunks > 0) map = map + torch::matmul(w.detach().narrow(-1, Tk, chunks), member.unsqueeze(1));
    r.map = map;
    return r;
}

struct Grads {
    Tensor out, map, dq, dk, dv;
};

template <typename Forward>
Grads withGrads(const Inputs& in, Forward forward) {
    Tensor q = in.q.clone().requires_grad_(true), k = in.k.clone().requires_grad_(true),
           v = in.v.clone().requires_grad_(true);
    Grads g;
    g.out = forward(q, k, v, &g.map);
    torch::manual_seed(99);
    (g.out * torch::randn(g.out.sizes(), torch::kDouble)).sum().backward();
    g.dq = q.grad();
    g.dk = k.grad();
    g.dv = v.grad();
    return g;
}

void requireClose(const Grads& a, const Grads& b) {
    CHECK(torch::allclose(a.out, b.out, 1e-9, 1e-10));
    CHECK(torch::allclose(a.map, b.map, 1e-9, 1e-10));
    CHECK(torch::allclose(a.dq, b.dq, 1e-9, 1e-10));
    CHECK(torch::allclose(a.dk, b.dk, 1e-9, 1e-10));
    CHECK(torch::allclose(a.dv, b.dv, 1e-9, 1e-10));
}

}  // namespace

TEST_CASE("local, strided and chunked match masked full attention, forward and backward") {
    for (AttentionPattern pattern : {AttentionPattern::Local, AttentionPattern::Strided, AttentionPattern::Chunked})
        for (int64_t T : {5, 7, 13, 20})
            for (bool causal : {false, true})
                for (bool padded : {false, true}) {
                    PatternSpec s;
                    s.pattern = pattern;
                    s.window = 2;
                    s.chunk = T == 20 ? 4 : T == 5 ? 50 : 3;  // T 5: a chunk (stride) longer than the sequence
                    INFO(attnlab::toString(pattern) << " T " << T << (causal ? " causal" : "")
                                                    << (padded ? " padded" : ""));
                    const Inputs in = inputs(2, 3, T, 4, padded, static_cast<uint64_t>(T));
                    Grads mine = withGrads(in, [&](const Tensor& q, const Tensor& k, const Tensor& v, Tensor* map) {
                        return patternAttention(s, q, k, v, in.pad, causal, 0, 0.0, false, map);
                    });
                    Grads ref = withGrads(in, [&](const Tensor& q, const Tensor& k, const Tensor& v, Tensor* map) {
                        Reference r = reference(s, q, k, v, in.pad, causal);
                        *map = r.map;
                        return r.out;
                    });
                    requireClose(mine, ref);
                    // Rows sum to 1; local rows are zero outside the window.
                    CHECK(torch::allclose(mine.map.sum(-1), torch::ones({2, 3, T}, torch::kDouble), 1e-9, 1e-10));
                    if (pattern == AttentionPattern::Local)
                        for (int64_t i = 0; i < T; ++i)
                            for (int64_t j = 0; j < T; ++j)
                                if (std::abs(i - j) > s.window || (causal && j > i))
                                    CHECK(mine.map.select(2, i).select(2, j).abs().max().item<double>() == 0.0);
                    // Only the pattern's keys are scored: M keys per query, not T.
                    const auto index = attnlab::nn::patternKeyIndex(s, T, T, causal, 0);
                    if (pattern == AttentionPattern::Local) CHECK(index.index.size(1) <= 2 * s.window + 1);
                }
}

TEST_CASE("linear attention matches its O(N^2) formula, forward and backward") {
    PatternSpec s;
    s.pattern = AttentionPattern::Linear;
    for (int64_t T : {7, 16})
        for (bool causal : {false, true})
            for (bool padded : {false, true}) {
                INFO("T " << T << (causal ? " causal" : "") << (padded ? " padded" : ""));
                const Inputs in = inputs(2, 2, T, 5, padded, 5 + static_cast<uint64_t>(T));
                Grads mine = withGrads(in, [&](const Tensor& q, const Tensor& k, const Tensor& v, Tensor* map) {
                    return patternAttention(s, q, k, v, in.pad, causal, 0, 0.0, true, map);
                });
                Grads ref = withGrads(in, [&](const Tensor& q, const Tensor& k, const Tensor& v, Tensor* map) {
                    Tensor a = torch::matmul(torch::elu(q) + 1, (torch::elu(k) + 1).transpose(-2, -1));  // [B, H, T, T]
                    if (in.pad.defined()) a = a.masked_fill(in.pad.view({2, 1, 1, T}), 0.0);
                    if (causal) a = a.masked_fill(torch::ones({T, T}, torch::kBool).triu(1), 0.0);
                    Tensor normalised = a / a.sum(-1, true);
                    *map = normalised.detach();
                    return torch::matmul(normalised, v);
                });
                requireClose(mine, ref);
                CHECK(torch::allclose(mine.map.sum(-1), torch::ones({2, 2, T}, torch::kDouble), 1e-9, 1e-10));
            }
}

TEST_CASE("a decoding step of every pattern is the forward's row at that position") {
    for (AttentionPattern pattern : {AttentionPattern::Local, AttentionPattern::Strided, AttentionPattern::Chunked,
                                     AttentionPattern::Linear}) {
        PatternSpec s;
        s.pattern = pattern;
        s.window = 2;
        s.chunk = 3;
        const int64_t T = 11;
        const Inputs in = inputs(2, 2, T, 4, true, 21);
        Tensor map;
        const Tensor all = patternAttention(s, in.q, in.k, in.v, in.pad, true, 0, 0.0, false, &map);
        for (int64_t t = 0; t < T; ++t) {
            INFO(attnlab::toString(pattern) << " step " << t);
            Tensor stepMap;
            const Tensor row = patternAttention(s, in.q.narrow(2, t, 1), in.k.narrow(2, 0, t + 1),
                                                in.v.narrow(2, 0, t + 1), in.pad.narrow(1, 0, t + 1), true, t, 0.0,
                                                false, &stepMap);
            CHECK(torch::allclose(row, all.narrow(2, t, 1), 1e-9, 1e-10));
            CHECK(torch::allclose(stepMap, map.narrow(2, t, 1).narrow(3, 0, t + 1), 1e-9, 1e-10));
        }
    }
}

TEST_CASE("the pattern travels in the model config; old configs attend in full") {
    attnlab::ModelConfig c = attnlab::test::tinyTransformer();
    c.sourceVocab = c.targetVocab = 10;
    c.pattern = AttentionPattern::Strided;
    c.chunk = 5;
    c.localWindow = 4;
    const attnlab::ModelConfig back = attnlab::modelConfigFromJson(attnlab::toJson(c));
    CHECK(back.pattern == AttentionPattern::Strided);
    CHECK(back.chunk == 5);
    CHECK(back.localWindow == 4);
    std::string old = attnlab::toJson(attnlab::test::tinyTransformer());
    old = old.replace(old.find(",\"attention_pattern\""), std::string(",\"attention_pattern\":\"full\"").size(), "");
    old = old.replace(old.find(",\"attention_chunk\""), std::string(",\"attention_chunk\":0").size(), "");
    REQUIRE(old.find("attention_") == std::string::npos);
    attnlab::ModelConfig withVocab = attnlab::modelConfigFromJson([&] {
        std::string j = old;
        for (const char* key : {"\"source_vocab\":0", "\"target_vocab\":0"})
            j.replace(j.find(key), std::string(key).size(), std::string(key).substr(0, 15) + "10");
        return j;
    }());
    CHECK(withVocab.pattern == AttentionPattern::Full);
    CHECK(withVocab.chunk == 0);
    attnlab::ModelConfig bad = c;
    bad.chunk = -1;
    const auto problem = attnlab::settingProblem(bad);
    REQUIRE(problem);
    CHECK(problem->setting == attnlab::Setting::AttentionChunk);
    c.maxLength = 17;
    c.chunk = 0;
    CHECK(attnlab::patternChunk(c) == 5);
}

TEST_CASE("a tiny translation Transformer trains with every pattern; its maps' rows sum to 1") {
    for (AttentionPattern pattern : {AttentionPattern::Full, AttentionPattern::Local, AttentionPattern::Strided,
                                     AttentionPattern::Chunked, AttentionPattern::Linear}) {
        INFO(attnlab::toString(pattern));
        attnlab::ModelConfig c = attnlab::test::tinyTransformer(1, 2);
        c.pattern = pattern;
        c.localWindow = 1;
        c.chunk = 3;
        auto trainer = attnlab::test::trainedOnReverse(c, 80, 0);
        double loss = std::nan("");
        trainer->run(nullptr, [&](const attnlab::TranslationEpochMetrics& m) { loss = m.trainLoss; });
        CHECK(std::isfinite(loss));
        const attnlab::Translation t = trainer->model().translate("a b c d e f");
        for (const auto& [kind, layers] : t.attention) {
            INFO(attnlab::toString(kind));
            REQUIRE(!layers.empty());
            for (const auto& heads : layers)
                for (const auto& map : heads) {
                    REQUIRE(map.rows > 0);
                    for (int r = 0; r < map.rows; ++r) {
                        double sum = 0;
                        for (int col = 0; col < map.cols; ++col) {
                            sum += map.at(r, col);
                            if (pattern == AttentionPattern::Local && kind != attnlab::MapKind::Cross) {
                                // encoder: |r - col| <= 1; decoder: col in [r - 1, r]
                                const bool inside = kind == attnlab::MapKind::Encoder ? std::abs(r - col) <= 1
                                                                                      : col <= r && col >= r - 1;
                                if (!inside) CHECK(map.at(r, col) == 0.0f);
                            }
                        }
                        CHECK(sum == Approx(1.0).margin(1e-4));
                    }
                }
        }
    }
}

// The classifier's and the ViT's encoders take the same patterns (not causal; [CLS] is position 0
// and sees only what the pattern allows): one short epoch each, every returned map's rows and the
// rollout summing to 1, the pattern in the checkpoint, and configs from before it attending in full.
namespace {

void checkRowsSumToOne(const attnlab::LayeredAttention& layers, int expected) {
    REQUIRE(layers.size() > 0);
    for (const auto& heads : layers)
        for (const auto& map : heads) {
            REQUIRE(map.rows == expected);
            REQUIRE(map.cols == expected);
            for (int r = 0; r < map.rows; ++r) {
                double sum = 0;
                for (int col = 0; col < map.cols; ++col) sum += map.at(r, col);
                CHECK(sum == Approx(1.0).margin(1e-4));
            }
        }
}

double total(const std::vector<float>& v) {
    double s = 0;
    for (float x : v) s += x;
    return s;
}

const AttentionPattern kEveryPattern[] = {AttentionPattern::Full, AttentionPattern::Local, AttentionPattern::Strided,
                                          AttentionPattern::Chunked, AttentionPattern::Linear};

}  // namespace

TEST_CASE("a tiny Transformer classifier trains with every pattern; its maps and rollout sum to 1") {
    const attnlab::ClassificationCorpus corpus = attnlab::makeClassificationDataset("sentiment", 120, 3);
    for (AttentionPattern pattern : kEveryPattern) {
        INFO(attnlab::toString(pattern));
        attnlab::ClassifierConfig c;
        c.architecture = attnlab::ClassifierArchitecture::Transformer;
        c.hidden = 8;
        c.layers = 2;
        c.heads = 2;
        c.feedForward = 16;
        c.pattern = pattern;
        c.window = 1;
        c.chunk = 3;
        attnlab::ClassifierTrainingOptions options;
        options.epochs = 1;
        attnlab::ClassifierTrainer trainer(corpus, c, options);
        double loss = std::nan("");
        trainer.run([&](const attnlab::ClassifierEpochMetrics& m) { loss = m.trainLoss; });
        CHECK(std::isfinite(loss));
        const attnlab::Classification r = trainer.model().classify("the film was not good but the plot was fun");
        checkRowsSumToOne(r.encoder, static_cast<int>(r.tokens.size()));
        CHECK(total(r.rollout) == Approx(1.0).margin(1e-4));
        if (pattern == AttentionPattern::Local)  // [CLS] (position 0) sees itself and word 1 only
            for (int col = 2; col < r.encoder[0][0].cols; ++col) CHECK(r.encoder[0][0].at(0, col) == 0.0f);
    }
}

TEST_CASE("a tiny ViT trains with every pattern; its maps and rollout sum to 1") {
    const attnlab::ImageDataset glyphs = attnlab::makeGlyphs(48, 2);
    for (AttentionPattern pattern : kEveryPattern) {
        INFO(attnlab::toString(pattern));
        attnlab::VitConfig c;
        c.imageSize = 32;
        c.patch = 8;
        c.hidden = 8;
        c.heads = 2;
        c.layers = 2;
        c.pattern = pattern;
        c.window = 2;
        c.chunk = 4;
        attnlab::VisionTrainingOptions options;
        options.epochs = 1;
        attnlab::ImageClassifierTrainer trainer(glyphs, attnlab::ImageDataset{}, c, options);
        double loss = std::nan("");
        trainer.run([&](const attnlab::ImageEpochMetrics& m) { loss = m.trainLoss; });
        CHECK(std::isfinite(loss));
        const attnlab::ImageClassification r = trainer.model().classify(glyphs.images.front());
        checkRowsSumToOne(r.encoder, 1 + 16);
        CHECK(total(r.rollout) == Approx(1.0).margin(1e-4));
    }
}

TEST_CASE("the classifier's and the ViT's pattern travel in the checkpoint; old configs attend in full") {
    attnlab::test::TempDir dir;
    attnlab::ClassifierConfig c;
    c.architecture = attnlab::ClassifierArchitecture::Transformer;
    c.hidden = 8;
    c.heads = 2;
    c.feedForward = 16;
    c.pattern = AttentionPattern::Chunked;
    c.chunk = 3;
    const attnlab::TextClassifier model(c, attnlab::Vocabulary::build({{"the", "film", "was", "good"}}), {"neg", "pos"},
                                        {}, 1);
    const std::string path = dir / "classifier.safetensors";
    model.save(path);
    const attnlab::TextClassifier back = attnlab::TextClassifier::load(path);
    CHECK(back.config().pattern == AttentionPattern::Chunked);
    CHECK(back.config().chunk == 3);
    CHECK(back.classify("the film was good").rollout == model.classify("the film was good").rollout);

    attnlab::VitConfig v;
    v.imageSize = 16;
    v.patch = 4;
    v.hidden = 8;
    v.heads = 2;
    v.layers = 1;
    v.pattern = AttentionPattern::Local;
    v.window = 2;
    const attnlab::ImageClassifier vit(v, {"a", "b"}, 1);
    const std::string vitPath = dir / "vit.safetensors";
    vit.save(vitPath);
    const attnlab::ImageClassifier vitBack = attnlab::ImageClassifier::load(vitPath);
    CHECK(vitBack.config().pattern == AttentionPattern::Local);
    CHECK(vitBack.config().window == 2);

    // Configs written before the patterns (no keys) load as full; the ranges are translation's settings.
    auto strip = [](std::string json) {
        for (const char* key : {"attention_pattern", "local_window", "attention_chunk"}) {
            const std::size_t at = json.find(std::string(",\"") + key + "\"");
            REQUIRE(at != std::string::npos);
            json.erase(at, json.find_first_of(",}", json.find(':', at)) - at);
        }
        REQUIRE(json.find("attention_pattern") == std::string::npos);
        return json;
    };
    c.vocabulary = 10;
    c.classes = 2;
    const attnlab::ClassifierConfig oldClassifier = attnlab::classifierConfigFromJson(strip(attnlab::toJson(c)));
    CHECK(oldClassifier.pattern == AttentionPattern::Full);
    CHECK(oldClassifier.chunk == 0);
    CHECK(oldClassifier.window == 3);
    v.classes = 2;
    const attnlab::VitConfig oldVit = attnlab::vitConfigFromJson(strip(attnlab::toJson(v)));
    CHECK(oldVit.pattern == AttentionPattern::Full);
    CHECK(oldVit.window == 3);
    CHECK(attnlab::patternChunk(oldVit) == 5);  // ceil(sqrt(1 + 16))
    c.chunk = -1;
    try {
        attnlab::checkConfig(c);
        FAIL("checkConfig accepted chunk -1");
    } catch (const attnlab::ConfigError& e) {
        REQUIRE(e.problem());
        CHECK(e.problem()->setting == attnlab::Setting::AttentionChunk);
    }
    v.window = 0;
    try {
        attnlab::checkConfig(v);
        FAIL("checkConfig accepted window 0");
    } catch (const attnlab::ConfigError& e) {
        REQUIRE(e.problem());
        CHECK(e.problem()->setting == attnlab::Setting::LocalWindow);
    }
}
