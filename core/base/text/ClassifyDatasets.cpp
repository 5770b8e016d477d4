// Built-in classification datasets. As in Datasets.cpp, every generator draws from
// std::mt19937_64 (whose output the standard fixes) through our own bounded-integer helper,
// never through std::uniform_int_distribution (implementation-defined), so a seed gives the
// same corpus with every standard library.
//
// Rationale conventions:
// - sentiment: the adjective that decides, plus its negator ("not", "never") when it has one:
//   "the plot was not good" -> {not, good}. In "A but B" only B's words: the clause after "but"
//   decides and always has the opposite polarity of the clause before it, so a model that reads
//   the first adjective is wrong. Intensifiers ("very"), verbs, "but" and filler are not part
//   of it. Texts have 6 to 20 words; filler (neutral phrases before and after) brings the
//   rationale to 10-20% of them (1 word in 6-10, 2 in 10-20; a long "but" sentence may have
//   less), 12% on average, so attention spread evenly would put ~0.12 on it.
// - topic: the one or two topic keywords; everything else (the sentence's frame) comes from one
//   neutral vocabulary shared by all topics, so nothing but the keywords tells the topics apart.
// - needle: the index of the one keyword among `length` noise words.
#include "ClassifyDatasets.h"

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/SeededRandom.h"

namespace attnlab {

namespace {

constexpr std::size_t kMaxClassifyDatasetSize = 1000000;

using Rng = SeededRandom;

// A text under construction: its words and which of them decide the label.
class TextBuilder {
public:
    void add(const std::string& word, bool deciding = false) {
        if (deciding) rationale_.push_back(static_cast<int>(words_.size()));
        words_.push_back(word);
    }
    // A phrase of several words ("on the whole"), none deciding.
    void addPhrase(const std::string& phrase) {
        std::size_t start = 0;
        while (start < phrase.size()) {
            std::size_t end = phrase.find(' ', start);
            if (end == std::string::npos) end = phrase.size();
            add(phrase.substr(start, end - start));
            start = end + 1;
        }
    }
    void append(const TextBuilder& other) {
        for (int r : other.rationale_) rationale_.push_back(r + static_cast<int>(words_.size()));
        words_.insert(words_.end(), other.words_.begin(), other.words_.end());
    }
    int size() const { return static_cast<int>(words_.size()); }
    int deciding() const { return static_cast<int>(rationale_.size()); }

