#include "AttentionTrace.h"

#include <cstdio>

#include "engine/detail/ModelAccess.h"
#include "base/InputError.h"
#include "engine/nn/networks/GruSeq2Seq.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab {

namespace {

std::vector<float> toVector(const torch::Tensor& t) {
    if (!t.defined()) return {};
    torch::Tensor c = t.to(torch::kFloat).contiguous();
    return {c.data_ptr<float>(), c.data_ptr<float>() + c.numel()};
}

std::string number(double x, int decimals) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, x);
    return buffer;
}

// "0 to 2", or "0" when there is one.
std::string range(int count) { return count == 1 ? "0" : "0 to " + std::to_string(count - 1); }

std::string plural(int n, const std::string& word) { return std::to_string(n) + " " + word + (n == 1 ? "" : "s"); }

std::string gruFormula(const AttentionTrace& t) {
    const std::string H = std::to_string(t.dimension);
    std::string score;
    switch (t.attention) {
    case AttentionKind::Dot: score = "score_j = s · h_j"; break;
    case AttentionKind::ScaledDot: score = "score_j = (s · h_j) / √" + H; break;
    case AttentionKind::General: score = "score_j = s · (W h_j)"; break;
    case AttentionKind::Additive: score = "score_j = v · tanh(W s + U h_j + b)"; break;
    case AttentionKind::LocalM:
        score = "score_j = s · (W h_j),   |j − p_t| ≤ D;   p_t = min(t, S − 1) = " + number(t.center, 0) +
                ", D = " + std::to_string(t.window);
        break;
    case AttentionKind::LocalP:
        score = "score_j = s · (W h_j) − (j − p_t)² / (2 (D/2)²),   |j − p_t| ≤ D;   "
                "p_t = min(S · σ(v_p · tanh(W_p s)), S − 1) = " +
                number(t.center, 4) + ", D = " + std::to_string(t.window);
        break;
    case AttentionKind::None: break;
    }
    const std::string weights = "\na_j = exp(score_j) / Σ_k exp(score_k)\nc = Σ_j a_j h_j";
    if (t.queryOrder == QueryOrder::Before) return score + weights;
    // Luong's order: the state has read the previous output token; the output reads [s; c].
    return "s = GRU(emb(y_t−1), s_t−1)\n" + score + weights + "\no = tanh(W_c [s; c]),   logits = W_o o";
}

std::string transformerFormula(const AttentionTrace& t) {
    std::string f = "score_j = (q_" + std::to_string(t.step) + " · k_j) / √" + std::to_string(t.dimension);
    if (t.kind == MapKind::Decoder) f += ",   −∞ for j > " + std::to_string(t.step);
    return f + "\na_j = exp(score_j) / Σ_k exp(score_k)\nhead output = Σ_j a_j v_j";
}

void checkIndex(int value, int count, const std::string& what, const std::string& of) {
    if (value < 0 || value >= count)
        throw ConfigError(what + " " + std::to_string(value) + " does not exist: " + of + " (" + range(count) + ")");
}

void traceGru(nn::GruSeq2Seq& net, const ModelConfig& config, const torch::Tensor& src, const torch::Tensor& tgtIn,
              AttentionTrace& out) {
    torch::Tensor srcLen = torch::tensor({src.size(1)}, torch::kLong);
    torch::Tensor weights, context;
    nn::AttentionTrace t = net.traceStep(src, srcLen, tgtIn, out.step, &weights, &context);
    out.dimension = config.hidden;
    out.query = toVector(t.query[0]);
    out.keys = toVector(t.keys[0]);
    out.values = out.keys;
    if (t.projectedKeys.defined()) out.projectedKeys = toVector(t.projectedKeys[0]);
    if (t.projectedQuery.defined()) out.projectedQuery = toVector(t.projectedQuery[0]);
    out.scoreVector = toVector(t.scoreVector);
    out.rawScores = toVector(t.rawScores[0]);
    out.scale = config.attention == AttentionKind::ScaledDot ? 1.0 / std::sqrt(static_cast<double>(config.hidden)) : 1.0;
    out.scaledScores = toVector(t.scaledScores[0]);
    if (t.gaussian.defined()) out.gaussian = toVector(t.gaussian[0]);
    out.scores = toVector(t.scores[0]);
    out.weights = toVector(weights[0]);
    out.context = toVector(context[0]);
    const torch::Tensor padRow = t.padMask[0].contiguous(), excludedRow = t.excluded[0].contiguous();
    auto pad = padRow.accessor<bool, 1>();
    auto excluded = excludedRow.accessor<bool, 1>();
    for (int64_t j = 0; j < pad.size(0); ++j)
        out.mask.push_back(pad[j] ? TraceMask::Padding : excluded[j] ? TraceMask::OutsideWindow : TraceMask::Kept);
    if (t.center.defined()) {
        out.center = t.center[0].item<double>();
        out.window = config.localWindow;
    }
    out.queryOrder = config.query;
    out.formula = gruFormula(out);
}

