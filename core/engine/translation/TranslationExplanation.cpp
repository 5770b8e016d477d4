#include "TranslationExplanation.h"
#include "base/InputError.h"
#include "engine/detail/EvalModeGuard.h"
#include "engine/detail/ModelAccess.h"
#include <cmath>
#include <limits>

namespace attnlab {

namespace {

std::vector<double> toDoubles(const torch::Tensor& t) {
    torch::Tensor c = t.to(torch::kDouble).contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

torch::Tensor idRows(const std::vector<std::int64_t>& ids, int64_t copies) {
    return torch::tensor(ids, torch::kLong).view({1, static_cast<int64_t>(ids.size())}).repeat({copies, 1});
}

// Clears the network's hook on every way out.
struct HookScope {
    nn::Seq2SeqNet& net;
    ~HookScope() { net.sourceEmbeddingHook = nullptr; }
};

}  // namespace

OutputTokenExplanation explainOutputToken(const Seq2SeqModel& model, const std::string& sentence, int outputIndex,
                                          int igSteps) {
    if (igSteps < 1 || igSteps > 10000) throw ConfigError("the integrated-gradients steps must be in 1..10000");
    DecodeOptions greedy;
    greedy.beam = 1;
    const Translation t = model.translate(sentence, greedy);  // throws for an empty sentence
    const int outputs = static_cast<int>(t.outputTokens.size());
    if (outputs == 0) throw ConfigError("the translation is empty: there is no output token to explain");
    if (outputIndex < 0 || outputIndex >= outputs)
        throw ConfigError("output token " + std::to_string(outputIndex) + " is outside the translation (" +
                          std::to_string(outputs) + " tokens, 0 to " + std::to_string(outputs - 1) + ")");
    const Seq2SeqModel::Impl& impl = detail::ModelAccess::impl(model);
    const std::vector<std::int64_t> src = impl.encodeSource(Tokenizer(impl.tokenizer).tokenize(sentence), nullptr);
    std::vector<std::int64_t> tgtIn{Vocabulary::kBos};
    for (int i = 0; i < outputIndex; ++i) tgtIn.push_back(impl.target.id(t.outputTokens[static_cast<std::size_t>(i)]));
    const std::int64_t y = impl.target.id(t.outputTokens[static_cast<std::size_t>(outputIndex)]);
    const auto n = static_cast<int64_t>(src.size());
    const int64_t T = static_cast<int64_t>(tgtIn.size());

    OutputTokenExplanation out;
    out.outputTokens = t.outputTokens;
    out.outputIndex = outputIndex;
    Explanation& ex = out.explanation;
    ex.tokens = t.sourceTokens;
    ex.classIndex = static_cast<int>(y);
    ex.label = t.outputTokens[static_cast<std::size_t>(outputIndex)];
    ex.igSteps = igSteps;

    nn::Seq2SeqNet& net = *impl.net;
    const EvalModeGuard evalMode(net);
    const HookScope scope{net};
    torch::AutoGradMode gradients(true);
    const auto lengths = [&](int64_t rows, int64_t length) { return torch::full({rows}, length, torch::kLong); };
    // z for each row of a batch: the logit of y at the explained step.
    const auto logitsOf = [&](const torch::Tensor& source, const torch::Tensor& sourceLengths) {
        const int64_t rows = source.size(0);
        return net.forward(source, sourceLengths, idRows(tgtIn, rows), nullptr, 1.0).select(1, T - 1);  // [rows, V]
    };

    // The gradient at the sentence; the embeddings, for the other methods.
    torch::Tensor embedded;
    {
        torch::Tensor leaf;
        net.sourceEmbeddingHook = [&](const torch::Tensor& e) {
            embedded = e.detach();
            leaf = embedded.clone().requires_grad_(true);
            return leaf;
        };
        const torch::Tensor logits = logitsOf(idRows(src, 1), lengths(1, n));
        ex.probability = torch::softmax(logits[0], 0)[y].item<double>();
        logits[0][y].backward();
        const torch::Tensor g = leaf.grad()[0];  // [n, E]
        ex.methods["gradient"] = toDoubles(g.norm(2, 1));
        ex.methods["grad_x_input"] = toDoubles((g * embedded[0]).sum(1));
    }
    // Integrated gradients: every point of the path in one batch.
    {
        const torch::Tensor alphas = torch::linspace(0.0, 1.0, igSteps + 1).view({igSteps + 1, 1, 1});
        torch::Tensor path;
        net.sourceEmbeddingHook = [&](const torch::Tensor& e) {
            path = (alphas * e.detach()).requires_grad_(true);  // [N + 1, n, E]
            return path;
        };
        const torch::Tensor z = logitsOf(idRows(src, igSteps + 1), lengths(igSteps + 1, n)).select(1, y);
        z.sum().backward();
        torch::Tensor weights = torch::full({igSteps + 1, 1, 1}, 1.0 / igSteps);
        weights[0] = weights[igSteps] = 0.5 / igSteps;
        const torch::Tensor ig = ((path.grad() * weights).sum(0) * embedded[0]).sum(1);
        ex.methods["integrated_gradients"] = toDoubles(ig);
        ex.igAttributionSum = ig.sum().item<double>();
        ex.igOutputDifference = (z[igSteps] - z[0]).item<double>();
    }
    net.sourceEmbeddingHook = nullptr;
    // Leave one out: each source token but the final </s> removed, all at once.
    {
        torch::NoGradGuard noGrad;
        std::vector<double> loo(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
        if (n > 2) {
            std::vector<std::int64_t> rows;
            for (int64_t drop = 0; drop < n - 1; ++drop)
                for (int64_t i = 0; i < n; ++i)
                    if (i != drop) rows.push_back(src[static_cast<std::size_t>(i)]);
            const torch::Tensor batch = torch::tensor(rows, torch::kLong).view({n - 1, n - 1});
            const torch::Tensor p = torch::softmax(logitsOf(batch, lengths(n - 1, n - 1)), 1).select(1, y);
            const std::vector<double> without = toDoubles(p);
            for (int64_t i = 0; i < n - 1; ++i) loo[static_cast<std::size_t>(i)] = ex.probability - without[static_cast<std::size_t>(i)];
        }
        ex.methods["leave_one_out"] = loo;
    }
    // The cross-attention row: the last layer's, heads averaged.
    const auto cross = t.attention.find(MapKind::Cross);
    if (cross != t.attention.end() && !cross->second.empty() && !cross->second.back().empty()) {
        const auto& heads = cross->second.back();
        std::vector<double> row(static_cast<std::size_t>(n), 0.0);
        for (const AttentionMap& m : heads)
            for (int64_t i = 0; i < n && i < m.cols; ++i)
                row[static_cast<std::size_t>(i)] += m.at(outputIndex, static_cast<int>(i)) / static_cast<double>(heads.size());
        ex.methods["attention"] = row;
        rankAgreement(ex);
    }
    return out;
}

}  // namespace attnlab
