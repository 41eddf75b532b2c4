// Autocompare: run the op on the device and on CPU copies of its inputs, compare every
// output with the catalogue's tolerances, check that read-only inputs did not change, and
// record one JSON line per call plus a summary at exit. Where the device and the CPU disagree,
// the float64 referee (referee.h) says which side is wrong: a device result closer to the op
// computed in float64 than the CPU's is not a failure.
#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "opweave/diopi_convert.h"
#include "opweave/op_call.h"
#include "opweave/referee.h"

namespace opweave {
namespace {

// A tensor list argument (cat's Tensor[], index's Tensor?[]) as CPU copies, so the reference
// call runs on the CPU rather than dispatching back to the device.
c10::IValue cpu_list(const c10::IValue& v) {
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector()) {
      out.push_back(t.defined() ? t.detach().to(at::kCPU) : t);
    }
    return c10::IValue(out);
  }
  if (v.isOptionalTensorList()) {
    c10::List<c10::optional<at::Tensor>> out;
    for (const c10::optional<at::Tensor>& t : v.toOptionalTensorVector()) {
      out.push_back(
          t.has_value() && t->defined() ? c10::optional<at::Tensor>(t->detach().to(at::kCPU)) : t);
    }
    return c10::IValue(out);
  }
  return v;
}

// Overloads ATen declares for out-of-tree devices only (it has no CPU kernel for them): the CPU
// reference and the float64 referee run their CPU counterpart, with the arguments it takes.
struct CpuCounterpart {
  const char* device_op;
  const char* cpu_op;
  int none_at;  // >= 0: the counterpart takes one more argument here, None (bias_sizes)
};
constexpr CpuCounterpart kCpuCounterparts[] = {
    {"aten::convolution_overrideable", "aten::convolution", -1},
    {"aten::convolution_backward_overrideable", "aten::convolution_backward", 3},
};

// The op the CPU runs in place of `op`; `args` (op's arguments) adapted to it.
const c10::OperatorHandle& cpu_op(const c10::OperatorHandle& op, torch::jit::Stack& args) {
  const c10::OperatorName& name = op.schema().operator_name();
  for (const CpuCounterpart& c : kCpuCounterparts) {
    if (name.name != c.device_op || !name.overload_name.empty()) continue;
    if (c.none_at >= 0 && static_cast<size_t>(c.none_at) <= args.size()) {
      args.insert(args.begin() + c.none_at, c10::IValue());
    }
    static thread_local std::map<std::string, c10::OperatorHandle> handles;
    auto it = handles.find(c.cpu_op);
    if (it == handles.end()) {
      it = handles.emplace(c.cpu_op, c10::Dispatcher::singleton().findSchemaOrThrow(c.cpu_op, ""))
               .first;
    }
    return it->second;
  }
  return op;
}

// Whether the op writes argument `i` although its schema does not say so: batch norm updates its
// running statistics in place (`Tensor? running_mean`, no `!`). Compared with the CPU's values
// after the call rather than required unchanged.
bool written_unannotated(const c10::FunctionSchema& schema, size_t i) {
  const std::string& arg = schema.arguments()[i].name();
  return schema.name() == "aten::native_batch_norm" &&
         (arg == "running_mean" || arg == "running_var");
}

struct Totals {
  int64_t pass = 0, fail = 0, cleared = 0;  // cleared: disagreed, the referee cleared the device
};

struct CompareLog {
  std::mutex mu;
  FILE* jsonl = nullptr;
  bool fail_fast = false;
  std::map<std::string, Totals> per_op;

