// The CPU half of the fallback for ops ATen gives no CPU kernel: the `_overrideable`
// convolution hooks, which a backend is meant to implement and which the device routes to the
// CPU for what its DIOPI function does not cover (transposed convolution). On the CPU they run
// as the ATen ops they stand for.
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <ATen/ops/convolution_backward.h>

#include <array>
#include <string>
#include <vector>

#include "aten/internal.h"

namespace opweave {
namespace {

const c10::DispatchKeySet kCpu(c10::DispatchKey::CPU);

// convolution_backward_overrideable(grad_output, input, weight, stride, padding, dilation,
// transposed, output_padding, groups, output_mask) -> convolution_backward, which also takes
// the bias's size: out channels, weight's dim 0 (dim 1 times groups when transposed).
void convolution_backward_on_cpu(torch::jit::Stack* stack) {
  const auto a = torch::jit::last(*stack, 10);
  const at::Tensor weight = a[2].toTensor();
  const bool transposed = a[6].toBool();
  const int64_t groups = a[8].toInt();
  const c10::List<bool> mask_list = a[9].toBoolList();
  const std::array<bool, 3> mask = {mask_list[0], mask_list[1], mask_list[2]};
  const int64_t channels = transposed ? weight.size(1) * groups : weight.size(0);
  const std::vector<int64_t> bias_sizes = {channels};
  const std::vector<int64_t> stride = a[3].toIntVector(), padding = a[4].toIntVector(),
                             dilation = a[5].toIntVector(), output_padding = a[7].toIntVector();
  auto grads = at::convolution_backward(
      a[0].toTensor(), a[1].toTensor(), weight,
      mask[2] ? at::OptionalIntArrayRef(bias_sizes) : at::OptionalIntArrayRef(), stride, padding,
      dilation, transposed, output_padding, groups, mask);
  torch::jit::drop(*stack, 10);
  torch::jit::push(*stack, std::get<0>(grads), std::get<1>(grads), std::get<2>(grads));
}

}  // namespace

void redispatch_on_cpu(const c10::OperatorHandle& op, const std::string& name,
                       torch::jit::Stack* stack) {
  if (name == "aten::convolution_overrideable") {  // same arguments as aten::convolution
    static const c10::OperatorHandle convolution =
        c10::Dispatcher::singleton().findSchemaOrThrow("aten::convolution", "");
    convolution.redispatchBoxed(kCpu, stack);
    return;
  }
  if (name == "aten::convolution_backward_overrideable") {
    convolution_backward_on_cpu(stack);
    return;
  }
  op.redispatchBoxed(kCpu, stack);
}

}  // namespace opweave
