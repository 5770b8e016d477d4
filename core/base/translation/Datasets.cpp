// Built-in datasets. Every generator draws from std::mt19937_64 (whose output the
// standard fixes) through our own bounded-integer helper, never through
// std::uniform_int_distribution (implementation-defined), so a seed gives the same
// corpus with every standard library.
//
// Alignment conventions:
// - dates: the year, month and day tokens link to the target's year, month and day;
//   weekdays, "the", "of" and separators ("," "/" "." and the target's "-") stay
//   unaligned, because they carry no content of the ISO date.
// - toy-en-fr: word by word; "the big" style adjectives cross their noun.
// - toy-en-zh: the target is written as Chinese words separated by spaces
//   ("汤姆 追逐 杰瑞") and the links join words: "tom" -> "汤姆". The dataset's tokenizer
//   keeps those words whole (DatasetInfo::tokenizer); a model trained per character gets
//   the links mapped onto characters by alignmentOverTokens ("tom" -> "汤" and "姆").
//   English "the" has no counterpart and stays unaligned.
#include "Datasets.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/SeededRandom.h"

namespace attnlab {

namespace {

constexpr std::size_t kMaxDatasetSize = 1000000;
constexpr int kMaxDatasetLen = 200;

using Rng = SeededRandom;

// A sentence pair under construction: source words, and target words each linked to
// source indices.
class PairBuilder {
public:
    int addSource(const std::string& token) {
        source_.push_back(token);
        return static_cast<int>(source_.size()) - 1;
    }
    int sourceSize() const { return static_cast<int>(source_.size()); }
    void addTarget(const std::string& word, std::vector<int> links = {}) {
        target_.push_back({word, std::move(links)});
    }

