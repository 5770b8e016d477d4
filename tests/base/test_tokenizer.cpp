#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

#include "base/Tokenizer.h"

namespace {

using attnlab::Tokenizer;
using attnlab::TokenizerOptions;
using Tokens = std::vector<std::string>;

Tokens tok(const std::string& text, bool lowercase = true, bool splitPunctuation = true) {
    TokenizerOptions options;
    options.lowercase = lowercase;
    options.splitPunctuation = splitPunctuation;
    return Tokenizer(options).tokenize(text);
}

// CJK words kept whole (splitCjkCharacters off).
Tokens words(const std::string& text, bool splitPunctuation = true) {
    TokenizerOptions options;
    options.splitPunctuation = splitPunctuation;
    options.splitCjkCharacters = false;
    return Tokenizer(options).tokenize(text);
}

TEST_CASE("Mixed Latin and Chinese: Han per character, Latin per word, CJK punctuation apart", "[tokenizer]") {
    CHECK(tok("Tom 追逐 Jerry。") == Tokens{"tom", "追", "逐", "jerry", "。"});
    CHECK(tok("汤姆追逐杰瑞") == Tokens{"汤", "姆", "追", "逐", "杰", "瑞"});
    CHECK(tok("你好，世界！") == Tokens{"你", "好", "，", "世", "界", "！"});
    CHECK(tok("「東京」に行く") == Tokens{"「", "東", "京", "」", "に", "行", "く"});
    // Han directly after a Latin word still starts its own token.
    CHECK(tok("GPU加速") == Tokens{"gpu", "加", "速"});
}

TEST_CASE("Without CJK splitting, space-separated Chinese words stay whole", "[tokenizer]") {
    CHECK(TokenizerOptions{}.splitCjkCharacters);  // unsegmented Chinese works by default
    CHECK(words("汤姆 追逐 杰瑞") == Tokens{"汤姆", "追逐", "杰瑞"});
    CHECK(words("Tom 追逐 Jerry。") == Tokens{"tom", "追逐", "jerry", "。"});
    CHECK(words("你好，世界！") == Tokens{"你好", "，", "世界", "！"});
    CHECK(words("「東京」に行く") == Tokens{"「", "東京", "」", "に行く"});
    CHECK(words("안녕 세계") == Tokens{"안녕", "세계"});
    // Unsegmented text becomes one token per run: why splitting is the default.
    CHECK(words("汤姆追逐杰瑞") == Tokens{"汤姆追逐杰瑞"});
    // A run ends where another script starts, as a character does when splitting.
    CHECK(words("GPU加速") == Tokens{"gpu", "加速"});
    CHECK(words("加速GPU 3D打印机") == Tokens{"加速", "gpu", "3d", "打印机"});
    CHECK(words("猫's") == Tokens{"猫", "'", "s"});  // no apostrophe rule after Han
    CHECK(words("汤姆\u200B追逐") == Tokens{"汤姆", "追逐"});  // zero-width space separates
    CHECK(words("汤\u200E姆") == Tokens{"汤姆"});          // an invisible mark does not
}

TEST_CASE("Without CJK splitting, punctuation still splits off a CJK word, or ends it", "[tokenizer]") {
    CHECK(words("杰瑞。", false) == Tokens{"杰瑞", "。"});
    CHECK(words("Jerry。", false) == Tokens{"jerry。"});  // as before: no splitting inside Latin words
    CHECK(words("猫,狗", false) == Tokens{"猫", ",", "狗"});
    CHECK(words("カタ・カナ", false) == Tokens{"カタ", "・", "カナ"});
    CHECK(words("カタ・カナ") == Tokens{"カタ", "・", "カナ"});
}

TEST_CASE("Kept-whole CJK words split into exactly the per-character tokens", "[tokenizer]") {
    // Splitting every token of the word tokenizer into its characters gives the default tokens:
    // the option moves token boundaries inside CJK runs and nowhere else.
    const char* texts[] = {"Tom 追逐 Jerry。", "「東京」に行く", "GPU加速,don't 汤姆's", "안녕 세계!ｶﾀｶﾅ", "a\u00A0猫b"};
    for (const char* text : texts) {
        INFO(text);
        for (bool punct : {true, false}) {
            Tokens split;
            for (const auto& t : words(text, punct)) {
                std::size_t pos = 0;
                const char32_t first = attnlab::decodeUtf8(t, pos);
                if (!attnlab::isCjkCodePoint(first)) {
                    split.push_back(t);
                    continue;
                }
                for (pos = 0; pos < t.size();) {
                    std::string one;
                    attnlab::appendUtf8(one, attnlab::decodeUtf8(t, pos));
                    split.push_back(one);
                }
            }
            CHECK(split == tok(text, true, punct));
        }
    }
}

TEST_CASE("Japanese kana and Korean Hangul become one token per character", "[tokenizer]") {
    CHECK(tok("ひらがなカタカナ") == Tokens{"ひ", "ら", "が", "な", "カ", "タ", "カ", "ナ"});
    CHECK(tok("ｶﾀｶﾅ") == Tokens{"ｶ", "ﾀ", "ｶ", "ﾅ"});  // half-width katakana
    CHECK(tok("コーヒー") == Tokens{"コ", "ー", "ヒ", "ー"});
    CHECK(tok("안녕 세계") == Tokens{"안", "녕", "세", "계"});
    CHECK(tok("\u1100\u1161") == Tokens{"\u1100", "\u1161"});  // conjoining Jamo
}

TEST_CASE("Punctuation is split off, but an apostrophe between letters stays in the word", "[tokenizer]") {
    CHECK(tok("Hello, world! Don't stop.") == Tokens{"hello", ",", "world", "!", "don't", "stop", "."});
    CHECK(tok("rock\u2019n\u2019roll") == Tokens{"rock\u2019n\u2019roll"});
    CHECK(tok("'quoted'") == Tokens{"'", "quoted", "'"});
    CHECK(tok("the dogs' bone") == Tokens{"the", "dogs", "'", "bone"});
    CHECK(tok("well-known (2021)") == Tokens{"well", "-", "known", "(", "2021", ")"});
    CHECK(tok("wait\u2014what\u2026") == Tokens{"wait", "\u2014", "what", "\u2026"});
    CHECK(tok("\u00BFQu\u00E9? \u00ABS\u00ED\u00BB") ==
          Tokens{"\u00BF", "qu\u00E9", "?", "\u00AB", "s\u00ED", "\u00BB"});
    CHECK(tok("a...b") == Tokens{"a", ".", ".", ".", "b"});
}

TEST_CASE("Without punctuation splitting only white space separates Latin words", "[tokenizer]") {
    CHECK(tok("The cat, sadly, left.", true, false) == Tokens{"the", "cat,", "sadly,", "left."});
    CHECK(tok("Tom 追逐 Jerry。", true, false) == Tokens{"tom", "追", "逐", "jerry。"});
}

TEST_CASE("Lower-casing covers ASCII, Latin-1, Latin Extended-A, Greek and Cyrillic", "[tokenizer]") {
    CHECK(tok("The CAT") == Tokens{"the", "cat"});
    CHECK(tok("\u00C9COLE \u00C0 \u00D8RE") == Tokens{"\u00E9cole", "\u00E0", "\u00F8re"});
    CHECK(tok("\u0141\u00D3D\u0179 \u0160KODA \u0152UVRE \u0178") ==
          Tokens{"\u0142\u00F3d\u017A", "\u0161koda", "\u0153uvre", "\u00FF"});
    CHECK(tok("\u0391\u0398\u0397\u039D\u0391 \u0386\u03A9") ==
          Tokens{"\u03B1\u03B8\u03B7\u03BD\u03B1", "\u03AC\u03C9"});
    CHECK(tok("\u041C\u041E\u0421\u041A\u0412\u0410 \u0401\u0416") ==
          Tokens{"\u043C\u043E\u0441\u043A\u0432\u0430", "\u0451\u0436"});
    // Multiplication sign sits among the Latin-1 capitals but has no lower case.
    CHECK(tok("3\u00D74") == Tokens{"3\u00D74"});
}

TEST_CASE("Lower-casing can be switched off", "[tokenizer]") {
    CHECK(tok("Tom \u00C9COLE", false) == Tokens{"Tom", "\u00C9COLE"});
    CHECK(tok("Don't STOP.", false) == Tokens{"Don't", "STOP", "."});
}

TEST_CASE("Empty and white-space-only text gives no tokens", "[tokenizer]") {
    CHECK(tok("").empty());
    CHECK(tok(" \t\r\n").empty());
    CHECK(tok("\u3000\u00A0\u2003\u200B\uFEFF").empty());  // ideographic, no-break, em and zero-width spaces
}

TEST_CASE("Unicode white space separates tokens and invisible marks are dropped", "[tokenizer]") {
    CHECK(tok("a\u00A0b\u3000c\u200Bd") == Tokens{"a", "b", "c", "d"});
    CHECK(tok("ab\u200Ecd") == Tokens{"abcd"});  // a left-to-right mark is not a token
}

TEST_CASE("Invalid UTF-8 becomes U+FFFD and never throws", "[tokenizer]") {
    CHECK(tok("ab\xFF" "cd") == Tokens{"ab\uFFFD" "cd"});
    CHECK(tok("x \xE4\xB8") == Tokens{"x", "\uFFFD\uFFFD"});   // truncated 3-byte sequence
    CHECK(tok("\xC0\xAF") == Tokens{"\uFFFD\uFFFD"});          // overlong "/"
    CHECK(tok("\xED\xA0\x80") == Tokens{"\uFFFD\uFFFD\uFFFD"}); // UTF-16 surrogate

    std::mt19937 rng(7);
    std::uniform_int_distribution<int> byte(0, 255), length(0, 64);
    for (int round = 0; round < 2000; ++round) {
        std::string junk;
        for (int i = length(rng); i > 0; --i) junk += static_cast<char>(byte(rng));
        Tokens tokens;
        REQUIRE_NOTHROW(tokens = tok(junk));
        for (const auto& t : tokens) {
            CHECK_FALSE(t.empty());
            CHECK(attnlab::findInvalidUtf8(t) == std::string::npos);
        }
    }
}

TEST_CASE("findInvalidUtf8 finds the first invalid sequence", "[tokenizer]") {
    using attnlab::findInvalidUtf8;
    const auto npos = std::string::npos;
    CHECK(findInvalidUtf8("") == npos);
    CHECK(findInvalidUtf8("plain ascii") == npos);
    CHECK(findInvalidUtf8("caf\u00E9 \u8FFD \U0001F600") == npos);
    CHECK(findInvalidUtf8("ok\xFFno") == 2);
    CHECK(findInvalidUtf8("\xC0\xAF") == 0);           // overlong
    CHECK(findInvalidUtf8("ab\xE0\x80\x80") == 2);     // overlong 3-byte
    CHECK(findInvalidUtf8("a\xED\xA0\x80") == 1);      // surrogate
    CHECK(findInvalidUtf8("\xF4\x90\x80\x80") == 0);   // above U+10FFFF
    CHECK(findInvalidUtf8("abc\xE8\xBF") == 3);        // truncated at the end
    CHECK(findInvalidUtf8("\x80") == 0);               // lone continuation byte
}

TEST_CASE("decodeUtf8 and appendUtf8 round-trip every kind of code point", "[tokenizer]") {
    for (char32_t cp : {U'A', U'\u00E9', U'\u8FFD', U'\U0001F600', U'\U0010FFFF'}) {
        std::string bytes;
        attnlab::appendUtf8(bytes, cp);
        std::size_t pos = 0;
        CHECK(attnlab::decodeUtf8(bytes, pos) == cp);
        CHECK(pos == bytes.size());
    }
    std::string surrogate;
    attnlab::appendUtf8(surrogate, 0xD800);
    CHECK(surrogate == "\uFFFD");
}

TEST_CASE("isCjkCodePoint covers Han, kana and Hangul but not Latin or CJK punctuation", "[tokenizer]") {
    using attnlab::isCjkCodePoint;
    for (char32_t cp : {U'\u4E00', U'\u9FFF', U'\u3400', U'\uF900', U'\U00020000', U'\u3042', U'\u30AB', U'\uFF76',
                        U'\uAC00', U'\uD7A3', U'\u1100'})
        CHECK(isCjkCodePoint(cp));
    for (char32_t cp : {U'a', U'\u00E9', U'\u3002', U'\uFF0C', U'\u0416', U' '}) CHECK_FALSE(isCjkCodePoint(cp));
}

}  // namespace
