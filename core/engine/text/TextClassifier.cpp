// TextClassifier: classification, the explanation methods, and the checkpoint.
#include "TextClassifier.h"

#include <cmath>
#include <limits>

#include "base/io/CheckpointMetadata.h"
#include "base/InputError.h"
#include "base/analysis/RankCorrelation.h"
#include "base/io/Safetensors.h"
#include "base/TaskIds.h"
#include "engine/detail/ClassifierImpl.h"
#include "engine/detail/ModuleTensors.h"

namespace attnlab {

namespace {

torch::Tensor idsTensor(const std::vector<std::int64_t>& ids) { return torch::tensor(ids, torch::kLong).unsqueeze(0); }
torch::Tensor lengthTensor(std::size_t n, std::int64_t rows = 1) {
    return torch::full({rows}, static_cast<std::int64_t>(n), torch::kLong);
}

std::vector<double> toDoubles(const torch::Tensor& t) {
    torch::Tensor c = t.to(torch::kDouble).contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

}  // namespace

std::vector<std::int64_t> TextClassifier::Impl::encode(const std::vector<std::string>& words, bool* truncated) const {
    std::vector<std::int64_t> ids = vocabulary.encode(words);
    const auto limit = static_cast<std::size_t>(config.maxLength);
    if (truncated) *truncated = ids.size() > limit;
    if (ids.size() > limit) ids.resize(limit);
    return ids;
}

TextClassifier::TextClassifier(ClassifierConfig config, Vocabulary vocabulary, std::vector<std::string> labels,
                               TokenizerOptions tokenizer, std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
    config.vocabulary = static_cast<std::int64_t>(vocabulary.size());
    config.classes = static_cast<int>(labels.size());
    checkConfig(config);
    impl_->config = config;
    impl_->vocabulary = std::move(vocabulary);
    impl_->labels = std::move(labels);
    impl_->tokenizer = tokenizer;
    torch::manual_seed(seed);
    impl_->net = nn::makeClassifierNetwork(config);
}

TextClassifier::TextClassifier(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
TextClassifier::TextClassifier(TextClassifier&&) noexcept = default;
TextClassifier& TextClassifier::operator=(TextClassifier&&) noexcept = default;
TextClassifier::~TextClassifier() = default;

const ClassifierConfig& TextClassifier::config() const { return impl_->config; }
const Vocabulary& TextClassifier::vocabulary() const { return impl_->vocabulary; }
const std::vector<std::string>& TextClassifier::labels() const { return impl_->labels; }
const TokenizerOptions& TextClassifier::tokenizerOptions() const { return impl_->tokenizer; }

std::int64_t TextClassifier::parameterCount() const {
    return weightCount(*impl_->net);
}

int TextClassifier::labelIndex(const std::string& label) const {
    for (std::size_t i = 0; i < impl_->labels.size(); ++i)
        if (impl_->labels[i] == label) return static_cast<int>(i);
    return -1;
}

std::vector<std::string> TextClassifier::tokens(const std::string& text) const {
    std::vector<std::string> out;
    for (auto id : impl_->encode(classifierTokens(text, impl_->config.units, impl_->tokenizer), nullptr))
        out.push_back(impl_->vocabulary.token(id));
    return out;
}

Classification TextClassifier::classify(const std::string& text) const {
    const auto words = classifierTokens(text, impl_->config.units, impl_->tokenizer);
    if (words.empty()) throw ConfigError("the text is empty: type at least one word");
    Classification result;
    const auto ids = impl_->encode(words, &result.truncated);
    for (auto id : ids) result.tokens.push_back(impl_->vocabulary.token(id));

    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    nn::ClassifierOutput out = impl_->net->forward(idsTensor(ids), lengthTensor(ids.size()));
    result.probabilities = toDoubles(torch::softmax(out.logits[0], 0));
    result.labelIndex = static_cast<int>(out.logits[0].argmax().item<std::int64_t>());
    result.label = impl_->labels[static_cast<std::size_t>(result.labelIndex)];
    if (impl_->config.architecture == ClassifierArchitecture::Transformer) {
        result.tokens.insert(result.tokens.begin(), kClsToken);
        torch::Tensor rollout = out.attention[0][0].contiguous();
        result.rollout.assign(rollout.data_ptr<float>(), rollout.data_ptr<float>() + rollout.numel());
        for (const auto& layer : out.encoder) {
            std::vector<AttentionMap> heads;
            for (int64_t h = 0; h < layer.size(1); ++h) {
                torch::Tensor w = layer[0][h].contiguous();
                AttentionMap map;
                map.rows = static_cast<int>(w.size(0));
                map.cols = static_cast<int>(w.size(1));
                map.weights.assign(w.data_ptr<float>(), w.data_ptr<float>() + w.numel());
                heads.push_back(std::move(map));
            }
            result.encoder.push_back(std::move(heads));
        }
    } else if (out.attention.defined()) {
        torch::Tensor a = out.attention[0].contiguous();  // [R, S]
        for (int64_t r = 0; r < a.size(0); ++r)
            result.pooling.emplace_back(a[r].data_ptr<float>(), a[r].data_ptr<float>() + a.size(1));
    }
    return result;
}

double TextClassifier::logit(const std::vector<std::int64_t>& ids, int classIndex,
                             const std::vector<double>& scales) const {
    if (ids.empty()) throw ConfigError("no tokens");
    if (!scales.empty() && scales.size() != ids.size()) throw ConfigError("one scale per token");
    if (classIndex < 0 || classIndex >= static_cast<int>(impl_->labels.size())) throw ConfigError("class index out of range");
    torch::NoGradGuard noGrad;
    const EvalModeGuard evalMode(*impl_->net);
    torch::Tensor emb = impl_->net->embed(idsTensor(ids)).to(torch::kDouble);
    if (!scales.empty()) emb = emb * torch::tensor(scales, torch::kDouble).view({1, -1, 1});
    return impl_->net->forwardEmbedded(emb.to(torch::kFloat), lengthTensor(ids.size())).logits[0][classIndex].item<double>();
}

std::vector<double> TextClassifier::probabilitiesWithPooling(const std::vector<std::int64_t>& ids,
                                                             const std::vector<std::vector<float>>& pooling) const {
    if (impl_->config.architecture != ClassifierArchitecture::Gru || !poolingAttends(impl_->config.pooling))
        throw ConfigError("the model has no attention pooling");
    if (ids.empty() || pooling.size() != static_cast<std::size_t>(impl_->config.hops))
        throw ConfigError("one row of weights per hop");
    std::vector<float> flat;
    for (const auto& row : pooling) {
        if (row.size() != ids.size()) throw ConfigError("one weight per token");
        flat.insert(flat.end(), row.begin(), row.end());
    }
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    torch::Tensor weights = torch::tensor(flat).view({1, static_cast<int64_t>(pooling.size()), static_cast<int64_t>(ids.size())});
    nn::ClassifierOutput out =
        impl_->net->forwardEmbedded(impl_->net->embed(idsTensor(ids)), lengthTensor(ids.size()), weights);
    return toDoubles(torch::softmax(out.logits[0], 0));
}

std::vector<std::int64_t> TextClassifier::ids(const std::string& text) const {
    return impl_->encode(classifierTokens(text, impl_->config.units, impl_->tokenizer), nullptr);
}

std::vector<double> wordAttention(const Classification& c) {
    if (!c.rollout.empty()) return {c.rollout.begin(), c.rollout.end()};
    if (c.pooling.empty()) return {};
    std::vector<double> mean(c.pooling.front().size(), 0.0);
    for (const auto& hop : c.pooling)
        for (std::size_t i = 0; i < hop.size() && i < mean.size(); ++i) mean[i] += hop[i] / static_cast<double>(c.pooling.size());
    return mean;
}

Explanation TextClassifier::explain(const std::string& text, int classIndex, int igSteps) const {
    if (igSteps < 1 || igSteps > 10000) throw ConfigError("the integrated-gradients steps must be in 1..10000");
    const auto words = classifierTokens(text, impl_->config.units, impl_->tokenizer);
    if (words.empty()) throw ConfigError("the text is empty: type at least one word");
    const Classification classified = classify(text);
    const int classes = static_cast<int>(impl_->labels.size());
    if (classIndex < -1 || classIndex >= classes) throw ConfigError("class index out of range");
    const int c = classIndex < 0 ? classified.labelIndex : classIndex;

    Explanation ex;
    ex.tokens = classified.tokens;
    if (!classified.rollout.empty()) ex.tokens.erase(ex.tokens.begin());  // the words, without [CLS]
    ex.classIndex = c;
    ex.label = impl_->labels[static_cast<std::size_t>(c)];
    ex.probability = classified.probabilities[static_cast<std::size_t>(c)];
    ex.igSteps = igSteps;
    const auto ids = impl_->encode(words, nullptr);
    const std::size_t n = ids.size();

    nn::ClassifierNet& net = *impl_->net;
    const EvalModeGuard evalMode(net);
    torch::AutoGradMode gradients(true);
    torch::Tensor embedded = net.embed(idsTensor(ids)).detach();  // [1, n, E]

    // The gradient of the class logit at the text.
    {
        torch::Tensor e = embedded.clone().requires_grad_(true);
        net.forwardEmbedded(e, lengthTensor(n)).logits[0][c].backward();
        torch::Tensor g = e.grad()[0];  // [n, E]
        ex.methods["gradient"] = toDoubles(g.norm(2, 1));
        ex.methods["grad_x_input"] = toDoubles((g * embedded[0]).sum(1));
    }
    // Integrated gradients along the straight path from the zero embedding, the trapezoid rule
    // over igSteps intervals; all points in one batch.
    {
        torch::Tensor alphas = torch::linspace(0.0, 1.0, igSteps + 1).view({igSteps + 1, 1, 1});
        torch::Tensor path = (alphas * embedded).detach().requires_grad_(true);  // [N + 1, n, E]
        torch::Tensor logits = net.forwardEmbedded(path, lengthTensor(n, igSteps + 1)).logits.select(1, c);
        logits.sum().backward();
        torch::Tensor weights = torch::full({igSteps + 1, 1, 1}, 1.0 / igSteps);
        weights[0] = weights[igSteps] = 0.5 / igSteps;
        torch::Tensor meanGradient = (path.grad() * weights).sum(0);  // [n, E]
        torch::Tensor ig = (meanGradient * embedded[0]).sum(1);
        ex.methods["integrated_gradients"] = toDoubles(ig);
        ex.igAttributionSum = ig.sum().item<double>();
        ex.igOutputDifference = (logits[igSteps] - logits[0]).item<double>();
    }
    // Leave one out: each word removed, the rest re-run as one batch.
    {
        torch::NoGradGuard noGrad;
        std::vector<double> loo(n, std::numeric_limits<double>::quiet_NaN());
        if (n > 1) {
            std::vector<std::int64_t> rows;
            rows.reserve(n * (n - 1));
            for (std::size_t drop = 0; drop < n; ++drop)
                for (std::size_t i = 0; i < n; ++i)
                    if (i != drop) rows.push_back(ids[i]);
            torch::Tensor batch = torch::tensor(rows, torch::kLong).view({static_cast<int64_t>(n), static_cast<int64_t>(n - 1)});
            torch::Tensor p = torch::softmax(net.forward(batch, lengthTensor(n - 1, static_cast<int64_t>(n))).logits, 1);
            const std::vector<double> without = toDoubles(p.select(1, c));
            for (std::size_t i = 0; i < n; ++i) loo[i] = ex.probability - without[i];
        }
        ex.methods["leave_one_out"] = loo;
    }
    if (!classified.pooling.empty() || !classified.rollout.empty()) {
        ex.methods["attention"] = wordAttention(classified);
        rankAgreement(ex);
    }
    return ex;
}

// ---- checkpoint --------------------------------------------------------------------

void TextClassifier::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content;
    content.metadata = extraMetadata;
    setFormatMetadata(content.metadata, tasks::kClassify);
    content.metadata["config"] = toJson(impl_->config);
    content.metadata["vocab"] = stringsToJson(impl_->vocabulary.tokens());
    content.metadata["labels"] = stringsToJson(impl_->labels);
    content.metadata["tokenizer"] = tokenizerToJson(impl_->tokenizer);
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

bool TextClassifier::isClassifierFile(const std::string& path) {
    const SafetensorsContent content = readSafetensors(path);
    auto it = content.metadata.find("task");
    return it != content.metadata.end() && it->second == tasks::kClassify;
}

TextClassifier TextClassifier::load(const std::string& path) {
    SafetensorsContent content = readSafetensors(path);  // validates the container
    auto meta = [&](const char* key) -> const std::string& {
        return requiredMetadata(content.metadata, key, path, "classifier");
    };
    checkModelTask(content.metadata, path, tasks::kClassify, "a text classifier");
    checkFormatVersion(content.metadata, path);
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = classifierConfigFromJson(meta("config"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, e.what());
    }
    impl->vocabulary = vocabularyFromJson(meta("vocab"), path, "vocab");
    impl->labels = stringsFromJson(meta("labels"), path, "labels");
    if (static_cast<std::int64_t>(impl->vocabulary.size()) != impl->config.vocabulary ||
        static_cast<int>(impl->labels.size()) != impl->config.classes)
        throw ModelFileError(path, "vocabulary or label count disagrees with the config");
    impl->tokenizer = tokenizerFromJson(meta("tokenizer"), path);
    if (attnlab::parameterCount(impl->config) != storedWeights(content))
        throw ModelFileError(path, "the config describes " + std::to_string(attnlab::parameterCount(impl->config)) +
                                       " weights but the file holds " + std::to_string(storedWeights(content)));
    impl->net = nn::makeClassifierNetwork(impl->config);
    loadTensorsInto(content, *impl->net, path);
    return TextClassifier(std::move(impl));
}

}  // namespace attnlab
