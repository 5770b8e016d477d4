#pragma once
// The tiny models the core and GUI tests train or build: small enough that a batch takes a few
// milliseconds. Each function fixes only what makes the model tiny; a test whose assertions depend
// on another value (dropout, maxLength, a particular hidden size) sets it explicitly after the call.
#include "base/forecast/ForecastConfig.h"
#include "base/translation/Datasets.h"
#include "base/translation/ModelConfig.h"
#include "base/vision/VisionConfig.h"
#include "engine/translation/TranslationTrainer.h"
#include <memory>

namespace attnlab::test {

// A one-layer GRU encoder-decoder with the given attention: hidden 16 (or `hidden`), positions up
// to 32, the default dropout.
inline ModelConfig tinyGru(AttentionKind attention = AttentionKind::Dot, int hidden = 16) {
    ModelConfig c;
    c.architecture = Architecture::Gru;
    c.attention = attention;
    c.hidden = hidden;
    c.layers = 1;
    c.maxLength = 32;
    return c;
}

// A Transformer with d_model 16, `layers` encoder and decoder layers, `heads` heads, a
// feed-forward width of 32, positions up to 32 and the default dropout.
inline ModelConfig tinyTransformer(int layers = 2, int heads = 2) {
    ModelConfig c;
    c.architecture = Architecture::Transformer;
    c.hidden = 16;
    c.layers = layers;
    c.heads = heads;
    c.feedForward = 32;
    c.maxLength = 32;
    return c;
}

// tinyTransformer() or tinyGru(attention) by architecture (the Transformer keeps `attention` too,
// which it ignores, so that a config compared field by field is the one asked for).
inline ModelConfig tinyModel(Architecture architecture, AttentionKind attention = AttentionKind::Dot) {
    ModelConfig c = architecture == Architecture::Transformer ? tinyTransformer() : tinyGru(attention);
    c.attention = attention;
    return c;
}

// A trainer for `config` on `size` pairs of the reverse dataset (sentences up to 6 letters), trained
// `epochs` epochs at a high learning rate (0 = built, untrained): a model that has learnt something,
// so that decoding runs for several steps.
inline std::unique_ptr<TranslationTrainer> trainedOnReverse(const ModelConfig& config, std::size_t size = 120, int epochs = 2) {
    DatasetOptions data;
    data.size = size;
    data.seed = 3;
    data.maxLen = 6;
    TranslationTrainingOptions o;
    o.epochs = epochs > 0 ? epochs : 1;
    o.batchSize = 16;
    o.learningRate = 0.01;
    o.seed = 7;
    o.validationFraction = 0;
    auto trainer = std::make_unique<TranslationTrainer>(generateDataset("reverse", data), config, o);
    if (epochs > 0) trainer->run(nullptr, nullptr);
    return trainer;
}

// A ViT over 32 x 32 images: 8 x 8 patches, d_model 16, 2 heads, 2 layers.
inline VitConfig tinyVit() {
    VitConfig c;
    c.imageSize = 32;
    c.patch = 8;
    c.hidden = 16;
    c.heads = 2;
    c.layers = 2;
    return c;
}

// A captioner: 16 features, hidden 24, embeddings of 12, attention size 10.
inline CaptionerConfig tinyCaptioner() {
    CaptionerConfig c;
    c.features = 16;
    c.hidden = 24;
    c.embedding = 12;
    c.attentionSize = 10;
    return c;
}

// A forecaster: d_model 16, 2 heads, one encoder and one decoder layer, context 24, horizon 4.
inline ForecastConfig tinyForecast() {
    ForecastConfig c;
    c.context = 24;
    c.horizon = 4;
    c.dModel = 16;
    c.heads = 2;
    c.encoderLayers = 1;
    c.decoderLayers = 1;
    c.feedForward = 32;
    return c;
}

}  // namespace attnlab::test
