#pragma once
// Small pieces of the commands' JSON output that several commands share: a figure that may be
// undefined (NaN becomes null) and an attention map as a list of rows.
#include <cmath>
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "base/AttentionMap.h"

namespace attnlab::cli {

// v, or null when it is not finite. Json is nlohmann::json or nlohmann::ordered_json.
template <typename Json = nlohmann::json>
Json finiteOrNull(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

template <typename Json = nlohmann::json>
Json finiteOrNullList(const std::vector<double>& values) {
    Json out = Json::array();
    for (double v : values) out.push_back(finiteOrNull<Json>(v));
    return out;
}

// The map's weights, one array per row.
inline nlohmann::json attentionRows(const AttentionMap& map) {
    nlohmann::json out = nlohmann::json::array();
    for (int r = 0; r < map.rows; ++r)
        out.push_back(std::vector<float>(map.weights.begin() + static_cast<std::ptrdiff_t>(r) * map.cols,
                                         map.weights.begin() + static_cast<std::ptrdiff_t>(r + 1) * map.cols));
    return out;
}

}  // namespace attnlab::cli
