// Device timing sessions (see opweave/profiler.h): events around each kernel launch, resolved
// into device start times and durations on the host's clock when the session stops.
//
// Clock. Durations come from eventElapsedTime between a launch's two events (device time,
// whatever the host did meanwhile). Start times come from eventElapsedTime against one
// reference event per device, recorded at session start and placed on CLOCK_REALTIME, the
// clock torch's profiler stamps host ops with (c10::getTime / torch::profiler::impl::getTime
// on both 1.13 and 2.x), so device and host events share one time line. The reference cannot
// be read exactly: the host only knows it ran between "before record" and "after its
// synchronize returned". Of a few tries the narrowest such window is kept and the reference
// is put at its END, so a device time is never earlier than the truth and at most the window
// (reported as align_window_ns) later: a kernel never appears to start before its launch.
#include "opweave/profiler.h"

#include <ATen/record_function.h>
#include <c10/util/Exception.h>
#include <sys/syscall.h>
#include <time.h>
#include <torch/library.h>
#include <unistd.h>

#include <algorithm>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

#include "aten/internal.h"
#include "opweave/op_registry.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace opweave {

std::atomic<bool> g_device_timing{false};

namespace {

int64_t realtime_ns() {
  timespec t{};
  clock_gettime(CLOCK_REALTIME, &t);
  return static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

int64_t system_tid() {
  thread_local const int64_t tid = static_cast<int64_t>(::syscall(SYS_gettid));
  return tid;
}

struct Launch {
  const char* kernel;
  const char* range;  // the host range's name: the op's DIOPI function, `kernel` at launch
  const char* aten;
  c10::DeviceIndex device;
  c10::StreamId stream;
  owEvent_t start;
  owEvent_t end;
  int64_t launch_ns;      // host: just before the start event was queued
  int64_t launch_end_ns;  // host: just after the end event was queued
  uint64_t rf_tid;        // at::RecordFunction::currentThreadId(): torch 1.13's trace tid
  int64_t sys_tid;        // gettid(): torch 2.x (kineto) trace tid
  bool fallback;          // the op ran on the CPU meanwhile (the kernel declined)
  bool recorded;          // both events were queued
};

struct Reference {
  owEvent_t event = nullptr;
  int64_t host_ns = 0;
  int64_t window_ns = 0;
};

struct Session {
  std::mutex mu;
  bool running = false;
  uint64_t generation = 0;  // launches of an older session are not kept
  std::vector<Launch> launches;
  std::vector<owEvent_t> pool;  // events free for reuse
  Reference refs[kMaxDevices];
  int devices = 0;
};

Session& session() {
  static Session* s = new Session();  // leaked: launches may finish during static destruction
  return *s;
}

owEvent_t take_event(Session& s) {
  if (!s.pool.empty()) {
    owEvent_t e = s.pool.back();
    s.pool.pop_back();
    return e;
  }
  owEvent_t e = nullptr;
  check_seam(seam().eventCreate(&e), "eventCreate");
  return e;
}

// Reference event of `device` on its default stream (see the clock note above).
Reference align(c10::DeviceIndex device, Session& s) {
  const owVendorSeam& v = seam();
  const owStream_t stream = native_stream(default_stream(device));
  check_seam(v.deviceSynchronize(device), "deviceSynchronize");
  Reference best;
  for (int attempt = 0; attempt < 5; ++attempt) {
    owEvent_t e = take_event(s);
    const int64_t before = realtime_ns();
    check_seam(v.eventRecord(e, stream), "eventRecord");
    check_seam(v.eventSynchronize(e), "eventSynchronize");
    const int64_t after = realtime_ns();
    if (best.event == nullptr || after - before < best.window_ns) {
      if (best.event != nullptr) s.pool.push_back(best.event);
      best = Reference{e, after, after - before};
    } else {
      s.pool.push_back(e);
    }
  }
  return best;
}

std::string quoted(const char* text) {
  std::string out = "\"";
  for (const char* p = text; p != nullptr && *p != '\0'; ++p) {
    if (*p == '"' || *p == '\\') out += '\\';
    out += *p;
  }
  return out + "\"";
}

}  // namespace

namespace {
thread_local KernelTimer* t_timing = nullptr;  // the innermost launch this thread is timing
}  // namespace

void rename_timed_launch_slow(const char* kernel) noexcept {
  if (t_timing != nullptr) t_timing->rename(kernel);
}

void KernelTimer::rename(const char* kernel) noexcept {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  if (slot_ >= 0 && s.generation == generation_) s.launches[slot_].kernel = kernel;
}

void KernelTimer::start(const char* kernel, const char* aten, c10::DeviceIndex device) {
  Session& s = session();
  Launch l{kernel,       kernel,  aten, device, current_stream(device).id(),
           nullptr,      nullptr, 0,    0,      at::RecordFunction::currentThreadId(),
           system_tid(), false,   false};
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (!s.running) return;
    l.start = take_event(s);
    l.end = take_event(s);
    slot_ = static_cast<int64_t>(s.launches.size());
    s.launches.push_back(l);
    generation_ = s.generation;
  }
  outer_ = t_timing;
  t_timing = this;
  stream_ = current_native_stream(device);
  fallbacks_before_ = thread_fallback_count();
  const int64_t now = realtime_ns();
  const bool ok = seam().eventRecord(l.start, stream_) == owSuccess;
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.generation != generation_) return;
  s.launches[slot_].launch_ns = now;
  s.launches[slot_].recorded = ok;
}

