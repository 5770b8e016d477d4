// The explanation lab for a ViT (base/vision/ImageExplanation.h): gradients of the class logit
// with respect to the pixels and to every layer's attention, aggregated per patch.
#include <algorithm>

#include "ImageModels.h"
#include "base/InputError.h"
#include "engine/detail/VisionImpl.h"
#include "engine/nn/networks/TransformerClassifierNet.h"  // attentionRollout

namespace attnlab {

namespace {

std::vector<double> doubles(const torch::Tensor& t) {
    torch::Tensor c = t.to(torch::kDouble).contiguous();
    return std::vector<double>(c.data_ptr<double>(), c.data_ptr<double>() + c.numel());
}

// [C, S, S] -> [g, g] patches of side P: the sum over each patch's pixels and channels.
torch::Tensor perPatchSum(const torch::Tensor& x, int64_t patch) {
    return x.unfold(1, patch, patch).unfold(2, patch, patch).sum({0, 3, 4});
}

// "gradient" and "grad_x_input" per patch from the gradient g [C, S, S] at the pixels x [C, S, S].
void pixelGradientMaps(const torch::Tensor& g, const torch::Tensor& x, int64_t patch, ImageExplanation& ex) {
    ex.raw["gradient"] = doubles(perPatchSum(g * g, patch).sqrt().flatten());
    ex.raw["grad_x_input"] = doubles(perPatchSum(g * x, patch).flatten());
}

// Integrated gradients of logit(images [K, C, S, S]) -> [K] at x [1, C, S, S] from the black image,
// the trapezoid rule over ex.igSteps intervals, the path's points in batches: per patch, and the sums.
template <typename Logit>
void integratedGradients(const torch::Tensor& x, int64_t patch, const Logit& logit, ImageExplanation& ex) {
    const int steps = ex.igSteps;
    const torch::Tensor alphas = torch::linspace(0.0, 1.0, steps + 1).view({steps + 1, 1, 1, 1});
    torch::Tensor sumGradient = torch::zeros_like(x[0]);
    double first = 0, last = 0;
    const int64_t batch = 64;
    for (int64_t start = 0; start <= steps; start += batch) {
        const int64_t count = std::min<int64_t>(batch, steps + 1 - start);
        torch::Tensor path = (alphas.slice(0, start, start + count) * x).detach().requires_grad_(true);
        const torch::Tensor logits = logit(path);
        const torch::Tensor g = torch::autograd::grad({logits.sum()}, {path})[0];
        torch::Tensor weights = torch::full({count, 1, 1, 1}, 1.0 / steps);
        if (start == 0) {
            weights[0] = 0.5 / steps;
            first = logits[0].item<double>();
        }
        if (start + count == steps + 1) {
            weights[count - 1] = 0.5 / steps;
            last = logits[count - 1].item<double>();
        }
        sumGradient += (g * weights).sum(0).detach();
    }
    const torch::Tensor attribution = sumGradient * x[0];  // (x - 0) * mean gradient
    ex.raw["integrated_gradients"] = doubles(perPatchSum(attribution, patch).flatten());
    ex.igAttributionSum = attribution.sum().item<double>();
    ex.igOutputDifference = last - first;
}

// The raw numbers as distributions, their agreement, and the deletion test with `probability`.
void finish(ImageExplanation& ex, const Image& input, const ClassProbability& probability) {
    for (const auto& [method, values] : ex.raw) ex.maps[method] = magnitudeDistribution(values);
    imageRankAgreement(ex);
    ex.deletion = deletionTest(input, ex.gridRows, ex.gridCols, ex.maps, probability);
}

// Every layer's attention differentiable for as long as it lives (the fused path keeps none).
class DifferentiableVitAttention {
public:
    explicit DifferentiableVitAttention(nn::VitNetImpl& net) : net_(net) { set(true); }
    ~DifferentiableVitAttention() { set(false); }
    DifferentiableVitAttention(const DifferentiableVitAttention&) = delete;
    DifferentiableVitAttention& operator=(const DifferentiableVitAttention&) = delete;

private:
    void set(bool on) {
        for (std::size_t l = 0; l < net_.layerCount(); ++l) net_.attention(l)->setDifferentiableWeights(on);
    }
    nn::VitNetImpl& net_;
};

}  // namespace

ImageExplanation ImageClassifier::explain(const Image& image, int classIndex, int igSteps) const {
    if (igSteps < 1 || igSteps > 10000) throw ConfigError("the integrated-gradients steps must be in 1..10000");
    const VitConfig& c = impl_->config;
    const int classes = static_cast<int>(impl_->classes.size());
    if (classIndex < -1 || classIndex >= classes) throw ConfigError("class index out of range");
    const Image input = toModelInput(image, c.channels, c.imageSize);
    const ImageClassification classified = classify(input);
    const int k = classIndex < 0 ? classified.labelIndex : classIndex;

    ImageExplanation ex;
    ex.classIndex = k;
    ex.label = impl_->classes[static_cast<std::size_t>(k)];
    ex.probability = classified.probabilities[static_cast<std::size_t>(k)];
    ex.imageHeight = ex.imageWidth = c.imageSize;
    ex.gridRows = ex.gridCols = gridSide(c);
    ex.igSteps = igSteps;
    ex.raw["rollout"].assign(classified.rollout.begin(), classified.rollout.end());

    nn::VitNetImpl& net = *impl_->net;
    const EvalModeGuard evalMode(net);
    torch::AutoGradMode gradients(true);
    const torch::Tensor x = imagesTensor({&input});  // [1, C, S, S]
    // The gradient with respect to the pixels and to every layer's attention, from one pass.
    {
        const DifferentiableVitAttention differentiable(net);
        torch::Tensor pixels = x.clone().requires_grad_(true);
        const nn::VitOutput out = net.forward(pixels);
        // Every layer's map is in the graph with full attention; a pattern's may not be, and then
        // there is no gradient-weighted rollout.
        bool complete = !out.attention.empty();
        for (const auto& a : out.attention) complete = complete && a.defined() && a.requires_grad();
        std::vector<torch::Tensor> wrt{pixels};
        if (complete)
            for (const auto& a : out.attention) wrt.push_back(a);
        const auto grads = torch::autograd::grad({out.logits[0][k]}, wrt, {}, false, false, /*allow_unused=*/true);
        pixelGradientMaps(grads[0][0], x[0], c.patch, ex);
        // Chefer et al. 2021: R = I; R += mean over heads of (grad * A)^+, times R, layer by layer.
        for (std::size_t l = 1; complete && l < grads.size(); ++l) complete = grads[l].defined();
        if (complete) {
            torch::NoGradGuard noGrad;
            const int64_t tokens = out.attention.front().size(2);
            torch::Tensor relevance = torch::eye(tokens, x.options());
            for (std::size_t l = 0; l < out.attention.size(); ++l) {
                const torch::Tensor cam = (grads[l + 1][0] * out.attention[l][0]).clamp_min(0).mean(0);  // [T, T]
                relevance = relevance + torch::matmul(cam, relevance);
            }
            ex.raw["grad_rollout"] = doubles(relevance[0].slice(0, 1));
        }
    }
    integratedGradients(x, c.patch, [&](const torch::Tensor& images) { return net.forward(images).logits.select(1, k); }, ex);
    finish(ex, input, [&](const std::vector<Image>& images) { return probabilityOf(images, k); });
    return ex;
}

ImageExplanation ImageCaptioner::explainWord(const Image& image, int wordIndex, int igSteps) const {
    if (igSteps < 1 || igSteps > 10000) throw ConfigError("the integrated-gradients steps must be in 1..10000");
    const CaptionerConfig& c = impl_->config;
    const Image input = toModelInput(image, c.channels, c.imageSize);
    const Captioning captioned = caption(input);
    if (wordIndex < 0 || wordIndex >= static_cast<int>(captioned.tokens.size()))
        throw ConfigError("word " + std::to_string(wordIndex) + " is not in the caption (" +
                          std::to_string(captioned.tokens.size()) + " words, 0 = the first)");
    const auto t = static_cast<int64_t>(wordIndex);
    const std::int64_t word = impl_->vocabulary.id(captioned.tokens[static_cast<std::size_t>(wordIndex)]);
    // The decoder's inputs up to the word: <s> and the words before it.
    std::vector<std::int64_t> prefix{Vocabulary::kBos};
    for (int64_t i = 0; i < t; ++i) prefix.push_back(impl_->vocabulary.id(captioned.tokens[static_cast<std::size_t>(i)]));
    const torch::Tensor inputs = torch::tensor(prefix, torch::kLong).unsqueeze(0);  // [1, t + 1]

    ImageExplanation ex;
    ex.caption = captioned.tokens;
    ex.wordIndex = wordIndex;
    ex.classIndex = static_cast<int>(word);
    ex.label = captioned.tokens[static_cast<std::size_t>(wordIndex)];
    ex.imageHeight = ex.imageWidth = c.imageSize;
    ex.gridRows = ex.gridCols = gridSide(c);
    ex.igSteps = igSteps;
    ex.raw["attention"].assign(captioned.attention[static_cast<std::size_t>(wordIndex)].begin(),
                               captioned.attention[static_cast<std::size_t>(wordIndex)].end());

    nn::CaptionerNet net = impl_->net;
    const EvalModeGuard evalMode(*net);
    // The word's logit for each image of a batch [K, C, S, S], the same words before it.
    auto logitsAt = [&](const torch::Tensor& images) {
        return net->forward(images, inputs.expand({images.size(0), -1})).first.select(1, t);  // [K, V]
    };
    torch::AutoGradMode gradients(true);
    const torch::Tensor x = imagesTensor({&input});
    {
        torch::Tensor pixels = x.clone().requires_grad_(true);
        const torch::Tensor logits = logitsAt(pixels);
        {
            torch::NoGradGuard noGrad;
            ex.probability = torch::softmax(logits[0], 0)[word].item<double>();
        }
        pixelGradientMaps(torch::autograd::grad({logits[0][word]}, {pixels})[0][0], x[0], 8, ex);
    }
    integratedGradients(x, 8, [&](const torch::Tensor& images) { return logitsAt(images).select(1, word); }, ex);
    finish(ex, input, [&](const std::vector<Image>& images) {
        std::vector<double> out;
        c10::InferenceMode inference;
        for (std::size_t start = 0; start < images.size(); start += 256) {
            std::vector<const Image*> members;
            for (std::size_t i = start; i < std::min(images.size(), start + 256); ++i) members.push_back(&images[i]);
            const torch::Tensor p = torch::softmax(logitsAt(imagesTensor(members)), 1).select(1, word).to(torch::kDouble).contiguous();
            out.insert(out.end(), p.data_ptr<double>(), p.data_ptr<double>() + p.numel());
        }
        return out;
    });
    return ex;
}

}  // namespace attnlab
