#pragma once
// Training the vision models: Adam on cross-entropy (the captioner's plus its doubly stochastic
// term when the config asks for it), shuffled batches, gradient clipping, held-out metrics every
// epoch. Torch-free header.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>

#include "base/vision/CaptionGrounding.h"
#include "base/vision/Captions.h"
#include "base/vision/ImageData.h"
#include "base/vision/ImageAttention.h"
#include "engine/TrainingRun.h"
#include "engine/vision/ImageModels.h"

namespace attnlab {

// TrainingRun.h's loop options, 8 epochs by default, and the learning-rate schedule.
struct VisionTrainingOptions : TrainingRunOptions {
    VisionTrainingOptions() { epochs = 8; }
    // Cosine decay: the learning rate falls from learningRate to 0 over the run's batches
    // (Loshchilov & Hutter 2017, without restarts); off = constant.
    bool cosine = false;
};

// Each model's training defaults, shared by the CLI and the GUI (docs/vision.md has the runs):
// the ViT's are the PyTorch reference trainer's (Adam 1e-3, batch 32) for 8 epochs; the captioner
// at 1e-3 was still confusing the shapes after 8 epochs on the scenes, at 3e-3 it names them all;
// without input feeding and with the doubly stochastic term it needs more updates to name both
// objects of scenes from other generators: batches of 16 for 12 epochs (docs/vision.md).
inline VisionTrainingOptions defaultVitTraining() { return {}; }
inline VisionTrainingOptions defaultCaptionerTraining() {
    VisionTrainingOptions o;
    o.epochs = 12;
    o.batchSize = 16;
    o.learningRate = 3e-3;
    return o;
}

struct ImageEpochMetrics {
    int epoch = 0;
    double trainLoss = 0;
    double validationLoss = 0;
    double accuracy = 0;          // on the held-out images
    double rolloutOnBox = 0;      // mean rollout mass on the image's box (massOnBox; NaN without boxes)
    double boxShare = 0;          // mean share of the image the boxes cover: what uniform weights put there
    double imagesPerSecond = 0;   // training images per second
    double seconds = 0;
};

class ImageClassifierTrainer : public TaskTrainer<ImageEpochMetrics, ImageClassifier> {
public:
    // `test` (optional, may be empty) is the held-out set; without it validationFraction of
    // `training` is held out. Throws ConfigError for invalid options or config, InputError for
    // fewer than two classes or images.
    ImageClassifierTrainer(const ImageDataset& training, const ImageDataset& test, VitConfig config,
                           VisionTrainingOptions options);
    ~ImageClassifierTrainer();

    // As ClassifierTrainer::run: onEpoch after each epoch, *stop checked between batches, afterBatch
    // called after every training batch on the calling thread. Throws TrainingDiverged.
    Outcome run(const EpochReport& onEpoch, const std::atomic<bool>* stop = nullptr,
                const std::function<void()>& afterBatch = {});
    ImageEpochMetrics evaluate() const;  // the rest: TaskTrainer
    // The held-out images, ascending: indices into `test` when one was given, else into `training`.
    const std::vector<std::size_t>& heldOutIndices() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

struct CaptionEpochMetrics {
    int epoch = 0;
    double trainLoss = 0;       // cross-entropy per word (the doubly stochastic term excluded)
    double validationLoss = 0;
    double bleu = 0;            // corpus BLEU (0..100) of greedy captions against each image's first caption
    double exact = 0;           // share of held-out images whose greedy caption is one of their captions
    double objectsNamed = 0;    // share of held-out images (with objects) whose caption names every object ("red disk")
    // Of the shape words that name an object (its colour then its shape), the share whose attention
    // peak lies inside the object's box or within half a cell of it (peakInBox, kPeakMarginCells),
    // and the share whose peak cell's centre lies inside the box itself.
    double peakInBox = 0;
    double peakStrictlyInBox = 0;
    // Per word class ("article", "colour", "shape", "relation") and per noun phrase ("phrase"): of
    // the words that belong to an object, how many peaked near / inside it (base/vision/CaptionGrounding.h).
    std::map<std::string, GroundingShare> grounding;
    double imagesPerSecond = 0;
    double seconds = 0;
};

class CaptionerTrainer : public TaskTrainer<CaptionEpochMetrics, ImageCaptioner> {
public:
    // Builds the vocabulary from the training captions. `test` may be empty (then validationFraction
    // of the images is held out). Throws ConfigError, or InputError for no captions.
    CaptionerTrainer(const CaptionDataset& training, const CaptionDataset& test, CaptionerConfig config,
                     VisionTrainingOptions options);
    ~CaptionerTrainer();

    // As ClassifierTrainer::run; trainingExamples() counts images.
    Outcome run(const EpochReport& onEpoch, const std::atomic<bool>* stop = nullptr,
                const std::function<void()>& afterBatch = {});
    CaptionEpochMetrics evaluate() const;

    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace attnlab
