#include "ImageExplanation.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "ImageAttention.h"
#include "base/InputError.h"
#include "base/analysis/RankCorrelation.h"
#include "base/SeededRandom.h"

namespace attnlab {

const std::vector<std::string>& imageExplanationMethods() {
    static const std::vector<std::string> methods{"rollout", "gradient", "grad_x_input", "integrated_gradients",
                                                  "grad_rollout"};
    return methods;
}

const std::vector<std::string>& captionExplanationMethods() {
    static const std::vector<std::string> methods{"attention", "gradient", "grad_x_input", "integrated_gradients"};
    return methods;
}

std::vector<std::string> methodsOf(const ImageExplanation& ex) {
    static const std::vector<std::string> order{"rollout", "attention", "gradient", "grad_x_input", "integrated_gradients",
                                                "grad_rollout"};
    std::vector<std::string> out;
    for (const auto& m : order)
        if (ex.maps.count(m)) out.push_back(m);
    return out;
}

double igCompletenessError(const ImageExplanation& ex) {
    return std::abs(ex.igAttributionSum - ex.igOutputDifference) / std::max(std::abs(ex.igOutputDifference), 1e-6);
}

std::vector<double> magnitudeDistribution(const std::vector<double>& values) {
    std::vector<double> out(values.size(), 0.0);
    double total = 0;
    for (double v : values) {
        if (!std::isfinite(v)) return out;
        total += std::abs(v);
    }
    if (total <= 0) return out;
    for (std::size_t i = 0; i < values.size(); ++i) out[i] = std::abs(values[i]) / total;
    return out;
}

void imageRankAgreement(ImageExplanation& ex) {
    ex.kendallTau.clear();
    for (auto a = ex.maps.begin(); a != ex.maps.end(); ++a)
        for (auto b = std::next(a); b != ex.maps.end(); ++b) {
            const double tau = kendallTau(a->second, b->second);
            ex.kendallTau[a->first][b->first] = tau;
            ex.kendallTau[b->first][a->first] = tau;
        }
}

std::optional<Box> namedObjectBox(ImageExplanation& ex, const std::vector<SceneObject>& objects) {
    if (ex.wordIndex < 0) return std::nullopt;
    const int k = namedObject(ex.caption, static_cast<std::size_t>(ex.wordIndex), objects);
    if (k < 0) return std::nullopt;
    const SceneObject& o = objects[static_cast<std::size_t>(k)];
    ex.boxObject = o.colour + " " + o.shape;
    return o.box;
}

void measureOnBox(ImageExplanation& ex, const Box& box) {
    ex.massInBox.clear();
    for (const auto& [method, map] : ex.maps) {
        const std::vector<float> weights(map.begin(), map.end());
        ex.massInBox[method] = massOnBox(weights, ex.gridRows, ex.gridCols, ex.imageHeight, ex.imageWidth, box);
    }
    ex.boxShare = boxShare(box, ex.imageHeight, ex.imageWidth);
    ex.hasBox = true;
}

std::vector<int> rankPatches(const std::vector<double>& map) {
    std::vector<int> order(map.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return map[static_cast<std::size_t>(a)] > map[static_cast<std::size_t>(b)];
    });
    return order;
}

Image withPatchesReplaced(const Image& image, int rows, int cols, const std::vector<int>& patches,
                          const std::vector<std::uint8_t>& fill) {
    if (rows <= 0 || cols <= 0 || image.height % rows != 0 || image.width % cols != 0)
        throw ConfigError("the image does not divide into " + std::to_string(rows) + "x" + std::to_string(cols) + " patches");
    if (fill.size() != static_cast<std::size_t>(image.channels)) throw ConfigError("the fill needs one value per channel");
    Image out = image;
    const int ph = image.height / rows, pw = image.width / cols, c = image.channels;
    for (int patch : patches) {
        if (patch < 0 || patch >= rows * cols) throw ConfigError("patch " + std::to_string(patch) + " is outside the grid");
        const int top = (patch / cols) * ph, left = (patch % cols) * pw;
        for (int y = top; y < top + ph; ++y)
            for (int x = left; x < left + pw; ++x)
                for (int k = 0; k < c; ++k)
                    out.pixels[(static_cast<std::size_t>(y) * image.width + x) * c + k] = fill[static_cast<std::size_t>(k)];
    }
    return out;
}

std::vector<std::uint8_t> meanColour(const Image& image) {
    const int c = image.channels;
    std::vector<double> sum(static_cast<std::size_t>(c), 0.0);
    for (std::size_t i = 0; i < image.pixels.size(); ++i) sum[i % static_cast<std::size_t>(c)] += image.pixels[i];
    const double count = std::max<double>(1.0, static_cast<double>(image.pixels.size()) / c);
    std::vector<std::uint8_t> mean;
    for (double s : sum) mean.push_back(static_cast<std::uint8_t>(std::lround(std::clamp(s / count, 0.0, 255.0))));
    return mean;
}

