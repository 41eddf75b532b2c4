// The device memory checker: live-allocation records, raw-free errors and the reports.
//
// Records live in one map keyed by device pointer, behind one mutex taken only when the
// checker is on. Stacks are interned (a loop that leaks one tensor per step is one stack),
// symbolised only when a report or an error needs them.
#include "opweave/memcheck.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "aten/internal.h"
#include "device/memcheck_hooks.h"
#include "device/memcheck_stack.h"
#include "opweave/stream.h"

namespace opweave {
namespace memcheck {

std::atomic<bool> g_on{false};

namespace {

constexpr size_t kRawFreedKept = 4096;  // frees remembered to tell a double free
constexpr size_t kPyFramesShown = 6;    // in the text report; the JSON has every frame
constexpr size_t kCppFramesShown = 14;

struct Live {
  size_t requested;
  size_t block;
  int64_t seq;
  uint32_t trace;
  c10::DeviceIndex device;
  int64_t stream;  // stream id on the device
};

struct RawFreed {
  Live alloc;
  uint32_t free_trace;
};

struct Error {
  std::string kind;  // "double free", "foreign pointer"
  std::string api;
  std::string detail;
  void* ptr;
  int64_t seq;
  uint32_t trace;
  int64_t alloc_trace = -1;
  int64_t first_free_trace = -1;
};

struct State {
  std::mutex mu;
  std::unordered_map<void*, Live> live;
  std::vector<Trace> traces;
  std::unordered_multimap<size_t, uint32_t> trace_ids;  // by Trace::hash
  std::unordered_map<void*, RawFreed> raw_freed;
  std::deque<void*> raw_freed_order;  // oldest first, to bound raw_freed
  std::vector<Error> errors;
  std::vector<std::string> library_dirs;
  bool exit_reported = false;
};

State& state() {
  static State* s = new State();  // leaked: frees and the exit report run during teardown
  return *s;
}

std::atomic<int64_t> g_seq{0};

// Caller holds s.mu.
uint32_t intern(State& s, Trace&& t) {
  const size_t h = t.hash();
  auto range = s.trace_ids.equal_range(h);
  for (auto it = range.first; it != range.second; ++it) {
    if (s.traces[it->second] == t) return it->second;
  }
  const auto id = static_cast<uint32_t>(s.traces.size());
  s.traces.push_back(std::move(t));
  s.trace_ids.emplace(h, id);
  return id;
}

std::string device_name(c10::DeviceIndex d) {
  return c10::Device(c10::DeviceType::PrivateUse1, d).str();
}

std::string hex(const void* p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%p", p);
  return buf;
}

bool is_library(const State& s, const std::string& file) {
  for (const std::string& dir : s.library_dirs) {
    if (file.compare(0, dir.size(), dir) == 0) return true;
  }
  return false;
}

// C++ frames up to the Python interpreter (below it: the interpreter's own loop).
std::vector<std::string> cpp_frames(const Trace& t) {
  std::vector<std::string> out;
  for (void* pc : t.cpp) {
    CppFrame f = cpp_frame(pc);
    if (f.interpreter) break;
    out.push_back(std::move(f.text));
  }
  return out;
}

// The allocator's own entry points, where every stack starts: not a site.
bool is_allocator_frame(const std::string& frame) {
  for (const char* entry : {"opweave::allocate_on ", "opweave::raw_alloc ", "opweave::raw_delete ",
                            "opweave::(anonymous namespace)::DeviceAllocator::"}) {
    if (frame.compare(0, std::strlen(entry), entry) == 0) return true;
  }
  return false;
}

// "file:line in function" of the innermost Python frame outside the library directories (the
// innermost one if all are inside); without Python frames, the first C++ frame outside the
// allocator.
std::string site_of(const State& s, const Trace& t) {
  for (int pass = 0; pass < 2; ++pass) {
    for (const PyFrame& f : t.py) {
      CodeInfo c = code_info(f.code);
      if (pass == 1 || !is_library(s, c.file)) {
        return c.file + ":" + std::to_string(f.line) + " in " + c.function;
      }
    }
  }
  const std::vector<std::string> cpp = cpp_frames(t);
  for (const std::string& frame : cpp) {
    if (!is_allocator_frame(frame)) return frame;
  }
  return cpp.empty() ? "an unknown site" : cpp.front();
}

struct Group {
  uint32_t trace;
  int64_t count = 0, bytes = 0, block_bytes = 0, first_seq = 0, last_seq = 0;
  std::set<c10::DeviceIndex> devices;
  std::set<int64_t> streams;
};

// Caller holds s.mu. Largest first.
std::vector<Group> groups(const State& s, int64_t since) {
  std::map<uint32_t, Group> by_trace;
  for (const auto& entry : s.live) {
    const Live& l = entry.second;
    if (l.seq <= since) continue;
    Group& g = by_trace[l.trace];
    if (g.count == 0) {
      g.trace = l.trace;
      g.first_seq = g.last_seq = l.seq;
    }
    ++g.count;
    g.bytes += static_cast<int64_t>(l.requested);
    g.block_bytes += static_cast<int64_t>(l.block);
    g.first_seq = std::min(g.first_seq, l.seq);
    g.last_seq = std::max(g.last_seq, l.seq);
    g.devices.insert(l.device);
    g.streams.insert(l.stream);
  }
  std::vector<Group> out;
  for (auto& entry : by_trace) out.push_back(std::move(entry.second));
  std::sort(out.begin(), out.end(), [](const Group& a, const Group& b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.first_seq < b.first_seq;
  });
  return out;
}

// The sums of count, bytes and block_bytes.
Group total(const std::vector<Group>& gs) {
  Group all;
  for (const Group& g : gs) {
    all.count += g.count;
    all.bytes += g.bytes;
    all.block_bytes += g.block_bytes;
  }
  return all;
}

// ---- JSON ---------------------------------------------------------------------------------

void trace_json(std::ostringstream& os, const State& s, uint32_t id) {
  const Trace& t = s.traces[id];
  os << "{\"site\": " << json_quoted(site_of(s, t)) << ", \"python\": [";
  for (size_t i = 0; i < t.py.size(); ++i) {
    CodeInfo c = code_info(t.py[i].code);
    os << (i ? ", " : "") << "{\"file\": " << json_quoted(c.file) << ", \"line\": " << t.py[i].line
       << ", \"function\": " << json_quoted(c.function) << "}";
  }
  os << "], \"cpp\": [";
  const std::vector<std::string> cpp = cpp_frames(t);
  for (size_t i = 0; i < cpp.size(); ++i) os << (i ? ", " : "") << json_quoted(cpp[i]);
  os << "]}";
}

template <typename T>
void int_list(std::ostringstream& os, const std::set<T>& values) {
  os << "[";
  bool first = true;
  for (T v : values) {
    os << (first ? "" : ", ") << static_cast<int64_t>(v);
    first = false;
  }
  os << "]";
}

// ---- text ---------------------------------------------------------------------------------

void trace_text(std::ostringstream& os, const State& s, uint32_t id, const char* indent) {
  const Trace& t = s.traces[id];
  for (size_t i = 0; i < t.py.size() && i < kPyFramesShown; ++i) {
    CodeInfo c = code_info(t.py[i].code);
    os << indent << (i == 0 ? "python  " : "        ") << c.file << ":" << t.py[i].line << " in "
       << c.function << "\n";
  }
  if (t.py.size() > kPyFramesShown) {
    os << indent << "        ... " << t.py.size() - kPyFramesShown << " outer frames\n";
  }
  // Frames no symbol covers (local functions of stripped libraries) stay in the JSON only.
  size_t shown = 0, more = 0, unnamed = 0;
  for (void* pc : t.cpp) {
    const CppFrame f = cpp_frame(pc);
    if (f.interpreter) break;
    if (!f.named) {
      ++unnamed;
    } else if (shown == kCppFramesShown) {
      ++more;
    } else {
      os << indent << (shown++ == 0 ? "c++     " : "        ") << f.text << "\n";
    }
  }
  if (more + unnamed > 0) {
    const std::string outer = more ? std::to_string(more) + " outer" : "";
    const std::string nameless = unnamed ? std::to_string(unnamed) + " unnamed" : "";
    os << indent << "        (" << outer << (more && unnamed ? " and " : "") << nameless
       << " frames not shown)\n";
  }
}

void error_text(std::ostringstream& os, const State& s, const Error& e) {
  os << e.kind << ": " << e.api << "(" << hex(e.ptr) << "): " << e.detail << "\n";
  auto part = [&](const char* what, int64_t trace) {
    if (trace < 0) return;
    const auto id = static_cast<uint32_t>(trace);
    os << "    " << what << " " << site_of(s, s.traces[id]) << ":\n";
    trace_text(os, s, id, "      ");
  };
  part("freed at", e.trace);
  part("first freed at", e.first_free_trace);
  part("allocated at", e.alloc_trace);
}

std::string bytes_text(int64_t n) {
  char buf[48];
  if (n >= (int64_t{1} << 20)) {
    std::snprintf(buf, sizeof buf, "%lld bytes (%.2f MiB)", static_cast<long long>(n),
                  n / double(int64_t{1} << 20));
  } else {
    std::snprintf(buf, sizeof buf, "%lld bytes", static_cast<long long>(n));
  }
  return buf;
}

void report_at_exit() {
  if (!on()) return;
  {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.exit_reported) return;
  }
  std::fputs(report_text(0, "at exit").c_str(), stderr);
}

// OPWEAVE_MEMCHECK, read once when the library loads (allocations cannot happen earlier).
[[maybe_unused]] const bool g_from_env = [] {
  const char* v = std::getenv("OPWEAVE_MEMCHECK");
  if (v != nullptr && std::string(v) == "1") {
    g_on.store(true, std::memory_order_relaxed);
    std::atexit(report_at_exit);
  }
  return true;
}();

}  // namespace

void set_enabled(bool enable) {
#ifdef OPWEAVE_STRIP_INSTRUMENTATION
  TORCH_CHECK(!enable,
              "opweave: the memory checker is compiled out of this build "
              "(OPWEAVE_STRIP_INSTRUMENTATION, a benchmark baseline)");
#endif
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  g_on.store(enable, std::memory_order_relaxed);
  if (!enable) {
    s.live.clear();
    s.raw_freed.clear();
    s.raw_freed_order.clear();
  }
}

bool enabled() noexcept { return on(); }

int64_t sequence() noexcept { return g_seq.load(std::memory_order_relaxed); }

__attribute__((noinline)) void note_alloc(void* ptr, size_t requested, size_t block,
                                          c10::DeviceIndex device) noexcept {
  try {
    Trace t = capture(1, __builtin_return_address(0));  // the stack starts at the allocator
    const int64_t stream = current_stream(device).id();
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    if (!on()) return;  // turned off meanwhile
    const int64_t seq = g_seq.fetch_add(1, std::memory_order_relaxed) + 1;
    s.live[ptr] = Live{requested, block, seq, intern(s, std::move(t)), device, stream};
  } catch (...) {
    // No memory for the record: this allocation stays untracked.
  }
}

void note_free(void* ptr) noexcept {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.live.erase(ptr);  // absent: allocated while the checker was off
}

__attribute__((noinline)) void note_raw_free(void* ptr) noexcept {
  try {
    Trace t = capture(1, __builtin_return_address(0));
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mu);
    auto it = s.live.find(ptr);
    if (!on() || it == s.live.end()) return;
    if (s.raw_freed.count(ptr) == 0) {
      s.raw_freed_order.push_back(ptr);
      if (s.raw_freed_order.size() > kRawFreedKept) {
        s.raw_freed.erase(s.raw_freed_order.front());
        s.raw_freed_order.pop_front();
      }
    }
    s.raw_freed[ptr] = RawFreed{it->second, intern(s, std::move(t))};
  } catch (...) {
  }
}

