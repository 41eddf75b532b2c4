// Internal declarations shared by the sim seam's translation units (not for kernels).
#ifndef OPWEAVE_SIM_INTERNAL_H_
#define OPWEAVE_SIM_INTERNAL_H_

#include <cstddef>
#include <cstdint>
#include <string>

#include "opweave/vendor_seam.h"

namespace sim {

constexpr int kDeviceCount = 2;

// Settings read once from the environment when the library is loaded.
struct Config {
  size_t capacity;        // OPWEAVE_SIM_CAPACITY: bytes per device
  bool debug;             // OPWEAVE_SIM_DEBUG=1: poison memory, guard bytes checked on free
  uint32_t delay_us;      // OPWEAVE_SIM_DELAY_US: latency added to every stream task
  uint32_t spin_us;       // OPWEAVE_SIM_SPIN_US: busy-wait before sleeping (stream worker, syncs)
  uint32_t blas_threads;  // OPWEAVE_SIM_BLAS_THREADS: GEMM threads of sim's private OpenBLAS
};
const Config& config();
// Sets the GEMM threads of sim's private OpenBLAS (a no-op when sim shares torch's); called
// once, when the runtime first asks for the seam.
void apply_blas_threads();

// Records `msg` as this thread's last error and returns `status` (for `return fail(...)`).
owStatus fail(owStatus status, const std::string& msg);
const char* last_error();

// Memory (sim_memory.cpp).
owStatus mem_alloc(int device, size_t bytes, void** ptr);
owStatus mem_free(int device, void* ptr);
// owSuccess when [ptr, ptr + bytes) lies inside one live allocation of a device.
owStatus mem_check_range(const void* ptr, size_t bytes, const char* what);
size_t mem_used(int device);

// Streams (sim_stream.cpp).
owStatus device_synchronize(int device);

}  // namespace sim

#endif  // OPWEAVE_SIM_INTERNAL_H_
