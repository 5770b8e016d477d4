// The packed matrix product (engine/nn/SmallGemm.h) against a product computed by hand in double
// precision, on every kernel set this CPU runs, over shapes that leave partial panels and partial row
// blocks; and the packed linear layer built on it (engine/nn/PackedLinear.h) against torch::linear.
// LibTorch first: glog's CHECK would otherwise replace Catch's.
#include <torch/torch.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/AutogradGraph.h"
#include "engine/nn/nodes/PackedLinear.h"
#include "engine/nn/kernels/SmallGemm.h"

using namespace attnlab;
namespace gemm = attnlab::nn::gemm;

namespace {

struct KernelGuard {
    ~KernelGuard() {
        // Back to this CPU's own choice, whatever a case selected.
        for (const char* name : {"avx512", "avx2", "baseline"})
            if (gemm::useKernel(name)) break;
    }
};

std::vector<float> randomValues(std::size_t n, std::mt19937& generator) {
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> values(n);
    for (auto& v : values) v = uniform(generator);
    return values;
}

}  // namespace

TEST_CASE("small gemm: C = bias + A B and C += A B on every kernel set, against a hand product", "[gemm]") {
    KernelGuard guard;
    std::mt19937 generator(3);
    int kernelsRun = 0;
    for (const char* kernel : {"avx512", "avx2", "baseline"}) {
        if (!gemm::useKernel(kernel)) continue;  // this CPU lacks it
        ++kernelsRun;
        REQUIRE(std::string(gemm::kernelName()) == kernel);
        // Rows around the kernels' block heights (2, 6, 8), columns around the 16-column panels
        // and their pairs, and K from 1 up (a transposed pack copies 8 x 8 blocks on the vector
        // kernel sets, element by element on the baseline: 16 and 37 cross them).
        for (std::int64_t M : {1, 2, 5, 7, 8, 9, 13, 17, 32})
            for (std::int64_t N : {1, 15, 16, 17, 31, 32, 33, 48, 70})
                for (std::int64_t K : {1, 3, 16, 37})
                    for (bool transposed : {false, true}) {
                        INFO(kernel << " M " << M << " N " << N << " K " << K << (transposed ? " transposed" : ""));
                        const std::int64_t lda = K + 3, ldc = N + 5;  // rows further apart than their length
                        const std::int64_t ldb = transposed ? K + 2 : N + 1;
                        const auto a = randomValues(static_cast<std::size_t>(M * lda), generator);
                        const auto b = randomValues(static_cast<std::size_t>((transposed ? N : K) * ldb), generator);
                        const auto bias = randomValues(static_cast<std::size_t>(N), generator);
                        const auto start = randomValues(static_cast<std::size_t>(M * ldc), generator);
                        gemm::PackedMatrix packed;
                        packed.pack(b.data(), ldb, transposed, K, N);
                        REQUIRE(packed.rows() == K);
                        REQUIRE(packed.columns() == N);
                        auto product = [&](std::int64_t m, std::int64_t n) {
                            double sum = 0.0;
                            for (std::int64_t k = 0; k < K; ++k)
                                sum += static_cast<double>(a[static_cast<std::size_t>(m * lda + k)]) *
                                       (transposed ? b[static_cast<std::size_t>(n * ldb + k)]
                                                   : b[static_cast<std::size_t>(k * ldb + n)]);
                            return sum;
                        };
                        std::vector<float> withBias = start, accumulated = start, plain = start;
                        gemm::multiply(M, a.data(), lda, packed, withBias.data(), ldc, false, bias.data());
                        gemm::multiply(M, a.data(), lda, packed, accumulated.data(), ldc, true);
                        gemm::multiply(M, a.data(), lda, packed, plain.data(), ldc, false);
                        double worst = 0.0;
                        bool paddingKept = true;
                        for (std::int64_t m = 0; m < M; ++m) {
                            for (std::int64_t n = 0; n < N; ++n) {
                                const auto i = static_cast<std::size_t>(m * ldc + n);
                                const double p = product(m, n);
                                worst = std::max({worst, std::abs(withBias[i] - (bias[static_cast<std::size_t>(n)] + p)),
                                                  std::abs(accumulated[i] - (start[i] + p)), std::abs(plain[i] - p)});
                            }
                            // The columns between one row's end and the next row stay as they were.
                            for (std::int64_t n = N; n < ldc && m * ldc + n < M * ldc; ++n) {
                                const auto i = static_cast<std::size_t>(m * ldc + n);
                                paddingKept = paddingKept && withBias[i] == start[i] && accumulated[i] == start[i] &&
                                              plain[i] == start[i];
                            }
                        }
                        CHECK(worst < 1e-5 * std::max<double>(1.0, static_cast<double>(K)));
                        CHECK(paddingKept);
                    }
    }
    CHECK(kernelsRun >= 1);  // the baseline runs everywhere
}

