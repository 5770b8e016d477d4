// The fused GRU training path (FusedGruEncoder and FusedAttentionDecoder: one autograd
// node each, with a hand-written backward) against the step-by-step autograd path it
// replaces: same outputs, same gradient for every parameter, in double precision, with
// padding on both sides and dropout.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include "core/AutogradGraph.h"

#include <map>
#include <set>
#include <string>
#include <vector>

#include "engine/nn/nodes/FusedAttentionDecoder.h"
#include "engine/nn/nodes/FusedGruCell.h"
#include "engine/nn/networks/GruSeq2Seq.h"

#include "TinyModels.h"

using namespace attnlab;
using attnlab::test::graphContains;
using attnlab::test::graphCount;

namespace {

using torch::Tensor;

ModelConfig smallConfig(AttentionKind kind, float dropout, int layers = 1, QueryOrder query = QueryOrder::Before) {
    ModelConfig c = test::tinyGru(kind, 8);
    c.bidirectional = false;
    c.query = query;
    c.dropoutOn = DropoutPlacement::Both;
    c.embedding = 6;  // differs from hidden: the embedding projection is E -> 3H
    c.layers = layers;
    c.dropout = dropout;
    c.maxLength = 32;
    c.sourceVocab = 11;
    c.targetVocab = 13;
    return c;
}

struct TestBatch {
    Tensor src, srcLen, tgtIn;
};

// Four sentences of different lengths, so that source padding is masked and the
// packed encoder's final states come from different steps.
TestBatch makeBatch() {
    torch::manual_seed(7);
    const std::vector<int64_t> srcLengths{5, 3, 1, 4};
    const int64_t B = 4, S = 5, T = 4;
    Tensor src = torch::randint(3, 11, {B, S}, torch::kLong);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t s = srcLengths[b]; s < S; ++s) src[b][s] = 0;
    Tensor tgtIn = torch::randint(3, 13, {B, T}, torch::kLong);
    tgtIn.select(1, 0).fill_(1);  // <s>
    tgtIn[3][3] = 0;              // a shorter target: padding on the decoder side too
    return {src, torch::tensor(srcLengths, torch::kLong), tgtIn};
}

struct FusedSwitch {
    explicit FusedSwitch(bool on) { nn::setFusedTrainingEnabled(on); }
    ~FusedSwitch() { nn::setFusedTrainingEnabled(true); }
};

struct Pass {
    Tensor logits;
    std::map<std::string, Tensor> grads;
    bool fusedDecoder = false;
    bool fusedEncoder = false;
    int fusedRecurrences = 0;  // FusedGruEncoder nodes: one per encoder direction, one for an `after` decoder
};

// One training forward/backward with a fixed random weighting of every logit as the loss,
// so that each output position sends back a different gradient.
Pass trainingPass(nn::GruSeq2Seq& net, const TestBatch& batch, bool fused, uint64_t seed) {
    FusedSwitch sw(fused);
    net.train();
    net.zero_grad();
    torch::manual_seed(seed);
    Pass p;
    p.logits = net.forward(batch.src, batch.srcLen, batch.tgtIn, nullptr, 1.0);
    p.fusedDecoder = graphContains(p.logits, "FusedAttentionDecoder");
    p.fusedEncoder = graphContains(p.logits, "FusedGruEncoder");
    p.fusedRecurrences = graphCount(p.logits, "FusedGruEncoder");
    torch::manual_seed(99);
    Tensor lossWeights = torch::randn(p.logits.sizes(), p.logits.options());
    (p.logits * lossWeights).sum().backward();
    for (const auto& item : net.named_parameters())
        if (item.value().grad().defined()) p.grads[item.key()] = item.value().grad().clone();
    p.logits = p.logits.detach();
    return p;
}

double relativeError(const Tensor& got, const Tensor& want) {
    const double scale = std::max(want.abs().max().item<double>(), 1e-12);
    return (got - want).abs().max().item<double>() / scale;
}

