#pragma once
// GPT-2's pre-tokenization, exactly, without a regex library: the text is cut into pieces as
//     's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
// cuts it with Python's `regex` module (OpenAI's encoder.py, Hugging Face's GPT2Tokenizer: re.findall
// over the text), the first alternative that matches at each position, left to right. The classes of
// a code point come from LmUnicodeTable.inc, generated from the `regex` module itself
// (scripts/gen_lm_unicode_table.py); its \p{L} and \p{N} sets are Unicode 17.0's (Node 20's ICU 78.2
// gives the very same sets).
//   Letter (\p{L}: Lu Ll Lt Lm Lo), number (\p{N}: Nd Nl No), white space (\s: Unicode's White_Space
//   property, 25 code points: U+0009-000D, U+0020, U+0085, U+00A0, U+1680, U+2000-200A, U+2028,
//   U+2029, U+202F, U+205F, U+3000), and other (everything else: punctuation, symbols, emoji,
//   combining marks, controls, format characters). A byte that is not part of valid UTF-8 is a
//   character of its own, of class other (as U+FFFD, which Python would see after decoding with
//   errors="replace"); the pieces are byte ranges of the text, so no byte is lost or changed.
// At each position the first rule that applies gives the next piece:
//   1. an apostrophe (U+0027) followed by s, t, m or d, or by re, ve or ll (lower case only);
//   2-4. an optional U+0020 space, then a run of letters, or of numbers, or of others (the space
//      joins only when a character of that run follows it: "a  b" is "a", " ", " b");
//   5. a run of white space that ends the text, or all of a run of two or more but its last
//      character (which the next piece starts with);
//   6. one white-space character (one followed by a non-space character that rules 2-4 do not take).
// "Hello world's  end!!" is "Hello", " world", "'s", " ", " end", "!!"; "a\t\tb\n\n" is "a", "\t",
// "\t", "b", "\n\n"; "café" is one piece; "e\u0301" (a combining accent) is "e", "\u0301".
//
// Where other implementations of the same pattern part from this one:
//   - JavaScript (gpt-3-encoder's /.../gu in Node): \s is JavaScript's white space, which holds
//     U+FEFF (the byte order mark) and not U+0085 (NEXT LINE). A text holding either can be cut
//     differently (" \u0085x" is " ", "\u0085", "x" here and " \u0085", "x" in Node).
//   - Python's standard `re` (not what GPT-2 uses): its \s also holds U+001C-001F.
//   - Other Unicode versions: a code point assigned after the version of the table (or of the
//     other implementation) is "other" in the older one. Python 3.11's own unicodedata (14.0) has
//     13,916 fewer letters than the table (most of them CJK extension ideographs).
#include <cstddef>
#include <string>

namespace attnlab {

enum class LmCharClass : unsigned char { Other = 0, Letter = 1, Number = 2, Space = 3 };

// The class of a code point (any value; outside U+0000-10FFFF: Other).
LmCharClass lmCharClass(char32_t cp);

// The length of the contraction ('s 't 'm 'd 're 've 'll, lower case as GPT-2's pattern has them)
// at byte `pos` of `text`, or 0 if none starts there: the first rule of GPT-2's pieces and of the
// learned BPE's (LmTokens.h).
std::size_t lmContractionLength(const std::string& text, std::size_t pos);

// The length in bytes of the GPT-2 piece that starts at byte `pos` of `text` (pos < text.size();
// `pos` must be the start of a character, as it is when every piece is taken in turn from 0).
std::size_t lmGpt2PieceLength(const std::string& text, std::size_t pos);

}  // namespace attnlab
