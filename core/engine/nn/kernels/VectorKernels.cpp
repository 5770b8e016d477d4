#include "engine/nn/kernels/VectorKernels.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace attnlab::nn::kernels {

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define ATTNLAB_VECTOR_CLONES __attribute__((target_clones("arch=x86-64-v4", "avx2", "default")))
#else
#define ATTNLAB_VECTOR_CLONES
#endif

namespace {

// Cephes' expf: e^x = 2^n · e^r with n = round(x / ln 2) and |r| <= ln 2 / 2, e^r a degree-6
// polynomial. n is rounded by adding 1.5 · 2^23 (no call, so the loop vectorises), and 2^n is
// built from its exponent bits. x is first raised to -87, where 2^n is still a normal number
// (this file compiles with -fno-trapping-math, without which GCC keeps that comparison a branch).
inline float expClamped(float x) {
    x = x > -87.0f ? x : -87.0f;
    const float shifted = x * 1.44269504088896341f + 12582912.0f;
    const float n = shifted - 12582912.0f;
    const float r = x - n * 0.693359375f + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    const float er = p * r * r + r + 1.0f;
    std::int32_t bits;
    std::memcpy(&bits, &shifted, sizeof bits);
    const std::int32_t pow2 = (bits - 0x4B400000 + 127) << 23;
    float scale;
    std::memcpy(&scale, &pow2, sizeof scale);
    return er * scale;
}

// Sums and maxima in eight lanes of a GCC vector (one AVX register in the AVX2 clone, two SSE
// ones in the baseline), since floating-point reductions are not reordered into vectors otherwise;
// the lanes then combine in a fixed order.
// (Passed only between inlined helpers of this file: the ABI note GCC gives for 32-byte vectors
// without AVX does not apply.)
#pragma GCC diagnostic ignored "-Wpsabi"
constexpr int kLanes = 8;
typedef float Lanes __attribute__((vector_size(kLanes * sizeof(float))));

inline Lanes load(const float* x) {
    Lanes v;
    std::memcpy(&v, x, sizeof v);
    return v;
}

inline float laneSum(Lanes v) { return ((v[0] + v[1]) + (v[2] + v[3])) + ((v[4] + v[5]) + (v[6] + v[7])); }

inline float sumOf(const float* x, std::int64_t n) {
    Lanes acc = {};
    std::int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes) acc += load(x + j);
    float s = laneSum(acc);
    for (; j < n; ++j) s += x[j];
    return s;
}

inline float dotOf(const float* a, const float* b, std::int64_t n) {
    Lanes acc = {};
    std::int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes) acc += load(a + j) * load(b + j);
    float s = laneSum(acc);
    for (; j < n; ++j) s += a[j] * b[j];
    return s;
}

// The maximum of x[0, n) (-inf for none); padded entries must already be -inf.
inline float maxOf(const float* x, std::int64_t n) {
    constexpr float kNone = -std::numeric_limits<float>::infinity();
    Lanes acc = {kNone, kNone, kNone, kNone, kNone, kNone, kNone, kNone};
    std::int64_t j = 0;
    for (; j + kLanes <= n; j += kLanes) {
        const Lanes v = load(x + j);
        acc = acc > v ? acc : v;
    }
    float m = kNone;
    for (int k = 0; k < kLanes; ++k) m = m > acc[k] ? m : acc[k];
    for (; j < n; ++j) m = m > x[j] ? m : x[j];
    return m;
}

ATTNLAB_VECTOR_CLONES
void softmaxRow(float* row, std::int64_t n, std::int64_t visible, const bool* pad) {
    constexpr float kNone = -std::numeric_limits<float>::infinity();
    if (pad)
        for (std::int64_t j = 0; j < visible; ++j) row[j] = pad[j] ? kNone : row[j];
    const float max = maxOf(row, visible);
    if (max == kNone) {
        std::fill(row, row + n, 0.0f);
        return;
    }
    for (std::int64_t j = 0; j < visible; ++j) row[j] = expClamped(row[j] - max);
    if (pad)
        for (std::int64_t j = 0; j < visible; ++j) row[j] = pad[j] ? 0.0f : row[j];
    const float inverse = 1.0f / sumOf(row, visible);
    for (std::int64_t j = 0; j < visible; ++j) row[j] *= inverse;
    std::fill(row + visible, row + n, 0.0f);
}

ATTNLAB_VECTOR_CLONES
void softmaxBackwardRow(float* g, const float* w, const float* m, std::int64_t n) {
    if (m)
        for (std::int64_t j = 0; j < n; ++j) g[j] *= m[j];
    const float dot = dotOf(g, w, n);
    for (std::int64_t j = 0; j < n; ++j) g[j] = w[j] * (g[j] - dot);
}

inline float tanhOf(float x) {
    const float a = x < 0.0f ? -x : x;
    const float e = expClamped(-2.0f * a);
    const float t = (1.0f - e) / (1.0f + e);
    return x < 0.0f ? -t : t;
}

