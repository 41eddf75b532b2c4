// Runtime-internal helpers shared by the ATen kernels of the runtime (not installed).
#ifndef OPWEAVE_ATEN_INTERNAL_H_
#define OPWEAVE_ATEN_INTERNAL_H_

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <c10/core/StorageImpl.h>
#include <c10/core/TensorImpl.h>

#include <string>

#include "opweave/profiler.h"

namespace opweave {

constexpr c10::DeviceType kDeviceType = c10::DeviceType::PrivateUse1;

inline bool on_device(const at::Tensor& t) { return t.device().type() == kDeviceType; }

// a == b, element by element: shapes have a few dimensions, and IntArrayRef::equals' memcmp
// call costs more than this loop on every op's path (output shapes, resize checks).
inline bool same_sizes(at::IntArrayRef a, at::IntArrayRef b) {
  if (a.size() != b.size()) return false;
  for (size_t d = 0; d < a.size(); ++d) {
    if (a[d] != b[d]) return false;
  }
  return true;
}

// copy.cpp: dst <- src for any mix of CPU and opweave tensors (broadcasting src). Enqueued on
// the current stream(s); returns early only for device-to-device copies and, with
// non_blocking, plain device-to-host transfers.
void copy_into(const at::Tensor& dst, const at::Tensor& src, bool non_blocking);
// A CPU tensor with src's values, sizes and strides whose transfer is only queued on src's
// current stream: read it after synchronising that stream (the CPU fallback fetches all its
// arguments this way and waits once). A dense device tensor is one memcpy, without the
// dispatcher round of Tensor::to.
at::Tensor fetch_to_host_async(const at::Tensor& src);

// tensor_ops.cpp: resize_ semantics for device tensors (storage grows, never shrinks).
void resize_device_tensor(c10::TensorImpl* self, c10::IntArrayRef size,
                          c10::optional<c10::IntArrayRef> stride);

// tensor_ops.cpp: replaces the storage's memory by `nbytes` of fresh device memory, keeping
// the first min(old, new) bytes.
void resize_device_storage(c10::StorageImpl* storage, size_t nbytes);

// cpu_substitutes.cpp: runs `op` with the CPU dispatch key, as the ATen op it stands for when
// ATen gives it no CPU kernel (convolution_overrideable and its backward).
void redispatch_on_cpu(const c10::OperatorHandle& op, const std::string& name,
                       torch::jit::Stack* stack);

// python_api/runtime_ops.cpp: `s` as a JSON string literal (quotes, backslashes, control
// characters).
std::string json_quoted(const std::string& s);

// A kernel or transfer launched outside the generated wrappers (copies, fused Adam). While a
// device timing session runs it gets what a wrapper's instrumented path gives a launch: a
// host range named after the kernel around it, and a KernelTimer inside that range, so every
// device kernel has a host range of its own name (opweave.profiler pairs them up). Otherwise
// it costs one relaxed load and a branch, and a null test at the end (profiler.cpp).
class TimedLaunch {
 public:
  TimedLaunch(const char* kernel, const char* aten, c10::DeviceIndex device) {
    if (C10_UNLIKELY(device_timing_on())) begin(kernel, aten, device);
  }
  ~TimedLaunch() {
    if (C10_UNLIKELY(state_ != nullptr)) end();
  }
  TimedLaunch(const TimedLaunch&) = delete;
  TimedLaunch& operator=(const TimedLaunch&) = delete;

 private:
  struct State;
  void begin(const char* kernel, const char* aten, c10::DeviceIndex device);
  void end() noexcept;
  State* state_ = nullptr;
};

// fallback.cpp: CPU fallbacks the calling thread has run so far (a device-timing launch that
// fell back is marked as such).
uint64_t thread_fallback_count();

}  // namespace opweave

#endif  // OPWEAVE_ATEN_INTERNAL_H_