__attribute__((noinline)) void bad_raw_free(void* ptr, const char* api) {
  TORCH_CHECK(on(), "opweave: ", api, "(", hex(ptr),
              "): not memory from caching_allocator_alloc, or freed already (double free); "
              "turn the memory checker on (OPWEAVE_MEMCHECK=1 or opweave.memcheck.enable()) for "
              "which, and where it was allocated and freed");
  Trace t = capture(1, __builtin_return_address(0));
  State& s = state();
  std::ostringstream os;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    // An error takes a sequence number too, so a snapshot orders it against allocations.
    const int64_t seq = g_seq.fetch_add(1, std::memory_order_relaxed) + 1;
    Error e{"", api, "", ptr, seq, intern(s, std::move(t))};
    auto freed = s.raw_freed.find(ptr);
    auto live = s.live.find(ptr);
    if (freed != s.raw_freed.end()) {
      const Live& a = freed->second.alloc;
      e.kind = "double free";
      e.detail = "already freed; it was " + std::to_string(a.requested) + " bytes on " +
                 device_name(a.device) + " (allocation seq " + std::to_string(a.seq) + ")";
      if (live != s.live.end()) {
        e.detail += "; the block has since been handed out again (seq " +
                    std::to_string(live->second.seq) + ")";
      }
      e.first_free_trace = freed->second.free_trace;
      e.alloc_trace = a.trace;
    } else if (live != s.live.end()) {
      e.kind = "foreign pointer";
      e.detail = "memory of a live " + std::to_string(live->second.requested) +
                 "-byte allocation that caching_allocator_alloc did not make (a tensor's " +
                 "storage?)";
      e.alloc_trace = live->second.trace;
    } else {
      e.kind = "foreign pointer";
      e.detail = "not the start of any live allocation";
      for (const auto& entry : s.live) {
        const auto* base = static_cast<const char*>(entry.first);
        const auto* p = static_cast<const char*>(ptr);
        if (p > base && p < base + entry.second.block) {
          e.detail = std::to_string(p - base) + " bytes into a live " +
                     std::to_string(entry.second.requested) + "-byte allocation at " + hex(base);
          e.alloc_trace = entry.second.trace;
          break;
        }
      }
      if (e.alloc_trace < 0) {
        e.detail += " (or one made before the memory checker was turned on)";
      }
    }
    os << "opweave memcheck: ";
    error_text(os, s, e);
    s.errors.push_back(std::move(e));
  }
  TORCH_CHECK(false, os.str());
}

