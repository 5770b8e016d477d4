#pragma once
// The vision models (base/VisionConfig.h): a ViT image classifier and an image captioner, with
// what they show of their attention. LibTorch stays behind the pimpl, so this header is safe for
// the UI and the CLI.
//
// A ViT's attention: every layer's and head's self-attention over [CLS] + the patches (token 0 is
// [CLS], patches row-major), and the attention rollout (Abnar & Zuidema 2020: heads averaged, the
// identity added for the residual, rows renormalised, multiplied across layers), whose [CLS] row
// over the patches, renormalised to sum to 1, says where the classifier looked.
// A captioner's attention: for each generated word, the weights over the grid cells that produced it.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "base/AttentionMap.h"
#include "base/vision/ImageExplanation.h"
#include "base/vision/ImageData.h"
#include "base/vision/VisionConfig.h"
#include "base/Vocabulary.h"

namespace attnlab {

namespace detail {
struct ModelAccess;
}

struct ImageClassification {
    int labelIndex = 0;
    std::string label;
    std::vector<double> probabilities;  // per class, in classes() order
    int imageHeight = 0, imageWidth = 0;  // the model's input size
    int gridRows = 0, gridCols = 0;       // patches
    LayeredAttention encoder;             // [layer][head], (1 + rows*cols) x (1 + rows*cols)
    std::vector<float> rollout;           // rows*cols, row-major, sums to 1
    std::vector<std::vector<float>> clsRows;  // [layer]: [CLS]'s row over the patches, heads averaged, renormalised
};

struct Captioning {
    std::vector<std::string> tokens;   // the words, "</s>" excluded
    int imageHeight = 0, imageWidth = 0;
    int gridRows = 0, gridCols = 0;
    std::vector<std::vector<float>> attention;  // per word: rows*cols weights, row-major, summing to 1
    double logProbability = 0;
};

// Which vision model a checkpoint holds: "image-classify" or "caption" (the metadata's "task"),
// or "" for another AttnLab model. Throws ModelFileError for a file that is no AttnLab model.
std::string visionTaskOf(const std::string& path);

// The image as the model reads it: converted to its channels (grey = the mean of R, G, B; grey
// repeated for RGB) and resized to its input size.
Image toModelInput(const Image& image, int channels, int size);

// Integrated gradients' steps for an image unless told: with 64 the attributions of 200 glyphs were
// within 5.3% of the logit difference (0.1% on average), with 128 within 1.3% (docs/vision.md).
inline constexpr int kDefaultImageIgSteps = 128;

class ImageClassifier {
public:
    // Throws ConfigError if the config is invalid; the class count is taken from `classes`.
    ImageClassifier(VitConfig config, std::vector<std::string> classes, std::uint64_t seed);
    ImageClassifier(ImageClassifier&&) noexcept;
    ImageClassifier& operator=(ImageClassifier&&) noexcept;
    ~ImageClassifier();

    // Checkpoints (.safetensors, metadata "task" = "image-classify"); save() is atomic and throws
    // std::runtime_error("FILE: reason"); load() throws ModelFileError("FILE: reason").
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static ImageClassifier load(const std::string& path);

    // Any size or channel count; converted by toModelInput. Throws ConfigError for an empty image.
    ImageClassification classify(const Image& image) const;
    // Predicted class of each image (batched; for accuracy over a test set).
    std::vector<int> predict(const std::vector<Image>& images) const;
    // Each image's probability of class `classIndex` (batched; the deletion test's model).
    std::vector<double> probabilityOf(const std::vector<Image>& images, int classIndex) const;
    // The explanation lab (base/vision/ImageExplanation.h): the five maps for class `classIndex`
    // (-1 = the predicted one), their agreement, integrated gradients over `igSteps` intervals and
    // the deletion test. Throws ConfigError for an empty image, a class or steps out of range.
    ImageExplanation explain(const Image& image, int classIndex = -1, int igSteps = kDefaultImageIgSteps) const;

    const VitConfig& config() const;
    const std::vector<std::string>& classes() const;
    std::int64_t parameterCount() const;

    struct Impl;  // engine-internal (LibTorch): detail/VisionImpl.h

private:
    friend class ImageClassifierTrainer;
    friend struct detail::ModelAccess;  // the engine's own code (head studies) and white-box tests
    explicit ImageClassifier(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

class ImageCaptioner {
public:
    // The vocabulary's size is taken into the config.
    ImageCaptioner(CaptionerConfig config, Vocabulary vocabulary, std::uint64_t seed);
    ImageCaptioner(ImageCaptioner&&) noexcept;
    ImageCaptioner& operator=(ImageCaptioner&&) noexcept;
    ~ImageCaptioner();

    // Checkpoints (metadata "task" = "caption").
    void save(const std::string& path, const std::map<std::string, std::string>& extraMetadata = {}) const;
    static ImageCaptioner load(const std::string& path);

    // Greedy (beam 1) or beam search (1..16) up to the config's maxLength. Throws ConfigError for an
    // empty image or a beam out of range.
    Captioning caption(const Image& image, int beam = 1) const;
    // The explanation lab for one word of the greedy caption (0 = the first): the word's attention
    // over the cells beside the gradient methods of its logit (the words before it fed in), per
    // cell, and the deletion test on the word's probability (base/vision/ImageExplanation.h). Throws
    // ConfigError for an empty image, a word or steps out of range.
    ImageExplanation explainWord(const Image& image, int wordIndex, int igSteps = kDefaultImageIgSteps) const;

    const CaptionerConfig& config() const;
    const Vocabulary& vocabulary() const;
    std::int64_t parameterCount() const;

    struct Impl;

private:
    friend class CaptionerTrainer;
    explicit ImageCaptioner(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
