#include "engine/nn/nodes/FusedGruEncoder.h"

#include <cstring>
#include <vector>

#include "engine/nn/kernels/FusedGruKernels.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/RecurrentProduct.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

// hs [S + 1, B, H] (hs[0] = the initial state), gh [S, B, 3H], rz [S, B, 2H], n [S, B, H]; out [B, S, H].
template <typename T>
void encodeForward(const Tensor& gi, const Tensor& valid, const Tensor& weight, const Tensor& bias, Tensor& hs,
                   Tensor& gh, Tensor& rz, Tensor& n, Tensor& out) {
    const int64_t S = gi.size(0), B = gi.size(1), H = hs.size(2);
    const T* giData = gi.data_ptr<T>();
    const bool* validData = valid.data_ptr<bool>();
    const T* biasData = bias.data_ptr<T>();
    T* hsData = hs.data_ptr<T>();
    T* ghData = gh.data_ptr<T>();
    T* rzData = rz.data_ptr<T>();
    T* nData = n.data_ptr<T>();
    T* outData = out.data_ptr<T>();
    const RecurrentProduct hidden(weight, /*byTranspose=*/true);  // W_hh s + b_hh
    for (int64_t t = 0; t < S; ++t) {
        const T* git = giData + t * B * 3 * H;
        T* g = ghData + t * B * 3 * H;
        T* r = rzData + t * B * 2 * H;
        T* c = nData + t * B * H;
        hidden(B, hsData + t * B * H, H, g, 3 * H, biasData, false);
        kernels::addGates<T>(git, 3 * H, g, 3 * H, r, B, H);
        kernels::sigmoidInPlace(r, B * 2 * H);
        kernels::candidate<T>(git + 2 * H, 3 * H, r, g + 2 * H, 3 * H, c, B, H);
        kernels::tanhInPlace(c, B * H);
        kernels::update<T>(r, c, hsData + t * B * H, hsData + (t + 1) * B * H, validData + t, S, outData + t * H,
                           S * H, B, H);
    }
}

template <typename T>
void encodeBackward(const Tensor& dOut, const Tensor& valid, const Tensor& weight, const Tensor& hs,
                    const Tensor& gh, const Tensor& rz, const Tensor& n, bool initialNeedsGradient, Tensor& carry,
                    Tensor& dgi, Tensor& dgh) {
    const int64_t S = gh.size(0), B = gh.size(1), H = hs.size(2);
    const T* dOutData = dOut.data_ptr<T>();
    const bool* validData = valid.data_ptr<bool>();
    const T* hsData = hs.data_ptr<T>();
    const T* ghData = gh.data_ptr<T>();
    const T* rzData = rz.data_ptr<T>();
    const T* nData = n.data_ptr<T>();
    T* carryData = carry.data_ptr<T>();
    T* dgiData = dgi.data_ptr<T>();
    T* dghData = dgh.data_ptr<T>();
    const RecurrentProduct back(weight, /*byTranspose=*/false);  // the gates' gradient to s_{t-1}
    for (int64_t t = S - 1; t >= 0; --t) {
        kernels::updateBackward<T>(carryData, dOutData + t * H, S * H, validData + t, S, rzData + t * B * 2 * H,
                                   nData + t * B * H, ghData + t * B * 3 * H + 2 * H, 3 * H, hsData + t * B * H,
                                   dgiData + t * B * 3 * H, dghData + t * B * 3 * H, 3 * H, B, H);
        // Without an initial state s_0 is zero, not an input: it needs no gradient.
        if (t > 0 || initialNeedsGradient) back(B, dghData + t * B * 3 * H, 3 * H, carryData, H, nullptr, true);
    }
}

// Each row's length: its valid flags are a prefix.
std::vector<int64_t> rowLengths(const Tensor& valid) {
    const int64_t B = valid.size(0), S = valid.size(1);
    const bool* v = valid.data_ptr<bool>();
    std::vector<int64_t> lengths(static_cast<std::size_t>(B));
    for (int64_t b = 0; b < B; ++b) {
        int64_t L = 0;
        while (L < S && v[b * S + L]) ++L;
        lengths[static_cast<std::size_t>(b)] = L;
    }
    return lengths;
}