  CompareLog() {
    const char* path = std::getenv("OPWEAVE_AUTOCOMPARE_FILE");
    jsonl = std::fopen(path && *path ? path : "opweave_autocompare.jsonl", "a");
    const char* ff = std::getenv("OPWEAVE_AUTOCOMPARE_FAILFAST");
    fail_fast = ff && std::string(ff) == "1";
  }
  ~CompareLog() {
    if (per_op.empty()) return;
    int64_t pass = 0, fail = 0, cleared = 0;
    for (const auto& kv : per_op) {
      pass += kv.second.pass;
      fail += kv.second.fail;
      cleared += kv.second.cleared;
    }
    std::fprintf(stderr,
                 "[opweave] autocompare summary: %lld calls compared, %lld passed, %lld failed "
                 "(%lld of the passed differ from CPU, cleared by the float64 referee)\n",
                 static_cast<long long>(pass + fail), static_cast<long long>(pass),
                 static_cast<long long>(fail), static_cast<long long>(cleared));
    for (const auto& kv : per_op) {
      const long long calls = kv.second.fail + kv.second.pass;
      if (kv.second.fail) {
        std::fprintf(stderr, "[opweave]   FAIL %-40s %lld of %lld calls\n", kv.first.c_str(),
                     static_cast<long long>(kv.second.fail), calls);
      }
      if (kv.second.cleared) {
        std::fprintf(stderr, "[opweave]   cleared by float64 %-27s %lld of %lld calls\n",
                     kv.first.c_str(), static_cast<long long>(kv.second.cleared), calls);
      }
    }
    if (jsonl) std::fclose(jsonl);
  }
};

CompareLog& log() {
  static CompareLog instance;
  return instance;
}

// The op's [atol, rtol] for a result of dtype `t` (slots generated from codegen/dtypes.py):
// zero for integral and bool results, which compare exactly; false for a dtype outside the
// catalogue, which has no tolerance and is reported rather than compared under a guessed one.
bool tolerance_of(const OpInfo& info, at::ScalarType t, double& atol, double& rtol) {
  const int slot = tolerance_slot(diopi_dtype(t));
  if (slot == kNoTolerance) return false;
  atol = slot == kCompareExactly ? 0.0 : info.atol[slot];
  rtol = slot == kCompareExactly ? 0.0 : info.rtol[slot];
  return true;
}

struct Diff {
  double max_abs = 0, max_rel = 0;
  bool broken = false;  // a difference no referee can clear (shape, dtype, a modified input)
  std::string why;
};

// A result whose values differ from the CPU's: the referee's case. `arg` >= 0: an argument the
// op writes (in-place, out=), else returned value `result`.
struct Disputed {
  std::string name;
  at::Tensor device, cpu;
  int arg = -1, result = -1;
  Judged judged;
};

// Compares `got` (device) with `want` (CPU reference) under the op's tolerances; true when
// only the values differ (the float64 referee may then clear the device).
bool values_differ(const OpInfo& info, const std::string& name, const at::Tensor& got,
                   const at::Tensor& want, Diff& d) {
  if (!got.defined() || !want.defined()) {
    if (got.defined() != want.defined()) {
      d.broken = true;
      d.why += name + ": defined on one side only; ";
    }
    return false;
  }
  if (!got.sizes().equals(want.sizes())) {
    d.broken = true;
    d.why += name + ": shape differs; ";
    return false;
  }
  if (got.scalar_type() != want.scalar_type()) {
    d.broken = true;
    d.why += name + ": dtype " + c10::toString(got.scalar_type()) + " vs " +
             c10::toString(want.scalar_type()) + "; ";
    return false;
  }
  if (got.numel() == 0) return false;
  double atol = 0, rtol = 0;
  if (!tolerance_of(info, got.scalar_type(), atol, rtol)) {
    d.broken = true;
    d.why += name + ": no tolerance for dtype " + std::string(c10::toString(got.scalar_type())) +
             " (not a catalogue dtype); ";
    return false;
  }
  at::Tensor a = got.detach().to(at::kCPU).to(at::kDouble);
  at::Tensor b = want.detach().to(at::kDouble);
  at::Tensor diff = (a - b).abs();
  const bool nan_match = at::equal(a.isnan(), b.isnan());
  diff.masked_fill_(a.isnan().logical_and(b.isnan()), 0);
  const double max_abs = diff.max().item<double>();
  const double max_rel = (diff / b.abs().clamp_min(1e-12)).max().item<double>();
  d.max_abs = std::max(d.max_abs, max_abs);
  d.max_rel = std::max(d.max_rel, max_rel);
  const bool close = at::allclose(a, b, rtol, atol, /*equal_nan=*/true);
  if (close && nan_match) return false;
  d.why += name + " differs; ";
  return true;
}

void json_str(std::ostringstream& os, const std::string& s) {
  os << '"';
  for (char c : s) os << (c == '"' || c == '\\' ? '\'' : c);
  os << '"';
}

