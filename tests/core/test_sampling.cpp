// Sampling (DecodeOptions::sample): the temperature / top-k / top-p arithmetic on explicit numbers
// (core/base/translation/Sampling.h), and translate's sampling decoder on tiny GRU and Transformer models:
// temperature 1e-4 and top-k 1 give greedy exactly, one seed repeats exactly (at any thread count),
// other seeds differ, and each step's record (candidates, cut, draw) is consistent.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/InputError.h"
#include "base/translation/Sampling.h"
#include "engine/translation/TranslationTrainer.h"

#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;

namespace {

std::vector<std::size_t> keptTokens(const SamplingCut& cut) {
    return {cut.order.begin(), cut.order.begin() + static_cast<std::ptrdiff_t>(cut.kept)};
}

// Two tiny models per architecture, trained once for the whole file: one that has learnt the
// reverse task (peaked distributions, several steps) and an untrained one (spread-out
// distributions).
struct Models {
    std::unique_ptr<TranslationTrainer> gru, transformer, gruUntrained, transformerUntrained;
};

const Models& models() {
    static const Models m = [] {
        Models built;
        built.gru = test::trainedOnReverse(test::tinyGru(AttentionKind::Additive), 120, 2);
        built.transformer = test::trainedOnReverse(test::tinyTransformer(2, 2), 120, 2);
        built.gruUntrained = test::trainedOnReverse(test::tinyGru(AttentionKind::Additive), 120, 0);
        built.transformerUntrained = test::trainedOnReverse(test::tinyTransformer(2, 2), 120, 0);
        return built;
    }();
    return m;
}

struct Named {
    std::string name;
    const Seq2SeqModel* model;
};

std::vector<Named> trained() {
    return {{"gru", &models().gru->model()}, {"transformer", &models().transformer->model()}};
}
std::vector<Named> untrained() {
    return {{"gru untrained", &models().gruUntrained->model()},
            {"transformer untrained", &models().transformerUntrained->model()}};
}

const std::vector<std::string> kSentences{"a b c d", "f g h", "b c d e f", "e"};

DecodeOptions sampling(std::uint64_t seed) {
    DecodeOptions o;
    o.sample = true;
    o.seed = seed;
    o.maxOutput = 12;
    return o;
}

// The same tokens, score and attention, bit for bit.
void requireSame(const Translation& a, const Translation& b) {
    REQUIRE(a.outputTokens == b.outputTokens);
    CHECK(a.logProbability == b.logProbability);
    REQUIRE(a.attention.size() == b.attention.size());
    for (const auto& [kind, layers] : a.attention) {
        INFO(kind);
        REQUIRE(b.attention.count(kind) == 1);
        const LayeredAttention& other = b.attention.at(kind);
        REQUIRE(layers.size() == other.size());
        for (std::size_t l = 0; l < layers.size(); ++l) {
            REQUIRE(layers[l].size() == other[l].size());
            for (std::size_t h = 0; h < layers[l].size(); ++h) {
                CHECK(layers[l][h].rows == other[l][h].rows);
                CHECK(layers[l][h].cols == other[l][h].cols);
                CHECK(layers[l][h].weights == other[l][h].weights);
            }
        }
    }
}

}  // namespace

// ---- the arithmetic, on explicit numbers ------------------------------------------------------------

