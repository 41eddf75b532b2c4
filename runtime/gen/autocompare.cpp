// Autocompare: run the op on the device and on CPU copies of its inputs, compare every
// output with the catalogue's tolerances, check that read-only inputs did not change, and
// record one JSON line per call plus a summary at exit.
#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <mutex>
#include <sstream>
#include <string>

#include "opweave/op_call.h"

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

struct Totals {
  int64_t pass = 0, fail = 0;
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
    int64_t pass = 0, fail = 0;
    for (const auto& kv : per_op) {
      pass += kv.second.pass;
      fail += kv.second.fail;
    }
    std::fprintf(stderr,
                 "[opweave] autocompare summary: %lld calls compared, %lld passed, %lld failed\n",
                 static_cast<long long>(pass + fail), static_cast<long long>(pass),
                 static_cast<long long>(fail));
    for (const auto& kv : per_op) {
      if (kv.second.fail) {
        std::fprintf(stderr, "[opweave]   FAIL %-40s %lld of %lld calls\n", kv.first.c_str(),
                     static_cast<long long>(kv.second.fail),
                     static_cast<long long>(kv.second.fail + kv.second.pass));
      }
    }
    if (jsonl) std::fclose(jsonl);
  }
};

CompareLog& log() {
  static CompareLog instance;
  return instance;
}

int tolerance_slot(at::ScalarType t) {
  switch (t) {
    case at::kHalf:
      return kTolFloat16;
    case at::kBFloat16:
      return kTolBFloat16;
    case at::kFloat:
      return kTolFloat32;
    default:
      return kTolFloat64;
  }
}

struct Diff {
  double max_abs = 0, max_rel = 0;
  bool ok = true;
  std::string why;
};

// Compares `got` (device) with `want` (CPU reference) under the op's tolerances.
void compare_tensor(const OpInfo& info, const std::string& name, const at::Tensor& got,
                    const at::Tensor& want, Diff& d) {
  if (!got.defined() || !want.defined()) {
    if (got.defined() != want.defined()) {
      d.ok = false;
      d.why += name + ": defined on one side only; ";
    }
    return;
  }
  if (!got.sizes().equals(want.sizes())) {
    d.ok = false;
    d.why += name + ": shape differs; ";
    return;
  }
  if (got.scalar_type() != want.scalar_type()) {
    d.ok = false;
    d.why += name + ": dtype " + c10::toString(got.scalar_type()) + " vs " +
             c10::toString(want.scalar_type()) + "; ";
    return;
  }
  if (got.numel() == 0) return;
  at::Tensor a = got.detach().to(at::kCPU).to(at::kDouble);
  at::Tensor b = want.detach().to(at::kDouble);
  at::Tensor diff = (a - b).abs();
  const bool nan_match = at::equal(a.isnan(), b.isnan());
  diff.masked_fill_(a.isnan().logical_and(b.isnan()), 0);
  const double max_abs = diff.max().item<double>();
  const double max_rel = (diff / b.abs().clamp_min(1e-12)).max().item<double>();
  d.max_abs = std::max(d.max_abs, max_abs);
  d.max_rel = std::max(d.max_rel, max_rel);
  const int slot = tolerance_slot(got.scalar_type());
  const bool close = at::allclose(a, b, info.rtol[slot], info.atol[slot], /*equal_nan=*/true);
  if (!close || !nan_match) {
    d.ok = false;
    d.why += name + " differs; ";
  }
}

void json_str(std::ostringstream& os, const std::string& s) {
  os << '"';
  for (char c : s) os << (c == '"' || c == '\\' ? '\'' : c);
  os << '"';
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
  torch::jit::Stack cpu_args = cpu_stack;
  handle_.callBoxed(&cpu_stack);

  Diff d;
  const auto& arguments = schema.arguments();
  for (size_t i = 0; i < arguments.size() && i < device_args_.size(); ++i) {
    if (!before_[i].defined()) continue;
    const bool written = arguments[i].alias_info() && arguments[i].alias_info()->isWrite();
    const at::Tensor& now = device_args_[i].toTensor();
    if (written) {
      compare_tensor(info, arguments[i].name(), now, cpu_args[i].toTensor(), d);
    } else if (!at::equal(now.detach().to(at::kCPU), before_[i])) {
      d.ok = false;
      d.why += arguments[i].name() + " (an input) was modified; ";
    }
  }
  const bool functional = std::none_of(arguments.begin(), arguments.end(), [](const auto& a) {
    return a.alias_info() && a.alias_info()->isWrite();
  });
  if (functional) {
    for (size_t i = 0; i < returned.size() && i < cpu_stack.size(); ++i) {
      compare_tensor(info, "result" + std::to_string(i), returned[i], cpu_stack[i].toTensor(), d);
    }
  }

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
     << (d.ok ? "pass" : "fail") << "\"";
  if (!d.ok) {
    os << ",\"reason\":";
    json_str(os, d.why);
  }
  os << "}\n";
  CompareLog& l = log();
  {
    std::lock_guard<std::mutex> lock(l.mu);
    Totals& t = l.per_op[info.aten_name];
    (d.ok ? t.pass : t.fail)++;
    if (l.jsonl) {
      std::fputs(os.str().c_str(), l.jsonl);
      std::fflush(l.jsonl);
    }
  }
  if (!d.ok) {
    std::fprintf(stderr, "[opweave] autocompare FAIL %s (%s): %s max_abs=%g max_rel=%g\n",
                 info.aten_name, info.diopi_name, d.why.c_str(), d.max_abs, d.max_rel);
    TORCH_CHECK(!l.fail_fast, "opweave autocompare: ", info.aten_name, " (", info.diopi_name,
                ") differs from CPU: ", d.why);
  }
}

}  // namespace opweave
