// The `dot` family: Inner product of two 1-D tensors of one length and dtype, accumulated in
// double (vdot is the same for real tensors). DIOPI: diopiDot, diopiVdot.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

void dot(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
         diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t other_h) {
  const View out = output_view(out_h, "out");
  const View a = input_view(input_h, "input");
  const View b = input_view(other_h, "other");
  check_dtype(out, kFloat32Or64, "out");
  check_dtype(a, kFloat32Or64, "input");
  check_dtype(b, kFloat32Or64, "other");
  SIMK_CHECK(a.ndim == 1 && b.ndim == 1, "1D tensors expected, but got %dD and %dD tensors", a.ndim,
             b.ndim);
  SIMK_CHECK(a.sizes[0] == b.sizes[0], "inconsistent tensor size: %lld and %lld elements",
             static_cast<long long>(a.sizes[0]), static_cast<long long>(b.sizes[0]));
  SIMK_CHECK(out.numel() == 1, "out has shape %s, expected a single element",
             out.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    const std::vector<double> x = packed<double>(a), y = packed<double>(b);
    double s = 0;
    for (size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
    std::vector<double> r{s};
    unpack(out, r);
  });
}

}  // namespace

diopiError_t diopiDot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiDot);
  return guarded(kernel.name, [&] { dot(kernel, ctx, out, input, other); });
}

diopiError_t diopiVdot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiVdot);
  return guarded(kernel.name, [&] { dot(kernel, ctx, out, input, other); });
}
