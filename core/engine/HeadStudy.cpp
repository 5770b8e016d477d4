#include "HeadStudy.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <random>

#include "base/InputError.h"
#include "base/forecast/Series.h"
#include "base/text/ClassifyCorpus.h"
#include "base/vision/ImageData.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"
#include "engine/nn/networks/TransformerClassifierNet.h"

namespace attnlab {

using torch::Tensor;

int headsWithinTenPercent(const HeadStudyReport& report) {
    int best = 0;
    const double base = report.baseline.metric;
    for (const PruningPoint& p : report.pruningCurve) {
        const bool within = report.higherIsBetter ? p.metric >= 0.9 * base : p.metric <= 1.1 * base;
        if (!within) break;
        best = p.pruned;
    }
    return best;
}

std::vector<double> normalisePerLayer(const std::vector<double>& values, int heads) {
    std::vector<double> out(values.size(), 0.0);
    const std::size_t h = static_cast<std::size_t>(std::max(1, heads));
    for (std::size_t first = 0; first < values.size(); first += h) {
        const std::size_t last = std::min(values.size(), first + h);
        double norm = 0.0;
        for (std::size_t i = first; i < last; ++i) norm += values[i] * values[i];
        norm = std::sqrt(norm);
        for (std::size_t i = first; i < last; ++i) out[i] = norm > 0 ? values[i] / norm : 0.0;
    }
    return out;
}

namespace detail {

namespace {

using ModuleKey = std::pair<MapKind, int>;

// The subject's attention modules, each once, in head order.
std::vector<ModuleKey> modulesOf(const HeadSubject& subject) {
    std::vector<ModuleKey> out;
    for (const HeadId& h : subject.heads)
        if (out.empty() || out.back() != ModuleKey{h.kind, h.layer}) out.push_back({h.kind, h.layer});
    return out;
}

struct GateClear {
    const HeadSubject& subject;
    ~GateClear() { clearGates(subject); }
};

// The score with the first k heads of `order` off, for k = 0..n.
std::vector<PruningPoint> pruningCurve(const HeadSubject& subject, const std::vector<HeadId>& order,
                                       const HeadScore& baseline, const std::function<void()>& tick) {
    std::vector<PruningPoint> curve;
    const int n = static_cast<int>(order.size());
    for (int k = 0; k <= n; ++k) {
        const HeadScore s =
            k == 0 ? baseline : scoreWith(subject, std::vector<HeadId>(order.begin(), order.begin() + k));
        curve.push_back({k, n ? static_cast<double>(k) / n : 0.0, s.metric, s.loss});
        if (k) tick();
    }
    return curve;
}

}  // namespace

void clearGates(const HeadSubject& subject) {
    for (const ModuleKey& m : modulesOf(subject)) subject.module(m.first, m.second)->setHeadGate({});
}

HeadScore scoreWith(const HeadSubject& subject, const std::vector<HeadId>& off) {
    std::map<ModuleKey, Tensor> gates;
    for (const HeadId& h : off) {
        if (std::find(subject.heads.begin(), subject.heads.end(), h) == subject.heads.end())
            throw ConfigError("head " + toString(h) + " is not one of the model's");
        Tensor& gate = gates[{h.kind, h.layer}];
        if (!gate.defined()) gate = torch::ones({subject.headsPerLayer});
        gate[h.head] = 0.0f;
    }
    clearGates(subject);
    const GateClear clear{subject};
    for (auto& [where, gate] : gates) subject.module(where.first, where.second)->setHeadGate(gate);
    return subject.score();
}

std::vector<double> gateGradients(const HeadSubject& subject) {
    const std::vector<ModuleKey> modules = modulesOf(subject);
    const auto H = static_cast<std::size_t>(subject.headsPerLayer);
    std::vector<double> sums(modules.size() * H, 0.0);
    clearGates(subject);
    const GateClear clear{subject};
    torch::AutoGradMode grad(true);
    subject.forEachBatch([&](std::int64_t rows, const std::function<Tensor()>& loss) {
        std::vector<Tensor> gates;
        for (const ModuleKey& m : modules) {
            gates.push_back(torch::ones({rows, subject.headsPerLayer}, torch::requires_grad()));
            subject.module(m.first, m.second)->setHeadGate(gates.back());
        }
        const std::vector<Tensor> grads =
            torch::autograd::grad({loss()}, gates, {}, false, false, /*allow_unused=*/true);
        for (std::size_t g = 0; g < grads.size(); ++g) {
            if (!grads[g].defined()) continue;
            const Tensor perHead = grads[g].abs().sum(0).to(torch::kDouble).contiguous();
            const double* p = perHead.data_ptr<double>();
            for (std::size_t h = 0; h < H; ++h) sums[g * H + h] += p[h];
        }
    });
    return sums;
}

HeadStudyReport runHeadStudy(const HeadSubject& subject, const HeadStudyOptions& options,
                             const HeadStudyProgress& progress) {
    const std::vector<HeadId>& all = subject.heads;
    const int n = static_cast<int>(all.size());
    const int total = 1 + n + n + std::max(0, options.randomOrders) * n;
    int done = 0;
    auto tick = [&] {
        ++done;
        if (progress) progress(done, total);
    };

    HeadStudyReport report;
    report.baseline = scoreWith(subject, {});
    tick();
    const std::vector<double> gradients = gateGradients(subject);
    const std::vector<double> importance = normalisePerLayer(gradients, subject.headsPerLayer);
    for (std::size_t i = 0; i < all.size(); ++i) {
        HeadStudyEffect e;
        e.head = all[i];
        e.score = scoreWith(subject, {all[i]});
        e.deltaLoss = e.score.loss - report.baseline.loss;
        e.deltaMetric = e.score.metric - report.baseline.metric;
        e.gradient = gradients[i];
        e.importance = importance[i];
        report.heads.push_back(e);
        tick();
    }

    // Least important first; ties by head order.
    std::vector<std::size_t> rank(all.size());
    std::iota(rank.begin(), rank.end(), 0);
    std::stable_sort(rank.begin(), rank.end(), [&](std::size_t a, std::size_t b) { return importance[a] < importance[b]; });
    for (std::size_t i : rank) report.pruningOrder.push_back(all[i]);
    report.pruningCurve = pruningCurve(subject, report.pruningOrder, report.baseline, tick);

    if (options.randomOrders > 0) {
        std::mt19937_64 rng(options.seed);
        std::vector<PruningPoint> sum;
        for (int r = 0; r < options.randomOrders; ++r) {
            std::vector<HeadId> order = all;
            std::shuffle(order.begin(), order.end(), rng);
            const auto curve = pruningCurve(subject, order, report.baseline, tick);
            if (sum.empty()) {
                sum = curve;
                continue;
            }
            for (std::size_t k = 0; k < curve.size(); ++k) {
                sum[k].metric += curve[k].metric;
                sum[k].loss += curve[k].loss;
            }
        }
        for (auto& p : sum) {
            p.metric /= options.randomOrders;
            p.loss /= options.randomOrders;
        }
        report.randomCurve = std::move(sum);
    }
    return report;
}

}  // namespace detail

namespace {

// Every head of `layers` layers of one kind.
void appendHeads(std::vector<HeadId>& heads, MapKind kind, int layers, int perLayer) {
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < perLayer; ++h) heads.push_back({kind, l, h});
}

// The heads of a network whose attention is its encoder's self-attention alone (the classifier, the
// ViT): encoder:layer:head, each layer's module net.attention(layer). The caller adds score and
// forEachBatch.
template <class Net>
detail::HeadSubject encoderSubject(Net& net, int heads) {
    detail::HeadSubject s;
    appendHeads(s.heads, MapKind::Encoder, static_cast<int>(net.layerCount()), heads);
    s.headsPerLayer = heads;
    s.module = [&net](MapKind, int layer) -> nn::MultiHeadAttention& {
        return net.attention(static_cast<std::size_t>(layer));
    };
    return s;
}

std::size_t batchOf(const HeadStudyOptions& options) { return std::max<std::size_t>(1, options.batchSize); }

// Consecutive batches of `count` items.
template <class Fn>
void forEachRange(std::size_t count, std::size_t batch, Fn&& fn) {
    for (std::size_t first = 0; first < count; first += batch) fn(first, std::min(count, first + batch));
}

// ---- Text classifier --------------------------------------------------------------------------

struct TextSet {
    std::vector<std::vector<std::int64_t>> ids;
    std::vector<std::int64_t> labels;
    std::size_t skipped = 0;
};

TextSet prepareTexts(const TextClassifier& model, const ClassificationCorpus& corpus, std::size_t limit) {
    TextSet set;
    for (const LabeledText& e : corpus.examples) {
        if (limit && set.ids.size() >= limit) break;
        const int label = model.labelIndex(e.label);
        std::vector<std::int64_t> ids = model.ids(e.text);
        if (label < 0 || ids.empty()) {
            ++set.skipped;
            continue;
        }
        set.ids.push_back(std::move(ids));
        set.labels.push_back(label);
    }
    if (set.ids.empty())
        throw InputError(corpus.name, 0, "no text the model can classify (every label is one the model does not know)");
    return set;
}

struct TextBatch {
    Tensor ids, lengths, labels;
};

TextBatch textBatch(const TextSet& set, std::size_t first, std::size_t last) {
    std::size_t longest = 0;
    for (std::size_t i = first; i < last; ++i) longest = std::max(longest, set.ids[i].size());
    const auto B = static_cast<std::int64_t>(last - first);
    TextBatch b;
    b.ids = torch::zeros({B, static_cast<std::int64_t>(longest)}, torch::kLong);
    b.lengths = torch::empty({B}, torch::kLong);
    auto ids = b.ids.accessor<std::int64_t, 2>();
    auto lengths = b.lengths.accessor<std::int64_t, 1>();
    for (std::int64_t r = 0; r < B; ++r) {
        const auto& row = set.ids[first + static_cast<std::size_t>(r)];
        for (std::size_t i = 0; i < row.size(); ++i) ids[r][static_cast<std::int64_t>(i)] = row[i];
        lengths[r] = static_cast<std::int64_t>(row.size());
    }
    b.labels = torch::tensor(std::vector<std::int64_t>(set.labels.begin() + static_cast<std::ptrdiff_t>(first),
                                                       set.labels.begin() + static_cast<std::ptrdiff_t>(last)),
                             torch::kLong);
    return b;
}

// Cross-entropy summed, and the correct predictions, of logits against labels.
std::pair<Tensor, std::int64_t> classificationFigures(const Tensor& logits, const Tensor& labels) {
    Tensor loss = torch::nn::functional::cross_entropy(
        logits, labels, torch::nn::functional::CrossEntropyFuncOptions().reduction(torch::kSum));
    return {loss, logits.argmax(1).eq(labels).sum().item<std::int64_t>()};
}

nn::TransformerClassifierNetImpl& classifierTransformer(const TextClassifier& model) {
    auto* t = dynamic_cast<nn::TransformerClassifierNetImpl*>(detail::ModelAccess::impl(model).net.get());
    if (!t) throw ConfigError("heads needs a Transformer classifier (a GRU classifier has no attention heads)");
    return *t;
}

template <class Run>
auto withClassifierSubject(const TextClassifier& model, const ClassificationCorpus& corpus, std::size_t limit,
                           std::size_t batch, Run&& run) {
    nn::TransformerClassifierNetImpl& net = classifierTransformer(model);
    const EvalModeGuard evalMode(net);
    const TextSet set = prepareTexts(model, corpus, limit);
    detail::HeadSubject s = encoderSubject(net, model.config().heads);
    s.score = [&] {
        c10::InferenceMode inference;
        double loss = 0;
        std::int64_t correct = 0;
        forEachRange(set.ids.size(), batch, [&](std::size_t first, std::size_t last) {
            const TextBatch b = textBatch(set, first, last);
            auto [l, c] = classificationFigures(net.forward(b.ids, b.lengths).logits, b.labels);
            loss += l.item<double>();
            correct += c;
        });
        const auto n = static_cast<double>(set.ids.size());
        return HeadScore{loss / n, static_cast<double>(correct) / n, 0.0};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        forEachRange(set.ids.size(), batch, [&](std::size_t first, std::size_t last) {
            const TextBatch b = textBatch(set, first, last);
            visit(static_cast<std::int64_t>(last - first),
                  [&] { return classificationFigures(net.forward(b.ids, b.lengths).logits, b.labels).first; });
        });
    };
    return run(s, set);
}

}  // namespace