    SentencePair finish() const {
        SentencePair pair;
        pair.source = join(source_);
        std::vector<std::string> words;
        for (const auto& w : target_) {
            for (int s : w.links) pair.alignment.push_back({s, static_cast<int>(words.size())});
            words.push_back(w.text);
        }
        pair.target = join(words);
        std::sort(pair.alignment.begin(), pair.alignment.end(), [](const AlignmentLink& a, const AlignmentLink& b) {
            return a.source != b.source ? a.source < b.source : a.target < b.target;
        });
        return pair;
    }

private:
    struct Word {
        std::string text;
        std::vector<int> links;
    };
    static std::string join(const std::vector<std::string>& tokens) {
        std::string out;
        for (const auto& t : tokens) {
            if (!out.empty()) out += ' ';
            out += t;
        }
        return out;
    }
    std::vector<std::string> source_;
    std::vector<Word> target_;
};

struct Range {
    int minLen;
    int maxLen;
};

// ---------------------------------------------------------------- copy, reverse, sort

const std::vector<std::string>& letters() {
    static const std::vector<std::string> v = [] {
        std::vector<std::string> out;
        for (char c = 'a'; c <= 'z'; ++c) out.emplace_back(1, c);
        return out;
    }();
    return v;
}

SentencePair makeCopy(Rng& rng, Range r) {
    PairBuilder b;
    const int n = rng.range(r.minLen, r.maxLen);
    for (int i = 0; i < n; ++i) {
        const std::string& t = rng.pick(letters());
        b.addTarget(t, {b.addSource(t)});
    }
    return b.finish();
}

SentencePair makeReverse(Rng& rng, Range r) {
    PairBuilder b;
    const int n = rng.range(r.minLen, r.maxLen);
    std::vector<std::string> tokens;
    for (int i = 0; i < n; ++i) tokens.push_back(rng.pick(letters()));
    for (const auto& t : tokens) b.addSource(t);
    for (int j = 0; j < n; ++j) b.addTarget(tokens[static_cast<std::size_t>(n - 1 - j)], {n - 1 - j});
    return b.finish();
}

SentencePair makeSort(Rng& rng, Range r) {
    PairBuilder b;
    const int n = rng.range(r.minLen, r.maxLen);
    std::vector<int> values;
    for (int i = 0; i < n; ++i) {
        values.push_back(rng.range(0, 49));
        b.addSource(std::to_string(values.back()));
    }
    std::vector<int> order(values.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    std::stable_sort(order.begin(), order.end(), [&](int a, int c) {
        return values[static_cast<std::size_t>(a)] < values[static_cast<std::size_t>(c)];
    });
    for (int i : order) b.addTarget(std::to_string(values[static_cast<std::size_t>(i)]), {i});
    return b.finish();
}

// ---------------------------------------------------------------- dates

const std::vector<std::string> kMonths = {"january", "february", "march",     "april",   "may",      "june",
                                          "july",    "august",   "september", "october", "november", "december"};
const std::vector<std::string> kMonthAbbrev = {"jan", "feb", "mar", "apr", "may", "jun",
                                               "jul", "aug", "sep", "oct", "nov", "dec"};
const std::vector<std::string> kWeekdays = {"sunday",   "monday", "tuesday", "wednesday",
                                            "thursday", "friday", "saturday"};
const std::vector<std::string> kWeekdayAbbrev = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

bool isLeap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

int daysInMonth(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && isLeap(y) ? 29 : days[m - 1];
}

// 0 = Sunday (Sakamoto's method, Gregorian calendar).
int weekday(int y, int m, int d) {
    static const int t[] = {0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4};
    if (m < 3) y -= 1;
    return (y + y / 4 - y / 100 + y / 400 + t[m - 1] + d) % 7;
}

std::string pad2(int v) { return (v < 10 ? "0" : "") + std::to_string(v); }

std::string ordinal(int d) {
    const char* suffix = "th";
    if (d % 100 < 11 || d % 100 > 13) {
        if (d % 10 == 1) suffix = "st";
        if (d % 10 == 2) suffix = "nd";
        if (d % 10 == 3) suffix = "rd";
    }
    return std::to_string(d) + suffix;
}

// One source format: a token pattern where Y, M and D mark the aligned year, month and
// day tokens. The words are filled in per date.
enum class Slot { Year, Month, Day, Other };
struct DateToken {
    Slot slot;
    std::string text;
};
using DateFormat = std::vector<DateToken>;

std::vector<DateFormat> dateFormats(int y, int m, int d) {
    const int wd = weekday(y, m, d);
    const DateToken year{Slot::Year, std::to_string(y)};
    const DateToken month{Slot::Month, kMonths[static_cast<std::size_t>(m - 1)]};
    const DateToken mon{Slot::Month, kMonthAbbrev[static_cast<std::size_t>(m - 1)]};
    const DateToken mm{Slot::Month, pad2(m)};
    const DateToken mNum{Slot::Month, std::to_string(m)};
    const DateToken day{Slot::Day, std::to_string(d)};
    const DateToken dd{Slot::Day, pad2(d)};
    const DateToken dth{Slot::Day, ordinal(d)};
    const DateToken wday{Slot::Other, kWeekdays[static_cast<std::size_t>(wd)]};
    const DateToken wdy{Slot::Other, kWeekdayAbbrev[static_cast<std::size_t>(wd)]};
    auto sep = [](const char* s) { return DateToken{Slot::Other, s}; };
    return {
        {month, day, sep(","), year},                      // march 3 , 2021
        {day, month, year},                                // 3 march 2021
        {mm, sep("/"), dd, sep("/"), year},                // 03 / 04 / 2021 (month first)
        {mon, day, year},                                  // mar 3 2021
        {year, sep("."), mNum, sep("."), day},             // 2021 . 3 . 4
        {wday, sep(","), month, day, sep(","), year},      // thursday , march 4 , 2021
        {dd, sep("."), mm, sep("."), year},                // 04 . 03 . 2021 (day first)
        {sep("the"), dth, sep("of"), month, year},         // the 4th of march 2021
        {month, dth, sep(","), year},                      // march 4th , 2021
        {wdy, day, mon, year},                             // thu 4 mar 2021
        {day, mon, year},                                  // 4 mar 2021
        {year, sep("/"), mm, sep("/"), dd},                // 2021 / 03 / 04
    };
}

// Token counts of the formats above, for the range check before generating.
constexpr int kShortestDate = 3;
constexpr int kLongestDate = 6;

SentencePair makeDate(Rng& rng, Range r) {
    const int y = rng.range(1950, 2049);
    const int m = rng.range(1, 12);
    const int d = rng.range(1, daysInMonth(y, m));
    std::vector<DateFormat> fits;
    for (auto& f : dateFormats(y, m, d)) {
        const int n = static_cast<int>(f.size());
        if (n >= r.minLen && n <= r.maxLen) fits.push_back(std::move(f));
    }
    const DateFormat& format = rng.pick(fits);
    PairBuilder b;
    int yi = -1, mi = -1, di = -1;
    for (const auto& t : format) {
        const int i = b.addSource(t.text);
        if (t.slot == Slot::Year) yi = i;
        if (t.slot == Slot::Month) mi = i;
        if (t.slot == Slot::Day) di = i;
    }
    b.addTarget(std::to_string(y), {yi});
    b.addTarget("-");
    b.addTarget(pad2(m), {mi});
    b.addTarget("-");
    b.addTarget(pad2(d), {di});
    return b.finish();
}

// ---------------------------------------------------------------- toy grammars

// A phrase: English words, the target words, and for each target word the indices
// (into the English words) it links to.
struct Phrase {
    std::vector<std::string> source;
    std::vector<std::string> target;
    std::vector<std::vector<int>> links;
};

// Appends a phrase to the builder, translating its local link indices.
void emitSource(PairBuilder& b, const Phrase& p, std::vector<int>& globalIndex) {
    globalIndex.clear();
    for (const auto& w : p.source) globalIndex.push_back(b.addSource(w));
}
void emitTarget(PairBuilder& b, const Phrase& p, const std::vector<int>& globalIndex) {
    for (std::size_t j = 0; j < p.target.size(); ++j) {
        std::vector<int> links;
        for (int local : p.links[j]) links.push_back(globalIndex[static_cast<std::size_t>(local)]);
        b.addTarget(p.target[j], links);
    }
}

// Splits a sampled sentence length into clause lengths joined by "and" (one token
// each), so the sentence has exactly `length` tokens. Clauses are [2, maxClause] long.
std::vector<int> planClauses(Rng& rng, int length, int maxClause) {
    std::vector<int> clauses;
    int remaining = length;
    while (remaining > maxClause) {
        // Leave room for "and" plus a final clause of at least 2 tokens.
        const int hi = std::min(maxClause, remaining - 3);
        const int k = rng.range(std::min(3, hi), hi);
        clauses.push_back(k);
        remaining -= k + 1;
    }
    clauses.push_back(remaining);
    return clauses;
}

// Picks slot lengths (one entry per slot, from the given options) summing to `total`,
// uniformly among the combinations that do.
std::vector<int> pickComposition(Rng& rng, const std::vector<std::vector<int>>& options, int total) {
    std::vector<std::vector<int>> found;
    std::vector<int> current;
    auto search = [&](auto&& self, std::size_t slot, int sum) -> void {
        if (slot == options.size()) {
            if (sum == total) found.push_back(current);
            return;
        }
        for (int v : options[slot]) {
            if (sum + v > total) continue;
            current.push_back(v);
            self(self, slot + 1, sum + v);
            current.pop_back();
        }
    };
    search(search, 0, 0);
    return rng.pick(found);
}

// --- English -> French

struct FrNoun {
    const char* en;
    const char* fr;
    bool feminine;
};
struct FrAdj {
    const char* en;
    const char* masc;
    const char* fem;
};
struct WordPair {
    const char* en;
    const char* other;
};

const std::vector<WordPair> kFrNames = {{"tom", "tom"}, {"jerry", "jerry"}, {"mary", "marie"}, {"paul", "paul"}};
// Two-word subjects: determiner/possessive + noun.
const std::vector<std::vector<WordPair>> kFrSubjects = {
    {{"the", "le"}, {"cat", "chat"}},           {{"the", "le"}, {"dog", "chien"}},
    {{"the", "la"}, {"girl", "fille"}},         {{"the", "le"}, {"boy", "garcon"}},
    {{"my", "mon"}, {"friend", "ami"}},         {{"my", "ma"}, {"sister", "soeur"}},
    {{"the", "le"}, {"teacher", "professeur"}}, {{"the", "la"}, {"baker", "boulangere"}},
};
const std::vector<WordPair> kFrTransitive = {{"sees", "voit"},  {"chases", "chasse"}, {"likes", "aime"},
                                             {"finds", "trouve"}, {"paints", "peint"},  {"buys", "achete"},
                                             {"watches", "regarde"}, {"wants", "veut"}};
const std::vector<WordPair> kFrIntransitive = {{"sleeps", "dort"}, {"runs", "court"},   {"sings", "chante"},
                                               {"laughs", "rit"},  {"waits", "attend"}, {"dances", "danse"}};
const std::vector<FrNoun> kFrObjects = {{"house", "maison", true}, {"apple", "pomme", true},  {"car", "voiture", true},
                                        {"book", "livre", false},  {"table", "table", true},  {"ball", "ballon", false},
                                        {"cake", "gateau", false}, {"hat", "chapeau", false}, {"flower", "fleur", true},
                                        {"bike", "velo", false}};
// Adjectives that follow the noun in French, so "the red car" -> "la voiture rouge".
const std::vector<FrAdj> kFrAdjectives = {{"red", "rouge", "rouge"},      {"green", "vert", "verte"},
                                          {"blue", "bleu", "bleue"},      {"black", "noir", "noire"},
                                          {"white", "blanc", "blanche"},  {"heavy", "lourd", "lourde"},
                                          {"round", "rond", "ronde"},     {"broken", "casse", "cassee"},
                                          {"famous", "celebre", "celebre"}};
const std::vector<WordPair> kFrPrepositions = {{"in", "dans"}, {"under", "sous"}, {"near", "pres"}, {"behind", "derriere"}};
const std::vector<FrNoun> kFrPlaces = {{"garden", "jardin", false}, {"kitchen", "cuisine", true},
                                       {"park", "parc", false},     {"street", "rue", true},
                                       {"bridge", "pont", false},   {"forest", "foret", true}};
const std::vector<WordPair> kFrCities = {{"paris", "paris"}, {"london", "londres"}, {"rome", "rome"}};

// "near the X" is "pres de la X" or "pres du X" (de + le) in French; other
// prepositions map one to one. Appends "preposition the".
void addFrPrepositionAndArticle(Phrase& p, const WordPair& prep, bool feminine) {
    p.source.push_back(prep.en);
    p.source.push_back("the");
    p.target.push_back(prep.other);
    p.links.push_back({0});
    if (std::string(prep.en) == "near" && !feminine) {
        p.target.push_back("du");
        p.links.push_back({0, 1});
        return;
    }
    if (std::string(prep.en) == "near") {
        p.target.push_back("de");
        p.links.push_back({0});
    }
    p.target.push_back(feminine ? "la" : "le");
    p.links.push_back({1});
}

// A name other than `avoid`, so that "tom sees tom" does not happen.
const WordPair& pickOtherName(Rng& rng, const std::vector<WordPair>& names, const std::string& avoid) {
    const std::size_t i = static_cast<std::size_t>(rng.below(names.size()));
    return names[i].en == avoid ? names[(i + 1) % names.size()] : names[i];
}

Phrase frNounPhrase(Rng& rng, int length, const std::string& subject) {
    Phrase p;
    if (length == 1) {
        const auto& n = pickOtherName(rng, kFrNames, subject);
        return {{n.en}, {n.other}, {{0}}};
    }
    const auto& noun = rng.pick(kFrObjects);
    const bool definite = rng.percent(60);
    p.source.push_back(definite ? "the" : "a");
    p.target.push_back(definite ? (noun.feminine ? "la" : "le") : (noun.feminine ? "une" : "un"));
    p.links.push_back({0});
    if (length == 3) {
        const auto& adj = rng.pick(kFrAdjectives);
        p.source.push_back(adj.en);
        p.source.push_back(noun.en);
        p.target.push_back(noun.fr);
        p.links.push_back({2});
        p.target.push_back(noun.feminine ? adj.fem : adj.masc);
        p.links.push_back({1});
    } else {
        p.source.push_back(noun.en);
        p.target.push_back(noun.fr);
        p.links.push_back({1});
    }
    return p;
}

Phrase frPlace(Rng& rng, int length) {
    Phrase p;
    if (length == 2) {
        if (rng.percent(50)) return {{"at", "home"}, {"a", "la", "maison"}, {{0}, {1}, {1}}};
        const auto& city = rng.pick(kFrCities);
        return {{"in", city.en}, {"a", city.other}, {{0}, {1}}};
    }
    const auto& prep = rng.pick(kFrPrepositions);
    const auto& place = rng.pick(kFrPlaces);
    addFrPrepositionAndArticle(p, prep, place.feminine);
    if (length == 4) {
        const auto& adj = rng.pick(kFrAdjectives);
        p.source.push_back(adj.en);
        p.source.push_back(place.en);
        p.target.push_back(place.fr);
        p.links.push_back({3});
        p.target.push_back(place.feminine ? adj.fem : adj.masc);
        p.links.push_back({2});
    } else {
        p.source.push_back(place.en);
        p.target.push_back(place.fr);
        p.links.push_back({2});
    }
    return p;
}

constexpr int kMaxFrClause = 10;  // subject 2 + verb 1 + object 3 + place 4

void addFrClause(PairBuilder& b, Rng& rng, int length) {
    // Slots: subject (1-2), verb (1), object (0 = intransitive verb, 1-3), place (0, 2-4).
    const auto parts = pickComposition(rng, {{1, 2}, {1}, {0, 1, 2, 3}, {0, 2, 3, 4}}, length);
    std::vector<Phrase> phrases;
    if (parts[0] == 1) {
        const auto& n = rng.pick(kFrNames);
        phrases.push_back({{n.en}, {n.other}, {{0}}});
    } else {
        const auto& s = rng.pick(kFrSubjects);
        phrases.push_back({{s[0].en, s[1].en}, {s[0].other, s[1].other}, {{0}, {1}}});
    }
    const auto& verb = parts[2] == 0 ? rng.pick(kFrIntransitive) : rng.pick(kFrTransitive);
    phrases.push_back({{verb.en}, {verb.other}, {{0}}});
    if (parts[2] > 0) phrases.push_back(frNounPhrase(rng, parts[2], phrases[0].source.back()));
    if (parts[3] > 0) phrases.push_back(frPlace(rng, parts[3]));
    // French keeps the English phrase order; the reordering happens inside noun phrases.
    std::vector<int> index;
    for (const auto& p : phrases) {
        emitSource(b, p, index);
        emitTarget(b, p, index);
    }
}

SentencePair makeToyEnFr(Rng& rng, Range r) {
    PairBuilder b;
    const auto clauses = planClauses(rng, rng.range(std::max(2, r.minLen), r.maxLen), kMaxFrClause);
    for (std::size_t c = 0; c < clauses.size(); ++c) {
        if (c > 0) b.addTarget("et", {b.addSource("and")});
        addFrClause(b, rng, clauses[c]);
    }
    return b.finish();
}

// --- English -> Chinese

const std::vector<WordPair> kZhNames = {{"tom", "汤姆"}, {"jerry", "杰瑞"}, {"mary", "玛丽"}, {"lily", "莉莉"}};
// Two-word subjects; "the" has no Chinese counterpart.
const std::vector<std::vector<WordPair>> kZhSubjects = {
    {{"the", ""}, {"cat", "猫"}},      {{"the", ""}, {"dog", "狗"}},  {{"the", ""}, {"teacher", "老师"}},
    {{"my", "我的"}, {"friend", "朋友"}}, {{"the", ""}, {"boy", "男孩"}}, {{"the", ""}, {"girl", "女孩"}},
    {{"the", ""}, {"bird", "鸟"}},     {{"my", "我的"}, {"mother", "妈妈"}},
};
const std::vector<WordPair> kZhTransitive = {{"chases", "追逐"}, {"sees", "看见"}, {"likes", "喜欢"},
                                             {"finds", "找到"},  {"wants", "想要"}, {"draws", "画"}};
const std::vector<WordPair> kZhIntransitive = {{"sleeps", "睡觉"}, {"runs", "跑步"},   {"sings", "唱歌"},
                                               {"laughs", "笑"},   {"waits", "等待"}, {"dances", "跳舞"}};
const std::vector<WordPair> kZhNouns = {{"apple", "苹果"}, {"cat", "猫"},  {"dog", "狗"},    {"book", "书"},
                                        {"car", "车"},     {"ball", "球"}, {"flower", "花"}, {"cake", "蛋糕"},
                                        {"kite", "风筝"},  {"house", "房子"}};
const std::vector<WordPair> kZhAdjectives = {{"big", "大"}, {"small", "小"}, {"red", "红"},
                                             {"white", "白"}, {"black", "黑"}, {"new", "新"}};
const std::vector<WordPair> kZhPlacesShort = {{"home", "家"}, {"school", "学校"}, {"work", "公司"}};
const std::vector<WordPair> kZhCities = {{"beijing", "北京"}, {"shanghai", "上海"}};
const std::vector<WordPair> kZhPlaces = {{"garden", "花园"}, {"park", "公园"}, {"kitchen", "厨房"}, {"library", "图书馆"}};

Phrase zhNounPhrase(Rng& rng, int length, const std::string& subject) {
    if (length == 1) {
        const auto& n = pickOtherName(rng, kZhNames, subject);
        return {{n.en}, {n.other}, {{0}}};
    }
    const auto& noun = rng.pick(kZhNouns);
    if (length == 2) return {{"the", noun.en}, {noun.other}, {{1}}};
    const auto& adj = rng.pick(kZhAdjectives);
    return {{"the", adj.en, noun.en}, {adj.other, noun.other}, {{1}, {2}}};  // "the big cat" -> "大 猫"
}

Phrase zhPlace(Rng& rng, int length) {
    if (length == 2) {
        if (rng.percent(60)) {
            const auto& p = rng.pick(kZhPlacesShort);
            return {{"at", p.en}, {"在", p.other}, {{0}, {1}}};
        }
        const auto& c = rng.pick(kZhCities);
        return {{"in", c.en}, {"在", c.other}, {{0}, {1}}};
    }
    const auto& p = rng.pick(kZhPlaces);
    // "in the garden" -> "在 花园 里": both 在 and 里 render "in".
    if (length == 3) return {{"in", "the", p.en}, {"在", p.other, "里"}, {{0}, {2}, {0}}};
    const auto& adj = rng.pick(kZhAdjectives);
    return {{"in", "the", adj.en, p.en}, {"在", adj.other, p.other, "里"}, {{0}, {2}, {3}, {0}}};
}

Phrase zhTime(Rng& rng, int length) {
    if (length == 1) {
        if (rng.percent(50)) return {{"today"}, {"今天"}, {{0}}};
        return {{"now"}, {"现在"}, {{0}}};
    }
    if (rng.percent(50)) return {{"every", "day"}, {"每", "天"}, {{0}, {1}}};
    return {{"this", "morning"}, {"今天", "早上"}, {{0}, {1}}};
}

constexpr int kMaxZhClause = 12;  // subject 2 + verb 1 + object 3 + place 4 + time 2

void addZhClause(PairBuilder& b, Rng& rng, int length) {
    // Slots: subject (1-2), verb (1), object (0 = intransitive, 1-3), place (0, 2-4), time (0-2).
    const auto parts = pickComposition(rng, {{1, 2}, {1}, {0, 1, 2, 3}, {0, 2, 3, 4}, {0, 1, 2}}, length);
    Phrase subject;
    if (parts[0] == 1) {
        const auto& n = rng.pick(kZhNames);
        subject = {{n.en}, {n.other}, {{0}}};
    } else {
        const auto& s = rng.pick(kZhSubjects);
        subject = {{s[0].en, s[1].en}, {}, {}};
        if (*s[0].other) {
            subject.target.push_back(s[0].other);
            subject.links.push_back({0});
        }
        subject.target.push_back(s[1].other);
        subject.links.push_back({1});
    }
    const auto& v = parts[2] == 0 ? rng.pick(kZhIntransitive) : rng.pick(kZhTransitive);
    const Phrase verb{{v.en}, {v.other}, {{0}}};
    const Phrase object = parts[2] > 0 ? zhNounPhrase(rng, parts[2], subject.source.back()) : Phrase{};
    const Phrase place = parts[3] > 0 ? zhPlace(rng, parts[3]) : Phrase{};
    const Phrase time = parts[4] > 0 ? zhTime(rng, parts[4]) : Phrase{};

    // English: subject verb object place time. Chinese: subject time place verb object.
    std::vector<int> si, vi, oi, pi, ti;
    emitSource(b, subject, si);
    emitSource(b, verb, vi);
    emitSource(b, object, oi);
    emitSource(b, place, pi);
    emitSource(b, time, ti);
    emitTarget(b, subject, si);
    emitTarget(b, time, ti);
    emitTarget(b, place, pi);
    emitTarget(b, verb, vi);
    emitTarget(b, object, oi);
}

SentencePair makeToyEnZh(Rng& rng, Range r) {
    PairBuilder b;
    const auto clauses = planClauses(rng, rng.range(std::max(2, r.minLen), r.maxLen), kMaxZhClause);
    for (std::size_t c = 0; c < clauses.size(); ++c) {
        if (c > 0) b.addTarget("并且", {b.addSource("and")});
        addZhClause(b, rng, clauses[c]);
    }
    return b.finish();
}

// ---------------------------------------------------------------- registry

struct DatasetSpec {
    DatasetInfo info;
    int defaultMinLen;
    int shortest;  // the shortest sentence the generator can make
    int longest;   // the longest (maxLen above it changes nothing)
    SentencePair (*make)(Rng&, Range);
};

// toy-en-zh's Chinese words, kept whole.
TokenizerOptions wordTokens() {
    TokenizerOptions o;
    o.splitCjkCharacters = false;
    return o;
}

const std::vector<DatasetSpec>& specs() {
    static const std::vector<DatasetSpec> v = {
        {{"copy", "Random letter sequences; the target repeats the source.", 12, TokenizerOptions{}},
         3, 1, kMaxDatasetLen, makeCopy},
        {{"reverse", "Random letter sequences; the target is the source reversed.", 12, TokenizerOptions{}},
         3, 1, kMaxDatasetLen, makeReverse},
        {{"sort", "Random numbers from 0 to 49; the target lists them in ascending order.", 12, TokenizerOptions{}},
         3, 1, kMaxDatasetLen, makeSort},
        {{"dates", "Dates in a dozen human formats; the target is the ISO date (yyyy - mm - dd).", kLongestDate,
          TokenizerOptions{}},
         1, kShortestDate, kLongestDate, makeDate},
        {{"toy-en-fr", "A toy English to French grammar where adjectives follow their noun.", 15, TokenizerOptions{}},
         4, 2, kMaxDatasetLen, makeToyEnFr},
        {{"toy-en-zh", "A toy English to Chinese grammar where time and place move before the verb.", 15,
          wordTokens()},
         3, 2, kMaxDatasetLen, makeToyEnZh},
    };
    return v;
}

std::string validNames() {
    std::string out;
    for (const auto& s : specs()) out += (out.empty() ? "" : ", ") + s.info.name;
    return out;
}

}  // namespace

const std::vector<DatasetInfo>& builtinDatasets() {
    static const std::vector<DatasetInfo> v = [] {
        std::vector<DatasetInfo> out;
        for (const auto& s : specs()) out.push_back(s.info);
        return out;
    }();
    return v;
}

bool isBuiltinDataset(const std::string& name) { return findBuiltinDataset(name) != nullptr; }

const DatasetInfo* findBuiltinDataset(const std::string& name) {
    for (const auto& info : builtinDatasets())
        if (info.name == name) return &info;
    return nullptr;
}

ParallelCorpus generateDataset(const std::string& name, const DatasetOptions& options) {
    const DatasetSpec* spec = nullptr;
    for (const auto& s : specs())
        if (s.info.name == name) spec = &s;
    if (!spec) throw ConfigError("unknown dataset '" + name + "' (valid: " + validNames() + ")");

    if (options.size < 1 || options.size > kMaxDatasetSize)
        throw ConfigError("dataset size must be between 1 and " + std::to_string(kMaxDatasetSize) + ", got " +
                          std::to_string(options.size));
    if (options.maxLen < 0 || options.maxLen > kMaxDatasetLen)
        throw ConfigError("dataset max length must be between 1 and " + std::to_string(kMaxDatasetLen) + ", got " +
                          std::to_string(options.maxLen));
    if (options.minLen < 0 || options.minLen > kMaxDatasetLen)
        throw ConfigError("dataset min length must be between 1 and " + std::to_string(kMaxDatasetLen) + ", got " +
                          std::to_string(options.minLen));
    Range range{0, options.maxLen > 0 ? options.maxLen : spec->info.defaultMaxLen};
    range.minLen = options.minLen > 0 ? options.minLen : std::min(spec->defaultMinLen, range.maxLen);
    if (range.minLen > range.maxLen)
        throw ConfigError("dataset min length " + std::to_string(range.minLen) + " exceeds max length " +
                          std::to_string(range.maxLen));
    if (range.maxLen < spec->shortest || range.minLen > spec->longest)
        throw ConfigError(name + " sentences have " + std::to_string(spec->shortest) + " to " +
                          std::to_string(spec->longest) + " tokens; lengths " + std::to_string(range.minLen) +
                          " to " + std::to_string(range.maxLen) + " cannot be generated");

    Rng rng(options.seed);
    ParallelCorpus corpus;
    corpus.name = name;
    corpus.hasAlignments = true;
    corpus.pairs.reserve(options.size);
    for (std::size_t i = 0; i < options.size; ++i) corpus.pairs.push_back(spec->make(rng, range));
    return corpus;
}

}  // namespace attnlab