TEST_CASE("temperature divides the logits before the softmax", "[sampling]") {
    const std::vector<double> logits{0.0, std::log(2.0), std::log(3.0)};
    const auto p1 = temperatureSoftmax(logits, 1.0);  // 1 : 2 : 3
    CHECK_THAT(p1[0], WithinAbs(1.0 / 6, 1e-12));
    CHECK_THAT(p1[1], WithinAbs(2.0 / 6, 1e-12));
    CHECK_THAT(p1[2], WithinAbs(3.0 / 6, 1e-12));
    const auto half = temperatureSoftmax(logits, 0.5);  // squared: 1 : 4 : 9
    CHECK_THAT(half[0], WithinAbs(1.0 / 14, 1e-12));
    CHECK_THAT(half[1], WithinAbs(4.0 / 14, 1e-12));
    CHECK_THAT(half[2], WithinAbs(9.0 / 14, 1e-12));
    // Log-probabilities give the same (the softmax drops the constant), and a large shift is stable.
    const auto shifted = temperatureSoftmax({-1000.0, -1000.0 + std::log(2.0), -1000.0 + std::log(3.0)}, 1.0);
    CHECK_THAT(shifted[2], WithinAbs(0.5, 1e-12));
    // Near 0 all the mass goes to the largest.
    const auto cold = temperatureSoftmax({-1.0, -0.9, -3.0}, 1e-4);
    CHECK(cold[1] == 1.0);
    CHECK(cold[0] == 0.0);
}

TEST_CASE("top-p keeps the smallest set whose probability reaches p; top-k the k most probable", "[sampling]") {
    // Ranked: token 1 (0.4), token 3 (0.3), token 2 (0.2), token 0 (0.1).
    const std::vector<double> p{0.1, 0.4, 0.2, 0.3};
    const std::vector<std::size_t> ranked{1, 3, 2, 0};
    {
        const SamplingCut all = cutDistribution(p, 0, 1.0);
        CHECK(all.order == ranked);
        CHECK(all.kept == 4);
        CHECK_THAT(all.keptMass, WithinAbs(1.0, 1e-12));
    }
    // By hand: cumulative 0.4, 0.7, 0.9, 1.0.
    CHECK(keptTokens(cutDistribution(p, 0, 0.3)) == std::vector<std::size_t>{1});        // 0.4 >= 0.3
    CHECK(keptTokens(cutDistribution(p, 0, 0.4)) == std::vector<std::size_t>{1});        // reaches exactly
    CHECK(keptTokens(cutDistribution(p, 0, 0.6)) == std::vector<std::size_t>{1, 3});     // 0.7
    CHECK(keptTokens(cutDistribution(p, 0, 0.7)) == std::vector<std::size_t>{1, 3});     // reaches exactly
    CHECK(keptTokens(cutDistribution(p, 0, 0.71)) == std::vector<std::size_t>{1, 3, 2});  // 0.9
    CHECK(keptTokens(cutDistribution(p, 0, 0.95)) == std::vector<std::size_t>{1, 3, 2, 0});
    CHECK_THAT(cutDistribution(p, 0, 0.6).keptMass, WithinAbs(0.7, 1e-12));
    CHECK(cutDistribution(p, 0, 1e-6).kept == 1);  // never nothing

    // top-k alone, and top-k more than there are.
    CHECK(keptTokens(cutDistribution(p, 1, 1.0)) == std::vector<std::size_t>{1});
    CHECK(keptTokens(cutDistribution(p, 2, 1.0)) == std::vector<std::size_t>{1, 3});
    CHECK(keptTokens(cutDistribution(p, 10, 1.0)) == ranked);

    // top-k, then top-p over the top-k set renormalised: top 3 = 0.4, 0.3, 0.2 of 0.9, i.e.
    // cumulative 4/9 = 0.444, 7/9 = 0.778, 1.
    CHECK(keptTokens(cutDistribution(p, 3, 0.75)) == std::vector<std::size_t>{1, 3});
    CHECK(keptTokens(cutDistribution(p, 3, 0.78)) == std::vector<std::size_t>{1, 3, 2});
    CHECK(keptTokens(cutDistribution(p, 3, 0.44)) == std::vector<std::size_t>{1});
    CHECK(keptTokens(cutDistribution(p, 3, 0.45)) == std::vector<std::size_t>{1, 3});

    // Ties rank the lower id first; tokens of probability 0 are not kept at p = 1.
    const std::vector<double> tied{0.25, 0.5, 0.25, 0.0};
    const SamplingCut t = cutDistribution(tied, 0, 1.0);
    CHECK(t.order == std::vector<std::size_t>{1, 0, 2, 3});
    CHECK(t.kept == 3);
    CHECK(keptTokens(cutDistribution(tied, 2, 1.0)) == std::vector<std::size_t>{1, 0});
}