Classification classifyAblated(const TextClassifier& model, const std::string& text, const std::vector<HeadId>& off) {
    if (off.empty()) return model.classify(text);
    nn::TransformerClassifierNetImpl& net = classifierTransformer(model);
    detail::HeadSubject s = encoderSubject(net, model.config().heads);
    Classification c;
    s.score = [&] {
        c = model.classify(text);
        return HeadScore{};
    };
    detail::scoreWith(s, off);  // the gates set, classify, the gates cleared
    // The rollout without the heads that are off: per layer the kept heads' mean, (A + I) / 2 with
    // rows renormalised, the layers multiplied; [CLS]'s row over the words, renormalised.
    torch::NoGradGuard noGrad;
    std::vector<Tensor> layers;
    for (std::size_t l = 0; l < c.encoder.size(); ++l) {
        std::vector<Tensor> kept;
        int n = 0;
        for (std::size_t h = 0; h < c.encoder[l].size(); ++h) {
            const AttentionMap& map = c.encoder[l][h];
            n = map.rows;
            if (std::find(off.begin(), off.end(), HeadId{MapKind::Encoder, static_cast<int>(l), static_cast<int>(h)}) !=
                off.end())
                continue;
            kept.push_back(torch::from_blob(const_cast<float*>(map.weights.data()), {map.rows, map.cols}, torch::kFloat)
                               .clone());
        }
        // Every head off: A = 0, so (A + I) / 2 renormalised is I, as the comment above promises.
        layers.push_back(kept.empty() ? torch::zeros({1, 1, n, n}) : torch::stack(kept).unsqueeze(0));
    }
    if (!layers.empty()) {
        Tensor row = nn::attentionRollout(layers)[0][0].slice(0, 1);  // [CLS] over the words
        row = (row / row.sum().clamp_min(1e-12)).contiguous();
        c.rollout.assign(row.data_ptr<float>(), row.data_ptr<float>() + row.numel());
    }
    return c;
}

