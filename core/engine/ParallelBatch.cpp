#include "detail/ParallelBatch.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <exception>
#include <mutex>
#include <thread>

#include "engine/Runtime.h"
#include "engine/nn/Random.h"

namespace attnlab::detail {

void runInParallel(int n, const std::function<void(int)>& work) {
    std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
    auto guarded = [&](int i) {
        try {
            work(i);
        } catch (...) {
            errors[static_cast<std::size_t>(i)] = std::current_exception();
        }
    };
    std::vector<std::thread> threads;
    for (int i = 1; i < n; ++i) threads.emplace_back(guarded, i);
    guarded(0);
    for (auto& thread : threads) thread.join();
    for (const auto& error : errors)
        if (error) std::rethrow_exception(error);
}

std::uint64_t drawSeed() {
    at::Generator global = at::detail::getDefaultCPUGenerator();
    std::lock_guard<std::mutex> lock(global.mutex());
    return global.get<at::CPUGeneratorImpl>()->random64();
}

struct ParallelBatchTrainer::Impl {
    std::vector<torch::Tensor> parameters;
    int parts = 1;
    // Parameter groups of about equal size, one per part: each group's gradient sums, norms and
    // Adam step run on a thread of their own.
    std::vector<std::vector<std::size_t>> groups;
    std::vector<std::unique_ptr<torch::optim::Adam>> optimizers;
};

ParallelBatchTrainer::ParallelBatchTrainer(std::vector<torch::Tensor> parameters, int threads, double learningRate)
    : impl_(std::make_unique<Impl>()) {
    Impl& d = *impl_;
    d.parameters = std::move(parameters);
    d.parts = std::max(1, threads);
    // Parts split the batch rather than share BLAS calls: these matrices are too small for two
    // BLAS threads to help much, and much of a step is not BLAS at all.
    if (d.parts > 1) setThreadCount(1);
    std::int64_t total = 0, seen = 0;
    for (const auto& p : d.parameters) total += p.numel();
    std::vector<std::vector<std::size_t>> groups(static_cast<std::size_t>(d.parts));
    for (std::size_t k = 0; k < d.parameters.size(); ++k) {
        const std::int64_t g = total > 0 ? std::min<std::int64_t>(d.parts - 1, seen * d.parts / total) : 0;
        groups[static_cast<std::size_t>(g)].push_back(k);
        seen += d.parameters[k].numel();
    }
    for (auto& group : groups) {
        if (group.empty()) continue;
        std::vector<torch::Tensor> tensors;
        for (auto k : group) tensors.push_back(d.parameters[k]);
        d.optimizers.push_back(std::make_unique<torch::optim::Adam>(tensors, torch::optim::AdamOptions(learningRate)));
        d.groups.push_back(std::move(group));
    }
}

ParallelBatchTrainer::~ParallelBatchTrainer() = default;

int ParallelBatchTrainer::partsFor(std::int64_t rows) const {
    return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(impl_->parts, rows)));
}

double ParallelBatchTrainer::backward(std::int64_t rows, const Objective& objective) {
    Impl& d = *impl_;
    // Gradients start undefined: the backward then stores each parameter's gradient instead of
    // adding it to a zero-filled one.
    for (auto& p : d.parameters) p.mutable_grad() = torch::Tensor();
    const int parts = partsFor(rows);
    std::vector<double> reported(static_cast<std::size_t>(parts), 0.0);
    if (parts == 1) {
        objective(BatchPart{0, 0, rows}, reported[0]).backward();
    } else {
        std::vector<at::Generator> generators;
        for (int p = 0; p < parts; ++p) generators.push_back(at::make_generator<at::CPUGeneratorImpl>(drawSeed()));
        std::vector<std::vector<torch::Tensor>> grads(static_cast<std::size_t>(parts));
        runInParallel(parts, [&](int p) {
            const auto i = static_cast<std::size_t>(p);
            nn::ScopedGenerator generator(generators[i]);
            const std::int64_t first = rows * p / parts, last = rows * (p + 1) / parts;
            const torch::Tensor share = objective(BatchPart{p, first, last - first}, reported[i]);
            grads[i] = torch::autograd::grad({share}, d.parameters, {}, /*retain_graph=*/false,
                                             /*create_graph=*/false, /*allow_unused=*/true);
        });
        // Summed in part order (the same gradients for the same thread count, whatever the
        // timing), each parameter group on its own thread.
        runInParallel(static_cast<int>(d.groups.size()), [&](int group) {
            for (std::size_t k : d.groups[static_cast<std::size_t>(group)]) {
                torch::Tensor sum;
                for (const auto& g : grads)
                    if (g[k].defined()) sum = sum.defined() ? sum + g[k] : g[k];
                if (sum.defined()) d.parameters[k].mutable_grad() = sum;
            }
        });
    }
    // A parameter this batch did not reach gets a zero gradient, as zero_grad() leaves it: Adam
    // still decays its moments and moves it.
    for (auto& p : d.parameters)
        if (!p.grad().defined()) p.mutable_grad() = torch::zeros_like(p);
    double sum = 0.0;
    for (double r : reported) sum += r;  // in part order
    return sum;
}

double ParallelBatchTrainer::clipGradNorm(double maxNorm) {
    // torch::nn::utils::clip_grad_norm_ (LibTorch 1.13, 2-norm) with the per-parameter norms and
    // the scaling spread over the groups' threads: the same numbers.
    Impl& d = *impl_;
    const int groups = static_cast<int>(d.groups.size());
    std::vector<torch::Tensor> norms(d.parameters.size());
    runInParallel(groups, [&](int group) {
        for (std::size_t k : d.groups[static_cast<std::size_t>(group)])
            if (d.parameters[k].grad().defined()) norms[k] = d.parameters[k].grad().norm(2);
    });
    std::vector<torch::Tensor> defined;
    for (const auto& n : norms)
        if (n.defined()) defined.push_back(n);
    if (defined.empty()) return 0.0;
    const torch::Tensor total = defined.size() == 1 ? defined[0] : torch::stack(defined).norm(2);
    if (maxNorm > 0) {
        const torch::Tensor coefficient = torch::clamp(maxNorm / (total + 1e-6), c10::nullopt, 1.0);
        runInParallel(groups, [&](int group) {
            for (std::size_t k : d.groups[static_cast<std::size_t>(group)])
                if (d.parameters[k].grad().defined()) d.parameters[k].mutable_grad().mul_(coefficient);
        });
    }
    return total.item<double>();
}

void ParallelBatchTrainer::step() {
    runInParallel(static_cast<int>(impl_->optimizers.size()),
                  [&](int i) { impl_->optimizers[static_cast<std::size_t>(i)]->step(); });
}

void ParallelBatchTrainer::setLearningRate(double learningRate) {
    for (auto& optimizer : impl_->optimizers)
        for (auto& group : optimizer->param_groups())
            static_cast<torch::optim::AdamOptions&>(group.options()).lr(learningRate);
}

}  // namespace attnlab::detail
