// The explanation lab for translation models (engine/TranslationExplanation.h): one output token's
// attributions over the source, checked against finite differences, a re-run without each token,
// integrated gradients' completeness and the cross-attention row.
#include <torch/torch.h>

#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "base/translation/Datasets.h"
#include "base/InputError.h"
#include "engine/translation/TranslationExplanation.h"
#include "engine/translation/TranslationTrainer.h"
#include "engine/detail/ModelAccess.h"
#include "TinyModels.h"

using namespace attnlab;

namespace {

std::unique_ptr<TranslationTrainer> trained(const ModelConfig& config) { return test::trainedOnReverse(config, 200, 3); }

// The output token's logit (or probability) with the source embeddings scaled token by token, the
// decoder fed the earlier outputs: what the methods differentiate.
double outputScore(const Seq2SeqModel& model, const std::vector<std::int64_t>& src, const std::vector<std::int64_t>& tgtIn,
                   std::int64_t y, const std::vector<double>& scales, bool probability) {
    nn::Seq2SeqNet& net = *attnlab::detail::ModelAccess::impl(model).net;
    torch::NoGradGuard noGrad;
    const bool wasTraining = net.is_training();
    net.eval();
    if (!scales.empty())
        net.sourceEmbeddingHook = [&](const torch::Tensor& e) {
            return e * torch::tensor(std::vector<float>(scales.begin(), scales.end())).view({1, -1, 1});
        };
    const auto n = static_cast<int64_t>(src.size());
    const torch::Tensor logits =
        net.forward(torch::tensor(src, torch::kLong).view({1, n}), torch::full({1}, n, torch::kLong),
                    torch::tensor(tgtIn, torch::kLong).view({1, -1}), nullptr, 1.0)[0][static_cast<int64_t>(tgtIn.size()) - 1];
    net.sourceEmbeddingHook = nullptr;
    net.train(wasTraining);
    return probability ? torch::softmax(logits, 0)[y].item<double>() : logits[y].item<double>();
}

}  // namespace

TEST_CASE("a translation model's output token is explained over its source tokens", "[explain][translation]") {
    for (const ModelConfig& config : {test::tinyGru(AttentionKind::Additive), test::tinyTransformer(2, 2)}) {
        INFO(toString(config.architecture));
        const auto trainer = trained(config);
        const Seq2SeqModel& model = trainer->model();
        const std::string sentence = "a b c d";
        const Translation t = model.translate(sentence);
        REQUIRE(t.outputTokens.size() >= 2);
        const int index = 1;
        const OutputTokenExplanation out = explainOutputToken(model, sentence, index);
        const Explanation& ex = out.explanation;
        CHECK(out.outputTokens == t.outputTokens);
        CHECK(ex.label == t.outputTokens[index]);
        CHECK(ex.tokens == t.sourceTokens);  // the words and </s>
        const std::size_t n = ex.tokens.size();
        for (const char* method : {"attention", "gradient", "grad_x_input", "integrated_gradients", "leave_one_out"}) {
            INFO(method);
            REQUIRE(ex.methods.count(method) == 1);
            CHECK(ex.methods.at(method).size() == n);
        }

        const Seq2SeqModel::Impl& impl = attnlab::detail::ModelAccess::impl(model);
        const std::vector<std::int64_t> src = impl.encodeSource(Tokenizer(impl.tokenizer).tokenize(sentence), nullptr);
        std::vector<std::int64_t> tgtIn{Vocabulary::kBos, impl.target.id(t.outputTokens[0])};
        const std::int64_t y = impl.target.id(ex.label);

        // The probability is the model's for this token; the attention is the cross-attention row.
        CHECK(ex.probability == Approx(outputScore(model, src, tgtIn, y, {}, true)).epsilon(1e-4));
        const auto& heads = t.attention.at(MapKind::Cross).back();
        for (std::size_t i = 0; i < n; ++i) {
            double mean = 0;
            for (const AttentionMap& m : heads) mean += m.at(index, static_cast<int>(i)) / static_cast<double>(heads.size());
            CHECK(ex.methods.at("attention")[i] == Approx(mean).margin(1e-6));
        }
        // Gradient x input is the derivative of the logit with respect to a token's embedding scale, at 1.
        const double h = 1e-3;
        for (std::size_t i = 0; i < n; ++i) {
            std::vector<double> up(n, 1.0), down(n, 1.0);
            up[i] += h;
            down[i] -= h;
            const double numeric = (outputScore(model, src, tgtIn, y, up, false) - outputScore(model, src, tgtIn, y, down, false)) / (2 * h);
            CHECK(ex.methods.at("grad_x_input")[i] == Approx(numeric).margin(2e-3).epsilon(2e-2));
        }
        // Integrated gradients are complete to 5 % at the default steps; the difference is z(e) - z(0).
        CHECK(std::abs(ex.igAttributionSum - ex.igOutputDifference) <= 0.05 * std::abs(ex.igOutputDifference) + 1e-4);
        const double atZero = outputScore(model, src, tgtIn, y, std::vector<double>(n, 0.0), false);
        CHECK(ex.igOutputDifference == Approx(outputScore(model, src, tgtIn, y, {}, false) - atZero).epsilon(1e-3));
        // Leave one out equals re-running without the token; "</s>" is never removed.
        for (std::size_t i = 0; i + 1 < n; ++i) {
            std::vector<std::int64_t> without = src;
            without.erase(without.begin() + static_cast<std::ptrdiff_t>(i));
            CHECK(ex.methods.at("leave_one_out")[i] ==
                  Approx(ex.probability - outputScore(model, without, tgtIn, y, {}, true)).margin(1e-5));
        }
        CHECK(std::isnan(ex.methods.at("leave_one_out").back()));
        CHECK(ex.kendallTau.count("leave_one_out") == 1);
        CHECK(std::isfinite(ex.kendallTau.at("gradient")));
    }
}

TEST_CASE("an output token outside the translation is refused, naming the range", "[explain][translation]") {
    const auto trainer = trained(test::tinyGru(AttentionKind::Dot));
    const int outputs = static_cast<int>(trainer->model().translate("a b").outputTokens.size());
    try {
        explainOutputToken(trainer->model(), "a b", outputs);
        FAIL("no error");
    } catch (const ConfigError& e) {
        CHECK(std::string(e.what()).find("0 to " + std::to_string(outputs - 1)) != std::string::npos);
    }
    CHECK_THROWS_AS(explainOutputToken(trainer->model(), "   ", 0), ConfigError);
}
