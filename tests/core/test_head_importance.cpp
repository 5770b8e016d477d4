// Head ablation, gradient importance and attention rollout of the translation Transformer
// (engine/translation/HeadImportance.h, MultiHeadAttention's head gates):
// - gates of 1 (and no gates) give the plain forward exactly; a gate of 0 removes exactly that
//   head's share of the context (all of a module's heads off: the context is 0, the output the
//   projection's bias), and switching the cross heads off makes the output blind to the source;
// - ablating a late head leaves every map before it untouched;
// - decoding with heads off (the plain step, not the fused one) scores what a forward pass scores;
// - the rollout's rows sum to 1 and one layer's rollout is the renormalised (A + I) / 2;
// - the gradient importance equals |dL/d gate| by central finite differences, per sentence;
// - the per-head figures, the per-layer normalisation and the pruning curves hold together.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/translation/Datasets.h"
#include "engine/detail/HeadGates.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"
#include "engine/translation/HeadImportance.h"
#include "engine/translation/TranslationTrainer.h"

#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;
using torch::Tensor;

namespace {

// One trained tiny Transformer (2 + 2 layers, 2 heads) shared by the cases.
TranslationTrainer& trained() {
    static std::unique_ptr<TranslationTrainer> trainer = test::trainedOnReverse(test::tinyTransformer(2, 2), 160, 3);
    return *trainer;
}

nn::TransformerSeq2Seq& transformer(Seq2SeqModel& model) {
    auto* t = attnlab::detail::transformerOf(*attnlab::detail::ModelAccess::impl(model).net);
    REQUIRE(t != nullptr);
    return *t;
}

struct Inputs {
    Tensor src, srcLen, tgtIn, tgt;
};

// Two sources of different lengths (the second padded) and a target prefix.
Inputs inputs() {
    Inputs in;
    in.src = torch::tensor({5, 6, 7, 8, 2, 9, 5, 2, 0, 0}, torch::kLong).view({2, 5});
    in.srcLen = torch::tensor({5, 3}, torch::kLong);
    in.tgtIn = torch::tensor({1, 7, 5, 6, 1, 9, 8, 5}, torch::kLong).view({2, 4});
    in.tgt = torch::tensor({7, 5, 6, 2, 9, 8, 5, 2}, torch::kLong).view({2, 4});
    return in;
}

ParallelCorpus reverseCorpus(std::size_t size, std::uint64_t seed) {
    DatasetOptions o;
    o.size = size;
    o.seed = seed;
    o.maxLen = 6;
    return generateDataset("reverse", o);
}

// The summed token cross-entropy of one pair with the gates as they are set.
double pairLoss(nn::TransformerSeq2Seq& net, const Seq2SeqModel& model, const SentencePair& pair) {
    Tokenizer tok(model.tokenizerOptions());
    auto src = model.sourceVocabulary().encode(tok.tokenize(pair.source));
    src.push_back(Vocabulary::kEos);
    auto tgt = model.targetVocabulary().encode(tok.tokenize(pair.target));
    tgt.push_back(Vocabulary::kEos);
    std::vector<std::int64_t> tgtIn{Vocabulary::kBos};
    tgtIn.insert(tgtIn.end(), tgt.begin(), tgt.end() - 1);
    torch::NoGradGuard noGrad;
    Tensor logits = net.forward(torch::tensor(src, torch::kLong).unsqueeze(0),
                                torch::tensor({static_cast<std::int64_t>(src.size())}, torch::kLong),
                                torch::tensor(tgtIn, torch::kLong).unsqueeze(0), nullptr, 1.0);
    return torch::nn::functional::cross_entropy(logits[0], torch::tensor(tgt, torch::kLong),
                                                torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
        .item<double>();
}

AttentionMap meanOfHeads(const std::vector<AttentionMap>& heads, const std::vector<int>& which) {
    AttentionMap m{heads[0].rows, heads[0].cols, std::vector<float>(heads[0].weights.size(), 0.0f)};
    for (int h : which)
        for (std::size_t i = 0; i < m.weights.size(); ++i)
            m.weights[i] += heads[static_cast<std::size_t>(h)].weights[i] / static_cast<float>(which.size());
    return m;
}

// (A + I) / 2 with each row renormalised, by hand.
std::vector<double> halfIdentity(const AttentionMap& a) {
    std::vector<double> out(a.weights.size());
    for (int r = 0; r < a.rows; ++r) {
        double sum = 0.0;
        for (int c = 0; c < a.cols; ++c) sum += 0.5 * a.at(r, c) + (r == c ? 0.5 : 0.0);
        for (int c = 0; c < a.cols; ++c)
            out[static_cast<std::size_t>(r * a.cols + c)] = (0.5 * a.at(r, c) + (r == c ? 0.5 : 0.0)) / sum;
    }
    return out;
}

}  // namespace

TEST_CASE("no head removed is the plain forward, exactly; gates of 1 change nothing", "[heads]") {
    Seq2SeqModel& model = trained().model();
    nn::TransformerSeq2Seq& net = transformer(model);
    net.eval();
    torch::NoGradGuard noGrad;
    const Inputs in = inputs();
    nn::Captured plain, gated, perRow;
    const Tensor reference = net.forward(in.src, in.srcLen, in.tgtIn, &plain, 1.0);

    attnlab::detail::setAblation(net, {}, 2, 2);  // an empty set: no gates at all
    CHECK(torch::equal(net.forward(in.src, in.srcLen, in.tgtIn, nullptr, 1.0), reference));
    for (MapKind kind : kHeadKinds)
        for (std::size_t l = 0; l < 2; ++l) net.attentionModule(kind, l)->setHeadGate(torch::ones({2}));
    CHECK(torch::equal(net.forward(in.src, in.srcLen, in.tgtIn, &gated, 1.0), reference));
    for (MapKind kind : kHeadKinds)
        for (std::size_t l = 0; l < 2; ++l) net.attentionModule(kind, l)->setHeadGate(torch::ones({2, 2}));
    CHECK(torch::equal(net.forward(in.src, in.srcLen, in.tgtIn, &perRow, 1.0), reference));
    net.clearHeadGates();
    for (MapKind kind : kHeadKinds) {
        CHECK(torch::equal(gated.at(kind), plain.at(kind)));
        CHECK(torch::equal(perRow.at(kind), plain.at(kind)));
    }

    // Through the public API: no ablated heads is the model's own translation.
    DecodeOptions o;
    const AblatedTranslation t = translateWithAblation(model, "a b c d", o, {});
    CHECK(t.ablated.outputTokens == t.original.outputTokens);
    CHECK(t.ablated.logProbability == t.original.logProbability);
    CHECK(t.originalLogProbabilityAblated == t.originalLogProbability);
}

TEST_CASE("a zero gate removes that head's share of the context; all off leaves the bias", "[heads]") {
    torch::manual_seed(3);
    nn::MultiHeadAttention mha(8, 2, 0.0);
    mha->eval();
    torch::NoGradGuard noGrad;
    const Tensor q = torch::randn({2, 3, 8}), memory = torch::randn({2, 4, 8});
    const Tensor mask = torch::tensor({false, false, false, false, false, false, true, true}).view({2, 4});
    Tensor weights;
    const Tensor full = mha->forward(q, memory, mask, false, &weights);
    // By hand: head h's context is weights_h · V_h in columns h·4..h·4+3, then the output projection.
    const auto proj = mha->projections();
    torch::nn::Linear vProjection = proj.v, outProjection = proj.out;
    const Tensor v = vProjection(memory).view({2, 4, 2, 4}).transpose(1, 2);  // [B, H, Tk, dk]
    const Tensor heads = torch::matmul(weights, v);                       // [B, H, Tq, dk]
    Tensor keepFirst = heads.clone();
    keepFirst.select(1, 1).zero_();
    const Tensor expected = outProjection(keepFirst.transpose(1, 2).reshape({2, 3, 8}));

    mha->setHeadGate(torch::tensor({1.0f, 0.0f}));
    Tensor gatedWeights;
    const Tensor firstOnly = mha->forward(q, memory, mask, false, &gatedWeights);
    CHECK(torch::allclose(firstOnly, expected, 1e-5, 1e-6));
    CHECK(torch::equal(gatedWeights, weights));  // the maps are the softmax's, gated or not
    mha->setHeadGate(torch::zeros({2}));
    const Tensor none = mha->forward(q, memory, mask, false);
    CHECK(torch::allclose(none, outProjection->bias.view({1, 1, 8}).expand({2, 3, 8}), 0, 1e-7));
    // The incremental step gates the same way.
    auto [keys, values] = mha->keysValues(memory);
    mha->setHeadGate(torch::tensor({1.0f, 0.0f}));
    const Tensor step = mha->forwardStep(q.narrow(1, 1, 1), keys, values, mask, nullptr);
    CHECK(torch::allclose(step, expected.narrow(1, 1, 1), 1e-5, 1e-6));
}

TEST_CASE("ablation changes only what lies after the head", "[heads]") {
    Seq2SeqModel& model = trained().model();
    nn::TransformerSeq2Seq& net = transformer(model);
    net.eval();
    torch::NoGradGuard noGrad;
    const Inputs in = inputs();
    nn::Captured plain, ablated;
    const Tensor reference = net.forward(in.src, in.srcLen, in.tgtIn, &plain, 1.0);

    SECTION("every cross head off: the output no longer depends on the source") {
        attnlab::detail::setAblation(net, resolveHeads(parseHeadAblation("cross:*:*"), 2, 2), 2, 2);
        const Tensor a = net.forward(in.src, in.srcLen, in.tgtIn, &ablated, 1.0);
        Tensor otherSource = torch::tensor({9, 9, 4, 2, 0, 6, 2, 0, 0, 0}, torch::kLong).view({2, 5});
        const Tensor b = net.forward(otherSource, torch::tensor({4, 2}, torch::kLong), in.tgtIn, nullptr, 1.0);
        net.clearHeadGates();
        CHECK(torch::allclose(a, b, 0, 1e-6));
        CHECK_FALSE(torch::allclose(a, reference, 1e-3, 1e-3));
        CHECK(torch::equal(ablated.at(MapKind::Encoder), plain.at(MapKind::Encoder)));
        // The decoder's first self-attention comes before any cross-attention.
        CHECK(torch::equal(ablated.at(MapKind::Decoder).select(1, 0), plain.at(MapKind::Decoder).select(1, 0)));
    }
    SECTION("the last decoder layer's self head: every encoder map and the first decoder layer stay") {
        attnlab::detail::setAblation(net, {{MapKind::Decoder, 1, 0}}, 2, 2);
        const Tensor a = net.forward(in.src, in.srcLen, in.tgtIn, &ablated, 1.0);
        net.clearHeadGates();
        CHECK_FALSE(torch::allclose(a, reference, 1e-4, 1e-4));
        CHECK(torch::equal(ablated.at(MapKind::Encoder), plain.at(MapKind::Encoder)));
        for (MapKind kind : {MapKind::Decoder, MapKind::Cross})
            CHECK(torch::equal(ablated.at(kind).select(1, 0), plain.at(kind).select(1, 0)));
        CHECK(torch::equal(ablated.at(MapKind::Decoder).select(1, 1), plain.at(MapKind::Decoder).select(1, 1)));
        CHECK_FALSE(torch::allclose(ablated.at(MapKind::Cross).select(1, 1), plain.at(MapKind::Cross).select(1, 1),
                                    1e-4, 1e-4));
    }
    SECTION("the first encoder layer's second head: its layer's maps stay, the next layer's change") {
        attnlab::detail::setAblation(net, {{MapKind::Encoder, 0, 1}}, 2, 2);
        net.forward(in.src, in.srcLen, in.tgtIn, &ablated, 1.0);
        net.clearHeadGates();
        CHECK(torch::equal(ablated.at(MapKind::Encoder).select(1, 0), plain.at(MapKind::Encoder).select(1, 0)));
        CHECK_FALSE(torch::allclose(ablated.at(MapKind::Encoder).select(1, 1),
                                    plain.at(MapKind::Encoder).select(1, 1), 1e-4, 1e-4));
    }
    // Out of range is refused, the net left ungated.
    CHECK_THROWS_AS(attnlab::detail::setAblation(net, {{MapKind::Cross, 2, 0}}, 2, 2), ConfigError);
    CHECK(torch::equal(net.forward(in.src, in.srcLen, in.tgtIn, nullptr, 1.0), reference));
}

TEST_CASE("decoding with heads off scores what a forward pass with them off scores", "[heads]") {
    const Seq2SeqModel& model = trained().model();
    for (const std::string spec : {"cross:2:1", "encoder:1:*,decoder:2:2", "*:1:2"}) {
        INFO(spec);
        DecodeOptions o;
        const std::vector<HeadId> off = resolveHeads(parseHeadAblation(spec), 2, 2);
        for (int beam : {1, 3}) {
            o.beam = beam;
            const AblatedTranslation t = translateWithAblation(model, "h u x s", o, off);
            REQUIRE(!t.ablated.outputTokens.empty());
            // A translation that ran out of steps has no </s>, which the forced score counts.
            constexpr std::size_t kMaxSteps = 2 * 5 + 10;  // four words and </s>
            if (t.ablated.outputTokens.size() < kMaxSteps)
                CHECK_THAT(forcedLogProbability(model, "h u x s", t.ablated.outputTokens, off),
                           WithinAbs(t.ablated.logProbability, 1e-4));
            if (t.original.outputTokens.size() < kMaxSteps)
                CHECK_THAT(t.originalLogProbability, WithinAbs(t.original.logProbability, 1e-4));
            CHECK(t.originalLogProbabilityAblated <= 0.0);
            // Every map of the ablated translation is one of the ablated model's steps.
            REQUIRE(t.ablated.attention.count(MapKind::Cross));
            CHECK(t.ablated.attention.at(MapKind::Cross).size() == 2);
        }
    }
    // A GRU has no heads.
    auto gru = test::trainedOnReverse(test::tinyGru(), 40, 0);
    CHECK_THROWS_AS(translateAblated(gru->model(), "a b", {}, {{MapKind::Cross, 0, 0}}), ConfigError);
    CHECK_THROWS_AS(measureHeadImportance(gru->model(), reverseCorpus(10, 5)), ConfigError);
}

TEST_CASE("rollout rows sum to 1; one layer's rollout is the renormalised (A + I) / 2", "[heads][rollout]") {
    SECTION("two layers") {
        const Translation t = trained().model().translate("d a l f");
        const AttentionMap r = encoderRollout(t);
        REQUIRE(r.rows == static_cast<int>(t.sourceTokens.size()));
        REQUIRE(r.cols == r.rows);
        for (int i = 0; i < r.rows; ++i) {
            double sum = 0.0;
            for (int j = 0; j < r.cols; ++j) {
                CHECK(r.at(i, j) >= 0.0f);
                sum += r.at(i, j);
            }
            CHECK_THAT(sum, WithinAbs(1.0, 1e-5));
        }
    }
    SECTION("one layer, every head and one head left out") {
        // The encoder's maps as translate lays them out, straight from the network (a tiny
        // model's translation may be empty, and then carries no maps).
        auto one = test::trainedOnReverse(test::tinyTransformer(1, 2), 120, 1);
        nn::Seq2SeqNet& net = *attnlab::detail::ModelAccess::impl(one->model()).net;
        net.eval();
        torch::NoGradGuard noGrad;
        nn::Captured captured;
        net.start(torch::tensor({5, 6, 7, 8, 2}, torch::kLong).view({1, 5}), torch::tensor({5}, torch::kLong),
                  &captured);
        const Tensor encoder = captured.at(MapKind::Encoder).contiguous();  // [1, 1, H, S, S]
        REQUIRE(encoder.size(2) == 2);
        Translation t;
        t.attention[MapKind::Encoder].resize(1);
        for (int64_t h = 0; h < 2; ++h) {
            const Tensor m = encoder[0][0][h].contiguous();
            t.attention[MapKind::Encoder][0].push_back(
                AttentionMap{5, 5, std::vector<float>(m.data_ptr<float>(), m.data_ptr<float>() + 25)});
        }
        const auto& heads = t.attention.at(MapKind::Encoder).at(0);
        const std::vector<double> all = halfIdentity(meanOfHeads(heads, {0, 1}));
        const AttentionMap r = encoderRollout(t);
        REQUIRE(r.weights.size() == all.size());
        for (std::size_t i = 0; i < all.size(); ++i) CHECK_THAT(r.weights[i], WithinAbs(all[i], 1e-6));
        const std::vector<double> second = halfIdentity(meanOfHeads(heads, {1}));
        const AttentionMap r1 = encoderRollout(t, {{MapKind::Encoder, 0, 0}});
        for (std::size_t i = 0; i < second.size(); ++i) CHECK_THAT(r1.weights[i], WithinAbs(second[i], 1e-6));
        // Every head off: the layer mixes nothing.
        const AttentionMap none = encoderRollout(t, {{MapKind::Encoder, 0, 0}, {MapKind::Encoder, 0, 1}});
        for (int i = 0; i < none.rows; ++i)
            for (int j = 0; j < none.cols; ++j) CHECK(none.at(i, j) == (i == j ? 1.0f : 0.0f));
    }
}

TEST_CASE("gradient importance is |dL/d gate| by finite differences, summed per sentence", "[heads]") {
    Seq2SeqModel& model = trained().model();
    nn::TransformerSeq2Seq& net = transformer(model);
    net.eval();
    const ParallelCorpus corpus = reverseCorpus(2, 11);
    REQUIRE(corpus.pairs.size() == 2);
    const std::vector<double> gradients = headGateGradients(model, corpus);
    const std::vector<HeadId> all = allHeads(2, 2);
    REQUIRE(gradients.size() == all.size());
    const double eps = 1e-2;
    for (std::size_t i = 0; i < all.size(); ++i) {
        INFO(toString(all[i]));
        double expected = 0.0;
        for (const SentencePair& pair : corpus.pairs) {
            auto loss = [&](float value) {
                Tensor gate = torch::ones({2});
                gate[all[i].head] = value;
                net.attentionModule(all[i].kind, static_cast<std::size_t>(all[i].layer))->setHeadGate(gate);
                const double l = pairLoss(net, model, pair);
                net.clearHeadGates();
                return l;
            };
            expected += std::abs((loss(1.0f + static_cast<float>(eps)) - loss(1.0f - static_cast<float>(eps))) / (2 * eps));
        }
        CHECK(gradients[i] >= 0.0);
        CHECK_THAT(gradients[i], WithinAbs(expected, 2e-3 + 0.02 * expected));
    }
}

TEST_CASE("head importance: per-head figures, per-layer norms and the pruning curves agree", "[heads]") {
    const Seq2SeqModel& model = trained().model();
    const ParallelCorpus corpus = reverseCorpus(40, 21);
    HeadImportanceOptions o;
    o.randomOrders = 2;
    const HeadImportanceReport r = measureHeadImportance(model, corpus, o);
    REQUIRE(r.heads.size() == 12);
    CHECK(r.pairs == 40);
    const AblationScore base = scoreWithAblation(model, corpus, {});
    CHECK_THAT(r.baseline.loss, WithinAbs(base.loss, 1e-9));
    CHECK_THAT(r.baseline.bleu, WithinAbs(base.bleu, 1e-9));
    const std::vector<double> gradients = headGateGradients(model, corpus);
    for (std::size_t g = 0; g < 6; ++g) {  // each (kind, layer): norm 1
        double norm = 0.0;
        for (std::size_t h = 0; h < 2; ++h) {
            const HeadEffect& e = r.heads[g * 2 + h];
            CHECK(e.head == allHeads(2, 2)[g * 2 + h]);
            CHECK(e.importance >= 0.0);
            CHECK_THAT(e.gradient, WithinAbs(gradients[g * 2 + h], 1e-6 * (1 + gradients[g * 2 + h])));
            norm += e.importance * e.importance;
        }
        CHECK_THAT(norm, WithinAbs(1.0, 1e-9));
    }
    const HeadEffect& probe = r.heads[10];  // cross:2:1
    const AblationScore alone = scoreWithAblation(model, corpus, {probe.head});
    CHECK_THAT(probe.deltaLoss, WithinAbs(alone.loss - base.loss, 1e-9));
    CHECK_THAT(probe.deltaMetric, WithinAbs(alone.bleu - base.bleu, 1e-9));

    REQUIRE(r.pruningCurve.size() == 13);
    REQUIRE(r.randomCurve.size() == 13);
    CHECK(r.pruningCurve.front().metric == r.baseline.bleu);
    CHECK(r.pruningCurve.back().prunedFraction == 1.0);
    // The order is ascending importance; its first point is that head alone off.
    for (std::size_t k = 1; k < r.pruningOrder.size(); ++k) {
        auto importanceOf = [&](const HeadId& h) {
            for (const auto& e : r.heads)
                if (e.head == h) return e.importance;
            return -1.0;
        };
        CHECK(importanceOf(r.pruningOrder[k - 1]) <= importanceOf(r.pruningOrder[k]));
    }
    CHECK_THAT(r.pruningCurve[1].metric, WithinAbs(scoreWithAblation(model, corpus, {r.pruningOrder[0]}).bleu, 1e-9));
    // Everything off: the random orders end where the ranked one does.
    CHECK_THAT(r.randomCurve.back().metric, WithinAbs(r.pruningCurve.back().metric, 1e-9));
    CHECK_THROWS_AS(measureHeadImportance(model, ParallelCorpus{"empty.tsv", {}, {}, {}, false}), InputError);
}