namespace {

// ---- ViT ----------------------------------------------------------------------------------------

struct ImageSet {
    std::vector<Image> images;  // at the model's channels and size
    std::vector<std::int64_t> labels;
    std::size_t skipped = 0;
};

ImageSet prepareImages(const ImageClassifier& model, const ImageDataset& data, std::size_t limit) {
    ImageSet set;
    const VitConfig& c = model.config();
    const auto& classes = model.classes();
    for (std::size_t i = 0; i < data.images.size(); ++i) {
        if (limit && set.images.size() >= limit) break;
        const int label = i < data.labels.size() ? data.labels[i] : -1;
        const auto found = label >= 0 && static_cast<std::size_t>(label) < data.classes.size()
                               ? std::find(classes.begin(), classes.end(), data.classes[static_cast<std::size_t>(label)])
                               : classes.end();
        if (found == classes.end()) {
            ++set.skipped;
            continue;
        }
        set.images.push_back(toModelInput(data.images[i], c.channels, c.imageSize));
        set.labels.push_back(found - classes.begin());
    }
    if (set.images.empty())
        throw InputError(data.name, 0, "no image of a class the model knows (its classes: " +
                                           std::to_string(classes.size()) + ", matched by name)");
    return set;
}

std::pair<Tensor, Tensor> imageBatch(const ImageSet& set, std::size_t first, std::size_t last) {
    std::vector<const Image*> members;
    for (std::size_t i = first; i < last; ++i) members.push_back(&set.images[i]);
    return {imagesTensor(members),
            torch::tensor(std::vector<std::int64_t>(set.labels.begin() + static_cast<std::ptrdiff_t>(first),
                                                    set.labels.begin() + static_cast<std::ptrdiff_t>(last)),
                          torch::kLong)};
}

template <class Run>
auto withImageSubject(const ImageClassifier& model, const ImageDataset& data, std::size_t limit, std::size_t batch,
                      Run&& run) {
    nn::VitNetImpl& net = *detail::ModelAccess::impl(model).net.ptr();
    const EvalModeGuard evalMode(net);
    const ImageSet set = prepareImages(model, data, limit);
    detail::HeadSubject s = encoderSubject(net, model.config().heads);
    s.score = [&] {
        c10::InferenceMode inference;
        double loss = 0;
        std::int64_t correct = 0;
        forEachRange(set.images.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [images, labels] = imageBatch(set, first, last);
            auto [l, c] = classificationFigures(net.forward(images).logits, labels);
            loss += l.item<double>();
            correct += c;
        });
        const auto n = static_cast<double>(set.images.size());
        return HeadScore{loss / n, static_cast<double>(correct) / n, 0.0};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        forEachRange(set.images.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [images, labels] = imageBatch(set, first, last);
            visit(static_cast<std::int64_t>(last - first),
                  [&] { return classificationFigures(net.forward(images).logits, labels).first; });
        });
    };
    return run(s, set);
}

