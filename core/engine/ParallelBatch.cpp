#include "detail/ParallelBatch.h"

#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <thread>

#include "engine/Runtime.h"
#include "engine/nn/kernels/Random.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::detail {

namespace {

// Threads that live as long as the trainer and run a batch's parallel work: starting and joining
// threads five times a batch cost ~6% of a two-thread classifier's batch (its batches take 6 ms).
// A batch makes two dispatches a few hundred microseconds apart or less, and waking a thread that
// sleeps on a condition variable takes ~12 us here (a round trip ~25 us): so a worker that finishes
// spins for up to kSpin for the next item before it sleeps, and the caller spins as long for the
// workers to finish; a longer gap (after the run, an evaluation) still ends in a sleep. The gap from
// one batch's Adam step to the next batch's parts (the batch's tensors, the curves' callback) is
// ~50 us for the classifier and longer for the images: with 300 us instead of 50 the worker is
// still awake for it, and two threads trained 2-4% faster here (classifier, ViT, GRU, Transformer;
// alternating pairs). The barrier within a dispatch (Barrier below) spins as long.
constexpr std::chrono::microseconds kSpin{300};

// Spins while `busy` holds, for at most kSpin.
template <typename Busy>
void spinWhile(Busy busy) {
    const auto until = std::chrono::steady_clock::now() + kSpin;
    while (busy()) {
        for (int i = 0; i < 32; ++i) {
#if defined(__x86_64__) || defined(__i386__)
            __builtin_ia32_pause();
#endif
        }
        if (std::chrono::steady_clock::now() > until) return;
    }
}

class WorkerPool {
public:
    explicit WorkerPool(int workers) {
        for (int i = 1; i <= workers; ++i) threads_.emplace_back([this, i] { loop(i); });
    }
    ~WorkerPool() {
        {
            std::lock_guard<std::mutex> lock(mutex_);
            stop_.store(true);
        }
        wake_.notify_all();
        for (auto& thread : threads_) thread.join();
    }
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // Runs work(0) .. work(n - 1), work(0) on the calling thread and item i on worker i (n - 1 must
    // not exceed the workers); rethrows the first exception once all have finished.
    void run(int n, const std::function<void(int)>& work) {
        n = std::min(n, static_cast<int>(threads_.size()) + 1);
        std::vector<std::exception_ptr> errors(static_cast<std::size_t>(std::max(n, 1)));
        if (n > 1) {
            std::lock_guard<std::mutex> lock(mutex_);
            work_ = &work;
            errors_ = &errors;
            items_ = n;
            pending_.store(n - 1);
            generation_.fetch_add(1);
        }
        if (n > 1) wake_.notify_all();
        if (n >= 1) guarded(work, 0, errors);
        if (n > 1) {
            spinWhile([this] { return pending_.load() != 0; });
            std::unique_lock<std::mutex> lock(mutex_);
            done_.wait(lock, [this] { return pending_.load() == 0; });
        }
        for (const auto& error : errors)
            if (error) std::rethrow_exception(error);
    }

private:
    static void guarded(const std::function<void(int)>& work, int i, std::vector<std::exception_ptr>& errors) {
        try {
            work(i);
        } catch (...) {
            errors[static_cast<std::size_t>(i)] = std::current_exception();
        }
    }

    void loop(int index) {
        std::uint64_t seen = 0;
        for (;;) {
            spinWhile([&] { return !stop_.load() && generation_.load() == seen; });
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait(lock, [&] { return stop_.load() || generation_.load() != seen; });
            if (stop_.load()) return;
            seen = generation_.load();
            if (index >= items_) continue;
            const std::function<void(int)>& work = *work_;
            std::vector<std::exception_ptr>& errors = *errors_;
            lock.unlock();
            guarded(work, index, errors);
            lock.lock();
            if (pending_.fetch_sub(1) == 1) done_.notify_one();
        }
    }

