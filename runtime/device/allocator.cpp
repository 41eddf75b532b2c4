// Caching device allocator: vendor memory is expensive to get (and synchronising to free), so
// freed blocks are kept per device, per stream and per size class, and reused.
#include "opweave/allocator.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>
#include <vector>

#include "device/memcheck_hooks.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;
constexpr size_t kMinBlock = 512;

struct Block {
  c10::DeviceIndex device;
  owStream_t stream;  // the stream current when it was allocated: reuse stays on it
  size_t size;        // size class
  size_t requested;
  void* ptr;
  std::vector<Block*>* bin;               // where it waits while cached (its stream and size)
  std::vector<owStream_t> other_streams;  // streams added by record_stream
};

// Size classes, numbered: 0 is kMinBlock, then four per power of two (see size_class).
constexpr int kClasses = 1 + (64 - 10) * 4;

// One stream's cached blocks, one list per size class: a lookup is an index, not a search of
// an ordered map keyed by (stream, size) as it was (~80 instructions on each allocation and
// each free). A block keeps its list (Block::bin), so a free finds it without a lookup.
struct StreamBins {
  explicit StreamBins(owStream_t s) : stream(s) {}
  owStream_t stream;
  std::array<std::vector<Block*>, kClasses> free;
};

// A block freed while other streams may still use it: cached once all events completed.
struct PendingFree {
  Block* block;
  std::vector<owEvent_t> events;
};

struct DeviceCache {
  std::mutex mu;
  // The streams this device allocated on: a handful, searched in order. Never removed, so the
  // lists blocks point to stay put.
  std::vector<std::unique_ptr<StreamBins>> streams;
  std::vector<PendingFree> pending;
  AllocatorStats stats;
};

DeviceCache& cache(c10::DeviceIndex d) {
  static DeviceCache* caches = new DeviceCache[kMaxDevices];  // leaked: frees run at exit too
  return caches[d];
}

// Four classes per power of two above kMinBlock: at most 25% slack per block.
size_t size_class(size_t n) {
  if (n <= kMinBlock) return kMinBlock;
  const int bits = 64 - __builtin_clzll(n - 1);  // 2^(bits-1) < n <= 2^bits
  const size_t step = size_t{1} << (bits - 3);
  return (n + step - 1) & ~(step - 1);
}

// The number of a size class: a class above kMinBlock is k * 2^(bits-3) with k in 5..8.
int class_index(size_t size) {
  if (size <= kMinBlock) return 0;
  const int bits = 64 - __builtin_clzll(size - 1);  // >= 10
  const auto k = static_cast<int>(size >> (bits - 3));
  return 1 + (bits - 10) * 4 + (k - 5);
}

// The list for blocks of `size` on `stream`. Caller holds c.mu.
std::vector<Block*>& bin_for(DeviceCache& c, owStream_t stream, size_t size) {
  for (const auto& bins : c.streams) {
    if (bins->stream == stream) return bins->free[class_index(size)];
  }
  c.streams.push_back(std::make_unique<StreamBins>(stream));
  return c.streams.back()->free[class_index(size)];
}

// The statistics of handing a block out. Caller holds c.mu.
void note_handed_out(DeviceCache& c, Block* b, size_t bytes) {
  b->requested = bytes;
  c.stats.allocated += static_cast<int64_t>(b->size);
  c.stats.requested += static_cast<int64_t>(bytes);
  c.stats.peak_allocated = std::max(c.stats.peak_allocated, c.stats.allocated);
  ++c.stats.num_allocs;
}

