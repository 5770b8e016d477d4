#include "Explanation.h"
#include "RankCorrelation.h"
#include <cmath>

namespace attnlab {

void rankAgreement(Explanation& ex) {
    const auto attention = ex.methods.find("attention");
    if (attention == ex.methods.end()) return;
    for (const char* method : {"gradient", "grad_x_input", "integrated_gradients", "leave_one_out"}) {
        const auto found = ex.methods.find(method);
        if (found == ex.methods.end()) continue;
        // Over the tokens both define (leave-one-out never removes a translation's "</s>").
        std::vector<double> a, importance;
        const bool signedValues = std::string(method) == "leave_one_out";
        for (std::size_t i = 0; i < found->second.size() && i < attention->second.size(); ++i) {
            const double v = found->second[i];
            if (!std::isfinite(v) || !std::isfinite(attention->second[i])) continue;
            a.push_back(attention->second[i]);
            importance.push_back(signedValues ? v : std::abs(v));
        }
        ex.kendallTau[method] = kendallTau(a, importance);
        ex.spearman[method] = spearmanRho(a, importance);
    }
}

}  // namespace attnlab
