// The fast decoding path (incremental steps with key/value caches, attention captured
// while decoding) against the full recompute it replaces: for every architecture and
// attention kind, stepping through a sequence gives forward's log-probabilities and
// attention, and translate (greedy and beam) gives the tokens, score and attention of a
// beam search that reruns forward over each whole prefix.
#include <torch/torch.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "base/translation/Datasets.h"
#include "engine/detail/ModelAccess.h"
#include "engine/translation/TranslationTrainer.h"

#include "TinyModels.h"

using namespace attnlab;
using Catch::Matchers::WithinAbs;
using torch::Tensor;

namespace {

struct Case {
    std::string name;
    ModelConfig config;
};

std::vector<Case> everyArchitecture() {
    std::vector<Case> cases;
    for (auto kind : {AttentionKind::None, AttentionKind::Dot, AttentionKind::ScaledDot, AttentionKind::General,
                      AttentionKind::Additive, AttentionKind::LocalM, AttentionKind::LocalP}) {
        ModelConfig c = test::tinyGru(kind);
        c.localWindow = 2;
        c.bidirectional = false;
        c.query = QueryOrder::Before;
        cases.push_back({"gru " + toString(kind), c});
        c.query = QueryOrder::After;  // Luong's order: the GRU first, then attention, output from [s; c]
        cases.push_back({"gru " + toString(kind) + " query after", c});
    }
    ModelConfig deep = test::tinyGru(AttentionKind::Additive);  // two layers, bidirectional encoder
    deep.layers = 2;
    deep.bidirectional = true;
    deep.query = QueryOrder::Before;
    cases.push_back({"gru additive 2 layers bidirectional", deep});
    deep.query = QueryOrder::After;
    cases.push_back({"gru additive 2 layers bidirectional query after", deep});
    ModelConfig tr = test::tinyTransformer(2, 4);
    cases.push_back({"transformer", tr});
    return cases;
}

// A model that has learnt something, so that decoding runs for several steps (trained),
// or a fresh one, whose beams swap places often (untrained).
std::unique_ptr<TranslationTrainer> trainedOn(const ModelConfig& config, bool train = true) {
    return test::trainedOnReverse(config, 120, train ? 2 : 0);
}

void requireClose(const Tensor& a, const Tensor& b, double tolerance) {
    REQUIRE(a.sizes() == b.sizes());
    const double diff = (a - b).abs().max().item<double>();
    INFO("max difference " << diff);
    CHECK(diff <= tolerance);
}

// Beam search as before the fast path: every step reruns forward over each hypothesis'
// whole prefix (the reference the incremental steps must reproduce).
std::vector<int64_t> fullRecomputeBeam(nn::Seq2SeqNet& net, const Tensor& src, const Tensor& srcLen, int beam,
                                       int64_t maxSteps, double* logProbability) {
    struct Hypothesis {
        std::vector<int64_t> tokens;
        float score = 0;
    };
    std::vector<Hypothesis> alive{Hypothesis{}}, finished;
    auto normalized = [](const Hypothesis& h) { return h.score / static_cast<double>(h.tokens.size() + 1); };
    for (int64_t t = 0; t < maxSteps && !alive.empty(); ++t) {
        struct Candidate {
            float score;
            int64_t row, token;
        };
        std::vector<Candidate> candidates;
        for (std::size_t row = 0; row < alive.size(); ++row) {
            std::vector<int64_t> in{Vocabulary::kBos};
            in.insert(in.end(), alive[row].tokens.begin(), alive[row].tokens.end());
            Tensor logits = net.forward(src, srcLen, torch::tensor(in, torch::kLong).unsqueeze(0), nullptr, 1.0);
            Tensor logp = torch::log_softmax(logits[0][logits.size(1) - 1], 0);
            auto acc = logp.accessor<float, 1>();
            for (int64_t v = 0; v < logp.size(0); ++v)
                candidates.push_back({alive[row].score + acc[v], static_cast<int64_t>(row), v});
        }
        std::stable_sort(candidates.begin(), candidates.end(),
                         [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
        candidates.resize(std::min<std::size_t>(static_cast<std::size_t>(beam), candidates.size()));
        std::vector<Hypothesis> next;
        for (const auto& c : candidates) {
            Hypothesis h{alive[c.row].tokens, c.score};
            if (c.token == Vocabulary::kEos) {
                finished.push_back(h);
            } else {
                h.tokens.push_back(c.token);
                next.push_back(h);
            }
        }
        alive = next;
        // Enough finished hypotheses: only they compete (the open ones lack their </s>).
        if (static_cast<int>(finished.size()) >= beam) alive.clear();
    }
    for (auto& h : alive) finished.push_back(h);
    const Hypothesis* best = nullptr;
    for (const auto& h : finished)
        if (!best || normalized(h) > normalized(*best)) best = &h;
    *logProbability = best ? best->score : 0.0;
    return best ? best->tokens : std::vector<int64_t>{};
}

}  // namespace

TEST_CASE("decoding steps give forward's log-probabilities and attention at every position", "[decoding]") {
    for (const Case& c : everyArchitecture()) {
        INFO(c.name);
        auto trainer = trainedOn(c.config);
        nn::Seq2SeqNet& net = *attnlab::detail::ModelAccess::impl(trainer->model()).net;
        REQUIRE(trainer->model().config().sourceVocab > 9);  // the ids below
        REQUIRE(trainer->model().config().targetVocab > 9);
        net.eval();
        torch::NoGradGuard noGrad;
        // Three sources of different lengths (padding masked in the encoder and in
        // cross-attention); a padding id inside the target prefix, which forward masks as
        // a decoder self-attention key, so the cached steps must too.
        Tensor src = torch::tensor({5, 6, 7, 8, 2, 9, 5, 2, 0, 0, 6, 2, 0, 0, 0}, torch::kLong).view({3, 5});
        Tensor srcLen = torch::tensor({5, 3, 2}, torch::kLong);
        Tensor tgtIn = torch::tensor({1, 7, 5, 0, 6, 1, 9, 9, 8, 5, 1, 6, 4, 5, 7}, torch::kLong).view({3, 5});
        nn::Captured full;
        Tensor logp = torch::log_softmax(net.forward(src, srcLen, tgtIn, &full, 1.0), 2);  // [B, T, V]

        nn::Captured encoder;
        auto state = net.start(src, srcLen, &encoder);
        if (full.count(MapKind::Encoder)) requireClose(encoder.at(MapKind::Encoder), full.at(MapKind::Encoder), 1e-5);
        for (int64_t t = 0; t < tgtIn.size(1); ++t) {
            INFO("step " << t);
            nn::StepCapture step;
            Tensor stepLogp = net.step(*state, tgtIn.select(1, t), &step);
            requireClose(stepLogp, logp.select(1, t), 1e-4);
            CHECK(step.size() == full.size() - encoder.size());
            for (const auto& [kind, w] : step) {
                INFO(kind);
                REQUIRE(full.count(kind) == 1);
                // forward's row t of [B, L, H, T, Tk]; decoder self-attention steps see
                // only the t + 1 keys so far (the rest is causally masked to 0).
                Tensor row = full.at(kind).select(3, t).narrow(3, 0, w.size(3));
                requireClose(w, row, 1e-5);
                if (w.size(3) < full.at(kind).size(4))
                    CHECK(full.at(kind).select(3, t).narrow(3, w.size(3), full.at(kind).size(4) - w.size(3))
                              .abs().max().item<double>() == 0.0);
            }
        }
    }
}

TEST_CASE("translate (greedy and beam) equals beam search over full recomputes, attention included",
          "[decoding]") {
    const std::vector<std::string> sentences{"a b c d", "f g h", "b c d e f", "e"};
    for (const Case& c : everyArchitecture()) {
        for (bool trained : {true, false}) {
            auto trainer = trainedOn(c.config, trained);
            Seq2SeqModel& model = trainer->model();
            nn::Seq2SeqNet& net = *attnlab::detail::ModelAccess::impl(model).net;
            for (const std::string& sentence : sentences) {
                for (int beam : {1, 3}) {
                    INFO(c.name << (trained ? "" : " untrained") << ", \"" << sentence << "\", beam " << beam);
                    Translation fast = model.translate(sentence, {beam, 12, true});
                    CHECK(net.is_training());  // translate restores the training mode

                    net.eval();
                    torch::NoGradGuard noGrad;
                    std::vector<int64_t> ids;
                    for (const auto& token : fast.sourceTokens) ids.push_back(model.sourceVocabulary().id(token));
                    Tensor src = torch::tensor(ids, torch::kLong).unsqueeze(0);
                    Tensor srcLen = torch::tensor({static_cast<int64_t>(ids.size())}, torch::kLong);
                    double refLogp = 0;
                    std::vector<int64_t> ref = fullRecomputeBeam(net, src, srcLen, beam, 12, &refLogp);
                    net.train();

                    std::vector<std::string> refTokens;
                    for (auto id : ref) refTokens.push_back(model.targetVocabulary().token(id));
                    REQUIRE(fast.outputTokens == refTokens);
                    CHECK_THAT(fast.logProbability, WithinAbs(refLogp, 1e-4));
                    if (beam == 1 && ref.size() < 12) {
                        // Greedy's score by hand: the log-probabilities forward gives the output's
                        // tokens and then its </s>.
                        std::vector<int64_t> in{Vocabulary::kBos};
                        in.insert(in.end(), ref.begin(), ref.end());
                        net.eval();
                        Tensor logp = torch::log_softmax(
                            net.forward(src, srcLen, torch::tensor(in, torch::kLong).unsqueeze(0), nullptr, 1.0)[0], 1);
                        net.train();
                        double sum = logp[static_cast<int64_t>(ref.size())][Vocabulary::kEos].item<double>();
                        for (std::size_t t = 0; t < ref.size(); ++t)
                            sum += logp[static_cast<int64_t>(t)][ref[t]].item<double>();
                        CHECK_THAT(fast.logProbability, WithinAbs(sum, 1e-4));
                    }
                    if (ref.empty()) continue;

                    // The attention a teacher-forced pass over the output captures.
                    std::vector<int64_t> tgtIn{Vocabulary::kBos};
                    tgtIn.insert(tgtIn.end(), ref.begin(), ref.end() - 1);
                    nn::Captured full;
                    net.eval();
                    net.forward(src, srcLen, torch::tensor(tgtIn, torch::kLong).unsqueeze(0), &full, 1.0);
                    net.train();
                    REQUIRE(fast.attention.size() == full.size());
                    for (const auto& [kind, maps] : full) {  // [1, L, H, T, Tk]
                        INFO(kind);
                        REQUIRE(fast.attention.count(kind) == 1);
                        const LayeredAttention& layers = fast.attention.at(kind);
                        REQUIRE(static_cast<int64_t>(layers.size()) == maps.size(1));
                        double diff = 0;
                        for (int64_t l = 0; l < maps.size(1); ++l) {
                            REQUIRE(static_cast<int64_t>(layers[l].size()) == maps.size(2));
                            for (int64_t h = 0; h < maps.size(2); ++h) {
                                const AttentionMap& m = layers[l][h];
                                REQUIRE(m.rows == maps.size(3));
                                REQUIRE(m.cols == maps.size(4));
                                Tensor map = maps[0][l][h].contiguous();
                                auto acc = map.accessor<float, 2>();
                                for (int r = 0; r < m.rows; ++r)
                                    for (int col = 0; col < m.cols; ++col)
                                        diff = std::max(diff, std::abs(static_cast<double>(m.at(r, col)) -
                                                                       static_cast<double>(acc[r][col])));
                            }
                        }
                        CHECK(diff <= 1e-5);
                    }
                }
            }
        }
    }
}

TEST_CASE("batched greedy decoding of padded sources equals one sentence at a time", "[decoding]") {
    for (const Case& c : everyArchitecture()) {
        INFO(c.name);
        auto trainer = trainedOn(c.config);
        const std::vector<std::string> sentences{"a b c d e", "f", "g h", "b c d"};
        auto batched = trainer->model().translateGreedy(sentences);
        const int limit = 2 * 6 + 10;  // translateGreedy's for the longest source (five words and </s>)
        for (std::size_t i = 0; i < sentences.size(); ++i)
            CHECK(batched[i] == trainer->model().translate(sentences[i], {1, limit, false}).outputTokens);
    }
}

TEST_CASE("token edits: the source given as tokens is the sentence's, and <unk> is the unknown word", "[decoding]") {
    auto trainer = trainedOn(test::tinyTransformer(1, 2));
    const Seq2SeqModel& model = trainer->model();
    const std::string sentence = "d a l f";
    const Translation typed = model.translate(sentence);
    DecodeOptions words;
    words.sourceWords = {"d", "a", "l", "f"};
    const Translation given = model.translate(std::string(), words);
    CHECK(given.sourceTokens == typed.sourceTokens);
    CHECK(given.outputTokens == typed.outputTokens);
    CHECK(given.logProbability == typed.logProbability);
    // Masked: the model reads <unk> there, as it does for a word it never saw.
    words.sourceWords = {"d", "<unk>", "l", "f"};
    const Translation masked = model.translate(std::string(), words);
    CHECK(masked.sourceTokens == std::vector<std::string>{"d", "<unk>", "l", "f", "</s>"});
    const Translation unseen = model.translate("d zzzz l f");
    CHECK(masked.outputTokens == unseen.outputTokens);
    CHECK(masked.logProbability == unseen.logProbability);
    // Dropped: one token fewer.
    words.sourceWords = {"d", "l", "f"};
    CHECK(model.translate(std::string(), words).sourceTokens.size() == 4);
}
