// LmModel: reading a text with its attention, generating, the per-position loss, the head detector
// on repeated random sequences, and the checkpoint.
#include "engine/lm/LmModel.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "base/InputError.h"
#include "base/io/CheckpointMetadata.h"
#include "base/io/Safetensors.h"
#include "base/lm/LmHuggingFace.h"
#include "base/translation/Sampling.h"
#include "engine/detail/EvalModeGuard.h"
#include "engine/detail/ModuleTensors.h"
#include "engine/lm/LmImpl.h"

namespace attnlab {

namespace {

// The `count` most probable tokens of one row of log-probabilities [V] (ties: the lower id first).
std::vector<LmCandidate> topTokens(const torch::Tensor& logprobs, int count, const LmTokenizer& tokenizer) {
    const torch::Tensor row = logprobs.to(torch::kDouble).contiguous();
    const double* p = row.data_ptr<double>();
    const auto n = static_cast<std::size_t>(row.numel());
    std::vector<std::size_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = i;
    const std::size_t k = std::min<std::size_t>(n, static_cast<std::size_t>(std::max(0, count)));
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(k), order.end(),
                      [&](std::size_t a, std::size_t b) { return p[a] > p[b] || (p[a] == p[b] && a < b); });
    std::vector<LmCandidate> out;
    for (std::size_t i = 0; i < k; ++i) {
        const int id = static_cast<int>(order[i]);
        out.push_back({id, tokenizer.token(id), p[order[i]]});
    }
    return out;
}

AttentionMap mapOf(const torch::Tensor& w) {  // [T, T]
    const torch::Tensor c = w.to(torch::kFloat).contiguous();
    AttentionMap m;
    m.rows = static_cast<int>(c.size(0));
    m.cols = static_cast<int>(c.size(1));
    m.weights.assign(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
    return m;
}

torch::Tensor idTensor(const std::vector<std::vector<int>>& rows) {  // equal lengths
    const auto B = static_cast<int64_t>(rows.size()), T = static_cast<int64_t>(rows.front().size());
    torch::Tensor t = torch::empty({B, T}, torch::kLong);
    auto a = t.accessor<int64_t, 2>();
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < T; ++i) a[b][i] = rows[static_cast<std::size_t>(b)][static_cast<std::size_t>(i)];
    return t;
}

}  // namespace

LmModel::LmModel(LmConfig config, LmTokenizer tokenizer, std::uint64_t seed) : impl_(std::make_unique<Impl>()) {
    if (config.vocabulary == 0) config.vocabulary = static_cast<std::int64_t>(tokenizer.size());
    if (config.vocabulary != static_cast<std::int64_t>(tokenizer.size()))
        throw ConfigError("the config's vocabulary (" + std::to_string(config.vocabulary) + ") is not the tokenizer's (" +
                          std::to_string(tokenizer.size()) + ")");
    if (config.objective == LmObjective::Masked && tokenizer.specials().mask == kLmNoToken)
        throw ConfigError("the " + toString(tokenizer.kind()) + " tokenizer has no <mask> token: the masked objective needs one");
    checkConfig(config);
    impl_->config = config;
    impl_->tokenizer = std::move(tokenizer);
    torch::manual_seed(seed);
    impl_->net = std::make_shared<nn::LmNetImpl>(config);
}

LmModel::LmModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
LmModel::LmModel(LmModel&&) noexcept = default;
LmModel& LmModel::operator=(LmModel&&) noexcept = default;
LmModel::~LmModel() = default;

const LmConfig& LmModel::config() const { return impl_->config; }
const LmTokenizer& LmModel::tokenizer() const { return impl_->tokenizer; }
std::int64_t LmModel::parameterCount() const { return weightCount(*impl_->net); }

void LmModel::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content;
    content.metadata = extraMetadata;
    setFormatMetadata(content.metadata, kLmTask);
    content.metadata["config"] = toJson(impl_->config);
    content.metadata["tokenizer"] = impl_->tokenizer.toJson();
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

