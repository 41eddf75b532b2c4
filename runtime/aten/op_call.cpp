// Slow paths of the generated wrappers: errors, fallback, and the dump records.
#include "opweave/op_call.h"

#include <ATen/Dispatch.h>
#include <c10/util/Exception.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <sstream>

#include "diopi/prototypes.h"
#include "opweave/by_value.h"
#include "opweave/fallback.h"
#include "opweave/output_rules.h"

namespace opweave {

void throw_device_mismatch(int op, const at::Tensor& t, c10::Device expected) {
  TORCH_CHECK(false, op_info(op).aten_name, ": expected all tensors to be on ", expected,
              ", but found one on ", t.device());
}

// A CPU 0-dim tensor (a Python number ATen wrapped) becomes a device scalar filled on the
// stream: no host-to-device copy whose host buffer must outlive it, and no dispatcher trip
// through to() / empty_strided / copy_.
void OpGuard::materialize(at::ScalarType promoted) {
  const bool reduced = promoted == at::kHalf || promoted == at::kBFloat16;
  const at::ScalarType for_numbers = reduced ? at::kFloat : promoted;
  for (auto& [source, on_device] : staged_) {
    const at::Tensor& t = *source;
    c10::Scalar value;
    AT_DISPATCH_ALL_TYPES_AND_COMPLEX_AND3(at::kHalf, at::kBFloat16, at::kBool, t.scalar_type(),
                                           "opweave_stage",
                                           [&] { value = *t.data_ptr<scalar_t>(); });
    const bool number = t.unsafeGetTensorImpl()->is_wrapped_number();
    on_device = allocate(OutMeta{{}, number ? for_numbers : t.scalar_type()}, device_);
    on_device.fill_(value);
  }
}

const at::Tensor& OpGuard::staged(const at::Tensor& t) const {
  for (const auto& entry : staged_) {
    if (entry.first == &t) return entry.second;
  }
  return t;
}

namespace {

// A kernel without these arguments' dtypes declines like a missing one: the op still runs
// (on CPU, logged once, or on the tensor kernel after a Scalar one), instead of failing a
// model over one odd dtype.
bool declined(diopiError_t status) {
  return status == diopiNoImplement || status == diopiForceFallbackToCPU ||
         status == diopiDtypeNotSupported;
}

[[noreturn]] void throw_kernel_error(int op, const char* diopi_name, diopiError_t status) {
  const char* vendor_message = diopiGetLastErrorString();
  TORCH_CHECK(false, op_info(op).aten_name, ": ", diopi_name, " failed with error ",
              static_cast<int>(status), ": ",
              vendor_message && *vendor_message ? vendor_message : "(no message from vendor)");
}

}  // namespace

bool kernel_declined(int op, diopiError_t status) {
  if (declined(status)) return true;
  throw_kernel_error(op, op_info(op).diopi_name, status);
}

void by_value_declined(int op, int slot, diopiError_t status) {
  if (!declined(status)) throw_kernel_error(op, kDiopiFnNames[slot], status);
}

// ---- argument dump (JSON lines) ---------------------------------------------------------

namespace {

std::mutex g_dump_mu;

FILE* dump_stream() {
  static FILE* stream = [] {
    const char* path = std::getenv("OPWEAVE_DUMP_FILE");
    if (path && *path) {
      if (FILE* f = std::fopen(path, "a")) return f;
    }
    return stderr;
  }();
  return stream;
}

void json_string(std::ostringstream& os, const std::string& s) {
  os << '"';
  for (char c : s) {
    if (c == '"' || c == '\\') {
      os << '\\' << c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      os << ' ';
    } else {
      os << c;
    }
  }
  os << '"';
}

void json_sizes(std::ostringstream& os, at::IntArrayRef v) {
  os << '[';
  for (size_t i = 0; i < v.size(); ++i) os << (i ? "," : "") << v[i];
  os << ']';
}

void json_tensor(std::ostringstream& os, const at::Tensor& t, int level) {
  if (!t.defined()) {
    os << "null";
    return;
  }
  os << "{\"shape\":";
  json_sizes(os, t.sizes());
  os << ",\"stride\":";
  json_sizes(os, t.strides());
  os << ",\"dtype\":";
  json_string(os, c10::toString(t.scalar_type()));
  os << ",\"device\":";
  json_string(os, t.device().str());
  if (level >= 3 && t.numel() > 0) {
    // Values cross to the host through the dispatcher (a synchronous copy).
    at::Tensor host = t.detach().to(at::kCPU).to(at::kDouble).flatten();
    const int64_t n = std::min<int64_t>(host.numel(), 16);
    os << ",\"values\":[";
    for (int64_t i = 0; i < n; ++i) os << (i ? "," : "") << host[i].item<double>();
    os << "],\"min\":" << host.min().item<double>() << ",\"max\":" << host.max().item<double>()
       << ",\"mean\":" << host.mean().item<double>();
  }
  os << '}';
}

// Tensor[] and Tensor?[] (cat, index): an array of tensors, null for an absent entry.
void json_item(std::ostringstream& os, const at::Tensor& t, int level) {
  json_tensor(os, t, level);
}
void json_item(std::ostringstream& os, const c10::optional<at::Tensor>& t, int level) {
  t.has_value() ? json_tensor(os, *t, level) : void(os << "null");
}
template <class Items>
void json_tensors(std::ostringstream& os, const Items& items, int level) {
  os << '[';
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) os << ',';
    json_item(os, items[k], level);
  }
  os << ']';
}

}  // namespace

void dump_call(int op, const torch::jit::Stack& args) {
  const OpInfo& info = op_info(op);
  const int level = dump_level();
  std::ostringstream os;
  os << "{\"op\":";
  json_string(os, info.aten_name);
  os << ",\"diopi\":";
  json_string(os, info.diopi_name);
  if (level >= 2) {
    os << ",\"args\":[";
    for (size_t i = 0; i < args.size(); ++i) {
      if (i) os << ',';
      const c10::IValue& v = args[i];
      if (v.isTensor()) {
        json_tensor(os, v.toTensor(), level);
      } else if (v.isTensorList()) {
        json_tensors(os, v.toTensorVector(), level);
      } else if (v.isOptionalTensorList()) {
        json_tensors(os, v.toOptionalTensorVector(), level);
      } else if (v.isNone()) {
        os << "null";
      } else {
        std::ostringstream text;
        text << v;
        json_string(os, text.str());
      }
    }
    os << ']';
  }
  os << "}\n";
  std::lock_guard<std::mutex> lock(g_dump_mu);
  std::fputs(os.str().c_str(), dump_stream());
  std::fflush(dump_stream());
}

}  // namespace opweave
