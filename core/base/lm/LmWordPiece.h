#pragma once
// BERT's tokenizer (issue 51), exactly as Hugging Face's BertTokenizer (transformers'
// tokenization_bert.py, the slow tokenizer: the reference definition) runs it on a text, torch-free
// and without Qt or ICU. Its Unicode data (LmBertUnicodeTable.inc) is generated from Python's own
// unicodedata and str methods (scripts/gen_lm_bert_unicode_table.py: Python 3.11, Unicode 14.0.0),
// because BertTokenizer asks exactly those: Hugging Face's tokenizers behave per the Unicode of the
// Python that runs them, and a code point assigned after Unicode 14 is "unassigned" (a control, so
// dropped) here as it is there.
//
// encode(text), step by step (PreTrainedTokenizer.tokenize, then BertTokenizer._tokenize):
//   0. When lower-casing: every character but the special tokens' lowered on its own (str.lower of
//      one character: capital sigma is always small sigma here, never the final form).
//   1. The special tokens ([CLS] [SEP] [MASK] [PAD] [UNK]; the leftmost, longest occurrence) cut the
//      text: "[MASK]" typed anywhere in the text is the mask token. Each other stretch goes through
//      the basic tokenizer and WordPiece.
//   2. Clean: U+0000, U+FFFD and controls (categories Cc Cf Co Cs Cn but tab, line feed and carriage
//      return) dropped; white space (space, tab, LF, CR, Zs) made a space.
//   3. CJK ideographs (_is_chinese_char's ranges: U+4E00-9FFF, 3400-4DBF, 20000-2A6DF, 2A700-2B73F,
//      2B740-2B81F, 2B820-2CEAF, F900-FAFF, 2F800-2FA1F) with a space either side.
//   4. NFC, then split on white space (str.split(): str.isspace, which also holds U+2028/2029).
//   5. A word that is a special token stays whole. Else: when lower-casing, str.lower() of the word
//      (the final sigma rule applies), and the accents stripped (NFD, then every Mn dropped) unless
//      strip_accents is false; without lower-casing, the accents are stripped only if strip_accents
//      is true. Then every punctuation character (ASCII 33-47, 58-64, 91-96, 123-126, or a P*
//      category) is a word of its own.
//   6. WordPiece on each word: a word of more than 100 code points (max_input_chars_per_word) is
//      [UNK]; else the longest vocabulary entry that starts the word, then the longest "##" entry
//      that continues it, and so on; a word that cannot be covered so is one [UNK].
//   7. [CLS] A [SEP], or with a second segment [CLS] A [SEP] B [SEP], token types 0 for the first
//      part and 1 for B and its [SEP].
// The fast tokenizer (tokenizer.json, Rust) parts from this in corner cases: it applies no NFC,
// lower-cases without the final sigma, and its Unicode tables are Rust's. AttnLab follows the slow
// one also for a folder that has only tokenizer.json (its vocabulary and its BertNormalizer flags).
#include <cstddef>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace attnlab {

struct LmWordPieceOptions {
    bool lowerCase = true;                 // do_lower_case (BertTokenizer's default)
    std::optional<bool> stripAccents;      // strip_accents: unset follows lowerCase
    bool chineseChars = true;              // tokenize_chinese_chars
    bool cleanText = true;                 // tokenizer.json's clean_text (BertTokenizer always cleans)
    int maxInputCharsPerWord = 100;        // max_input_chars_per_word
    std::string continuingPrefix = "##";   // continuing_subword_prefix
    std::string unkToken = "[UNK]";
};

struct LmWordPieceEncoding {
    std::vector<int> ids;
    std::vector<int> tokenTypes;  // 0 for [CLS] A [SEP], 1 for B [SEP]
};

class LmWordPiece {
public:
    // A vocabulary by id (the token of id i is vocab[i]; a token given twice maps to its last id, as
    // BertTokenizer's load_vocab does). Throws InputError("vocabulary", 0, ...) when [UNK], [CLS] or
    // [SEP] is missing.
    explicit LmWordPiece(std::vector<std::string> vocab, LmWordPieceOptions options = {},
                         const std::string& name = "vocabulary");

    // A folder: vocab.txt (BertTokenizer's file), else tokenizer.json (model.type "WordPiece",
    // model.vocab, the BertNormalizer's lowercase / strip_accents / handle_chinese_chars / clean_text);
    // tokenizer_config.json's do_lower_case, strip_accents and tokenize_chinese_chars, when given,
    // override either (as BertTokenizerFast does). Without either: do_lower_case true. Throws
    // InputError naming the file (and the line: invalid UTF-8 in vocab.txt, JSON syntax errors).
    static LmWordPiece load(const std::string& directory);
    static LmWordPiece parseVocabTxt(const std::string& text, const std::string& name, LmWordPieceOptions options = {});
    static LmWordPiece parseTokenizerJson(const std::string& json, const std::string& name);
    // Applies a tokenizer_config.json's settings to `options`.
    static void applyTokenizerConfig(const std::string& json, const std::string& name, LmWordPieceOptions& options);

    // Steps 0-5: the basic tokenizer's words (special tokens included, as written).
    std::vector<std::string> basicTokens(const std::string& text) const;
    // Steps 0-6: the token strings, no [CLS] / [SEP].
    std::vector<std::string> tokenize(const std::string& text) const;
    // The ids of tokenize(text).
    std::vector<int> ids(const std::string& text) const;
    // [CLS] A [SEP]; [CLS] A [SEP] B [SEP] with token types.
    std::vector<int> encode(const std::string& text) const;
    LmWordPieceEncoding encodePair(const std::string& a, const std::string& b) const;

    // The token of an id ("" out of range); tokens of ids, for display.
    const std::string& token(int id) const;
    std::vector<std::string> tokens(const std::vector<int>& ids) const;
    // BertTokenizer.decode: tokens joined by spaces, " ##" removed, clean_up_tokenization_spaces
    // (" ." -> "." and the like); skipSpecial leaves [CLS] [SEP] [PAD] [MASK] [UNK] out.
    std::string decode(const std::vector<int>& ids, bool skipSpecial = false) const;

    int id(const std::string& token) const;  // -1 if not in the vocabulary
    int size() const { return static_cast<int>(vocab_.size()); }
    int unk() const { return unk_; }
    int cls() const { return cls_; }
    int sep() const { return sep_; }
    int mask() const { return mask_; }  // -1 without [MASK]
    int pad() const { return pad_; }    // -1 without [PAD]
    const LmWordPieceOptions& options() const { return options_; }

private:
    std::vector<std::string> vocab_;
    std::unordered_map<std::string, int> ids_;
    LmWordPieceOptions options_;
    std::vector<std::string> specials_;
    int unk_ = -1, cls_ = -1, sep_ = -1, mask_ = -1, pad_ = -1;
    std::size_t maxTokenChars_ = 0;  // the longest vocabulary entry, in code points

    struct Segment {
        bool special;  // one of the special tokens, as written
        std::u32string text;
    };
    void wordPieces(const std::u32string& word, std::vector<std::string>& out) const;
    void basicWords(const std::u32string& segment, std::vector<std::u32string>& out) const;
    std::vector<Segment> segmentsWithSpecials(const std::string& text) const;
};

// The Unicode pieces, per Python 3.11's unicodedata (exposed for the tests).
std::u32string lmBertNfd(const std::u32string& s);
std::u32string lmBertNfc(const std::u32string& s);
std::u32string lmBertLower(const std::u32string& s);  // str.lower(), the final sigma included

}  // namespace attnlab
