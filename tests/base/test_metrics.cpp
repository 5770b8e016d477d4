#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "base/analysis/Metrics.h"

namespace {

using attnlab::AlignmentLink;
using attnlab::AttentionMap;
using attnlab::Tokens;
using Catch::Matchers::WithinAbs;

Tokens splitWords(const std::string& text) {
    std::istringstream in(text);
    Tokens out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

std::vector<Tokens> sentences(std::initializer_list<const char*> texts) {
    std::vector<Tokens> out;
    for (const char* t : texts) out.push_back(splitWords(t));
    return out;
}

TEST_CASE("BLEU of a corpus identical to its references is 100", "[metrics]") {
    auto corpus = sentences({"the cat sat on the mat", "a dog barks at the postman every morning"});
    CHECK_THAT(attnlab::corpusBleu(corpus, corpus), WithinAbs(100.0, 1e-9));
}

TEST_CASE("BLEU sums n-gram counts over the corpus and applies the brevity penalty", "[metrics]") {
    // hyp 1 "a b c d e" vs ref "a b c d f":
    //   1-grams 4/5 (e unmatched), 2-grams 3/4 (de), 3-grams 2/3 (cde), 4-grams 1/2 (bcde)
    // hyp 2 "x y z w" vs ref "x y z w v u": every n-gram matches: 4/4, 3/3, 2/2, 1/1
    // corpus: p1 = 8/9, p2 = 6/7, p3 = 4/5, p4 = 2/3; c = 9 < r = 11 -> BP = exp(1 - 11/9)
    // BLEU = 100 * exp(-2/9) * (8/9 * 6/7 * 4/5 * 2/3)^(1/4) = 63.93151102...
    auto hyps = sentences({"a b c d e", "x y z w"});
    auto refs = sentences({"a b c d f", "x y z w v u"});
    double expected = 100.0 * std::exp(-2.0 / 9.0) * std::pow(8.0 / 9 * 6.0 / 7 * 4.0 / 5 * 2.0 / 3, 0.25);
    CHECK_THAT(expected, WithinAbs(63.93151102, 1e-6));
    CHECK_THAT(attnlab::corpusBleu(hyps, refs), WithinAbs(expected, 1e-9));
}

TEST_CASE("BLEU smooths an order with no match like sacreBLEU's default 'exp'", "[metrics]") {
    // hyp "the cat sat on the mat" vs ref "the cat is on the mat":
    //   1-grams: the x2, cat, on, mat match, sat does not        -> 5/6
    //   2-grams: "the cat", "on the", "the mat" match             -> 3/5
    //   3-grams: "on the mat" matches                             -> 1/4
    //   4-grams: none of 3 match -> first zero order: 1/(2^1 * 3) -> 1/6
    // c = r = 6 -> BP = 1; BLEU = 100 * (5/6 * 3/5 * 1/4 * 1/6)^(1/4) = 100 * (1/48)^(1/4)
    double bleu = attnlab::corpusBleu(sentences({"the cat sat on the mat"}), sentences({"the cat is on the mat"}));
    CHECK_THAT(bleu, WithinAbs(100.0 * std::pow(1.0 / 48.0, 0.25), 1e-9));
    CHECK_THAT(bleu, WithinAbs(37.99178428, 1e-6));
}

TEST_CASE("BLEU clips repeated words and halves the smoothing per further zero order", "[metrics]") {
    // Papineni's example: 7 x "the" against "the cat is on the mat".
    //   1-grams: "the" x7 clipped to the reference's 2    -> 2/7
    //   2-grams: 6 x "the the", no match: 1/(2 * 6)         -> 1/12
    //   3-grams: 5, no match: 1/(4 * 5)                     -> 1/20
    //   4-grams: 4, no match: 1/(8 * 4)                     -> 1/32
    // c = 7 >= r = 6 -> BP = 1
    double bleu = attnlab::corpusBleu(sentences({"the the the the the the the"}),
                                      sentences({"the cat is on the mat"}));
    CHECK_THAT(bleu, WithinAbs(100.0 * std::pow(2.0 / 7 / 12 / 20 / 32, 0.25), 1e-9));
    CHECK_THAT(bleu, WithinAbs(7.80984984, 1e-6));
}

TEST_CASE("BLEU brevity penalty for a short but precise hypothesis", "[metrics]") {
    // hyp is the first 4 tokens of an 8-token reference: all precisions 1 (4/4, 3/3, 2/2, 1/1),
    // c = 4, r = 8 -> BP = exp(1 - 8/4) = exp(-1).
    double bleu = attnlab::corpusBleu(sentences({"one two three four"}),
                                      sentences({"one two three four five six seven eight"}));
    CHECK_THAT(bleu, WithinAbs(100.0 * std::exp(-1.0), 1e-9));
    // A longer hypothesis is not rewarded or penalized for length: BP = 1.
    CHECK_THAT(attnlab::corpusBleu(sentences({"one two three four five"}), sentences({"one two three four"})),
               WithinAbs(100.0 * std::pow(4.0 / 5 * 3.0 / 4 * 2.0 / 3 * 1.0 / 2, 0.25), 1e-9));
}

TEST_CASE("BLEU edge cases give 0 as sacreBLEU does", "[metrics]") {
    CHECK(attnlab::corpusBleu({}, {}) == 0.0);
    CHECK(attnlab::corpusBleu(sentences({""}), sentences({"a b c d"})) == 0.0);
    CHECK(attnlab::corpusBleu(sentences({"w x y z"}), sentences({"a b c d"})) == 0.0);
    // Perfect but shorter than 4 tokens everywhere: no 4-grams at all, sacreBLEU scores 0.
    CHECK(attnlab::corpusBleu(sentences({"a b c"}), sentences({"a b c"})) == 0.0);
    // One 4-token sentence is enough for the corpus to have 4-grams.
    CHECK_THAT(attnlab::corpusBleu(sentences({"a b c", "d e f g"}), sentences({"a b c", "d e f g"})),
               WithinAbs(100.0, 1e-9));
    CHECK_THROWS_AS(attnlab::corpusBleu(sentences({"a"}), {}), std::invalid_argument);
}

TEST_CASE("Attention entropy is the mean row entropy in nats", "[metrics]") {
    // Row 0 uniform over 2 -> ln 2; row 1 one-hot -> 0; row 2 uniform over 4 -> ln 4 = 2 ln 2.
    AttentionMap map{3, 4, {0.5f, 0.5f, 0, 0, 0, 1, 0, 0, 0.25f, 0.25f, 0.25f, 0.25f}};
    CHECK_THAT(attnlab::attentionEntropy(map), WithinAbs(std::log(2.0), 1e-6));
    CHECK(attnlab::attentionEntropy(AttentionMap{}) == 0.0);
    CHECK_THROWS_AS(attnlab::attentionEntropy(AttentionMap{2, 2, {1, 0, 0}}), std::invalid_argument);
}

// Three target rows (the last is </s>) over four source columns (the last is </s>).
AttentionMap alignmentMap() {
    return AttentionMap{3, 4,
                        {0.7f, 0.1f, 0.1f, 0.1f,    // row 0: argmax column 0
                         0.1f, 0.2f, 0.3f, 0.4f,    // row 1: argmax 3 (</s>), 2 among real columns
                         0.0f, 0.0f, 0.0f, 1.0f}};  // row 2: </s> row, ignored with rowLimit 2
}

TEST_CASE("Alignment error rate ignores </s> rows and columns", "[metrics]") {
    auto map = alignmentMap();
    // A = {(t0,s0), (t1,s2)}.
    SECTION("one of two links right") {
        // S = {(t0,s0), (t1,s1)}; (s3,t1) and (s2,t2) lie beyond the limits and are dropped.
        std::vector<AlignmentLink> gold{{0, 0}, {1, 1}, {3, 1}, {2, 2}};
        // |A∩S| = 1, |A| = 2, |S| = 2 -> 1 - 2/4
        CHECK_THAT(attnlab::alignmentErrorRate(map, gold, 2, 3), WithinAbs(0.5, 1e-12));
        CHECK_THAT(attnlab::alignmentAgreement(map, gold, 2, 3), WithinAbs(0.5, 1e-12));
    }
    SECTION("a target word with two gold sources") {
        // S = {(t0,s0), (t1,s1), (t1,s2)}: |A∩S| = 2 -> AER 1 - 4/5; both rows agree.
        std::vector<AlignmentLink> gold{{0, 0}, {1, 1}, {2, 1}};
        CHECK_THAT(attnlab::alignmentErrorRate(map, gold, 2, 3), WithinAbs(0.2, 1e-12));
        CHECK_THAT(attnlab::alignmentAgreement(map, gold, 2, 3), WithinAbs(1.0, 1e-12));
    }
    SECTION("perfect alignment, duplicates counted once") {
        std::vector<AlignmentLink> gold{{0, 0}, {2, 1}, {2, 1}};
        CHECK_THAT(attnlab::alignmentErrorRate(map, gold, 2, 3), WithinAbs(0.0, 1e-12));
    }
    SECTION("including the </s> column changes the argmax of row 1") {
        std::vector<AlignmentLink> gold{{0, 0}, {2, 1}};
        // A = {(t0,s0), (t1,s3)} -> 1 - 2/4
        CHECK_THAT(attnlab::alignmentErrorRate(map, gold, 2, 4), WithinAbs(0.5, 1e-12));
    }
    SECTION("rows without gold are skipped by agreement; none at all gives NaN") {
        std::vector<AlignmentLink> gold{{1, 1}};
        CHECK_THAT(attnlab::alignmentAgreement(map, gold, 2, 3), WithinAbs(0.0, 1e-12));
        CHECK(std::isnan(attnlab::alignmentAgreement(map, {}, 2, 3)));
        // AER with no gold: every predicted link is wrong.
        CHECK_THAT(attnlab::alignmentErrorRate(map, {}, 2, 3), WithinAbs(1.0, 1e-12));
        CHECK(std::isnan(attnlab::alignmentErrorRate(map, {}, 0, 3)));
    }
}

}  // namespace
