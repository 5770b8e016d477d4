#pragma once
// The Transformer's sinusoidal positional encoding as plain numbers, for the Positions view:
//   PE[pos, 2i]   = sin(pos · ω_i)
//   PE[pos, 2i+1] = cos(pos · ω_i),   ω_i = 1 / 10000^(2i / d)
// computed the way nn::sinusoidalPositions computes the table the model adds to its embeddings: in
// single precision, ω_i = exp(2i · (−ln 10000 / d)), then pos · ω_i. An odd d ends with a sine.
// The tables are AttentionMap values used as plain matrices (rows x cols, row-major), so the
// heatmap renderer draws them as they are.
#include "AttentionMap.h"

namespace attnlab {

// ω_i of dimension pair i (dimensions 2i and 2i + 1) for model width d, in single precision.
float sinusoidalFrequency(int i, int d);

// [positions x d]. Throws std::invalid_argument if positions < 0 or d < 1.
AttentionMap sinusoidalEncoding(int positions, int d);

// Cosine similarity between the rows of a matrix: [rows x rows], entry (p, q) = <x_p, x_q> /
// (|x_p| |x_q|), in [-1, 1]; 0 where a row is all zeros. Throws std::invalid_argument if weights
// do not match rows * cols. For the sinusoidal table <PE_p, PE_q> = Σ_i cos((p − q) ω_i) depends only
// on p − q: every diagonal of the result is constant, which is what lets attention read relative
// positions.
AttentionMap cosineSimilarity(const AttentionMap& rows);

}  // namespace attnlab
