// Training the ViT and the captioner.
#include "VisionTrainer.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>

#include "base/InputError.h"
#include "base/Memory.h"
#include "base/analysis/Metrics.h"
#include "engine/detail/ParallelBatch.h"
#include "engine/detail/VisionImpl.h"
#include "engine/nn/networks/TransformerClassifierNet.h"  // attentionRollout
#include "engine/Runtime.h"

namespace attnlab {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

void checkOptions(const VisionTrainingOptions& o) {
    if (o.epochs < 1 || o.epochs > 100000) throw ConfigError("epochs must be in 1..100000");
    if (o.batchSize < 1 || o.batchSize > 65536) throw ConfigError("the batch size must be in 1..65536");
    if (!(o.learningRate > 0 && o.learningRate < 10)) throw ConfigError("the learning rate must be above 0 and below 10");
    if (!(o.clip >= 0)) throw ConfigError("the gradient clip must be 0 (off) or positive");
    if (!(o.validationFraction > 0 && o.validationFraction < 1))
        throw ConfigError("the validation fraction must be above 0 and below 1");
}

// Which images train and which are held out (each list sorted): with a test set (testCount > 0),
// every training image trains and every test image is held out; without, a seeded shuffle holds
// `fraction` of the training images out (at least one of each).
void splitIndices(std::size_t n, std::size_t testCount, double fraction, std::uint64_t seed, std::vector<std::size_t>& train,
                  std::vector<std::size_t>& held) {
    train.resize(n);
    std::iota(train.begin(), train.end(), 0);
    if (testCount > 0) {
        held.resize(testCount);
        std::iota(held.begin(), held.end(), 0);
        return;
    }
    std::mt19937_64 rng(seed ^ 0x5eedULL);
    std::shuffle(train.begin(), train.end(), rng);
    const std::size_t h = std::clamp<std::size_t>(static_cast<std::size_t>(std::lround(fraction * static_cast<double>(n))), 1, n - 1);
    held.assign(train.begin(), train.begin() + static_cast<std::ptrdiff_t>(h));
    train.erase(train.begin(), train.begin() + static_cast<std::ptrdiff_t>(h));
    std::sort(train.begin(), train.end());
    std::sort(held.begin(), held.end());
}

// Converted to the model's input, as one tensor [N, C, S, S].
torch::Tensor tensorOf(const std::vector<Image>& images, const std::vector<std::size_t>& members, int channels, int size) {
    std::vector<Image> converted;
    converted.reserve(members.size());
    for (auto i : members) converted.push_back(toModelInput(images[i], channels, size));
    std::vector<const Image*> pointers;
    for (const auto& im : converted) pointers.push_back(&im);
    return imagesTensor(pointers);
}

std::vector<std::vector<std::size_t>> shuffledBatches(std::size_t n, int batchSize, std::mt19937_64& rng) {
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<std::vector<std::size_t>> batches;
    for (std::size_t start = 0; start < n; start += static_cast<std::size_t>(batchSize))
        batches.emplace_back(order.begin() + static_cast<std::ptrdiff_t>(start),
                             order.begin() + static_cast<std::ptrdiff_t>(std::min(n, start + static_cast<std::size_t>(batchSize))));
    return batches;
}

torch::Tensor indexTensor(const std::vector<std::size_t>& members) {
    std::vector<int64_t> ids(members.begin(), members.end());
    return torch::tensor(ids, torch::kLong);
}

double elapsedSeconds(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The learning rate of the batch `done` of `total` (VisionTrainingOptions::cosine).
void scheduleLearningRate(detail::ParallelBatchTrainer& trainer, const VisionTrainingOptions& o, std::size_t done,
                          std::size_t total) {
    if (!o.cosine || total == 0) return;
    trainer.setLearningRate(o.learningRate * 0.5 *
                            (1.0 + std::cos(M_PI * static_cast<double>(done) / static_cast<double>(total))));
}

// One update from a batch of `rows` rows, split into the trainer's parts (objective as
// ParallelBatchTrainer::backward): refuses a non-finite loss, steps with the gradient clipped, then
// lets the caller's afterBatch run (which may leave the network in eval mode, so training mode is
// set again). Returns the batch's loss.
double trainStep(detail::ParallelBatchTrainer& trainer, torch::nn::Module& net, std::int64_t rows,
                 const detail::ParallelBatchTrainer::Objective& objective, double clip, int epoch, int batch,
                 const std::function<void()>& afterBatch) {
    const double value = trainer.backward(rows, objective);
    if (!std::isfinite(value)) throw TrainingDiverged(epoch, batch, "the loss became " + std::to_string(value));
    if (clip > 0) trainer.clipGradNorm(clip);
    trainer.step();
    if (afterBatch) {
        afterBatch();
        net.train();
    }
    return value;
}

// The figures every epoch reports beside its held-out ones.
template <typename Metrics>
void addTrainingFigures(Metrics& m, double lossSum, std::size_t lossCount, std::size_t images, double seconds) {
    m.trainLoss = lossCount ? lossSum / static_cast<double>(lossCount) : kNaN;
    m.seconds = seconds;
    m.imagesPerSecond = seconds > 0 ? static_cast<double>(images) / seconds : 0;
}

}  // namespace

// ---- the ViT -----------------------------------------------------------------------------

struct ImageClassifierTrainer::Impl {
    VisionTrainingOptions options;
    std::unique_ptr<ImageClassifier> model;
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::mt19937_64 rng;
    torch::Tensor trainImages, trainLabels, heldImages, heldLabels;
    std::vector<Box> heldBoxes;  // at the model's size; empty when the data has none
    std::vector<std::size_t> heldIndices;  // into the test set, or the training set without one
    int completed = 0;
    nn::VitNet& net() const { return model->impl_->net; }
};

ImageClassifierTrainer::ImageClassifierTrainer(const ImageDataset& training, const ImageDataset& test, VitConfig config,
                                               VisionTrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    checkOptions(options);
    if (training.classes.size() < 2) throw InputError(training.name, 0, "an image classifier needs two or more classes");
    if (training.images.size() < 2 || training.labels.size() != training.images.size())
        throw InputError(training.name, 0, "an image classifier needs two or more labelled images");
    if (!test.images.empty() && test.classes != training.classes)
        throw InputError(test.name, 0, "the test set's classes differ from the training set's");
    config.classes = static_cast<int>(training.classes.size());
    checkConfig(config);
    impl_->options = options;
    impl_->rng.seed(options.seed);
    setThreadCount(options.threads);

    const ImageDataset& heldSet = test.images.empty() ? training : test;
    std::vector<std::size_t> train, held;
    splitIndices(training.images.size(), test.images.size(), options.validationFraction, options.seed, train, held);
    const int C = config.channels, S = config.imageSize;
    impl_->trainImages = tensorOf(training.images, train, C, S);
    impl_->heldImages = tensorOf(heldSet.images, held, C, S);
    auto labels = [](const ImageDataset& d, const std::vector<std::size_t>& members) {
        std::vector<int64_t> out;
        for (auto i : members) out.push_back(d.labels[i]);
        return torch::tensor(out, torch::kLong);
    };
    impl_->trainLabels = labels(training, train);
    impl_->heldLabels = labels(heldSet, held);
    impl_->heldIndices = held;
    if (heldSet.boxes.size() == heldSet.images.size())
        for (auto i : held)
            impl_->heldBoxes.push_back(scaleBox(heldSet.boxes[i], heldSet.images[i].height, heldSet.images[i].width, S, S));

    impl_->model = std::make_unique<ImageClassifier>(config, training.classes, options.seed);
    impl_->trainer = std::make_unique<detail::ParallelBatchTrainer>(impl_->net()->parameters(), options.threads,
                                                                   options.learningRate);
    setModel(impl_->model.get(), static_cast<std::size_t>(impl_->trainImages.size(0)),
             static_cast<std::size_t>(impl_->heldImages.size(0)));
}

ImageClassifierTrainer::~ImageClassifierTrainer() = default;

const std::vector<std::size_t>& ImageClassifierTrainer::heldOutIndices() const { return impl_->heldIndices; }

ImageEpochMetrics ImageClassifierTrainer::evaluate() const {
    ImageEpochMetrics m;
    m.epoch = impl_->completed;
    m.rolloutOnBox = m.boxShare = kNaN;
    nn::VitNet& net = impl_->net();
    const VitConfig& c = impl_->model->config();
    c10::InferenceMode inference;
    const EvalModeGuard evalMode(*net);
    const int64_t n = impl_->heldImages.size(0), g = gridSide(c);
    double loss = 0, mass = 0, share = 0;
    int64_t correct = 0;
    for (int64_t start = 0; start < n; start += 256) {
        const int64_t end = std::min(n, start + 256);
        const nn::VitOutput out = net->forward(impl_->heldImages.slice(0, start, end));
        const torch::Tensor labels = impl_->heldLabels.slice(0, start, end);
        loss += torch::nn::functional::cross_entropy(out.logits, labels,
                                                     torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                    .item<double>();
        correct += out.logits.argmax(1).eq(labels).sum().item<int64_t>();
        if (!impl_->heldBoxes.empty()) {
            torch::Tensor rows = nn::attentionRollout(out.attention).select(1, 0).slice(1, 1);  // [b, N]
            rows = (rows / rows.sum(1, true)).contiguous();
            for (int64_t r = 0; r < rows.size(0); ++r) {
                const float* p = rows[r].data_ptr<float>();
                const std::vector<float> w(p, p + rows.size(1));
                const Box& box = impl_->heldBoxes[static_cast<std::size_t>(start + r)];
                mass += massOnBox(w, static_cast<int>(g), static_cast<int>(g), c.imageSize, c.imageSize, box);
                share += boxShare(box, c.imageSize, c.imageSize);
            }
        }
    }
    m.validationLoss = loss / static_cast<double>(n);
    m.accuracy = static_cast<double>(correct) / static_cast<double>(n);
    if (!impl_->heldBoxes.empty()) {
        m.rolloutOnBox = mass / static_cast<double>(n);
        m.boxShare = share / static_cast<double>(n);
    }
    return m;
}

ImageClassifierTrainer::Outcome ImageClassifierTrainer::run(const std::function<void(const ImageEpochMetrics&)>& onEpoch,
                                                            const std::atomic<bool>* stop,
                                                            const std::function<void()>& afterBatch) {
    nn::VitNet& net = impl_->net();
    const std::size_t perEpoch = (trainingExamples() + static_cast<std::size_t>(impl_->options.batchSize) - 1) /
                                 static_cast<std::size_t>(impl_->options.batchSize);
    const std::size_t total = perEpoch * static_cast<std::size_t>(impl_->options.epochs);
    while (impl_->completed < impl_->options.epochs) {
        std::size_t batch = perEpoch * static_cast<std::size_t>(impl_->completed);
        const auto start = std::chrono::steady_clock::now();
        net->train();
        double lossSum = 0;
        std::size_t seen = 0;
        for (const auto& members : shuffledBatches(trainingExamples(), impl_->options.batchSize, impl_->rng)) {
            if (stop && stop->load()) return Outcome::Stopped;
            scheduleLearningRate(*impl_->trainer, impl_->options, batch++, total);
            const torch::Tensor index = indexTensor(members);
            const auto rows = static_cast<std::int64_t>(members.size());
            // Each part's share: its summed cross-entropy over the batch's size.
            const double value = trainStep(
                *impl_->trainer, *net, rows,
                [&](const detail::BatchPart& part, double& reported) {
                    const torch::Tensor mine = index.slice(0, part.first, part.first + part.count);
                    const nn::VitOutput out = net->forward(impl_->trainImages.index_select(0, mine));
                    torch::Tensor loss = torch::nn::functional::cross_entropy(
                                             out.logits, impl_->trainLabels.index_select(0, mine),
                                             torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum)) /
                                         static_cast<double>(rows);
                    reported = loss.item<double>();
                    return loss;
                },
                impl_->options.clip, impl_->completed + 1,
                static_cast<int>(batch - perEpoch * static_cast<std::size_t>(impl_->completed)), afterBatch);
            lossSum += value * static_cast<double>(members.size());
            seen += members.size();
        }
        const double seconds = elapsedSeconds(start);
        epochDone(++impl_->completed);
        ImageEpochMetrics m = evaluate();
        addTrainingFigures(m, lossSum, seen, seen, seconds);
        releaseFreeMemory();  // evaluation's one-off blocks (glibc keeps them otherwise)
        if (onEpoch) onEpoch(m);
    }
    return Outcome::Finished;
}

// ---- the captioner -----------------------------------------------------------------------

namespace {

struct CaptionExample {
    std::size_t image;               // index into the training tensor
    std::vector<std::int64_t> ids;   // the words, cut to maxLength
};

struct HeldImage {
    Image image;                              // at the model's input
    std::vector<std::vector<std::string>> captions;
    std::vector<SceneObject> objects;         // boxes at the model's size
};

}  // namespace

struct CaptionerTrainer::Impl {
    VisionTrainingOptions options;
    std::unique_ptr<ImageCaptioner> model;
    std::unique_ptr<detail::ParallelBatchTrainer> trainer;
    std::mt19937_64 rng;
    torch::Tensor trainImages;
    std::vector<CaptionExample> examples;
    std::vector<HeldImage> held;
    int completed = 0;
    nn::CaptionerNet& net() const { return model->impl_->net; }
};

CaptionerTrainer::CaptionerTrainer(const CaptionDataset& training, const CaptionDataset& test, CaptionerConfig config,
                                   VisionTrainingOptions options)
    : impl_(std::make_unique<Impl>()) {
    checkOptions(options);
    if (training.images.size() < 2 || training.captions.size() != training.images.size())
        throw InputError(training.name, 0, "a captioner needs two or more captioned images");
    impl_->options = options;
    impl_->rng.seed(options.seed);
    setThreadCount(options.threads);

    const CaptionDataset& heldSet = test.images.empty() ? training : test;
    std::vector<std::size_t> train, held;
    splitIndices(training.images.size(), test.images.size(), options.validationFraction, options.seed, train, held);

    std::vector<std::vector<std::string>> sentences;
    for (auto i : train)
        for (const auto& caption : training.captions[i]) sentences.push_back(captionWords(caption));
    if (sentences.empty()) throw InputError(training.name, 0, "no training caption");
    Vocabulary vocabulary = Vocabulary::build(sentences, 1, 0);
    config.vocabulary = static_cast<std::int64_t>(vocabulary.size());
    checkConfig(config);
    const int C = config.channels, S = config.imageSize;
    impl_->trainImages = tensorOf(training.images, train, C, S);
    for (std::size_t k = 0; k < train.size(); ++k)
        for (const auto& caption : training.captions[train[k]]) {
            CaptionExample e{k, vocabulary.encode(captionWords(caption))};
            if (e.ids.empty()) continue;
            if (e.ids.size() > static_cast<std::size_t>(config.maxLength)) e.ids.resize(static_cast<std::size_t>(config.maxLength));
            impl_->examples.push_back(std::move(e));
        }
    for (auto i : held) {
        HeldImage h;
        h.image = toModelInput(heldSet.images[i], C, S);
        for (const auto& caption : heldSet.captions[i]) h.captions.push_back(captionWords(caption));
        if (i < heldSet.objects.size())
            for (SceneObject o : heldSet.objects[i]) {
                o.box = scaleBox(o.box, heldSet.images[i].height, heldSet.images[i].width, S, S);
                h.objects.push_back(o);
            }
        impl_->held.push_back(std::move(h));
    }
    impl_->model = std::make_unique<ImageCaptioner>(config, std::move(vocabulary), options.seed);
    impl_->trainer = std::make_unique<detail::ParallelBatchTrainer>(impl_->net()->parameters(), options.threads,
                                                                   options.learningRate);
    setModel(impl_->model.get(), static_cast<std::size_t>(impl_->trainImages.size(0)), impl_->held.size());
}

CaptionerTrainer::~CaptionerTrainer() = default;

CaptionEpochMetrics CaptionerTrainer::evaluate() const {
    CaptionEpochMetrics m;
    m.epoch = impl_->completed;
    const ImageCaptioner& model = *impl_->model;
    const Vocabulary& vocabulary = model.vocabulary();
    const CaptionerConfig& c = model.config();
    std::vector<Tokens> hypotheses, references;
    double loss = 0;
    std::size_t words = 0, exact = 0, withObjects = 0, named = 0, shapeWords = 0, peaks = 0, strictPeaks = 0;
    CaptionWords captionWords;  // every held-out scene's colours and shapes
    for (const HeldImage& h : impl_->held) captionWords.add(h.objects);
    for (const HeldImage& h : impl_->held) {
        const Captioning captioning = model.caption(h.image);
        hypotheses.push_back(captioning.tokens);
        references.push_back(h.captions.front());
        exact += std::find(h.captions.begin(), h.captions.end(), captioning.tokens) != h.captions.end();
        {  // the held-out loss of the first caption, teacher-forced
            c10::InferenceMode inference;
            const EvalModeGuard evalMode(*impl_->net());
            std::vector<std::int64_t> ids = vocabulary.encode(h.captions.front());
            if (ids.size() > static_cast<std::size_t>(c.maxLength)) ids.resize(static_cast<std::size_t>(c.maxLength));
            std::vector<std::int64_t> inputs{Vocabulary::kBos}, targets;
            inputs.insert(inputs.end(), ids.begin(), ids.end());
            targets = ids;
            targets.push_back(Vocabulary::kEos);
            const auto [logits, alphas] = impl_->net()->forward(imagesTensor({&h.image}), torch::tensor(inputs, torch::kLong).unsqueeze(0));
            loss += torch::nn::functional::cross_entropy(logits[0], torch::tensor(targets, torch::kLong),
                                                         torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum))
                        .item<double>();
            words += targets.size();
        }
        if (h.objects.empty()) continue;
        ++withObjects;
        const CaptionGrounding grounding = groundCaption(captioning.tokens, captioning.attention, captioning.gridRows,
                                                         captioning.gridCols, captioning.imageHeight,
                                                         captioning.imageWidth, h.objects, captionWords);
        for (const auto& [key, share] : grounding.shares) m.grounding[key].add(share);
        std::vector<bool> used(h.objects.size(), false);
        std::size_t found = 0;
        for (std::size_t t = 1; t < captioning.tokens.size(); ++t)
            for (std::size_t k = 0; k < h.objects.size(); ++k)
                if (!used[k] && captioning.tokens[t - 1] == h.objects[k].colour && captioning.tokens[t] == h.objects[k].shape) {
                    used[k] = true;
                    ++found;
                    ++shapeWords;
                    peaks += peakInBox(captioning.attention[t], captioning.gridRows, captioning.gridCols,
                                       captioning.imageHeight, captioning.imageWidth, h.objects[k].box, kPeakMarginCells);
                    strictPeaks += peakInBox(captioning.attention[t], captioning.gridRows, captioning.gridCols,
                                             captioning.imageHeight, captioning.imageWidth, h.objects[k].box);
                    break;
                }
        named += found == h.objects.size();
    }
    const auto n = static_cast<double>(impl_->held.size());
    m.validationLoss = words ? loss / static_cast<double>(words) : kNaN;
    m.bleu = corpusBleu(hypotheses, references);
    m.exact = n > 0 ? static_cast<double>(exact) / n : kNaN;
    m.objectsNamed = withObjects ? static_cast<double>(named) / static_cast<double>(withObjects) : kNaN;
    m.peakInBox = shapeWords ? static_cast<double>(peaks) / static_cast<double>(shapeWords) : kNaN;
    m.peakStrictlyInBox = shapeWords ? static_cast<double>(strictPeaks) / static_cast<double>(shapeWords) : kNaN;
    return m;
}

