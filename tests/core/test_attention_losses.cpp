// The attention losses (engine/detail/AttentionLosses.h: coverage, Xu et al. 2015; guided alignment,
// Garg et al. 2019) against hand computation; the captured cross-attention carrying gradients when
// they are on (the fused nodes step aside, same logits); and training with them: guided alignment
// pulls the chosen head onto the gold links, coverage leaves no source word unattended, and the
// options' mistakes are ConfigErrors naming the flag.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>

#include "base/InputError.h"
#include "base/translation/Datasets.h"
#include "engine/detail/AttentionLosses.h"
#include "engine/nn/networks/GruSeq2Seq.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::Contains;

namespace {

// Two sentences: the first with 2 target tokens (t0, </s>) over 3 source tokens (s0, s1, </s>);
// the second 1 target token (</s>) over 2 source tokens (s0, </s>), padded to the first's lengths.
struct HandBatch {
    Batch batch;
    torch::Tensor tgt, src;
    nn::Captured captured;
};

HandBatch handBatch() {
    HandBatch h;
    h.batch.size = 2;
    h.batch.sourceLen = 3;
    h.batch.targetLen = 2;
    h.batch.indices = {0, 1};
    h.batch.sourceLengths = {3, 2};
    h.batch.targetLengths = {2, 1};
    const std::int64_t eos = Vocabulary::kEos, pad = Vocabulary::kPad;
    h.src = torch::tensor(std::vector<std::int64_t>{5, 6, eos, 5, eos, pad}, torch::kLong).view({2, 3});
    h.tgt = torch::tensor(std::vector<std::int64_t>{7, eos, eos, pad}, torch::kLong).view({2, 2});
    // [B, L=1, H=1, T, S]; the second sentence's padding column gets 0, its padding row anything.
    const torch::Tensor w = torch::tensor({0.5f, 0.3f, 0.2f, 0.1f, 0.6f, 0.3f,  //
                                           0.7f, 0.3f, 0.0f, 0.4f, 0.6f, 0.0f})
                                .view({2, 1, 1, 2, 3});
    h.captured[MapKind::Cross] = w;
    return h;
}

}  // namespace

TEST_CASE("guided alignment and coverage losses match a hand computation", "[attention-losses]") {
    const HandBatch h = handBatch();
    // Gold: target 0 of sentence 0 linked to sources 0 (sure) and 1 (possible); sentence 1 has none.
    std::vector<SentenceAlignment> gold(2);
    gold[0].sure = {AlignmentLink{0, 0}};
    gold[0].possible = {AlignmentLink{1, 0}};
    double linked = 0;
    const torch::Tensor targets = goldTargets(gold, h.batch, &linked);
    CHECK(linked == 1.0);
    CHECK(targets[0][0][0].item<float>() == Approx(0.5));
    CHECK(targets[0][0][1].item<float>() == Approx(0.5));
    CHECK(targets.sum().item<float>() == Approx(1.0));

    TranslationTrainingOptions guided;
    guided.guidedAlignment = 2.0;
    AttentionLossScale scale{linked, 2};
    // 2 * -(0.5 ln 0.5 + 0.5 ln 0.3) / 1 linked row.
    const double wantGuided = 2.0 * -(0.5 * std::log(0.5) + 0.5 * std::log(0.3));
    CHECK(attentionLoss(h.captured, h.tgt, h.src, targets, guided, scale).item<double>() ==
          Approx(wantGuided).epsilon(1e-5));

    TranslationTrainingOptions coverage;
    coverage.coveragePenalty = 0.5;
    // Sentence 0: received [0.6, 0.9, 0.5], tau 2/3. Sentence 1: only row 0 and columns 0-1 count:
    // received [0.7, 0.3], tau 1/2. Summed, times 0.5, over 2 sentences.
    const double t0 = 2.0 / 3.0;
    const double s0 = std::pow(t0 - 0.6, 2) + std::pow(t0 - 0.9, 2) + std::pow(t0 - 0.5, 2);
    const double s1 = std::pow(0.5 - 0.7, 2) + std::pow(0.5 - 0.3, 2);
    CHECK(attentionLoss(h.captured, h.tgt, h.src, {}, coverage, scale).item<double>() ==
          Approx(0.5 * (s0 + s1) / 2.0).epsilon(1e-5));

    // Both at once add up; a Transformer's coverage reads the last layer's heads averaged and its
    // guided alignment one head.
    TranslationTrainingOptions both = guided;
    both.coveragePenalty = 0.5;
    CHECK(attentionLoss(h.captured, h.tgt, h.src, targets, both, scale).item<double>() ==
          Approx(wantGuided + 0.5 * (s0 + s1) / 2.0).epsilon(1e-5));
    nn::Captured layered;
    const torch::Tensor one = h.captured.at(MapKind::Cross);
    const torch::Tensor flat = torch::full_like(one, 1.0f / 3.0f);
    layered[MapKind::Cross] = torch::cat({torch::cat({flat, flat}, 2), torch::cat({one, flat}, 2)}, 1);  // [B, 2, 2, T, S]
    TranslationTrainingOptions head = guided;
    head.alignmentLayer = 1;
    head.alignmentHead = 0;
    CHECK(attentionLoss(layered, h.tgt, h.src, targets, head, scale).item<double>() == Approx(wantGuided).epsilon(1e-5));
    CHECK(torch::allclose(coverageMap(layered), (one + flat).squeeze(1).squeeze(1) / 2));
    // No cross-attention (a GRU without attention): nothing to add.
    CHECK(attentionLoss(nn::Captured{}, h.tgt, h.src, targets, both, scale).item<double>() == 0.0);
}

