#pragma once
// The language model's texts: a file read into token ids (one document per line, or running text cut
// into windows), and the built-in induction set of repeated random sequences, where an induction
// head forms (bench/reference_lm.py measured it on the same kind of lines).
//   A document is at most `context` tokens and holds no <bos>: with <bos> put in front, a model that
//   reads `context` positions sees <bos> and all but the last token and predicts every token.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/lm/LmTokens.h"

namespace attnlab {

// Larger text files are refused unread: every character of a Chars text becomes a 4-byte id.
inline constexpr std::uint64_t kMaxLmTextBytes = 64ull * 1024 * 1024;

// Where a line of the induction set repeats: `prefix` random words, then a random sequence of
// `sequence` words repeated to the end of the line, so word k equals word k - sequence for every
// k >= prefix + sequence.
struct LmRepeat {
    int prefix = 0;
    int sequence = 0;
};

struct LmCorpus {
    std::string name;  // the file's path, or "repeats"
    LmTokenizer tokenizer;
    std::vector<std::vector<int>> documents;  // token ids, each 1..context of them
    int cut = 0;                              // lines longer than the context, cut to it (the caller warns)
    std::vector<LmRepeat> repeats;            // the induction set's: one per document; empty for a file
};

struct LmTextOptions {
    // Running text: the whole file (its lines joined by line feeds) cut into consecutive windows of
    // `context` tokens, the last one shorter, instead of one document per line. Nothing is cut.
    bool plain = false;
    // Distinct ordinary tokens allowed (LmTokenizer::fromText; for Bpe, a cap on the merges).
    std::size_t maxVocabulary = kLmMaxVocabulary;
    // Merges a Bpe tokenizer learns (LmTokenizer::fromText), at most; 0 is kLmBpeMerges (1,000).
    // Ignored by the other kinds.
    int bpeMerges = 0;
    // A tokenizer made beforehand, of the reader's kind, used as it is (nothing is learned from the
    // text, maxVocabulary and bpeMerges are ignored): required for Gpt2 (LmTokenizer::readGpt2).
    std::shared_ptr<const LmTokenizer> tokenizer = nullptr;
};

// Reads a UTF-8 text file (at most kMaxLmTextBytes) with the line rules of the other readers
// (base/io/TextLines.h: a BOM and CRLF accepted; UTF-16, gzip, NUL bytes, a carriage return inside a
// line and lines over 64 KiB refused). One document per line that is not blank (blank lines are
// skipped); a line of more than `context` tokens is cut to its first `context` and counted in `cut`.
// The tokenizer is built from the documents as kept (LmTokenizer::fromText), or is options.tokenizer;
// for Bpe, whose tokens are not known before it is learned, from the whole lines, each line's ids
// then cut (Gpt2's too: a piece may be several tokens). Throws InputError
// naming the file and line for a line that is not UTF-8 ("invalid UTF-8 at byte N (0xAB); the file
// must be UTF-8", TextLines' wording) and naming the file for: a missing or too large file, no text
// at all ("empty: no text to learn from"), too many distinct tokens. Throws ConfigError for a
// context outside 4..4096, a maxVocabulary of 0 (for Bpe, below 256) or negative bpeMerges, for Gpt2
// without options.tokenizer and for an options.tokenizer of another kind.
LmCorpus readLmText(const std::string& path, LmTokenKind kind, int context, const LmTextOptions& options = {});
// The same for text already in memory; `name` is used in messages. Used by the reader and by tests.
LmCorpus parseLmText(const std::string& text, const std::string& name, LmTokenKind kind, int context,
                     const LmTextOptions& options = {});

struct LmRepeatsOptions {
    int context = 64;      // words per line, every line exactly this long (4..4096)
    int vocabulary = 200;  // words drawn from: the first `vocabulary` of lmRepeatWord (2..kLmRepeatWords)
    int minPrefix = 0;     // random words before the sequence: minPrefix..maxPrefix (0..maxPrefix)
    int maxPrefix = 12;
    int minSequence = 8;   // the repeated sequence's length: minSequence..maxSequence (1..maxSequence)
    int maxSequence = 20;  // maxPrefix + maxSequence must be below context: every line repeats
};

// How many distinct words lmRepeatWord has.
inline constexpr int kLmRepeatWords = 70 + 70 * 70;
// The induction set's words, made up to read well and fixed forever (ids and lines depend on them):
// consonants "bdfghklmnprstv" times vowels "aeiou". Words 0..69 are the 70 syllables in that order
// ("ba", "be", "bi", ..., "vu"); words 70.. are two syllables, the k-th (k = i - 70) being pair
// (37 k mod 4900) of the 70 x 70 pairs in order, so neighbours differ ("baba", "bami", "bebu", ...).
// Throws std::out_of_range unless 0 <= i < kLmRepeatWords.
std::string lmRepeatWord(int i);

// The induction set: `lines` lines of exactly options.context words; each is minPrefix..maxPrefix
// random words, then a random sequence of minSequence..maxSequence words (drawn uniformly with
// replacement from the vocabulary, as bench/reference_lm.py's) repeated until the line is full and
// cut there. Draws come from SeededRandom(seed), per line: the prefix length, its words, the sequence
// length, its words; the same seed gives the same lines on every machine. The tokenizer is Words
// with the vocabulary's words in lmRepeatWord's order (ids 4 ..), whatever the lines hold, so sets
// made with other seeds and sizes share it. `repeats` holds each line's prefix and sequence length.
// Throws ConfigError for options out of range.
LmCorpus makeRepeats(std::size_t lines, std::uint64_t seed, const LmRepeatsOptions& options = {});

}  // namespace attnlab