// GELU's Φ-part: 1 + erf(x / √2), from Abramowitz and Stegun's 7.1.26 (|error| <= 1.5e-7) for
// erfc(|z|) = t p(t) e^{-z²}, t = 1 / (1 + 0.3275911 |z|), written as erfc itself for z < 0 (no
// cancellation in the left tail). e receives e^{-z²} = √(2π) φ(x), which the derivative reuses.
inline float onePlusErf(float x, float& e) {
    const float z = x * 0.70710678118654752f;
    const float a = z < 0.0f ? -z : z;
    const float t = 1.0f / (1.0f + 0.3275911f * a);
    const float p = t * (0.254829592f + t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    e = expClamped(-a * a);
    const float erfc = p * e;
    return z < 0.0f ? erfc : 2.0f - erfc;
}

inline float sigmoidOf(float x) {
    const float e = expClamped(x < 0.0f ? x : -x);  // e^-|x|
    const float r = 1.0f / (1.0f + e);
    return x < 0.0f ? e * r : r;
}

}  // namespace

float expNonPositive(float x) { return expClamped(x); }

float tanhFast(float x) { return tanhOf(x); }

ATTNLAB_VECTOR_CLONES
void tanhInPlace(float* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = tanhOf(x[i]);
}

void tanhInPlace(double* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = std::tanh(x[i]);
}

float sigmoidFast(float x) { return sigmoidOf(x); }


namespace {

// The activations, each loop with or without the mask, so that every loop vectorises (GCC's -O2
// does not unswitch a loop on a loop-invariant condition).
inline float geluOf(float x) {
    float e;
    return 0.5f * x * onePlusErf(x, e);
}

inline float geluDerivative(float x) {  // ½ (1 + erf(x/√2)) + x φ(x), φ(x) = e^{-x²/2} / √(2π)
    float e;
    const float phi = onePlusErf(x, e);
    return 0.5f * phi + x * e * 0.39894228040143268f;
}

}  // namespace

float geluFast(float x) { return geluOf(x); }

ATTNLAB_VECTOR_CLONES
void activationForward(const float* h, const float* mask, float* out, std::int64_t n, bool gelu) {
    if (gelu && mask)
        for (std::int64_t i = 0; i < n; ++i) out[i] = geluOf(h[i]) * mask[i];
    else if (gelu)
        for (std::int64_t i = 0; i < n; ++i) out[i] = geluOf(h[i]);
    else if (mask)
        for (std::int64_t i = 0; i < n; ++i) out[i] = (h[i] > 0.0f ? h[i] : 0.0f) * mask[i];
    else
        for (std::int64_t i = 0; i < n; ++i) out[i] = h[i] > 0.0f ? h[i] : 0.0f;
}

ATTNLAB_VECTOR_CLONES
void activationBackward(float* g, const float* h, const float* mask, std::int64_t n, bool gelu) {
    // ReLU's derivative is 0 at 0, as LibTorch's.
    if (gelu && mask)
        for (std::int64_t i = 0; i < n; ++i) g[i] = g[i] * mask[i] * geluDerivative(h[i]);
    else if (gelu)
        for (std::int64_t i = 0; i < n; ++i) g[i] = g[i] * geluDerivative(h[i]);
    else if (mask)
        for (std::int64_t i = 0; i < n; ++i) g[i] = h[i] > 0.0f ? g[i] * mask[i] : 0.0f;
    else
        for (std::int64_t i = 0; i < n; ++i) g[i] = h[i] > 0.0f ? g[i] : 0.0f;
}

ATTNLAB_VECTOR_CLONES
void sigmoidInPlace(float* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = sigmoidOf(x[i]);
}

void sigmoidInPlace(double* x, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) x[i] = 1.0 / (1.0 + std::exp(-x[i]));
}

ATTNLAB_VECTOR_CLONES
void additiveScoresRow(const float* q, const float* k, const float* v, float* y, float* scores, std::int64_t S,
                       std::int64_t A) {
    for (std::int64_t s = 0; s < S; ++s) {
        const float* ks = k + s * A;
        float* ys = y + s * A;
        for (std::int64_t a = 0; a < A; ++a) ys[a] = tanhOf(q[a] + ks[a]);
        scores[s] = dotOf(ys, v, A);
    }
}

ATTNLAB_VECTOR_CLONES
void additiveScoresBackwardRow(const float* g, const float* v, const float* y, float* dq, float* dk, float* dv,
                               std::int64_t S, std::int64_t A) {
    for (std::int64_t s = 0; s < S; ++s) {
        const float gs = g[s];
        if (gs == 0.0f) continue;  // a padded key's score
        const float* ys = y + s * A;
        float* dks = dk + s * A;
        for (std::int64_t a = 0; a < A; ++a) {
            const float pre = gs * v[a] * (1.0f - ys[a] * ys[a]);
            dq[a] += pre;
            dks[a] += pre;
            dv[a] += gs * ys[a];
        }
    }
}

void softmaxRows(float* scores, std::int64_t rows, std::int64_t n, const bool* pad, bool causal) {
    for (std::int64_t i = 0; i < rows; ++i) softmaxRow(scores + i * n, n, causal ? std::min(i + 1, n) : n, pad);
}

