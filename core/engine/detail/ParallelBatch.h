#pragma once
// Engine-internal: training one batch on several threads, shared by every task's trainer. A batch
// is split into parts of consecutive rows, each part's forward and backward runs on a thread of its
// own with its own dropout generator; in the same dispatch, once every part is done, each thread
// sums the parts' gradients (in part order) of one group of the parameters, and frees its own
// part's gradients once every sum is made. Adam then steps one group per thread, one pass over each
// parameter. The loss and gradients equal the whole batch's (each part returns its share of the
// batch's objective), and a run repeats exactly for a given thread count.
// Includes LibTorch; only engine .cpp files include it.
#include <torch/torch.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace attnlab::detail {

// A seed for a part's generator, from LibTorch's global generator (so torch::manual_seed and the
// model's seed still decide every draw).
std::uint64_t drawSeed();

// The rows [first, first + count) of a batch that part `index` trains on.
struct BatchPart {
    int index = 0;
    std::int64_t first = 0, count = 0;
};

// Adam (torch::optim::Adam's update and defaults) over a network's parameters, trained on
// `threads` parts per batch. One thread (or a batch of
// one row) is exactly the single-threaded loop: one forward, backward and Adam step.
class ParallelBatchTrainer {
public:
    ParallelBatchTrainer(std::vector<torch::Tensor> parameters, int threads, double learningRate);
    ~ParallelBatchTrainer();

    // The number of parts a batch of `rows` rows is split into.
    int partsFor(std::int64_t rows) const;

    // Forward and backward of a batch of `rows` rows. objective(part, reported) runs the part's
    // forward and returns its share of the batch's objective (the parts' shares add up to the
    // batch's: a sum over the part's rows divided by the batch's count), and sets `reported` to its
    // share of the figure the curves show (the loss without penalties). Returns the reported shares
    // summed. Afterwards every parameter's gradient is the batch's (zero for a parameter the batch
    // did not reach, as zero_grad() leaves it).
    // `cost`, when given, is what training rows [first, first + count) as one part costs (say its
    // rows times its longest sequence, for a batch sorted by length): two parts then split where
    // their costs are closest, instead of at the middle row.
    using Objective = std::function<torch::Tensor(const BatchPart& part, double& reported)>;
    using PartCost = std::function<double(std::int64_t first, std::int64_t count)>;
    double backward(std::int64_t rows, const Objective& objective, const PartCost& cost = nullptr);

    // The gradients' 2-norm; when maxNorm > 0 the next step() reads them scaled to at most maxNorm
    // (clip_grad_norm_'s coefficient; the gradients themselves stay as backward() left them).
    double clipGradNorm(double maxNorm);

    void step();
    void setLearningRate(double learningRate);

private:
    void settle(std::size_t k, const std::vector<std::vector<torch::Tensor>>* partGradients);
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab::detail
