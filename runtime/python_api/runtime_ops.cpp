// The opweave.* Python API as custom ops (torch.ops.opweave.*), so the library needs no
// pybind11. Structured results are JSON strings, parsed by runtime/python/opweave.
#include <c10/core/impl/DeviceGuardImplInterface.h>
#include <torch/library.h>

#include <cstdio>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>

#include "aten/internal.h"
#include "opweave/adaptor.h"
#include "opweave/allocator.h"
#include "opweave/diopi_slots.h"
#include "opweave/fallback.h"
#include "opweave/generator.h"
#include "opweave/memcheck.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace opweave {

std::string json_quoted(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

namespace {

std::string stream_json(const c10::Stream& s) {
  std::ostringstream os;
  os << "{\"device\": " << static_cast<int>(s.device_index()) << ", \"id\": " << s.id()
     << ", \"handle\": " << json_quoted(c10::str(static_cast<void*>(native_stream(s)))) << "}";
  return os.str();
}

c10::Stream stream_at(int64_t device, int64_t id) {
  const c10::DeviceIndex d = checked_device_index(static_cast<c10::DeviceIndex>(device), "stream");
  TORCH_CHECK(id >= 0 && id < kStreamsPerDevice, "opweave: invalid stream id ", id);
  return c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::PrivateUse1, d), id);
}

int64_t device_count_op() { return device_count(); }
int64_t current_device_op() { return current_device(); }
void set_device_op(int64_t d) { set_device(static_cast<c10::DeviceIndex>(d)); }
void synchronize_op(int64_t d) { synchronize_device(static_cast<c10::DeviceIndex>(d)); }

std::string current_stream_op(int64_t d) {
  return stream_json(
      current_stream(checked_device_index(static_cast<c10::DeviceIndex>(d), "current_stream")));
}
std::string default_stream_op(int64_t d) {
  return stream_json(
      default_stream(checked_device_index(static_cast<c10::DeviceIndex>(d), "default_stream")));
}
std::string stream_from_pool_op(int64_t d) {
  return stream_json(stream_from_pool(static_cast<c10::DeviceIndex>(d)));
}
void set_stream_op(int64_t d, int64_t id) { exchange_stream(stream_at(d, id)); }
void stream_synchronize_op(int64_t d, int64_t id) { synchronize_stream(stream_at(d, id)); }
bool stream_query_op(int64_t d, int64_t id) { return query_stream(stream_at(d, id)); }

// Events handed to Python as integer ids (no raw pointers cross into Python).
struct EventTable {
  std::mutex mu;
  int64_t next = 1;
  std::unordered_map<int64_t, owEvent_t> events;
};
EventTable& events() {
  static EventTable* t = new EventTable();
  return *t;
}
owEvent_t event_at(int64_t id) {
  EventTable& t = events();
  std::lock_guard<std::mutex> lock(t.mu);
  auto it = t.events.find(id);
  TORCH_CHECK(it != t.events.end(), "opweave: unknown event id ", id);
  return it->second;
}
int64_t event_create_op() {
  owEvent_t e = nullptr;
  check_seam(seam().eventCreate(&e), "eventCreate");
  EventTable& t = events();
  std::lock_guard<std::mutex> lock(t.mu);
  t.events[t.next] = e;
  return t.next++;
}
void event_destroy_op(int64_t id) {
  owEvent_t e = event_at(id);
  {
    EventTable& t = events();
    std::lock_guard<std::mutex> lock(t.mu);
    t.events.erase(id);
  }
  check_seam(seam().eventDestroy(e), "eventDestroy");
}
void event_record_op(int64_t id, int64_t d, int64_t stream_id) {
  check_seam(seam().eventRecord(event_at(id), native_stream(stream_at(d, stream_id))),
             "eventRecord");
}
void event_wait_op(int64_t id, int64_t d, int64_t stream_id) {
  check_seam(seam().streamWaitEvent(native_stream(stream_at(d, stream_id)), event_at(id)),
             "streamWaitEvent");
}
bool event_query_op(int64_t id) {
  const owStatus st = seam().eventQuery(event_at(id));
  if (st == owNotReady) return false;
  check_seam(st, "eventQuery");
  return true;
}
void event_synchronize_op(int64_t id) {
  check_seam(seam().eventSynchronize(event_at(id)), "eventSynchronize");
}
double event_elapsed_op(int64_t start, int64_t end) {
  float ms = 0;
  check_seam(seam().eventElapsedTime(&ms, event_at(start), event_at(end)), "eventElapsedTime");
  return ms;
}

