// GPT-2's own tokenizer files (LmTokens.h: "Gpt2"): vocab.json and merges.txt (or npm's encoder.json
// and vocab.bpe) read into a tokenizer with GPT-2's ids, and the checks that name the file and line
// at fault. Split from LmTokens.cpp along this seam: the rest of the tokenizer does not read files of
// another program.
#include "LmTokens.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string_view>
#include <utility>

#include "base/InputError.h"
#include "base/Tokenizer.h"  // decodeUtf8, findInvalidUtf8
#include "base/io/FileUtil.h"

namespace attnlab {

namespace {

using Json = nlohmann::json;

}  // namespace

// GPT-2's files (LmTokens.h: "Gpt2").

namespace {

// The byte each code point of GPT-2's byte table stands for, or -1; index = code point (< 324).
const std::vector<int>& gpt2UnicodeToByte() {
    static const std::vector<int> table = [] {
        std::vector<int> t;
        for (int b = 0; b < kLmBpeBytes; ++b) {
            const auto cp = static_cast<std::size_t>(lmBytesToUnicode()[static_cast<std::size_t>(b)]);
            if (t.size() <= cp) t.resize(cp + 1, -1);
            t[cp] = b;
        }
        return t;
    }();
    return table;
}

// A token's bytes: each character through the byte table. A token with a character outside it (a
// special of some vocabulary other than GPT-2's) stands for its own UTF-8 text.
std::string gpt2TokenBytes(const std::string& token) {
    const std::vector<int>& table = gpt2UnicodeToByte();
    std::string bytes;
    bytes.reserve(token.size());
    for (std::size_t pos = 0; pos < token.size();) {
        const char32_t cp = decodeUtf8(token, pos);
        if (cp >= table.size() || table[cp] < 0) return token;
        bytes += static_cast<char>(table[cp]);
    }
    return bytes;
}

// A token or a line of a file shown in a message: at most `most` bytes of it (never cutting a
// character), control characters escaped so that the message stays one line.
std::string gpt2Shown(std::string_view text, std::size_t most = 60) {
    std::size_t end = text.size();
    if (end > most) {
        end = most;
        while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
    }
    std::string shown;
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x20 && c != 0x7F) {
            shown += static_cast<char>(c);
        } else {
            const char* digits = "0123456789abcdef";
            shown += c == '\n' ? std::string("\\n") : c == '\r' ? std::string("\\r") : c == '\t' ? std::string("\\t")
                     : std::string("\\x") + digits[c >> 4] + digits[c & 15];
        }
    }
    return end < text.size() ? shown + "..." : shown;
}

std::string gpt2Hex(int byte) {
    const char* digits = "0123456789ABCDEF";
    return std::string("0x") + digits[(byte >> 4) & 15] + digits[byte & 15];
}

}  // namespace

LmTokenizer LmTokenizer::buildGpt2(std::vector<std::string> tokens,
                                   const std::vector<std::pair<std::string, std::string>>& merges, Gpt2Problem& problem) {
    LmTokenizer t;
    t.kind_ = LmTokenKind::Gpt2;
    t.tokens_ = std::move(tokens);
    t.index_.reserve(t.tokens_.size());
    t.bytes_.reserve(t.tokens_.size());
    for (std::size_t id = 0; id < t.tokens_.size(); ++id) {
        const std::string& token = t.tokens_[id];
        if (token.empty()) {
            problem.why = "an empty token (id " + std::to_string(id) + ")";
            return {};
        }
        if (const auto [it, added] = t.index_.emplace(token, static_cast<int>(id)); !added) {
            problem.why = "'" + gpt2Shown(token) + "' has two ids, " + std::to_string(it->second) + " and " + std::to_string(id);
            return {};
        }
        t.bytes_.push_back(gpt2TokenBytes(token));
    }
    const auto end = t.index_.find(kLmGpt2EndOfText);
    if (end == t.index_.end()) {
        problem.why = std::string("no ") + kLmGpt2EndOfText + " token";
        return {};
    }
    t.specials_ = {end->second, end->second, kLmNoToken, kLmNoToken};
    for (int b = 0; b < kLmBpeBytes; ++b) {
        const std::string text = lmBpeTokenText(std::string(1, static_cast<char>(b)));
        const auto it = t.index_.find(text);
        if (it == t.index_.end()) {
            problem.why = "no token for the byte " + gpt2Hex(b) + " ('" + text + "')";
            return {};
        }
        t.byteIds_[static_cast<std::size_t>(b)] = it->second;
    }
    t.merges_.reserve(merges.size());
    t.ranks_.reserve(merges.size());
    std::string joined;
    for (std::size_t m = 0; m < merges.size(); ++m) {
        const auto& [leftText, rightText] = merges[m];
        problem.merge = m;
        const auto left = t.index_.find(leftText), right = t.index_.find(rightText);
        if (left == t.index_.end() || right == t.index_.end()) {
            problem.why = "'" + gpt2Shown(left == t.index_.end() ? leftText : rightText) + "' is not in the vocabulary";
            return {};
        }
        joined = leftText;
        joined += rightText;
        const auto merged = t.index_.find(joined);
        if (merged == t.index_.end()) {
            problem.why = "'" + gpt2Shown(joined) + "', the merge of '" + gpt2Shown(leftText) + "' and '" + gpt2Shown(rightText) +
                          "', is not in the vocabulary";
            return {};
        }
        const auto [it, added] = t.ranks_.emplace(lmMergeKey(left->second, right->second),
                                                  std::make_pair(static_cast<int>(m), merged->second));
        if (!added) {
            problem.earlier = static_cast<std::size_t>(it->second.first);
            problem.why = "'" + gpt2Shown(leftText) + " " + gpt2Shown(rightText) + "' is merged twice";
            return {};
        }
        t.merges_.emplace_back(left->second, right->second);
    }
    problem.merge = std::string::npos;
    t.cache_ = makeCache();
    return t;
}