// Runs the same batch through the autograd path and the fused path of one model (double
// precision, same seed, so that dropout draws the same masks) and compares everything.
// fusedRecurrences: how many FusedGruEncoder nodes the fused pass must hold (-1: any).
// In single precision the fused nodes' per-step products run on the packed kernel of
// nn/kernels/SmallGemm.h (double precision takes addmm): the same numbers to float rounding.
void requireSameAsReference(const ModelConfig& config, bool decoderFused, bool encoderFused,
                            int fusedRecurrences = -1, torch::Dtype dtype = torch::kDouble) {
    auto net = std::make_shared<nn::GruSeq2Seq>(config);
    net->to(dtype);
    const double logitTolerance = dtype == torch::kDouble ? 1e-10 : 2e-5;
    const double gradientTolerance = dtype == torch::kDouble ? 1e-9 : 1e-4;
    const TestBatch batch = makeBatch();
    const Pass reference = trainingPass(*net, batch, false, 5);
    const Pass fused = trainingPass(*net, batch, true, 5);
    INFO(toString(config.attention) << " dropout " << config.dropout << " on " << toString(config.dropoutOn)
                                    << (config.bidirectional ? " bidirectional" : "") << " query "
                                    << toString(config.query));
    REQUIRE_FALSE(reference.fusedDecoder);
    REQUIRE_FALSE(reference.fusedEncoder);
    REQUIRE(fused.fusedDecoder == decoderFused);
    REQUIRE(fused.fusedEncoder == encoderFused);
    if (fusedRecurrences >= 0) REQUIRE(fused.fusedRecurrences == fusedRecurrences);
    CHECK(relativeError(fused.logits, reference.logits) < logitTolerance);
    // Every parameter has the same gradient both ways (the embeddings' padding rows and
    // unused tokens included).
    REQUIRE(reference.grads.size() == net->named_parameters().size());
    for (const auto& [name, want] : reference.grads) {
        INFO(name);
        auto it = fused.grads.find(name);
        REQUIRE(it != fused.grads.end());
        CHECK(relativeError(it->second, want) < gradientTolerance);
    }
}

TEST_CASE("fused GRU training: outputs and every gradient equal the autograd path", "[fused]") {
    for (AttentionKind kind :
         {AttentionKind::Additive, AttentionKind::Dot, AttentionKind::ScaledDot, AttentionKind::General}) {
        requireSameAsReference(smallConfig(kind, 0.0f), true, true);
        // Dropout on the attention weights draws the same masks in the same order.
        requireSameAsReference(smallConfig(kind, 0.3f), true, true);
    }
    // A bidirectional encoder: each direction one node, the backward one over each row reversed
    // within its length (bridged keys).
    ModelConfig bidirectional = smallConfig(AttentionKind::Additive, 0.3f);
    bidirectional.bidirectional = true;
    requireSameAsReference(bidirectional, true, true, 2);
    // The encoder alone: local attention and `none` keep the step-by-step decoder.
    requireSameAsReference(smallConfig(AttentionKind::LocalP, 0.3f), false, true, 1);
    requireSameAsReference(smallConfig(AttentionKind::None, 0.3f), false, true, 1);
    // Dropout on the embeddings only, or on the attention weights only.
    for (DropoutPlacement placement : {DropoutPlacement::Embeddings, DropoutPlacement::Attention}) {
        ModelConfig c = smallConfig(AttentionKind::Additive, 0.3f);
        c.dropoutOn = placement;
        requireSameAsReference(c, true, true, 1);
    }
}

