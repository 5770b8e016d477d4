// The vision models: classification with the ViT's attention and rollout, captions with each
// word's attention (greedy and beam search), and their checkpoints.
#include "ImageModels.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/io/CheckpointMetadata.h"
#include "base/vision/ImageFiles.h"
#include "base/InputError.h"
#include "base/io/Safetensors.h"
#include "base/TaskIds.h"
#include "engine/detail/ModuleTensors.h"
#include "engine/detail/VisionImpl.h"
#include "engine/nn/networks/TransformerClassifierNet.h"  // attentionRollout

namespace attnlab {

namespace {

std::vector<float> floats(const torch::Tensor& t) {
    torch::Tensor c = t.to(torch::kFloat).contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

std::vector<float> renormalised(const torch::Tensor& row) { return floats(row / row.sum().clamp_min(1e-12)); }

void checkImage(const Image& image) {
    if (image.height < 1 || image.width < 1 || (image.channels != 1 && image.channels != 3) ||
        image.pixels.size() != static_cast<std::size_t>(image.height) * image.width * image.channels)
        throw ConfigError("the image is empty or damaged");
}

SafetensorsContent checkpointContent(const std::map<std::string, std::string>& extra, const char* task,
                                     const std::string& config) {
    SafetensorsContent content;
    content.metadata = extra;
    setFormatMetadata(content.metadata, task);
    content.metadata["config"] = config;
    return content;
}

// The file's container, checked to hold an AttnLab model of `task` (what = its name in messages).
SafetensorsContent readCheckpoint(const std::string& path, const char* task, const char* what) {
    SafetensorsContent content = readSafetensors(path);
    checkModelTask(content.metadata, path, task, what);
    checkFormatVersion(content.metadata, path);
    return content;
}

template <typename Config>
void checkWeightCount(const Config& config, const SafetensorsContent& content, const std::string& path) {
    if (attnlab::parameterCount(config) != storedWeights(content))
        throw ModelFileError(path, "the config describes " + std::to_string(attnlab::parameterCount(config)) +
                                       " weights but the file holds " + std::to_string(storedWeights(content)));
}

}  // namespace

Image toModelInput(const Image& image, int channels, int size) {
    checkImage(image);
    Image converted = image;
    if (image.channels != channels) {
        converted.channels = channels;
        const std::size_t n = static_cast<std::size_t>(image.height) * image.width;
        converted.pixels.assign(n * static_cast<std::size_t>(channels), 0);
        for (std::size_t i = 0; i < n; ++i) {
            if (channels == 1) {
                const int sum = image.pixels[3 * i] + image.pixels[3 * i + 1] + image.pixels[3 * i + 2];
                converted.pixels[i] = static_cast<std::uint8_t>((sum + 1) / 3);
            } else {
                converted.pixels[3 * i] = converted.pixels[3 * i + 1] = converted.pixels[3 * i + 2] = image.pixels[i];
            }
        }
    }
    if (converted.height != size || converted.width != size) converted = resizeImage(converted, size, size);
    return converted;
}

torch::Tensor imagesTensor(const std::vector<const Image*>& images) {
    const Image& first = *images.front();
    const int64_t B = static_cast<int64_t>(images.size()), C = first.channels, H = first.height, W = first.width;
    torch::Tensor bytes = torch::empty({B, H, W, C}, torch::kUInt8);
    std::uint8_t* out = bytes.data_ptr<std::uint8_t>();
    const auto each = static_cast<std::size_t>(H * W * C);
    for (int64_t b = 0; b < B; ++b) std::copy_n(images[static_cast<std::size_t>(b)]->pixels.data(), each, out + b * static_cast<int64_t>(each));
    return bytes.permute({0, 3, 1, 2}).to(torch::kFloat).div_(255.0).contiguous();
}

torch::Tensor imageTensor(const Image& image, int channels, int size) {
    const Image converted = toModelInput(image, channels, size);
    return imagesTensor({&converted});
}

std::string visionTaskOf(const std::string& path) {
    const SafetensorsContent content = readSafetensors(path);
    auto it = content.metadata.find("task");
    if (it == content.metadata.end()) return {};
    return it->second == tasks::kImageClassify || it->second == tasks::kCaption ? it->second : std::string();
}

// ---- ImageClassifier ---------------------------------------------------------------------

ImageClassifier::ImageClassifier(VitConfig config, std::vector<std::string> classes, std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
    config.classes = static_cast<int>(classes.size());
    checkConfig(config);
    impl_->config = config;
    impl_->classes = std::move(classes);
    torch::manual_seed(seed);
    impl_->net = nn::VitNet(config);
}

ImageClassifier::ImageClassifier(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ImageClassifier::ImageClassifier(ImageClassifier&&) noexcept = default;
ImageClassifier& ImageClassifier::operator=(ImageClassifier&&) noexcept = default;
ImageClassifier::~ImageClassifier() = default;

const VitConfig& ImageClassifier::config() const { return impl_->config; }
const std::vector<std::string>& ImageClassifier::classes() const { return impl_->classes; }

std::int64_t ImageClassifier::parameterCount() const {
    return weightCount(*impl_->net);
}

ImageClassification ImageClassifier::classify(const Image& image) const {
    const VitConfig& c = impl_->config;
    const torch::Tensor input = imageTensor(image, c.channels, c.imageSize);
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    const nn::VitOutput out = impl_->net->forward(input);
    ImageClassification result;
    result.probabilities.clear();
    for (float p : floats(torch::softmax(out.logits[0], 0))) result.probabilities.push_back(p);
    result.labelIndex = static_cast<int>(out.logits[0].argmax().item<std::int64_t>());
    result.label = impl_->classes[static_cast<std::size_t>(result.labelIndex)];
    result.imageHeight = result.imageWidth = c.imageSize;
    result.gridRows = result.gridCols = gridSide(c);
    using torch::indexing::None;
    using torch::indexing::Slice;
    for (const auto& layer : out.attention) {
        std::vector<AttentionMap> heads;
        for (int64_t h = 0; h < layer.size(1); ++h) {
            AttentionMap map;
            map.rows = map.cols = static_cast<int>(layer.size(2));
            map.weights = floats(layer[0][h]);
            heads.push_back(std::move(map));
        }
        result.encoder.push_back(std::move(heads));
        result.clsRows.push_back(renormalised(layer[0].mean(0)[0].index({Slice(1, None)})));
    }
    result.rollout = renormalised(nn::attentionRollout(out.attention)[0][0].index({Slice(1, None)}));
    return result;
}

namespace {

// The ViT's logits for the images, 256 at a time (converted to its input first), each batch handed
// to `use` with the index of its first image.
template <typename Use>
void batchedLogits(const ImageClassifier::Impl& impl, const std::vector<Image>& images, Use use) {
    const VitConfig& c = impl.config;
    nn::VitNet net = impl.net;  // the holder shares the module
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*net);
    const std::size_t batch = 256;
    for (std::size_t start = 0; start < images.size(); start += batch) {
        std::vector<Image> converted;
        std::vector<const Image*> members;
        for (std::size_t i = start; i < std::min(images.size(), start + batch); ++i)
            converted.push_back(toModelInput(images[i], c.channels, c.imageSize));
        for (const auto& im : converted) members.push_back(&im);
        use(net->forward(imagesTensor(members)).logits);
    }
}

}  // namespace

std::vector<int> ImageClassifier::predict(const std::vector<Image>& images) const {
    std::vector<int> labels;
    batchedLogits(*impl_, images, [&](const torch::Tensor& logits) {
        const torch::Tensor argmax = logits.argmax(1).contiguous();
        for (int64_t i = 0; i < argmax.numel(); ++i) labels.push_back(static_cast<int>(argmax.data_ptr<int64_t>()[i]));
    });
    return labels;
}

std::vector<double> ImageClassifier::probabilityOf(const std::vector<Image>& images, int classIndex) const {
    if (classIndex < 0 || classIndex >= static_cast<int>(impl_->classes.size())) throw ConfigError("class index out of range");
    std::vector<double> out;
    batchedLogits(*impl_, images, [&](const torch::Tensor& logits) {
        const torch::Tensor p = torch::softmax(logits, 1).select(1, classIndex).to(torch::kDouble).contiguous();
        out.insert(out.end(), p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
    });
    return out;
}

void ImageClassifier::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content = checkpointContent(extraMetadata, tasks::kImageClassify, toJson(impl_->config));
    content.metadata["labels"] = stringsToJson(impl_->classes);
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

ImageClassifier ImageClassifier::load(const std::string& path) {
    const SafetensorsContent content = readCheckpoint(path, tasks::kImageClassify, "an image classifier");
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = vitConfigFromJson(requiredMetadata(content.metadata, "config", path, "image classifier"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, e.what());
    }
    impl->classes = stringsFromJson(requiredMetadata(content.metadata, "labels", path, "image classifier"), path, "labels");
    if (static_cast<int>(impl->classes.size()) != impl->config.classes)
        throw ModelFileError(path, "the label count disagrees with the config");
    checkWeightCount(impl->config, content, path);
    impl->net = nn::VitNet(impl->config);
    loadTensorsInto(content, *impl->net, path);
    return ImageClassifier(std::move(impl));
}

// ---- ImageCaptioner ----------------------------------------------------------------------

ImageCaptioner::ImageCaptioner(CaptionerConfig config, Vocabulary vocabulary, std::uint64_t seed)
    : impl_(std::make_unique<Impl>()) {
    config.vocabulary = static_cast<std::int64_t>(vocabulary.size());
    checkConfig(config);
    impl_->config = config;
    impl_->vocabulary = std::move(vocabulary);
    torch::manual_seed(seed);
    impl_->net = nn::CaptionerNet(config);
}

ImageCaptioner::ImageCaptioner(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ImageCaptioner::ImageCaptioner(ImageCaptioner&&) noexcept = default;
ImageCaptioner& ImageCaptioner::operator=(ImageCaptioner&&) noexcept = default;
ImageCaptioner::~ImageCaptioner() = default;

const CaptionerConfig& ImageCaptioner::config() const { return impl_->config; }
const Vocabulary& ImageCaptioner::vocabulary() const { return impl_->vocabulary; }

std::int64_t ImageCaptioner::parameterCount() const {
    return weightCount(*impl_->net);
}

Captioning ImageCaptioner::caption(const Image& image, int beam) const {
    if (beam < 1 || beam > 16) throw ConfigError("the beam must be in 1..16");
    const CaptionerConfig& c = impl_->config;
    const torch::Tensor input = imageTensor(image, c.channels, c.imageSize);
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*impl_->net);
    nn::CaptionerNet& net = impl_->net;
    const torch::Tensor features = net->encode(input), keys = net->keys(features);

    struct Hypothesis {
        std::vector<std::int64_t> tokens;
        std::vector<std::vector<float>> alphas;
        double logp = 0;
        torch::Tensor state;  // [H]
    };
    std::vector<Hypothesis> live{{{}, {}, 0.0, net->initialState(features)[0]}}, finished;
    const double minusInfinity = -std::numeric_limits<double>::infinity();
    for (int t = 0; t < c.maxLength && !live.empty(); ++t) {
        std::vector<std::int64_t> previous;
        std::vector<torch::Tensor> states;
        for (const auto& h : live) {
            previous.push_back(h.tokens.empty() ? Vocabulary::kBos : h.tokens.back());
            states.push_back(h.state);
        }
        const auto k = static_cast<int64_t>(live.size());
        nn::CaptionStep s = net->step(torch::tensor(previous, torch::kLong), torch::stack(states),
                                      features.expand({k, -1, -1}), keys.expand({k, -1, -1}));
        torch::Tensor logp = torch::log_softmax(s.logits, 1).to(torch::kDouble);
        logp.select(1, Vocabulary::kPad).fill_(minusInfinity);
        logp.select(1, Vocabulary::kBos).fill_(minusInfinity);
        if (t == 0) logp.select(1, Vocabulary::kEos).fill_(minusInfinity);  // at least one word
        auto top = logp.topk(beam, 1);
        const torch::Tensor values = std::get<0>(top).contiguous(), indices = std::get<1>(top).contiguous();
        struct Candidate {
            double logp;
            std::size_t from;
            std::int64_t token;
        };
        std::vector<Candidate> candidates;
        for (int64_t i = 0; i < k; ++i)
            for (int64_t j = 0; j < beam; ++j)
                candidates.push_back({live[static_cast<std::size_t>(i)].logp + values[i][j].item<double>(),
                                      static_cast<std::size_t>(i), indices[i][j].item<std::int64_t>()});
        std::sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) { return a.logp > b.logp; });
        std::vector<Hypothesis> next;
        for (const auto& cand : candidates) {
            if (next.size() + finished.size() >= static_cast<std::size_t>(beam) || !std::isfinite(cand.logp)) break;
            Hypothesis h = live[cand.from];
            h.logp = cand.logp;
            if (cand.token == Vocabulary::kEos) {
                finished.push_back(std::move(h));
                continue;
            }
            h.tokens.push_back(cand.token);
            h.alphas.push_back(floats(s.alpha[static_cast<int64_t>(cand.from)]));
            h.state = s.state[static_cast<int64_t>(cand.from)];
            next.push_back(std::move(h));
        }
        live = std::move(next);
    }
    for (auto& h : live) finished.push_back(std::move(h));  // cut at the maximum length
    // The best by mean log-probability per word (</s> counted), so that beams do not favour short captions.
    auto score = [](const Hypothesis& h) { return h.logp / static_cast<double>(h.tokens.size() + 1); };
    const Hypothesis& best = *std::max_element(finished.begin(), finished.end(),
                                               [&](const Hypothesis& a, const Hypothesis& b) { return score(a) < score(b); });
    Captioning result;
    for (auto id : best.tokens) result.tokens.push_back(impl_->vocabulary.token(id));
    result.attention = best.alphas;
    result.logProbability = best.logp;
    result.imageHeight = result.imageWidth = c.imageSize;
    result.gridRows = result.gridCols = gridSide(c);
    return result;
}

void ImageCaptioner::save(const std::string& path, const std::map<std::string, std::string>& extraMetadata) const {
    SafetensorsContent content = checkpointContent(extraMetadata, tasks::kCaption, toJson(impl_->config));
    content.metadata["vocab"] = stringsToJson(impl_->vocabulary.tokens());
    appendTensors(*impl_->net, content);
    writeSafetensors(path, content);
}

ImageCaptioner ImageCaptioner::load(const std::string& path) {
    const SafetensorsContent content = readCheckpoint(path, tasks::kCaption, "an image captioner");
    auto impl = std::make_unique<Impl>();
    try {
        impl->config = captionerConfigFromJson(requiredMetadata(content.metadata, "config", path, "image captioner"));
    } catch (const ConfigError& e) {
        throw ModelFileError(path, e.what());
    }
    impl->vocabulary = vocabularyFromJson(requiredMetadata(content.metadata, "vocab", path, "image captioner"), path, "vocab");
    if (static_cast<std::int64_t>(impl->vocabulary.size()) != impl->config.vocabulary)
        throw ModelFileError(path, "the vocabulary size disagrees with the config");
    checkWeightCount(impl->config, content, path);
    impl->net = nn::CaptionerNet(impl->config);
    loadTensorsInto(content, *impl->net, path);
    return ImageCaptioner(std::move(impl));
}

}  // namespace attnlab