std::string format_bytes(int64_t n) {
  char buf[64];
  if (n >= (int64_t{1} << 30)) {
    std::snprintf(buf, sizeof buf, "%.2f GiB", n / double(int64_t{1} << 30));
  } else if (n >= (int64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%.2f MiB", n / double(int64_t{1} << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(n));
  }
  return buf;
}

void cache_block(DeviceCache& c, Block* b) {
  b->bin->push_back(b);
  ++c.stats.cached_blocks;
}

// Moves pending blocks whose cross-stream uses finished into the cache. Caller holds c.mu.
void process_pending(DeviceCache& c) {
  if (c.pending.empty()) return;
  const owVendorSeam& s = seam();
  std::vector<PendingFree> still;
  for (PendingFree& p : c.pending) {
    bool done = true;
    for (owEvent_t e : p.events) done = done && s.eventQuery(e) == owSuccess;
    if (!done) {
      still.push_back(std::move(p));
      continue;
    }
    for (owEvent_t e : p.events) s.eventDestroy(e);
    p.block->other_streams.clear();
    cache_block(c, p.block);
  }
  c.pending.swap(still);
}

// Returns the device's cached blocks to the vendor. Queued work may still use them (frees are
// stream-ordered), so the device is synchronised first.
void release_cached(c10::DeviceIndex device) {
  DeviceCache& c = cache(device);
  std::vector<Block*> blocks;
  {
    std::lock_guard<std::mutex> lock(c.mu);
    process_pending(c);
    for (const auto& bins : c.streams) {
      for (std::vector<Block*>& bin : bins->free) {
        blocks.insert(blocks.end(), bin.begin(), bin.end());
        bin.clear();
      }
    }
    c.stats.cached_blocks = 0;
  }
  if (blocks.empty()) return;
  const owVendorSeam& s = seam();
  check_seam(s.deviceSynchronize(device), "deviceSynchronize");
  owStatus first_error = owSuccess;
  for (Block* b : blocks) {
    const owStatus st = s.free(device, b->ptr);
    if (first_error == owSuccess) first_error = st;
    {
      std::lock_guard<std::mutex> lock(c.mu);
      c.stats.reserved -= static_cast<int64_t>(b->size);
      ++c.stats.device_frees;
    }
    delete b;
  }
  check_seam(first_error, "free");  // e.g. the sim's guard-byte check found corruption
}

std::atomic<bool> g_report_memory{false};

// torch.profiler(profile_memory=True) sees allocations and frees of device memory as it sees
// CUDA's. CUDA's caching allocator asks c10::memoryProfilingEnabled() (the calling thread's
// profiler state) at every allocation; that read costs about 50 instructions, so here it is
// made only while the profiler switch is on (set_memory_reporting): off, an allocation and a
// free each pay one relaxed load. It reports only when a profiler with profile_memory=True
// runs on this thread (or the thread whose autograd work this is), with the device's totals
// as they are just after the change.
void report_to_profiler(void* ptr, int64_t bytes, c10::DeviceIndex device) {
  if (!c10::memoryProfilingEnabled()) return;
  int64_t allocated = 0, reserved = 0;
  {
    DeviceCache& c = cache(device);
    std::lock_guard<std::mutex> lock(c.mu);
    allocated = c.stats.allocated;
    reserved = c.stats.reserved;
  }
  c10::reportMemoryUsageToProfiler(ptr, bytes, allocated, reserved, c10::Device(kType, device));
}

// Inlined into free_block twice: as a call, the free path got about 20 instructions longer.
C10_ALWAYS_INLINE void release_block(Block* b) {
  DeviceCache& c = cache(b->device);
  std::lock_guard<std::mutex> lock(c.mu);
  c.stats.allocated -= static_cast<int64_t>(b->size);
  c.stats.requested -= static_cast<int64_t>(b->requested);
  ++c.stats.num_frees;
  if (b->other_streams.empty()) {
    cache_block(c, b);
    return;
  }
  PendingFree p{b, {}};
  const owVendorSeam& s = *g_seam;  // blocks exist only when a vendor is loaded
  for (owStream_t other : b->other_streams) {
    owEvent_t e = nullptr;
    if (s.eventCreate(&e) == owSuccess && s.eventRecord(e, other) == owSuccess) {
      p.events.push_back(e);
    } else {
      if (e != nullptr) s.eventDestroy(e);
      s.streamSynchronize(other);  // cannot track it: wait instead
    }
  }
  c.pending.push_back(std::move(p));
}

void free_block(void* ctx) noexcept {
  auto* b = static_cast<Block*>(ctx);
  // Before the block can be handed out again: the checker never sees a reuse before the free.
  if (C10_UNLIKELY(memcheck::on())) memcheck::note_free(b->ptr);
  if (C10_UNLIKELY(g_report_memory.load(std::memory_order_relaxed))) {
    // read before the block goes back to the cache, where another thread may take it
    void* const ptr = b->ptr;
    const int64_t size = static_cast<int64_t>(b->size);
    const c10::DeviceIndex device = b->device;
    release_block(b);
    report_to_profiler(ptr, -size, device);
    return;
  }
  release_block(b);
}

// A new block from the vendor, handed out for `bytes`.
Block* malloc_block(DeviceCache& c, c10::DeviceIndex device, owStream_t stream, size_t size,
                    size_t bytes) {
  const owVendorSeam& s = seam();
  void* ptr = nullptr;
  owStatus st = s.malloc(device, size, &ptr);
  if (st == owOutOfMemory) {
    release_cached(device);  // cached blocks of other streams/sizes may make room
    st = s.malloc(device, size, &ptr);
  }
  if (st != owSuccess) {
    AllocatorStats snapshot;
    {
      std::lock_guard<std::mutex> lock(c.mu);
      if (st == owOutOfMemory) ++c.stats.num_ooms;
      snapshot = c.stats;
    }
    TORCH_CHECK(false, "opweave: ", st == owOutOfMemory ? "out of memory" : "allocation failed",
                " on ", c10::Device(kType, device), ": tried to allocate ",
                format_bytes(static_cast<int64_t>(size)), " (", format_bytes(snapshot.allocated),
                " allocated, ", format_bytes(snapshot.reserved),
                " reserved by the caching allocator); vendor '", vendor_info().name,
                "': ", s.lastError());
  }
  auto* b = new Block{device, stream, size, 0, ptr, nullptr, {}};
  std::lock_guard<std::mutex> lock(c.mu);
  b->bin = &bin_for(c, stream, size);
  c.stats.reserved += static_cast<int64_t>(size);
  c.stats.peak_reserved = std::max(c.stats.peak_reserved, c.stats.reserved);
  ++c.stats.device_mallocs;
  note_handed_out(c, b, bytes);
  return b;
}

class DeviceAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) OPWEAVE_ALLOCATE_CONST override {
    return allocate_on(current_device(), n);
  }
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
  // torch 2.x clones storages through this (Storage copies, torch.save of a shared storage):
  // a device-to-device copy on the current stream, complete when it returns.
  void copy_data(void* dst, const void* src, std::size_t n) const override {
    if (n == 0) return;
    const owStream_t s = current_native_stream(current_device());
    check_seam(seam().memcpyAsync(dst, src, n, owMemcpyDeviceToDevice, s), "memcpyAsync");
    check_seam(seam().streamSynchronize(s), "streamSynchronize");
  }
