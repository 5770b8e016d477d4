// Writes the fuzz_checkpoint seeds into the directory given: a small checkpoint laid
// out as Seq2SeqModel::save writes one (GRU, dot attention, hidden 2, five-word
// vocabularies) and damaged copies of it, one fault each. Run it again after a change
// to the checkpoint format. The files have no .safetensors suffix (.gitignore).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/translation/ModelConfig.h"
#include "base/translation/ModelSize.h"
#include "base/io/Safetensors.h"
#include "engine/translation/Seq2SeqModel.h"

namespace {

using namespace attnlab;

std::string dir;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void writeRaw(const std::string& name, const std::string& bytes) {
    std::ofstream(dir + "/" + name, std::ios::binary | std::ios::trunc) << bytes;
}

ModelConfig tinyConfig() {
    ModelConfig c;
    c.architecture = Architecture::Gru;
    c.attention = AttentionKind::Dot;
    c.hidden = 2;
    c.layers = 1;
    c.maxLength = 16;
    c.sourceVocab = 5;
    c.targetVocab = 5;
    return c;
}

TensorRecord tensor(const std::string& name, std::vector<std::int64_t> shape) {
    TensorRecord t;
    t.name = name;
    t.shape = std::move(shape);
    std::int64_t n = 1;
    for (auto d : t.shape) n *= d;
    for (std::int64_t i = 0; i < n; ++i) t.data.push_back(0.125f * static_cast<float>(i % 7) - 0.25f);
    return t;
}

// The parameters GruSeq2Seq registers for tinyConfig(), in named_parameters() order.
SafetensorsContent checkpoint(const ModelConfig& c) {
    SafetensorsContent content;
    content.tensors = {
        tensor("src_embedding.weight", {5, 2}), tensor("tgt_embedding.weight", {5, 2}),
        tensor("encoder.weight_ih_l0", {6, 2}), tensor("encoder.weight_hh_l0", {6, 2}),
        tensor("encoder.bias_ih_l0", {6}),      tensor("encoder.bias_hh_l0", {6}),
        tensor("dec_emb_input.weight", {6, 2}), tensor("dec_emb_input.bias", {6}),
        tensor("dec_ctx_input.weight", {6, 2}), tensor("dec_hidden_0.weight", {6, 2}),
        tensor("dec_hidden_0.bias", {6}),       tensor("output.weight", {5, 2}),
        tensor("output.bias", {5}),
    };
    content.metadata["epochs_trained"] = "3";
    content.metadata["format"] = "attnlab";
    content.metadata["format_version"] = std::to_string(kCheckpointFormatVersion);
    content.metadata["config"] = toJson(c);
    content.metadata["source_vocab"] = nlohmann::json({"<pad>", "<s>", "</s>", "<unk>", "chat"}).dump();
    content.metadata["target_vocab"] = nlohmann::json({"<pad>", "<s>", "</s>", "<unk>", "猫"}).dump();
    content.metadata["tokenizer"] = R"({"lowercase":true,"split_cjk_characters":false,"split_punctuation":true})";
    return content;
}

void write(const std::string& name, const SafetensorsContent& content) { writeSafetensors(dir + "/" + name, content); }

// The 8-byte little-endian header length at the start of `bytes`, replaced.
std::string withHeaderLength(std::string bytes, std::uint64_t length) {
    for (int i = 0; i < 8; ++i) bytes[static_cast<std::size_t>(i)] = static_cast<char>((length >> (8 * i)) & 0xff);
    return bytes;
}

// Replaces the first occurrence of `from` (same length) inside the header.
std::string patched(std::string bytes, const std::string& from, const std::string& to) {
    const std::size_t at = bytes.find(from);
    if (at == std::string::npos || from.size() != to.size()) {
        std::fprintf(stderr, "cannot patch '%s'\n", from.c_str());
        std::exit(1);
    }
    return bytes.replace(at, from.size(), to);
}

// A container from header text and a data buffer, for faults writeSafetensors refuses to write.
std::string container(const std::string& header, const std::string& data = {}) {
    return withHeaderLength(std::string(8, '\0') + header + data, header.size());
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    if (at == std::string::npos) {
        std::fprintf(stderr, "cannot find '%s'\n", from.c_str());
        std::exit(1);
    }
    return text.replace(at, from.size(), to);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s OUTPUT_DIR\n", argv[0]);
        return 2;
    }
    dir = argv[1];
    const ModelConfig config = tinyConfig();
    SafetensorsContent good = checkpoint(config);
    std::int64_t stored = 0;
    for (const auto& t : good.tensors) stored += static_cast<std::int64_t>(t.data.size());
    if (parameterCount(config) != stored) {
        std::fprintf(stderr, "the tensors (%lld values) do not match the config (%lld)\n",
                     static_cast<long long>(stored), static_cast<long long>(parameterCount(config)));
        return 1;
    }
    write("valid_gru", good);
    const std::string bytes = readAll(dir + "/valid_gru");
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i) headerLength = (headerLength << 8) | static_cast<unsigned char>(bytes[i]);

    // The container.
    writeRaw("empty", "");
    writeRaw("short_file", bytes.substr(0, 5));
    writeRaw("truncated_in_header", bytes.substr(0, 8 + headerLength / 2));
    writeRaw("truncated_in_data", bytes.substr(0, bytes.size() - 10));
    writeRaw("header_length_beyond_file", withHeaderLength(bytes, bytes.size()));
    writeRaw("header_length_huge", withHeaderLength(bytes, ~0ull));
    writeRaw("header_json_corrupt", patched(bytes, "\"dtype\":\"F32\"", "\"dtype\":\"F32'"));
    writeRaw("header_not_object", container("[1,2,3]"));
    writeRaw("dtype_f16", patched(bytes, "\"dtype\":\"F32\"", "\"dtype\":\"F16\""));
    const std::string eightBytes(8, '\x3f');
    writeRaw("shape_negative", container(R"({"w":{"dtype":"F32","shape":[-1,-2],"data_offsets":[0,8]}})", eightBytes));
    writeRaw("shape_overflow",
             container(R"({"w":{"dtype":"F32","shape":[4294967296,4294967296],"data_offsets":[0,8]}})", eightBytes));
    writeRaw("offsets_beyond_data",
             container(R"({"w":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})", eightBytes));
    writeRaw("offsets_overlap", patched(bytes, "\"data_offsets\":[40,80]", "\"data_offsets\":[30,70]"));
    writeRaw("deep_json", container(std::string(40, '[') + std::string(40, ']')));
    writeRaw("metadata_not_string", patched(bytes, "\"epochs_trained\":\"3\"", "\"epochs_trained\":333"));

    // The metadata load() reads after the container.
    auto variant = [&](const std::string& name, const std::string& key, const std::string& value) {
        SafetensorsContent c = good;
        if (value.empty())
            c.metadata.erase(key);
        else
            c.metadata[key] = value;
        write(name, c);
    };
    variant("missing_config", "config", "");
    variant("format_version_2", "format_version", "2");
    variant("config_not_json", "config", "{\"architecture\": \"gru\",");
    ModelConfig bad = config;
    bad.architecture = Architecture::Transformer;
    bad.heads = 4;  // does not divide hidden 2
    std::string badJson = toJson(bad);
    variant("config_heads_do_not_divide", "config", badJson);
    variant("config_huge_integer", "config",
            replaced(toJson(config), "\"hidden\":2", "\"hidden\":99999999999999999999"));
    variant("config_deep", "config", std::string(5000, '[') + std::string(5000, ']'));
    variant("vocab_duplicate", "source_vocab", R"(["<pad>","<s>","</s>","<unk>","chat","chat"])");
    variant("vocab_missing_specials", "target_vocab", R"(["chat","<s>","</s>","<unk>","猫"])");
    variant("vocab_not_strings", "source_vocab", R"(["<pad>","<s>","</s>","<unk>",5])");
    variant("tokenizer_malformed", "tokenizer", R"({"lowercase":"yes"})");
    variant("tokenizer_before_cjk_option", "tokenizer", R"({"lowercase":true,"split_punctuation":true})");
    variant("tokenizer_cjk_not_bool", "tokenizer",
            R"({"lowercase":true,"split_cjk_characters":"no","split_punctuation":true})");
    variant("size_mismatch", "config", replaced(toJson(config), "\"hidden\":2", "\"hidden\":3"));
    std::printf("seeds written to %s\n", dir.c_str());
    return 0;
}
