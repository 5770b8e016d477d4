#pragma once
// The encoder's contextual state of each source token, and exBERT's search (Hoover et al. 2020):
// the tokens of a corpus whose states lie nearest, by cosine similarity, to one token's state.
// Torch-free: safe for the CLI and the UI.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "engine/translation/Seq2SeqModel.h"

namespace attnlab {

// One vector per token of model.sourceTokens(sentence) (</s> included; a sentence longer than the
// model's maximum is truncated as translate() truncates it), each of the model's hidden size.
// A Transformer: the output of encoder layer `layer`, counted from 1 (0 = the last). A GRU: its
// encoder states, what attention reads (bridged to `hidden` when bidirectional); layer 0 or 1.
// Throws ConfigError for a layer out of range.
std::vector<std::vector<float>> encoderStates(const Seq2SeqModel& model, const std::string& sentence, int layer = 0);

// a·b / (|a| |b|) in double, clamped to [-1, 1]; exactly 1 for two equal non-zero vectors, 0 when
// either is zero. Throws std::invalid_argument for vectors of different sizes.
double cosineSimilarity(const std::vector<float>& a, const std::vector<float>& b);

struct TokenNeighbour {
    std::size_t sentence = 0;  // index into the sentences searched
    int position = 0;          // 0-based, in that sentence's sourceTokens
    std::string token;         // the token as the model sees it (<unk>, </s>)
    double similarity = 0.0;   // cosine, in [-1, 1]
};

// The k tokens of `sentences` (every position of each, </s> included) whose encoderStates(layer)
// are nearest to that of token `token` (0-based) of `query`: highest similarity first; ties go
// to the query's own occurrence (a sentence with the query's tokens, at the same position), then
// by sentence and position. Fewer than k when the sentences hold fewer tokens. Throws ConfigError
// for a token or layer out of range or k < 1.
std::vector<TokenNeighbour> nearestTokens(const Seq2SeqModel& model, const std::string& query, int token,
                                          const std::vector<std::string>& sentences, int layer, int k);

// The embedding projector: the encoder states of every word (</s> left out) of `sentences` at
// `layer` (as encoderStates), at most maxTokens of them in corpus order, projected to two
// dimensions by PCA (base/analysis/Pca.h).
struct StateProjection {
    struct Point {
        double x = 0.0;
        double y = 0.0;
        std::size_t sentence = 0;  // index into the sentences
        int position = 0;          // 0-based in its sentence's sourceTokens
        std::string token;
    };
    std::vector<Point> points;
    std::vector<std::vector<float>> states;  // each point's state, for its neighbours
    std::vector<std::string> sentences;      // the sentences projected
    std::array<double, 2> explained{};       // the two components' shares of the variance
    int layer = 0;                           // the layer, counted from 1
};
StateProjection projectEncoderStates(const Seq2SeqModel& model, const std::vector<std::string>& sentences, int layer = 0,
                                     std::size_t maxTokens = 20000);

// The k points whose states are nearest by cosine to point `index`'s (itself left out), nearest
// first: (point index, similarity).
std::vector<std::pair<std::size_t, double>> nearestPoints(const StateProjection& projection, std::size_t index, int k);

}  // namespace attnlab
