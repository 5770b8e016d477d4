// The language model (engine/lm): the network's parameters against LmConfig's count in both forms,
// attend's rows (distributions, zero above the diagonal for a causal model) and its next tokens
// against generate's first greedy one, the checkpoint's round trip and the files it refuses, a short
// training run on the induction set, and the masked objective.
#include "TorchTest.h"

#include <cmath>
#include <fstream>

#include "base/InputError.h"
#include "base/lm/LmText.h"
#include "engine/lm/LmModel.h"
#include "engine/lm/LmTrainer.h"

#include "TempDir.h"

using namespace attnlab;
using Catch::Matchers::Contains;

namespace {

LmConfig tinyLm() {
    LmConfig c;
    c.layers = 2;
    c.heads = 2;
    c.dModel = 16;
    c.feedForward = 32;
    c.context = 24;
    return c;
}

// One shared short run: 60 steps on 200 lines of the induction set (context 24).
struct LmRun {
    LmCorpus corpus;
    std::unique_ptr<LmTrainer> trainer;
    std::vector<LmStepMetrics> reports;
    LmRun() {
        LmRepeatsOptions o;
        o.context = 23;
        o.vocabulary = 30;
        o.maxPrefix = 4;
        o.minSequence = 4;
        o.maxSequence = 8;
        corpus = makeRepeats(200, 3, o);
        LmTrainingOptions t;
        t.steps = 60;
        t.warmup = 10;
        t.evaluateEvery = 30;
        t.probes = 4;
        trainer = std::make_unique<LmTrainer>(corpus, tinyLm(), t);
        trainer->run([&](const LmStepMetrics& m) { reports.push_back(m); });
    }
};

const LmRun& trainedLm() {
    static const LmRun t;
    return t;
}

}  // namespace

TEST_CASE("lm: the network holds LmConfig's parameter count in every form", "[lm]") {
    LmTokenizer tokens(LmTokenKind::Words, {"a", "b", "c", "d", "e"});
    for (int form = 0; form < 4; ++form) {
        LmConfig c = form == 3 ? lmGpt2Form() : tinyLm();
        c.dModel = 16;
        c.heads = 2;
        c.feedForward = 32;
        c.context = 24;
        c.attentionOnly = form != 1 && form != 3;
        c.norm = form == 2 || form == 3 ? LmNorm::Pre : LmNorm::None;
        c.positions = form == 2 ? LmPositions::Sinusoidal : LmPositions::Learned;
        INFO(toJson(c));
        const LmModel m(c, tokens, 1);
        CHECK(m.parameterCount() == parameterCount(m.config()));
    }
}

TEST_CASE("lm: attend gives distributions, zero above the diagonal; next agrees with greedy generate", "[lm]") {
    const LmModel& model = trainedLm().trainer->model();
    const LmReading r = model.attend("ba ke ba ke ba");
    REQUIRE(r.ids.size() == 6);  // <bos> and five words
    CHECK(r.tokens.front() == "<bos>");
    REQUIRE(r.attention.size() == 2);
    for (const auto& layer : r.attention) {
        REQUIRE(layer.size() == 2);
        for (const AttentionMap& m : layer) {
            REQUIRE(m.rows == 6);
            REQUIRE(m.cols == 6);
            for (int q = 0; q < 6; ++q) {
                double sum = 0;
                for (int k = 0; k < 6; ++k) {
                    const float w = m.weights[static_cast<std::size_t>(q * 6 + k)];
                    if (k > q) CHECK(w == 0.0f);
                    sum += w;
                }
                CHECK(sum == Approx(1.0).margin(1e-5));
            }
        }
    }
    REQUIRE(r.next.size() == 10);
    for (std::size_t i = 1; i < r.next.size(); ++i) CHECK(r.next[i - 1].logprob >= r.next[i].logprob);
    LmGenerateOptions greedy;
    greedy.maxNewTokens = 3;
    const LmGeneration g = model.generate("ba ke ba ke ba", greedy);
    REQUIRE(g.generated.size() == 3);
    if (r.next[0].id != kLmPad && r.next[0].id != kLmBos && r.next[0].id != kLmMask)
        CHECK(g.generated[0] == r.next[0].id);
    // Sampling repeats with its seed.
    LmGenerateOptions sampled;
    sampled.maxNewTokens = 5;
    sampled.temperature = 1.0;
    sampled.topK = 5;
    sampled.seed = 9;
    CHECK(model.generate("ba", sampled).generated == model.generate("ba", sampled).generated);
    // A text longer than the context keeps <bos> and the most recent tokens, and says how many went.
    std::string longText;
    for (int i = 0; i < 40; ++i) longText += "ba ";
    const LmReading cut = model.attend(longText);
    CHECK(cut.ids.size() == 24);
    CHECK(cut.cut == 41 - 24);
    CHECK(cut.ids.front() == kLmBos);
}

