#pragma once
// Engine-internal: the head study of engine/HeadStudy.h for any network whose heads sit in
// nn::MultiHeadAttention modules. A task describes its network as a HeadSubject (its heads, where
// each attention module is, how to score the set, how to run it batch by batch for the gradients)
// and runHeadStudy does the rest: the baseline, one ablation per head, the gate gradients, the
// pruning curve by importance and the random orders.
#include <torch/torch.h>

#include <functional>
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

}  // namespace attnlab::detail
