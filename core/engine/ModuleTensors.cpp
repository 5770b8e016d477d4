#include "detail/ModuleTensors.h"

#include "base/InputError.h"

namespace attnlab {

namespace {

std::string shapeText(const std::vector<std::int64_t>& shape) {
    std::string s = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + "]";
}

}  // namespace

void appendTensors(const torch::nn::Module& module, SafetensorsContent& content) {
    torch::NoGradGuard noGrad;
    for (const auto& item : module.named_parameters()) {
        torch::Tensor t = item.value().detach().to(torch::kFloat).contiguous();
        TensorRecord r;
        r.name = item.key();
        r.shape = t.sizes().vec();
        r.data.assign(t.data_ptr<float>(), t.data_ptr<float>() + t.numel());
        content.tensors.push_back(std::move(r));
    }
}

std::int64_t weightCount(const torch::nn::Module& module) {
    std::int64_t n = 0;
    for (const auto& p : module.parameters()) n += p.numel();
    return n;
}

std::int64_t storedWeights(const SafetensorsContent& content) {
    std::int64_t stored = 0;
    for (const auto& t : content.tensors) stored += static_cast<std::int64_t>(t.data.size());
    return stored;
}

void loadTensorsInto(const SafetensorsContent& content, torch::nn::Module& module, const std::string& path) {
    auto params = module.named_parameters();
    // Check everything first, copy afterwards.
    for (const auto& item : params) {
        const TensorRecord* r = content.find(item.key());
        if (!r) throw ModelFileError(path, "tensor '" + item.key() + "' is missing");
        if (r->shape != item.value().sizes().vec())
            throw ModelFileError(path, "tensor '" + item.key() + "' has shape " + shapeText(r->shape) +
                                           " but the config needs " + shapeText(item.value().sizes().vec()));
    }
    if (content.tensors.size() != params.size())
        throw ModelFileError(path, "file has " + std::to_string(content.tensors.size()) + " tensors, the config needs " +
                                       std::to_string(params.size()));
    torch::NoGradGuard noGrad;
    for (auto& item : params) {
        const TensorRecord* r = content.find(item.key());
        torch::Tensor src = torch::from_blob(const_cast<float*>(r->data.data()), item.value().sizes(), torch::kFloat);
        if (!torch::isfinite(src).all().item<bool>())
            throw ModelFileError(path, "tensor '" + item.key() + "' contains NaN or infinity");
        item.value().copy_(src);
    }
}

}  // namespace attnlab