    std::mutex mutex_;
    std::condition_variable wake_, done_;
    const std::function<void(int)>* work_ = nullptr;
    std::vector<std::exception_ptr>* errors_ = nullptr;
    int items_ = 0;
    // Written under the mutex, read by the spins without it.
    std::atomic<int> pending_{0};
    std::atomic<std::uint64_t> generation_{0};
    std::atomic<bool> stop_{false};
    std::vector<std::thread> threads_;
};

// Where the threads of one dispatch wait for each other (the parts' gradients are all there before
// any group sums them; all sums are made before a part frees its own gradients): each spins up to
// kSpin, as the pool's workers do, then sleeps until the last one arrives.
class Barrier {
public:
    explicit Barrier(int count) : count_(count) {}

    void arriveAndWait() {
        const std::uint64_t generation = generation_.load();
        if (arrived_.fetch_add(1) + 1 == count_) {
            std::lock_guard<std::mutex> lock(mutex_);
            arrived_.store(0);
            generation_.fetch_add(1);
            released_.notify_all();
            return;
        }
        spinWhile([&] { return generation_.load() == generation; });
        std::unique_lock<std::mutex> lock(mutex_);
        released_.wait(lock, [&] { return generation_.load() != generation; });
    }

private:
    const int count_;
    std::atomic<int> arrived_{0};
    std::atomic<std::uint64_t> generation_{0};
    std::mutex mutex_;
    std::condition_variable released_;
};

}  // namespace

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
    // Adam (torch::optim::Adam's defaults: β = (0.9, 0.999), ε = 1e-8, no weight decay): each
    // parameter's moments, and the steps taken. Every parameter steps every batch (each has a
    // gradient), so one count serves them all.
    std::vector<torch::Tensor> firstMoments, secondMoments;
    double learningRate = 1e-3;
    std::int64_t steps = 0;
    // The batch's per-parameter squared gradient norms (backward), and clipGradNorm's coefficient
    // for the next step (1: no clipping).
    std::vector<double> squares;
    double scale = 1.0;
    std::unique_ptr<WorkerPool> pool;  // parts - 1 threads beside the caller's
    void runInParallel(int n, const std::function<void(int)>& work) { pool->run(n, work); }
};

ParallelBatchTrainer::ParallelBatchTrainer(std::vector<torch::Tensor> parameters, int threads, double learningRate)
    : impl_(std::make_unique<Impl>()) {
    Impl& d = *impl_;
    d.parameters = std::move(parameters);
    d.parts = std::max(1, threads);
    d.pool = std::make_unique<WorkerPool>(d.parts - 1);
    // Parts split the batch rather than share BLAS calls: these matrices are too small for two
    // BLAS threads to help much, and much of a step is not BLAS at all.
    if (d.parts > 1) setThreadCount(1);
    std::int64_t total = 0, seen = 0;
    for (const auto& p : d.parameters) total += p.numel();
    std::vector<std::vector<std::size_t>> groups(static_cast<std::size_t>(d.parts));
    for (std::size_t k = 0; k < d.parameters.size(); ++k) {
        // The group a parameter's middle falls in: by its first element, a matrix starting just
        // before the halfway mark went to the first group, and the BiGRU classifier's groups came
        // out 170k and 83k parameters.
        const std::int64_t middle = seen + d.parameters[k].numel() / 2;
        const std::int64_t g = total > 0 ? std::min<std::int64_t>(d.parts - 1, middle * d.parts / total) : 0;
        groups[static_cast<std::size_t>(g)].push_back(k);
        seen += d.parameters[k].numel();
    }
    for (auto& group : groups)
        if (!group.empty()) d.groups.push_back(std::move(group));
    d.learningRate = learningRate;
    torch::NoGradGuard noGrad;
    for (const auto& p : d.parameters) {
        d.firstMoments.push_back(torch::zeros_like(p, at::MemoryFormat::Contiguous));
        d.secondMoments.push_back(torch::zeros_like(p, at::MemoryFormat::Contiguous));
    }
}

ParallelBatchTrainer::~ParallelBatchTrainer() = default;

int ParallelBatchTrainer::partsFor(std::int64_t rows) const {
    return static_cast<int>(std::max<std::int64_t>(1, std::min<std::int64_t>(impl_->parts, rows)));
}