TEST_CASE("a draw picks each kept token with its renormalised probability", "[sampling]") {
    const std::vector<double> p{0.1, 0.4, 0.2, 0.3};
    const SamplingCut cut = cutDistribution(p, 0, 0.6);  // tokens 1 and 3, mass 0.7
    // [0, 4/7) -> token 1, [4/7, 1) -> token 3; never a cut token.
    CHECK(drawFromCut(cut, p, 0.0) == 1);
    CHECK(drawFromCut(cut, p, 0.57) == 1);
    CHECK(drawFromCut(cut, p, 0.58) == 3);
    CHECK(drawFromCut(cut, p, std::nextafter(1.0, 0.0)) == 3);
    // Counting many draws: the shares are 4/7 and 3/7.
    std::mt19937_64 rng(5);
    int ones = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const double u = unitDraw(rng);
        REQUIRE(u >= 0.0);
        REQUIRE(u < 1.0);
        const std::size_t token = drawFromCut(cut, p, u);
        REQUIRE((token == 1 || token == 3));
        ones += token == 1;
    }
    CHECK_THAT(static_cast<double>(ones) / n, WithinAbs(4.0 / 7, 0.015));
}

// ---- translate with sampling --------------------------------------------------------------------------

TEST_CASE("sampling at temperature 1e-4 or with top-k 1 is greedy: tokens, score and attention",
          "[sampling]") {
    for (const auto& [name, model] : trained()) {
        for (const std::string& sentence : kSentences) {
            INFO(name << ", \"" << sentence << "\"");
            DecodeOptions greedyOptions;
            greedyOptions.maxOutput = 12;
            const Translation greedy = model->translate(sentence, greedyOptions);
            REQUIRE(greedy.steps.empty());  // only sampling records steps
            for (std::uint64_t seed : {0u, 1u, 2u}) {
                INFO("seed " << seed);
                DecodeOptions cold = sampling(seed);
                cold.temperature = 1e-4;
                const Translation coldSample = model->translate(sentence, cold);
                requireSame(coldSample, greedy);
                DecodeOptions top1 = sampling(seed);
                top1.topK = 1;
                const Translation top1Sample = model->translate(sentence, top1);
                requireSame(top1Sample, greedy);
                for (const DecodingStep& step : top1Sample.steps) {
                    CHECK(step.keptCount == 1);
                    REQUIRE(!step.candidates.empty());
                    CHECK(step.candidates[0].kept);
                    CHECK(step.chosen == step.candidates[0].token);
                }
            }
        }
    }
    // An untrained model too (flat distributions, no early </s>): top-k 1 is still greedy.
    for (const auto& [name, model] : untrained()) {
        INFO(name);
        DecodeOptions greedyOptions;
        greedyOptions.maxOutput = 12;
        DecodeOptions top1 = sampling(9);
        top1.topK = 1;
        requireSame(model->translate("a b c", top1), model->translate("a b c", greedyOptions));
    }
}

TEST_CASE("the same seed gives the same sample, at any thread count; other seeds differ", "[sampling]") {
    for (const auto& [name, model] : untrained()) {
        INFO(name);
        const int threads = torch::get_num_threads();
        std::set<std::vector<std::string>> distinct;
        for (std::uint64_t seed = 0; seed < 8; ++seed) {
            INFO("seed " << seed);
            torch::set_num_threads(1);
            const Translation a = model->translate("a b c d", sampling(seed));
            torch::set_num_threads(2);
            const Translation b = model->translate("a b c d", sampling(seed));
            torch::set_num_threads(threads);
            requireSame(a, b);
            REQUIRE(a.steps.size() == b.steps.size());
            for (std::size_t i = 0; i < a.steps.size(); ++i) {
                CHECK(a.steps[i].chosen == b.steps[i].chosen);
                CHECK(a.steps[i].chosenProbability == b.steps[i].chosenProbability);
            }
            distinct.insert(a.outputTokens);
        }
        // Spread-out probabilities over the vocabulary: eight seeds draw several different outputs.
        CHECK(distinct.size() >= 4);
    }
}

