// Registry of the generated ATen wrappers: per-op flags read on the hot path, the resolved
// DIOPI kernel of each op, and the run-time switches (fallback list, dump, autocompare,
// profiler names) that set those flags. Switch changes recompute the flags once; a wrapper
// pays one relaxed byte load and a predictable branch per call.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "aten/tolerance_slots.h"
#include "opweave/diopi_slots.h"

namespace opweave {

// Static facts a generated wrapper registers about itself (from specs/ops.yaml).
struct OpInfo {
  const char* aten_name;   // "aten::add.out"
  const char* diopi_name;  // "diopiAdd"
  bool autocompare;        // false for random ops (spec: autocompare.enabled)
  // Tolerances for autocompare, indexed by ToleranceSlot (generated from codegen/dtypes.py).
  float atol[kToleranceSlots];
  float rtol[kToleranceSlots];
};

enum OpFlag : uint8_t {
  kOpFallback = 1 << 0,  // run on CPU: kernel missing or op forced by the fallback list
  kOpDump = 1 << 1,      // write an argument dump record
  kOpCompare = 1 << 2,   // autocompare against CPU (autocompare build only)
  kOpProfile = 1 << 3,   // open a profiler range named after the op and DIOPI function
};

constexpr int kMaxOps = 4096;
extern std::atomic<uint8_t> g_op_flags[kMaxOps];
// Slot of each op's DIOPI function in g_diopi_slots (known from the catalogue at
// registration, so kernels are reachable whatever the static-initialisation order).
extern int16_t g_op_slots[kMaxOps];

// Called once per wrapper during static initialisation; returns the op id.
int register_op(const OpInfo* info);

inline uint8_t op_flags(int op) { return g_op_flags[op].load(std::memory_order_relaxed); }

template <class Fn>
inline Fn kernel(int op) {
  return reinterpret_cast<Fn>(g_diopi_slots[g_op_slots[op]]);
}

const OpInfo& op_info(int op);
int op_count();

// Ops start flagged kOpFallback; the first slow-path call (or any status query) resolves
// every registered op's kernel from the vendor's DIOPI slots and recomputes the flags, so
// the order of static initialisation between wrappers and the vendor loader never matters.
extern std::atomic<bool> g_kernels_resolved;
void resolve_kernels();
inline void ensure_resolved() {
  if (!g_kernels_resolved.load(std::memory_order_acquire)) resolve_kernels();
}

// Run-time switches (also read from the environment once, at load).
void set_fallback_ops(const std::string& regex);  // "" clears
void set_dump(int level, const std::string& ops_regex);
void set_autocompare(bool enabled, const std::string& ops_regex);
void set_profile_names(bool enabled);
// A device-timing session (opweave.profiler) needs the instrumented path of every op while it
// runs, whatever set_profile_names says; it turns this on at start and off at stop.
void set_profile_session(bool running);
int dump_level();  // current argument-dump level (0..3)

// Why op `op` runs on CPU (for the one-time log line).
const char* fallback_reason(int op);

struct OpStatus {
  std::string aten_name, diopi_name;
  bool has_kernel;
  bool forced_fallback;
};
std::vector<OpStatus> op_statuses();

}  // namespace opweave
