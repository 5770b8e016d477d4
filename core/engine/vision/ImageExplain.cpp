// The explanation lab for a ViT (base/vision/ImageExplanation.h): gradients of the class logit
// with respect to the pixels and to every layer's attention, aggregated per patch.
#include <algorithm>

#include "ImageModels.h"
#include "base/InputError.h"
#include "engine/detail/VisionImpl.h"
#include "engine/nn/TransformerClassifierNet.h"  // attentionRollout

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

// Every layer's attention differentiable for as long as it lives (the fused path keeps none).
class DifferentiableAttention {
public:
    explicit DifferentiableAttention(nn::VitNetImpl& net) : net_(net) { set(true); }
    ~DifferentiableAttention() { set(false); }
    DifferentiableAttention(const DifferentiableAttention&) = delete;
    DifferentiableAttention& operator=(const DifferentiableAttention&) = delete;

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
        const DifferentiableAttention differentiable(net);
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
        const torch::Tensor g = grads[0][0];  // [C, S, S]
        ex.raw["gradient"] = doubles(perPatchSum(g * g, c.patch).sqrt().flatten());
        ex.raw["grad_x_input"] = doubles(perPatchSum(g * x[0], c.patch).flatten());
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
    // Integrated gradients from the black image, the trapezoid rule over igSteps intervals, the
    // path's points in batches.
    {
        const torch::Tensor alphas = torch::linspace(0.0, 1.0, igSteps + 1).view({igSteps + 1, 1, 1, 1});
        torch::Tensor sumGradient = torch::zeros_like(x[0]);
        double first = 0, last = 0;
        const int64_t batch = 64;
        for (int64_t start = 0; start <= igSteps; start += batch) {
            const int64_t count = std::min<int64_t>(batch, igSteps + 1 - start);
            torch::Tensor path = (alphas.slice(0, start, start + count) * x).detach().requires_grad_(true);
            const torch::Tensor logits = net.forward(path).logits.select(1, k);
            const torch::Tensor g = torch::autograd::grad({logits.sum()}, {path})[0];
            torch::Tensor weights = torch::full({count, 1, 1, 1}, 1.0 / igSteps);
            if (start == 0) {
                weights[0] = 0.5 / igSteps;
                first = logits[0].item<double>();
            }
            if (start + count == igSteps + 1) {
                weights[count - 1] = 0.5 / igSteps;
                last = logits[count - 1].item<double>();
            }
            sumGradient += (g * weights).sum(0).detach();
        }
        const torch::Tensor attribution = sumGradient * x[0];  // (x - 0) * mean gradient
        ex.raw["integrated_gradients"] = doubles(perPatchSum(attribution, c.patch).flatten());
        ex.igAttributionSum = attribution.sum().item<double>();
        ex.igOutputDifference = last - first;
    }
    for (const auto& [method, values] : ex.raw) ex.maps[method] = magnitudeDistribution(values);
    imageRankAgreement(ex);
    ex.deletion = deletionTest(input, ex.gridRows, ex.gridCols, ex.maps,
                               [&](const std::vector<Image>& images) { return probabilityOf(images, k); });
    return ex;
}

}  // namespace attnlab