TEST_CASE("small gemm: an empty inner dimension gives the bias, or leaves C as it was", "[gemm]") {
    gemm::PackedMatrix packed;
    packed.pack(nullptr, 0, false, 0, 3);
    const std::vector<float> a(2, 1.0f), bias = {1.0f, 2.0f, 3.0f};
    std::vector<float> c(6, 7.0f);
    gemm::multiply(2, a.data(), 0, packed, c.data(), 3, true);
    CHECK(c == std::vector<float>(6, 7.0f));
    gemm::multiply(2, a.data(), 0, packed, c.data(), 3, false, bias.data());
    CHECK((c == std::vector<float>{1, 2, 3, 1, 2, 3}));
}

TEST_CASE("packed linear: values and every gradient equal torch::linear's", "[gemm]") {
    KernelGuard guard;
    torch::manual_seed(4);
    for (const char* kernel : {"avx512", "avx2", "baseline"}) {
        if (!gemm::useKernel(kernel)) continue;
        // Shapes with partial panels and row blocks; a view whose rows are further apart than their
        // length (a chunk of a fused projection); no bias; an input that needs no gradient.
        struct Case {
            std::vector<std::int64_t> shape;
            std::int64_t out;
            bool bias, chunk, inputGradient;
        };
        for (const Case& c : {Case{{3, 7, 20}, 33, true, false, true}, Case{{50, 64}, 192, true, true, true},
                              Case{{2, 9, 16}, 16, false, false, true}, Case{{40, 5}, 3, true, false, false}}) {
            INFO(kernel << " rows of " << c.shape.back() << " -> " << c.out << (c.chunk ? " (a chunk)" : ""));
            std::vector<std::int64_t> wide = c.shape;
            if (c.chunk) wide.back() *= 3;
            torch::Tensor x = c.chunk ? torch::randn(wide).narrow(-1, c.shape.back(), c.shape.back())  // rows 3x apart
                                      : torch::randn(c.shape);
            x.requires_grad_(c.inputGradient);
            const torch::Tensor w = torch::randn({c.out, c.shape.back()}).requires_grad_();
            const torch::Tensor b = c.bias ? torch::randn({c.out}).requires_grad_() : torch::Tensor();
            const torch::Tensor upstream = torch::randn([&] {
                auto s = c.shape;
                s.back() = c.out;
                return s;
            }());
            auto run = [&](bool packed) {
                for (torch::Tensor t : {x, w, b})
                    if (t.defined() && t.grad().defined()) t.mutable_grad() = torch::Tensor();
                torch::Tensor y = packed ? nn::packedLinear(x, w, b) : torch::linear(x, w, b);
                (y * upstream).sum().backward();
                std::vector<torch::Tensor> out{y.detach(), w.grad().clone()};
                if (b.defined()) out.push_back(b.grad().clone());
                if (c.inputGradient) out.push_back(x.grad().clone());
                return out;
            };
            const auto want = run(false);
            const auto got = run(true);
            REQUIRE(got.size() == want.size());
            for (std::size_t i = 0; i < want.size(); ++i) {
                INFO("output " << i << " (y, dW, db, dx)");
                REQUIRE(got[i].sizes() == want[i].sizes());
                CHECK((got[i] - want[i]).abs().max().item<double>() < 1e-4 * std::max(1.0, want[i].abs().max().item<double>()));
            }
            if (!c.inputGradient) CHECK_FALSE(x.grad().defined());
        }
    }
}

TEST_CASE("packed linear: training takes the packed node, evaluation LibTorch's linear", "[gemm]") {
    const torch::Tensor w = torch::randn({8, 4}, torch::requires_grad()), b = torch::randn({8}, torch::requires_grad());
    const torch::Tensor x = torch::randn({32, 4});
    const bool vectorKernel = std::string(gemm::kernelName()) != "baseline";
    CHECK(test::graphContains(nn::linear(x, w, b), "PackedLinear") == vectorKernel);
    CHECK_FALSE(test::graphContains(nn::linear(x.narrow(0, 0, 4), w, b), "PackedLinear"));  // few rows
    CHECK_FALSE(test::graphContains(nn::linear(x.to(torch::kDouble), w.to(torch::kDouble), b.to(torch::kDouble)),
                                    "PackedLinear"));
    torch::NoGradGuard noGrad;
    CHECK_FALSE(nn::linear(x, w, b).requires_grad());
}