TEST_CASE("each sampled step records its distribution, the cut and the draw", "[sampling]") {
    for (const auto& group : {trained(), untrained()}) {
        for (const auto& [name, model] : group) {
            const auto vocabulary = static_cast<int>(model->targetVocabulary().size());
            for (int topK : {0, 5}) {
                for (double topP : {1.0, 0.9, 0.5}) {
                    for (double temperature : {0.7, 1.0, 1.5}) {
                        INFO(name << ", top-k " << topK << ", top-p " << topP << ", temperature " << temperature);
                        DecodeOptions o = sampling(11);
                        o.topK = topK;
                        o.topP = topP;
                        o.temperature = temperature;
                        o.candidates = vocabulary;  // the whole distribution
                        const Translation t = model->translate("b c d e", o);
                        // One step per output token, plus the one that drew </s> when there was one.
                        const bool ended = !t.steps.empty() && t.steps.back().chosen == "</s>";
                        REQUIRE(t.steps.size() == t.outputTokens.size() + (ended ? 1 : 0));
                        CHECK((ended || t.outputTokens.size() == 12));
                        if (t.outputTokens.empty()) CHECK(t.attention.empty());  // </s> at once: no rows
                        else
                            REQUIRE(t.attention.at(MapKind::Cross)[0][0].rows ==
                                    static_cast<int>(t.outputTokens.size()));
                        for (std::size_t i = 0; i < t.steps.size(); ++i) {
                            const DecodingStep& step = t.steps[i];
                            INFO("step " << i);
                            if (i < t.outputTokens.size()) CHECK(step.chosen == t.outputTokens[i]);
                            REQUIRE(static_cast<int>(step.candidates.size()) == vocabulary);
                            double total = 0, kept = 0, lastKept = 0;
                            bool chosenKept = false;
                            for (std::size_t c = 0; c < step.candidates.size(); ++c) {
                                const TokenCandidate& candidate = step.candidates[c];
                                total += candidate.probability;
                                if (c > 0) CHECK(candidate.probability <= step.candidates[c - 1].probability);
                                // The kept ones first, then the cut ones.
                                CHECK(candidate.kept == (static_cast<int>(c) < step.keptCount));
                                if (candidate.kept) {
                                    kept += candidate.probability;
                                    lastKept = candidate.probability;
                                }
                                if (candidate.token == step.chosen && candidate.kept) {
                                    chosenKept = true;
                                    CHECK(candidate.probability == step.chosenProbability);
                                }
                            }
                            CHECK(chosenKept);
                            CHECK_THAT(total, WithinAbs(1.0, 1e-5));
                            CHECK_THAT(kept, WithinAbs(step.keptMass, 1e-5));
                            // Renormalised over the kept set, the probabilities sum to 1.
                            double renormalised = 0;
                            for (const TokenCandidate& candidate : step.candidates)
                                if (candidate.kept) renormalised += candidate.probability / step.keptMass;
                            CHECK_THAT(renormalised, WithinAbs(1.0, 1e-5));
                            if (topK > 0) CHECK(step.keptCount <= topK);
                            // The smallest set reaching p (of the top-k set when both cut).
                            double topKMass = 0;
                            for (int c = 0; c < (topK > 0 ? std::min(topK, vocabulary) : vocabulary); ++c)
                                topKMass += step.candidates[static_cast<std::size_t>(c)].probability;
                            CHECK(kept / topKMass >= topP - 1e-5);
                            CHECK((kept - lastKept) / topKMass < topP + 1e-5);
                        }
                    }
                }
            }
        }
    }
    // The score is the model's log-probability of the output and its </s> at temperature 1,
    // whatever the temperature sampled at: a sample that equals greedy has greedy's score.
    const Seq2SeqModel& model = models().gru->model();
    DecodeOptions greedyOptions;
    greedyOptions.maxOutput = 12;
    const Translation greedy = model.translate("b c d e", greedyOptions);
    DecodeOptions warm = sampling(0);
    warm.topK = 1;
    warm.temperature = 3.0;
    CHECK(model.translate("b c d e", warm).logProbability == greedy.logProbability);
}

