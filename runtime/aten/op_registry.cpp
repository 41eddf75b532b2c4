#include "opweave/op_registry.h"

#include <c10/util/Exception.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <regex>

#include "opweave/allocator.h"
#include "opweave/by_value.h"
#include "opweave/diopi_slots.h"

namespace opweave {

std::atomic<uint8_t> g_op_flags[kMaxOps];
std::atomic<bool> g_kernels_resolved{false};
int16_t g_op_slots[kMaxOps];
std::atomic<bool> g_by_value_slots[kDiopiSlotArraySize];

namespace {

struct Switches {
  std::string fallback_regex;
  int dump_level = 0;
  std::string dump_regex = ".*";
  bool compare = false;
  std::string compare_regex = ".*";
  bool profile = false;
  bool profile_session = false;  // not from the environment: opweave.profiler sets it
};

struct Registry {
  std::mutex mu;
  std::vector<const OpInfo*> ops;
  std::vector<bool> forced;
  bool resolved = false;
  Switches sw;
};

Registry& registry() {
  static Registry* r = new Registry();  // leaked on purpose: used during static destruction
  return *r;
}

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

bool autocompare_compiled() {
#ifdef OPWEAVE_AUTOCOMPARE
  return true;
#else
  return false;
#endif
}

std::regex compile(const std::string& text, const char* what) {
  try {
    return std::regex(text, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    TORCH_CHECK(false, "opweave: invalid ", what, " regex '", text, "': ", e.what());
  }
}

// Caller holds r.mu.
void recompute_locked(Registry& r) {
  const Switches& s = r.sw;
  const bool any_fallback = !s.fallback_regex.empty();
  std::regex fallback_re = any_fallback ? compile(s.fallback_regex, "fallback") : std::regex();
  std::regex dump_re = compile(s.dump_regex, "dump");
  std::regex compare_re = compile(s.compare_regex, "autocompare");
  for (size_t i = 0; i < r.ops.size(); ++i) {
    const OpInfo& info = *r.ops[i];
    const std::string name = info.aten_name;
    const bool forced = any_fallback && std::regex_search(name, fallback_re);
    r.forced[i] = forced;
    uint8_t flags = 0;
    if (forced || g_diopi_slots[g_op_slots[i]] == nullptr) flags |= kOpFallback;
    if (s.dump_level > 0 && std::regex_search(name, dump_re)) flags |= kOpDump;
    if (autocompare_compiled() && s.compare && info.autocompare &&
        std::regex_search(name, compare_re)) {
      flags |= kOpCompare;
    }
    if (s.profile || s.profile_session) flags |= kOpProfile;
    g_op_flags[i].store(flags, std::memory_order_relaxed);
  }
  // A Scalar kernel takes Python numbers for a tensor op (by_value.h) unless the user sent
  // an op bound to it to the CPU: a kernel under suspicion is not called by another name.
  // Decided in full first, then stored: a reader never sees a forced slot as usable.
  std::vector<bool> usable(kDiopiFnCount);
  for (int slot = 0; slot < kDiopiFnCount; ++slot) usable[slot] = g_diopi_slots[slot] != nullptr;
  for (size_t i = 0; i < r.ops.size(); ++i) {
    if (r.forced[i]) usable[g_op_slots[i]] = false;
  }
  for (int slot = 0; slot < kDiopiFnCount; ++slot) {
    g_by_value_slots[slot].store(usable[slot], std::memory_order_relaxed);
  }
  set_memory_reporting(s.profile || s.profile_session);
}

void load_env_switches(Switches& s) {
  s.fallback_regex = env_or("OPWEAVE_FALLBACK_OPS", "");
  s.dump_level = std::atoi(env_or("OPWEAVE_DUMP_LEVEL", "0"));
  s.dump_regex = env_or("OPWEAVE_DUMP_OPS", ".*");
  // In the autocompare build comparing is on unless OPWEAVE_AUTOCOMPARE=0.
  s.compare = autocompare_compiled() && std::string(env_or("OPWEAVE_AUTOCOMPARE", "1")) != "0";
  s.compare_regex = env_or("OPWEAVE_AUTOCOMPARE_OPS", ".*");
  s.profile = std::string(env_or("OPWEAVE_PROFILE_NAMES", "0")) == "1";
}

}  // namespace

int register_op(const OpInfo* info) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  TORCH_CHECK(r.ops.size() < static_cast<size_t>(kMaxOps), "opweave: too many ops");
  if (r.ops.empty()) load_env_switches(r.sw);
  const int id = static_cast<int>(r.ops.size());
  const int slot = diopi_slot_index(info->diopi_name);
  TORCH_CHECK(slot >= 0, "opweave: ", info->diopi_name, " is not in the DIOPI function list");
  r.ops.push_back(info);
  r.forced.push_back(false);
  g_op_slots[id] = static_cast<int16_t>(slot);
  g_op_flags[id].store(kOpFallback, std::memory_order_relaxed);  // until resolved
  return id;
}

const OpInfo& op_info(int op) { return *registry().ops.at(op); }

int op_count() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return static_cast<int>(r.ops.size());
}

void resolve_kernels() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.resolved) return;
  r.resolved = true;
  try {
    recompute_locked(r);
  } catch (const c10::Error& e) {
    // A bad regex in the environment must not break every op: report it and ignore it.
    std::fprintf(stderr, "[opweave] ignoring instrumentation settings: %s\n",
                 e.what_without_backtrace());
    r.sw = Switches();
    recompute_locked(r);
  }
  g_kernels_resolved.store(true, std::memory_order_release);
}

void set_fallback_ops(const std::string& regex) {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (!regex.empty()) compile(regex, "fallback");
  r.sw.fallback_regex = regex;
  recompute_locked(r);
}

void set_dump(int level, const std::string& ops_regex) {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  TORCH_CHECK(level >= 0 && level <= 3, "opweave: dump level must be 0..3, got ", level);
  compile(ops_regex, "dump");
  r.sw.dump_level = level;
  r.sw.dump_regex = ops_regex;
  recompute_locked(r);
}

void set_autocompare(bool enabled, const std::string& ops_regex) {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  TORCH_CHECK(!enabled || autocompare_compiled(),
              "opweave: this build has no autocompare twins; rebuild with `make build "
              "AUTOCOMPARE=1` (CMake -DOPWEAVE_AUTOCOMPARE=ON)");
  compile(ops_regex, "autocompare");
  r.sw.compare = enabled;
  r.sw.compare_regex = ops_regex;
  recompute_locked(r);
}

// Applies `change` to the switches and recomputes the per-op flags.
template <class Change>
void update_switches(Change change) {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  change(r.sw);
  recompute_locked(r);
}

void set_profile_names(bool enabled) {
  update_switches([&](Switches& s) { s.profile = enabled; });
}

void set_profile_session(bool running) {
  update_switches([&](Switches& s) { s.profile_session = running; });
}

int dump_level() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.sw.dump_level;
}

const char* fallback_reason(int op) {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.forced.at(op)) return "listed in the fallback ops (OPWEAVE_FALLBACK_OPS)";
  if (!r.resolved) return "no vendor loaded";
  return "the vendor has no kernel for this DIOPI function";
}

std::vector<OpStatus> op_statuses() {
  ensure_resolved();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  std::vector<OpStatus> out;
  for (size_t i = 0; i < r.ops.size(); ++i) {
    out.push_back({r.ops[i]->aten_name, r.ops[i]->diopi_name,
                   g_diopi_slots[g_op_slots[i]] != nullptr, static_cast<bool>(r.forced[i])});
  }
  return out;
}

}  // namespace opweave
