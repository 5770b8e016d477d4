#pragma once
// Value types for attention that cross from the engine to the UI and CLI.
#include <map>
#include <optional>
#include <ostream>
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

// Which attention a map shows.
enum class MapKind {
    Cross,    // decoder -> encoder: each output step over the source tokens (every model)
    Encoder,  // encoder self-attention: source over source (Transformer)
    Decoder,  // decoder self-attention, causal: output steps over "<s>" + the outputs before them (Transformer)
};
inline constexpr MapKind kMapKinds[] = {MapKind::Cross, MapKind::Encoder, MapKind::Decoder};

// "cross", "encoder", "decoder": the names the CLI's flags and JSON use.
inline const char* toString(MapKind kind) {
    switch (kind) {
    case MapKind::Cross: return "cross";
    case MapKind::Encoder: return "encoder";
    case MapKind::Decoder: return "decoder";
    }
    return "cross";
}
inline std::ostream& operator<<(std::ostream& out, MapKind kind) { return out << toString(kind); }
inline std::optional<MapKind> parseMapKind(const std::string& name) {
    for (MapKind kind : kMapKinds)
        if (name == toString(kind)) return kind;
    return std::nullopt;
}

// One token of a sampled step's next-token distribution, as the decoding lab shows it.
struct TokenCandidate {
    std::string token;
    float probability = 0.0f;  // after temperature, before the top-k / top-p cut
    bool kept = false;         // survived the cut (may be drawn)
};

// One step of sampling (DecodeOptions::sample): the distribution's most probable tokens with the
// cut-off (the kept ones come first, then the cut ones) and the token drawn. A kept token is drawn
// with probability / keptMass.
struct DecodingStep {
    std::vector<TokenCandidate> candidates;  // the most probable first (DecodeOptions::candidates of them)
    int keptCount = 0;                       // tokens that survived the cut (may be more than candidates)
    float keptMass = 0.0f;                   // their probability after temperature, before renormalising
    std::string chosen;                      // the token drawn ("</s>" at the last step when it ends)
    float chosenProbability = 0.0f;          // its probability after temperature, before the cut
};

// One hypothesis a beam search kept at one step (DecodeOptions::recordBeam): together, the tree the
// decoding lab draws. Every step keeps the `beam` best continuations of the hypotheses still open;
// a continuation by "</s>" finishes its hypothesis (a leaf).
struct BeamNode {
    int parent = -1;               // index into Translation::beamTree of its prefix; -1 at step 0
    int step = 0;                  // its output position (0 = the first token)
    std::string token;             // the token it adds ("</s>" when it finishes here)
    float tokenProbability = 0.0f;  // p(token | its prefix)
    float score = 0.0f;            // log-probability of the whole hypothesis so far
    bool finished = false;         // ended by "</s>"
    bool best = false;             // on the path of the translation returned
    std::vector<float> attention;  // its cross-attention row over the source (the last layer's heads
                                   // averaged); empty when attention is not captured
};

// The decoder's key/value cache after a sampled (or greedy, top-k 1) decoding of a Transformer
// (DecodeOptions::captureCache): the self-attention keys and values of every decoder input, one
// row per step. Step i's query attends rows 0..i; a row, once written, never changes.
struct KeyValueCache {
    int layers = 0;
    int heads = 0;
    int headDim = 0;
    std::vector<std::string> tokens;  // the cached inputs: "<s>", then the outputs, one per step
    std::vector<float> keys, values;  // [layers][heads][tokens][headDim], row-major
    int rows() const { return static_cast<int>(tokens.size()); }
    bool empty() const { return tokens.empty(); }
    float key(int layer, int head, int row, int c) const { return keys[index(layer, head, row, c)]; }
    float value(int layer, int head, int row, int c) const { return values[index(layer, head, row, c)]; }

private:
    std::size_t index(int layer, int head, int row, int c) const {
        return ((static_cast<std::size_t>(layer) * heads + head) * tokens.size() + row) * headDim + c;
    }
};

struct Translation {
    std::vector<std::string> sourceTokens;  // as the model saw them (<unk> visible), plus "</s>"
    std::vector<std::string> outputTokens;  // generated tokens, "</s>" excluded
    std::map<MapKind, LayeredAttention> attention;
    double logProbability = 0.0;
    bool truncated = false;  // the source was longer than the model's maximum
    // Sampled translations only (empty for greedy and beam): one entry per decoding step, the step
    // that drew "</s>" included; step i's attention is row i of `attention`.
    std::vector<DecodingStep> steps;
    // Beam search with DecodeOptions::recordBeam: every hypothesis each step kept (BeamNode).
    std::vector<BeamNode> beamTree;
    // Sampling with DecodeOptions::captureCache, Transformer only: the decoder's key/value cache.
    KeyValueCache cache;
};

}  // namespace attnlab
