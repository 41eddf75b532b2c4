// The `cross` family: cross product of 3-vectors along dim, the other dims broadcast, in the
// inputs' dtype (float32 / float64). DIOPI: diopiLinalgCross.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

template <class T>
void cross_compute(const View& out, const View& x, const View& y, int dim) {
  const std::vector<T> a = packed<T>(x), b = packed<T>(y);  // broadcast to out's shape
  std::vector<T> r(a.size());
  const Lines l = lines_of(out, dim);
  for (int64_t o = 0; o < l.outer; ++o) {
    for (int64_t i = 0; i < l.inner; ++i) {
      const size_t p0 = static_cast<size_t>(o * 3 * l.inner + i);
      const size_t p1 = p0 + static_cast<size_t>(l.inner), p2 = p1 + static_cast<size_t>(l.inner);
      r[p0] = a[p1] * b[p2] - a[p2] * b[p1];
      r[p1] = a[p2] * b[p0] - a[p0] * b[p2];
      r[p2] = a[p0] * b[p1] - a[p1] * b[p0];
    }
  }
  unpack(out, r);
}

void linalg_cross(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                  diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t other_h, int64_t dim) {
  const View out = output_view(out_h, "out");
  const View x = input_view(input_h, "input");
  const View y = input_view(other_h, "other");
  check_dtype(x, kFloat32Or64, "input");
  // ATen's own checks (one rank, one dtype, length 3 along dim): declined, so ATen raises them
  if (y.dtype != x.dtype || out.dtype != x.dtype || x.ndim != y.ndim || x.ndim == 0 ||
      out.ndim != x.ndim) {
    failf(diopiNoImplement, "inputs of different ranks or dtypes");
  }
  if (dim < -x.ndim || dim >= x.ndim) failf(diopiNoImplement, "dim out of range");
  const int d = wrap_dim(dim, x.ndim);
  if (x.sizes[d] != 3 || y.sizes[d] != 3) failf(diopiNoImplement, "dim %d is not of length 3", d);
  const View xb = broadcast_to(x, out, "input"), yb = broadcast_to(y, out, "other");
  launch(kernel, ctx, out, [=] {
    if (out.numel() == 0) return;
    if (out.dtype == diopi_dtype_float64) {
      cross_compute<double>(out, xb, yb, d);
    } else {
      cross_compute<float>(out, xb, yb, d);
    }
  });
}

}  // namespace

diopiError_t diopiLinalgCross(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                              int64_t dim) {
  SIMK_KERNEL(diopiLinalgCross);
  return guarded(kernel.name, [&] { linalg_cross(kernel, ctx, out, input, other, dim); });
}
