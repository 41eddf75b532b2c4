// Kernel entry-point plumbing: identity + fault flag, stream lookup, and enqueueing the compute.
//
//   diopiError_t diopiFoo(diopiContextHandle_t ctx, diopiTensorHandle_t out, ...) {
//     SIMK_KERNEL(diopiFoo);
//     return simk::guarded(kernel.name, [&] {
//       View o = output_view(out, "out");           // metadata, on the calling thread
//       ... validate, throw KernelError on bad arguments ...
//       simk::launch(kernel, ctx, o, [=] { ... compute on the stream ... });
//     });
//   }
#ifndef SIM_KERNELS_COMMON_LAUNCH_H_
#define SIM_KERNELS_COMMON_LAUNCH_H_

#include <diopi/diopirt.h>

#include <utility>

#include "error.h"
#include "sim_stream.h"
#include "view.h"

namespace simk {

struct Kernel {
  const char* name;
  bool fault;  // OPWEAVE_SIM_FAULT lists this kernel: perturb its output
};

// True when `kernel` is listed in OPWEAVE_SIM_FAULT (read once, at library load).
bool fault_requested(const char* kernel);

// One static Kernel per entry point: the fault lookup happens once, on the first call.
#define SIMK_KERNEL(fn) \
  static const ::simk::Kernel kernel { #fn, ::simk::fault_requested(#fn) }

// Planted bug for fault injection: nudges the first element of `out` (x += 1e-2 * (1 + |x|)
// for floating types, +1 for integers, negation for bool).
void perturb_first(const View& out);

// The stream of `ctx` (throws KernelError when it has none), and the error for a refused enqueue.
owStream_t stream_of(diopiContextHandle_t ctx);
[[noreturn]] void enqueue_failed(owStream_t stream, owStatus status);

// Enqueues `work` (captured by value) on the stream of `ctx`: built in place in a slot of the
// stream's ring (sim_stream.h), no allocation per launch.
template <class F>
void enqueue_on(diopiContextHandle_t ctx, F&& work) {
  const owStream_t stream = stream_of(ctx);
  const owStatus status = sim::enqueue(stream, std::forward<F>(work));
  if (status != owSuccess) enqueue_failed(stream, status);
}

// Waits until the stream of `ctx` has run everything enqueued so far; an earlier kernel's
// asynchronous failure becomes this call's error. Only for kernels whose output shape depends
// on the data (nonzero), which must read their input on the calling thread.
void synchronize_on(diopiContextHandle_t ctx);

// Enqueues `body` on ctx's stream; afterwards perturbs `out` when the kernel is faulted.
template <class F>
void launch(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, F&& body) {
  if (kernel.fault) {
    enqueue_on(ctx, [body = std::forward<F>(body), out]() {
      body();
      perturb_first(out);
    });
  } else {
    enqueue_on(ctx, std::forward<F>(body));
  }
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_LAUNCH_H_