double areaOverCurve(const std::vector<double>& curve) {
    if (curve.empty()) return 0;
    double area = 0;
    for (double p : curve) area += curve.front() - p;
    return area / static_cast<double>(curve.size());
}

DeletionCurves deletionTest(const Image& image, int rows, int cols, const std::map<std::string, std::vector<double>>& maps,
                            const ClassProbability& probability, int randomOrders, std::uint64_t seed) {
    const int n = rows * cols;
    if (rows <= 0 || cols <= 0 || image.height % rows != 0 || image.width % cols != 0)
        throw ConfigError("the image does not divide into " + std::to_string(rows) + "x" + std::to_string(cols) + " patches");
    const std::vector<std::uint8_t> fill = meanColour(image);
    // Every order's N + 1 images in one batch for the model.
    std::vector<std::pair<std::string, std::vector<int>>> orders;
    for (const auto& [method, map] : maps) {
        if (map.size() != static_cast<std::size_t>(n))
            throw ConfigError("the " + method + " map has " + std::to_string(map.size()) + " values for " + std::to_string(n) +
                              " patches");
        orders.emplace_back(method, rankPatches(map));
    }
    SeededRandom random(seed);
    for (int r = 0; r < randomOrders; ++r) {
        std::vector<int> order(static_cast<std::size_t>(n));
        std::iota(order.begin(), order.end(), 0);
        random.shuffle(order);
        orders.emplace_back("random", std::move(order));
    }
    std::vector<Image> batch;
    batch.reserve(orders.size() * static_cast<std::size_t>(n + 1));
    for (const auto& [method, order] : orders) {
        Image current = image;
        batch.push_back(current);
        for (int k = 0; k < n; ++k) {
            current = withPatchesReplaced(current, rows, cols, {order[static_cast<std::size_t>(k)]}, fill);
            batch.push_back(current);
        }
    }
    const std::vector<double> p = probability(batch);
    if (p.size() != batch.size()) throw ConfigError("the model gave " + std::to_string(p.size()) + " probabilities for " +
                                                    std::to_string(batch.size()) + " images");
    DeletionCurves out;
    for (int k = 0; k <= n; ++k) out.fractions.push_back(static_cast<double>(k) / n);
    for (std::size_t o = 0; o < orders.size(); ++o) {
        std::vector<double>& curve = out.probability[orders[o].first];
        curve.resize(static_cast<std::size_t>(n + 1), 0.0);
        const double weight = orders[o].first == "random" ? 1.0 / randomOrders : 1.0;
        for (int k = 0; k <= n; ++k) curve[static_cast<std::size_t>(k)] += weight * p[o * static_cast<std::size_t>(n + 1) + k];
    }
    for (const auto& [method, curve] : out.probability) out.areaOverCurve[method] = areaOverCurve(curve);
    return out;
}

ImageExplanationSummary summarise(const std::vector<ImageExplanation>& explanations) {
    if (explanations.empty()) throw ConfigError("no explanation to summarise");
    ImageExplanationSummary s;
    const ImageExplanation& first = explanations.front();
    s.deletion.fractions = first.deletion.fractions;
    std::map<std::string, std::map<std::string, int>> tauCounts;
    for (const ImageExplanation& ex : explanations) {
        if (ex.gridRows != first.gridRows || ex.gridCols != first.gridCols || ex.deletion.fractions.size() != s.deletion.fractions.size())
            throw ConfigError("the explanations do not share one grid");
        ++s.images;
        for (const auto& [name, curve] : ex.deletion.probability) {
            std::vector<double>& sum = s.deletion.probability[name];
            sum.resize(curve.size(), 0.0);
            for (std::size_t k = 0; k < curve.size(); ++k) sum[k] += curve[k];
        }
        for (const auto& [name, area] : ex.deletion.areaOverCurve) s.deletion.areaOverCurve[name] += area;
        for (const auto& [a, row] : ex.kendallTau)
            for (const auto& [b, tau] : row)
                if (std::isfinite(tau)) {
                    s.meanTau[a][b] += tau;
                    ++tauCounts[a][b];
                }
        const double ig = igCompletenessError(ex);
        s.meanIgError += ig;
        s.maxIgError = std::max(s.maxIgError, ig);
        if (ex.hasBox) {
            ++s.withBoxes;
            for (const auto& [name, mass] : ex.massInBox) s.meanMassInBox[name] += mass;
            s.meanBoxShare += ex.boxShare;
        }
    }
    const double n = s.images;
    for (auto& [name, curve] : s.deletion.probability)
        for (double& p : curve) p /= n;
    for (auto& [name, area] : s.deletion.areaOverCurve) area /= n;
    for (auto& [a, row] : s.meanTau)
        for (auto& [b, tau] : row) tau /= tauCounts[a][b];
    s.meanIgError /= n;
    if (s.withBoxes > 0) {
        for (auto& [name, mass] : s.meanMassInBox) mass /= s.withBoxes;
        s.meanBoxShare /= s.withBoxes;
    }
    return s;
}

}  // namespace attnlab