TEST_CASE("sampling options out of range are ConfigErrors naming the flag", "[sampling]") {
    const Seq2SeqModel& model = models().gru->model();
    auto message = [&](const DecodeOptions& o) -> std::string {
        try {
            model.translate("a b", o);
        } catch (const ConfigError& e) {
            return e.what();
        }
        return "";
    };
    DecodeOptions o = sampling(0);
    for (double t : {0.0, -1.0, std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        o.temperature = t;
        CHECK_THAT(message(o), Contains("--temperature must be above 0"));
    }
    o = sampling(0);
    o.topK = -1;
    CHECK_THAT(message(o), Contains("--top-k must be at least 0"));
    o = sampling(0);
    for (double p : {0.0, -0.5, 1.5}) {
        o.topP = p;
        CHECK_THAT(message(o), Contains("--top-p must be above 0 and at most 1"));
    }
    o = sampling(0);
    o.beam = 2;
    CHECK_THAT(message(o), Contains("--sample cannot be combined with --beam 2"));
    o = sampling(0);
    o.topP = 1.0;
    o.topK = 0;
    o.temperature = 1e-4;
    CHECK(message(o).empty());
    CHECK_NOTHROW(checkDecodeOptions(o));
    // Not sampling: the sampling fields are still checked (a GUI shows them beside greedy).
    DecodeOptions greedy;
    greedy.topP = 2;
    CHECK_THROWS_AS(checkDecodeOptions(greedy), ConfigError);
}

// ---- the decoding lab's records: the key/value cache and the beam tree ------------------------------

TEST_CASE("a sampled Transformer translation carries its decoder's key/value cache, one row per step",
          "[sampling][kv-cache]") {
    for (const Seq2SeqModel* model : {&models().transformer->model(), &models().transformerUntrained->model()}) {
        const ModelConfig& config = model->config();
        for (std::uint64_t seed : {0u, 3u}) {
            INFO("seed " << seed);
            DecodeOptions options = sampling(seed);
            options.captureCache = true;
            const Translation full = model->translate("b c d e f", options);
            const KeyValueCache& cache = full.cache;
            REQUIRE(!full.steps.empty());
            CHECK(cache.layers == config.layers);
            CHECK(cache.heads == config.heads);
            CHECK(cache.headDim == config.hidden / config.heads);
            // Step i's input is cached as row i: "<s>", then each token drawn (the step that drew
            // </s> had the last output as its input).
            REQUIRE(cache.rows() == static_cast<int>(full.steps.size()));
            CHECK(cache.tokens[0] == "<s>");
            for (int i = 1; i < cache.rows(); ++i) CHECK(cache.tokens[i] == full.steps[i - 1].chosen);
            const std::size_t cells = static_cast<std::size_t>(cache.layers) * cache.heads * cache.rows() * cache.headDim;
            REQUIRE(cache.keys.size() == cells);
            REQUIRE(cache.values.size() == cells);
            // A row, once written, never changes: stopping after two steps caches the same first rows.
            if (cache.rows() > 2) {
                DecodeOptions shorter = options;
                shorter.maxOutput = 2;
                const KeyValueCache early = model->translate("b c d e f", shorter).cache;
                REQUIRE(early.rows() == 2);
                for (int l = 0; l < cache.layers; ++l)
                    for (int h = 0; h < cache.heads; ++h)
                        for (int r = 0; r < 2; ++r)
                            for (int c = 0; c < cache.headDim; ++c) {
                                CHECK(early.key(l, h, r, c) == cache.key(l, h, r, c));
                                CHECK(early.value(l, h, r, c) == cache.value(l, h, r, c));
                            }
            }
            // Without the option there is no cache.
            CHECK(model->translate("b c d e f", sampling(seed)).cache.empty());
        }
    }
    // A GRU has no key/value cache: one hidden state carries the prefix.
    DecodeOptions options = sampling(1);
    options.captureCache = true;
    CHECK(models().gru->model().translate("b c d", options).cache.empty());
}

TEST_CASE("beam search records every hypothesis it kept, and the marked path is the translation",
          "[sampling][beam-tree]") {
    for (const auto& group : {trained(), untrained()}) {
        for (const auto& [name, model] : group) {
            for (int beam : {1, 3}) {
                for (const std::string& sentence : kSentences) {
                    INFO(name << ", beam " << beam << ", \"" << sentence << "\"");
                    DecodeOptions options;
                    options.beam = beam;
                    options.maxOutput = 12;
                    options.recordBeam = true;
                    const Translation t = model->translate(sentence, options);
                    const std::vector<BeamNode>& tree = t.beamTree;
                    REQUIRE(!tree.empty());
                    std::map<int, int> perStep;
                    std::vector<const BeamNode*> bestPath;
                    for (std::size_t i = 0; i < tree.size(); ++i) {
                        const BeamNode& node = tree[i];
                        ++perStep[node.step];
                        if (node.step == 0) {
                            CHECK(node.parent == -1);
                            CHECK(std::exp(node.score) == Approx(node.tokenProbability).epsilon(1e-4));
                        } else {
                            REQUIRE(node.parent >= 0);
                            REQUIRE(node.parent < static_cast<int>(i));
                            const BeamNode& parent = tree[static_cast<std::size_t>(node.parent)];
                            CHECK(parent.step == node.step - 1);
                            CHECK_FALSE(parent.finished);
                            // The hypothesis' score is its prefix's plus the new token's log-probability.
                            CHECK(node.score == Approx(parent.score + std::log(node.tokenProbability)).margin(1e-4));
                        }
                        CHECK(node.finished == (node.token == "</s>"));
                        // Its attention over the source is a distribution.
                        REQUIRE(node.attention.size() == t.sourceTokens.size());
                        double sum = 0.0;
                        for (float w : node.attention) sum += w;
                        CHECK(sum == Approx(1.0).epsilon(1e-4));
                        if (node.best) bestPath.push_back(&node);
                    }
                    for (const auto& [step, count] : perStep) CHECK(count <= beam);
                    // The marked nodes are one path from the first step, spelling the translation.
                    REQUIRE(!bestPath.empty());
                    std::vector<std::string> spelt;
                    for (std::size_t i = 0; i < bestPath.size(); ++i) {
                        CHECK(bestPath[i]->step == static_cast<int>(i));
                        if (i > 0) CHECK(&tree[static_cast<std::size_t>(bestPath[i]->parent)] == bestPath[i - 1]);
                        if (!bestPath[i]->finished) spelt.push_back(bestPath[i]->token);
                    }
                    CHECK(spelt == t.outputTokens);
                    CHECK(bestPath.back()->score == Approx(t.logProbability).margin(1e-5));
                    // Recording changes nothing of the translation.
                    options.recordBeam = false;
                    const Translation plain = model->translate(sentence, options);
                    CHECK(plain.beamTree.empty());
                    requireSame(plain, t);
                }
            }
        }
    }
}
