// The allocator's side of the device memory checker (memcheck.cpp). Every hook but the flag
// test runs only when the checker is on.
#ifndef OPWEAVE_DEVICE_MEMCHECK_HOOKS_H_
#define OPWEAVE_DEVICE_MEMCHECK_HOOKS_H_

#include <c10/core/Device.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

namespace opweave {
namespace memcheck {

// Hidden: the allocator reads it PC-relative, without a GOT indirection.
extern std::atomic<bool> g_on __attribute__((visibility("hidden")));

#ifdef OPWEAVE_STRIP_INSTRUMENTATION
// The benchmark baseline without any instrumentation: the hooks compile away.
constexpr bool on() noexcept { return false; }
#else
// The only cost on the allocate/free path when off: one relaxed byte load and a branch.
inline bool on() noexcept { return g_on.load(std::memory_order_relaxed); }
#endif

// A block was handed out / is about to return to the cache. Call with no allocator lock held
// (capturing the Python stack may wait for the GIL), and note_free before the block can be
// handed out again, so a reuse of the address is never recorded before its free.
void note_alloc(void* ptr, size_t requested, size_t block, c10::DeviceIndex device) noexcept;
void note_free(void* ptr) noexcept;

// raw_delete is about to release `ptr` (remembered, with this stack, to explain a second
// free of it).
void note_raw_free(void* ptr) noexcept;

// raw_delete got a pointer raw_alloc did not hand out or that was freed already: throws
// c10::Error saying which, with the stacks involved when the checker is on (recorded for the
// report too).
[[noreturn]] void bad_raw_free(void* ptr, const char* api);

}  // namespace memcheck
}  // namespace opweave

#endif  // OPWEAVE_DEVICE_MEMCHECK_HOOKS_H_