LmModel LmModel::load(const std::string& path) {
    if (isLmHfFolder(path)) return openHuggingFace(path);
    SafetensorsContent content = readSafetensors(path);
    checkModelTask(content.metadata, path, kLmTask, "a language model");
    checkFormatVersion(content.metadata, path);
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = lmConfigFromJson(requiredMetadata(content.metadata, "config", path, "language model"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, std::string("metadata 'config': ") + e.what());
    }
    try {
        impl->tokenizer = LmTokenizer::fromJson(requiredMetadata(content.metadata, "tokenizer", path, "language model"));
    } catch (const ModelFileError&) {
        throw;
    } catch (const std::exception& e) {
        throw ModelFileError(path, std::string("metadata 'tokenizer': ") + e.what());
    }
    if (impl->config.vocabulary != static_cast<std::int64_t>(impl->tokenizer.size()))
        throw ModelFileError(path, "the config's vocabulary (" + std::to_string(impl->config.vocabulary) +
                                       ") is not the tokenizer's (" + std::to_string(impl->tokenizer.size()) + ")");
    if (impl->config.objective == LmObjective::Masked && impl->tokenizer.specials().mask == kLmNoToken)
        throw ModelFileError(path, "a masked model with a tokenizer that has no <mask> token");
    if (storedWeights(content) != attnlab::parameterCount(impl->config))
        throw ModelFileError(path, "holds " + std::to_string(storedWeights(content)) + " weights where its config needs " +
                                       std::to_string(attnlab::parameterCount(impl->config)));
    impl->net = std::make_shared<nn::LmNetImpl>(impl->config);
    loadTensorsInto(content, *impl->net, path);
    return LmModel(std::move(impl));
}

LmReading LmModel::attend(const std::string& text, int topNext) const {
    std::vector<int> ids{impl_->tokenizer.specials().bos};
    for (int id : impl_->tokenizer.encode(text)) ids.push_back(id);
    if (const int sep = impl_->tokenizer.separator(); sep != kLmNoToken) ids.push_back(sep);  // BERT: [CLS] text [SEP]
    return attendIds(std::move(ids), topNext);
}

LmReading LmModel::attendIds(std::vector<int> ids, int topNext) const {
    LmReading r;
    const auto C = static_cast<std::size_t>(impl_->config.context);
    const int bos = impl_->tokenizer.specials().bos;
    if (ids.empty() || ids.front() != bos) ids.insert(ids.begin(), bos);
    if (ids.size() > C) {  // keep <bos> and the most recent tokens
        r.cut = static_cast<int>(ids.size() - C);
        ids.erase(ids.begin() + 1, ids.begin() + 1 + r.cut);
    }
    for (int id : ids)
        if (id < 0 || id >= static_cast<int>(impl_->tokenizer.size())) throw ConfigError("token id " + std::to_string(id) + " is not in the vocabulary");
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    std::vector<torch::Tensor> weights;
    const torch::Tensor hidden = impl_->net->hidden(idTensor({ids}), &weights)[0];  // [T, D]
    // The logits of only the positions read from: the last (causal) or each <mask> (masked).
    std::vector<int64_t> rows;
    if (impl_->config.objective == LmObjective::Causal) {
        rows.push_back(static_cast<int64_t>(ids.size()) - 1);
    } else {
        for (std::size_t i = 0; i < ids.size(); ++i)
            if (ids[i] == impl_->tokenizer.specials().mask) rows.push_back(static_cast<int64_t>(i));
    }
    const torch::Tensor logprobs =
        rows.empty() ? torch::Tensor()
                     : torch::log_softmax(impl_->net->logits(hidden.index_select(0, torch::tensor(rows, torch::kLong))).to(torch::kFloat), -1);
    r.ids = ids;
    for (int id : ids) r.tokens.push_back(impl_->tokenizer.token(id));
    for (const torch::Tensor& layer : weights) {
        std::vector<AttentionMap> heads;
        for (int64_t h = 0; h < layer.size(1); ++h) heads.push_back(mapOf(layer[0][h]));
        r.attention.push_back(std::move(heads));
    }
    if (impl_->config.objective == LmObjective::Causal) {
        r.next = topTokens(logprobs[0], topNext, impl_->tokenizer);
    } else {
        for (std::size_t k = 0; k < rows.size(); ++k)
            r.masked.push_back({static_cast<int>(rows[k]), topTokens(logprobs[static_cast<int64_t>(k)], topNext, impl_->tokenizer)});
    }
    return r;
}

