// The adaptor's run-time half: the per-slot rules read from the vendor's kernel_support table,
// the conversions an Adaptation makes on the device, and the counts behind
// opweave.adaptor_stats(). The thunks that call it are generated (opweave/adaptor.h).
#include "opweave/adaptor.h"

#include <ATen/ATen.h>
#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <deque>
#include <string>
#include <utility>
#include <vector>

#include "opweave/diopi_convert.h"
#include "opweave/diopi_handles.h"
#include "opweave/kernel_support.h"

namespace opweave {
namespace {

constexpr int kDtypes = kDiopiDtypeCount;  // diopiDtype_t values
constexpr int kStridedColumn = kDtypes;    // counts of calls made contiguous only
constexpr int8_t kPass = -1;               // accepted as is, or outside the family's dtypes
constexpr int8_t kDecline = -2;            // in the family, but nothing the vendor accepts fits

// Everything here is written by install_adaptor during the vendor loader's static
// initialisation, so it must need none itself (an aggregate, zero-initialised): a constructor
// run later would wipe what the loader wrote.
struct SlotRule {
  bool contiguous;
  int8_t target[kDtypes];  // per source dtype: kPass, kDecline or the dtype to compute in
};

SlotRule g_rules[kDiopiSlotArraySize];
void* g_vendor_kernels[kDiopiSlotArraySize];
std::atomic<uint64_t> g_counts[kDiopiSlotArraySize][kDtypes + 1];
bool g_narrowing;

std::string& install_error() {
  static std::string error;
  return error;
}

// The nearest dtypes that hold every value of `d`, nearest first; then, only with narrowing,
// the ones that lose precision or range.
std::vector<int> candidates(int d, bool narrowing) {
  switch (d) {
    case diopi_dtype_int8:
    case diopi_dtype_uint8:
      return {diopi_dtype_int16, diopi_dtype_int32, diopi_dtype_int64};
    case diopi_dtype_int16:
      return {diopi_dtype_int32, diopi_dtype_int64};
    case diopi_dtype_int32:
      return {diopi_dtype_int64};
    case diopi_dtype_int64:
      return narrowing ? std::vector<int>{diopi_dtype_int32} : std::vector<int>{};
    case diopi_dtype_float16:
    case diopi_dtype_bfloat16:
      return {diopi_dtype_float32, diopi_dtype_float64};
    case diopi_dtype_float32:
      return {diopi_dtype_float64};
    case diopi_dtype_float64:
      return narrowing ? std::vector<int>{diopi_dtype_float32} : std::vector<int>{};
    default:
      return {};
  }
}

SlotRule make_rule(uint64_t accepted, uint64_t family, bool contiguous, bool narrowing) {
  SlotRule r{};
  r.contiguous = contiguous;
  for (int d = 0; d < kDtypes; ++d) {
    const uint64_t bit = uint64_t{1} << d;
    r.target[d] = kPass;
    if ((family & bit) == 0 || (accepted & bit) != 0) continue;
    r.target[d] = kDecline;
    for (int c : candidates(d, narrowing)) {
      if ((accepted & (uint64_t{1} << c)) != 0) {
        r.target[d] = static_cast<int8_t>(c);
        break;
      }
    }
  }
  return r;
}

}  // namespace

struct Adaptation::State {
  std::deque<at::Tensor> temps;                                   // stable addresses: handles
  std::vector<std::pair<at::Tensor*, at::Tensor*>> writes;        // caller's tensor <- temporary
  std::deque<std::vector<diopiConstTensorHandle_t>> const_lists;  // replaced handle arrays
  std::deque<std::vector<diopiTensorHandle_t>> lists;
};

Adaptation::~Adaptation() { delete state_; }

Adaptation::State& Adaptation::state() {
  if (state_ == nullptr) state_ = new State();
  return *state_;
}

void* Adaptation::vendor_kernel(int slot) { return g_vendor_kernels[slot]; }

namespace {

// The temporary an argument must be replaced by, or undefined when it is fine as it is.
// Sets `declined` when its dtype is in the family but nothing the vendor accepts can hold it.
// `read`: the kernel reads the tensor, so the temporary starts as a copy of it.
at::Tensor convert(int slot, const at::Tensor& t, bool family, bool read, bool& declined) {
  if (!t.defined()) return {};
  const SlotRule& rule = g_rules[slot];
  int8_t target = kPass;
  if (family) {
    const int d = static_cast<int>(diopi_dtype(t.scalar_type()));
    target = d >= 0 && d < kDtypes ? rule.target[d] : kPass;
    if (target == kDecline) {
      declined = true;
      return {};
    }
    if (target != kPass) g_counts[slot][d].fetch_add(1, std::memory_order_relaxed);
  }
  if (target == kPass) {
    if (!rule.contiguous || t.is_contiguous()) return {};
    g_counts[slot][kStridedColumn].fetch_add(1, std::memory_order_relaxed);
  }
  const at::ScalarType dtype =
      target == kPass ? t.scalar_type() : aten_dtype(static_cast<diopiDtype_t>(target));
  // On the op's device and current stream: the copy is ordered before the kernel.
  at::Tensor tmp = at::empty(t.sizes(), t.options().dtype(dtype));
  if (read) tmp.copy_(t);
  return tmp;
}

}  // namespace

void Adaptation::in(diopiConstTensorHandle_t& h, bool family) {
  if (h == nullptr || declined_) return;
  at::Tensor tmp = convert(slot_, tensor(h), family, /*read=*/true, declined_);
  if (!tmp.defined()) return;
  h = const_handle(state().temps.emplace_back(std::move(tmp)));
}

void Adaptation::in(diopiTensorHandle_t& h, bool family) {
  diopiConstTensorHandle_t c = h;
  in(c, family);
  h = const_cast<diopiTensorHandle_t>(c);
}

void Adaptation::inout(diopiTensorHandle_t& h, bool family) { written(h, family, true); }
void Adaptation::out(diopiTensorHandle_t& h, bool family) { written(h, family, false); }

void Adaptation::written(diopiTensorHandle_t& h, bool family, bool read) {
  if (h == nullptr || declined_) return;
  at::Tensor tmp = convert(slot_, tensor(h), family, read, declined_);
  if (!tmp.defined()) return;
  State& s = state();
  at::Tensor& kept = s.temps.emplace_back(std::move(tmp));
  s.writes.emplace_back(&tensor(h), &kept);
  h = handle(kept);
}

void Adaptation::in_list(diopiConstTensorHandle_t*& list, int64_t n, bool family) {
  if (list == nullptr || declined_) return;
  std::vector<diopiConstTensorHandle_t>* copy = nullptr;
  for (int64_t i = 0; i < n; ++i) {
    diopiConstTensorHandle_t h = list[i];
    in(h, family);
    if (h == list[i]) continue;
    if (copy == nullptr) copy = &state().const_lists.emplace_back(list, list + n);
    (*copy)[i] = h;
  }
  if (copy != nullptr) list = copy->data();
}

void Adaptation::inout_list(diopiTensorHandle_t*& list, int64_t n, bool family) {
  written_list(list, n, family, true);
}
void Adaptation::out_list(diopiTensorHandle_t*& list, int64_t n, bool family) {
  written_list(list, n, family, false);
}

void Adaptation::written_list(diopiTensorHandle_t*& list, int64_t n, bool family, bool read) {
  if (list == nullptr || declined_) return;
  std::vector<diopiTensorHandle_t>* copy = nullptr;
  for (int64_t i = 0; i < n; ++i) {
    diopiTensorHandle_t h = list[i];
    written(h, family, read);
    if (h == list[i]) continue;
    if (copy == nullptr) copy = &state().lists.emplace_back(list, list + n);
    (*copy)[i] = h;
  }
  if (copy != nullptr) list = copy->data();
}

diopiError_t Adaptation::finish(diopiError_t status) {
  if (status == diopiSuccess && state_ != nullptr) {
    for (auto& [caller, tmp] : state_->writes) caller->copy_(*tmp);
  }
  return status;
}

const char* install_adaptor(void* vendor_handle) {
  auto get = reinterpret_cast<owGetKernelSupportFn>(dlsym(vendor_handle, "owGetKernelSupport"));
  if (get == nullptr) return "";
  const owKernelSupport* table = get();
  if (table == nullptr || table->version != OW_KERNEL_SUPPORT_VERSION) {
    install_error() = "kernel support table version " + std::to_string(table ? table->version : 0) +
                      ", expected " + std::to_string(OW_KERNEL_SUPPORT_VERSION) + ": not adapted";
    return install_error().c_str();
  }
  g_narrowing = table->narrowing != 0;
  for (uint32_t i = 0; i < table->count; ++i) {
    const owKernelSupportEntry& e = table->entries[i];
    const int slot = diopi_slot_index(e.function);
    // A function the catalogue no longer has, or one the vendor lacks: nothing to adapt.
    if (slot < 0 || g_diopi_slots[slot] == nullptr) continue;
    g_rules[slot] =
        make_rule(e.dtypes, kAdaptorThunks[slot].family_dtypes, e.contiguous != 0, g_narrowing);
    g_vendor_kernels[slot] = g_diopi_slots[slot];
    g_diopi_slots[slot] = kAdaptorThunks[slot].thunk;
  }
  return "";
}

// ---- reporting (opweave.adaptor_stats / opweave.report) ------------------------------------

bool adaptor_narrowing() { return g_narrowing; }
const std::string& adaptor_install_error() { return install_error(); }

std::vector<AdaptedFunction> adaptor_functions(bool reset) {
  std::vector<AdaptedFunction> out;
  for (int slot = 0; slot < kDiopiFnCount; ++slot) {
    if (g_vendor_kernels[slot] == nullptr) continue;
    AdaptedFunction f{kDiopiFnNames[slot], g_rules[slot].contiguous, {}, {}};
    for (int d = 0; d <= kDtypes; ++d) {
      const uint64_t n = reset ? g_counts[slot][d].exchange(0, std::memory_order_relaxed)
                               : g_counts[slot][d].load(std::memory_order_relaxed);
      const char* from = d == kStridedColumn ? "strided" : kDiopiDtypeNames[d];
      if (n != 0) f.counts.emplace_back(from, n);
      if (d == kStridedColumn || g_rules[slot].target[d] == kPass) continue;
      const int8_t to = g_rules[slot].target[d];
      f.conversions.emplace_back(from, to == kDecline ? "" : kDiopiDtypeNames[to]);
    }
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace opweave