std::string memory_stats_op(int64_t d) {
  const AllocatorStats s = allocator_stats(static_cast<c10::DeviceIndex>(d));
  std::ostringstream os;
  os << "{\"allocated\": " << s.allocated << ", \"reserved\": " << s.reserved
     << ", \"peak\": " << s.peak_allocated << ", \"peak_reserved\": " << s.peak_reserved
     << ", \"requested\": " << s.requested << ", \"num_allocs\": " << s.num_allocs
     << ", \"num_frees\": " << s.num_frees << ", \"cache_hits\": " << s.cache_hits
     << ", \"device_mallocs\": " << s.device_mallocs << ", \"device_frees\": " << s.device_frees
     << ", \"num_ooms\": " << s.num_ooms << ", \"cached_blocks\": " << s.cached_blocks << "}";
  return os.str();
}
void reset_peak_op(int64_t d) { reset_peak_stats(static_cast<c10::DeviceIndex>(d)); }
void empty_cache_op() { empty_cache(); }

// Raw device memory as an integer address (torch.cuda.caching_allocator_alloc's contract).
int64_t raw_alloc_op(int64_t bytes, int64_t device) {
  TORCH_CHECK(bytes >= 0, "opweave: caching_allocator_alloc: negative size ", bytes);
  return reinterpret_cast<int64_t>(
      raw_alloc(static_cast<size_t>(bytes), static_cast<c10::DeviceIndex>(device)));
}
void raw_delete_op(int64_t ptr) { raw_delete(reinterpret_cast<void*>(ptr)); }

void memcheck_enable_op(bool on) { memcheck::set_enabled(on); }
bool memcheck_enabled_op() { return memcheck::enabled(); }
int64_t memcheck_sequence_op() { return memcheck::sequence(); }
std::string memcheck_report_op(int64_t since) { return memcheck::report_json(since); }
// at_exit: the Python package's exit report (the library's own one then stays quiet).
std::string memcheck_report_text_op(int64_t since, const std::string& when, bool at_exit) {
  if (at_exit) memcheck::mark_exit_reported();
  return memcheck::report_text(since, when);
}
void memcheck_library_dirs_op(const std::string& dirs) { memcheck::set_library_dirs(dirs); }

void manual_seed_op(int64_t seed) { manual_seed_all(static_cast<uint64_t>(seed)); }
std::string generator_state_op(int64_t d) {
  at::Generator g = default_generator(static_cast<c10::DeviceIndex>(d));
  std::lock_guard<std::mutex> lock(g.mutex());
  auto* impl = static_cast<DeviceGenerator*>(g.unsafeGetGeneratorImpl());
  std::ostringstream os;
  os << "{\"seed\": " << impl->current_seed() << ", \"offset\": " << impl->offset() << "}";
  return os.str();
}

// The default generator's state as torch's generators give it: a CPU uint8 tensor.
at::Tensor get_rng_state_op(int64_t device) {
  const auto d = checked_device_index(static_cast<c10::DeviceIndex>(device), "get_rng_state");
  at::Generator g = default_generator(d);
  std::lock_guard<std::mutex> lock(g.mutex());
  return g.get_state();
}

void set_rng_state_op(int64_t device, const at::Tensor& state) {
  const auto d = checked_device_index(static_cast<c10::DeviceIndex>(device), "set_rng_state");
  at::Generator g = default_generator(d);
  std::lock_guard<std::mutex> lock(g.mutex());
  g.set_state(state);
}

std::string report_op() {
  const VendorInfo& v = vendor_info();
  std::ostringstream os;
  os << "{\"vendor\": " << json_quoted(v.name) << ", \"library\": " << json_quoted(v.library)
     << ", \"load_error\": " << json_quoted(v.load_error)
     << ", \"seam_version\": " << (g_seam ? g_seam->version : 0) << ", \"device_name\": "
     << json_quoted(g_seam && g_seam->device_name ? g_seam->device_name : "opweave")
     << ", \"device_count\": " << v.device_count << ", \"host_synchronous\": "
     << ((v.flags & OW_SEAM_HOST_SYNCHRONOUS) != 0 ? "true" : "false");
  std::string present, absent;
  auto capability = [&](const char* name, const void* fn) {
    std::string& list = fn != nullptr ? present : absent;
    list += (list.empty() ? "" : ", ") + json_quoted(name);
  };
  capability("hostMallocPinned",
             g_seam ? reinterpret_cast<const void*>(g_seam->hostMallocPinned) : nullptr);
  capability("hostFreePinned",
             g_seam ? reinterpret_cast<const void*>(g_seam->hostFreePinned) : nullptr);
  capability("memcpyPeerAsync",
             g_seam ? reinterpret_cast<const void*>(g_seam->memcpyPeerAsync) : nullptr);
  capability("streamBatch",
             g_seam ? reinterpret_cast<const void*>(g_seam->streamBeginBatch) : nullptr);
  os << ", \"capabilities\": {\"present\": [" << present << "], \"absent\": [" << absent << "]}";
  const char* scope = v.collectives == nullptr                  ? "absent"
                      : v.collectives->scope == owCommScopeHost ? "host"
                                                                : "network";
  os << ", \"collectives\": {\"scope\": " << json_quoted(scope)
     << ", \"error\": " << json_quoted(v.collectives_error) << "}";
  std::string resolved, missing;
  for (int i = 0; i < kDiopiFnCount; ++i) {
    std::string& list = g_diopi_slots[i] != nullptr ? resolved : missing;
    list += (list.empty() ? "" : ", ") + json_quoted(kDiopiFnNames[i]);
  }
  os << ", \"diopi\": {\"total\": " << kDiopiFnCount << ", \"resolved\": [" << resolved
     << "], \"missing\": [" << missing << "]}}";
  return os.str();
}