TEST_CASE("with differentiableAttention the captured cross-attention carries gradients, the logits unchanged",
          "[attention-losses]") {
    torch::manual_seed(3);
    const std::int64_t eos = Vocabulary::kEos, bos = Vocabulary::kBos;
    const torch::Tensor src = torch::tensor(std::vector<std::int64_t>{5, 6, 7, eos, 6, 5, eos, 0}, torch::kLong).view({2, 4});
    const torch::Tensor srcLen = torch::tensor(std::vector<std::int64_t>{4, 3}, torch::kLong);
    const torch::Tensor tgtIn = torch::tensor(std::vector<std::int64_t>{bos, 7, 6, bos, 5, 0}, torch::kLong).view({2, 3});
    auto check = [&](nn::Seq2SeqNet& net, const char* name) {
        INFO(name);
        net.train();
        nn::Captured plain, differentiable;
        const torch::Tensor a = net.forward(src, srcLen, tgtIn, &plain, 1.0);
        net.differentiableAttention = true;
        const torch::Tensor b = net.forward(src, srcLen, tgtIn, &differentiable, 1.0);
        net.differentiableAttention = false;
        CHECK(torch::allclose(a, b, 1e-5, 1e-6));
        CHECK(torch::allclose(plain.at(MapKind::Cross), differentiable.at(MapKind::Cross), 1e-5, 1e-6));
        const torch::Tensor w = differentiable.at(MapKind::Cross);
        REQUIRE(w.requires_grad());
        // A loss on the weights alone reaches the attention's parameters.
        net.zero_grad();
        (w * w).sum().backward();
        double reached = 0;
        for (const auto& p : net.parameters())
            if (p.grad().defined()) reached += p.grad().abs().sum().item<double>();
        CHECK(reached > 0);
    };
    for (QueryOrder query : {QueryOrder::Before, QueryOrder::After}) {
        ModelConfig c = test::tinyGru(AttentionKind::Additive);
        c.query = query;
        c.dropout = 0.0f;
        c.sourceVocab = c.targetVocab = 10;
        nn::GruSeq2Seq gru(c);
        check(gru, query == QueryOrder::Before ? "gru, query before" : "gru, query after");
    }
    ModelConfig t = test::tinyTransformer(2, 2);
    t.dropout = 0.0f;
    t.sourceVocab = t.targetVocab = 10;
    nn::TransformerSeq2Seq transformer(t);
    check(transformer, "transformer");
}