void traceTransformer(nn::TransformerSeq2Seq& net, const torch::Tensor& src, const torch::Tensor& tgtIn,
                      AttentionTrace& out) {
    nn::HeadTrace t = net.traceAttention(src, tgtIn, out.kind, out.layer);
    const int64_t h = out.head, i = out.step;
    out.dimension = static_cast<int>(t.query.size(3));
    out.query = toVector(t.query[0][h][i]);
    out.keys = toVector(t.key[0][h]);
    out.values = toVector(t.value[0][h]);
    out.rawScores = toVector(t.rawScores[0][h][i]);
    out.scale = t.scale;
    out.scaledScores = toVector(t.scaledScores[0][h][i]);
    out.scores = toVector(t.maskedScores[0][h][i]);
    out.weights = toVector(t.weights[0][h][i]);
    out.context = toVector(t.headOutput[0][h][i]);
    const int64_t K = t.rawScores.size(3);
    torch::Tensor pad = t.keyPadMask.defined() ? t.keyPadMask[0] : torch::zeros({K}, torch::kBool);
    auto padding = pad.accessor<bool, 1>();
    for (int64_t j = 0; j < K; ++j)
        out.mask.push_back(padding[j] ? TraceMask::Padding : t.causal && j > i ? TraceMask::Future : TraceMask::Kept);
    out.formula = transformerFormula(out);
}

}  // namespace

AttentionTrace traceAttention(const Seq2SeqModel& model, const std::string& sentence, const TraceRequest& request) {
    const ModelConfig& config = model.config();
    const bool transformer = config.architecture == Architecture::Transformer;
    if (!transformer && request.kind != MapKind::Cross)
        throw ConfigError(std::string("a GRU model has only cross attention (decoder to encoder), not '") +
                          toString(request.kind) + "'");
    if (!transformer && config.attention == AttentionKind::None)
        throw ConfigError("this GRU has attention 'none': its decoder reads one fixed context vector, so there are "
                          "no attention weights to trace");
    if (transformer) {
        checkIndex(request.layer, config.layers, "layer", "the model has " + plural(config.layers, "layer"));
        checkIndex(request.head, config.heads, "head", "the model has " + plural(config.heads, "head") + " per layer");
    }

    // The translation the heatmap shows; its token ids are replayed below.
    DecodeOptions options;
    options.beam = request.beam;
    options.captureAttention = false;
    Translation translation = model.translate(sentence, options);

    AttentionTrace out;
    out.architecture = config.architecture;
    out.attention = transformer ? AttentionKind::None : config.attention;
    out.kind = request.kind;
    out.layer = transformer ? request.layer : 0;
    out.head = transformer ? request.head : 0;
    out.step = request.step;
    out.layerCount = transformer ? config.layers : 1;
    out.headCount = transformer ? config.heads : 1;
    out.sourceTokens = translation.sourceTokens;
    out.outputTokens = translation.outputTokens;
    if (request.kind == MapKind::Encoder) {
        out.queryTokens = out.keyTokens = out.sourceTokens;
        checkIndex(request.step, out.queryCount(), "source position",
                   "the sentence has " + plural(out.queryCount(), "token"));
    } else {
        if (out.outputTokens.empty())
            throw ConfigError("the model's translation is empty (it ended at once): there is no output step to trace");
        out.queryTokens = out.outputTokens;
        if (request.kind == MapKind::Decoder) {
            out.keyTokens = {Vocabulary::kSpecialTokens[Vocabulary::kBos]};
            out.keyTokens.insert(out.keyTokens.end(), out.outputTokens.begin(), out.outputTokens.end() - 1);
        } else {
            out.keyTokens = out.sourceTokens;
        }
        checkIndex(request.step, out.queryCount(), "output step",
                   "the translation has " + plural(out.queryCount(), "token"));
    }

    const Seq2SeqModel::Impl& impl = detail::ModelAccess::impl(model);
    std::vector<std::int64_t> srcIds = impl.encodeSource(Tokenizer(impl.tokenizer).tokenize(sentence), nullptr);
    std::vector<std::int64_t> tgtIn{Vocabulary::kBos};  // as translate() feeds it: <s>, then the output but its last
    for (std::size_t i = 0; i + 1 < out.outputTokens.size(); ++i) tgtIn.push_back(impl.target.id(out.outputTokens[i]));

    torch::NoGradGuard noGrad;
    nn::Seq2SeqNet& net = *impl.net;
    const EvalModeGuard evalMode(net);

    torch::Tensor src = torch::tensor(srcIds, torch::kLong).unsqueeze(0);    // [1, S]
    torch::Tensor tgt = torch::tensor(tgtIn, torch::kLong).unsqueeze(0);     // [1, T]
    if (transformer) {
        traceTransformer(static_cast<nn::TransformerSeq2Seq&>(net), src, tgt, out);
    } else {
        traceGru(static_cast<nn::GruSeq2Seq&>(net), config, src, tgt, out);
    }
    return out;
}

}  // namespace attnlab
