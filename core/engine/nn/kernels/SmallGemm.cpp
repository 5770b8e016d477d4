#include "engine/nn/kernels/SmallGemm.h"

#include <algorithm>
#include <cstring>

#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

namespace attnlab::nn::gemm {

namespace {

bool vectorPacking();

// Rows [row, row + 8) of b from column k on, to rows [k, k + 8) of a panel's columns [j, j + 8):
// one 8 x 8 transpose in registers, eight loads and eight full stores instead of 64 scalar copies,
// each a line apart (a 384 x 128 weight packed in 3.7 us instead of 17).
#if defined(__GNUC__) && defined(__x86_64__)
__attribute__((target("arch=x86-64-v3"))) inline void transpose8(const float* b, std::int64_t ldb, float* out) {
    const __m256 r0 = _mm256_loadu_ps(b), r1 = _mm256_loadu_ps(b + ldb), r2 = _mm256_loadu_ps(b + 2 * ldb),
                 r3 = _mm256_loadu_ps(b + 3 * ldb), r4 = _mm256_loadu_ps(b + 4 * ldb), r5 = _mm256_loadu_ps(b + 5 * ldb),
                 r6 = _mm256_loadu_ps(b + 6 * ldb), r7 = _mm256_loadu_ps(b + 7 * ldb);
    const __m256 t0 = _mm256_unpacklo_ps(r0, r1), t1 = _mm256_unpackhi_ps(r0, r1), t2 = _mm256_unpacklo_ps(r2, r3),
                 t3 = _mm256_unpackhi_ps(r2, r3), t4 = _mm256_unpacklo_ps(r4, r5), t5 = _mm256_unpackhi_ps(r4, r5),
                 t6 = _mm256_unpacklo_ps(r6, r7), t7 = _mm256_unpackhi_ps(r6, r7);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xEE),
                 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xEE),
                 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xEE),
                 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xEE);
    constexpr std::int64_t P = PackedMatrix::kPanel;
    _mm256_storeu_ps(out, _mm256_permute2f128_ps(s0, s4, 0x20));
    _mm256_storeu_ps(out + P, _mm256_permute2f128_ps(s1, s5, 0x20));
    _mm256_storeu_ps(out + 2 * P, _mm256_permute2f128_ps(s2, s6, 0x20));
    _mm256_storeu_ps(out + 3 * P, _mm256_permute2f128_ps(s3, s7, 0x20));
    _mm256_storeu_ps(out + 4 * P, _mm256_permute2f128_ps(s0, s4, 0x31));
    _mm256_storeu_ps(out + 5 * P, _mm256_permute2f128_ps(s1, s5, 0x31));
    _mm256_storeu_ps(out + 6 * P, _mm256_permute2f128_ps(s2, s6, 0x31));
    _mm256_storeu_ps(out + 7 * P, _mm256_permute2f128_ps(s3, s7, 0x31));
}

// A full panel's rows [0, blocked) of K, by 8 x 8 blocks; returns `blocked`.
__attribute__((target("arch=x86-64-v3"))) std::int64_t packPanelByBlocks(const float* b, std::int64_t ldb,
                                                                          std::int64_t K, float* out) {
    constexpr std::int64_t P = PackedMatrix::kPanel;
    const std::int64_t blocked = K / 8 * 8;
    for (std::int64_t k = 0; k < blocked; k += 8) {
        transpose8(b + k, ldb, out + k * P);
        transpose8(b + 8 * ldb + k, ldb, out + k * P + 8);
    }
    return blocked;
}
#endif

}  // namespace

void PackedMatrix::pack(const float* b, std::int64_t ldb, bool transposed, std::int64_t K, std::int64_t N) {
    K_ = K;
    N_ = N;
    const std::int64_t panels = (N + kPanel - 1) / kPanel, size = panels * K * kPanel;
    if (size > capacity_) {  // uninitialised: every value is written below
        data_.reset(new float[static_cast<std::size_t>(size)]);
        capacity_ = size;
    }
    const bool byBlocks = transposed && vectorPacking();
    for (std::int64_t p = 0; p < panels; ++p) {
        float* out = data_.get() + p * K * kPanel;
        const std::int64_t width = std::min(kPanel, N - p * kPanel);
        if (transposed) {  // B[k][n] = b[n ldb + k]: column n of the panel is row n of b
            std::int64_t from = 0;
#if defined(__GNUC__) && defined(__x86_64__)
            if (byBlocks && width == kPanel) from = packPanelByBlocks(b + p * kPanel * ldb, ldb, K, out);
#endif
            for (std::int64_t j = 0; j < width; ++j) {
                const float* row = b + (p * kPanel + j) * ldb;
                for (std::int64_t k = from; k < K; ++k) out[k * kPanel + j] = row[k];
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

namespace {
// Packs transpose by 8 x 8 blocks with the vector kernels (AVX2 or AVX-512: both have AVX's
// shuffles), element by element with the baseline one.
bool vectorPacking() { return chosen().kernel != productBaseline; }
}  // namespace

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
