// The ATen kernels every PrivateUse1 device must provide itself: factories, resize/set_,
// views, copies and .item(). Compute ops come from the generated wrappers or the CPU fallback.
#include <ATen/EmptyTensor.h>
#include <ATen/core/Tensor.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/_reshape_alias_native.h>
#include <ATen/ops/as_strided_native.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/set_native.h>
#include <ATen/ops/unfold_native.h>
#include <ATen/ops/view_as_complex_native.h>
#include <ATen/ops/view_as_real_native.h>
#include <ATen/ops/view_native.h>
#include <c10/core/DeviceGuard.h>
#include <torch/library.h>

#include "aten/internal.h"
#include "opweave/allocator.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

// The device a factory targets: explicit index, or the current device for "opweave"
// ("privateuseone" on torch 1.13).
c10::DeviceIndex target_device(const c10::optional<c10::Device>& device, const char* op) {
  if (device.has_value()) {
    TORCH_CHECK(device->type() == kDeviceType, op, ": expected a ",
                c10::DeviceTypeName(kDeviceType, /*lower_case=*/true), " device, got ", *device);
    return checked_device_index(device->index(), op);
  }
  return checked_device_index(-1, op);
}

void check_factory_options(c10::optional<at::Layout> layout, c10::optional<bool> pin_memory,
                           const char* op) {
  TORCH_CHECK(layout.value_or(c10::kStrided) == c10::kStrided, op,
              ": only strided tensors are supported on opweave, got layout ", *layout);
  TORCH_CHECK(!pin_memory.value_or(false), op, ": only CPU tensors can be pinned");
}

// Allocation errors (e.g. out of memory) name the op that allocated.
template <class F>
auto with_op_context(const char* op, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (c10::Error& e) {
    e.add_context(std::string("in ") + op);
    throw;
  }
}

at::Tensor empty_memory_format(c10::SymIntArrayRef size, c10::optional<at::ScalarType> dtype,
                               c10::optional<at::Layout> layout, c10::optional<c10::Device> device,
                               c10::optional<bool> pin_memory,
                               c10::optional<at::MemoryFormat> memory_format) {
  const char* op = "aten::empty.memory_format";
  const c10::DeviceIndex d = target_device(device, op);
  check_factory_options(layout, pin_memory, op);
  return with_op_context(op, [&] {
    const c10::DeviceGuard guard(c10::Device(kDeviceType, d));  // the allocator's device
    return at::Tensor(at::detail::empty_generic(opweave::compat::ints(size), device_allocator(),
                                                c10::DispatchKeySet(c10::DispatchKey::PrivateUse1),
                                                c10::dtype_or_default(dtype), memory_format));
  });
}

at::Tensor empty_strided(c10::SymIntArrayRef size, c10::SymIntArrayRef stride,
                         c10::optional<at::ScalarType> dtype, c10::optional<at::Layout> layout,
                         c10::optional<c10::Device> device, c10::optional<bool> pin_memory) {
  const char* op = "aten::empty_strided";
  const c10::DeviceIndex d = target_device(device, op);
  check_factory_options(layout, pin_memory, op);
  return with_op_context(op, [&] {
    const c10::DeviceGuard guard(c10::Device(kDeviceType, d));
    return at::Tensor(at::detail::empty_strided_generic(
        opweave::compat::ints(size), opweave::compat::ints(stride), device_allocator(),
        c10::DispatchKeySet(c10::DispatchKey::PrivateUse1), c10::dtype_or_default(dtype)));
  });
}

const at::Tensor& resize_(const at::Tensor& self, c10::SymIntArrayRef size,
                          c10::optional<at::MemoryFormat> memory_format) {
  TORCH_CHECK(!self.has_names(), "aten::resize_: named tensors are not supported on opweave");
  auto* impl = self.unsafeGetTensorImpl();
  with_op_context("aten::resize_",
                  [&] { resize_device_tensor(impl, opweave::compat::ints(size), c10::nullopt); });
  if (memory_format.has_value()) {
    TORCH_CHECK(*memory_format != at::MemoryFormat::Preserve,
                "aten::resize_: unsupported memory format ", *memory_format);
    impl->empty_tensor_restride(*memory_format);
  }
  return self;
}

at::Tensor as_strided(const at::Tensor& self, c10::SymIntArrayRef size, c10::SymIntArrayRef stride,
                      c10::optional<c10::SymInt> storage_offset) {
  c10::optional<int64_t> offset;
  if (storage_offset.has_value()) offset = storage_offset->expect_int();
  return at::native::as_strided_tensorimpl(self, opweave::compat::ints(size),
                                           opweave::compat::ints(stride), offset);
}

at::Tensor view(const at::Tensor& self, c10::SymIntArrayRef size) {
  return at::native::view(self, opweave::compat::ints(size));
}

at::Tensor reshape_alias(const at::Tensor& self, c10::SymIntArrayRef size,
                         c10::SymIntArrayRef stride) {
  return at::native::_reshape_alias(self, opweave::compat::ints(size),
                                    opweave::compat::ints(stride));
}

at::Tensor& set_storage(at::Tensor& self, at::Storage source, c10::SymInt storage_offset,
                        c10::SymIntArrayRef size, c10::SymIntArrayRef stride) {
  const int64_t offset = storage_offset.expect_int();
  const c10::IntArrayRef sizes = opweave::compat::ints(size);
  const c10::IntArrayRef strides = opweave::compat::ints(stride);
  at::native::checkSetStorage(self, std::move(source), offset, sizes, strides);
  self.unsafeGetTensorImpl()->set_storage_offset(offset);
  c10::optional<c10::IntArrayRef> stride_opt;
  if (strides.data() != nullptr) stride_opt = strides;
  resize_device_tensor(self.unsafeGetTensorImpl(), sizes, stride_opt);
  return self;
}