TEST_CASE("lm: training reports the loss and every head's scores; the checkpoint reopens the same", "[lm]") {
    const LmRun& t = trainedLm();
    REQUIRE(t.reports.size() == 2);
    CHECK(t.reports.back().step == 60);
    CHECK(std::isfinite(t.reports.back().validationLoss));
    CHECK(t.reports.back().validationLoss < std::log(static_cast<double>(t.corpus.tokenizer.size())));
    const LmCircuitScores& c = t.reports.back().circuits;
    REQUIRE(c.heads.induction.size() == 2);
    REQUIRE(c.heads.induction[1].size() == 2);
    for (const auto& layer : c.heads.previousToken)
        for (double v : layer) CHECK((v >= 0 && v <= 1));
    CHECK((c.copyAccuracy >= 0 && c.copyAccuracy <= 1));

    test::TempDir dir;
    const std::string path = dir.file("lm.safetensors");
    t.trainer->model().save(path);
    const LmModel back = LmModel::load(path);
    CHECK(toJson(back.config()) == toJson(t.trainer->model().config()));
    CHECK(back.tokenizer().toJson() == t.trainer->model().tokenizer().toJson());
    const LmReading a = t.trainer->model().attend("ba ke mi"), b = back.attend("ba ke mi");
    REQUIRE(a.next.size() == b.next.size());
    for (std::size_t i = 0; i < a.next.size(); ++i) {
        CHECK(a.next[i].id == b.next[i].id);
        CHECK(a.next[i].logprob == Approx(b.next[i].logprob).margin(1e-6));
    }
    // A file that is not a language model, and a truncated one.
    const std::string broken = dir.file("broken.safetensors");
    std::ofstream(broken) << "not a model";
    CHECK_THROWS_AS(LmModel::load(broken), ModelFileError);
}

TEST_CASE("lm: the masked objective sees both ways and fills each <mask>", "[lm]") {
    LmRepeatsOptions o;
    o.context = 15;
    o.vocabulary = 20;
    o.maxPrefix = 2;
    o.minSequence = 3;
    o.maxSequence = 5;
    const LmCorpus corpus = makeRepeats(60, 4, o);
    LmConfig c = tinyLm();
    c.context = 16;
    c.objective = LmObjective::Masked;
    LmTrainingOptions t;
    t.steps = 5;
    t.evaluateEvery = 5;
    LmTrainer trainer(corpus, c, t);
    trainer.run({});
    const LmModel& model = trainer.model();
    const LmReading r = model.attend("ba <mask> ba");
    CHECK(r.next.empty());
    // Typed "<mask>" is a word to the tokenizer; the mask token goes in by id.
    const LmReading m = model.attendIds({kLmBos, r.ids[1], kLmMask, r.ids[1]});
    REQUIRE(m.masked.size() == 1);
    CHECK(m.masked[0].position == 2);
    CHECK(m.masked[0].top.size() == 10);
    bool later = false;  // some query looks at a later key: attention in both directions
    for (const auto& layer : m.attention)
        for (const AttentionMap& map : layer) later = later || map.weights[1] > 0.0f;
    CHECK(later);
    CHECK_THROWS_AS(model.generate("ba", {}), ConfigError);
}