// ---- Forecaster ---------------------------------------------------------------------------------

struct WindowSet {
    std::vector<long> starts;  // the first history value of each held-out window
    std::size_t skipped = 0;
};

WindowSet prepareWindows(const Forecaster& model, const Series& series, double tailFraction, std::size_t limit) {
    if (!(tailFraction > 0 && tailFraction < 1))
        throw ConfigError("the held-out tail must be a fraction above 0 and below 1");
    const ForecastConfig& c = model.config();
    const SeriesSplit split = splitSeries(series, c.context, c.horizon, tailFraction);
    WindowSet set;
    for (long at = std::max<long>(split.trainEnd, c.context); at + c.horizon <= split.length; ++at) {
        if (limit && set.starts.size() >= limit) break;
        set.starts.push_back(at - c.context);
    }
    if (set.starts.empty())
        throw InputError(series.source.empty() ? series.name : series.source, 0, "the held-out tail holds no window");
    return set;
}

// Histories [B, C] and targets [B, H], both standardised.
std::pair<Tensor, Tensor> windowBatch(const Forecaster::Impl& impl, const std::vector<double>& values,
                                      const WindowSet& set, std::size_t first, std::size_t last) {
    const int C = impl.config.context, H = impl.config.horizon;
    std::vector<const double*> rows;
    Tensor target = torch::empty({static_cast<std::int64_t>(last - first), H}, torch::kFloat);
    auto t = target.accessor<float, 2>();
    for (std::size_t i = first; i < last; ++i) {
        rows.push_back(values.data() + set.starts[i]);
        for (int h = 0; h < H; ++h)
            t[static_cast<std::int64_t>(i - first)][h] = static_cast<float>(
                impl.standardizer.apply(values[static_cast<std::size_t>(set.starts[i] + C + h)]));
    }
    return {impl.standardised(rows), target};
}

