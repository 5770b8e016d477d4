#include "engine/nn/nodes/FusedGruCell.h"

#include "engine/nn/kernels/FusedGruKernels.h"
#include "engine/nn/kernels/VectorKernels.h"

namespace attnlab::nn {

using torch::Tensor;
using torch::autograd::AutogradContext;
using torch::autograd::variable_list;

namespace {

class GruCellFunction : public torch::autograd::Function<GruCellFunction> {
public:
    static Tensor forward(AutogradContext* ctx, Tensor input, Tensor h, const Tensor& weightIh, const Tensor& weightHh,
                          const Tensor& biasIh, const Tensor& biasHh) {
        input = input.contiguous();
        h = h.contiguous();
        const int64_t B = input.size(0), H = h.size(1);
        const Tensor gi = torch::addmm(biasIh, input, weightIh.t());  // [B, 3H]
        const Tensor gh = torch::addmm(biasHh, h, weightHh.t());      // [B, 3H]
        Tensor rz = torch::empty({B, 2 * H}, h.options()), n = torch::empty({B, H}, h.options());
        Tensor next = torch::empty({B, H}, h.options());
        AT_DISPATCH_FLOATING_TYPES(h.scalar_type(), "fusedGruCell", [&] {
            kernels::addGates<scalar_t>(gi.data_ptr<scalar_t>(), 3 * H, gh.data_ptr<scalar_t>(), 3 * H,
                                        rz.data_ptr<scalar_t>(), B, H);
            rz.sigmoid_();
            kernels::candidate<scalar_t>(gi.data_ptr<scalar_t>() + 2 * H, 3 * H, rz.data_ptr<scalar_t>(),
                                         gh.data_ptr<scalar_t>() + 2 * H, 3 * H, n.data_ptr<scalar_t>(), B, H);
            kernels::tanhInPlace(n.data_ptr<scalar_t>(), n.numel());
            kernels::update<scalar_t>(rz.data_ptr<scalar_t>(), n.data_ptr<scalar_t>(), h.data_ptr<scalar_t>(),
                                      next.data_ptr<scalar_t>(), nullptr, 0, nullptr, 0, B, H);
        });
        ctx->save_for_backward({input, h, weightIh, weightHh, gh, rz, n});
        return next;
    }

    static variable_list backward(AutogradContext* ctx, variable_list gradOutputs) {
        const auto saved = ctx->get_saved_variables();
        const Tensor &input = saved[0], &h = saved[1], &weightIh = saved[2], &weightHh = saved[3], &gh = saved[4],
                     &rz = saved[5], &n = saved[6];
        const Tensor dNext = gradOutputs[0].contiguous();
        const int64_t B = h.size(0), H = h.size(1);
        Tensor carry = torch::zeros({B, H}, h.options());  // becomes dNext ∘ z: the direct path to h
        Tensor dgi = torch::empty({B, 3 * H}, h.options()), dgh = torch::empty({B, 3 * H}, h.options());
        AT_DISPATCH_FLOATING_TYPES(h.scalar_type(), "fusedGruCellBackward", [&] {
            kernels::updateBackward<scalar_t>(carry.data_ptr<scalar_t>(), dNext.data_ptr<scalar_t>(), H, nullptr, 0,
                                              rz.data_ptr<scalar_t>(), n.data_ptr<scalar_t>(),
                                              gh.data_ptr<scalar_t>() + 2 * H, 3 * H, h.data_ptr<scalar_t>(),
                                              dgi.data_ptr<scalar_t>(), dgh.data_ptr<scalar_t>(), 3 * H, B, H);
        });
        Tensor dInput, dH, dWeightIh, dWeightHh, dBiasIh, dBiasHh;
        if (ctx->needs_input_grad(0)) dInput = torch::mm(dgi, weightIh);
        if (ctx->needs_input_grad(1)) dH = carry.addmm_(dgh, weightHh);
        if (ctx->needs_input_grad(2)) dWeightIh = torch::mm(dgi.t(), input);
        if (ctx->needs_input_grad(3)) dWeightHh = torch::mm(dgh.t(), h);
        if (ctx->needs_input_grad(4)) dBiasIh = dgi.sum(0);
        if (ctx->needs_input_grad(5)) dBiasHh = dgh.sum(0);
        return {dInput, dH, dWeightIh, dWeightHh, dBiasIh, dBiasHh};
    }
};

}  // namespace

Tensor fusedGruCell(const Tensor& input, const Tensor& h, torch::nn::GRUCell& cell) {
    return GruCellFunction::apply(input, h, cell->weight_ih, cell->weight_hh, cell->bias_ih, cell->bias_hh);
}

}  // namespace attnlab::nn