namespace {

// The first row of each of `parts` parts of a batch of `rows` rows, and `rows` at the end: equal row
// counts, or for two parts with a cost the split whose larger part costs least.
std::vector<std::int64_t> partBounds(std::int64_t rows, int parts, const ParallelBatchTrainer::PartCost& cost) {
    std::vector<std::int64_t> bounds;
    for (int p = 0; p <= parts; ++p) bounds.push_back(rows * p / parts);
    if (parts != 2 || !cost) return bounds;
    double best = std::max(cost(0, bounds[1]), cost(bounds[1], rows - bounds[1]));
    for (std::int64_t k = 1; k < rows; ++k) {
        const double worst = std::max(cost(0, k), cost(k, rows - k));
        if (worst < best) {
            best = worst;
            bounds[1] = k;
        }
    }
    return bounds;
}

}  // namespace

// Parameter k's gradient for the step: the parts' gradients summed in part order (the same
// gradients for the same thread count, whatever the timing), or with one part what backward() left;
// zero for a parameter the batch did not reach (as zero_grad() leaves it: Adam still decays its
// moments and moves it); and its squared norm for clipGradNorm.
void ParallelBatchTrainer::settle(std::size_t k, const std::vector<std::vector<torch::Tensor>>* partGradients) {
    Impl& d = *impl_;
    torch::Tensor& p = d.parameters[k];
    const bool flat = p.scalar_type() == torch::kFloat;
    torch::Tensor grad = partGradients ? torch::Tensor() : p.grad();
    bool measured = false;
    if (partGradients) {
        std::vector<torch::Tensor> reached;
        for (const auto& g : *partGradients)
            if (g[k].defined()) reached.push_back(g[k].contiguous());
        if (reached.size() == 2 && flat) {  // one pass: the sum and its squares
            grad = torch::empty_like(reached[0], at::MemoryFormat::Contiguous);
            d.squares[k] = nn::kernels::addWithSumOfSquares(grad.data_ptr<float>(), reached[0].data_ptr<float>(),
                                                            reached[1].data_ptr<float>(), grad.numel());
            measured = true;
        } else if (!reached.empty()) {
            grad = reached[0];
            for (std::size_t i = 1; i < reached.size(); ++i) grad = grad + reached[i];
        }
    }
    if (!grad.defined()) {
        grad = torch::zeros_like(p);
        d.squares[k] = 0.0;
        measured = true;
    }
    p.mutable_grad() = grad;  // the last batch's sum goes on the thread that made it
    if (measured) return;
    const torch::Tensor g = grad.contiguous();
    d.squares[k] = flat ? nn::kernels::sumOfSquares(g.data_ptr<float>(), g.numel()) : g.pow(2).sum().item<double>();
}