// The model's training loss (MSE or MAE of the standardised values), summed.
Tensor forecastLoss(const Forecaster::Impl& impl, const Tensor& prediction, const Tensor& target) {
    const Tensor error = prediction - target;
    return impl.config.loss == ForecastLoss::Mae ? error.abs().sum() : error.square().sum();
}

// The forecaster's heads: encoder self-, decoder self- and cross-attention, each layer's module.
detail::HeadSubject forecasterSubject(nn::ForecastNetImpl& net, const ForecastConfig& c) {
    detail::HeadSubject s;
    appendHeads(s.heads, MapKind::Encoder, c.encoderLayers, c.heads);
    appendHeads(s.heads, MapKind::Decoder, c.decoderLayers, c.heads);
    appendHeads(s.heads, MapKind::Cross, c.decoderLayers, c.heads);
    s.headsPerLayer = c.heads;
    s.module = [&net](MapKind kind, int layer) -> nn::MultiHeadAttention& {
        return net.attentionModule(kind, static_cast<std::size_t>(layer));
    };
    return s;
}

template <class Run>
auto withForecastSubject(const Forecaster& model, const Series& series, double tailFraction, std::size_t limit,
                         std::size_t batch, Run&& run) {
    const Forecaster::Impl& impl = detail::ModelAccess::impl(model);
    nn::ForecastNetImpl& net = *impl.net;
    const EvalModeGuard evalMode(net);
    const WindowSet set = prepareWindows(model, series, tailFraction, limit);
    const ForecastConfig& c = impl.config;
    detail::HeadSubject s = forecasterSubject(net, c);
    const std::vector<double>& values = series.values;
    s.score = [&] {
        c10::InferenceMode inference;
        double loss = 0, absError = 0;
        forEachRange(set.starts.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [history, target] = windowBatch(impl, values, set, first, last);
            const Tensor prediction = net.forward(history, false).prediction;
            loss += forecastLoss(impl, prediction, target).item<double>();
            // |yhat - y| in the series' units: the standardised error times the spread.
            absError += (prediction - target).abs().sum().item<double>() * impl.standardizer.std;
        });
        const double count = static_cast<double>(set.starts.size()) * c.horizon;
        return HeadScore{loss / count, absError / count, 0.0};
    };
    s.forEachBatch = [&](const detail::HeadSubject::Visit& visit) {
        forEachRange(set.starts.size(), batch, [&](std::size_t first, std::size_t last) {
            auto [history, target] = windowBatch(impl, values, set, first, last);
            visit(static_cast<std::int64_t>(last - first),
                  [&] { return forecastLoss(impl, net.forward(history, false).prediction, target); });
        });
    };
    return run(s, set);
}