void softmaxBackwardRows(float* g, const float* w, const float* mask, std::int64_t rows, std::int64_t n) {
    for (std::int64_t i = 0; i < rows; ++i) softmaxBackwardRow(g + i * n, w + i * n, mask ? mask + i * n : nullptr, n);
}

ATTNLAB_VECTOR_CLONES
void adamStep(float* p, const float* g, float* m, float* v, std::int64_t n, float gradScale, double beta1Exact,
              double beta2Exact, float stepSize, float inverseRootCorrection2, float eps) {
    // torch::optim::Adam's float factors: β and 1 − β each rounded from double (1 − 0.999f would
    // be 1.3e-5 off 0.001f).
    const float beta1 = static_cast<float>(beta1Exact), beta2 = static_cast<float>(beta2Exact);
    const float keep1 = static_cast<float>(1.0 - beta1Exact), keep2 = static_cast<float>(1.0 - beta2Exact);
    // In blocks, each asking for the parameters kAhead floats on to be fetched for writing: on
    // several threads the other cores hold copies of the parameters (they just read them), and a
    // store to such a line waits for the copies to be invalidated. Prefetched ahead, those waits
    // overlap: a half of 700k parameters stepped in 0.23 ms instead of 0.36 here (0.17 for all
    // of them on one thread with no other reader).
    constexpr std::int64_t kBlock = 256, kAhead = 1024, kLine = 16;
    for (std::int64_t start = 0; start < n; start += kBlock) {
        const std::int64_t end = std::min(n, start + kBlock);
        for (std::int64_t i = start + kAhead; i < std::min(n, end + kAhead); i += kLine) __builtin_prefetch(p + i, 1, 3);
        for (std::int64_t i = start; i < end; ++i) {
            const float gi = gradScale * g[i];
            const float mi = beta1 * m[i] + keep1 * gi;
            const float vi = beta2 * v[i] + keep2 * gi * gi;
            m[i] = mi;
            v[i] = vi;
            p[i] -= stepSize * mi / (std::sqrt(vi) * inverseRootCorrection2 + eps);
        }
    }
}

// Squares summed in 32 double lanes, as four vectors of eight: four independent chains of
// additions in the AVX-512 clone (eight in the AVX2 one), where one chain of four lanes waited on
// each addition's latency and summed ~20 GB/s. The lanes are added pairwise at the end, so the
// order is fixed for each n.
namespace {
typedef double Doubles8 __attribute__((vector_size(64)));
constexpr std::int64_t kSquareLanes = 32;

inline Doubles8 widened(const float* x) { return __builtin_convertvector(load(x), Doubles8); }

inline double addLanes(Doubles8 a0, Doubles8 a1, Doubles8 a2, Doubles8 a3) {
    const Doubles8 v = (a0 + a2) + (a1 + a3);
    return ((v[0] + v[4]) + (v[2] + v[6])) + ((v[1] + v[5]) + (v[3] + v[7]));
}
}  // namespace

ATTNLAB_VECTOR_CLONES
double sumOfSquares(const float* x, std::int64_t n) {
    Doubles8 a0 = {}, a1 = {}, a2 = {}, a3 = {};
    std::int64_t i = 0;
    for (; i + kSquareLanes <= n; i += kSquareLanes) {
        const Doubles8 d0 = widened(x + i), d1 = widened(x + i + 8), d2 = widened(x + i + 16), d3 = widened(x + i + 24);
        a0 += d0 * d0;
        a1 += d1 * d1;
        a2 += d2 * d2;
        a3 += d3 * d3;
    }
    double s = addLanes(a0, a1, a2, a3);
    for (; i < n; ++i) s += static_cast<double>(x[i]) * x[i];
    return s;
}

ATTNLAB_VECTOR_CLONES
double addWithSumOfSquares(float* out, const float* a, const float* b, std::int64_t n) {
    Doubles8 a0 = {}, a1 = {}, a2 = {}, a3 = {};
    std::int64_t i = 0;
    for (; i + kSquareLanes <= n; i += kSquareLanes) {
        for (std::int64_t k = 0; k < kSquareLanes; ++k) out[i + k] = a[i + k] + b[i + k];
        const Doubles8 d0 = widened(out + i), d1 = widened(out + i + 8), d2 = widened(out + i + 16),
                       d3 = widened(out + i + 24);
        a0 += d0 * d0;
        a1 += d1 * d1;
        a2 += d2 * d2;
        a3 += d3 * d3;
    }
    double s = addLanes(a0, a1, a2, a3);
    for (; i < n; ++i) {
        out[i] = a[i] + b[i];
        s += static_cast<double>(out[i]) * out[i];
    }
    return s;
}

ATTNLAB_VECTOR_CLONES
float dot(const float* a, const float* b, std::int64_t n) { return dotOf(a, b, n); }

ATTNLAB_VECTOR_CLONES
void multiply(float* out, const float* a, const float* b, std::int64_t n) {
    for (std::int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}

}  // namespace attnlab::nn::kernels
