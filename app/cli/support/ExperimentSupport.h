#pragma once
// What the experiments of several tasks share: --lengths parsed, figures rounded, the progress line.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "ArgParser.h"
#include "base/InputError.h"

namespace attnlab::cli {

inline std::vector<int> parseLengths(const std::string& text, int low = 1, int high = 200) {
    std::vector<int> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || v < low || v > high)
            throw UsageError("--lengths expects comma-separated lengths between " + std::to_string(low) + " and " +
                             std::to_string(high) + ", got '" + text + "'");
        out.push_back(static_cast<int>(v));
    }
    if (out.empty()) throw UsageError("--lengths expects at least one length");
    return out;
}

inline double round4(double v) { return std::round(v * 10000.0) / 10000.0; }

inline void progressLine(bool tty, int done, int total, const std::string& message) {
    std::cerr << (tty ? "\r\033[K" : "") << "[" << done << "/" << total << "] " << message << (tty ? "" : "\n")
              << std::flush;
}

inline std::vector<std::string> parseNames(const std::string& flag, const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    for (std::string item; std::getline(in, item, ',');) {
        if (item.empty()) throw UsageError(flag + " expects comma-separated names, got '" + text + "'");
        out.push_back(item);
    }
    if (out.empty()) throw UsageError(flag + " expects at least one name");
    return out;
}

}  // namespace attnlab::cli
