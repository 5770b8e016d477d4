#pragma once
// Engine-internal: the elementwise loops of the fused GRU encoder and decoder. Each
// replaces several LibTorch operations whose dispatch costs more than their arithmetic
// at these sizes. The sigmoids stay in LibTorch, whose kernels are vectorised; the tanh is
// VectorKernels.h's, cheaper than LibTorch's at float precision. All buffers are contiguous;
// `ld*` are row strides in elements. No two pointer arguments overlap (__restrict): the loops
// vectorise without runtime checks.
#include <cstdint>

namespace attnlab::nn::kernels {

// Gate pre-activations r, z: rz = gi[:, :2H] + gh[:, :2H] (before the sigmoid).
template <typename T>
void addGates(const T* __restrict gi, int64_t ldgi, const T* __restrict gh, int64_t ldgh, T* __restrict rz, int64_t B,
              int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        const T* x = gi + b * ldgi;
        const T* y = gh + b * ldgh;
        T* o = rz + b * 2 * H;
        for (int64_t h = 0; h < 2 * H; ++h) o[h] = x[h] + y[h];
    }
}

// Candidate pre-activation n = gi_n + r * gh_n (before the tanh); gin, ghn point at the n columns.
template <typename T>
void candidate(const T* __restrict gin, int64_t ldgi, const T* __restrict rz, const T* __restrict ghn, int64_t ldgh,
               T* __restrict n, int64_t B, int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        const T* x = gin + b * ldgi;
        const T* r = rz + b * 2 * H;
        const T* g = ghn + b * ldgh;
        T* o = n + b * H;
        for (int64_t h = 0; h < H; ++h) o[h] = x[h] + r[h] * g[h];
    }
}

// s_t = n + z (s_{t-1} - n). With `valid` (one flag per row, stride ldValid), rows past
// their sequence keep s_{t-1}; with `out`, s_t is also written there (0 past the end).
template <typename T>
void update(const T* __restrict rz, const T* __restrict n, const T* __restrict prev, T* __restrict next,
            const bool* valid, int64_t ldValid, T* __restrict out, int64_t ldOut, int64_t B, int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        const T* z = rz + b * 2 * H + H;
        const T* nb = n + b * H;
        const T* p = prev + b * H;
        T* s = next + b * H;
        if (valid && !valid[b * ldValid]) {
            for (int64_t h = 0; h < H; ++h) s[h] = p[h];
            if (out)
                for (int64_t h = 0; h < H; ++h) out[b * ldOut + h] = 0;
            continue;
        }
        for (int64_t h = 0; h < H; ++h) s[h] = nb[h] + z[h] * (p[h] - nb[h]);
        if (out)
            for (int64_t h = 0; h < H; ++h) out[b * ldOut + h] = s[h];
    }
}

// Backward through the gates of one step. ds = carry + dOut is the gradient of s_t.
// Writes the gradients of the gate pre-activations, dgi [B, 3H] (input side) and dgh
// (hidden side, row stride ldh), and sets carry to ds * z, the direct path to s_{t-1}.
// Rows that are not `valid` pass carry through and get zero gate gradients.
template <typename T>
void updateBackward(T* __restrict carry, const T* __restrict dOut, int64_t ldOut, const bool* valid, int64_t ldValid,
                    const T* __restrict rz, const T* __restrict n, const T* __restrict ghn, int64_t ldgh,
                    const T* __restrict prev, T* __restrict dgi, T* __restrict dgh, int64_t ldh, int64_t B,
                    int64_t H) {
    for (int64_t b = 0; b < B; ++b) {
        T* gi = dgi + b * 3 * H;
        T* gh = dgh + b * ldh;
        if (valid && !valid[b * ldValid]) {
            for (int64_t h = 0; h < 3 * H; ++h) gi[h] = gh[h] = 0;
            continue;
        }
        const T* r = rz + b * 2 * H;
        const T* z = r + H;
        const T* nb = n + b * H;
        const T* p = prev + b * H;
        const T* g = ghn + b * ldgh;
        const T* d = dOut + b * ldOut;
        T* c = carry + b * H;
        for (int64_t h = 0; h < H; ++h) {
            const T ds = c[h] + d[h];
            const T dpn = ds * (T(1) - z[h]) * (T(1) - nb[h] * nb[h]);
            const T dpz = ds * (p[h] - nb[h]) * z[h] * (T(1) - z[h]);
            const T dpr = dpn * g[h] * r[h] * (T(1) - r[h]);
            gi[h] = dpr;
            gi[H + h] = dpz;
            gi[2 * H + h] = dpn;
            gh[h] = dpr;
            gh[H + h] = dpz;
            gh[2 * H + h] = dpn * r[h];
            c[h] = ds * z[h];
        }
    }
}

// x · y with independent partial sums (a single running sum would wait on each add).
template <typename T>
T dot(const T* x, const T* y, int64_t n) {
    T acc[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) acc[k] += x[i + k] * y[i + k];
    T s = ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7]));
    for (; i < n; ++i) s += x[i] * y[i];
    return s;
}

}  // namespace attnlab::nn::kernels
