#include "SmallGemm.h"

#include <algorithm>
#include <cstring>

namespace attnlab::nn::gemm {

void PackedMatrix::pack(const float* b, std::int64_t ldb, bool transposed, std::int64_t K, std::int64_t N) {
    K_ = K;
    N_ = N;
    const std::int64_t panels = (N + kPanel - 1) / kPanel;
    data_.assign(static_cast<std::size_t>(panels * K * kPanel), 0.0f);
    for (std::int64_t p = 0; p < panels; ++p) {
        float* out = data_.data() + p * K * kPanel;
        const std::int64_t width = std::min(kPanel, N - p * kPanel);
        if (transposed) {  // B[k][n] = b[n ldb + k]: column n of the panel is row n of b
            for (std::int64_t j = 0; j < width; ++j) {
                const float* row = b + (p * kPanel + j) * ldb;
                for (std::int64_t k = 0; k < K; ++k) out[k * kPanel + j] = row[k];
            }
        } else {
            for (std::int64_t k = 0; k < K; ++k) std::memcpy(out + k * kPanel, b + k * ldb + p * kPanel, width * sizeof(float));
        }
    }
}

namespace {

// Vectors as wide as the kernel's registers: sixteen floats for AVX-512, eight for AVX, four for
// SSE (GCC splits a vector wider than the target's registers through memory, 10x slower here). A
// panel of 16 columns is 16 / lanes of them. (Passed only between inlined functions of this file,
// so GCC's note on the ABI of vectors wider than the baseline's does not apply.)
#pragma GCC diagnostic ignored "-Wpsabi"
typedef float V16 __attribute__((vector_size(64)));
typedef float V8 __attribute__((vector_size(32)));
typedef float V4 __attribute__((vector_size(16)));
constexpr std::int64_t P = PackedMatrix::kPanel;

// Columns [0, width) of a vector's worth at x; the rest 0.
template <typename Vec>
inline Vec loadColumns(const float* x, std::int64_t width) {
    Vec v = {};
    if (width >= static_cast<std::int64_t>(sizeof(Vec) / sizeof(float)))
        std::memcpy(&v, x, sizeof v);
    else if (width > 0)
        std::memcpy(&v, x, static_cast<std::size_t>(width) * sizeof(float));
    return v;
}

template <typename Vec>
inline void storeColumns(float* x, const Vec& v, std::int64_t width) {
    if (width >= static_cast<std::int64_t>(sizeof(Vec) / sizeof(float)))
        std::memcpy(x, &v, sizeof v);
    else if (width > 0)
        std::memcpy(x, &v, static_cast<std::size_t>(width) * sizeof(float));
}

// R rows of C by NV panels (NV * 16 columns, the last panel `lastWidth` wide), the whole K at once:
// the accumulators stay in registers while each step of k loads NV panel rows and broadcasts R
// values of A.
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void block(std::int64_t K, const float* a, std::int64_t lda, const float* panels,
                                                 std::int64_t panelStride, float* c, std::int64_t ldc,
                                                 std::int64_t lastWidth, bool accumulate, const float* bias) {
    constexpr int L = sizeof(Vec) / sizeof(float), VP = P / L, NVec = NV * VP;
    // Column j's vector: panel j / VP, lanes from (j % VP) L; how many of its columns are real.
    auto offset = [&](int j) { return (j / VP) * P + (j % VP) * L; };
    auto width = [&](int j) { return j / VP == NV - 1 ? lastWidth - (j % VP) * L : std::int64_t{L}; };
    Vec acc[R][NVec];
#pragma GCC unroll 8
    for (int j = 0; j < NVec; ++j) {
        const Vec start = !accumulate && bias ? loadColumns<Vec>(bias + offset(j), width(j)) : Vec{};
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) acc[r][j] = accumulate ? loadColumns<Vec>(c + r * ldc + offset(j), width(j)) : start;
    }
    for (std::int64_t k = 0; k < K; ++k) {
        Vec b[NVec];
#pragma GCC unroll 8
        for (int j = 0; j < NVec; ++j) std::memcpy(&b[j], panels + (j / VP) * panelStride + k * P + (j % VP) * L, sizeof(Vec));
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const float x = a[r * lda + k];
#pragma GCC unroll 8
            for (int j = 0; j < NVec; ++j) acc[r][j] += x * b[j];
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < NVec; ++j)
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) storeColumns<Vec>(c + r * ldc + offset(j), acc[r][j], width(j));
}

// The rows below a multiple of R, by a block of their own height.
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void rest(std::int64_t rows, std::int64_t K, const float* a, std::int64_t lda,
                                                const float* panels, std::int64_t panelStride, float* c,
                                                std::int64_t ldc, std::int64_t lastWidth, bool accumulate,
                                                const float* bias) {
    if constexpr (R > 1) {
        if (rows == R - 1)
            return block<Vec, R - 1, NV>(K, a, lda, panels, panelStride, c, ldc, lastWidth, accumulate, bias);
        return rest<Vec, R - 1, NV>(rows, K, a, lda, panels, panelStride, c, ldc, lastWidth, accumulate, bias);
    }
}