LmTokenizer LmTokenizer::parseGpt2(const std::string& vocabJson, const std::string& vocabName, const std::string& mergeText,
                                   const std::string& mergesName) {
    // vocab.json: {token: id}, the ids 0..N-1 each once.
    Json vocab;
    try {
        vocab = Json::parse(vocabJson);
    } catch (const Json::parse_error& e) {
        const std::size_t at = std::min<std::size_t>(e.byte, vocabJson.size());
        const long line = 1 + static_cast<long>(std::count(vocabJson.begin(), vocabJson.begin() + static_cast<std::ptrdiff_t>(at > 0 ? at - 1 : 0), '\n'));
        std::string what = e.what();
        if (const std::size_t colon = what.find(": ", what.find("parse error")); colon != std::string::npos)
            what = what.substr(colon + 2);
        throw InputError(vocabName, line, "not JSON: " + gpt2Shown(what, 120));
    }
    if (!vocab.is_object() || vocab.empty())
        throw InputError(vocabName, 0, "not a GPT-2 vocabulary: a JSON object of token -> id was expected");
    const std::size_t n = vocab.size();
    std::vector<std::string> tokens(n);
    std::vector<char> seen(n, 0);
    for (const auto& [token, value] : vocab.items()) {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 0 || value.get<std::int64_t>() >= static_cast<std::int64_t>(n))
            throw InputError(vocabName, 0,
                             "the id of '" + gpt2Shown(token) + "' is " + gpt2Shown(value.dump()) + ", not an integer in 0.." +
                                 std::to_string(n - 1) + " (the ids of the " + std::to_string(n) + " tokens)");
        const auto id = static_cast<std::size_t>(value.get<std::int64_t>());
        if (seen[id])
            throw InputError(vocabName, 0, "'" + gpt2Shown(tokens[id]) + "' and '" + gpt2Shown(token) + "' share the id " + std::to_string(id));
        seen[id] = 1;
        tokens[id] = token;
    }
    // merges.txt: "#version: ..." first, then "LEFT RIGHT" lines.
    std::vector<std::pair<std::string, std::string>> merges;
    std::vector<long> lineOf;
    std::string_view text(mergeText);
    if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
    long number = 0;
    for (std::size_t start = 0; start < text.size();) {
        const std::size_t end = std::min(text.find('\n', start), text.size());
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++number;
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        if (line.empty() || (number == 1 && line.substr(0, 8) == "#version")) continue;
        const std::size_t space = line.find(' ');
        if (space == std::string_view::npos || space == 0 || space + 1 == line.size() ||
            line.find(' ', space + 1) != std::string_view::npos)
            throw InputError(mergesName, number, "not a merge (two tokens and one space between them): '" + gpt2Shown(line) + "'");
        merges.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
        lineOf.push_back(number);
    }
    Gpt2Problem problem;
    LmTokenizer t = buildGpt2(std::move(tokens), merges, problem);
    if (problem.why.empty()) return t;
    if (problem.merge == std::string::npos) throw InputError(vocabName, 0, problem.why);
    std::string why = problem.why;
    if (problem.earlier != std::string::npos) why += " (first on line " + std::to_string(lineOf[problem.earlier]) + ")";
    throw InputError(mergesName, lineOf[problem.merge], why);
}

LmTokenizer LmTokenizer::readGpt2(const LmGpt2Files& files) {
    const std::string vocab = readFileLimited(files.vocab, kMaxLmGpt2FileBytes);
    const std::string merges = readFileLimited(files.merges, kMaxLmGpt2FileBytes);
    return parseGpt2(vocab, files.vocab, merges, files.merges);
}

LmGpt2Files lmGpt2Files(const std::string& path, const std::string& merges) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::path p(path);
    if (fs::is_directory(p, ec)) {
        const auto pairIn = [&](const char* vocab, const char* mergeFile) -> LmGpt2Files {
            return {(p / vocab).string(), merges.empty() ? (p / mergeFile).string() : merges};
        };
        if (fs::exists(p / "vocab.json", ec)) return pairIn("vocab.json", "merges.txt");
        if (fs::exists(p / "encoder.json", ec)) return pairIn("encoder.json", "vocab.bpe");
        throw InputError(path, 0, "holds neither vocab.json and merges.txt nor encoder.json and vocab.bpe (GPT-2's files)");
    }
    if (!fs::exists(p, ec)) throw InputError(path, 0, "no such file or directory");
    if (!merges.empty()) return {path, merges};
    for (const char* name : {"merges.txt", "vocab.bpe"}) {
        const fs::path beside = p.parent_path() / name;
        if (fs::exists(beside, ec)) return {path, beside.string()};
    }
    throw InputError(path, 0, "no merges.txt or vocab.bpe beside it (name the merges file)");
}

}  // namespace attnlab