namespace {

// A tiny model trained on toy-en-zh (built in, with gold links) with these options.
std::unique_ptr<TranslationTrainer> trainToy(ModelConfig c, TranslationTrainingOptions o, int epochs, TranslationEpochMetrics* last) {
    DatasetOptions data;
    data.size = 300;
    data.seed = 2;
    c.dropout = 0.0f;
    c.maxLength = 40;
    o.epochs = epochs;
    o.batchSize = 16;
    o.learningRate = 0.005;
    o.seed = 4;
    o.validationFraction = 0.2;
    auto trainer = std::make_unique<TranslationTrainer>(generateDataset("toy-en-zh", data), c, o);
    trainer->run(nullptr, [&](const TranslationEpochMetrics& m) { *last = m; });
    return trainer;
}

// How unevenly the source words share the attention, over the validation sentences' greedy
// translations: the mean over source tokens of (rows / cols - the attention a token received)^2,
// the quantity the coverage penalty lowers.
double coverageDeviation(const TranslationTrainer& trainer) {
    double sum = 0;
    int tokens = 0;
    for (const SentencePair& pair : trainer.validationCorpus().pairs) {
        const Translation t = trainer.model().translate(pair.source);
        const AttentionMap& m = t.attention.at(MapKind::Cross)[0][0];
        if (m.rows == 0) continue;
        const double tau = static_cast<double>(m.rows) / m.cols;
        for (int c = 0; c < m.cols; ++c) {
            double received = 0;
            for (int r = 0; r < m.rows; ++r) received += m.at(r, c);
            sum += (tau - received) * (tau - received);
            ++tokens;
        }
    }
    return tokens ? sum / tokens : 0.0;
}

}  // namespace

TEST_CASE("guided alignment pulls the chosen head onto the gold links; coverage evens the attention out",
          "[attention-losses]") {
    // The same Transformer head measured without guidance (a weight of 1e-9 changes nothing but which
    // map AER scores) and with it.
    ModelConfig transformer = test::tinyTransformer(1, 2);
    transformer.hidden = 32;
    transformer.feedForward = 64;
    TranslationTrainingOptions probe, guided;
    probe.guidedAlignment = 1e-9;
    guided.guidedAlignment = 1.0;
    TranslationEpochMetrics unguided, pulled;
    trainToy(transformer, probe, 6, &unguided);
    trainToy(transformer, guided, 6, &pulled);
    INFO("AER of the head: unguided " << unguided.alignmentErrorRate << ", guided " << pulled.alignmentErrorRate);
    REQUIRE(std::isfinite(unguided.alignmentErrorRate));
    CHECK(pulled.alignmentErrorRate < 0.5 * unguided.alignmentErrorRate);
    CHECK(pulled.alignmentErrorRate < 0.15);

    // Coverage on a GRU: the source words' shares of the attention come closer to even.
    ModelConfig gru = test::tinyGru(AttentionKind::Additive, 32);
    TranslationTrainingOptions coverage;
    coverage.coveragePenalty = 1.0;
    TranslationEpochMetrics plainMetrics, coveredMetrics;
    const auto plain = trainToy(gru, TranslationTrainingOptions{}, 6, &plainMetrics);
    const auto covered = trainToy(gru, coverage, 6, &coveredMetrics);
    const double before = coverageDeviation(*plain), after = coverageDeviation(*covered);
    INFO("coverage deviation: plain " << before << ", with the penalty " << after);
    CHECK(after < 0.5 * before);
}

TEST_CASE("attention losses without what they need are ConfigErrors naming the flag", "[attention-losses]") {
    DatasetOptions data;
    data.size = 40;
    ParallelCorpus withLinks = generateDataset("reverse", data);
    ParallelCorpus noLinks = withLinks;
    for (auto& p : noLinks.pairs) p.alignment.clear();
    noLinks.hasAlignments = false;
    TranslationTrainingOptions guided;
    guided.guidedAlignment = 1.0;
    guided.epochs = 1;
    CHECK_THROWS_WITH(TranslationTrainer(noLinks, test::tinyGru(AttentionKind::Dot), guided),
                      Contains("guided alignment (--guided-alignment) needs gold word links"));
    CHECK_THROWS_WITH(TranslationTrainer(withLinks, test::tinyGru(AttentionKind::None), guided), Contains("--guided-alignment"));
    TranslationTrainingOptions head = guided;
    head.alignmentLayer = 2;
    CHECK_THROWS_WITH(TranslationTrainer(withLinks, test::tinyTransformer(2, 2), head),
                      Contains("(--alignment-head) must be a cross-attention head of the model (layer 1-2, head 1-2)"));
    TranslationTrainingOptions negative;
    negative.coveragePenalty = -1;
    CHECK_THROWS_AS(TranslationTrainer(withLinks, test::tinyGru(AttentionKind::Dot), negative), ConfigError);
}
