// The float64 referee of the autocompare build (see opweave/referee.h and, for the verdicts,
// runtime/python/opweave/referee.py, which the Python paths share).
#include "opweave/referee.h"

#include <ATen/ATen.h>
#include <c10/util/Exception.h>

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace opweave {
namespace {

// OPWEAVE_AUTOCOMPARE_REFERENCE, read once at load: "none" / "off" / "0" turn the referee off.
std::atomic<bool> g_float64{[] {
  const char* v = std::getenv("OPWEAVE_AUTOCOMPARE_REFERENCE");
  const std::string mode = v ? v : "float64";
  return mode != "none" && mode != "off" && mode != "0";
}()};

bool floating_to_widen(at::ScalarType t) { return at::isFloatingType(t) && t != at::kDouble; }

at::Tensor widened(const at::Tensor& t) {
  if (!t.defined()) return t;
  at::Tensor c = t.detach().to(at::kCPU);
  return floating_to_widen(c.scalar_type()) ? c.to(at::kDouble) : c.clone();
}

bool is_type(const c10::TypePtr& type, c10::TypeKind kind) {
  if (type->kind() == kind) return true;
  const auto opt = type->cast<c10::OptionalType>();
  return opt && opt->getElementType()->kind() == kind;
}

// One argument of the float64 call: floating tensors (alone or in lists) widened, a floating
// dtype argument (sum(dtype=float32), _to_copy(dtype=...)) made float64.
c10::IValue widen(const c10::IValue& v, const c10::Argument& arg) {
  if (v.isTensor()) return widened(v.toTensor());
  if (v.isTensorList()) {
    c10::List<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector()) out.push_back(widened(t));
    return c10::IValue(out);
  }
  if (v.isOptionalTensorList()) {
    c10::List<c10::optional<at::Tensor>> out;
    for (const c10::optional<at::Tensor>& t : v.toOptionalTensorVector()) {
      out.push_back(t.has_value() ? c10::optional<at::Tensor>(widened(*t)) : t);
    }
    return c10::IValue(out);
  }
  if (v.isInt() && is_type(arg.type(), c10::TypeKind::ScalarTypeType) &&
      floating_to_widen(static_cast<at::ScalarType>(v.toInt()))) {
    return c10::IValue(static_cast<int64_t>(at::kDouble));
  }
  return v;
}

}  // namespace

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kWithinFloat64:
      return "within_float64";
    case Verdict::kDeviceCloser:
      return "device_closer";
    case Verdict::kFail:
      return "fail";
  }
  return "fail";
}

bool refereeable(at::ScalarType t) {
  return t == at::kFloat || t == at::kHalf || t == at::kBFloat16;
}

double tolerance_units(const at::Tensor& a, const at::Tensor& b, double atol, double rtol) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  if (!a.sizes().equals(b.sizes())) return kInf;
  if (a.numel() == 0) return 0;
  const at::Tensor x = a.detach().to(at::kCPU).to(at::kDouble);
  const at::Tensor y = b.detach().to(at::kCPU).to(at::kDouble);
  const at::Tensor nx = x.isnan(), ny = y.isnan();
  const at::Tensor finite = x.isfinite().logical_and(y.isfinite());
  const at::Tensor special_bad = nx.ne(ny).logical_or(
      finite.logical_not().logical_and(nx.logical_and(ny).logical_not()).logical_and(x.ne(y)));
  if (special_bad.any().item<bool>()) return kInf;
  const at::Tensor zero = at::zeros_like(x);
  const at::Tensor diff = at::where(finite, (x - y).abs(), zero);
  const at::Tensor scale = at::where(finite, y.abs(), zero) * rtol + atol;
  // allclose's test exactly where the tolerance is zero or negative
  const at::Tensor units = at::where(scale.gt(0), diff / scale.clamp_min(1e-300),
                                     at::where(diff.le(scale), zero, zero + kInf));
  return units.max().item<double>();
}

Judged judge(const at::Tensor& device, const at::Tensor& cpu, const at::Tensor& exact, double atol,
             double rtol) {
  Judged j;
  j.device_cpu = tolerance_units(device, cpu, atol, rtol);
  if (j.device_cpu <= 1.0) return j;
  const at::ScalarType dtype = device.scalar_type();
  if (!exact.defined() || !refereeable(dtype) || !at::isFloatingType(exact.scalar_type())) {
    j.verdict = Verdict::kFail;
    return j;
  }
  // Both sides judged in the result's dtype: the reference rounded to it (the best a kernel in
  // that dtype can return), and the CPU result too.
  const at::Tensor ref = exact.detach().to(at::kCPU).to(dtype);
  j.device_float64 = tolerance_units(device, ref, atol, rtol);
  j.cpu_float64 = tolerance_units(cpu.detach().to(at::kCPU).to(dtype), ref, atol, rtol);
  j.verdict = j.device_float64 < j.cpu_float64 ? Verdict::kDeviceCloser
              : j.device_float64 <= 1.0        ? Verdict::kWithinFloat64
                                               : Verdict::kFail;
  return j;
}

torch::jit::Stack float64_call(const c10::OperatorHandle& op, torch::jit::Stack& args) {
  const auto& arguments = op.schema().arguments();
  for (size_t i = 0; i < args.size() && i < arguments.size(); ++i) {
    TORCH_CHECK(!is_type(arguments[i].type(), c10::TypeKind::GeneratorType),
                "a random op has no float64 reference");
    args[i] = widen(args[i], arguments[i]);
  }
  torch::jit::Stack stack = args;
  op.callBoxed(&stack);
  return stack;
}

void set_reference_mode(const std::string& mode) {
  TORCH_CHECK(mode == "float64" || mode == "none", "opweave: autocompare reference mode '", mode,
              "': expected 'float64' or 'none'");
  g_float64.store(mode == "float64", std::memory_order_relaxed);
}

std::string reference_mode() { return reference_float64() ? "float64" : "none"; }

bool reference_float64() { return g_float64.load(std::memory_order_relaxed); }

}  // namespace opweave