LmGeneration LmModel::generate(const std::string& prompt, const LmGenerateOptions& o) const {
    if (impl_->config.objective != LmObjective::Causal)
        throw ConfigError("a masked language model does not continue a text: put <mask> in it and read the fills (attend)");
    if (o.maxNewTokens < 0 || o.maxNewTokens > 100000) throw ConfigError("the number of new tokens must be between 0 and 100000");
    if (!(o.temperature >= 0)) throw ConfigError("the temperature must be 0 (greedy) or above");
    if (o.topK < 0) throw ConfigError("top-k must be 0 (off) or above");
    if (!(o.topP > 0 && o.topP <= 1)) throw ConfigError("top-p must be above 0 and at most 1");
    LmGeneration g;
    const int C = impl_->config.context;
    std::vector<int> ids{impl_->tokenizer.specials().bos};
    for (int id : impl_->tokenizer.encode(prompt)) ids.push_back(id);
    if (static_cast<int>(ids.size()) > C) {  // the prompt's most recent tokens
        g.cut = static_cast<int>(ids.size()) - C;
        ids.erase(ids.begin() + 1, ids.begin() + 1 + g.cut);
    }
    g.prompt = ids;
    std::mt19937_64 rng(o.seed);
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    for (int step = 0; step < o.maxNewTokens; ++step) {
        std::vector<int> window = ids;  // <bos> and the last C - 1 tokens
        if (static_cast<int>(window.size()) > C) window.erase(window.begin() + 1, window.end() - (C - 1));
        std::vector<torch::Tensor> weights;
        const torch::Tensor hidden = impl_->net->hidden(idTensor({window}), &weights)[0];
        const int64_t last = static_cast<int64_t>(window.size()) - 1;
        const torch::Tensor logits = impl_->net->logits(hidden.narrow(0, last, 1))[0];  // only the last position's
        torch::Tensor row = torch::log_softmax(logits.to(torch::kFloat), -1).to(torch::kDouble).contiguous();
        // Never <pad>, <bos> or <mask> (Gpt2: <|endoftext|>): a language model's output is text (or <unk>).
        const LmSpecialIds& specials = impl_->tokenizer.specials();
        for (int special : {specials.pad, specials.bos, specials.mask})
            if (special >= 0) row.data_ptr<double>()[special] = -std::numeric_limits<double>::infinity();
        g.steps.push_back(topTokens(row, 10, impl_->tokenizer));
        const torch::Tensor mean = weights.back()[0].mean(0)[last].to(torch::kFloat).contiguous();
        g.attention.emplace_back(mean.data_ptr<float>(), mean.data_ptr<float>() + mean.numel());
        int next = 0;
        if (o.temperature <= 0) {
            next = g.steps.back().front().id;
        } else {
            std::vector<double> logprobs(row.data_ptr<double>(), row.data_ptr<double>() + row.numel());
            const std::vector<double> p = temperatureSoftmax(logprobs, o.temperature);
            next = static_cast<int>(drawFromCut(cutDistribution(p, o.topK, o.topP), p, unitDraw(rng)));
        }
        ids.push_back(next);
        g.generated.push_back(next);
    }
    g.text = impl_->tokenizer.decode(g.generated);
    return g;
}