TEST_CASE("fused GRU training, query after: the decoder's GRU as one node from the encoder's state, same numbers",
          "[fused]") {
    // Every kind, local and `none` included: the attention follows the recurrence, so it never
    // blocks the fused GRU. The decoder's initial state (the encoder's final one) gets its
    // gradient through the node, which the encoder's parameters' gradients check.
    for (AttentionKind kind : {AttentionKind::Additive, AttentionKind::Dot, AttentionKind::ScaledDot,
                               AttentionKind::General, AttentionKind::LocalM, AttentionKind::LocalP,
                               AttentionKind::None}) {
        for (float dropout : {0.0f, 0.3f})
            requireSameAsReference(smallConfig(kind, dropout, 1, QueryOrder::After), false, true, 2);
    }
    ModelConfig bidirectional = smallConfig(AttentionKind::Additive, 0.3f, 1, QueryOrder::After);
    bidirectional.bidirectional = true;
    bidirectional.dropoutOn = DropoutPlacement::Embeddings;
    requireSameAsReference(bidirectional, false, true, 3);
}

TEST_CASE("fused GRU training in single precision: the packed per-step products give the same numbers", "[fused]") {
    for (QueryOrder order : {QueryOrder::Before, QueryOrder::After}) {
        ModelConfig c = smallConfig(AttentionKind::Additive, 0.3f, 1, order);
        c.bidirectional = true;
        requireSameAsReference(c, order == QueryOrder::Before, true, -1, torch::kFloat);
        requireSameAsReference(smallConfig(AttentionKind::Dot, 0.0f, 1, order), order == QueryOrder::Before, true, -1,
                               torch::kFloat);
    }
}

TEST_CASE("fused GRU training: only teacher-forced one-layer training uses it", "[fused]") {
    const TestBatch batch = makeBatch();
    // Which fused nodes the graph of one forward pass holds: "decoder", "encoder", both or "".
    auto fusedParts = [&](const ModelConfig& c, bool training, double teacherForcing) {
        auto net = std::make_shared<nn::GruSeq2Seq>(c);
        net->train(training);
        Tensor logits = net->forward(batch.src, batch.srcLen, batch.tgtIn, nullptr, teacherForcing);
        return std::string(graphContains(logits, "FusedAttentionDecoder") ? "decoder" : "") +
               (graphContains(logits, "FusedGruEncoder") ? "encoder" : "");
    };
    const ModelConfig additive = smallConfig(AttentionKind::Additive, 0.1f);
    CHECK(fusedParts(additive, true, 1.0) == "decoderencoder");
    CHECK(fusedParts(additive, false, 1.0) == "");
    CHECK(fusedParts(additive, true, 0.5) == "encoder");
    CHECK(fusedParts(smallConfig(AttentionKind::Additive, 0.1f, 2), true, 1.0) == "");
    CHECK(fusedParts(smallConfig(AttentionKind::LocalM, 0.1f), true, 1.0) == "encoder");
    // Query after: no FusedAttentionDecoder (its GRU is a FusedGruEncoder), and none with sampled inputs.
    auto recurrences = [&](const ModelConfig& c, double teacherForcing) {
        auto net = std::make_shared<nn::GruSeq2Seq>(c);
        net->train();
        return graphCount(net->forward(batch.src, batch.srcLen, batch.tgtIn, nullptr, teacherForcing),
                          "FusedGruEncoder");
    };
    const ModelConfig after = smallConfig(AttentionKind::Additive, 0.1f, 1, QueryOrder::After);
    CHECK(fusedParts(after, true, 1.0) == "encoder");
    CHECK(recurrences(after, 1.0) == 2);
    CHECK(recurrences(after, 0.5) == 1);
    CHECK(recurrences(smallConfig(AttentionKind::Additive, 0.1f, 2, QueryOrder::After), 1.0) == 0);
    {
        torch::NoGradGuard noGrad;
        CHECK(fusedParts(additive, true, 1.0) == "");
    }
    FusedSwitch off(false);
    CHECK(fusedParts(additive, true, 1.0) == "");
}