void KernelTimer::finish() noexcept {
  t_timing = outer_;
  Session& s = session();
  owEvent_t end = nullptr;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    if (s.generation != generation_) return;  // the session stopped meanwhile
    end = s.launches[slot_].end;
  }
  const bool ok = seam().eventRecord(end, stream_) == owSuccess;
  const int64_t now = realtime_ns();
  const bool fell_back = thread_fallback_count() != fallbacks_before_;
  std::lock_guard<std::mutex> lock(s.mu);
  if (s.generation != generation_) return;
  Launch& l = s.launches[slot_];
  l.launch_end_ns = now;
  l.recorded = l.recorded && ok;
  l.fallback = fell_back;
}

struct TimedLaunch::State {
  at::RecordFunction range{at::RecordScope::USER_SCOPE};
  c10::optional<KernelTimer> timer;  // destroyed first: the end event precedes the range end
};

void TimedLaunch::begin(const char* kernel, const char* aten, c10::DeviceIndex device) {
  state_ = new State();
  if (state_->range.isActive()) state_->range.before(kernel);
  state_->timer.emplace(kernel, aten, c10::Device(kDeviceType, device));
}

void TimedLaunch::end() noexcept { delete state_; }

void device_timing_start() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  TORCH_CHECK(!s.running,
              "opweave.profiler: a device timing session is already running (sessions do not "
              "nest; stop the other profiler first)");
  s.devices = std::min(device_count(), kMaxDevices);
  TORCH_CHECK(s.devices > 0, "opweave.profiler: no device (", vendor_info().load_error, ")");
  for (int d = 0; d < s.devices; ++d) {
    if (s.refs[d].event != nullptr) s.pool.push_back(s.refs[d].event);
    s.refs[d] = align(static_cast<c10::DeviceIndex>(d), s);
  }
  s.launches.clear();
  s.running = true;
  ++s.generation;
  set_profile_session(true);
  g_device_timing.store(true, std::memory_order_relaxed);
}

bool device_timing_running() {
  Session& s = session();
  std::lock_guard<std::mutex> lock(s.mu);
  return s.running;
}

std::string device_timing_stop() {
  g_device_timing.store(false, std::memory_order_relaxed);
  set_profile_session(false);
  Session& s = session();
  std::vector<Launch> launches;
  {
    std::lock_guard<std::mutex> lock(s.mu);
    TORCH_CHECK(s.running, "opweave.profiler: no device timing session is running");
    s.running = false;
    ++s.generation;  // launches still in flight on other threads are dropped
    launches.swap(s.launches);
  }
  const owVendorSeam& v = seam();
  for (int d = 0; d < s.devices; ++d) {
    check_seam(v.deviceSynchronize(d), "deviceSynchronize");
  }
  std::ostringstream os;
  os << "{\"devices\": [";
  for (int d = 0; d < s.devices; ++d) {
    os << (d ? ", " : "") << "{\"index\": " << d << ", \"ref_host_ns\": " << s.refs[d].host_ns
       << ", \"align_window_ns\": " << s.refs[d].window_ns << "}";
  }
  os << "], \"kernels\": [";
  bool first = true;
  int64_t unresolved = 0;
  for (const Launch& l : launches) {
    float offset_ms = 0, dur_ms = 0;
    const Reference& ref = s.refs[l.device];
    if (!l.recorded || v.eventElapsedTime(&offset_ms, ref.event, l.start) != owSuccess ||
        v.eventElapsedTime(&dur_ms, l.start, l.end) != owSuccess) {
      ++unresolved;
      continue;
    }
    os << (first ? "" : ", ") << "{\"kernel\": " << quoted(l.kernel)
       << ", \"range\": " << quoted(l.range) << ", \"aten\": " << quoted(l.aten)
       << ", \"device\": " << static_cast<int>(l.device) << ", \"stream\": " << l.stream
       << ", \"start_ns\": " << ref.host_ns + static_cast<int64_t>(double(offset_ms) * 1e6)
       << ", \"dur_ns\": " << static_cast<int64_t>(double(dur_ms) * 1e6)
       << ", \"launch_ns\": " << l.launch_ns << ", \"launch_end_ns\": " << l.launch_end_ns
       << ", \"rf_tid\": " << l.rf_tid << ", \"tid\": " << l.sys_tid
       << ", \"fallback\": " << (l.fallback ? "true" : "false") << "}";
    first = false;
  }
  os << "], \"unresolved\": " << unresolved << "}";
  std::lock_guard<std::mutex> lock(s.mu);
  for (const Launch& l : launches) {
    s.pool.push_back(l.start);
    s.pool.push_back(l.end);
  }
  return os.str();
}

namespace {

void start_op() { device_timing_start(); }
std::string stop_op() { return device_timing_stop(); }
bool running_op() { return device_timing_running(); }

}  // namespace
}  // namespace opweave

TORCH_LIBRARY_FRAGMENT(opweave, m) {
  m.def("device_timing_start() -> ()", &opweave::start_op);
  m.def("device_timing_stop() -> str", &opweave::stop_op);
  m.def("device_timing_running() -> bool", &opweave::running_op);
}
