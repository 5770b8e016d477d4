// attnlab-cli train --task image-classify (a ViT) and --task caption (a CNN + GRU captioner with
// attention): one JSON object per epoch on stdout, the model saved atomically after every epoch and
// at the end, as `train` does for translation.
#include <atomic>
#include <cmath>
#include <csignal>
#include <iostream>
#include <sstream>
#include <nlohmann/json.hpp>

#include "support/Interrupt.h"
#include "Commands.h"
#include "images/ImageSources.h"
#include "support/TrainingFlags.h"
#include "base/InputError.h"
#include "engine/Runtime.h"
#include "engine/vision/VisionTrainer.h"

namespace attnlab::cli {

namespace {

std::string shortNumber(double v) {
    std::ostringstream out;
    out << v;
    return out.str();
}

const std::set<std::string>& trainingFlags() {
    static const std::set<std::string> flags{"--task", "--arch", "--epochs", "--batch", "--lr", "--clip", "--seed",
                                             "--threads", "--val-fraction", "--out", "--hidden", "--dropout",
                                             "--lr-schedule"};
    return flags;
}

// `defaults`: the task's own epochs and learning rate.
VisionTrainingOptions readOptions(const ArgParser& args, VisionTrainingOptions o) {
    readRunFlags(args, o, 0.01);
    const std::string schedule = args.text("--lr-schedule", o.cosine ? "cosine" : "constant");
    if (schedule != "constant" && schedule != "cosine")
        throw UsageError("--lr-schedule: unknown schedule '" + schedule + "' (expected one of: constant, cosine)");
    o.cosine = schedule == "cosine";
    return o;
}

void requireArch(const ArgParser& args, const char* expected) {
    const std::string arch = args.text("--arch", expected);
    if (arch != expected) throw UsageError("--arch: unknown architecture '" + arch + "' (expected " + expected + ")");
}

template <typename VisionTrainer, typename Metrics, typename ToJson>
int trainAndSave(VisionTrainer& trainer, const std::string& out, ToJson toJson) {
    catchInterrupts(true);
    auto save = [&] { trainer.model().save(out, {{"epochs_trained", std::to_string(trainer.completedEpochs())}}); };
    typename VisionTrainer::Outcome outcome;
    try {
        outcome = trainer.run(
            [&](const Metrics& m) {
                nlohmann::json j = toJson(m);
                j["images_per_sec"] = std::round(m.imagesPerSecond * 10) / 10;
                j["pairs_per_sec"] = j["images_per_sec"];  // the name every train command reports
                j["seconds"] = std::round(m.seconds * 100) / 100;
                std::cout << j.dump() << std::endl;
                save();
            },
            &interruptFlag());
    } catch (const TrainingDiverged& e) {
        save();
        std::cerr << "error: " << e.what() << " (saved to " << out << ")\n";
        return kInternal;
    }
    save();
    return reportSaved(outcome == VisionTrainer::Outcome::Stopped, out);
}

}  // namespace

int runTrainImages(const Args& argv) {
    IdxFiles idx;
    std::set<std::string> flags = imageDataFlags();
    flags.insert(trainingFlags().begin(), trainingFlags().end());
    flags.insert({"--patch", "--heads", "--layers", "--ff", "--positions", "--attention-pattern", "--window", "--chunk"});
    ArgParser args(takeIdxFlag(argv, &idx), flags, {});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    if (args.has("--split")) throw UsageError("--split applies to inspect (train reads Fashion-MNIST's training split and tests on its test split)");
    const std::string out = args.outputFile("--out");  // before any training
    requireArch(args, "vit");
    const VitConfig defaults;
    VitConfig config;
    const PatternFlags pattern = readPatternFlags(args, {defaults.pattern, defaults.window, defaults.chunk});
    config.pattern = pattern.pattern;
    config.window = pattern.window;
    config.chunk = pattern.chunk;
    config.patch = static_cast<int>(args.integer("--patch", defaults.patch, 1, 512));
    config.hidden = static_cast<int>(args.integer("--hidden", defaults.hidden, 1, 2048));
    config.heads = static_cast<int>(args.integer("--heads", defaults.heads, 1, 64));
    config.layers = static_cast<int>(args.integer("--layers", defaults.layers, 1, 24));
    config.feedForward = static_cast<int>(args.integer("--ff", defaults.feedForward, 0, 16384));
    config.dropout = static_cast<float>(args.real("--dropout", defaults.dropout, 0.0, 0.95));
    try {
        config.positions = parsePatchPositions(args.text("--positions", toString(defaults.positions)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--positions: ") + e.what());
    }
    if (config.hidden % config.heads != 0)
        throw UsageError("--heads " + std::to_string(config.heads) + " does not divide --hidden " + std::to_string(config.hidden));
    const VisionTrainingOptions options = readOptions(args, defaultVitTraining());

    preferFastBlasKernels(programArguments());
    ImageFolderReport report;
    const ImageDataset training = loadImageDataset(args, idx, "train", &report);
    for (const auto& [file, reason] : report.skipped) std::cerr << "warning: skipped " << file << ": " << reason << "\n";
    const bool fashion = args.text("--dataset", "") == "fashion-mnist";
    const ImageDataset test = fashion ? readFashionMnist(false) : ImageDataset{};
    config.channels = training.images.front().channels;
    config.imageSize = training.images.front().height;
    if (training.images.front().width != config.imageSize)
        throw UsageError("the images are " + std::to_string(training.images.front().height) + "x" +
                         std::to_string(training.images.front().width) + ": a ViT reads square images (use --image-size)");
    if (config.imageSize % config.patch != 0)
        throw UsageError("--patch " + std::to_string(config.patch) + " does not divide the image size " +
                         std::to_string(config.imageSize));
    ImageClassifierTrainer trainer(training, test, config, options);
    std::cerr << "training a vision transformer (" << config.layers << " layers, " << config.heads << " heads, "
              << (config.pattern != AttentionPattern::Full ? toString(config.pattern) + " attention, " : std::string())
              << "d_model "
              << config.hidden << ", " << gridSide(config) << "x" << gridSide(config) << " patches of " << config.patch
              << "x" << config.patch << "; " << trainer.model().parameterCount() << " parameters, "
              << training.classes.size() << " classes) on " << trainer.trainingExamples() << " images, "
              << (fashion ? "testing on " : "validating on ") << trainer.validationExamples() << "\n";
    const bool boxes = !training.boxes.empty();
    return trainAndSave<ImageClassifierTrainer, ImageEpochMetrics>(trainer, out, [&](const ImageEpochMetrics& m) {
        nlohmann::json j{{"epoch", m.epoch},
                         {"train_loss", rounded(m.trainLoss)},
                         {"val_loss", rounded(m.validationLoss)},
                         {"val_accuracy", rounded(m.accuracy)}};
        if (boxes) {
            j["rollout_on_box"] = rounded(m.rolloutOnBox);
            j["box_share"] = rounded(m.boxShare);
        }
        return j;
    });
}

int runTrainCaptioner(const Args& argv) {
    std::set<std::string> flags = captionDataFlags();
    flags.insert(trainingFlags().begin(), trainingFlags().end());
    flags.insert({"--attention", "--doubly-stochastic", "--embedding", "--features", "--max-len", "--attention-pattern",
                  "--window", "--chunk", "--encoder", "--initial-state", "--query", "--input-feeding"});
    ArgParser args(argv, flags, {"--sentinel", "--gate"});
    if (!args.positionals().empty()) throw UsageError("unexpected argument '" + args.positionals().front() + "'");
    // The captioner's attention is its GRU's over the image grid: no self-attention pattern.
    refusePatternFlags(args, "--task image-classify --arch vit (the captioner's GRU attends over the image grid)");
    const std::string out = args.outputFile("--out");  // before any training
    requireArch(args, "cnn-gru");
    const CaptionerConfig defaults;
    CaptionerConfig config;
    try {
        config.attention = parseCaptionAttention(args.text("--attention", toString(defaults.attention)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--attention: ") + e.what());
    }
    try {
        config.query = parseCaptionQuery(args.text("--query", toString(defaults.query)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--query: ") + e.what());
    }
    try {
        config.encoder = parseCaptionEncoder(args.text("--encoder", toString(defaults.encoder)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--encoder: ") + e.what());
    }
    try {
        config.initialState = parseCaptionInitialState(args.text("--initial-state", toString(defaults.initialState)));
    } catch (const ConfigError& e) {
        throw UsageError(std::string("--initial-state: ") + e.what());
    }
    config.sentinel = args.has("--sentinel") || defaults.sentinel;
    config.gate = args.has("--gate") || defaults.gate;
    const std::string feeding = args.text("--input-feeding", defaults.inputFeeding ? "on" : "off");
    if (feeding != "on" && feeding != "off") throw UsageError("--input-feeding: expected on or off, got '" + feeding + "'");
    config.inputFeeding = feeding == "on";
    if (args.has("--input-feeding") && config.query == CaptionQuery::Previous)
        throw UsageError("--input-feeding applies to --query current (with the previous state asking, the context is the GRU's input)");
    if (config.sentinel && config.attention != CaptionAttention::Additive)
        throw UsageError("--sentinel needs --attention additive (the sentinel is one more additive key)");
    config.doublyStochastic = static_cast<float>(args.real("--doubly-stochastic", defaults.doublyStochastic, 0.0, 100.0));
    config.hidden = static_cast<int>(args.integer("--hidden", defaults.hidden, 1, 2048));
    config.embedding = static_cast<int>(args.integer("--embedding", defaults.embedding, 1, 2048));
    config.features = static_cast<int>(args.integer("--features", defaults.features, 1, 1024));
    config.maxLength = static_cast<int>(args.integer("--max-len", defaults.maxLength, 2, 128));
    config.dropout = static_cast<float>(args.real("--dropout", defaults.dropout, 0.0, 0.95));
    const VisionTrainingOptions options = readOptions(args, defaultCaptionerTraining());

    preferFastBlasKernels(programArguments());
    const CaptionDataset training = loadCaptionDataset(args);
    config.channels = training.images.front().channels;
    config.imageSize = training.images.front().height;
    if (config.imageSize % 8 != 0 || training.images.front().width != config.imageSize)
        throw UsageError("the images are " + std::to_string(training.images.front().height) + "x" +
                         std::to_string(training.images.front().width) +
                         ": the captioner reads square images whose side is a multiple of 8 (use --image-size)");
    CaptionerTrainer trainer(training, CaptionDataset{}, config, options);
    std::cerr << "training a captioner (CNN " << gridSide(config) << "x" << gridSide(config) << " grid + GRU, "
              << toString(config.attention) << " attention"
              << (config.query != defaults.query ? ", the " + toString(config.query) + " state asks" : "")
              << (config.encoder != defaults.encoder ? ", " + toString(config.encoder) + " encoder" : "")
              << (config.initialState != defaults.initialState ? ", " + toString(config.initialState) + " initial state" : "")
              << (config.sentinel ? ", visual sentinel" : "")
              << (config.gate ? ", gated context" : "")
              << (config.inputFeeding != defaults.inputFeeding ? std::string(", input feeding ") + (config.inputFeeding ? "on" : "off") : "")
              << (config.doublyStochastic > 0 ? ", doubly stochastic lambda " + shortNumber(config.doublyStochastic) : "")
              << "; " << trainer.model().parameterCount() << " parameters, " << trainer.model().vocabulary().size()
              << " words) on " << trainer.trainingExamples() << " images, validating on " << trainer.validationExamples()
              << "\n";
    const bool objects = !training.objects.empty();
    return trainAndSave<CaptionerTrainer, CaptionEpochMetrics>(trainer, out, [&](const CaptionEpochMetrics& m) {
        nlohmann::json j{{"epoch", m.epoch},
                         {"train_loss", rounded(m.trainLoss)},
                         {"val_loss", rounded(m.validationLoss)},
                         {"val_bleu", rounded(m.bleu)},
                         {"val_exact", rounded(m.exact)}};
        if (objects) {
            j["objects_named"] = rounded(m.objectsNamed);
            j["peak_in_box"] = rounded(m.peakInBox);
            j["peak_strictly_in_box"] = rounded(m.peakStrictlyInBox);
            j["grounding"] = groundingJson(m.grounding);
        }
        return j;
    });
}

}  // namespace attnlab::cli
