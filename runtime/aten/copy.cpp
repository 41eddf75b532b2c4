// The copy engine behind copy_ / _copy_from / _copy_from_and_resize / _local_scalar_dense.
//
// Fast paths move bytes with one vendor memcpy when both sides have the same dtype and the same
// dense layout. Everything else converts on the host side (dtype, layout, broadcasting) or,
// for device-to-device copies, uses the vendor's diopiCopyInp / diopiCastDtype kernels when it
// has them. Work is enqueued on the current stream; blocking copies wait for it.
#include <ATen/EmptyTensor.h>
#include <ATen/ExpandUtils.h>
#include <ATen/MemoryOverlap.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/empty.h>
#include <ATen/ops/empty_strided.h>
#include <diopi/diopirt.h>

#include "aten/internal.h"
#include "opweave/allocator.h"
#include "opweave/context.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_handles.h"
#include "opweave/diopi_slots.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

using CopyInpFn = diopiError_t (*)(diopiContextHandle_t, diopiConstTensorHandle_t,
                                   diopiTensorHandle_t);
using CastDtypeFn = diopiError_t (*)(diopiContextHandle_t, diopiTensorHandle_t,
                                     diopiConstTensorHandle_t);

// Catalogue slots looked up by name once, so the runtime builds whatever the catalogue holds.
void* slot_named(const char* name) {
  const int i = diopi_slot_index(name);
  return i < 0 ? nullptr : g_diopi_slots[i];
}
CopyInpFn copy_kernel() {
  static const auto fn = reinterpret_cast<CopyInpFn>(slot_named("diopiCopyInp"));
  return fn;
}
CastDtypeFn cast_kernel() {
  static const auto fn = reinterpret_cast<CastDtypeFn>(slot_named("diopiCastDtype"));
  return fn;
}

owStream_t stream_of(const at::Tensor& t) { return current_native_stream(t.device().index()); }

// `device`: the device whose stream `s` is (device timing puts the transfer on its track).
C10_ALWAYS_INLINE void memcpy_async(void* dst, const void* src, size_t n, owMemcpyKind kind,
                                    owStream_t s, c10::DeviceIndex device) {
  static constexpr const char* kNames[] = {"Memcpy HtoD", "Memcpy DtoH", "Memcpy DtoD"};
  TimedLaunch launch(kNames[kind], "aten::copy_", device);
  check_seam(seam().memcpyAsync(dst, src, n, kind, s), "memcpyAsync");
}

void sync(owStream_t s) { check_seam(seam().streamSynchronize(s), "streamSynchronize"); }

size_t nbytes_of(const at::Tensor& t) { return static_cast<size_t>(t.numel()) * t.element_size(); }

// Same dtype and the same dense layout: the copy is one contiguous block of bytes.
bool bytewise_copyable(const at::Tensor& a, const at::Tensor& b) {
  return a.scalar_type() == b.scalar_type() && a.sizes() == b.sizes() &&
         a.strides() == b.strides() && a.is_non_overlapping_and_dense();
}

// Storage elements [first, last] a non-empty tensor touches.
std::pair<int64_t, int64_t> span_of(const at::Tensor& t) {
  int64_t last = t.storage_offset();
  for (int64_t d = 0; d < t.dim(); ++d) last += (t.size(d) - 1) * t.stride(d);
  return {t.storage_offset(), last};
}

char* storage_base(const at::Tensor& t) {
  return static_cast<char*>(opweave::compat::storage_data(t.storage()));
}

// A CPU tensor with the values, sizes and strides of the device tensor `src` (waits for it).
at::Tensor read_to_host(const at::Tensor& src) {
  const auto [first, last] = span_of(src);
  const int64_t isz = static_cast<int64_t>(src.element_size());
  at::Tensor buf = at::empty({last - first + 1}, src.options().device(c10::kCPU));
  owStream_t s = stream_of(src);
  memcpy_async(buf.data_ptr(), storage_base(src) + first * isz, nbytes_of(buf),
               owMemcpyDeviceToHost, s, src.device().index());
  sync(s);
  return buf.as_strided(src.sizes(), src.strides(), src.storage_offset() - first);
}

