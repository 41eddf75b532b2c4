// The DIOPI context a generated wrapper builds on its stack for one kernel call.
//
//   opweave::OpContext ctx(self.device().index());
//   fn(&ctx, opweave::handle(out), opweave::const_handle(self), ...);
//
// Construction is cheap (a thread-local read and a table lookup, no lock, no allocation). It
// captures the current stream of the op's device, which the kernel must enqueue on
// (diopiGetStream). Scratch tensors from diopiRequireTensor/diopiRequireBuffer are owned here
// and released when the context goes out of scope, i.e. when the op call returns; device
// scratch is stream-ordered so queued kernels may still use it, host scratch must not be
// referenced by work that outlives the call.
#ifndef OPWEAVE_CONTEXT_H_
#define OPWEAVE_CONTEXT_H_

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>
#include <diopi/diopirt.h>

#include <forward_list>
#include <utility>

#include "opweave/stream.h"
#include "opweave/vendor_seam.h"

struct diopiContext {
  // `device` must be a valid device index (the device of the op's tensors).
  explicit diopiContext(c10::DeviceIndex device)
      : device(device), stream(opweave::current_native_stream(device)) {}
  explicit diopiContext(c10::Device device) : diopiContext(device.index()) {}
  diopiContext(c10::DeviceIndex device, owStream_t stream) : device(device), stream(stream) {}
  diopiContext(const diopiContext&) = delete;
  diopiContext& operator=(const diopiContext&) = delete;

  // Keeps `t` alive until the op returns; the reference (and its address, the handle) is stable.
  at::Tensor& keep(at::Tensor t) {
    scratch.push_front(std::move(t));
    return scratch.front();
  }

  c10::DeviceIndex device;
  owStream_t stream;
  std::forward_list<at::Tensor> scratch;  // node-based: handles stay valid as it grows
};

namespace opweave {
using OpContext = ::diopiContext;
}  // namespace opweave

#endif  // OPWEAVE_CONTEXT_H_
