// BERT's tokenizer (LmWordPiece): each rule of Hugging Face's BertTokenizer on a hand-made
// vocabulary, the readers and their errors, and the ids against a reference written in Python from
// BertTokenizer's published code (tests/python/bert_wordpiece_reference.py) over hand-made edge texts
// and the machine's gettext messages, with a vocabulary built from those messages (no real BERT
// vocab.txt is on this machine and nothing is downloaded).
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "Skip.h"
#include "TempDir.h"
#include "base/InputError.h"
#include "base/Tokenizer.h"
#include "base/gettext/Gettext.h"
#include "base/lm/LmWordPiece.h"

using namespace attnlab;

namespace {

using WordPieceStrings = std::vector<std::string>;

// A small vocabulary: the specials, then the words and pieces the cases below use.
LmWordPiece wordPieceHandMade(LmWordPieceOptions options = {}) {
    std::vector<std::string> v{"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"};
    for (const char* t : {"hello", "world", "Hello", ",", "!", ".", "?", "$", "^", "+", "[", "]", "mask", "the", "cat",
                          "sat", "un", "##aff", "##able", "una", "a", "##a", "b", "c", "d", "e", "abc", "creme", "crème",
                          "café", "cafe", "我", "爱", "中", "ab", "wait", "what", "x", "y", "οδοσ", "οδος", "a€b",
                          "こんにちは", "'", "s", "don", "t", "##s"})
        v.push_back(t);
    return LmWordPiece(v, std::move(options));
}

std::string wordPieceUtf8(const std::u32string& s) {
    std::string out;
    for (const char32_t c : s) appendUtf8(out, c);
    return out;
}

std::u32string wordPieceUtf32(const std::string& s) {
    std::u32string out;
    for (std::size_t pos = 0; pos < s.size();) out += decodeUtf8(s, pos);
    return out;
}

std::string wordPieceQuoted(const std::string& s) {
    std::string out = "'";
    for (const char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

}  // namespace

TEST_CASE("WordPiece: the basic tokenizer's rules", "[lm][wordpiece]") {
    const LmWordPiece t = wordPieceHandMade();
    // Lower case, punctuation apart.
    CHECK(t.tokenize("Hello, World!") == WordPieceStrings{"hello", ",", "world", "!"});
    // Accents stripped when lower-casing (NFD, Mn dropped), kept when not; decomposed input too.
    CHECK(t.tokenize("Crème CAFÉ cafe\xCC\x81") == WordPieceStrings{"creme", "cafe", "cafe"});
    LmWordPieceOptions cased;
    cased.lowerCase = false;
    const LmWordPiece c = wordPieceHandMade(cased);
    CHECK(c.tokenize("Hello crème café cafe\xCC\x81") == WordPieceStrings{"Hello", "crème", "café", "café"});  // NFC
    LmWordPieceOptions keep;
    keep.stripAccents = false;
    CHECK(wordPieceHandMade(keep).tokenize("Crème") == WordPieceStrings{"crème"});
    // CJK ideographs apart (not kana).
    CHECK(t.tokenize("我爱ab中") == WordPieceStrings{"我", "爱", "ab", "中"});
    CHECK(t.tokenize("こんにちは") == WordPieceStrings{"こんにちは"});
    // Cleaning: NUL, U+FFFD and controls (U+200B is Cf) dropped; tab, NBSP to spaces; U+2028 splits.
    CHECK(t.tokenize(std::string("a\0b", 3) + "\xE2\x80\x8B" "c\td\xC2\xA0" "e\xEF\xBF\xBD") == WordPieceStrings{"abc", "d", "e"});
    CHECK(t.tokenize("a\xE2\x80\xA8" "b") == WordPieceStrings{"a", "b"});
    // Punctuation: ASCII's ranges (even $ ^ + which are symbols) and P*; the euro sign is not.
    CHECK(t.tokenize("wait...what?!") == WordPieceStrings{"wait", ".", ".", ".", "what", "?", "!"});
    CHECK(t.tokenize("$a^b+c") == WordPieceStrings{"$", "a", "^", "b", "+", "c"});
    CHECK(t.tokenize("a\xE2\x82\xAC" "b") == WordPieceStrings{"a€b"});
    // Capital sigma: str.lower() of one word gives the final form; BertTokenizer lowers the text one
    // character at a time first, so its tokens never hold it.
    CHECK(wordPieceUtf8(lmBertLower(U"ΟΔΟΣ ΣΑ")) == "οδος σα");
    CHECK(t.tokenize("ΟΔΟΣ") == WordPieceStrings{"οδοσ"});
    CHECK(c.tokenize("οδος") == WordPieceStrings{"οδος"});
    CHECK(t.basicTokens("Don't  stop") == WordPieceStrings{"don", "'", "t", "stop"});
}

TEST_CASE("WordPiece: special tokens in the text", "[lm][wordpiece]") {
    const LmWordPiece t = wordPieceHandMade();
    CHECK(t.tokenize("the [MASK] sat") == WordPieceStrings{"the", "[MASK]", "sat"});
    CHECK(t.ids("x[MASK]y") == std::vector<int>{t.id("x"), t.mask(), t.id("y")});
    CHECK(t.tokenize("[mask]") == WordPieceStrings{"[", "mask", "]"});  // only as written
    CHECK(t.tokenize("[CLS][SEP]") == WordPieceStrings{"[CLS]", "[SEP]"});
    LmWordPieceOptions cased;
    cased.lowerCase = false;
    CHECK(wordPieceHandMade(cased).tokenize("[MASK]!") == WordPieceStrings{"[MASK]", "!"});
}

TEST_CASE("WordPiece: longest match first, ## continuations, [UNK]", "[lm][wordpiece]") {
    const LmWordPiece t = wordPieceHandMade();
    // "una" is longer than "un" but "##ffable" cannot follow it: greedy, no backtracking -> [UNK].
    CHECK(t.tokenize("unaffable") == WordPieceStrings{"[UNK]"});
    std::vector<std::string> v{"[UNK]", "[CLS]", "[SEP]", "un", "##aff", "##able", "a", "##a", "cats", "cat", "##s"};
    const LmWordPiece w(v);
    CHECK(w.tokenize("unaffable cats cat catss") ==
          WordPieceStrings{"un", "##aff", "##able", "cats", "cat", "cats", "##s"});
    CHECK(w.tokenize("xyz un") == WordPieceStrings{"[UNK]", "un"});
    CHECK(w.tokenize(std::string(100, 'a')).size() == 100);
    CHECK(w.tokenize(std::string(101, 'a')) == WordPieceStrings{"[UNK]"});  // max_input_chars_per_word
    CHECK(w.ids("unaffable") == std::vector<int>{3, 4, 5});
    CHECK(w.decode(w.encode("unaffable cats .")) == "[CLS] unaffable cats [UNK] [SEP]");
    CHECK(w.decode(w.encode("unaffable cats"), true) == "unaffable cats");
    CHECK(w.tokens({3, 4, 99}) == WordPieceStrings{"un", "##aff", ""});
}

TEST_CASE("WordPiece: [CLS] A [SEP] B [SEP] and token types", "[lm][wordpiece]") {
    const LmWordPiece t = wordPieceHandMade();
    CHECK(t.encode("hello world") == std::vector<int>{t.cls(), t.id("hello"), t.id("world"), t.sep()});
    const LmWordPieceEncoding e = t.encodePair("hello", "the cat sat");
    CHECK(e.ids == std::vector<int>{t.cls(), t.id("hello"), t.sep(), t.id("the"), t.id("cat"), t.id("sat"), t.sep()});
    CHECK(e.tokenTypes == std::vector<int>{0, 0, 0, 1, 1, 1, 1});
    CHECK(t.encode("") == std::vector<int>{t.cls(), t.sep()});
}

TEST_CASE("WordPiece: vocab.txt, tokenizer.json and tokenizer_config.json", "[lm][wordpiece]") {
    const test::TempDir dir;
    // vocab.txt: id = line number (0-based), \r\n and \r end lines as in Python's text mode.
    dir.file("a/vocab.txt", "[PAD]\r\n[UNK]\n[CLS]\r[SEP]\n[MASK]\nHello\nhello\n");
    const LmWordPiece a = LmWordPiece::load(dir / "a");
    CHECK(a.size() == 7);
    CHECK(a.id("hello") == 6);
    CHECK(a.ids("Hello") == std::vector<int>{6});  // do_lower_case by default
    dir.file("a/tokenizer_config.json", R"({"do_lower_case": false})");
    CHECK(LmWordPiece::load(dir / "a").ids("Hello") == std::vector<int>{5});
    // tokenizer.json alone.
    dir.file("b/tokenizer.json",
             R"({"normalizer": {"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true,
                 "strip_accents": null, "lowercase": false},
                 "model": {"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
                 "max_input_chars_per_word": 100, "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 2, "Hello": 3, "hello": 4}}})");
    const LmWordPiece b = LmWordPiece::load(dir / "b");
    CHECK(b.ids("Hello") == std::vector<int>{3});
    CHECK_FALSE(b.options().lowerCase);
    CHECK(b.mask() == -1);
    // Errors name the file (and the line).
    auto message = [](const std::function<void()>& f) {
        try {
            f();
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("(no error)");
    };
    dir.file("c/vocab.txt", "[UNK]\n[CLS]\n[SEP]\nok\nbad\xFF\n");
    CHECK(message([&] { LmWordPiece::load(dir / "c"); }) == dir / "c/vocab.txt" + ":5: not valid UTF-8 (byte 4 of the line)");
    dir.file("d/vocab.txt", "[CLS]\n[SEP]\n");
    CHECK(message([&] { LmWordPiece::load(dir / "d"); }).find("has no [UNK]") != std::string::npos);
    dir.file("e/tokenizer.json", "{\n\"model\": {\n\"type\": \"WordPiece\",,\n}}");
    CHECK(message([&] { LmWordPiece::load(dir / "e"); }) == dir / "e/tokenizer.json" + ":3: not valid JSON");
    dir.file("f/tokenizer.json", R"({"model": {"type": "BPE", "vocab": {"a": 0}}})");
    CHECK(message([&] { LmWordPiece::load(dir / "f"); }).find("not \"WordPiece\"") != std::string::npos);
    dir.file("g/tokenizer.json", R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "[CLS]": 0, "[SEP]": 2}}})");
    CHECK(message([&] { LmWordPiece::load(dir / "g"); }).find("given twice") != std::string::npos);
    dir.file("h/tokenizer.json", R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0, "[CLS]": 1, "[SEP]": 7}}})");
    CHECK(message([&] { LmWordPiece::load(dir / "h"); }).find("not an id in 0..2") != std::string::npos);
    dir.file("i/vocab.txt", "[UNK]\n[CLS]\n[SEP]\n");
    dir.file("i/tokenizer_config.json", R"({"do_lower_case": "yes"})");
    CHECK(message([&] { LmWordPiece::load(dir / "i"); }).find("do_lower_case is not true or false") != std::string::npos);
    CHECK(message([&] { LmWordPiece::load(dir / "nothing"); }).find("no vocab.txt or tokenizer.json") != std::string::npos);
    CHECK(message([&] { LmWordPiece::parseVocabTxt("", "v.txt"); }) == "v.txt: empty: a vocab.txt holds one token per line");
}

