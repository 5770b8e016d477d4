#pragma once
// Value types for attention that cross from the engine to the UI and CLI.
#include <map>
#include <string>
#include <vector>

namespace attnlab {

// One attention matrix: rows = queries (target steps), cols = keys (source tokens).
struct AttentionMap {
    int rows = 0;
    int cols = 0;
    std::vector<float> weights;  // rows * cols, row-major
    float at(int r, int c) const { return weights[static_cast<std::size_t>(r) * cols + c]; }
};

// Maps of one kind for a whole model: [layer][head].
using LayeredAttention = std::vector<std::vector<AttentionMap>>;

// Kinds: "cross" (decoder->encoder), "encoder" (encoder self), "decoder" (decoder self).
struct Translation {
    std::vector<std::string> sourceTokens;  // as the model saw them (<unk> visible), plus "</s>"
    std::vector<std::string> outputTokens;  // generated tokens, "</s>" excluded
    std::map<std::string, LayeredAttention> attention;
    double logProbability = 0.0;
    bool truncated = false;  // the source was longer than the model's maximum
};

}  // namespace attnlab
