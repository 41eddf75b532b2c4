// Python numbers passed to a kernel by value.
//
// ATen hands `x * 0.5` to mul.Tensor with the number wrapped in a CPU 0-dim tensor. Where the
// catalogue has the DIOPI function's Scalar sibling (diopiMul and diopiMulScalar: the same
// arguments but `other`, a diopiScalar_t there), the generated wrapper calls that kernel with
// the number, instead of allocating a device scalar and filling it on the stream first: one
// allocation and one more kernel launch per call saved. ATen defines mul.Scalar(self, s) as
// mul.Tensor(self, wrapped(s)), so both kernels are asked the same question; a Scalar kernel
// that declines leaves the call to the tensor kernel, as before.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>

#include <atomic>

#include "diopi/diopirt.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_slots.h"

namespace opweave {

// Per DIOPI slot: the vendor has the kernel and no op bound to it is forced to the CPU
// (OPWEAVE_FALLBACK_OPS). Written by the op registry whenever it recomputes the op flags;
// all false until kernels are resolved, so early calls take the tensor kernel.
extern std::atomic<bool> g_by_value_slots[kDiopiSlotArraySize];

// `t` is a Python float or int and the Scalar kernel in `slot` may take it. Booleans stay
// tensors: DIOPI passes a bool scalar as int64, which would promote like an int; complex
// numbers are outside the catalogue.
inline bool by_value(const at::Tensor& t, int slot) {
  if (C10_LIKELY(!t.unsafeGetTensorImpl()->is_wrapped_number())) return false;
  const at::ScalarType s = t.scalar_type();
  return (s == at::kDouble || s == at::kLong) &&
         g_by_value_slots[slot].load(std::memory_order_relaxed);
}

// The number a wrapped 0-dim tensor holds (by_value(t, ...) was true).
inline diopiScalar_t wrapped_scalar(const at::Tensor& t) {
  const void* p = t.unsafeGetTensorImpl()->data();
  if (t.scalar_type() == at::kDouble) {
    return diopi_scalar(c10::Scalar(*static_cast<const double*>(p)));
  }
  return diopi_scalar(c10::Scalar(*static_cast<const int64_t*>(p)));
}

// The Scalar kernel in `slot` returned `status` (not success) for op `op`: returns when it
// declined (the tensor kernel runs next), throws a RuntimeError naming both otherwise.
void by_value_declined(int op, int slot, diopiError_t status);

}  // namespace opweave
