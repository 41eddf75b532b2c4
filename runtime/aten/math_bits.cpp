// Copies of conjugate and negative views (x.conj(), x.conj().imag), which carry a bit in their
// dispatch keys instead of new values.
//
// For CPU and CUDA, ATen's copy_ resolves the bits itself. A copy that involves a PrivateUse1
// tensor goes through _copy_from instead, and there ATen's generic math-bit fallback would
// resolve a flagged argument with clone(), whose copy_ calls _copy_from on the same flagged
// tensor again: endless recursion and a stack overflow (any op on a conj view of a device
// tensor, x.conj().cpu() included). So _copy_from and _copy_from_and_resize get kernels under
// the Conjugate and Negative keys: copy the raw memory of both sides, then apply to the raw
// destination the bits in which source and destination differ. Conjugation and negation
// commute and are their own inverses, so that leaves the destination's logical values equal to
// the source's. These kernels only run for _copy_from, which CPU and CUDA never reach.
#include <ATen/core/Tensor.h>
#include <ATen/ops/_copy_from.h>
#include <ATen/ops/_copy_from_and_resize.h>
#include <ATen/ops/view_as_real.h>
#include <torch/library.h>

namespace opweave {
namespace {

// The same memory without the conjugate and negative bits.
at::Tensor raw_view(const at::Tensor& t) {
  at::Tensor raw = t;
  if (raw.is_conj()) raw = raw.conj();      // conj() of a conjugate view clears the bit
  if (raw.is_neg()) raw = raw._neg_view();  // _neg_view() toggles the bit
  return raw;
}

// Negation and conjugation in place, as neg_ on real numbers: conj_physical_ has no
// PrivateUse1 kernel (its CompositeExplicitAutograd one calls a CPU/CUDA-only stub), and
// neg_ on a float view is a catalogued op every vendor is likely to have.
void apply_bit_difference(const at::Tensor& src, const at::Tensor& dst, const at::Tensor& raw_dst) {
  const bool complex = raw_dst.is_complex();
  if (src.is_neg() != dst.is_neg()) (complex ? at::view_as_real(raw_dst) : raw_dst).neg_();
  if (src.is_conj() != dst.is_conj() && complex) at::view_as_real(raw_dst).select(-1, 1).neg_();
}

at::Tensor copy_from_bits(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  at::Tensor raw_dst = raw_view(dst);
  at::_copy_from(raw_view(self), raw_dst, non_blocking);
  apply_bit_difference(self, dst, raw_dst);
  return dst;
}

at::Tensor copy_from_and_resize_bits(const at::Tensor& self, const at::Tensor& dst) {
  at::Tensor raw_dst = raw_view(dst);
  at::_copy_from_and_resize(raw_view(self), raw_dst);
  apply_bit_difference(self, dst, raw_dst);
  return dst;
}

TORCH_LIBRARY_IMPL(aten, Conjugate, m) {
  m.impl("_copy_from", TORCH_FN(copy_from_bits));
  m.impl("_copy_from_and_resize", TORCH_FN(copy_from_and_resize_bits));
}

TORCH_LIBRARY_IMPL(aten, Negative, m) {
  m.impl("_copy_from", TORCH_FN(copy_from_bits));
  m.impl("_copy_from_and_resize", TORCH_FN(copy_from_and_resize_bits));
}

}  // namespace
}  // namespace opweave