// A distance in units of the tolerance: null when not computed, 1e999 (JSON for +inf) when
// infinite.
void json_units(std::ostringstream& os, double v) {
  if (v < 0) {
    os << "null";
  } else if (std::isinf(v)) {
    os << "1e999";
  } else {
    os << v;
  }
}

std::string units_text(double v) {
  if (v < 0) return "-";
  if (std::isinf(v)) return "inf";
  std::ostringstream os;
  os.precision(3);
  os << v;
  return os.str();
}

// The float64 referee on the disputed results (judged in place); returns why there is no
// reference ("" when there is one).
std::string referee(const OpInfo& info, const c10::OperatorHandle& handle,
                    torch::jit::Stack float64_args, std::vector<Disputed>& disputed) {
  std::string why;
  torch::jit::Stack out;
  bool have = false;
  const bool any = std::any_of(disputed.begin(), disputed.end(), [](const Disputed& p) {
    return refereeable(p.device.scalar_type());
  });
  if (!reference_float64()) {
    why = "reference mode off";
  } else if (!any) {
    why = "no float64 reference for these results (integer, bool or float64)";
  } else {
    try {
      out = float64_call(handle, float64_args);
      have = true;
    } catch (const std::exception& e) {
      why = std::string("float64 rerun failed: ") + e.what();
      why = why.substr(0, std::min<size_t>(why.find('\n'), 240));
    }
  }
  for (Disputed& p : disputed) {
    at::Tensor exact;
    if (have && p.arg >= 0 && float64_args[p.arg].isTensor()) {
      exact = float64_args[p.arg].toTensor();
    } else if (have && p.result >= 0 && static_cast<size_t>(p.result) < out.size() &&
               out[p.result].isTensor()) {
      exact = out[p.result].toTensor();
    }
    double atol = 0, rtol = 0;  // values_differ found one for every disputed result
    tolerance_of(info, p.device.scalar_type(), atol, rtol);
    p.judged = judge(p.device, p.cpu, exact, atol, rtol);
  }
  return why;
}

}  // namespace

CompareSession::CompareSession(int op, const c10::OperatorHandle& handle, torch::jit::Stack args)
    : op_(op), handle_(handle), device_args_(std::move(args)) {
  for (const c10::IValue& v : device_args_) {
    before_.push_back(v.isTensor() && v.toTensor().defined() ? v.toTensor().detach().to(at::kCPU)
                                                             : at::Tensor());
  }
}

