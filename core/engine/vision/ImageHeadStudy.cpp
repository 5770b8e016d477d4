#include "ImageHeadStudy.h"

#include <algorithm>

#include "base/InputError.h"
#include "base/vision/ImageData.h"
#include "engine/detail/HeadStudyRunner.h"
#include "engine/detail/ModelAccess.h"

namespace attnlab {

using torch::Tensor;

namespace {

using detail::appendHeads;
using detail::batchOf;
using detail::encoderSubject;
using detail::studyReport;

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
    detail::scoreAsClassifier(s, set.images.size(), batch, [&net, &set](std::size_t first, std::size_t last) {
        auto [images, labels] = imageBatch(set, first, last);
        return std::pair{net.forward(images).logits, labels};
    });
    return run(s, set);
}

}  // namespace

HeadStudyReport measureImageClassifierHeads(const ImageClassifier& model, const ImageDataset& data,
                                            const HeadStudyOptions& options, const HeadStudyProgress& progress) {
    return withImageSubject(model, data, options.limit, batchOf(options), [&](auto& s, const ImageSet& set) {
        return studyReport(s, set, set.images.size(), "accuracy", true, options, progress);
    });
}

HeadScore scoreImageClassifierWithAblation(const ImageClassifier& model, const ImageDataset& data,
                                           const std::vector<HeadId>& off, std::size_t limit) {
    return withImageSubject(model, data, limit, 64, [&](auto& s, auto&) { return detail::scoreWith(s, off); });
}

std::vector<double> imageClassifierHeadGradients(const ImageClassifier& model, const ImageDataset& data,
                                                 std::size_t limit) {
    return withImageSubject(model, data, limit, 64, [&](auto& s, auto&) { return detail::gateGradients(s); });
}

}  // namespace attnlab
