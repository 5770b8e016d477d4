// fuzz_gpt2_files: GPT-2's tokenizer files (base/lm/LmTokens.h, "Gpt2") and its pre-tokenization
// (base/lm/LmGpt2Split.h). The bytes before the first NUL are vocab.json, the bytes after it
// merges.txt (no NUL: the whole input is vocab.json, merges.txt empty), read by
// LmTokenizer::parseGpt2. Checked beyond "no crash":
//   - GPT-2's split of the whole input (any bytes, valid UTF-8 or not): pieces of 1 byte or more
//     that put together give the input back;
//   - only InputError escapes the reader, naming vocab.json or merges.txt, on one line, at line 0 for
//     vocab.json's faults but a line not past the text's for its JSON, at a line of merges.txt;
//   - a tokenizer that reads is of kind gpt2, <|endoftext|> its <bos> and <pad>, no <unk> and no
//     <mask>, every token's id its index; it encodes the input, merges.txt and a fixed text to ids
//     of its vocabulary, never <|endoftext|>, that decode to the same bytes; its JSON (what a
//     checkpoint keeps) reads back to the same JSON and the same ids.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "FuzzCheck.h"
#include "base/InputError.h"
#include "base/lm/LmGpt2Split.h"
#include "base/lm/LmTokens.h"

namespace {

using attnlab::LmTokenizer;

long lineCount(const std::string& text) {
    return static_cast<long>(std::count(text.begin(), text.end(), '\n')) + 1;
}

void checkSplit(const std::string& text) {
    std::string joined;
    for (std::size_t pos = 0; pos < text.size();) {
        const std::size_t length = attnlab::lmGpt2PieceLength(text, pos);
        FUZZ_CHECK(length >= 1 && length <= text.size() - pos);
        joined.append(text, pos, length);
        pos += length;
    }
    FUZZ_CHECK(joined == text);
}

void checkEncoding(const LmTokenizer& t, const std::string& text) {
    const std::vector<int> ids = t.encode(text);
    for (const int id : ids) {
        FUZZ_CHECK(id >= 0 && static_cast<std::size_t>(id) < t.size());
        FUZZ_CHECK(id != t.specials().bos);
    }
    FUZZ_CHECK(t.decode(ids) == text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string input = attnlab::fuzz::bytesOf(data, size);
    checkSplit(input);
    const std::size_t nul = input.find('\0');
    const std::string vocab = input.substr(0, nul);
    const std::string merges = nul == std::string::npos ? std::string() : input.substr(nul + 1);
    LmTokenizer t;
    try {
        t = LmTokenizer::parseGpt2(vocab, "vocab.json", merges, "merges.txt");
    } catch (const attnlab::InputError& e) {
        const std::string what = e.what();
        FUZZ_CHECK(e.file() == "vocab.json" || e.file() == "merges.txt");
        FUZZ_CHECK(what.rfind(e.file() + ":", 0) == 0);
        FUZZ_CHECK(what.find('\n') == std::string::npos);
        FUZZ_CHECK(e.line() >= 0 && e.line() <= lineCount(e.file() == "vocab.json" ? vocab : merges));
        FUZZ_CHECK(e.file() == "merges.txt" ? e.line() >= 1 : true);
        return 0;
    }
    FUZZ_CHECK(t.kind() == attnlab::LmTokenKind::Gpt2);
    FUZZ_CHECK(t.size() >= 257);  // the 256 bytes and <|endoftext|>
    FUZZ_CHECK(t.specials().bos == t.specials().pad);
    FUZZ_CHECK(t.token(t.specials().bos) == attnlab::kLmGpt2EndOfText);
    FUZZ_CHECK(t.specials().unk == attnlab::kLmNoToken && t.specials().mask == attnlab::kLmNoToken);
    for (std::size_t id = 0; id < t.size(); ++id) FUZZ_CHECK(t.id(t.token(static_cast<int>(id))) == static_cast<int>(id));
    for (const std::string& text : {input, merges, std::string("Hello world's  end!!\n caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD 12")})
        checkEncoding(t, text);
    const std::string json = t.toJson();
    const LmTokenizer back = LmTokenizer::fromJson(json);
    FUZZ_CHECK(back.toJson() == json);
    FUZZ_CHECK(back.encode(input) == t.encode(input));
    return 0;
}