void CompareSession::finish(const std::vector<at::Tensor>& returned) {
  const OpInfo& info = op_info(op_);
  const auto& schema = handle_.schema();
  // Reference: the same op on CPU copies taken before the device call.
  torch::jit::Stack cpu_stack;
  for (size_t i = 0; i < device_args_.size(); ++i) {
    cpu_stack.push_back(before_[i].defined() ? c10::IValue(before_[i].clone())
                                             : cpu_list(device_args_[i]));
  }
  const c10::OperatorHandle& cpu = cpu_op(handle_, cpu_stack);
  torch::jit::Stack cpu_args = cpu_stack;
  cpu.callBoxed(&cpu_stack);

  Diff d;
  std::vector<Disputed> disputed;
  const auto& arguments = schema.arguments();
  for (size_t i = 0; i < arguments.size() && i < device_args_.size(); ++i) {
    if (!before_[i].defined()) continue;
    const bool written = (arguments[i].alias_info() && arguments[i].alias_info()->isWrite()) ||
                         written_unannotated(schema, i);
    const at::Tensor& now = device_args_[i].toTensor();
    if (written) {
      if (values_differ(info, arguments[i].name(), now, cpu_args[i].toTensor(), d)) {
        disputed.push_back({arguments[i].name(),
                            now.detach().to(at::kCPU),
                            cpu_args[i].toTensor(),
                            static_cast<int>(i),
                            -1,
                            {}});
      }
    } else if (!at::equal(now.detach().to(at::kCPU), before_[i])) {
      d.broken = true;
      d.why += arguments[i].name() + " (an input) was modified; ";
    }
  }
  const bool functional = std::none_of(arguments.begin(), arguments.end(), [](const auto& a) {
    return a.alias_info() && a.alias_info()->isWrite();
  });
  if (functional) {
    for (size_t i = 0; i < returned.size() && i < cpu_stack.size(); ++i) {
      const std::string name = "result" + std::to_string(i);
      if (values_differ(info, name, returned[i], cpu_stack[i].toTensor(), d)) {
        disputed.push_back({name,
                            returned[i].detach().to(at::kCPU),
                            cpu_stack[i].toTensor(),
                            -1,
                            static_cast<int>(i),
                            {}});
      }
    }
  }
  // The device and the CPU disagree on values: which side is wrong? (Only here: a passing call
  // costs nothing more.)
  std::string no_reference;
  Judged worst;
  if (!disputed.empty()) {
    torch::jit::Stack float64_args;
    for (size_t i = 0; i < device_args_.size(); ++i) {
      float64_args.push_back(before_[i].defined() ? c10::IValue(before_[i])
                                                  : cpu_list(device_args_[i]));
    }
    const c10::OperatorHandle& cpu_float64 = cpu_op(handle_, float64_args);
    no_reference = referee(info, cpu_float64, std::move(float64_args), disputed);
    for (const Disputed& p : disputed) {
      worst.verdict = std::max(worst.verdict, p.judged.verdict);
      worst.device_cpu = std::max(worst.device_cpu, p.judged.device_cpu);
      worst.device_float64 = std::max(worst.device_float64, p.judged.device_float64);
      worst.cpu_float64 = std::max(worst.cpu_float64, p.judged.cpu_float64);
    }
  }
  if (d.broken) worst.verdict = Verdict::kFail;
  const bool ok = worst.verdict != Verdict::kFail;
  const char* verdict = verdict_name(worst.verdict);
  const std::string distances = "device-cpu " + units_text(worst.device_cpu) + ", device-float64 " +
                                units_text(worst.device_float64) + ", cpu-float64 " +
                                units_text(worst.cpu_float64) + " x tolerance";

  std::ostringstream os;
  os << "{\"op\":";
  json_str(os, info.aten_name);
  os << ",\"diopi\":";
  json_str(os, info.diopi_name);
  os << ",\"shapes\":[";
  bool first = true;
  for (const auto& t : before_) {
    if (!t.defined()) continue;
    os << (first ? "" : ",") << '[';
    for (int64_t k = 0; k < t.dim(); ++k) os << (k ? "," : "") << t.size(k);
    os << ']';
    first = false;
  }
  os << "],\"dtypes\":[";
  first = true;
  for (const auto& t : before_) {
    if (!t.defined()) continue;
    os << (first ? "" : ",");
    json_str(os, c10::toString(t.scalar_type()));
    first = false;
  }
  os << "],\"max_abs\":" << d.max_abs << ",\"max_rel\":" << d.max_rel << ",\"verdict\":\""
     << verdict << "\",\"device_cpu\":";
  json_units(os, worst.device_cpu);
  os << ",\"device_float64\":";
  json_units(os, worst.device_float64);
  os << ",\"cpu_float64\":";
  json_units(os, worst.cpu_float64);
  if (!disputed.empty()) {
    os << ",\"reference\":";
    json_str(os, no_reference.empty() ? "float64" : no_reference);
  }
  if (!d.why.empty()) {
    os << ",\"reason\":";
    json_str(os, d.why);
  }
  os << "}\n";
  CompareLog& l = log();
  {
    std::lock_guard<std::mutex> lock(l.mu);
    Totals& t = l.per_op[info.aten_name];
    (ok ? t.pass : t.fail)++;
    if (ok && worst.verdict != Verdict::kPass) t.cleared++;
    if (l.jsonl) {
      std::fputs(os.str().c_str(), l.jsonl);
      std::fflush(l.jsonl);
    }
  }
  if (worst.verdict != Verdict::kPass || d.broken) {
    std::fprintf(stderr, "[opweave] autocompare %s %s (%s): %smax_abs=%g max_rel=%g; %s (%s)%s%s\n",
                 ok ? verdict : "FAIL", info.aten_name, info.diopi_name, d.why.c_str(), d.max_abs,
                 d.max_rel, verdict, distances.c_str(), no_reference.empty() ? "" : "; ",
                 no_reference.c_str());
  }
  TORCH_CHECK(ok || !l.fail_fast, "opweave autocompare: ", info.aten_name, " (", info.diopi_name,
              ") differs from CPU: ", d.why, verdict, " (", distances, ")");
}

}  // namespace opweave