// Writes `values` (CPU, dst's dtype and sizes) into the device tensor `dst`, any layout.
void write_from_host(const at::Tensor& dst, const at::Tensor& values) {
  owStream_t s = stream_of(dst);
  if (dst.is_non_overlapping_and_dense()) {
    at::Tensor staging = values;
    if (!bytewise_copyable(values, dst)) {
      staging = at::empty_strided(dst.sizes(), dst.strides(), values.options());
      staging.copy_(values);
    }
    memcpy_async(dst.data_ptr(), staging.data_ptr(), nbytes_of(dst), owMemcpyHostToDevice, s,
                 dst.device().index());
    sync(s);  // the host buffer must outlive the transfer
    return;
  }
  // Gaps between dst's elements may belong to other tensors: read-modify-write its span.
  const auto [first, last] = span_of(dst);
  const int64_t isz = static_cast<int64_t>(dst.element_size());
  at::Tensor buf = at::empty({last - first + 1}, values.options());
  char* dev = storage_base(dst) + first * isz;
  memcpy_async(buf.data_ptr(), dev, nbytes_of(buf), owMemcpyDeviceToHost, s, dst.device().index());
  sync(s);
  buf.as_strided(dst.sizes(), dst.strides(), dst.storage_offset() - first).copy_(values);
  memcpy_async(dev, buf.data_ptr(), nbytes_of(buf), owMemcpyHostToDevice, s, dst.device().index());
  sync(s);
}

// A copy kernel that lacks the dtype (complex ones, which no catalogue entry lists) declines:
// the conversion then runs on the host, as for a vendor without copy kernels.
bool declined(diopiError_t err) {
  return err == diopiNoImplement || err == diopiForceFallbackToCPU || err == diopiDtypeNotSupported;
}

// Same-device copy with the vendor's kernels; false when it has none or they decline.
bool device_kernel_copy(const at::Tensor& src, const at::Tensor& dst) {
  OpContext ctx(dst.device().index());
  if (src.scalar_type() != dst.scalar_type()) {
    if (CastDtypeFn cast = cast_kernel()) {
      TimedLaunch launch("diopiCastDtype", "aten::copy_", dst.device().index());
      const diopiError_t err = cast(&ctx, handle(dst), const_handle(src));
      if (err == diopiSuccess) return true;
      if (!declined(err)) throw_diopi_error(err, "diopiCastDtype", "aten::copy_");
    }
  }
  if (CopyInpFn copy = copy_kernel()) {
    TimedLaunch launch("diopiCopyInp", "aten::copy_", dst.device().index());
    const diopiError_t err = copy(&ctx, const_handle(src), handle(dst));
    if (err == diopiSuccess) return true;
    if (!declined(err)) throw_diopi_error(err, "diopiCopyInp", "aten::copy_");
  }
  return false;
}

void device_to_host(const at::Tensor& src, const at::Tensor& dst, bool non_blocking) {
  if (bytewise_copyable(src, dst)) {
    owStream_t s = stream_of(src);
    memcpy_async(dst.data_ptr(), src.data_ptr(), nbytes_of(dst), owMemcpyDeviceToHost, s,
                 src.device().index());
    if (!non_blocking) sync(s);  // non_blocking: the caller synchronizes before reading dst
    return;
  }
  at::Tensor host;
  const auto [first, last] = span_of(src);
  if (last - first + 1 > 2 * src.numel() && copy_kernel() != nullptr) {
    // A sparse view of a large storage: compact it on the device rather than read it all.
    at::Tensor compact = at::empty(src.sizes(), src.options());
    if (device_kernel_copy(src, compact)) host = read_to_host(compact);
  }
  if (!host.defined()) host = read_to_host(src);
  dst.copy_(host);  // dtype conversion and layout on the CPU
}

void host_to_device(const at::Tensor& src, const at::Tensor& dst) {
  const at::Tensor values =
      src.scalar_type() == dst.scalar_type() ? src : src.to(dst.scalar_type());
  if (!dst.is_non_overlapping_and_dense() && copy_kernel() != nullptr) {
    // Upload compactly, then scatter on the device instead of a host read-modify-write.
    at::Tensor staging = at::empty(dst.sizes(), dst.options());
    write_from_host(staging, values);
    if (device_kernel_copy(staging, dst)) return;
  }
  write_from_host(dst, values);
}

// Bytes between devices: the copy runs on the source's current stream, fenced both ways
// against the destination's current stream (work queued there before the copy finishes
// first; work queued there afterwards waits for the copy).
void peer_copy(const at::Tensor& src, const at::Tensor& dst) {
  const owVendorSeam& s = seam();
  const c10::DeviceIndex sd = src.device().index();
  const c10::DeviceIndex dd = dst.device().index();
  owStream_t ss = current_native_stream(sd);
  owStream_t ds = current_native_stream(dd);
  const size_t n = nbytes_of(dst);
  if (s.memcpyPeerAsync == nullptr) {  // no peer path: bounce through the host
    at::Tensor host = at::empty({static_cast<int64_t>(n)}, at::TensorOptions().dtype(at::kByte));
    memcpy_async(host.data_ptr(), src.data_ptr(), n, owMemcpyDeviceToHost, ss, sd);
    sync(ss);
    memcpy_async(dst.data_ptr(), host.data_ptr(), n, owMemcpyHostToDevice, ds, dd);
    sync(ds);
    return;
  }
  owEvent_t ev = nullptr;
  check_seam(s.eventCreate(&ev), "eventCreate");
  auto fence = [&](owStream_t from, owStream_t to) {
    check_seam(s.eventRecord(ev, from), "eventRecord");
    check_seam(s.streamWaitEvent(to, ev), "streamWaitEvent");
  };
  try {
    fence(ds, ss);
    {
      TimedLaunch launch("Memcpy PtoP", "aten::copy_", sd);
      check_seam(s.memcpyPeerAsync(dst.data_ptr(), dd, src.data_ptr(), sd, n, ss),
                 "memcpyPeerAsync");
    }
    fence(ss, ds);
  } catch (...) {
    s.eventDestroy(ev);
    throw;
  }
  s.eventDestroy(ev);  // pending waits keep their generation, as with CUDA events
}