#endif
};

DeviceAllocator g_allocator;

// Memory handed out by raw_alloc, by address: raw_delete gets only the pointer. Not a hot path
// (tensors never go through it), so one mutex and a map are fine.
struct RawTable {
  std::mutex mu;
  std::unordered_map<void*, c10::DataPtr> blocks;
};
RawTable& raw_table() {
  static RawTable* t = new RawTable();  // leaked, like the caches
  return *t;
}

[[maybe_unused]] const bool g_registered = (c10::SetAllocator(kType, &g_allocator), true);

}  // namespace

c10::Allocator* device_allocator() { return &g_allocator; }

void set_memory_reporting(bool on) { g_report_memory.store(on, std::memory_order_relaxed); }

c10::DataPtr allocate_on(c10::DeviceIndex device, size_t bytes) {
  device = checked_device_index(device, "opweave allocator");
  const c10::Device dev(kType, device);
  if (bytes == 0) return c10::DataPtr(nullptr, dev);
  owStream_t stream = current_native_stream(device);
  const size_t size = size_class(bytes);
  DeviceCache& c = cache(device);
  Block* b = nullptr;
  {  // one critical section on a cache hit
    std::lock_guard<std::mutex> lock(c.mu);
    process_pending(c);
    std::vector<Block*>& bin = bin_for(c, stream, size);
    if (!bin.empty()) {
      b = bin.back();
      bin.pop_back();
      --c.stats.cached_blocks;
      ++c.stats.cache_hits;
      note_handed_out(c, b, bytes);
    }
  }
  if (b == nullptr) b = malloc_block(c, device, stream, size, bytes);
  // After the locks: the checker may wait for the GIL to read the Python stack.
  if (C10_UNLIKELY(memcheck::on())) memcheck::note_alloc(b->ptr, bytes, size, device);
  if (C10_UNLIKELY(g_report_memory.load(std::memory_order_relaxed))) {
    report_to_profiler(b->ptr, static_cast<int64_t>(size), device);
  }
  return c10::DataPtr(b->ptr, b, &free_block, dev);
}

AllocatorStats allocator_stats(c10::DeviceIndex device) {
  device = checked_device_index(device, "memory_stats");
  DeviceCache& c = cache(device);
  std::lock_guard<std::mutex> lock(c.mu);
  return c.stats;
}

void reset_peak_stats(c10::DeviceIndex device) {
  device = checked_device_index(device, "reset_peak_memory_stats");
  DeviceCache& c = cache(device);
  std::lock_guard<std::mutex> lock(c.mu);
  c.stats.peak_allocated = c.stats.allocated;
  c.stats.peak_reserved = c.stats.reserved;
}

void empty_cache() {
  for (int d = 0; d < device_count(); ++d) release_cached(static_cast<c10::DeviceIndex>(d));
}

void* raw_alloc(size_t bytes, c10::DeviceIndex device) {
  c10::DataPtr data = allocate_on(device, bytes);
  void* ptr = data.get();
  if (ptr == nullptr) return nullptr;  // 0 bytes
  RawTable& t = raw_table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.blocks.emplace(ptr, std::move(data));
  return ptr;
}

void raw_delete(void* ptr) {
  if (ptr == nullptr) return;
  c10::DataPtr data;
  {
    RawTable& t = raw_table();
    std::lock_guard<std::mutex> lock(t.mu);
    auto it = t.blocks.find(ptr);
    if (it != t.blocks.end()) {
      data = std::move(it->second);
      t.blocks.erase(it);
    }
  }
  // Never handed out here or freed already: an error, not a free of someone else's block.
  if (!data) memcheck::bad_raw_free(ptr, "caching_allocator_delete");
  if (C10_UNLIKELY(memcheck::on())) memcheck::note_raw_free(ptr);
}  // `data` frees the block here, after note_raw_free read its record

void record_stream(const c10::DataPtr& data, const c10::Stream& stream) {
  if (data.get_deleter() != &free_block) return;  // not our memory (or empty)
  auto* b = static_cast<Block*>(data.get_context());
  owStream_t s = native_stream(stream);
  DeviceCache& c = cache(b->device);
  std::lock_guard<std::mutex> lock(c.mu);
  if (s == b->stream) return;
  for (owStream_t o : b->other_streams) {
    if (o == s) return;
  }
  b->other_streams.push_back(s);
}

}  // namespace opweave
