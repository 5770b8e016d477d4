#pragma once
// How explain prints an explanation of a text decision (base/analysis/Explanation.h), the classifier's label
// or a translation's output token: as JSON, or a table of the tokens against the methods.
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>

#include "support/JsonOut.h"
#include "base/analysis/Explanation.h"

namespace attnlab::cli {

// The explanation as JSON (one object) or as a table; `extra` adds members (a translation's output tokens).
inline void printExplanation(const Explanation& ex, bool json, const nlohmann::json& extra, const char* what) {
    static const char* kMethods[] = {"attention", "gradient", "grad_x_input", "integrated_gradients", "leave_one_out"};
    if (json) {
        nlohmann::json j{{"tokens", ex.tokens}, {"label", ex.label}, {"probability", ex.probability}};
        for (const auto& [key, value] : extra.items()) j[key] = value;
        for (const char* method : kMethods) {
            auto it = ex.methods.find(method);
            j[method] = it == ex.methods.end() ? nlohmann::json(nullptr) : finiteOrNullList(it->second);
        }
        nlohmann::json tau = nlohmann::json::object(), rho = nlohmann::json::object();
        for (const auto& [method, value] : ex.kendallTau) tau[method] = finiteOrNull(value);
        for (const auto& [method, value] : ex.spearman) rho[method] = finiteOrNull(value);
        j["kendall_tau"] = tau;
        j["spearman"] = rho;
        j["ig_completeness"] = {{"attribution_sum", ex.igAttributionSum},
                                {"output_difference", ex.igOutputDifference},
                                {"steps", ex.igSteps}};
        std::cout << j.dump() << "\n";
        return;
    }
    static const char* kShortNames[] = {"attention", "gradient", "grad*input", "int.grads", "leave-1-out"};
    std::printf("%s %s (p = %.3f)\n\n%-16s", what, ex.label.c_str(), ex.probability, "token");
    for (std::size_t m = 0; m < std::size(kMethods); ++m)
        if (ex.methods.count(kMethods[m])) std::printf(" %12s", kShortNames[m]);
    std::printf("\n");
    for (std::size_t i = 0; i < ex.tokens.size(); ++i) {
        std::printf("%-16s", ex.tokens[i].c_str());
        for (const char* method : kMethods)
            if (auto it = ex.methods.find(method); it != ex.methods.end()) std::printf(" %12.4f", it->second[i]);
        std::printf("\n");
    }
    if (!ex.kendallTau.empty()) {
        std::printf("\nattention against      Kendall tau   Spearman rho\n");
        for (const auto& [method, tau] : ex.kendallTau)
            std::printf("%-22s %11.3f %14.3f\n", method.c_str(), tau, ex.spearman.at(method));
    }
    std::printf("\nintegrated gradients (%d steps): attributions sum to %.4f, logit difference %.4f\n", ex.igSteps,
                ex.igAttributionSum, ex.igOutputDifference);
}

}  // namespace attnlab::cli
