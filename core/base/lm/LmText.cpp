#include "LmText.h"

#include <stdexcept>
#include <utility>

#include "base/InputError.h"
#include "base/SeededRandom.h"
#include "base/io/FileUtil.h"
#include "base/io/TextLines.h"
#include "base/lm/LmConfig.h"

namespace attnlab {

namespace {


void checkContext(int context) {
    if (const auto problem = outOfRange(Setting::Context, context, kLmMinContext, kLmMaxContext))
        throw ConfigError(*problem);
}

// The start of `text` holding its first `context` tokens, and whether anything was left out.
std::pair<std::string, bool> firstTokens(LmTokenKind kind, const std::string& text, int context) {
    int count = 0;
    std::size_t end = 0;
    LmTokenizer::split(kind, text, [&](const char* piece, std::size_t length) {
        if (++count <= context) end = static_cast<std::size_t>(piece - text.data()) + length;
    });
    if (count <= context) return {text, false};
    return {text.substr(0, end), true};
}

// The corpus's tokenizer: the one given, or the one learned from the texts.
LmTokenizer lmTextTokenizer(LmTokenKind kind, const std::vector<std::string>& texts, const std::string& name,
                            const LmTextOptions& options, int merges) {
    if (options.tokenizer) return *options.tokenizer;
    return LmTokenizer::fromText(kind, texts, name, options.maxVocabulary, merges);
}

const char* const kConsonants = "bdfghklmnprstv";
const char* const kVowels = "aeiou";
constexpr int kSyllables = 14 * 5;

std::string syllable(int s) { return {kConsonants[s / 5], kVowels[s % 5]}; }

std::string range(const char* what, int value, int low, int high) {
    if (value >= low && value <= high) return {};
    return std::string(what) + " " + std::to_string(value) + " is not in " + std::to_string(low) + ".." +
           std::to_string(high);
}

void checkRepeats(const LmRepeatsOptions& o) {
    checkContext(o.context);
    for (const std::string& why :
         {range("induction set vocabulary", o.vocabulary, 2, kLmRepeatWords),
          range("maximum prefix", o.maxPrefix, 0, kLmMaxContext), range("minimum prefix", o.minPrefix, 0, o.maxPrefix),
          range("maximum sequence", o.maxSequence, 1, kLmMaxContext),
          range("minimum sequence", o.minSequence, 1, o.maxSequence)})
        if (!why.empty()) throw ConfigError(why);
    if (o.maxPrefix + o.maxSequence >= o.context)
        throw ConfigError("context length " + std::to_string(o.context) +
                          " leaves no room to repeat a prefix of up to " + std::to_string(o.maxPrefix) +
                          " and a sequence of up to " + std::to_string(o.maxSequence) + " words (it must be above " +
                          std::to_string(o.maxPrefix + o.maxSequence) + ")");
}

}  // namespace

LmCorpus parseLmText(const std::string& text, const std::string& name, LmTokenKind kind, int context,
                     const LmTextOptions& options) {
    checkContext(context);
    if (options.maxVocabulary == 0) throw ConfigError("the vocabulary limit must be at least 1");
    if (options.bpeMerges < 0) throw ConfigError("the number of bpe merges must not be negative");
    const int merges = options.bpeMerges == 0 ? kLmBpeMerges : options.bpeMerges;
    if (options.tokenizer && options.tokenizer->kind() != kind)
        throw ConfigError("a " + toString(options.tokenizer->kind()) + " tokenizer given to read a text as " + toString(kind));
    if (kind == LmTokenKind::Gpt2 && !options.tokenizer)
        throw ConfigError("a text read with gpt2 tokens needs GPT-2's tokenizer (vocab.json and merges.txt)");
    LmCorpus corpus;
    corpus.name = name;
    LineCursor cursor(text, name);
    std::string line;
    if (options.plain) {
        // The lines as they are (blank ones too: paragraphs stay apart), CRLF and the BOM dropped.
        std::string joined;
        joined.reserve(text.size());
        bool any = false;
        while (cursor.next(line)) {
            if (cursor.number() > 1) joined += '\n';
            joined += line;
            any = any || !isBlank(line);
        }
        if (!any) throw InputError(name, 0, "empty: no text to learn from");
        corpus.tokenizer = lmTextTokenizer(kind, {joined}, name, options, merges);
        std::vector<int> window;
        window.reserve(static_cast<std::size_t>(context));
        corpus.tokenizer.encodeEach(joined, [&](int id) {
            window.push_back(id);
            if (window.size() == static_cast<std::size_t>(context)) {
                corpus.documents.push_back(std::move(window));
                window = {};
            }
        });
        if (!window.empty()) corpus.documents.push_back(std::move(window));
        return corpus;
    }
    // Bpe's tokens are known once learned: its lines are kept whole and their ids cut (Gpt2's too:
    // one of its pieces may be several tokens).
    const bool cutIds = kind == LmTokenKind::Bpe || kind == LmTokenKind::Gpt2;
    std::vector<std::string> kept;
    while (cursor.next(line)) {
        if (isBlank(line)) continue;
        if (cutIds) {
            kept.push_back(line);
            continue;
        }
        auto [start, wasCut] = firstTokens(kind, line, context);
        corpus.cut += wasCut ? 1 : 0;
        kept.push_back(std::move(start));
    }
    if (kept.empty()) throw InputError(name, 0, "empty: no text to learn from");
    corpus.tokenizer = lmTextTokenizer(kind, kept, name, options, merges);
    corpus.documents.reserve(kept.size());
    for (std::string& document : kept) {
        corpus.documents.push_back(corpus.tokenizer.encode(document));
        std::string().swap(document);  // the text is no longer needed
        if (cutIds && corpus.documents.back().size() > static_cast<std::size_t>(context)) {
            corpus.documents.back().resize(static_cast<std::size_t>(context));
            ++corpus.cut;
        }
    }
    return corpus;
}

LmCorpus readLmText(const std::string& path, LmTokenKind kind, int context, const LmTextOptions& options) {
    checkContext(context);
    return parseLmText(readFileLimited(path, kMaxLmTextBytes), path, kind, context, options);
}

std::string lmRepeatWord(int i) {
    if (i < 0 || i >= kLmRepeatWords) throw std::out_of_range("lmRepeatWord: no word " + std::to_string(i));
    if (i < kSyllables) return syllable(i);
    const int pair = static_cast<int>((37LL * (i - kSyllables)) % (kSyllables * kSyllables));
    return syllable(pair / kSyllables) + syllable(pair % kSyllables);
}

LmCorpus makeRepeats(std::size_t lines, std::uint64_t seed, const LmRepeatsOptions& o) {
    checkRepeats(o);
    std::vector<std::string> words;
    words.reserve(static_cast<std::size_t>(o.vocabulary));
    for (int i = 0; i < o.vocabulary; ++i) words.push_back(lmRepeatWord(i));
    LmCorpus corpus;
    corpus.name = "repeats";
    corpus.tokenizer = LmTokenizer(LmTokenKind::Words, std::move(words));  // word i has id kLmFirstToken + i
    corpus.documents.reserve(lines);
    corpus.repeats.reserve(lines);
    SeededRandom random(seed);
    const auto word = [&] {
        return kLmFirstToken + static_cast<int>(random.below(static_cast<std::uint64_t>(o.vocabulary)));
    };
    for (std::size_t n = 0; n < lines; ++n) {
        LmRepeat repeat;
        std::vector<int> line;
        line.reserve(static_cast<std::size_t>(o.context));
        repeat.prefix = random.range(o.minPrefix, o.maxPrefix);
        for (int k = 0; k < repeat.prefix; ++k) line.push_back(word());
        repeat.sequence = random.range(o.minSequence, o.maxSequence);
        for (int k = 0; k < repeat.sequence; ++k) line.push_back(word());
        for (std::size_t k = static_cast<std::size_t>(repeat.prefix + repeat.sequence);
             k < static_cast<std::size_t>(o.context); ++k)
            line.push_back(line[k - static_cast<std::size_t>(repeat.sequence)]);
        corpus.documents.push_back(std::move(line));
        corpus.repeats.push_back(repeat);
    }
    return corpus;
}

}  // namespace attnlab
