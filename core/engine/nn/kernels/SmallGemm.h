#pragma once
// Engine-internal: a matrix product for the recurrences' per-step products, C = A · B with few rows in
// A (a batch's states, 8-64) and B a weight matrix that stays the same for a whole recurrence. BLAS
// packs (copies) B into its panel layout at every call: at these sizes that copy is as long as the
// arithmetic, and two threads making it at once slow each other down. Here B is packed once per
// recurrence (PackedMatrix) and each step only multiplies. An AVX-512 and an AVX2+FMA kernel next
// to the baseline one, chosen once at run time. Float only. Torch-free.
#include <cstdint>
#include <memory>
#include <string>

namespace attnlab::nn::gemm {

// B [K, N] in panels of 16 columns, each panel K rows of 16 floats (the last one padded with zeros).
class PackedMatrix {
public:
    PackedMatrix() = default;
    // B[k][n] = b[k * ldb + n], or with `transposed` b[n * ldb + k] (B is then the transpose of a
    // row-major [N, K] matrix, as a weight [out, in] multiplies from the right: x · Wᵀ).
    void pack(const float* b, std::int64_t ldb, bool transposed, std::int64_t K, std::int64_t N);
    std::int64_t rows() const { return K_; }
    std::int64_t columns() const { return N_; }
    const float* panel(std::int64_t p) const { return data_.get() + p * K_ * kPanel; }
    static constexpr std::int64_t kPanel = 16;

private:
    std::unique_ptr<float[]> data_;
    std::int64_t capacity_ = 0;
    std::int64_t K_ = 0, N_ = 0;
};

// C[M, N] = (accumulate ? C : bias broadcast over the rows, or 0 without one) + A[M, K] · B, with
// rows lda and ldc apart. bias has N values (null for none; ignored when accumulating).
void multiply(std::int64_t M, const float* a, std::int64_t lda, const PackedMatrix& b, float* c, std::int64_t ldc,
              bool accumulate, const float* bias = nullptr);

// The same with A's element (m, k) at a[m lda + k ldk]: ldk = 1 for rows of A, lda = 1 and ldk = its
// row length to read a row-major matrix as its transpose.
void multiply(std::int64_t M, const float* a, std::int64_t lda, std::int64_t ldk, const PackedMatrix& b, float* c,
              std::int64_t ldc, bool accumulate, const float* bias = nullptr);

// The kernel set multiply() runs on this CPU: "avx512", "avx2" or "baseline".
const char* kernelName();

// True unless the kernel set is the baseline (SSE, no FMA), which is no faster than BLAS.
bool hasVectorKernel();

// Tests: makes multiply() run on the named kernel set; false (and no change) when this CPU lacks it.
bool useKernel(const std::string& name);

}  // namespace attnlab::nn::gemm