    LabeledText finish(const std::string& label) const {
        LabeledText example;
        for (const auto& w : words_) {
            if (!example.text.empty()) example.text += ' ';
            example.text += w;
        }
        example.label = label;
        example.rationale = rationale_;
        std::sort(example.rationale.begin(), example.rationale.end());
        return example;
    }

private:
    std::vector<std::string> words_;
    std::vector<int> rationale_;
};

int phraseWordCount(const std::string& phrase) { return static_cast<int>(std::count(phrase.begin(), phrase.end(), ' ')) + 1; }

// The phrases of a list grouped by their number of words: byLength[n] holds the n-word ones.
std::vector<std::vector<std::string>> byLength(const std::vector<std::string>& phrases) {
    std::vector<std::vector<std::string>> out;
    for (const auto& p : phrases) {
        const auto n = static_cast<std::size_t>(phraseWordCount(p));
        if (out.size() <= n) out.resize(n + 1);
        out[n].push_back(p);
    }
    return out;
}

// ---------------------------------------------------------------- sentiment

const std::vector<std::string> kPositive = {"good",      "great",    "excellent", "wonderful",  "brilliant",
                                            "enjoyable", "superb",   "fantastic", "charming",   "moving",
                                            "clever",    "gripping", "memorable", "delightful", "beautiful",
                                            "impressive", "fresh"};
const std::vector<std::string> kNegative = {"bad",    "awful",  "terrible",     "boring",   "dull",
                                            "weak",   "poor",   "tedious",      "clumsy",   "bland",
                                            "messy",  "flat",   "disappointing", "forgettable", "predictable",
                                            "painful", "lifeless"};
// What a review talks about: the subject of "the X was ..." and the object of "i found the X ...".
const std::vector<std::string> kAspects = {"movie",    "film",     "plot",   "acting", "soundtrack", "ending",
                                           "script",   "dialogue", "story",  "cast",   "pacing",     "direction",
                                           "humour",   "villain",  "finale", "camera work", "lead performance",
                                           "second act", "opening scene"};
// What "it was a ... X" calls the whole film.
const std::vector<std::string> kGenres = {"film",  "movie", "comedy",  "thriller", "drama", "sequel",
                                          "debut", "story", "romance", "western",  "musical"};
const std::vector<std::string> kIntensifiers = {"very", "really", "quite", "truly", "so", "pretty", "rather"};
const std::vector<std::string> kNotIntensifiers = {"very", "really", "that", "particularly"};  // "not very good"
const std::vector<std::string> kArticleNotIntensifiers = {"very", "really", "particularly"};    // "not a very good film"
const std::vector<std::string> kCopulas = {"was", "is", "felt", "seemed"};
// Negated verb phrases; the word marked '*' is the negator (it decides with the adjective).
const std::vector<std::vector<std::string>> kNegatedCopulas = {
    {"was", "*not"}, {"is", "*not"}, {"did", "*not", "feel"}, {"did", "*not", "seem"},
    {"was", "*never"}, {"is", "*never"}, {"*never", "felt"}, {"*never", "seemed"}};
const std::vector<std::string> kPronouns = {"i", "we"};
// Neutral filler: no polarity, no negation of the adjective (the "no" of "no expectations"
// negates nothing, a distractor on purpose).
const std::vector<std::string> kLeadWords = {"honestly", "overall", "frankly", "personally", "admittedly", "ultimately"};
const std::vector<std::string> kPrePhrases = {
    "in short", "all told", "on balance",
    "to be honest", "on the whole", "all in all", "in my view", "if i am honest",
    "i have to say", "i must admit that", "after the first hour", "as far as i am concerned",
    "i saw it last week and", "we watched it on sunday and", "my friend picked this one and",
    "i saw it with my sister and", "after a long week at work", "we watched it on friday night and",
    "i went in with no expectations and", "as someone who watches a lot of films",
    "i bought a ticket on a whim and"};
const std::vector<std::string> kPostPhrases = {
    "for me", "to me", "this time", "at times", "in my opinion", "for a sequel", "the whole time",
    "if you ask me", "at least for me", "from start to finish", "for a first film", "on the big screen",
    "in the second half", "for most of the film", "compared to the first one", "by the standards of the genre",
    "for most of its running time"};

std::string article(const std::string& next) {
    return std::string("aeiou").find(next[0]) != std::string::npos ? "an" : "a";
}

const std::string& adjective(Rng& rng, bool positive) { return rng.pick(positive ? kPositive : kNegative); }

// One evaluative clause whose meaning is `positive`. A negated clause ("not", "never") uses an
// adjective of the other polarity. Its deciding words count for the rationale only if `deciding`.
TextBuilder clause(Rng& rng, bool positive, bool deciding, const std::string& aspect) {
    TextBuilder b;
    const bool negated = rng.percent(35);
    const std::string& adj = adjective(rng, negated ? !positive : positive);
    switch (rng.range(0, 5)) {
        case 0:
        case 1:
        case 2: {  // the plot was (not) (very) dull
            b.add("the");
            b.addPhrase(aspect);
            bool withNot = false;
            if (negated) {
                for (const auto& w : rng.pick(kNegatedCopulas)) {
                    if (w[0] == '*') withNot = w == "*not";
                    b.add(w[0] == '*' ? w.substr(1) : w, deciding && w[0] == '*');
                }
            } else {
                b.add(rng.pick(kCopulas));
            }
            if (rng.percent(30)) b.add(negated ? (withNot ? rng.pick(kNotIntensifiers) : "really") : rng.pick(kIntensifiers));
            b.add(adj, deciding);
            break;
        }
        case 3:
        case 4: {  // i (did not find | never found | found) the plot (very) dull
            b.add(rng.pick(kPronouns));
            if (!negated) {
                b.add("found");
            } else if (rng.percent(50)) {
                b.add("did");
                b.add("not", deciding);
                b.add("find");
            } else {
                b.add("never", deciding);
                b.add("found");
            }
            b.add("the");
            b.addPhrase(aspect);
            if (rng.percent(30)) b.add(negated ? "particularly" : rng.pick(kIntensifiers));
            b.add(adj, deciding);
            break;
        }
        default: {  // it was (not) a (very) dull thriller
            b.add("it");
            b.add(rng.percent(50) ? "was" : "is");
            if (negated) b.add("not", deciding);
            std::string intensifier;
            if (rng.percent(30)) intensifier = negated ? rng.pick(kArticleNotIntensifiers) : rng.pick(kIntensifiers);
            b.add(article(intensifier.empty() ? adj : intensifier));
            if (!intensifier.empty()) b.add(intensifier);
            b.add(adj, deciding);
            b.add(rng.pick(kGenres));
            break;
        }
    }
    return b;
}

LabeledText makeSentiment(Rng& rng, const std::string& label) {
    static const auto pre = byLength(kPrePhrases);
    static const auto post = byLength(kPostPhrases);
    const bool positive = label == "positive";

    TextBuilder core;
    const std::string& aspect = rng.pick(kAspects);
    if (rng.percent(35)) {  // contrast: A but B, B decides and disagrees with A
        std::string other = rng.pick(kAspects);
        while (other == aspect) other = rng.pick(kAspects);
        core.append(clause(rng, !positive, false, other));
        core.add("but");
        core.append(clause(rng, positive, true, aspect));
    } else {
        core.append(clause(rng, positive, true, aspect));
    }

    // Filler to a length at which the deciding words are 10-20% of the text (within 6..20 words).
    const int d = core.deciding();
    const int lo = std::max({6, 5 * d, core.size()});
    const int hi = std::max(lo, std::min(20, 10 * d));
    const int target = rng.range(lo, hi);
    const int filler = target - core.size();
    // Every split of the filler into a lead word (0-1), a phrase before (0 or 2-8 words) and one
    // after (0 or 2-6 words) that adds up; one of them at random.
    struct Plan {
        int lead, before, after;
    };
    std::vector<Plan> plans;
    for (int lead = 0; lead <= 1; ++lead)
        for (int before = 0; before < static_cast<int>(pre.size()); ++before) {
            if (before > 0 && pre[static_cast<std::size_t>(before)].empty()) continue;
            const int after = filler - lead - before;
            if (after < 0 || after >= static_cast<int>(post.size())) continue;
            if (after > 0 && post[static_cast<std::size_t>(after)].empty()) continue;
            plans.push_back({lead, before, after});
        }
    TextBuilder text;
    if (!plans.empty()) {  // empty only if the core alone is over-long, which the clauses cannot make
        const Plan plan = rng.pick(plans);
        if (plan.before > 0) text.addPhrase(rng.pick(pre[static_cast<std::size_t>(plan.before)]));
        if (plan.lead > 0) text.add(rng.pick(kLeadWords));
        text.append(core);
        if (plan.after > 0) text.addPhrase(rng.pick(post[static_cast<std::size_t>(plan.after)]));
    } else {
        text.append(core);
    }
    return text.finish(label);
}

// ---------------------------------------------------------------- topic

struct Topic {
    std::string label;
    std::vector<std::string> keywords;
};

const std::vector<Topic> kTopics = {
    {"food", {"recipe", "pasta", "bakery", "chef", "soup", "dessert", "kitchen", "spices", "noodles", "restaurant",
              "cheese", "omelette"}},
    {"music", {"guitar", "concert", "melody", "album", "drummer", "orchestra", "lyrics", "piano", "singer", "chorus",
               "violin", "symphony"}},
    {"science", {"experiment", "laboratory", "molecule", "telescope", "chemist", "hypothesis", "atoms", "microscope",
                 "genome", "astronomer", "fossil", "particle"}},
    {"sports", {"referee", "stadium", "coach", "league", "striker", "marathon", "tournament", "goalkeeper", "racket",
                "trophy", "championship", "match"}},
};
// The frame of a news-like sentence, shared by every topic: none of these words says which topic
// a text is about. [opener] subject verb "the" K [joiner "the" K2] [tail].
const std::vector<std::string> kOpeners = {"last week", "on monday", "this morning", "yesterday", "after the holiday",
                                           "later that day", "once again", "for the first time", "by the afternoon",
                                           "in the evening", "at the weekend", "according to my sister"};
const std::vector<std::string> kSubjects = {"the local paper", "a new report", "my neighbour", "everyone in our street",
                                            "the whole town", "a friend of mine", "the evening news", "our teacher",
                                            "a short article", "people at work", "the radio host", "my cousin",
                                            "nobody", "the blog"};
const std::vector<std::string> kVerbs = {"talked about", "wrote about", "was all about", "kept asking about",
                                         "had a long piece on", "could not stop talking about", "mentioned",
                                         "posted a photo of", "said something about", "asked us about",
                                         "complained about", "praised"};
const std::vector<std::string> kJoiners = {"and", "and also", "as well as", "and then", "and later"};
const std::vector<std::string> kTails = {"again", "all day", "at length", "for an hour", "on the front page",
                                         "in the morning", "with great interest", "before lunch", "more than once",
                                         "as usual", "for some reason", "without a word of warning"};

LabeledText makeTopic(Rng& rng, const Topic& topic) {
    // Drawn until the length is 8 to 16 words; the rationale is 1-2 of them.
    for (;;) {
        TextBuilder b;
        if (rng.percent(60)) b.addPhrase(rng.pick(kOpeners));
        b.addPhrase(rng.pick(kSubjects));
        b.addPhrase(rng.pick(kVerbs));
        b.add("the");
        const std::string& first = rng.pick(topic.keywords);
        b.add(first, true);
        if (rng.percent(50)) {
            std::string second = rng.pick(topic.keywords);
            while (second == first) second = rng.pick(topic.keywords);
            b.addPhrase(rng.pick(kJoiners));
            b.add("the");
            b.add(second, true);
        }
        if (rng.percent(60)) b.addPhrase(rng.pick(kTails));
        if (b.size() >= 8 && b.size() <= 16) return b.finish(topic.label);
    }
}

// ---------------------------------------------------------------- needle

struct NeedleClass {
    std::string label;
    std::vector<std::string> keywords;
};

const std::vector<NeedleClass> kNeedleClasses = {
    {"blue", {"blue", "azure"}}, {"green", {"green", "emerald"}}, {"red", {"red", "crimson"}}, {"yellow", {"yellow", "golden"}}};
const std::vector<std::string> kNoise = {"stone", "river", "cloud", "paper", "window", "table", "chair", "glass",
                                         "rope",  "sand",  "leaf",  "door",  "wall",   "lamp",  "coin",  "shoe",
                                         "box",   "road",  "hill",  "wind",  "rain",   "salt",  "bell",  "nail",
                                         "cup",   "pen",   "bag",   "brick", "spoon",  "thread"};

LabeledText makeNeedle(Rng& rng, const NeedleClass& c, int length) {
    const int at = static_cast<int>(rng.below(static_cast<std::uint64_t>(length)));
    TextBuilder b;
    for (int i = 0; i < length; ++i) {
        if (i == at)
            b.add(rng.pick(c.keywords), true);
        else
            b.add(rng.pick(kNoise));
    }
    return b.finish(c.label);
}

// ---------------------------------------------------------------- registry

std::vector<std::string> sentimentLabels() { return {"negative", "positive"}; }
std::vector<std::string> topicLabels() {
    std::vector<std::string> out;
    for (const auto& t : kTopics) out.push_back(t.label);
    return out;
}
std::vector<std::string> needleLabels() {
    std::vector<std::string> out;
    for (const auto& c : kNeedleClasses) out.push_back(c.label);
    return out;
}

std::string validClassifyDatasetNames() {
    std::string out;
    for (const auto& d : classificationDatasets()) out += (out.empty() ? "" : ", ") + d.name;
    return out;
}

}  // namespace

const std::vector<ClassificationDatasetInfo>& classificationDatasets() {
    static const std::vector<ClassificationDatasetInfo> v = {
        {"sentiment",
         "Movie reviews, positive or negative: \"not\" and \"never\" flip an adjective, and after \"but\" the "
         "second clause decides.",
         0},
        {"topic", "Short news-like sentences about food, music, science or sports, told apart by one or two keywords "
                  "among neutral words.",
         0},
        {"needle", "A run of noise words with one colour word anywhere in it; the colour is the class (length 5-65536).",
         kDefaultNeedleLength},
    };
    return v;
}

const ClassificationDatasetInfo* findClassificationDataset(const std::string& name) {
    for (const auto& info : classificationDatasets())
        if (info.name == name) return &info;
    return nullptr;
}

ClassificationCorpus makeClassificationDataset(const std::string& name, std::size_t size, std::uint64_t seed,
                                               int length) {
    const ClassificationDatasetInfo* info = findClassificationDataset(name);
    if (!info) throw ConfigError("unknown classification dataset '" + name + "' (valid: " + validClassifyDatasetNames() + ")");
    if (size < 2 || size > kMaxClassifyDatasetSize)
        throw ConfigError("dataset size must be between 2 and " + std::to_string(kMaxClassifyDatasetSize) + ", got " +
                          std::to_string(size));
    if (info->defaultLength == 0 && length != 0)
        throw ConfigError(name + " has no length setting (its texts have their own lengths), got " +
                          std::to_string(length));
    if (length != 0 && (length < kMinNeedleLength || length > kMaxNeedleLength))
        throw ConfigError(name + " length must be between " + std::to_string(kMinNeedleLength) + " and " +
                          std::to_string(kMaxNeedleLength) + " words, got " + std::to_string(length));
    if (length == 0) length = info->defaultLength;
    if (static_cast<std::size_t>(length) * size > kMaxNeedleWords)
        throw ConfigError(name + " of " + std::to_string(size) + " texts of " + std::to_string(length) +
                          " words holds more than " + std::to_string(kMaxNeedleWords) + " words");

    const std::vector<std::string> labels =
        name == "sentiment" ? sentimentLabels() : name == "topic" ? topicLabels() : needleLabels();
    Rng rng(seed);
    ClassificationCorpus corpus;
    corpus.name = name;
    corpus.hasRationales = true;
    corpus.examples.reserve(size);
    std::vector<std::size_t> deck;  // class indices, each once per round
    for (std::size_t i = 0; i < size; ++i) {
        if (deck.empty()) {
            for (std::size_t k = labels.size(); k > 0; --k) deck.push_back(k - 1);
            rng.shuffle(deck);
        }
        const std::size_t k = deck.back();
        deck.pop_back();
        if (name == "sentiment")
            corpus.examples.push_back(makeSentiment(rng, labels[k]));
        else if (name == "topic")
            corpus.examples.push_back(makeTopic(rng, kTopics[k]));
        else
            corpus.examples.push_back(makeNeedle(rng, kNeedleClasses[k], length));
    }
    corpus.labels = distinctLabels(corpus.examples);
    return corpus;
}

}  // namespace attnlab
