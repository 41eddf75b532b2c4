// The output-shaping rules the catalogue names (`outputs:` in specs/ops.yaml): each returns
// the shape and dtype a wrapper allocates (functional), resizes to (out=) or checks (in-place).
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/SmallVector.h>

namespace opweave {

struct OutMeta {
  c10::SmallVector<int64_t, 6> sizes;
  at::ScalarType dtype;
};

namespace rules {

OutMeta like(const at::Tensor& a);
OutMeta broadcast(const at::Tensor& a, const at::Tensor& b);
OutMeta broadcast(const at::Tensor& a, const at::Scalar& b);
OutMeta broadcast(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c);
OutMeta compare(const at::Tensor& a, const at::Tensor& b);
OutMeta compare(const at::Tensor& a, const at::Scalar& b);
OutMeta select(const at::Tensor& condition, const at::Tensor& a, const at::Tensor& b);
OutMeta reduce(const at::Tensor& a, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype = c10::nullopt);
OutMeta mm(const at::Tensor& a, const at::Tensor& b);
OutMeta bmm(const at::Tensor& a, const at::Tensor& b);
OutMeta scalar(const at::Tensor& a);
OutMeta nll_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction);
OutMeta cast(const at::Tensor& a, at::ScalarType dtype);

}  // namespace rules

// Functional variants: a new tensor on `like`'s device.
at::Tensor allocate(const OutMeta& meta, const at::Tensor& like);
// out= variants: checks the dtype can hold the result and resizes `out` like ATen does.
void resize_out(int op, const at::Tensor& out, const OutMeta& meta);
// In-place variants: the result must have self's shape and be castable to self's dtype.
void check_inplace(int op, const at::Tensor& self, const OutMeta& meta);

}  // namespace opweave
