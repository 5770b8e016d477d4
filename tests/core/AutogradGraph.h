#pragma once
// For the tests of the fused autograd nodes: whether a tensor's graph went through them.
#include <torch/torch.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace attnlab::test {

// True if a node of t's backward graph has a name containing needle.
inline bool graphContains(const torch::Tensor& t, const std::string& needle) {
    std::vector<std::shared_ptr<torch::autograd::Node>> stack{t.grad_fn()};
    std::set<torch::autograd::Node*> seen;
    while (!stack.empty()) {
        auto node = stack.back();
        stack.pop_back();
        if (!node || !seen.insert(node.get()).second) continue;
        if (node->name().find(needle) != std::string::npos) return true;
        for (const auto& edge : node->next_edges()) stack.push_back(edge.function);
    }
    return false;
}

}  // namespace attnlab::test