void device_to_device(const at::Tensor& src, const at::Tensor& dst) {
  if (src.device() != dst.device()) {
    if (bytewise_copyable(src, dst)) {
      peer_copy(src, dst);
      return;
    }
    // Move a compact copy of the values across, then finish on the destination device.
    const at::Tensor compact = src.contiguous();
    at::Tensor moved = at::empty(compact.sizes(), compact.options().device(dst.device()));
    peer_copy(compact, moved);
    copy_into(dst, moved, /*non_blocking=*/false);
    return;
  }
  if (bytewise_copyable(src, dst)) {
    memcpy_async(dst.data_ptr(), src.data_ptr(), nbytes_of(dst), owMemcpyDeviceToDevice,
                 stream_of(dst), dst.device().index());
    return;
  }
  if (device_kernel_copy(src, dst)) return;
  at::Tensor host = read_to_host(src);  // no device kernel: convert on the host
  write_from_host(dst, host.scalar_type() == dst.scalar_type() ? host : host.to(dst.scalar_type()));
}

}  // namespace

at::Tensor fetch_to_host_async(const at::Tensor& src) {
  if (!src.is_non_overlapping_and_dense() || src.numel() == 0 || !on_device(src)) {
    return src.to(c10::kCPU, /*non_blocking=*/true);
  }
  // The CPU allocation itself, not at::empty_strided: the dispatcher's way there (its call and
  // redispatch, SymInt conversions, record-function checks) was ~1.2k instructions of the CPU
  // fallback's ~15k per 1-element op, paid for every argument.
  at::Tensor host(at::detail::empty_strided_cpu(src.sizes(), src.strides(), src.scalar_type()));
  memcpy_async(host.data_ptr(), src.data_ptr(), nbytes_of(src), owMemcpyDeviceToHost,
               stream_of(src), src.device().index());
  // The bytes are the view's physical memory; its lazy conjugate / negation bits travel with
  // them (a conj() view handed to a CPU fallback, e.g. cov's mm(x, x.t().conj()), was read
  // unconjugated: a silently wrong result).
  if (src.is_conj()) host._set_conj(true);
  if (src.is_neg()) host._set_neg(true);
  return host;
}

void copy_into(const at::Tensor& dst, const at::Tensor& src_in, bool non_blocking) {
  TORCH_CHECK(dst.defined() && src_in.defined(), "aten::copy_: undefined tensor");
  for (const at::Tensor* t : {&dst, &src_in}) {
    TORCH_CHECK(t->is_cpu() || on_device(*t), "aten::copy_: opweave cannot copy to or from ",
                t->device(), " tensors");
  }
  TORCH_CHECK(dst.layout() == c10::kStrided && src_in.layout() == c10::kStrided,
              "aten::copy_: only strided tensors are supported on opweave");
  TORCH_CHECK(at::is_expandable_to(src_in.sizes(), dst.sizes()), "aten::copy_: source of shape ",
              src_in.sizes(), " cannot be copied into destination of shape ", dst.sizes(),
              " (sizes must match or broadcast; the destination is not resized)");
  if (dst.numel() == 0) return;
  at::assert_no_internal_overlap(dst);
  // A copy between equal shapes (nearly all) needs no expand view: one TensorImpl allocated and
  // freed, and one op through the dispatcher, less per copy.
  at::Tensor src = src_in.sizes() == dst.sizes() ? src_in : src_in.expand(dst.sizes());
  if (src.is_alias_of(dst)) {
    const at::MemOverlapStatus st = at::get_overlap_status(src, dst);
    if (st == at::MemOverlapStatus::Full && src.strides() == dst.strides() &&
        src.scalar_type() == dst.scalar_type()) {
      return;  // copying a tensor onto itself
    }
    if (st != at::MemOverlapStatus::No) src = src.clone();  // read everything before writing
  }
  if (dst.is_cpu()) {
    if (src.is_cpu()) {
      dst.copy_(src);
    } else {
      device_to_host(src, dst, non_blocking);
    }
  } else if (src.is_cpu()) {
    host_to_device(src, dst);
  } else {
    device_to_device(src, dst);
  }
}

}  // namespace opweave