double ParallelBatchTrainer::backward(std::int64_t rows, const Objective& objective, const PartCost& cost) {
    Impl& d = *impl_;
    const int parts = partsFor(rows);
    std::vector<double> reported(static_cast<std::size_t>(parts), 0.0);
    d.squares.assign(d.parameters.size(), 0.0);
    d.scale = 1.0;
    const auto groupCount = static_cast<int>(d.groups.size());
    if (parts == 1) {
        // Gradients start undefined: the backward then stores each parameter's gradient instead of
        // adding it to a zero-filled one. Then each group's norms on a thread of its own.
        for (auto& p : d.parameters) p.mutable_grad() = torch::Tensor();
        objective(BatchPart{0, 0, rows}, reported[0]).backward();
        d.runInParallel(groupCount, [&](int group) {
            for (std::size_t k : d.groups[static_cast<std::size_t>(group)]) settle(k, nullptr);
        });
        return reported[0];
    }
    // One dispatch: each thread runs its part, then (once every part's gradients are there) sums
    // its parameter groups' gradients, then (once every sum is made) frees its own part's
    // gradients. Tensors are freed on the thread that made them: freed on another, glibc hands them
    // back to the maker's arena under its lock, which the maker may be holding.
    std::vector<at::Generator> generators;
    for (int p = 0; p < parts; ++p) generators.push_back(at::make_generator<at::CPUGeneratorImpl>(drawSeed()));
    const std::vector<std::int64_t> bounds = partBounds(rows, parts, cost);
    std::vector<std::vector<torch::Tensor>> grads(static_cast<std::size_t>(parts));
    std::vector<std::exception_ptr> failures(static_cast<std::size_t>(parts));
    Barrier barrier(parts);
    d.runInParallel(parts, [&](int p) {
        const auto i = static_cast<std::size_t>(p);
        try {
            nn::ScopedGenerator generator(generators[i]);
            const std::int64_t first = bounds[i], last = bounds[i + 1];
            const torch::Tensor share = objective(BatchPart{p, first, last - first}, reported[i]);
            grads[i] = torch::autograd::grad({share}, d.parameters, {}, /*retain_graph=*/false,
                                             /*create_graph=*/false, /*allow_unused=*/true);
        } catch (...) {
            failures[i] = std::current_exception();
        }
        barrier.arriveAndWait();
        const bool failed = std::any_of(failures.begin(), failures.end(), [](const auto& e) { return bool(e); });
        for (int group = p; group < groupCount; group += parts)
            for (std::size_t k : d.groups[static_cast<std::size_t>(group)]) {
                if (failed)
                    d.parameters[k].mutable_grad() = torch::Tensor();
                else
                    settle(k, &grads);
            }
        barrier.arriveAndWait();
        grads[i].clear();
        if (failures[i]) std::rethrow_exception(failures[i]);
    });
    double sum = 0.0;
    for (double r : reported) sum += r;  // in part order
    return sum;
}

double ParallelBatchTrainer::clipGradNorm(double maxNorm) {
    // torch::nn::utils::clip_grad_norm_'s coefficient (2-norm): min(1, maxNorm / (norm + 1e-6)), from
    // the squared norms backward() measured (summed in double precision); step() applies it.
    Impl& d = *impl_;
    double squares = 0.0;
    for (double s : d.squares) squares += s;
    const double total = std::sqrt(squares);
    d.scale = maxNorm > 0 ? std::min(1.0, maxNorm / (total + 1e-6)) : 1.0;
    return total;
}

void ParallelBatchTrainer::step() {
    // One pass over each parameter (nn::kernels::adamStep) instead of torch::optim::Adam's eight
    // LibTorch operations on it: the same update, up to the order of float operations.
    Impl& d = *impl_;
    constexpr double beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
    const double t = static_cast<double>(++d.steps);
    const double correction1 = 1.0 - std::pow(beta1, t), correction2 = 1.0 - std::pow(beta2, t);
    const double stepSize = d.learningRate / correction1, inverseRoot2 = 1.0 / std::sqrt(correction2);
    torch::NoGradGuard noGrad;
    d.runInParallel(static_cast<int>(d.groups.size()), [&](int group) {
        for (std::size_t k : d.groups[static_cast<std::size_t>(group)]) {
            torch::Tensor& p = d.parameters[k];
            const torch::Tensor g = p.grad().contiguous();
            torch::Tensor &m = d.firstMoments[k], &v = d.secondMoments[k];
            if (p.scalar_type() == torch::kFloat && p.is_contiguous()) {
                nn::kernels::adamStep(p.data_ptr<float>(), g.data_ptr<float>(), m.data_ptr<float>(), v.data_ptr<float>(),
                                      p.numel(), static_cast<float>(d.scale), beta1, beta2,
                                      static_cast<float>(stepSize), static_cast<float>(inverseRoot2),
                                      static_cast<float>(eps));
            } else {  // torch::optim::Adam's operations, on the clipped gradient
                const torch::Tensor clipped = d.scale != 1.0 ? g * d.scale : g;
                m.mul_(beta1).add_(clipped, 1 - beta1);
                v.mul_(beta2).addcmul_(clipped, clipped, 1 - beta2);
                p.addcdiv_(m, (v.sqrt() * inverseRoot2).add_(eps), -stepSize);
            }
        }
    });
    d.scale = 1.0;
}

void ParallelBatchTrainer::setLearningRate(double learningRate) { impl_->learningRate = learningRate; }

}  // namespace attnlab::detail
