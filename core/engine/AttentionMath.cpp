#include "AttentionMath.h"

#include "base/InputError.h"
#include "engine/nn/networks/GruAttention.h"

namespace attnlab {

namespace {

std::vector<float> toVector(const torch::Tensor& t) {
    torch::Tensor c = t.to(torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

void assign(torch::nn::Module& m, const std::string& name, const std::vector<float>& values,
            std::vector<int64_t> shape) {
    auto params = m.named_parameters(false);
    torch::Tensor* p = params.find(name);
    int64_t n = 1;
    for (auto s : shape) n *= s;
    if (!p || static_cast<int64_t>(values.size()) != n)
        throw ConfigError("attention parameter " + name + " needs " + std::to_string(n) + " values");
    p->copy_(torch::tensor(values).view(shape));
}

}  // namespace

AttentionStepResult computeAttentionStep(const AttentionStepInput& in) {
    const int H = in.hidden;
    if (in.kind == AttentionKind::None) throw ConfigError("attention 'none' computes no weights");
    if (H <= 0 || static_cast<int>(in.query.size()) != H || in.keys.empty() || in.keys.size() % H != 0)
        throw ConfigError("query must have H values and keys S * H");
    const int64_t S = static_cast<int64_t>(in.keys.size()) / H;
    if (in.sourceLength < 1 || in.sourceLength > S) throw ConfigError("sourceLength must be in 1..S");

    torch::NoGradGuard noGrad;
    nn::GruAttention attention(in.kind, H, in.window);
    switch (in.kind) {
    case AttentionKind::General:
    case AttentionKind::LocalM:
        assign(*attention->named_children()["key_proj"], "weight", in.W, {H, H});
        break;
    case AttentionKind::LocalP:
        assign(*attention->named_children()["key_proj"], "weight", in.W, {H, H});
        assign(*attention->named_children()["center_proj"], "weight", in.Wp, {H, H});
        assign(*attention->named_children()["center_v"], "weight", in.vp, {1, H});
        break;
    case AttentionKind::Additive:
        assign(*attention->named_children()["query_proj"], "weight", in.W, {H, H});
        assign(*attention->named_children()["key_proj"], "weight", in.U, {H, H});
        assign(*attention->named_children()["key_proj"], "bias", in.bU, {H});
        assign(*attention->named_children()["v"], "weight", in.v, {1, H});
        break;
    default:
        break;
    }
    torch::Tensor keys = torch::tensor(in.keys).view({1, S, H});
    torch::Tensor lengths = torch::tensor({static_cast<int64_t>(in.sourceLength)}, torch::kLong);
    torch::Tensor pad = torch::arange(S).unsqueeze(0) >= lengths.unsqueeze(1);
    nn::AttentionKeys prepared = attention->prepare(keys, pad, lengths);
    nn::AttentionTrace trace;
    torch::Tensor w = attention->weights(torch::tensor(in.query).view({1, H}), prepared, in.step, &trace);

    AttentionStepResult r;
    r.rawScores = toVector(trace.rawScores[0]);
    r.scores = toVector(trace.scores[0]);
    r.weights = toVector(w[0]);
    r.context = toVector(torch::mm(w, keys[0])[0]);
    if (trace.center.defined()) r.center = trace.center[0].item<double>();
    return r;
}

}  // namespace attnlab
