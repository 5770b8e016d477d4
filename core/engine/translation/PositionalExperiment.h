#pragma once
// The positional-encoding experiment (`attnlab-cli experiment positional`, the Experiments view):
// the articles claim explicit positional encodings raise long-sequence accuracy by 12-18% over a
// recurrent model's implicit order. On an order-sensitive task (`reverse`: the target is the
// source backwards, so a model must know where each letter stands) at growing lengths, train a
// Transformer with sinusoidal, learned and no positional encoding (ModelConfig::positional) and
// a GRU with additive attention, and report held-out token accuracy and exact match per length.
// Torch-free header.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace attnlab {

struct PositionalOptions {
    std::string dataset = "reverse";
    std::vector<int> lengths{8, 16, 32};
    // "sinusoidal", "learned", "none" (Transformers) and "gru" (a GRU with additive attention).
    std::vector<std::string> models{"sinusoidal", "learned", "none", "gru"};
    int epochs = 8;
    int hidden = 64;              // GRU hidden size and Transformer d_model
    int layers = 2;               // Transformer encoder and decoder layers (the GRU has one)
    int heads = 4;
    int feedForward = 128;
    std::size_t pairs = 1500;     // generated per length (10% held out)
    double learningRate = 2e-3;
    std::uint64_t seed = 1;
    int threads = 1;
};

struct PositionalResult {
    std::vector<int> lengths;
    std::vector<std::string> models;
    std::map<std::string, std::vector<double>> tokenAccuracy;  // model -> per length
    std::map<std::string, std::vector<double>> exactMatch;     // model -> per length
};

// progress(done, total, message) after every epoch of every run. Throws ConfigError for an
// unknown dataset or model, or a length outside 2..100. Returns early (partial result) if *stop.
PositionalResult runPositionalExperiment(const PositionalOptions& options,
                                         const std::function<void(int, int, const std::string&)>& progress = {},
                                         const std::atomic<bool>* stop = nullptr);

}  // namespace attnlab
