#pragma once
// What the explanation lab computes for one prediction: the attention beside the attribution methods
// (one number per input token each) and how well they agree. A text classifier explains its class
// (TextClassifier::explain); a translation model one output token over its source tokens
// (explainOutputToken in engine/translation/TranslationExplanation.h). A plain value type.
#include <map>
#include <string>
#include <vector>

namespace attnlab {

// Integrated gradients' steps when none are asked for (every explanation lab's --steps default).
inline constexpr int kDefaultIgSteps = 64;

struct Explanation {
    std::vector<std::string> tokens;  // the words (no [CLS]); a translation's source tokens
    int classIndex = 0;      // a translation: the output token's index in the target vocabulary
    std::string label;       // the class, or the output token
    double probability = 0;  // of the class, or of the output token given the source and the earlier outputs
    // "attention" (mean over hops, or a Transformer's rollout; absent without attention), "gradient", "grad_x_input",
    // "integrated_gradients", "leave_one_out": one number per token.
    std::map<std::string, std::vector<double>> methods;
    std::map<std::string, double> kendallTau;  // attention against each other method
    std::map<std::string, double> spearman;
    double igAttributionSum = 0;   // sum of integrated_gradients
    double igOutputDifference = 0; // logit_c(text) - logit_c(zero embeddings)
    int igSteps = 0;
};

// Fills kendallTau and spearman: methods["attention"] against each other method present (the
// magnitude of the gradient methods; leave-one-out as it is), over the tokens where both are finite.
// Nothing without "attention".
void rankAgreement(Explanation& ex);

}  // namespace attnlab
