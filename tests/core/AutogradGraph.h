#pragma once
// For the tests of the fused autograd nodes: whether a tensor's graph went through them.
#include <torch/torch.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

namespace attnlab::test {

// How many nodes of t's backward graph have a name containing needle.
inline int graphCount(const torch::Tensor& t, const std::string& needle) {
    std::vector<std::shared_ptr<torch::autograd::Node>> stack{t.grad_fn()};
    std::set<torch::autograd::Node*> seen;
    int count = 0;
    while (!stack.empty()) {
        auto node = stack.back();
        stack.pop_back();
        if (!node || !seen.insert(node.get()).second) continue;
        if (node->name().find(needle) != std::string::npos) ++count;
        for (const auto& edge : node->next_edges()) stack.push_back(edge.function);
    }
    return count;
}

// True if a node of t's backward graph has a name containing needle.
inline bool graphContains(const torch::Tensor& t, const std::string& needle) { return graphCount(t, needle) > 0; }

}  // namespace attnlab::test
