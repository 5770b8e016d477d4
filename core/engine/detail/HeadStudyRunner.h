#pragma once
// Engine-internal: the head study of engine/HeadStudy.h for any network whose heads sit in
// nn::MultiHeadAttention modules. A task describes its network as a HeadSubject (its heads, where
// each attention module is, how to score the set, how to run it batch by batch for the gradients)
// and runHeadStudy does the rest: the baseline, one ablation per head, the gate gradients, the
// pruning curve by importance and the random orders.
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "engine/HeadStudy.h"
#include "engine/nn/networks/MultiHeadAttention.h"

namespace attnlab::detail {

struct HeadSubject {
    std::vector<HeadId> heads;  // every head, in order (encoder, decoder, cross; layer; head)
    int headsPerLayer = 0;
    // The attention module of a kind and layer.
    std::function<nn::MultiHeadAttention&(MapKind, int)> module;
    // The set's figures with the gates as they are set (no autograd needed).
    std::function<HeadScore()> score;
    // Calls visit(rows, loss) once per batch of the set: loss() runs the batch's forward pass with
    // the gates as they are set and returns the batch's summed loss (a scalar with autograd).
    using Visit = std::function<void(std::int64_t rows, const std::function<torch::Tensor()>& loss)>;
    std::function<void(const Visit&)> forEachBatch;
};

// Every module's gate cleared (all heads on, the plain paths).
void clearGates(const HeadSubject& subject);

// score() with `off` switched off (the gates cleared again after). ConfigError for a head beyond
// the subject's.
HeadScore scoreWith(const HeadSubject& subject, const std::vector<HeadId>& off);

// sum over items of |dL/d xi_h| at every gate 1, in subject.heads order.
std::vector<double> gateGradients(const HeadSubject& subject);

HeadStudyReport runHeadStudy(const HeadSubject& subject, const HeadStudyOptions& options,
                             const HeadStudyProgress& progress);

// ---- What the tasks' head studies (text/, vision/, forecast/) share ----

// Every head of `layers` layers of one kind.
inline void appendHeads(std::vector<HeadId>& heads, MapKind kind, int layers, int perLayer) {
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < perLayer; ++h) heads.push_back({kind, l, h});
}

// The heads of a network whose attention is its encoder's self-attention alone (the classifier, the
// ViT): encoder:layer:head, each layer's module net.attention(layer). The caller adds score and
// forEachBatch.
template <class Net>
HeadSubject encoderSubject(Net& net, int heads) {
    HeadSubject s;
    appendHeads(s.heads, MapKind::Encoder, static_cast<int>(net.layerCount()), heads);
    s.headsPerLayer = heads;
    s.module = [&net](MapKind, int layer) -> nn::MultiHeadAttention& {
        return net.attention(static_cast<std::size_t>(layer));
    };
    return s;
}

inline std::size_t batchOf(const HeadStudyOptions& options) { return std::max<std::size_t>(1, options.batchSize); }

// Consecutive batches of `count` items.
template <class Fn>
void forEachRange(std::size_t count, std::size_t batch, Fn&& fn) {
    for (std::size_t first = 0; first < count; first += batch) fn(first, std::min(count, first + batch));
}

// Cross-entropy summed, and the correct predictions, of logits against labels.
inline std::pair<torch::Tensor, std::int64_t> classificationFigures(const torch::Tensor& logits, const torch::Tensor& labels) {
    torch::Tensor loss = torch::nn::functional::cross_entropy(
        logits, labels, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
    return {loss, logits.argmax(1).eq(labels).sum().item<std::int64_t>()};
}

// A classifier's score and batches (the text classifier's and the ViT's studies): logitsOf(first,
// last) runs items [first, last) with the gates as they are set and returns {logits, labels}; the
// score is the summed cross-entropy and the accuracy, each over `count` items.
template <class LogitsOf>
void scoreAsClassifier(HeadSubject& s, std::size_t count, std::size_t batch, LogitsOf logitsOf) {
    s.score = [count, batch, logitsOf] {
        c10::InferenceMode inference;
        double loss = 0;
        std::int64_t correct = 0;
        forEachRange(count, batch, [&](std::size_t first, std::size_t last) {
            const auto [logits, labels] = logitsOf(first, last);
            const auto [l, c] = classificationFigures(logits, labels);
            loss += l.template item<double>();
            correct += c;
        });
        const auto n = static_cast<double>(count);
        return HeadScore{loss / n, static_cast<double>(correct) / n, 0.0};
    };
    s.forEachBatch = [count, batch, logitsOf](const HeadSubject::Visit& visit) {
        forEachRange(count, batch, [&](std::size_t first, std::size_t last) {
            visit(static_cast<std::int64_t>(last - first), [&] {
                const auto [logits, labels] = logitsOf(first, last);
                return classificationFigures(logits, labels).first;
            });
        });
    };
}

// A task's report: runHeadStudy, then the metric's name and direction, the items measured and skipped.
template <class Set>
HeadStudyReport studyReport(const HeadSubject& s, const Set& set, std::size_t items, const char* metric,
                      bool higherIsBetter, const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    HeadStudyReport r = runHeadStudy(s, options, progress);
    r.metric = metric;
    r.higherIsBetter = higherIsBetter;
    r.items = items;
    r.skipped = set.skipped;
    return r;
}

}  // namespace attnlab::detail