std::string report_json(int64_t since) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  const std::vector<Group> gs = groups(s, since);
  const Group all = total(gs);
  std::ostringstream os;
  os << "{\"enabled\": " << (on() ? "true" : "false") << ", \"seq\": " << sequence()
     << ", \"since\": " << since << ", \"live_count\": " << all.count
     << ", \"live_bytes\": " << all.bytes << ", \"live_block_bytes\": " << all.block_bytes
     << ", \"sites\": [";
  for (size_t i = 0; i < gs.size(); ++i) {
    const Group& g = gs[i];
    os << (i ? ", " : "") << "{\"count\": " << g.count << ", \"bytes\": " << g.bytes
       << ", \"block_bytes\": " << g.block_bytes << ", \"first_seq\": " << g.first_seq
       << ", \"last_seq\": " << g.last_seq << ", \"devices\": ";
    int_list(os, g.devices);
    os << ", \"streams\": ";
    int_list(os, g.streams);
    os << ", \"stack\": ";
    trace_json(os, s, g.trace);
    os << "}";
  }
  os << "], \"errors\": [";
  bool first = true;
  for (const Error& e : s.errors) {
    if (e.seq <= since) continue;
    os << (first ? "" : ", ") << "{\"kind\": " << json_quoted(e.kind)
       << ", \"api\": " << json_quoted(e.api) << ", \"ptr\": " << json_quoted(hex(e.ptr))
       << ", \"detail\": " << json_quoted(e.detail) << ", \"stack\": ";
    trace_json(os, s, e.trace);
    os << ", \"first_free_stack\": ";
    if (e.first_free_trace >= 0) {
      trace_json(os, s, static_cast<uint32_t>(e.first_free_trace));
    } else {
      os << "null";
    }
    os << ", \"alloc_stack\": ";
    if (e.alloc_trace >= 0) {
      trace_json(os, s, static_cast<uint32_t>(e.alloc_trace));
    } else {
      os << "null";
    }
    os << "}";
    first = false;
  }
  os << "]}";
  return os.str();
}

