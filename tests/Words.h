#pragma once
// Test-only: a text split on single spaces, empty pieces kept (the built-in datasets write one space
// between words, so piece i is word i): what the dataset tests index rationales and alignments by.
#include <string>
#include <vector>

namespace attnlab::test {

inline std::vector<std::string> splitSpaces(const std::string& text) {
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        std::size_t end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace attnlab::test
