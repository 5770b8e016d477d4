#include "EncoderStates.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "base/InputError.h"
#include "base/analysis/Pca.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/GruSeq2Seq.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab {

std::vector<std::vector<float>> encoderStates(const Seq2SeqModel& model, const std::string& sentence, int layer) {
    const ModelConfig& config = model.config();
    const bool transformer = config.architecture == Architecture::Transformer;
    const int layers = transformer ? config.layers : 1;
    if (layer < 0 || layer > layers)
        throw ConfigError(transformer ? "layer " + std::to_string(layer) + " does not exist: the model has " +
                                            std::to_string(layers) + " encoder layer" + (layers == 1 ? "" : "s") +
                                            " (1 to " + std::to_string(layers) + ")"
                                      : "a GRU model has one set of encoder states: layer must be 1, got " +
                                            std::to_string(layer));
    const Seq2SeqModel::Impl& impl = detail::ModelAccess::impl(model);
    const std::vector<std::int64_t> ids = impl.encodeSource(Tokenizer(impl.tokenizer).tokenize(sentence), nullptr);

    torch::NoGradGuard noGrad;
    nn::Seq2SeqNet& net = *impl.net;
    const EvalModeGuard evalMode(net);
    const torch::Tensor src = torch::tensor(ids, torch::kLong).unsqueeze(0);  // [1, S]
    torch::Tensor states;                                                     // [1, S, D]
    if (transformer) {
        states = static_cast<nn::TransformerSeq2Seq&>(net).encoderLayerOutput(src, (layer == 0 ? layers : layer) - 1);
    } else {
        const torch::Tensor srcLen = torch::tensor({src.size(1)}, torch::kLong);
        states = static_cast<nn::GruSeq2Seq&>(net).encoderOutputs(src, srcLen);
    }
    const torch::Tensor c = states[0].to(torch::kFloat).contiguous();
    const int64_t rows = c.size(0), cols = c.size(1);
    const float* data = c.data_ptr<float>();
    std::vector<std::vector<float>> out(static_cast<std::size_t>(rows));
    for (int64_t i = 0; i < rows; ++i) out[static_cast<std::size_t>(i)].assign(data + i * cols, data + (i + 1) * cols);
    return out;
}

double cosineSimilarity(const std::vector<float>& a, const std::vector<float>& b) {
    if (a.size() != b.size())
        throw std::invalid_argument("cosineSimilarity: vectors of sizes " + std::to_string(a.size()) + " and " +
                                    std::to_string(b.size()));
    double dot = 0.0, na = 0.0, nb = 0.0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        dot += static_cast<double>(a[i]) * b[i];
        na += static_cast<double>(a[i]) * a[i];
        nb += static_cast<double>(b[i]) * b[i];
    }
    if (na == 0.0 || nb == 0.0) return 0.0;
    if (a == b) return 1.0;
    return std::clamp(dot / (std::sqrt(na) * std::sqrt(nb)), -1.0, 1.0);
}

std::vector<TokenNeighbour> nearestTokens(const Seq2SeqModel& model, const std::string& query, int token,
                                          const std::vector<std::string>& sentences, int layer, int k) {
    if (k < 1) throw ConfigError("k must be at least 1, got " + std::to_string(k));
    const std::vector<std::string> queryTokens = model.sourceTokens(query);
    const int count = static_cast<int>(queryTokens.size());
    if (token < 0 || token >= count)
        throw ConfigError("token " + std::to_string(token) + " does not exist: the sentence has " +
                          std::to_string(count) + " token" + (count == 1 ? "" : "s") + " (0 to " +
                          std::to_string(count - 1) + ", </s> included)");
    const std::vector<float> target = encoderStates(model, query, layer)[static_cast<std::size_t>(token)];

    struct Candidate {
        TokenNeighbour n;
        bool own = false;
    };
    std::vector<Candidate> all;
    for (std::size_t s = 0; s < sentences.size(); ++s) {
        const std::vector<std::string> tokens = model.sourceTokens(sentences[s]);
        const bool sameSentence = tokens == queryTokens;
        const std::vector<std::vector<float>> states = encoderStates(model, sentences[s], layer);
        for (std::size_t p = 0; p < states.size(); ++p) {
            Candidate c;
            c.n.sentence = s;
            c.n.position = static_cast<int>(p);
            c.n.token = p < tokens.size() ? tokens[p] : std::string();
            c.n.similarity = cosineSimilarity(target, states[p]);
            c.own = sameSentence && static_cast<int>(p) == token;
            all.push_back(std::move(c));
        }
    }
    const auto before = [](const Candidate& a, const Candidate& b) {
        if (a.n.similarity != b.n.similarity) return a.n.similarity > b.n.similarity;
        if (a.own != b.own) return a.own;
        if (a.n.sentence != b.n.sentence) return a.n.sentence < b.n.sentence;
        return a.n.position < b.n.position;
    };
    const std::size_t keep = std::min(all.size(), static_cast<std::size_t>(k));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(), before);
    std::vector<TokenNeighbour> out;
    out.reserve(keep);
    for (std::size_t i = 0; i < keep; ++i) out.push_back(std::move(all[i].n));
    return out;
}

StateProjection projectEncoderStates(const Seq2SeqModel& model, const std::vector<std::string>& sentences, int layer,
                                     std::size_t maxTokens) {
    StateProjection out;
    const ModelConfig& config = model.config();
    const bool transformer = config.architecture == Architecture::Transformer;
    out.layer = transformer ? (layer == 0 ? config.layers : layer) : 1;
    for (std::size_t s = 0; s < sentences.size() && out.points.size() < maxTokens; ++s) {
        const std::vector<std::string> tokens = model.sourceTokens(sentences[s]);
        if (tokens.size() < 2) continue;  // nothing but </s>
        const std::vector<std::vector<float>> states = encoderStates(model, sentences[s], layer);
        const std::size_t sentence = out.sentences.size();
        out.sentences.push_back(sentences[s]);
        for (std::size_t p = 0; p + 1 < states.size() && p < tokens.size() && out.points.size() < maxTokens; ++p) {
            if (tokens[p] == "</s>") continue;
            StateProjection::Point point;
            point.sentence = sentence;
            point.position = static_cast<int>(p);
            point.token = tokens[p];
            out.points.push_back(std::move(point));
            out.states.push_back(states[p]);
        }
    }
    const Projection2D pca = projectPca2(out.states);
    for (std::size_t i = 0; i < out.points.size(); ++i) {
        out.points[i].x = pca.points[i][0];
        out.points[i].y = pca.points[i][1];
    }
    out.explained = pca.explained;
    return out;
}

std::vector<std::pair<std::size_t, double>> nearestPoints(const StateProjection& projection, std::size_t index, int k) {
    std::vector<std::pair<std::size_t, double>> all;
    if (index >= projection.states.size() || k < 1) return all;
    for (std::size_t i = 0; i < projection.states.size(); ++i)
        if (i != index) all.emplace_back(i, cosineSimilarity(projection.states[index], projection.states[i]));
    const std::size_t keep = std::min(all.size(), static_cast<std::size_t>(k));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      [](const auto& a, const auto& b) { return a.second > b.second || (a.second == b.second && a.first < b.first); });
    all.resize(keep);
    return all;
}

}  // namespace attnlab