// Position of step t of row b when the row runs reversed: L - 1 - t within its length L, t past it.
inline int64_t reversedPosition(int64_t t, int64_t L) { return t < L ? L - 1 - t : t; }

// A new tensor of `shape` holding x's steps moved: step t of row b goes from x's first two
// dimensions' flat index from(b, t) to the new one's to(b, t); x [B, S, W] or [S, B, W], contiguous.
template <typename From, typename To>
Tensor moveSteps(const Tensor& x, std::vector<int64_t> shape, int64_t B, int64_t S, From from, To to) {
    const Tensor src = x.contiguous();
    Tensor out = torch::empty(shape, src.options());
    const auto bytes = static_cast<std::size_t>(src.size(2)) * src.element_size();
    const auto* source = static_cast<const char*>(src.data_ptr());
    auto* target = static_cast<char*>(out.data_ptr());
    for (int64_t b = 0; b < B; ++b)
        for (int64_t t = 0; t < S; ++t) std::memcpy(target + to(b, t) * bytes, source + from(b, t) * bytes, bytes);
    return out;
}

// Step-major [S, B, W] from batch-major x [B, S, W], each row's steps `reversed` or not.
Tensor stepMajor(const Tensor& x, const std::vector<int64_t>& lengths, bool reversed) {
    if (!reversed) return x.transpose(0, 1).contiguous();
    const int64_t B = x.size(0), S = x.size(1);
    return moveSteps(
        x, {S, B, x.size(2)}, B, S, [&](int64_t b, int64_t t) { return b * S + reversedPosition(t, lengths[b]); },
        [&](int64_t b, int64_t t) { return t * B + b; });
}

// Batch-major [B, S, W] from step-major x [S, B, W]: stepMajor's inverse.
Tensor batchMajor(const Tensor& x, const std::vector<int64_t>& lengths, bool reversed) {
    if (!reversed) return x.transpose(0, 1);
    const int64_t S = x.size(0), B = x.size(1);
    return moveSteps(x, {B, S, x.size(2)}, B, S, [&](int64_t b, int64_t t) { return t * B + b; },
                     [&](int64_t b, int64_t t) { return b * S + reversedPosition(t, lengths[b]); });
}

// Batch-major x [B, S, W] with each row's first L steps reversed (its own inverse).
Tensor reversedRows(const Tensor& x, const std::vector<int64_t>& lengths) {
    const int64_t B = x.size(0), S = x.size(1);
    return moveSteps(x, {B, S, x.size(2)}, B, S, [&](int64_t b, int64_t t) { return b * S + t; },
                     [&](int64_t b, int64_t t) { return b * S + reversedPosition(t, lengths[b]); });
}

}  // namespace

std::pair<Tensor, Tensor> FusedGruEncoder::run(const Tensor& inputProj, const Tensor& valid, const Tensor& hiddenWeight,
                                               const Tensor& hiddenBias, const Tensor& initial, bool reversed) {
    // (An undefined tensor cannot pass through apply(): zeros stand for "no initial state".)
    variable_list out = apply(inputProj, valid, hiddenWeight, hiddenBias,
                              initial.defined() ? initial
                                                : torch::zeros({inputProj.size(0), hiddenWeight.size(1)},
                                                               inputProj.options().requires_grad(false)),
                              reversed);
    return {out[0], out[1]};
}

