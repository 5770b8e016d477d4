#pragma once
// How one row of attention came about, with the real model's numbers: the scores of every
// key for one query, their scaling, the masks, the softmax and the weighted sum. For the
// step-by-step maths view and for checking the maths by hand. Torch-free.
//
// The trace replays the model's own translation of the sentence (the output tokens
// Seq2SeqModel::translate gives, teacher-forced, in eval mode, so without dropout): its
// weights are the row of the heatmap that translation shows.
#include <limits>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/translation/ModelConfig.h"

namespace attnlab {

class Seq2SeqModel;

struct TraceRequest {
    MapKind kind = MapKind::Cross;  // a GRU has only cross attention
    int layer = 0;               // Transformer layer, 0-based
    int head = 0;                // Transformer head, 0-based
    // The query row of the map, 0-based: the output step (cross, decoder) or the source
    // position (encoder).
    int step = 0;
    int beam = 1;                // the decoding whose output is replayed (1 = greedy)
};

// Why a key position took no part in the softmax.
enum class TraceMask { Kept, Padding, OutsideWindow, Future };

struct AttentionTrace {
    Architecture architecture = Architecture::Gru;
    AttentionKind attention = AttentionKind::None;  // GRU scoring function
    MapKind kind = MapKind::Cross;
    int layer = 0;
    int head = 0;
    int step = 0;
    int layerCount = 1;  // of the model (a GRU has one layer and one head of attention)
    int headCount = 1;

    std::vector<std::string> sourceTokens;  // as the model saw them, plus "</s>"
    std::vector<std::string> outputTokens;  // the translation, "</s>" excluded
    std::vector<std::string> queryTokens;   // rows of this kind's map: output, or source for the encoder's
    std::vector<std::string> keyTokens;     // columns: source, or "<s>" + output but its last for "decoder"

    // The computation in symbols, one line per stage, with this model's constants
    // ("score_j = (s · h_j) / √16\n...\nc = Σ_j a_j h_j").
    std::string formula;

    int dimension = 0;                 // length of the query and key vectors: H (GRU) or d_k (head)
    // GRU: which decoder state is the query: s_{t-1}, before reading the previous output token
    // (Bahdanau), or s_t, after reading it (Luong). The Transformer's queries are Before's kind.
    QueryOrder queryOrder = QueryOrder::Before;
    std::vector<float> query;          // [d] decoder state (GRU, see queryOrder), or this head's q_i
    std::vector<float> keys;           // [K * d] row-major: encoder states h_j (GRU), or this head's k_j
    std::vector<float> values;         // [K * d] what the weights average: h_j again (GRU), or v_j
    std::vector<float> projectedKeys;  // GRU general/local: W h_j; additive: U h_j + b; else empty
    std::vector<float> projectedQuery; // GRU additive: W s; else empty
    std::vector<float> scoreVector;    // GRU additive: v; else empty

    std::vector<float> rawScores;     // [K] score before scaling and masks
    double scale = 1.0;               // 1/√H (GRU scaled-dot), 1/√d_k (Transformer), else 1
    std::vector<float> scaledScores;  // [K] rawScores · scale
    std::vector<float> gaussian;      // [K] local-p: -(j - p_t)² / (2 (D/2)²) added to the score; else empty
    std::vector<TraceMask> mask;      // [K]
    std::vector<float> scores;        // [K] what the softmax sees: -inf where masked
    std::vector<float> weights;       // [K] softmax(scores), sums to 1
    std::vector<float> context;       // [d] Σ_j weights_j · values_j: the context vector, or the head output

    double center = std::numeric_limits<double>::quiet_NaN();  // p_t of local attention
    int window = 0;                                            // D of local attention

    int keyCount() const { return static_cast<int>(rawScores.size()); }
    int queryCount() const { return static_cast<int>(queryTokens.size()); }
};

// Translates `sentence` and traces the requested row. Throws ConfigError with a one-line
// reason for an empty sentence or translation, a GRU without attention, or a kind, layer,
// head or step the model and translation do not have.
AttentionTrace traceAttention(const Seq2SeqModel& model, const std::string& sentence, const TraceRequest& request);

}  // namespace attnlab