// Panels NV at a time (one at a time for what is left), each over every block of R rows: a group of
// panels stays in the cache while the rows pass over it.
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void product(std::int64_t M, const float* a, std::int64_t lda,
                                                   const PackedMatrix& b, float* c, std::int64_t ldc, bool accumulate,
                                                   const float* bias) {
    const std::int64_t K = b.rows(), N = b.columns(), panels = (N + P - 1) / P, stride = K * P;
    for (std::int64_t p = 0; p < panels;) {
        const bool group = NV > 1 && p + NV <= panels;
        const int nv = group ? NV : 1;
        const std::int64_t lastWidth = std::min(P, N - (p + nv - 1) * P);
        const float* pp = b.panel(p);
        float* cp = c + p * P;
        const float* bp = bias ? bias + p * P : nullptr;
        std::int64_t m = 0;
        if (group) {
            for (; m + R <= M; m += R)
                block<Vec, R, NV>(K, a + m * lda, lda, pp, stride, cp + m * ldc, ldc, lastWidth, accumulate, bp);
            if (m < M) rest<Vec, R, NV>(M - m, K, a + m * lda, lda, pp, stride, cp + m * ldc, ldc, lastWidth, accumulate, bp);
        } else {
            for (; m + R <= M; m += R)
                block<Vec, R, 1>(K, a + m * lda, lda, pp, stride, cp + m * ldc, ldc, lastWidth, accumulate, bp);
            if (m < M) rest<Vec, R, 1>(M - m, K, a + m * lda, lda, pp, stride, cp + m * ldc, ldc, lastWidth, accumulate, bp);
        }
        p += nv;
    }
}

using Kernel = void (*)(std::int64_t, const float*, std::int64_t, const PackedMatrix&, float*, std::int64_t, bool,
                        const float*);

#if defined(__GNUC__) && defined(__x86_64__)
// AVX-512: 8 rows x 2 panels, 16 of the 32 registers accumulate.
__attribute__((target("arch=x86-64-v4"))) void productAvx512(std::int64_t M, const float* a, std::int64_t lda,
                                                             const PackedMatrix& b, float* c, std::int64_t ldc,
                                                             bool accumulate, const float* bias) {
    product<V16, 8, 2>(M, a, lda, b, c, ldc, accumulate, bias);
}
// AVX2 with FMA: 6 rows x 1 panel (two registers), 12 of the 16 registers accumulate.
__attribute__((target("arch=x86-64-v3"))) void productAvx2(std::int64_t M, const float* a, std::int64_t lda,
                                                           const PackedMatrix& b, float* c, std::int64_t ldc,
                                                           bool accumulate, const float* bias) {
    product<V8, 6, 1>(M, a, lda, b, c, ldc, accumulate, bias);
}
#endif
// SSE: 2 rows x 1 panel (four registers), 8 of the 16 registers accumulate.
void productBaseline(std::int64_t M, const float* a, std::int64_t lda, const PackedMatrix& b, float* c,
                     std::int64_t ldc, bool accumulate, const float* bias) {
    product<V4, 2, 1>(M, a, lda, b, c, ldc, accumulate, bias);
}

struct Choice {
    Kernel kernel;
    const char* name;
};

Choice choose() {
#if defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("x86-64-v4")) return {productAvx512, "avx512"};
    if (__builtin_cpu_supports("x86-64-v3")) return {productAvx2, "avx2"};
#endif
    return {productBaseline, "baseline"};
}

Choice& chosen() {
    static Choice choice = choose();
    return choice;
}

}  // namespace

void multiply(std::int64_t M, const float* a, std::int64_t lda, const PackedMatrix& b, float* c, std::int64_t ldc,
              bool accumulate, const float* bias) {
    if (M <= 0 || b.columns() <= 0) return;
    if (b.rows() == 0) {  // an empty sum
        for (std::int64_t m = 0; m < M && !accumulate; ++m)
            for (std::int64_t n = 0; n < b.columns(); ++n) c[m * ldc + n] = bias ? bias[n] : 0.0f;
        return;
    }
    chosen().kernel(M, a, lda, b, c, ldc, accumulate, bias);
}

const char* kernelName() { return chosen().name; }

bool useKernel(const std::string& name) {
    if (name == "baseline") {
        chosen() = {productBaseline, "baseline"};
        return true;
    }
#if defined(__GNUC__) && defined(__x86_64__)
    __builtin_cpu_init();
    if (name == "avx2" && __builtin_cpu_supports("x86-64-v3")) {
        chosen() = {productAvx2, "avx2"};
        return true;
    }
    if (name == "avx512" && __builtin_cpu_supports("x86-64-v4")) {
        chosen() = {productAvx512, "avx512"};
        return true;
    }
#endif
    return false;
}

}  // namespace attnlab::nn::gemm