variable_list FusedGruEncoder::forward(AutogradContext* ctx, Tensor inputProj, Tensor valid, Tensor hiddenWeight,
                                       Tensor hiddenBias, Tensor initial, bool reversed) {
    const int64_t B = inputProj.size(0), S = inputProj.size(1), H = hiddenWeight.size(1);
    TORCH_CHECK(inputProj.size(2) == 3 * H && hiddenWeight.size(0) == 3 * H && valid.size(0) == B &&
                    valid.size(1) == S && initial.size(0) == B && initial.size(1) == H,
                "FusedGruEncoder: inconsistent shapes");
    const auto opts = inputProj.options();
    valid = valid.to(torch::kBool).contiguous();
    const std::vector<int64_t> lengths = reversed ? rowLengths(valid) : std::vector<int64_t>();
    Tensor gi = stepMajor(inputProj, lengths, reversed);  // [S, B, 3H], step t of each row
    Tensor hs = torch::empty({S + 1, B, H}, opts);
    hs[0].copy_(initial);
    Tensor gh = torch::empty({S, B, 3 * H}, opts);
    Tensor rz = torch::empty({S, B, 2 * H}, opts);
    Tensor n = torch::empty({S, B, H}, opts);
    Tensor out = torch::empty({B, S, H}, opts);
    AT_DISPATCH_FLOATING_TYPES(opts.dtype().toScalarType(), "FusedGruEncoder::forward", [&] {
        encodeForward<scalar_t>(gi, valid, hiddenWeight, hiddenBias.contiguous(), hs, gh, rz, n, out);
    });
    Tensor final = hs[S].clone();  // rows past their end kept their last state
    if (reversed) out = reversedRows(out, lengths);  // step t's output to its token's position
    ctx->save_for_backward({hiddenWeight});
    auto& d = ctx->saved_data;
    d["reversed"] = reversed;
    d["valid"] = valid;
    d["hs"] = hs;
    d["gh"] = gh;
    d["rz"] = rz;
    d["n"] = n;
    return {out, final};
}

variable_list FusedGruEncoder::backward(AutogradContext* ctx, variable_list gradOutputs) {
    const Tensor weight = ctx->get_saved_variables()[0];
    auto& d = ctx->saved_data;
    const Tensor valid = d["valid"].toTensor(), hs = d["hs"].toTensor(), gh = d["gh"].toTensor();
    const Tensor rz = d["rz"].toTensor(), n = d["n"].toTensor();
    const int64_t S = gh.size(0), B = gh.size(1), H = hs.size(2);
    const bool hasInitial = ctx->needs_input_grad(4);  // a decoder's state from the encoder
    const auto opts = hs.options();
    const bool reversed = d["reversed"].toBool();
    const std::vector<int64_t> lengths = reversed ? rowLengths(valid) : std::vector<int64_t>();
    Tensor dOut = reversed ? reversedRows(gradOutputs[0], lengths) : gradOutputs[0].contiguous();  // [B, S, H] by step
    // The final state of a row is its state at its last token, and rows past their end
    // carry their state unchanged: so its gradient simply enters at the last step.
    // (Undefined when the final state is not used, as in the query-after decoder.)
    Tensor carry = gradOutputs[1].defined() ? gradOutputs[1].clone() : torch::zeros({B, H}, opts);
    Tensor dgi = torch::empty({S, B, 3 * H}, opts);
    Tensor dgh = torch::empty({S, B, 3 * H}, opts);
    AT_DISPATCH_FLOATING_TYPES(opts.dtype().toScalarType(), "FusedGruEncoder::backward", [&] {
        encodeBackward<scalar_t>(dOut, valid, weight, hs, gh, rz, n, hasInitial, carry, dgi, dgh);
    });
    Tensor dghFlat = dgh.view({S * B, 3 * H});
    Tensor dWeight = weightGradient(dghFlat, hs.narrow(0, 0, S).reshape({S * B, H}));
    Tensor dBias = dghFlat.sum(0);
    return {batchMajor(dgi, lengths, reversed), Tensor(), dWeight, dBias, hasInitial ? carry : Tensor(), Tensor()};
}

std::pair<torch::Tensor, torch::Tensor> runGruLayerFused(torch::nn::GRU& gru, const torch::Tensor& emb,
                                                         const torch::Tensor& valid, bool bidirectional) {
    auto p = gru->named_parameters(/*recurse=*/false);
    auto [forwardOut, forwardLast] = FusedGruEncoder::run(linear(emb, p["weight_ih_l0"], p["bias_ih_l0"]), valid,
                                                          p["weight_hh_l0"], p["bias_hh_l0"]);
    if (!bidirectional) return {forwardOut, forwardLast.unsqueeze(0)};
    const torch::Tensor backwardInput = linear(emb, p["weight_ih_l0_reverse"], p["bias_ih_l0_reverse"]);
    auto [backwardOut, backwardLast] = FusedGruEncoder::run(backwardInput, valid, p["weight_hh_l0_reverse"],
                                                            p["bias_hh_l0_reverse"], {}, /*reversed=*/true);
    return {torch::cat({forwardOut, backwardOut}, 2), torch::stack({forwardLast, backwardLast}, 0)};
}

}  // namespace attnlab::nn

