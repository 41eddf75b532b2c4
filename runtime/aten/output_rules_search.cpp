// Output rules of the reductions and searches added with issue #20's third coverage round:
// aminmax over an optional dim, count_nonzero, trace, addbmm, searchsorted / bucketize.
#include <ATen/WrapDimUtils.h>

#include "opweave/output_rules.h"
#include "opweave/torch_compat.h"

namespace opweave {
namespace rules {

OutMeta reduce_dim(const at::Tensor& a, c10::optional<int64_t> dim, bool keepdim) {
#if !OPWEAVE_TORCH_AT_LEAST(2, 0)
  // ATen 1.13's aminmax keeps a 0-dim input's dim as [1] with keepdim (2.x gives [])
  if (dim.has_value() && a.dim() == 0 && keepdim) {
    (void)at::maybe_wrap_dim(*dim, int64_t{0});
    return OutMeta{{1}, a.scalar_type()};
  }
#endif
  if (dim.has_value()) return reduce_dim(a, *dim, keepdim);
  // Over every element (aminmax with dim None): no value without one; keepdim keeps every dim.
  TORCH_CHECK(a.numel() > 0,
              "cannot reduce over every element of an empty tensor: the "
              "minimum and maximum have no identity");
  c10::SmallVector<int64_t, 6> sizes;
  if (keepdim) sizes.assign(static_cast<size_t>(a.dim()), 1);
  return OutMeta{sizes, a.scalar_type()};
}

OutMeta reduce_count(const at::Tensor& a, at::IntArrayRef dim) {
  return reduce(a, dim, /*keepdim=*/false, at::kLong);
}

OutMeta trace(const at::Tensor& a) {
  TORCH_CHECK(a.dim() == 2, "trace: expected a matrix, but got tensor with dim ", a.dim());
  const at::ScalarType t = a.scalar_type();
  // ATen's trace sums integers (bool included) in int64 and returns that
  return OutMeta{{}, at::isIntegralType(t, /*includeBool=*/true) ? at::kLong : t};
}

OutMeta addbmm(const at::Tensor& batch1, const at::Tensor& batch2) {
  TORCH_CHECK(batch1.dim() == 3 && batch2.dim() == 3, "batch1 must be a 3D tensor, got ",
              batch1.dim(), "-D and ", batch2.dim(), "-D");
  TORCH_CHECK(batch1.size(0) == batch2.size(0) && batch1.size(2) == batch2.size(1),
              "addbmm: shapes ", batch1.sizes(), " and ", batch2.sizes(), " cannot be multiplied");
  return OutMeta{{batch1.size(1), batch2.size(2)}, batch1.scalar_type()};
}

OutMeta bucket(const at::Tensor& a, bool out_int32) {
  return OutMeta{c10::SmallVector<int64_t, 6>(a.sizes().begin(), a.sizes().end()),
                 out_int32 ? at::kInt : at::kLong};
}

OutMeta histc(const at::Tensor& a, int64_t bins) {
  TORCH_CHECK(bins > 0, "torch.histc(): bins must be > 0, but got ", bins);
  return OutMeta{{bins}, a.scalar_type()};
}

}  // namespace rules
}  // namespace opweave
