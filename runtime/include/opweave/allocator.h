// The caching device allocator behind every opweave tensor (registered for PrivateUse1).
//
// Freed blocks stay cached per device and per stream, keyed by size class (four classes per
// power of two, so at most 25% slack), and are reused only on the stream that last owned them:
// work queued on that stream before the free finishes before any later use. A block used on
// another stream (record_stream) is recycled only after an event on that stream completes.
#ifndef OPWEAVE_ALLOCATOR_H_
#define OPWEAVE_ALLOCATOR_H_

#include <c10/core/Allocator.h>
#include <c10/core/Stream.h>

#include <cstdint>

namespace opweave {

struct AllocatorStats {
  int64_t allocated = 0;       // bytes in blocks handed out (size-class rounded)
  int64_t requested = 0;       // bytes callers asked for, of the blocks handed out
  int64_t reserved = 0;        // bytes obtained from the vendor (handed out + cached)
  int64_t peak_allocated = 0;  // high-water mark of `allocated`
  int64_t peak_reserved = 0;
  int64_t num_allocs = 0;  // allocate() calls that returned memory
  int64_t num_frees = 0;
  int64_t cache_hits = 0;      // allocations served from the cache
  int64_t device_mallocs = 0;  // vendor malloc calls
  int64_t device_frees = 0;
  int64_t num_ooms = 0;       // allocations that failed even after emptying the cache
  int64_t cached_blocks = 0;  // blocks waiting in the cache
};

c10::Allocator* device_allocator();

// Allocates on an explicit device (device_allocator()->allocate uses the current device).
c10::DataPtr allocate_on(c10::DeviceIndex device, size_t bytes);

AllocatorStats allocator_stats(c10::DeviceIndex device);
void reset_peak_stats(c10::DeviceIndex device);
// Returns every cached block to the vendor (after the device finished its queued work).
void empty_cache();

// Raw device memory for code that manages addresses itself (torch.cuda.caching_allocator_alloc
// style): a block from the same cache as tensors', on the current stream of `device` (-1: the
// current device); nullptr for 0 bytes. Every raw_alloc needs one raw_delete.
void* raw_alloc(size_t bytes, c10::DeviceIndex device);
// Returns raw_alloc memory to the cache; nullptr is a no-op. A pointer raw_alloc did not hand
// out, or one freed already, throws c10::Error (with the stacks involved when the memory
// checker is on, opweave/memcheck.h) and frees nothing.
void raw_delete(void* ptr);

// Device allocations and frees are reported to torch's profiler (profile_memory=True) while
// this is on: opweave.profiler sessions and the profiler switch (OPWEAVE_PROFILE_NAMES=1,
// opweave.instrument.set_profile_names) turn it on (op_registry.cpp). Off, an allocation
// pays one relaxed load: not even the read of the thread's profiler state.
void set_memory_reporting(bool on);

// Marks memory as used by `stream`, delaying its reuse until that stream's work is done.
void record_stream(const c10::DataPtr& data, const c10::Stream& stream);

}  // namespace opweave

#endif  // OPWEAVE_ALLOCATOR_H_
