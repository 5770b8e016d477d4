#include "SmallGemm.h"

#include <algorithm>
#include <cstring>

namespace attnlab::nn::gemm {

void PackedMatrix::pack(const float* b, std::int64_t ldb, bool transposed, std::int64_t K, std::int64_t N) {
    K_ = K;
    N_ = N;
    const std::int64_t panels = (N + kPanel - 1) / kPanel, size = panels * K * kPanel;
    if (size > capacity_) {  // uninitialised: every value is written below
        data_.reset(new float[static_cast<std::size_t>(size)]);
        capacity_ = size;
    }
    for (std::int64_t p = 0; p < panels; ++p) {
        float* out = data_.get() + p * K * kPanel;
        const std::int64_t width = std::min(kPanel, N - p * kPanel);
        if (transposed) {  // B[k][n] = b[n ldb + k]: column n of the panel is row n of b
            for (std::int64_t j = 0; j < width; ++j) {
                const float* row = b + (p * kPanel + j) * ldb;
                for (std::int64_t k = 0; k < K; ++k) out[k * kPanel + j] = row[k];
            }
        } else {
            for (std::int64_t k = 0; k < K; ++k)
                std::memcpy(out + k * kPanel, b + k * ldb + p * kPanel, width * sizeof(float));
        }
        if (width < kPanel)  // the last panel's columns past N
            for (std::int64_t k = 0; k < K; ++k) std::fill(out + k * kPanel + width, out + (k + 1) * kPanel, 0.0f);
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

// One call's operands: A's element (m, k) at a[m lda + k ldk]; C's row m at c + m ldc.
struct Operands {
    const float* a;
    std::int64_t lda, ldk;
    float* c;
    std::int64_t ldc;
    bool accumulate;
    const float* bias;
};

// R rows of C by NV panels (NV * 16 columns, the last panel `lastWidth` wide), the whole K at once:
// the accumulators stay in registers while each step of k loads NV panel rows and broadcasts R
// values of A. a and c point at the block's first row, panels and bias at its first panel.
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void block(std::int64_t K, const float* a, std::int64_t lda, std::int64_t ldk,
                                                 const float* panels, std::int64_t panelStride, float* c,
                                                 std::int64_t ldc, std::int64_t lastWidth, bool accumulate,
                                                 const float* bias) {
    constexpr int L = sizeof(Vec) / sizeof(float), VP = P / L, NVec = NV * VP;
    // Column j's vector: panel j / VP, lanes from (j % VP) L; how many of its columns are real.
    auto offset = [&](int j) { return (j / VP) * P + (j % VP) * L; };
    auto width = [&](int j) { return j / VP == NV - 1 ? lastWidth - (j % VP) * L : std::int64_t{L}; };
    Vec acc[R][NVec];
#pragma GCC unroll 8
    for (int j = 0; j < NVec; ++j) {
        const Vec start = !accumulate && bias ? loadColumns<Vec>(bias + offset(j), width(j)) : Vec{};
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r)
            acc[r][j] = accumulate ? loadColumns<Vec>(c + r * ldc + offset(j), width(j)) : start;
    }
    for (std::int64_t k = 0; k < K; ++k) {
        Vec b[NVec];
#pragma GCC unroll 8
        for (int j = 0; j < NVec; ++j)
            std::memcpy(&b[j], panels + (j / VP) * panelStride + k * P + (j % VP) * L, sizeof(Vec));
        const float* ak = a + k * ldk;
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) {
            const float x = ak[r * lda];
#pragma GCC unroll 8
            for (int j = 0; j < NVec; ++j) acc[r][j] += x * b[j];
        }
    }
#pragma GCC unroll 8
    for (int j = 0; j < NVec; ++j)
#pragma GCC unroll 8
        for (int r = 0; r < R; ++r) storeColumns<Vec>(c + r * ldc + offset(j), acc[r][j], width(j));
}

// Rows [m, m + rows) of C over NV panels from panel p: blocks of R rows, then one of the rows left.
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void rows(const Operands& o, const PackedMatrix& b, std::int64_t p,
                                                std::int64_t lastWidth, std::int64_t m, std::int64_t count) {
    const std::int64_t K = b.rows(), stride = K * P;
    const float* panels = b.panel(p);
    const float* bias = o.bias ? o.bias + p * P : nullptr;
    const std::int64_t end = m + count;
    for (; m + R <= end; m += R)
        block<Vec, R, NV>(K, o.a + m * o.lda, o.lda, o.ldk, panels, stride, o.c + m * o.ldc + p * P, o.ldc, lastWidth,
                          o.accumulate, bias);
    if constexpr (R > 1) {
        if (m < end) rows<Vec, R - 1, NV>(o, b, p, lastWidth, m, end - m);
    }
}

// Chunks of rows (so that A's rows stay in the cache), and in each, panels NV at a time (one at a
// time for what is left) over every block of R rows (so that a group of panels stays in the cache
// while the rows pass over it).
template <typename Vec, int R, int NV>
inline __attribute__((always_inline)) void product(std::int64_t M, const Operands& o, const PackedMatrix& b) {
    constexpr std::int64_t kChunk = 240;  // rows: a multiple of 6 and 8
    const std::int64_t N = b.columns(), panels = (N + P - 1) / P;
    for (std::int64_t m = 0; m < M; m += kChunk) {
        const std::int64_t count = std::min(kChunk, M - m);
        for (std::int64_t p = 0; p < panels;) {
            if (NV > 1 && p + NV <= panels) {
                rows<Vec, R, NV>(o, b, p, std::min(P, N - (p + NV - 1) * P), m, count);
                p += NV;
            } else {
                rows<Vec, R, 1>(o, b, p, std::min(P, N - p * P), m, count);
                p += 1;
            }
        }
    }
}

using Kernel = void (*)(std::int64_t, const Operands&, const PackedMatrix&);

#if defined(__GNUC__) && defined(__x86_64__)
// AVX-512: 8 rows x 2 panels, 16 of the 32 registers accumulate.
__attribute__((target("arch=x86-64-v4"))) void productAvx512(std::int64_t M, const Operands& o, const PackedMatrix& b) {
    product<V16, 8, 2>(M, o, b);
}
// AVX2 with FMA: 6 rows x 1 panel (two registers), 12 of the 16 registers accumulate.
__attribute__((target("arch=x86-64-v3"))) void productAvx2(std::int64_t M, const Operands& o, const PackedMatrix& b) {
    product<V8, 6, 1>(M, o, b);
}
#endif
// SSE: 2 rows x 1 panel (four registers), 8 of the 16 registers accumulate.
void productBaseline(std::int64_t M, const Operands& o, const PackedMatrix& b) { product<V4, 2, 1>(M, o, b); }

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

void multiply(std::int64_t M, const float* a, std::int64_t lda, std::int64_t ldk, const PackedMatrix& b, float* c,
              std::int64_t ldc, bool accumulate, const float* bias) {
    if (M <= 0 || b.columns() <= 0) return;
    if (b.rows() == 0) {  // an empty sum
        for (std::int64_t m = 0; m < M && !accumulate; ++m)
            for (std::int64_t n = 0; n < b.columns(); ++n) c[m * ldc + n] = bias ? bias[n] : 0.0f;
        return;
    }
    chosen().kernel(M, Operands{a, lda, ldk, c, ldc, accumulate, accumulate ? nullptr : bias}, b);
}

void multiply(std::int64_t M, const float* a, std::int64_t lda, const PackedMatrix& b, float* c, std::int64_t ldc,
              bool accumulate, const float* bias) {
    multiply(M, a, lda, 1, b, c, ldc, accumulate, bias);
}

const char* kernelName() { return chosen().name; }

bool hasVectorKernel() { return chosen().kernel != productBaseline; }

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
