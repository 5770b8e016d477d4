#pragma once
// The explanation lab for a translation model: for one output token of the greedy translation, the
// attention over the source tokens beside the same attribution methods a text classifier gets
// (TextClassifier.h), computed on the teacher-forced model (the source, and the earlier output
// tokens as the decoder saw them):
//   attention            the cross-attention row of that output token (a Transformer: its last
//                        layer, heads averaged)
//   gradient             ||d z / d e_i||_2, z the output token's logit, e_i source token i's embedding
//   grad_x_input         (d z / d e_i) . e_i
//   integrated_gradients e_i . mean over the path of d z / d e_i from the zero source embeddings
//                        (trapezoid rule, igSteps intervals); completeness: its sum vs z(e) - z(0)
//   leave_one_out        p(token) - p(token | source without token i); "</s>" is never removed
// Torch-free header.
#include "base/analysis/Explanation.h"
#include "engine/translation/Seq2SeqModel.h"
#include <string>

namespace attnlab {

struct OutputTokenExplanation {
    std::vector<std::string> outputTokens;  // the greedy translation ("</s>" excluded)
    int outputIndex = 0;
    Explanation explanation;  // tokens = the source tokens (with "</s>"); label = the output token
};

// Throws ConfigError for an empty sentence, an outputIndex outside the translation (naming its
// length) or igSteps outside 1..10000.
OutputTokenExplanation explainOutputToken(const Seq2SeqModel& model, const std::string& sentence, int outputIndex,
                                          int igSteps = 64);

}  // namespace attnlab