// {"narrowing": bool, "error": str, "functions": {name: {"contiguous": bool,
//  "conversions": {from: to}, "converted": {from: tensors}}}}: what the adaptor does for this
//  vendor.
std::string adaptor_stats_op(bool reset) {
  std::ostringstream os;
  os << "{\"narrowing\": " << (adaptor_narrowing() ? "true" : "false")
     << ", \"error\": " << json_quoted(adaptor_install_error()) << ", \"functions\": {";
  bool first = true;
  for (const AdaptedFunction& f : adaptor_functions(reset)) {
    os << (first ? "" : ", ") << json_quoted(f.name)
       << ": {\"contiguous\": " << (f.contiguous ? "true" : "false") << ", \"conversions\": {";
    for (size_t i = 0; i < f.conversions.size(); ++i) {
      os << (i ? ", " : "") << json_quoted(f.conversions[i].first) << ": "
         << json_quoted(f.conversions[i].second);
    }
    os << "}, \"converted\": {";
    for (size_t i = 0; i < f.counts.size(); ++i) {
      os << (i ? ", " : "") << json_quoted(f.counts[i].first) << ": " << f.counts[i].second;
    }
    os << "}}";
    first = false;
  }
  os << "}}";
  return os.str();
}

std::string fallback_stats_op(bool reset) {
  std::ostringstream os;
  os << "{";
  bool first = true;
  for (const auto& [name, rec] : fallback_stats(reset)) {
    os << (first ? "" : ", ") << json_quoted(name) << ": {\"count\": " << rec.count
       << ", \"reason\": " << json_quoted(rec.reason) << "}";
    first = false;
  }
  os << "}";
  return os.str();
}

}  // namespace

TORCH_LIBRARY(opweave, m) {
  m.def("device_count() -> int", &device_count_op);
  m.def("current_device() -> int", &current_device_op);
  m.def("set_device(int device) -> ()", &set_device_op);
  m.def("synchronize(int device) -> ()", &synchronize_op);
  m.def("current_stream(int device) -> str", &current_stream_op);
  m.def("default_stream(int device) -> str", &default_stream_op);
  m.def("stream_from_pool(int device) -> str", &stream_from_pool_op);
  m.def("set_stream(int device, int id) -> ()", &set_stream_op);
  m.def("stream_synchronize(int device, int id) -> ()", &stream_synchronize_op);
  m.def("stream_query(int device, int id) -> bool", &stream_query_op);
  m.def("event_create() -> int", &event_create_op);
  m.def("event_destroy(int event) -> ()", &event_destroy_op);
  m.def("event_record(int event, int device, int stream) -> ()", &event_record_op);
  m.def("event_wait(int event, int device, int stream) -> ()", &event_wait_op);
  m.def("event_query(int event) -> bool", &event_query_op);
  m.def("event_synchronize(int event) -> ()", &event_synchronize_op);
  m.def("event_elapsed_time(int start, int end) -> float", &event_elapsed_op);
  m.def("memory_stats(int device) -> str", &memory_stats_op);
  m.def("reset_peak_memory_stats(int device) -> ()", &reset_peak_op);
  m.def("empty_cache() -> ()", &empty_cache_op);
  m.def("caching_allocator_alloc(int size, int device) -> int", &raw_alloc_op);
  m.def("caching_allocator_delete(int ptr) -> ()", &raw_delete_op);
  m.def("memcheck_enable(bool on) -> ()", &memcheck_enable_op);
  m.def("memcheck_enabled() -> bool", &memcheck_enabled_op);
  m.def("memcheck_sequence() -> int", &memcheck_sequence_op);
  m.def("memcheck_report(int since) -> str", &memcheck_report_op);
  m.def("memcheck_report_text(int since, str when, bool at_exit) -> str", &memcheck_report_text_op);
  m.def("memcheck_library_dirs(str dirs) -> ()", &memcheck_library_dirs_op);
  m.def("manual_seed(int seed) -> ()", &manual_seed_op);
  m.def("generator_state(int device) -> str", &generator_state_op);
  m.def("get_rng_state(int device) -> Tensor", &get_rng_state_op);
  m.def("set_rng_state(int device, Tensor state) -> ()", &set_rng_state_op);
  m.def("report() -> str", &report_op);
  m.def("fallback_stats(bool reset) -> str", &fallback_stats_op);
  m.def("adaptor_stats(bool reset) -> str", &adaptor_stats_op);
}

}  // namespace opweave
