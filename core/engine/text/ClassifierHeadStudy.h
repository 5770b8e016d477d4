#pragma once
// The head study of engine/HeadStudy.h for the text classifier: its heads (the encoder's
// self-attention, kind encoder) over a corpus's examples, metric accuracy; and classification with
// heads switched off (the Classify view's live ablation). Torch-free.
#include <cstddef>
#include <string>
#include <vector>

#include "engine/HeadStudy.h"
#include "engine/text/TextClassifier.h"  // Classification

namespace attnlab {

struct ClassificationCorpus;

// Every head over the corpus's examples, metric accuracy. ConfigError("... needs a Transformer ...")
// for a GRU classifier; InputError(corpus.name) when no example has a label the model knows.
HeadStudyReport measureClassifierHeads(const TextClassifier& model, const ClassificationCorpus& corpus,
                                       const HeadStudyOptions& options = {}, const HeadStudyProgress& progress = {});

// The figures with `off` switched off (empty `off` = the plain model).
HeadScore scoreClassifierWithAblation(const TextClassifier& model, const ClassificationCorpus& corpus,
                                      const std::vector<HeadId>& off, std::size_t limit = 0);

// I_h before normalisation, in head order.
std::vector<double> classifierHeadGradients(const TextClassifier& model, const ClassificationCorpus& corpus,
                                            std::size_t limit = 0);

// TextClassifier::classify with the heads in `off` switched off (live ablation): the label, the
// probabilities and every layer's maps are the ablated model's (an ablated head's own map is still
// its softmax, which no longer reaches [CLS]); the rollout leaves the heads that are off out of
// their layer's mean (a layer with every head off mixes nothing: the identity). Empty `off` is
// classify. ConfigError for a GRU classifier (when `off` is not empty) or a head beyond the model.
Classification classifyAblated(const TextClassifier& model, const std::string& text, const std::vector<HeadId>& off);

}  // namespace attnlab