template <class Set>
HeadStudyReport study(const detail::HeadSubject& s, const Set& set, std::size_t items, const char* metric,
                      bool higherIsBetter, const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    HeadStudyReport r = detail::runHeadStudy(s, options, progress);
    r.metric = metric;
    r.higherIsBetter = higherIsBetter;
    r.items = items;
    r.skipped = set.skipped;
    return r;
}

}  // namespace

HeadStudyReport measureClassifierHeads(const TextClassifier& model, const ClassificationCorpus& corpus,
                                       const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withClassifierSubject(model, corpus, options.limit, batchOf(options), [&](auto& s, const TextSet& set) {
        return study(s, set, set.ids.size(), "accuracy", true, options, progress);
    });
}

HeadStudyReport measureImageClassifierHeads(const ImageClassifier& model, const ImageDataset& data,
                                            const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withImageSubject(model, data, options.limit, batchOf(options), [&](auto& s, const ImageSet& set) {
        return study(s, set, set.images.size(), "accuracy", true, options, progress);
    });
}

HeadStudyReport measureForecasterHeads(const Forecaster& model, const Series& series, double tailFraction,
                                       const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withForecastSubject(model, series, tailFraction, options.limit, batchOf(options),
                               [&](auto& s, const WindowSet& set) {
                                   return study(s, set, set.starts.size(), "MAE", false, options, progress);
                               });
}

HeadScore scoreClassifierWithAblation(const TextClassifier& model, const ClassificationCorpus& corpus,
                                      const std::vector<HeadId>& off, std::size_t limit) {
    return withClassifierSubject(model, corpus, limit, 64, [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

HeadScore scoreImageClassifierWithAblation(const ImageClassifier& model, const ImageDataset& data,
                                           const std::vector<HeadId>& off, std::size_t limit) {
    return withImageSubject(model, data, limit, 64, [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

HeadScore scoreForecasterWithAblation(const Forecaster& model, const Series& series, const std::vector<HeadId>& off,
                                      double tailFraction, std::size_t limit) {
    return withForecastSubject(model, series, tailFraction, limit, 64,
                               [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

std::vector<double> classifierHeadGradients(const TextClassifier& model, const ClassificationCorpus& corpus,
                                            std::size_t limit) {
    return withClassifierSubject(model, corpus, limit, 64, [&](auto& s, auto&) { return detail::gateGradients(s); });
}

std::vector<double> imageClassifierHeadGradients(const ImageClassifier& model, const ImageDataset& data,
                                                 std::size_t limit) {
    return withImageSubject(model, data, limit, 64, [&](auto& s, auto&) { return detail::gateGradients(s); });
}

std::vector<double> forecasterHeadGradients(const Forecaster& model, const Series& series, double tailFraction,
                                            std::size_t limit) {
    return withForecastSubject(model, series, tailFraction, limit, 64,
                               [&](auto& s, auto&) { return detail::gateGradients(s); });
}

Forecast forecastAblated(const Forecaster& model, const std::vector<double>& values, long at,
                         const std::vector<HeadId>& off) {
    if (off.empty()) return model.forecastAt(values, at);
    const Forecaster::Impl& impl = detail::ModelAccess::impl(model);
    detail::HeadSubject s = forecasterSubject(*impl.net, impl.config);
    Forecast f;
    s.score = [&] {
        f = model.forecastAt(values, at);
        return HeadScore{};
    };
    detail::scoreWith(s, off);  // the gates set, the forecast, the gates cleared
    return f;
}

}  // namespace attnlab