CaptionerTrainer::Outcome CaptionerTrainer::run(const std::function<void(const CaptionEpochMetrics&)>& onEpoch,
                                                const std::atomic<bool>* stop, const std::function<void()>& afterBatch) {
    nn::CaptionerNet& net = impl_->net();
    const double lambda = impl_->model->config().doublyStochastic;
    const std::size_t perEpoch = (impl_->examples.size() + static_cast<std::size_t>(impl_->options.batchSize) - 1) /
                                 static_cast<std::size_t>(impl_->options.batchSize);
    const std::size_t total = perEpoch * static_cast<std::size_t>(impl_->options.epochs);
    while (impl_->completed < impl_->options.epochs) {
        std::size_t batch = perEpoch * static_cast<std::size_t>(impl_->completed);
        const auto start = std::chrono::steady_clock::now();
        net->train();
        double lossSum = 0;
        std::size_t seenWords = 0, seenImages = 0;
        for (const auto& members : shuffledBatches(impl_->examples.size(), impl_->options.batchSize, impl_->rng)) {
            if (stop && stop->load()) return Outcome::Stopped;
            scheduleLearningRate(*impl_->trainer, impl_->options, batch++, total);
            std::size_t longest = 0;
            std::vector<std::size_t> images;
            for (auto m : members) {
                longest = std::max(longest, impl_->examples[m].ids.size());
                images.push_back(impl_->examples[m].image);
            }
            const auto B = static_cast<int64_t>(members.size()), T = static_cast<int64_t>(longest + 1);
            torch::Tensor inputs = torch::zeros({B, T}, torch::kLong), targets = torch::zeros({B, T}, torch::kLong);
            auto in = inputs.accessor<int64_t, 2>();
            auto out = targets.accessor<int64_t, 2>();
            for (int64_t b = 0; b < B; ++b) {
                const auto& ids = impl_->examples[members[static_cast<std::size_t>(b)]].ids;
                in[b][0] = Vocabulary::kBos;
                for (std::size_t i = 0; i < ids.size(); ++i) {
                    in[b][static_cast<int64_t>(i) + 1] = ids[i];
                    out[b][static_cast<int64_t>(i)] = ids[i];
                }
                out[b][static_cast<int64_t>(ids.size())] = Vocabulary::kEos;
            }
            const torch::Tensor imageIndex = indexTensor(images);
            const auto count = static_cast<std::size_t>(targets.ne(Vocabulary::kPad).sum().item<int64_t>());
            // Each part's share: its summed cross-entropy over the batch's word count, and its rows'
            // doubly stochastic penalty over the batch's size.
            const double value = trainStep(
                *impl_->trainer, *net, B,
                [&](const detail::BatchPart& part, double& reported) {
                    const torch::Tensor partTargets = targets.slice(0, part.first, part.first + part.count);
                    const auto [logits, alphas] = net->forward(
                        impl_->trainImages.index_select(0, imageIndex.slice(0, part.first, part.first + part.count)),
                        inputs.slice(0, part.first, part.first + part.count));
                    torch::Tensor loss = torch::nn::functional::cross_entropy(
                                             logits.reshape({part.count * T, -1}), partTargets.reshape({part.count * T}),
                                             torch::nn::functional::CrossEntropyFuncOptions()
                                                 .ignore_index(Vocabulary::kPad)
                                                 .reduction(torch::kSum)) /
                                         static_cast<double>(count);
                    reported = loss.item<double>();
                    if (lambda <= 0) return loss;
                    const torch::Tensor real = partTargets.ne(Vocabulary::kPad).to(torch::kFloat).unsqueeze(2);  // [b, T, 1]
                    return loss + lambda * (1 - (alphas * real).sum(1)).pow(2).sum() / static_cast<double>(B);
                },
                impl_->options.clip, impl_->completed + 1,
                static_cast<int>(batch - perEpoch * static_cast<std::size_t>(impl_->completed)), afterBatch);
            lossSum += value * static_cast<double>(count);
            seenWords += count;
            seenImages += members.size();
        }
        const double seconds = elapsedSeconds(start);
        epochDone(++impl_->completed);
        CaptionEpochMetrics m = evaluate();
        addTrainingFigures(m, lossSum, seenWords, seenImages, seconds);
        releaseFreeMemory();  // evaluation's one-off blocks (glibc keeps them otherwise)
        if (onEpoch) onEpoch(m);
    }
    return Outcome::Finished;
}

}  // namespace attnlab
