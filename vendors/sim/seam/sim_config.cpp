// Environment-driven settings of the sim device, read once at load (never per call).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "sim_internal.h"

#if SIM_PRIVATE_OPENBLAS
extern "C" void openblas_set_num_threads(int num_threads);
#endif

namespace sim {
namespace {

uint64_t env_u64(const char* name, uint64_t fallback) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return fallback;
  char* end = nullptr;
  const unsigned long long parsed = std::strtoull(v, &end, 10);
  if (end == v || *end != '\0') {
    std::fprintf(stderr, "[opweave-sim] ignoring %s=%s: not a non-negative integer\n", name, v);
    return fallback;
  }
  return parsed;
}

Config load() {
  Config c;
  c.capacity = static_cast<size_t>(env_u64("OPWEAVE_SIM_CAPACITY", uint64_t{8} << 30));
  c.debug = env_u64("OPWEAVE_SIM_DEBUG", 0) != 0;
  c.delay_us = static_cast<uint32_t>(env_u64("OPWEAVE_SIM_DELAY_US", 0));
  // A thread woken from a futex takes tens of microseconds on a VM; a stream worker that has
  // just finished and a host that waits for a short kernel spin this long first (as CUDA's
  // spin scheduling does), so a hand-off costs a cache line. 0: always sleep (bench/icount.py
  // sets it, since spinning makes instruction counts vary).
  c.spin_us = static_cast<uint32_t>(env_u64("OPWEAVE_SIM_SPIN_US", 50));
  // GEMM threads of sim's own OpenBLAS copy (see vendors/sim/CMakeLists.txt). The simulated
  // device computes on its stream worker; more threads only pay off for large products on a
  // machine with cores to spare.
  c.blas_threads = static_cast<uint32_t>(env_u64("OPWEAVE_SIM_BLAS_THREADS", 1));
  return c;
}

// Initialised during the library's static initialisation, i.e. once at dlopen.
const Config g_config = load();

thread_local std::string t_last_error;

}  // namespace

const Config& config() { return g_config; }

void apply_blas_threads() {
#if SIM_PRIVATE_OPENBLAS
  // After the library's constructors (OpenBLAS's own initialisation among them) have run.
  openblas_set_num_threads(static_cast<int>(std::max<uint32_t>(g_config.blas_threads, 1)));
#endif
}

owStatus fail(owStatus status, const std::string& msg) {
  t_last_error = msg;
  return status;
}

const char* last_error() { return t_last_error.c_str(); }

}  // namespace sim