std::string report_text(int64_t since, const std::string& when) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  const std::vector<Group> gs = groups(s, since);
  const Group all = total(gs);
  std::ostringstream os;
  const std::string scope = (since > 0 ? " since seq " + std::to_string(since) : std::string()) +
                            (when.empty() ? "" : " " + when);
  if (gs.empty()) {
    os << "opweave memcheck: no tracked device allocation still held" << scope << "\n";
  } else {
    os << "opweave memcheck: " << all.count << " device allocation" << (all.count == 1 ? "" : "s")
       << " still held" << scope << ": " << bytes_text(all.bytes) << " (" << all.block_bytes
       << " in blocks) from " << gs.size() << " site" << (gs.size() == 1 ? "" : "s") << "\n";
  }
  for (size_t i = 0; i < gs.size(); ++i) {
    const Group& g = gs[i];
    os << "  [" << i + 1 << "] " << site_of(s, s.traces[g.trace]) << ": " << g.count
       << " allocation" << (g.count == 1 ? "" : "s") << ", " << bytes_text(g.bytes) << " on";
    for (c10::DeviceIndex d : g.devices) os << " " << device_name(d);
    os << " (stream";
    for (int64_t id : g.streams) os << " " << id;
    os << "), seq " << g.first_seq;
    if (g.last_seq != g.first_seq) os << ".." << g.last_seq;
    os << "\n";
    trace_text(os, s, g.trace, "      ");
  }
  int n_errors = 0;
  for (const Error& e : s.errors) n_errors += e.seq > since;
  if (n_errors > 0) {
    os << "opweave memcheck: " << n_errors << " free error" << (n_errors == 1 ? "" : "s") << scope
       << "\n";
    for (const Error& e : s.errors) {
      if (e.seq <= since) continue;
      os << "  ";
      error_text(os, s, e);
    }
  }
  return os.str();
}

void mark_exit_reported() {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.exit_reported = true;
}

void set_library_dirs(const std::string& dirs) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mu);
  s.library_dirs.clear();
  std::stringstream in(dirs);
  std::string dir;
  while (std::getline(in, dir, ':')) {
    if (!dir.empty()) s.library_dirs.push_back(dir);
  }
}

}  // namespace memcheck
}  // namespace opweave
