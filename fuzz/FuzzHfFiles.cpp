// fuzz_hf_files: the text files of a Hugging Face model folder that AttnLab reads before any weight
// (base/lm/LmHuggingFace.h, base/lm/LmHubCache.h, base/lm/LmWordPiece.h). The input's parts, split at
// its first two NUL bytes, are config.json, tokenizer.json and vocab.txt (a missing part is empty).
// Checked beyond "no crash":
//   - only the documented errors escape (ModelFileError, InputError, ConfigError), each one line
//     naming its file;
//   - a config.json that reads is a valid LmConfig of GPT-2's form (validate() empty, pre-LayerNorm,
//     causal, a vocabulary of at least one token);
//   - a tokenizer.json that reads has as many tokens as its vocabulary says and merges of two
//     non-empty tokens; a tokenizer made of it encodes the input's text to ids of its vocabulary
//     that decode to the same bytes;
//   - a vocab.txt that reads gives ids of its vocabulary for any text, [CLS] first and [SEP] last.
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "base/InputError.h"
#include "base/lm/LmHubCache.h"
#include "base/lm/LmHuggingFace.h"
#include "base/lm/LmWordPiece.h"

namespace {

std::string hfPart(const std::string& input, int index) {
    std::size_t start = 0;
    for (int i = 0; i < index; ++i) {
        const std::size_t nul = input.find('\0', start);
        if (nul == std::string::npos) return {};
        start = nul + 1;
    }
    const std::size_t end = input.find('\0', start);
    return input.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

void hfCheckMessage(const std::string& message, const std::string& file) {
    FUZZ_CHECK(message.find('\n') == std::string::npos);
    FUZZ_CHECK(message.find(file) != std::string::npos);
}

template <typename F>
void hfExpectDocumented(const std::string& file, F f) {
    try {
        f();
    } catch (const attnlab::ModelFileError& e) {
        hfCheckMessage(e.what(), file);
    } catch (const attnlab::InputError& e) {
        hfCheckMessage(e.what(), file);
    } catch (const attnlab::ConfigError& e) {
        FUZZ_CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace attnlab;
    const std::string input = fuzz::bytesOf(data, size);
    const std::string config = hfPart(input, 0), tokenizer = hfPart(input, 1), vocab = hfPart(input, 2);

    hfExpectDocumented("config.json", [&] {
        const LmConfig c = lmHfGpt2Config(config, "config.json");
        FUZZ_CHECK(validate(c).empty());
        FUZZ_CHECK(c.norm == LmNorm::Pre);
        FUZZ_CHECK(c.objective == LmObjective::Causal);
        FUZZ_CHECK(c.vocabulary >= 1);
    });
    hfExpectDocumented("tokenizer.json", [&] {
        const LmGpt2Vocabulary v = lmHubParseTokenizerJson(tokenizer, "tokenizer.json");
        for (const auto& m : v.merges) FUZZ_CHECK(!m.first.empty() && !m.second.empty());
        const LmTokenizer t = lmHubGpt2Tokenizer(v, "tokenizer.json");
        FUZZ_CHECK(t.size() == v.tokens.size());
        const std::vector<int> ids = t.encode(vocab);
        for (const int id : ids) FUZZ_CHECK(id >= 0 && static_cast<std::size_t>(id) < t.size());
        FUZZ_CHECK(t.decode(ids) == vocab);
    });
    hfExpectDocumented("vocab.txt", [&] {
        const LmWordPiece w = LmWordPiece::parseVocabTxt(vocab, "vocab.txt");
        const std::vector<int> ids = w.encode(config);
        FUZZ_CHECK(ids.size() >= 2 && ids.front() == w.cls() && ids.back() == w.sep());
        for (const int id : ids) FUZZ_CHECK(id >= 0 && id < w.size());
    });
    return 0;
}