TEST_CASE("fused GRU training: captured attention during training is a distribution over real source tokens",
          "[fused]") {
    auto net = std::make_shared<nn::GruSeq2Seq>(smallConfig(AttentionKind::Additive, 0.2f));
    net->train();
    const TestBatch batch = makeBatch();
    nn::Captured captured;
    net->forward(batch.src, batch.srcLen, batch.tgtIn, &captured, 1.0);
    REQUIRE(captured.count(MapKind::Cross));
    Tensor w = captured[MapKind::Cross];
    REQUIRE(w.sizes() == torch::IntArrayRef({4, 1, 1, 4, 5}));
    Tensor rows = w.squeeze(1).squeeze(1);  // [B, T, S]
    CHECK((rows.sum(-1) - 1).abs().max().item<double>() < 1e-5);
    CHECK(rows[2].narrow(1, 1, 4).abs().max().item<double>() == 0.0);  // source length 1
    CHECK(rows[1].narrow(1, 3, 2).abs().max().item<double>() == 0.0);  // source length 3
}

TEST_CASE("fused GRU training: training with dropout lowers the loss", "[fused]") {
    torch::manual_seed(1);
    auto net = std::make_shared<nn::GruSeq2Seq>(smallConfig(AttentionKind::Additive, 0.1f));
    net->train();
    const TestBatch batch = makeBatch();
    // Learn to copy the decoder input shifted left: a target the model can fit.
    Tensor target = torch::cat({batch.tgtIn.narrow(1, 1, 3), torch::full({4, 1}, 2, torch::kLong)}, 1);
    torch::optim::Adam adam(net->parameters(), torch::optim::AdamOptions(0.02));
    auto loss = [&] {
        Tensor logits = net->forward(batch.src, batch.srcLen, batch.tgtIn, nullptr, 1.0);
        REQUIRE(graphContains(logits, "FusedAttentionDecoder"));
        return torch::nn::functional::cross_entropy(logits.reshape({-1, logits.size(2)}), target.reshape({-1}),
                                                    torch::nn::functional::CrossEntropyFuncOptions().ignore_index(0));
    };
    const double first = loss().item<double>();
    double last = first;
    for (int i = 0; i < 60; ++i) {
        adam.zero_grad();
        Tensor l = loss();
        l.backward();
        adam.step();
        last = l.item<double>();
    }
    CHECK(std::isfinite(last));
    CHECK(last < 0.3 * first);
}

}  // namespace

TEST_CASE("the fused GRU cell: torch::nn::GRUCell's step and every gradient, in double precision", "[fused]") {
    torch::manual_seed(4);
    torch::nn::GRUCell library(torch::nn::GRUCellOptions(7, 5)), fused(torch::nn::GRUCellOptions(7, 5));
    library->to(torch::kDouble);
    fused->to(torch::kDouble);
    {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < library->parameters().size(); ++i) fused->parameters()[i].copy_(library->parameters()[i]);
    }
    const torch::Tensor x = torch::randn({4, 7}, torch::kDouble), h0 = torch::randn({4, 5}, torch::kDouble);
    const torch::Tensor x1 = x.clone().requires_grad_(), h1 = h0.clone().requires_grad_();
    const torch::Tensor x2 = x.clone().requires_grad_(), h2 = h0.clone().requires_grad_();
    // Two steps, so that the gradient flows through a state the cell made.
    const torch::Tensor a = library(x1, library(x1, h1)), b = nn::fusedGruCell(x2, nn::fusedGruCell(x2, h2, fused), fused);
    CHECK(torch::allclose(a, b, 1e-12, 1e-12));
    const torch::Tensor weights = torch::randn({4, 5}, torch::kDouble);
    (a * weights).sum().backward();
    (b * weights).sum().backward();
    CHECK(torch::allclose(x1.grad(), x2.grad(), 1e-12, 1e-12));
    CHECK(torch::allclose(h1.grad(), h2.grad(), 1e-12, 1e-12));
    for (std::size_t i = 0; i < library->parameters().size(); ++i) {
        INFO("parameter " << i);
        CHECK(torch::allclose(library->parameters()[i].grad(), fused->parameters()[i].grad(), 1e-12, 1e-12));
    }
}
