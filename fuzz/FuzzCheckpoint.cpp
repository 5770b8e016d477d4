// fuzz_checkpoint: everything Seq2SeqModel::load (core/engine/Checkpoint.cpp) does
// with a file before LibTorch sees it: the safetensors container, the metadata, the
// model config, both vocabularies, the tokenizer options and the size check.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "FuzzCheck.h"
#include "base/InputError.h"
#include "base/translation/ModelConfig.h"
#include "base/translation/ModelSize.h"
#include "base/io/Safetensors.h"
#include "base/Vocabulary.h"
#include "engine/translation/Seq2SeqModel.h"  // kCheckpointFormatVersion only; the header is torch-free

namespace {

using namespace attnlab;

const char* const kName = "fuzz.safetensors";

void checkContainer(const SafetensorsContent& content, std::size_t fileSize) {
    std::uint64_t bytes = 0;
    for (const auto& t : content.tensors) {
        std::uint64_t count = 1;
        for (std::int64_t d : t.shape) {
            FUZZ_CHECK(d >= 0);
            count *= static_cast<std::uint64_t>(d);  // no overflow: the reader refused that
        }
        FUZZ_CHECK(count == t.data.size());
        FUZZ_CHECK(content.find(t.name) == &t);  // names are unique: load() looks tensors up by name
        bytes += t.data.size() * 4;
    }
    FUZZ_CHECK(bytes <= fileSize);  // "never allocates more than the file's size"
}

// What load() does with a vocabulary string, with the errors it turns into ModelFileError.
bool loadVocabulary(const std::string& text, Vocabulary& vocab) {
    try {
        vocab = Vocabulary::fromTokens(nlohmann::json::parse(text).get<std::vector<std::string>>());
    } catch (const nlohmann::json::exception&) {
        return false;
    } catch (const std::invalid_argument&) {
        return false;
    }
    FUZZ_CHECK(vocab.size() >= 4);
    for (std::size_t i = 0; i < vocab.size(); ++i)
        FUZZ_CHECK(vocab.id(vocab.token(static_cast<std::int64_t>(i))) == static_cast<std::int64_t>(i));
    FUZZ_CHECK(Vocabulary::fromTokens(vocab.tokens()).tokens() == vocab.tokens());
    return true;
}

void checkFuzzedConfig(const ModelConfig& c) {
    FUZZ_CHECK(validate(c).empty());
    FUZZ_CHECK(parameterCount(c) > 0);
    const ModelConfig again = modelConfigFromJson(toJson(c));  // what save() writes, load() reads
    FUZZ_CHECK(toJson(again) == toJson(c));
    FUZZ_CHECK(again.dropout == c.dropout);
}

void load(const SafetensorsContent& content) {
    auto meta = [&](const char* key) -> const std::string* {
        auto it = content.metadata.find(key);
        return it == content.metadata.end() ? nullptr : &it->second;
    };
    const std::string* version = meta("format_version");
    const std::string* configText = meta("config");
    if (!version || *version != std::to_string(kCheckpointFormatVersion) || !configText) return;

    ModelConfig config;
    try {
        config = modelConfigFromJson(*configText);
    } catch (const ConfigError& e) {
        FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);
        return;
    }
    checkFuzzedConfig(config);

    Vocabulary source, target;
    const std::string* sourceText = meta("source_vocab");
    const std::string* targetText = meta("target_vocab");
    if (!sourceText || !targetText || !loadVocabulary(*sourceText, source) || !loadVocabulary(*targetText, target))
        return;
    if (static_cast<std::int64_t>(source.size()) != config.sourceVocab ||
        static_cast<std::int64_t>(target.size()) != config.targetVocab)
        return;

    if (const std::string* tokenizer = meta("tokenizer")) {
        try {
            auto tok = nlohmann::json::parse(*tokenizer);
            (void)tok.at("lowercase").get<bool>();
            (void)tok.at("split_punctuation").get<bool>();
            (void)tok.value("split_cjk_characters", true);
        } catch (const nlohmann::json::exception&) {
            return;
        }
    }
    std::int64_t stored = 0;
    for (const auto& t : content.tensors) stored += static_cast<std::int64_t>(t.data.size());
    (void)(parameterCount(config) == stored);  // beyond this point load() builds the network
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    SafetensorsContent content;
    try {
        content = parseSafetensors(fuzz::bytesOf(data, size), kName);
    } catch (const ModelFileError& e) {
        const std::string message = e.what();
        FUZZ_CHECK(message.compare(0, std::string(kName).size() + 2, std::string(kName) + ": ") == 0);
        FUZZ_CHECK(message.find('\n') == std::string::npos);
        return 0;
    }
    checkContainer(content, size);
    load(content);
    return 0;
}

#ifdef ATTNLAB_LIBFUZZER
extern "C" std::size_t LLVMFuzzerMutate(std::uint8_t* data, std::size_t size, std::size_t maxSize);

// Most random edits break the 8-byte header length, and the file never gets past the
// container. So every other mutation edits only the JSON header of an input that has
// a plausible one and then rewrites the length: the metadata (config, vocabularies)
// gets fuzzed too. The other half mutates the whole file, length field included.
extern "C" std::size_t LLVMFuzzerCustomMutator(std::uint8_t* data, std::size_t size, std::size_t maxSize,
                                               unsigned int seed) {
    if (seed % 2 == 0 || size < 8 || size > maxSize) return LLVMFuzzerMutate(data, size, maxSize);
    std::uint64_t headerLength = 0;
    for (int i = 7; i >= 0; --i) headerLength = (headerLength << 8) | data[i];
    if (headerLength > size - 8) return LLVMFuzzerMutate(data, size, maxSize);
    const std::size_t tailSize = size - 8 - static_cast<std::size_t>(headerLength);
    if (maxSize <= 8 + tailSize) return LLVMFuzzerMutate(data, size, maxSize);

    std::vector<std::uint8_t> header(maxSize - 8 - tailSize);
    std::memcpy(header.data(), data + 8, static_cast<std::size_t>(headerLength));
    const std::vector<std::uint8_t> tail(data + 8 + headerLength, data + size);
    const std::size_t newLength =
        LLVMFuzzerMutate(header.data(), static_cast<std::size_t>(headerLength), header.size());
    for (int i = 0; i < 8; ++i) data[i] = static_cast<std::uint8_t>((std::uint64_t{newLength} >> (8 * i)) & 0xff);
    std::memcpy(data + 8, header.data(), newLength);
    if (!tail.empty()) std::memcpy(data + 8 + newLength, tail.data(), tail.size());
    return 8 + newLength + tail.size();
}
#endif
