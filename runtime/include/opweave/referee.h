// The float64 referee of the autocompare build: when a device result and the CPU result in the
// same dtype disagree, the op runs once more on the CPU with its floating inputs and floating
// dtype arguments in float64, and each side's distance from that reference (rounded to the
// result's dtype) says which one is wrong. The C++ twin of runtime/python/opweave/referee.py
// (the Python tools, the conformance and OpInfo runners): the same distances and verdicts.
#pragma once

#include <ATen/core/Tensor.h>
#include <ATen/core/dispatch/Dispatcher.h>

#include <string>

namespace opweave {

// Best to worst; only kFail is a failure.
enum class Verdict { kPass, kWithinFloat64, kDeviceCloser, kFail };
const char* verdict_name(Verdict v);

// Distances in units of the tolerance: max |a - b| / (atol + rtol * |b|), b the reference, so
// <= 1 is allclose; NaN on one side only or unequal infinities: +inf. -1: not computed.
struct Judged {
  Verdict verdict = Verdict::kPass;
  double device_cpu = -1, device_float64 = -1, cpu_float64 = -1;
};

double tolerance_units(const at::Tensor& a, const at::Tensor& b, double atol, double rtol);

// The verdict on one result: `device` and `cpu` on the CPU, `exact` the float64 rerun's result
// (undefined: none could be made, so a disagreement is a failure).
Judged judge(const at::Tensor& device, const at::Tensor& cpu, const at::Tensor& exact, double atol,
             double rtol);

// Whether a result of this dtype can be refereed (float32, float16, bfloat16).
bool refereeable(at::ScalarType t);

// Runs `op` on the CPU with `args` (CPU values, as the reference call took them) where every
// floating tensor and floating dtype argument is float64. Returns the stack after the call:
// the outputs; `args` holds the float64 arguments afterwards (an in-place or out= op wrote its
// result there). Throws c10::Error when the op has no float64 kernel, or takes a generator.
torch::jit::Stack float64_call(const c10::OperatorHandle& op, torch::jit::Stack& args);

// The mode switch (OPWEAVE_AUTOCOMPARE_REFERENCE=float64|none, read once at load; default
// float64). Read by the autocompare path only, after a disagreement: never per op call.
void set_reference_mode(const std::string& mode);  // "float64" or "none"; else throws
std::string reference_mode();
bool reference_float64();

}  // namespace opweave
