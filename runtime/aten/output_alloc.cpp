// Allocation and checks of the outputs an output rule shaped: straight from the caching
// allocator on the op's device, resize of out= arguments and the in-place shape/dtype checks.
#include <ATen/EmptyTensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>

#include "aten/internal.h"
#include "opweave/allocator.h"
#include "opweave/op_registry.h"
#include "opweave/output_rules.h"
#include "opweave/stream.h"

namespace opweave {

at::Tensor allocate(const OutMeta& meta, c10::Device device) {
  if (device.type() == c10::DeviceType::PrivateUse1 && device.index() == current_device()) {
    // Straight to the caching allocator: the wrapper's OpGuard made the op's device current,
    // so at::empty's dispatcher round trip and device guard would be pure per-op overhead.
    return at::detail::empty_generic(meta.sizes, device_allocator(),
                                     c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), meta.dtype,
                                     c10::nullopt);
  }
  return at::empty(meta.sizes, at::TensorOptions().device(device).dtype(meta.dtype));
}

at::Tensor allocate(const OutMeta& meta, const at::Tensor& like) {
  return allocate(meta, like.device());
}

at::Tensor allocate(const OutMeta& meta, at::TensorList like) {
  TORCH_CHECK(!like.empty(), "expected a non-empty list of tensors");
  return allocate(meta, like[0]);
}

at::Tensor allocate(const OutMeta& meta, const at::ITensorListRef& like) {
  TORCH_CHECK(like.size() > 0, "expected a non-empty list of tensors");
  return allocate(meta, *like.begin());
}

void resize_out(int op, const at::Tensor& out, const OutMeta& meta) {
  TORCH_CHECK(at::canCast(meta.dtype, out.scalar_type()), op_info(op).aten_name, ": result type ",
              meta.dtype, " can't be cast to the desired output type ", out.scalar_type());
  // resize_output does nothing for an out of the right shape either, after ~130 instructions of
  // calls and checks: the common case of every out= op decides here.
  if (C10_LIKELY(same_sizes(out.sizes(), meta.sizes))) return;
  at::native::resize_output(out, meta.sizes);
}

void check_inplace(int op, const at::Tensor& self, const OutMeta& meta) {
  TORCH_CHECK(self.sizes().equals(meta.sizes), op_info(op).aten_name, ": output with shape ",
              self.sizes(), " doesn't match the broadcast shape ", at::IntArrayRef(meta.sizes));
  TORCH_CHECK(at::canCast(meta.dtype, self.scalar_type()), op_info(op).aten_name, ": result type ",
              meta.dtype, " can't be cast to the desired output type ", self.scalar_type());
}

}  // namespace opweave
