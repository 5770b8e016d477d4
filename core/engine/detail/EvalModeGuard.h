#pragma once
// Engine-internal (LibTorch): a network in eval mode for a scope, for every task's models.
#include <torch/torch.h>

namespace attnlab {

// Eval mode (no dropout) for the guard's lifetime, then the mode the network had: translating,
// tracing or evaluating between training batches must leave training mode as it was, also when
// an exception leaves early.
class EvalModeGuard {
public:
    explicit EvalModeGuard(torch::nn::Module& net) : net_(net), training_(net.is_training()) { net_.eval(); }
    ~EvalModeGuard() { net_.train(training_); }
    EvalModeGuard(const EvalModeGuard&) = delete;
    EvalModeGuard& operator=(const EvalModeGuard&) = delete;

private:
    torch::nn::Module& net_;
    bool training_;
};

}  // namespace attnlab
