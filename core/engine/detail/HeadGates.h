#pragma once
// Engine-internal: head ablation on the translation Transformer's network. A set of heads
// (base/translation/HeadAblation.h) becomes a gate per attention module, 0 for a head that is
// off and 1 for the others; modules with no head off keep no gate at all, so their fast paths
// (the fused attention node, the fused decoding step) are untouched.
#include <torch/torch.h>

#include <map>
#include <utility>
#include <vector>

#include "base/InputError.h"
#include "base/translation/HeadAblation.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab::detail {

// The Transformer behind a network, or nullptr (a GRU has no heads).
inline nn::TransformerSeq2Seq* transformerOf(nn::Seq2SeqNet& net) {
    return dynamic_cast<nn::TransformerSeq2Seq*>(&net);
}

// Switches `off` off (and every other head on). Throws ConfigError for a head beyond a model of
// `layers` layers and `heads` heads.
inline void setAblation(nn::TransformerSeq2Seq& net, const std::vector<HeadId>& off, int layers, int heads) {
    net.clearHeadGates();
    std::map<std::pair<MapKind, int>, torch::Tensor> gates;
    for (const HeadId& h : off) {
        if (h.layer < 0 || h.layer >= layers || h.head < 0 || h.head >= heads)
            throw ConfigError("head " + toString(h) + " is beyond the model (" + std::to_string(layers) +
                              " layers, " + std::to_string(heads) + " heads)");
        torch::Tensor& gate = gates[{h.kind, h.layer}];
        if (!gate.defined()) gate = torch::ones({heads});
        gate[h.head] = 0.0f;
    }
    for (auto& [where, gate] : gates)
        net.attentionModule(where.first, static_cast<std::size_t>(where.second))->setHeadGate(gate);
}

// setAblation for a scope: every gate is cleared again at its end.
class AblationScope {
public:
    AblationScope(nn::TransformerSeq2Seq* net, const std::vector<HeadId>& off, int layers, int heads) : net_(net) {
        if (net_) setAblation(*net_, off, layers, heads);
    }
    ~AblationScope() {
        if (net_) net_->clearHeadGates();
    }
    AblationScope(const AblationScope&) = delete;
    AblationScope& operator=(const AblationScope&) = delete;

private:
    nn::TransformerSeq2Seq* net_;
};

}  // namespace attnlab::detail