at::Tensor& set_empty(at::Tensor& self) {
  c10::Storage storage(c10::Storage::use_byte_size_t(), 0, allocate_on(self.device().index(), 0),
                       device_allocator(), true);
  self.set_(storage, 0, {0}, {});
  return self;
}

at::Scalar local_scalar_dense(const at::Tensor& self) {
  TORCH_CHECK(self.numel() == 1, "aten::_local_scalar_dense: a tensor with ", self.numel(),
              " elements cannot be converted to a Python scalar");
  at::Tensor host = at::empty({}, self.options().device(c10::kCPU));
  copy_into(host, self.reshape({}), /*non_blocking=*/false);
  return host.item();
}

at::Tensor copy_from(const at::Tensor& self, const at::Tensor& dst, bool non_blocking) {
  copy_into(dst, self, non_blocking);
  return dst;
}

at::Tensor copy_from_and_resize(const at::Tensor& self, const at::Tensor& dst) {
  if (dst.sizes() != self.sizes()) dst.resize_(self.sizes());  // in place: never rebinds dst
  copy_into(dst, self, /*non_blocking=*/false);
  return dst;
}

// Generic ATen view/set_ kernels, wrapped locally: under -fsanitize=undefined GCC cannot
// constant-fold the address of a function from another library in TORCH_FN.
at::Tensor unfold(const at::Tensor& self, int64_t dim, int64_t size, int64_t step) {
  return at::native::unfold(self, dim, size, step);
}
at::Tensor view_as_real(const at::Tensor& self) { return at::native::view_as_real(self); }
at::Tensor view_as_complex(const at::Tensor& self) { return at::native::view_as_complex(self); }
at::Tensor& set_source_storage(at::Tensor& self, at::Storage source) {
  return at::native::set_(self, std::move(source));
}
at::Tensor& set_source_tensor(at::Tensor& self, const at::Tensor& source) {
  return at::native::set_tensor_(self, source);
}

void record_stream_op(at::Tensor& self, c10::Stream stream) {
  record_stream(self.storage().data_ptr(), stream);
}

}  // namespace

// Grows a device storage: a new block, the old bytes copied over on the current stream.
void resize_device_storage(c10::StorageImpl* storage, size_t nbytes) {
  TORCH_CHECK(storage->resizable(), "aten::resize_: trying to resize a storage of ",
              storage->nbytes(), " bytes that is not resizable to ", nbytes, " bytes");
  const c10::DeviceIndex device = storage->device().index();
  c10::DataPtr fresh = allocate_on(device, nbytes);
  const size_t keep = std::min(storage->nbytes(), nbytes);
  if (keep > 0) {
    check_seam(seam().memcpyAsync(fresh.get(), storage->data(), keep, owMemcpyDeviceToDevice,
                                  current_native_stream(device)),
               "memcpyAsync");
  }
  c10::DataPtr old = storage->set_data_ptr(std::move(fresh));
  // The copy above still reads the old block: keep it from being reused before that.
  record_stream(old, current_stream(device));
  storage->set_nbytes(nbytes);
}

void resize_device_tensor(c10::TensorImpl* self, c10::IntArrayRef size,
                          c10::optional<c10::IntArrayRef> stride) {
  if (self->sizes() == size && (!stride || self->strides() == *stride)) return;
  const auto itemsize = self->dtype().itemsize();
  const auto offset = self->storage_offset();
  size_t nbytes;
  if (stride) {
    self->set_sizes_and_strides(size, *stride);
    nbytes = at::detail::computeStorageNbytes(size, *stride, itemsize, offset);
  } else {
    self->set_sizes_contiguous(size);
    nbytes = at::detail::computeStorageNbytesContiguous(size, itemsize, offset);
  }
  if (self->numel() == 0) return;  // like CPU: an empty tensor never grows its storage
  const c10::Storage& storage = self->unsafe_storage();
  if (nbytes > storage.nbytes()) resize_device_storage(storage.unsafeGetStorageImpl(), nbytes);
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("empty.memory_format", TORCH_FN(empty_memory_format));
  m.impl("empty_strided", TORCH_FN(empty_strided));
  m.impl("resize_", TORCH_FN(resize_));
  m.impl("as_strided", TORCH_FN(as_strided));
  m.impl("view", TORCH_FN(view));
  m.impl("_reshape_alias", TORCH_FN(reshape_alias));
  m.impl("unfold", TORCH_FN(unfold));
  m.impl("view_as_real", TORCH_FN(view_as_real));
  m.impl("view_as_complex", TORCH_FN(view_as_complex));
  m.impl("set_.source_Storage", TORCH_FN(set_source_storage));
  m.impl("set_.source_Storage_storage_offset", TORCH_FN(set_storage));
  m.impl("set_.source_Tensor", TORCH_FN(set_source_tensor));
  m.impl("set_", TORCH_FN(set_empty));
  m.impl("_copy_from", TORCH_FN(copy_from));
  m.impl("_copy_from_and_resize", TORCH_FN(copy_from_and_resize));
  m.impl("_local_scalar_dense", TORCH_FN(local_scalar_dense));
  m.impl("record_stream", TORCH_FN(record_stream_op));
}

}  // namespace opweave
