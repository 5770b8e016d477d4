#include "Seq2SeqModel.h"

#include <cmath>
#include <sstream>

#include "engine/detail/ModelImpl.h"
#include "engine/detail/ModuleTensors.h"
#include "base/InputError.h"
#include "engine/nn/networks/GruSeq2Seq.h"
#include "engine/nn/networks/TransformerSeq2Seq.h"

namespace attnlab {

std::shared_ptr<nn::Seq2SeqNet> makeNetwork(const ModelConfig& config) {
    if (config.architecture == Architecture::Gru) return std::make_shared<nn::GruSeq2Seq>(config);
    return std::make_shared<nn::TransformerSeq2Seq>(config);
}

std::vector<std::int64_t> Seq2SeqModel::Impl::encodeSource(const std::vector<std::string>& tokens,
                                                           bool* truncated) const {
    std::vector<std::int64_t> ids = source.encode(tokens);
    const std::size_t limit = static_cast<std::size_t>(config.maxLength) - 1;  // room for </s>
    if (truncated) *truncated = ids.size() > limit;
    if (ids.size() > limit) ids.resize(limit);
    ids.push_back(Vocabulary::kEos);
    return ids;
}

Seq2SeqModel::Seq2SeqModel(ModelConfig config, Vocabulary source, Vocabulary target, TokenizerOptions tokenizer,
                           std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
    config.sourceVocab = static_cast<std::int64_t>(source.size());
    config.targetVocab = static_cast<std::int64_t>(target.size());
    checkConfig(config);
    impl_->config = config;
    impl_->source = std::move(source);
    impl_->target = std::move(target);
    impl_->tokenizer = tokenizer;
    torch::manual_seed(seed);
    impl_->net = makeNetwork(config);
}

Seq2SeqModel::Seq2SeqModel(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
Seq2SeqModel::Seq2SeqModel(Seq2SeqModel&&) noexcept = default;
Seq2SeqModel& Seq2SeqModel::operator=(Seq2SeqModel&&) noexcept = default;
Seq2SeqModel::~Seq2SeqModel() = default;

const ModelConfig& Seq2SeqModel::config() const { return impl_->config; }
const Vocabulary& Seq2SeqModel::sourceVocabulary() const { return impl_->source; }
const Vocabulary& Seq2SeqModel::targetVocabulary() const { return impl_->target; }
const TokenizerOptions& Seq2SeqModel::tokenizerOptions() const { return impl_->tokenizer; }

std::int64_t Seq2SeqModel::parameterCount() const {
    return weightCount(*impl_->net);
}

std::vector<std::string> Seq2SeqModel::sourceTokens(const std::string& sentence) const {
    bool truncated = false;
    auto ids = impl_->encodeSource(Tokenizer(impl_->tokenizer).tokenize(sentence), &truncated);
    std::vector<std::string> tokens;
    for (auto id : ids) tokens.push_back(impl_->source.token(id));
    return tokens;
}

void checkDecodeOptions(const DecodeOptions& options) {
    auto text = [](double x) {
        std::ostringstream out;
        out << x;
        return out.str();
    };
    if (options.beam < 1 || options.beam > 64) throw ConfigError("--beam must be between 1 and 64");
    if (options.sample && options.beam > 1)
        throw ConfigError("--sample cannot be combined with --beam " + std::to_string(options.beam) +
                          " (sampling draws one token per step: leave --beam at 1)");
    if (!(options.temperature > 0) || !std::isfinite(options.temperature))
        throw ConfigError("--temperature must be above 0, got " + text(options.temperature));
    if (options.topK < 0)
        throw ConfigError("--top-k must be at least 0 (0 = off), got " + std::to_string(options.topK));
    if (!(options.topP > 0 && options.topP <= 1))
        throw ConfigError("--top-p must be above 0 and at most 1, got " + text(options.topP));
    if (options.candidates < 0)
        throw ConfigError("the candidates recorded per step must be at least 0, got " +
                          std::to_string(options.candidates));
}

Translation Seq2SeqModel::translate(const std::string& sentence, const DecodeOptions& options) const {
    checkDecodeOptions(options);
    auto words = options.sourceWords.empty() ? Tokenizer(impl_->tokenizer).tokenize(sentence) : options.sourceWords;
    if (words.empty()) throw ConfigError("the sentence is empty: type at least one word");

    Translation result;
    auto ids = impl_->encodeSource(words, &result.truncated);
    for (auto id : ids) result.sourceTokens.push_back(impl_->source.token(id));

    // Inference mode, not just no-grad: no version counters or view tracking either.
    c10::InferenceMode inference;
    nn::Seq2SeqNet& net = *impl_->net;
    const EvalModeGuard evalMode(net);

    torch::Tensor src = torch::tensor(ids, torch::kLong).unsqueeze(0);  // [1, S]
    torch::Tensor srcLen = torch::tensor({static_cast<std::int64_t>(ids.size())}, torch::kLong);
    const std::int64_t limit = impl_->config.maxLength - 1;
    std::int64_t maxSteps = options.maxOutput > 0 ? options.maxOutput : 2 * static_cast<std::int64_t>(ids.size()) + 10;
    maxSteps = std::min(maxSteps, limit);

    nn::Captured captured;
    nn::Captured* capture = options.captureAttention ? &captured : nullptr;
    auto out = options.sample
                   ? sampleDecode(net, src, srcLen, options, maxSteps, impl_->target, &result.logProbability,
                                  &result.steps, capture, options.captureCache ? &result.cache : nullptr)
                   : beamSearch(net, src, srcLen, options.beam, maxSteps, &result.logProbability, capture,
                                options.recordBeam ? &result.beamTree : nullptr, &impl_->target);
    for (auto id : out) result.outputTokens.push_back(impl_->target.token(id));

    if (options.captureAttention && !out.empty()) {
        for (auto& [kind, maps] : captured) {  // [1, L, H, Tq, Tk]
            torch::Tensor all = maps.to(torch::kFloat).contiguous();
            const float* data = all.data_ptr<float>();
            const int64_t rows = all.size(3), cols = all.size(4);
            LayeredAttention layers;
            for (int64_t l = 0; l < all.size(1); ++l) {
                std::vector<AttentionMap> heads;
                for (int64_t h = 0; h < all.size(2); ++h) {
                    const float* map = data + (l * all.size(2) + h) * rows * cols;
                    heads.push_back(AttentionMap{static_cast<int>(rows), static_cast<int>(cols),
                                                 std::vector<float>(map, map + rows * cols)});
                }
                layers.push_back(std::move(heads));
            }
            result.attention[kind] = std::move(layers);
        }
    }
    return result;
}

std::vector<std::vector<std::string>> Seq2SeqModel::translateGreedy(const std::vector<std::string>& sentences) const {
    std::vector<std::vector<std::string>> results(sentences.size());
    if (sentences.empty()) return results;
    c10::InferenceMode inference;
    nn::Seq2SeqNet& net = *impl_->net;
    const EvalModeGuard evalMode(net);
    Tokenizer tokenizer(impl_->tokenizer);
    constexpr std::size_t kBatch = 64;
    for (std::size_t first = 0; first < sentences.size(); first += kBatch) {
        const std::size_t n = std::min(kBatch, sentences.size() - first);
        std::vector<std::vector<std::int64_t>> ids;
        std::int64_t longest = 0;
        for (std::size_t i = 0; i < n; ++i) {
            auto words = tokenizer.tokenize(sentences[first + i]);
            ids.push_back(impl_->encodeSource(words, nullptr));
            longest = std::max<std::int64_t>(longest, static_cast<std::int64_t>(ids.back().size()));
        }
        torch::Tensor src = torch::zeros({static_cast<std::int64_t>(n), longest}, torch::kLong);
        torch::Tensor srcLen = torch::empty({static_cast<std::int64_t>(n)}, torch::kLong);
        for (std::size_t i = 0; i < n; ++i) {
            const auto len = static_cast<std::int64_t>(ids[i].size());
            src[static_cast<std::int64_t>(i)].narrow(0, 0, len).copy_(torch::tensor(ids[i], torch::kLong));
            srcLen[static_cast<std::int64_t>(i)] = len;
        }
        const std::int64_t maxSteps = std::min<std::int64_t>(2 * longest + 10, impl_->config.maxLength - 1);
        torch::Tensor out = greedyDecode(net, src, srcLen, maxSteps);
        auto acc = out.accessor<std::int64_t, 2>();
        for (std::size_t i = 0; i < n; ++i) {
            for (std::int64_t j = 0; j < out.size(1); ++j) {
                const std::int64_t id = acc[static_cast<std::int64_t>(i)][j];
                if (id == Vocabulary::kEos || id == Vocabulary::kPad) break;
                results[first + i].push_back(impl_->target.token(id));
            }
        }
    }
    return results;
}

}  // namespace attnlab