TEST_CASE("WordPiece: ids identical to BertTokenizer's (a Python reference) on mixed text",
          "[lm][wordpiece][needs-python3]") {
    if (std::system("/usr/bin/python3 -c 'import unicodedata' > /dev/null 2>&1") != 0)
        ATTNLAB_SKIP("/usr/bin/python3 is not installed: the ids were not compared");
    // Hand-made edge texts.
    std::vector<std::string> texts{
        "Hello, World! The quick brown fox.", "Crème brûlée, naïve café, cafe\xCC\x81, ÅNGSTRÖM, İstanbul",
        "ΟΔΟΣ ΟΔΟΣ. Σ ΑΣ-Β", "我爱北京天安门，你好世界！", "日本語のテキスト、カタカナ。한국어 텍스트",
        "I \xE2\x9D\xA4\xEF\xB8\x8F pizza \xF0\x9F\x8D\x95!! \xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD \xF0\x9F\xA7\x91\xE2\x80\x8D\xF0\x9F\x92\xBB",
        "wait...what?!?! ---- ((nested)) [brackets] {braces} <angle> @#$%^&*_+=|\\~`", "\xC2\xA1Hola! \xC2\xBFQu\xC3\xA9? \xC2\xAB guillemets \xC2\xBB \xE2\x80\x9C" "curly\xE2\x80\x9D",
        std::string("nul\0byte", 8) + " bell\x07 tab\there\nnewline\r\ncr \xC2\x85next \xE2\x80\x8Bzw\xEF\xBB\xBF" "bom \xEF\xBF\xBDrepl",
        "line\xE2\x80\xA8sep para\xE2\x80\xA9sep nbsp\xC2\xA0x ideographic\xE3\x80\x80space", "The [MASK] sat on the [MASK].",
        "x[MASK]y [mask] [CLS] [SEP][PAD] [UNK]", std::string(101, 'a'), std::string(100, 'e'),
        "antidisestablishmentarianism supercalifragilisticexpialidocious", "e\xCC\x81\xCC\xA3 o\xCC\x88\xCC\x81 a\xCC\x8A",
        "\xEF\xA4\x80\xEF\xA8\x8E compat ideographs \xF0\xA0\x80\x80 ext-b", "Ǆemal ǅ ǆ ﬁ ﬃ ß ẞ", "   ", "",
        "\xE0\xA4\xB9\xE0\xA4\xBF\xE0\xA4\x82\xE0\xA4\xA6\xE0\xA5\x80 \xD8\xA7\xD9\x84\xD8\xB9\xD8\xB1\xD8\xA8\xD9\x8A\xD8\xA9 \xD7\xA2\xD7\x91\xD7\xA8\xD7\x99\xD7\xAA",
        "Tiếng Việt có dấu", "\xE1\x84\x80\xE1\x85\xA1\xE1\x86\xA8 (conjoining jamo)", "3.14159 1,000,000 12:30 50% $5 €5",
        "\xF3\xA0\x80\x81tag \xEE\x80\x80private \xF0\x9F\xAB\xA8new-emoji"};
    const std::size_t handMade = texts.size();
    // The machine's gettext messages, English and translations in a dozen languages.
    const std::string root = test::systemDataDir("ATTNLAB_TEST_LOCALE_DIR", "/usr/share/locale");
    std::vector<std::string> corpus;
    for (const char* lang : {"fr", "de", "es", "vi", "el", "ru", "zh_CN", "ja", "ko", "ar", "he", "hi", "th"}) {
        std::vector<std::string> mos = gettextCatalogues(root, lang);
        if (mos.size() > 2) mos.resize(2);
        for (const std::string& mo : mos) {
            GettextReport report;
            try {
                for (GettextPair& p : readGettextFile(mo, report)) {
                    corpus.push_back(std::move(p.english));
                    corpus.push_back(std::move(p.translation));
                }
            } catch (const InputError&) {
            }
        }
    }
    std::set<std::string> distinct(corpus.begin(), corpus.end());
    texts.insert(texts.end(), distinct.begin(), distinct.end());
    std::vector<std::pair<std::string, std::string>> pairs{{"Hello, World!", "The [MASK] sat."},
                                                           {"Crème brûlée", "我爱北京"},
                                                           {"", "only b"}};
    for (std::size_t i = handMade; i + 1 < texts.size() && pairs.size() < 200; i += 37) pairs.emplace_back(texts[i], texts[i + 1]);
    std::vector<std::string> vocabCorpus(corpus.begin(), corpus.end());
    vocabCorpus.insert(vocabCorpus.end(), texts.begin(), texts.begin() + static_cast<std::ptrdiff_t>(handMade));

    const test::TempDir dir;
    nlohmann::json input;
    input["texts"] = texts;
    input["pairs"] = pairs;
    input["corpus"] = vocabCorpus;
    const std::string inputFile = dir.file("input.json", input.dump());
    const std::string script = std::string(ATTNLAB_SOURCE_DIR) + "/tests/python/bert_wordpiece_reference.py";
    const auto started = std::chrono::steady_clock::now();
    const std::string command = "/usr/bin/python3 " + wordPieceQuoted(script) + " " + wordPieceQuoted(inputFile) + " " +
                                wordPieceQuoted(dir.path.string());
    REQUIRE(std::system(command.c_str()) == 0);
    const double pythonSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::ifstream in(dir / "expected.json");
    const nlohmann::json expected = nlohmann::json::parse(in);

    // The Unicode pieces on their own.
    std::size_t unicodeAgree = 0;
    for (std::size_t i = 0; i < texts.size(); ++i) {
        const std::u32string u = wordPieceUtf32(texts[i]);
        const bool ok = wordPieceUtf8(lmBertNfc(u)) == expected["nfc"][i].get<std::string>() &&
                        wordPieceUtf8(lmBertNfd(u)) == expected["nfd"][i].get<std::string>() &&
                        wordPieceUtf8(lmBertLower(u)) == expected["lower"][i].get<std::string>();
        if (!ok) {
            INFO("text " << i << ": '" << texts[i] << "'");
            CHECK(wordPieceUtf8(lmBertNfc(u)) == expected["nfc"][i].get<std::string>());
            CHECK(wordPieceUtf8(lmBertNfd(u)) == expected["nfd"][i].get<std::string>());
            CHECK(wordPieceUtf8(lmBertLower(u)) == expected["lower"][i].get<std::string>());
        }
        unicodeAgree += ok;
    }
    CHECK(unicodeAgree == texts.size());

    std::size_t bytes = 0;
    for (const std::string& s : texts) bytes += s.size();
    for (const nlohmann::json& config : expected["configs"]) {
        LmWordPieceOptions options;
        options.lowerCase = config["do_lower_case"].get<bool>();
        if (!config["strip_accents"].is_null()) options.stripAccents = config["strip_accents"].get<bool>();
        std::ifstream vocabIn(dir / "vocab.txt", std::ios::binary);
        const std::string vocabText((std::istreambuf_iterator<char>(vocabIn)), {});
        const LmWordPiece t = LmWordPiece::parseVocabTxt(vocabText, "vocab.txt", options);
        const std::string name = config["name"].get<std::string>();
        std::size_t agree = 0, unk = 0, tokens = 0;
        const auto t0 = std::chrono::steady_clock::now();
        std::vector<std::vector<int>> ours;
        ours.reserve(texts.size());
        for (const std::string& s : texts) ours.push_back(t.encode(s));
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        for (std::size_t i = 0; i < texts.size(); ++i) {
            const std::vector<int> want = config["ids"][i].get<std::vector<int>>();
            tokens += want.size();
            unk += static_cast<std::size_t>(std::count(want.begin(), want.end(), t.unk()));
            if (ours[i] == want) {
                ++agree;
                continue;
            }
            INFO(name << ", text " << i << ": '" << texts[i] << "'");
            CHECK(t.tokens(ours[i]) == t.tokens(want));
        }
        std::size_t pairsAgree = 0;
        for (std::size_t i = 0; i < pairs.size(); ++i) {
            const LmWordPieceEncoding e = t.encodePair(pairs[i].first, pairs[i].second);
            const bool ok = e.ids == config["pairs"][i]["ids"].get<std::vector<int>>() &&
                            e.tokenTypes == config["pairs"][i]["types"].get<std::vector<int>>();
            pairsAgree += ok;
            if (!ok) {
                INFO(name << ", pair " << i);
                CHECK(e.ids == config["pairs"][i]["ids"].get<std::vector<int>>());
            }
        }
        WARN(name << ": BertTokenizer's ids (the Python reference) and LmWordPiece's agree on " << agree << " of "
                  << texts.size() << " texts (" << handMade << " hand-made, the rest gettext messages; " << bytes
                  << " bytes, " << tokens << " tokens, " << unk << " [UNK]) and " << pairsAgree << " of " << pairs.size()
                  << " pairs; LmWordPiece encoded them in " << seconds * 1000 << " ms (the reference, 4 settings and the "
                  << "vocabulary: " << pythonSeconds << " s); vocabulary " << t.size() << " tokens");
        CHECK(agree == texts.size());
        CHECK(pairsAgree == pairs.size());
    }
    if (texts.size() < handMade + 1000)
        WARN("only " << texts.size() - handMade << " gettext messages under " << root
                     << " (ATTNLAB_TEST_LOCALE_DIR): the comparison rests mostly on the hand-made texts");
}