std::vector<double> LmModel::lossPerPosition(const std::vector<std::vector<int>>& documents) const {
    const int C = impl_->config.context;
    std::vector<double> sum(static_cast<std::size_t>(C), 0.0);
    std::vector<int> count(static_cast<std::size_t>(C), 0);
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    for (const auto& doc : documents) {
        const int n = std::min(static_cast<int>(doc.size()), C);
        if (n < 1) continue;
        std::vector<int> input{impl_->tokenizer.specials().bos};
        input.insert(input.end(), doc.begin(), doc.begin() + (n - 1));
        const torch::Tensor logits = impl_->net->forward(idTensor({input}))[0];
        const torch::Tensor targets = torch::tensor(std::vector<int64_t>(doc.begin(), doc.begin() + n), torch::kLong);
        const torch::Tensor losses = torch::nn::functional::cross_entropy(
            logits, targets, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
        const torch::Tensor l = losses.to(torch::kDouble).contiguous();
        for (int i = 0; i < n; ++i) {
            sum[static_cast<std::size_t>(i)] += l.data_ptr<double>()[i];
            ++count[static_cast<std::size_t>(i)];
        }
    }
    std::vector<double> out;
    for (int i = 0; i < C && count[static_cast<std::size_t>(i)] > 0; ++i)
        out.push_back(sum[static_cast<std::size_t>(i)] / count[static_cast<std::size_t>(i)]);
    return out;
}

LmCircuitScores LmModel::circuits(int probes, std::uint64_t seed) const {
    LmCircuitScores s;
    const int L = (impl_->config.context - 1) / 2;  // <bos> + two copies fit the context
    if (probes < 1 || L < 2 || impl_->tokenizer.ordinaryCount() == 0) return s;
    std::vector<std::vector<int>> rows;
    for (int p = 0; p < probes; ++p) rows.push_back(lmRepeatedSequence(impl_->tokenizer, L, seed + static_cast<std::uint64_t>(p)));
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    std::vector<torch::Tensor> weights;
    const torch::Tensor ids = idTensor(rows);
    const torch::Tensor logits = impl_->net->forward(ids, &weights);  // [P, T, V]
    const torch::Tensor predicted = logits.argmax(-1).contiguous();
    const auto T = static_cast<int64_t>(rows.front().size());
    int right = 0, total = 0;
    for (int p = 0; p < probes; ++p) {
        std::vector<std::vector<std::vector<float>>> maps;
        for (const torch::Tensor& layer : weights) {
            std::vector<std::vector<float>> heads;
            for (int64_t h = 0; h < layer.size(1); ++h) {
                const torch::Tensor w = layer[p][h].to(torch::kFloat).contiguous();
                heads.emplace_back(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
            }
            maps.push_back(std::move(heads));
        }
        const LmHeadScores one = scoreHeads(rows[static_cast<std::size_t>(p)], maps);
        auto add = [&](std::vector<std::vector<double>>& to, const std::vector<std::vector<double>>& from) {
            if (to.empty()) to.assign(from.size(), {});
            for (std::size_t l = 0; l < from.size(); ++l) {
                if (to[l].empty()) to[l].assign(from[l].size(), 0.0);
                for (std::size_t h = 0; h < from[l].size(); ++h) to[l][h] += from[l][h] / probes;
            }
        };
        add(s.heads.previousToken, one.previousToken);
        add(s.heads.duplicateToken, one.duplicateToken);
        add(s.heads.induction, one.induction);
        // The second copy: position i (1 + L <= i < T - 1) predicts token i + 1.
        for (int64_t i = 1 + L; i + 1 < T; ++i) {
            ++total;
            right += predicted[p][i].item<int64_t>() == rows[static_cast<std::size_t>(p)][static_cast<std::size_t>(i + 1)];
        }
    }
    s.copyAccuracy = total ? static_cast<double>(right) / total : 0.0;
    // The loss at each position of the probes (position i predicts token i + 1).
    const torch::Tensor losses = torch::nn::functional::cross_entropy(
        logits.narrow(1, 0, T - 1).reshape({-1, logits.size(2)}), ids.narrow(1, 1, T - 1).reshape({-1}),
        torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kNone));
    const torch::Tensor perPosition = losses.view({probes, T - 1}).mean(0).to(torch::kDouble).contiguous();
    s.inContextLearning = inContextLearningScore(
        std::vector<double>(perPosition.data_ptr<double>(), perPosition.data_ptr<double>() + perPosition.numel()));
    return s;
}

}  // namespace attnlab
