#pragma once
// Training's vector kernels, written as plain loops that the compiler vectorises (AVX-512 and AVX2
// clones next to the baseline one, the same numbers in each): the attention heads' softmax, forward and backward, over rows of scores in
// place, and Adam's update of one parameter in one pass. The
// exponential is a polynomial (Cephes' expf: a relative error within 2e-7 of std::exp over the
// range a softmax uses), because libm's expf is called element by element and was a third of a
// forecaster's attention. Torch-free.
#include <cstdint>

namespace attnlab::nn::kernels {

// e^x for x <= 0 (-inf included, which gives e^-87); what the softmax computes.
float expNonPositive(float x);

// Softmax of each of `rows` rows of n scores in place. Row i sees keys [0, visible) with
// visible = causal ? min(i + 1, n) : n, less those with pad[j] (pad may be null); the others get
// 0, and a row that sees no key becomes all 0.
void softmaxRows(float* scores, std::int64_t rows, std::int64_t n, const bool* pad, bool causal);

// Back through the dropout mask (null for none) and the softmax, each of `rows` rows of n in
// place: g := w ∘ (g ∘ m − Σ_j (g ∘ m)_j w_j).
void softmaxBackwardRows(float* g, const float* w, const float* mask, std::int64_t rows, std::int64_t n);

// tanh(x) from the polynomial exponential: (1 − e^−2|x|) / (1 + e^−2|x|) with x's sign; within
// 2e-7 of std::tanh absolutely.
float tanhFast(float x);

// x[i] = tanh(x[i]) for n values, tanhFast's numbers (double precision: std::tanh).
void tanhInPlace(float* x, std::int64_t n);
void tanhInPlace(double* x, std::int64_t n);

// The logistic sigmoid 1 / (1 + e^-x) from the polynomial exponential (e^-|x| / (1 + e^-|x|) for
// x < 0); within 3e-7 of the exact value relatively.
float sigmoidFast(float x);

// GELU, x Φ(x) with the exact (erf) Φ, from a polynomial erf: within 1e-6 of it absolutely.
float geluFast(float x);

// A feed-forward layer's activation with its dropout: out[i] = act(h[i]) · mask[i] (mask null: no
// dropout), act GELU (geluFast) or ReLU.
void activationForward(const float* h, const float* mask, float* out, std::int64_t n, bool gelu);

// Its backward in place: g[i] (the gradient of out) becomes g[i] · mask[i] · act'(h[i]), h's.
void activationBackward(float* g, const float* h, const float* mask, std::int64_t n, bool gelu);

// x[i] = sigmoid(x[i]) for n values, sigmoidFast's numbers (double precision: std::exp).
void sigmoidInPlace(float* x, std::int64_t n);
void sigmoidInPlace(double* x, std::int64_t n);

// Additive attention's scores for one query row: scores[s] = Σ_a v[a] tanh(q[a] + k[s A + a]) for
// s < S, keeping the tanh values in y [S, A] for the backward.
void additiveScoresRow(const float* q, const float* k, const float* v, float* y, float* scores, std::int64_t S,
                       std::int64_t A);

// Their backward for that row, from the scores' gradient g [S]: adds to dq [A], dk [S, A] and
// dv [A] (the pre-activation's gradient is g[s] v[a] (1 − y²)).
void additiveScoresBackwardRow(const float* g, const float* v, const float* y, float* dq, float* dk, float* dv,
                               std::int64_t S, std::int64_t A);

// One Adam step (torch::optim::Adam's, no weight decay) of n parameters in one pass over p, its
// gradient g (read as gradScale · g: gradient clipping's coefficient) and its moments m and v:
// m = β1 m + (1 − β1) g, v = β2 v + (1 − β2) g², p −= stepSize · m / (√v / √(1 − β2^t) + ε), with
// stepSize = lr / (1 − β1^t).
void adamStep(float* p, const float* g, float* m, float* v, std::int64_t n, float gradScale, double beta1, double beta2,
              float stepSize, float inverseRootCorrection2, float eps);

// Σ a[i] b[i] in eight float lanes combined in a fixed order.
float dot(const float* a, const float* b, std::int64_t n);

// Σ x[i]² in double precision (a gradient's squared norm).
double sumOfSquares(const float* x, std::int64_t n);

// out[i] = a[i] + b[i] (two parts' gradients), returning Σ out[i]² in double precision.
double addWithSumOfSquares(float* out, const float* a, const float* b, std::int64_t n);

// out[i] = a[i] · b[i].
void multiply(float* out, const float* a, const float* b, std::int64_t n);

}  // namespace attnlab::nn::kernels
