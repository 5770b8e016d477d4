#pragma once
// The language model's tokenizer: text to token ids and back. Two kinds, chosen per run:
//   Chars: every Unicode code point is a token ("héllo" is 5 tokens; a combining accent is a token
//          of its own). Small vocabularies, long sequences: the kind for running text.
//   Words: tokens are the text between runs of ASCII spaces, tabs and line feeds (other white space,
//          punctuation and case stay inside the word: "Cat." and "cat" are different words).
// The token list is built from a text: ordinary tokens by frequency, most frequent first, ties by
// first appearance, so the same text always gives the same ids. The four specials come first, at
// fixed ids, in every tokenizer; a text never produces them (a literal "<unk>" in a text is an
// ordinary word).
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

enum class LmTokenKind {
    Chars,
    Words,
    // Byte-pair encoding (merges learned from the text) is to come here; toJson/fromJson and
    // LmTokenizer's splitting are the places that will need it.
};
std::string toString(LmTokenKind k);                 // "chars", "words"
LmTokenKind parseLmTokenKind(const std::string& s);  // throws ConfigError naming the accepted values

// The specials' ids, the same in every tokenizer.
inline constexpr int kLmPad = 0;         // "<pad>": fills a batch's short sequences; never predicted
inline constexpr int kLmBos = 1;         // "<bos>": begins a sequence
inline constexpr int kLmUnk = 2;         // "<unk>": a token the list does not hold
inline constexpr int kLmMask = 3;        // "<mask>": a hidden token (the masked objective)
inline constexpr int kLmFirstToken = 4;  // the first ordinary token's id
// Distinct ordinary tokens a text may have by default (LmTokenizer::fromText).
inline constexpr std::size_t kLmMaxVocabulary = 20'000;

class LmTokenizer {
public:
    // The specials alone (size() == 4), of kind Chars.
    LmTokenizer();
    // The specials, then `tokens` at ids 4, 5, ... in that order. Throws ConfigError for an empty
    // or repeated token, a Chars token that is not one code point of valid UTF-8, or a Words token
    // with an ASCII space, tab or line break.
    LmTokenizer(LmTokenKind kind, std::vector<std::string> tokens);

    // The token list of `texts` (one or many documents of valid UTF-8), ordered as the top of this
    // file says. Throws InputError(name, 0, ...) for text that is not UTF-8 ("not UTF-8 (byte N)",
    // the byte counted from 1 in the text that holds it) and for more distinct tokens than
    // maxVocabulary: "the vocabulary has N distinct words, over the limit of M (use --tokens
    // chars)" (for Chars: "... N distinct characters, over the limit of M").
    static LmTokenizer fromText(LmTokenKind kind, const std::vector<std::string>& texts, const std::string& name,
                                std::size_t maxVocabulary = kLmMaxVocabulary);

    // The ids of the text's tokens; a token not in the list is <unk>. Never throws: text that is not
    // UTF-8 gives <unk> for each invalid byte (Chars) or for each word holding one (Words).
    std::vector<int> encode(const std::string& text) const;
    // The same ids handed out one at a time (for texts too large to hold twice).
    void encodeEach(const std::string& text, const std::function<void(int)>& onId) const;
    // The tokens of `ids` as text: Words joined by single spaces, Chars concatenated; a special reads
    // as its name ("<bos>"), an id outside 0..size()-1 as "<unk>". decode(encode(t)) == t for a
    // Chars text of known characters, and for a Words text of known words separated by single spaces.
    std::string decode(const std::vector<int>& ids) const;

    // The token of an id ("<pad>" ... "<mask>" for the specials); "<unk>" for an id out of range.
    const std::string& token(int id) const;
    // The id of an ordinary token, or kLmUnk. A special's name gives kLmUnk too (see the top).
    int id(const std::string& token) const;
    // Tokens, the specials included: the vocabulary size V of LmConfig.
    std::size_t size() const { return tokens_.size(); }
    LmTokenKind kind() const { return kind_; }

    // {"kind": "chars"|"words", "tokens": [every token, index = id, the specials first]}: what a
    // checkpoint's metadata keeps.
    std::string toJson() const;
    // Throws ConfigError ("language model tokenizer config: ...") for malformed JSON, a missing
    // member, a list that does not start with the four specials, or a token the constructor refuses.
    static LmTokenizer fromJson(const std::string& json);

    // Splits the text into its token strings (for Chars, code points; an invalid byte is a token of
    // its own) and hands each to onPiece as (pointer, length) into `text`.
    static void split(LmTokenKind kind, const std::string& text,
                      const std::function<void(const char* piece, std::size_t length)>& onPiece);

private:
    LmTokenKind kind_ = LmTokenKind::Chars;
    std::vector<std::string> tokens_;             // index = id
    std::unordered_map<std::string, int> index_;  // the ordinary tokens' ids
};

}  // namespace attnlab
