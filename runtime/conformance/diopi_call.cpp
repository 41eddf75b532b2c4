// Conformance runner, native half: calls one vendor DIOPI kernel at the C ABI.
//
// The Python driver (runtime/python/opweave/conformance) creates the device tensors (through
// the runtime's allocator), copies the golden inputs in, and calls
//
//   torch.ops.opweave_conformance.call(fn, device, tensors, args) -> status
//
// which builds a diopiContext on the device's current stream, unpacks `args` into the C types
// of the prototype (generated/conformance/diopi_calls.inc), calls the kernel pointer from the
// resolved slot table -- no ATen dispatch between the runner and the vendor -- and waits for
// the device. The status is the kernel's diopiError_t, or kSlotMissing when the vendor library
// does not export the function. `args` has one space-separated token per DIOPI parameter:
//
//   t<k>  tensor k of `tensors`     n        null / absent
//   si<v> sf<v>  int / float scalar  z<a,b,..>  size (z alone: empty)
//   i<v> f<v> b<0|1>  int64 / double / bool    d<v>  diopiDtype_t    e<v>  enum value
//   s<text>  string (no spaces)      l<k>,<k>,...  tensor list of `tensors` entries
//   a        an output the kernel allocates (diopiTensorHandle_t*): read back with allocated()
//   h        a host output (bool*, diopiEqual's): read back with allocated() as a 0-dim CPU bool
#include <ATen/core/Tensor.h>
#include <ATen/ops/scalar_tensor.h>
#include <diopi/prototypes.h>
#include <torch/library.h>

#include <algorithm>
#include <cstdlib>
#include <deque>
#include <string>
#include <vector>

#include "opweave/context.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_handles.h"
#include "opweave/diopi_slots.h"
#include "opweave/generator.h"
#include "opweave/stream.h"

namespace {

constexpr int64_t kSlotMissing = -1;

// Outputs the kernel of the last call allocated (diopiTensorHandle_t* arguments).
std::vector<at::Tensor>& last_allocated() {
  static std::vector<at::Tensor> tensors;
  return tensors;
}

struct Token {
  char kind = 'n';
  std::string text;
};

// Owns every value a kernel argument points to, for the duration of the call.
class Args {
 public:
  Args(const c10::List<c10::optional<at::Tensor>>& tensors, const std::string& spec,
       c10::DeviceIndex device)
      : device_(device) {
    for (const c10::optional<at::Tensor>& t : tensors) tensors_.push_back(t.value_or(at::Tensor()));
    size_t pos = 0;
    while (pos < spec.size()) {
      size_t end = spec.find(' ', pos);
      if (end == std::string::npos) end = spec.size();
      if (end > pos) {
        Token tok;
        tok.kind = spec[pos];
        tok.text = spec.substr(pos + 1, end - pos - 1);
        tokens_.push_back(std::move(tok));
      }
      pos = end + 1;
    }
  }

  size_t size() const { return tokens_.size(); }

  diopiTensorHandle_t tensor(int i) {
    const Token& t = at(i, "tn");
    if (t.kind == 'n') return nullptr;
    const int64_t k = std::strtoll(t.text.c_str(), nullptr, 10);
    TORCH_CHECK(k >= 0 && k < static_cast<int64_t>(tensors_.size()) && tensors_[k].defined(),
                "conformance: argument ", i, " names missing tensor ", k);
    return opweave::handle(tensors_[k]);
  }
  diopiConstTensorHandle_t const_tensor(int i) { return tensor(i); }
  diopiTensorHandle_t* tensor_list(int i) {
    const Token& t = at(i, "l");
    lists_.emplace_back();
    std::vector<diopiTensorHandle_t>& v = lists_.back();
    size_t pos = 0;
    while (pos < t.text.size()) {
      size_t end = t.text.find(',', pos);
      if (end == std::string::npos) end = t.text.size();
      const std::string item = t.text.substr(pos, end - pos);
      if (item == "n") {  // an absent Tensor?[] entry
        v.push_back(nullptr);
        pos = end + 1;
        continue;
      }
      const int64_t k = std::strtoll(item.c_str(), nullptr, 10);
      TORCH_CHECK(k >= 0 && k < static_cast<int64_t>(tensors_.size()) && tensors_[k].defined(),
                  "conformance: list argument ", i, " names missing tensor ", k);
      v.push_back(opweave::handle(tensors_[k]));
      pos = end + 1;
    }
    return v.data();
  }
  diopiConstTensorHandle_t* const_tensor_list(int i) {
    diopiTensorHandle_t* items = tensor_list(i);
    const_lists_.emplace_back(items, items + lists_.back().size());
    return const_lists_.back().data();
  }
  // Element count of the list argument `i` (after its handles were taken).
  int64_t list_size(int i) {
    const Token& t = at(i, "l");
    return t.text.empty() ? 0
                          : 1 + static_cast<int64_t>(std::count(t.text.begin(), t.text.end(), ','));
  }

  const diopiScalar_t* scalar(int i) {
    const Token& t = at(i, "sn");
    if (t.kind == 'n') return nullptr;
    diopiScalar_t s{};
    TORCH_CHECK(!t.text.empty() && (t.text[0] == 'i' || t.text[0] == 'f'),
                "conformance: bad scalar token for argument ", i);
    if (t.text[0] == 'f') {
      s.stype = diopi_dtype_float64;
      s.fval = std::strtod(t.text.c_str() + 1, nullptr);
    } else {
      s.stype = diopi_dtype_int64;
      s.ival = std::strtoll(t.text.c_str() + 1, nullptr, 10);
    }
    scalars_.push_back(s);
    return &scalars_.back();
  }
  diopiSize_t size(int i) {
    const Token& t = at(i, "zn");
    sizes_.emplace_back();
    std::vector<int64_t>& v = sizes_.back();
    if (t.kind == 'n') return diopiSize_t{nullptr, 0};
    size_t pos = 0;
    while (pos < t.text.size()) {
      size_t end = t.text.find(',', pos);
      if (end == std::string::npos) end = t.text.size();
      v.push_back(std::strtoll(t.text.substr(pos, end - pos).c_str(), nullptr, 10));
      pos = end + 1;
    }
    return diopiSize_t{v.data(), static_cast<int64_t>(v.size())};
  }
  // diopiSize_t* (conv backward's bias_sizes): a size token, or n for NULL.
  diopiSize_t* size_ptr(int i) {
    if (at(i, "zn").kind == 'n') return nullptr;
    size_ptrs_.push_back(size(i));
    return &size_ptrs_.back();
  }
  int64_t int64(int i) { return std::strtoll(at(i, "ie").text.c_str(), nullptr, 10); }
  const int64_t* int64_opt(int i) {
    const Token& t = at(i, "in");
    if (t.kind == 'n') return nullptr;
    ints_.push_back(std::strtoll(t.text.c_str(), nullptr, 10));
    return &ints_.back();
  }
  double float64(int i) { return std::strtod(at(i, "f").text.c_str(), nullptr); }
  const double* float64_opt(int i) {
    const Token& t = at(i, "fn");
    if (t.kind == 'n') return nullptr;
    doubles_.push_back(std::strtod(t.text.c_str(), nullptr));
    return &doubles_.back();
  }
  bool boolean(int i) { return at(i, "b").text == "1"; }
  const bool* boolean_opt(int i) {
    const Token& t = at(i, "bn");
    if (t.kind == 'n') return nullptr;
    bools_.push_back(t.text == "1");
    return &bools_.back();
  }
  // bool* (diopiEqual's host result): where the kernel writes it before returning.
  bool* host_bool(int i) {
    at(i, "h");
    host_bools_.push_back(false);
    results_.push_back({nullptr, &host_bools_.back()});
    return &host_bools_.back();
  }
  const char* str(int i) {
    const Token& t = at(i, "sn");
    return t.kind == 'n' ? nullptr : t.text.c_str();
  }
  diopiDtype_t dtype(int i) {
    return static_cast<diopiDtype_t>(std::strtoll(at(i, "d").text.c_str(), nullptr, 10));
  }
  const diopiDtype_t* dtype_opt(int i) {
    const Token& t = at(i, "dn");
    if (t.kind == 'n') return nullptr;
    dtypes_.push_back(static_cast<diopiDtype_t>(std::strtoll(t.text.c_str(), nullptr, 10)));
    return &dtypes_.back();
  }
  // An output the kernel allocates: the slot it writes the handle into.
  diopiTensorHandle_t* allocated(int i) {
    at(i, "a");
    allocated_.push_back(nullptr);
    results_.push_back({&allocated_.back(), nullptr});
    return &allocated_.back();
  }
  // The tensors the kernel allocated and its host results (0-dim CPU tensors), in argument order.
  std::vector<at::Tensor> allocated_tensors() const {
    std::vector<at::Tensor> out;
    for (const Result& r : results_) {
      if (r.flag != nullptr) {
        out.push_back(at::scalar_tensor(*r.flag, at::kBool));
        continue;
      }
      TORCH_CHECK(*r.handle != nullptr,
                  "conformance: the kernel succeeded but allocated no output");
      out.push_back(opweave::tensor(*r.handle));
    }
    return out;
  }

  // A generator argument is the device's default generator (cases never pass another).
  diopiGeneratorHandle_t generator(int) { return opweave::generator_handle(c10::nullopt, device_); }

 private:
  const Token& at(int i, const char* kinds) const {
    TORCH_CHECK(i >= 0 && i < static_cast<int>(tokens_.size()), "conformance: argument ", i,
                " missing (", tokens_.size(), " given)");
    const Token& t = tokens_[i];
    TORCH_CHECK(std::string(kinds).find(t.kind) != std::string::npos, "conformance: argument ", i,
                " has token kind '", t.kind, "', expected one of '", kinds, "'");
    return t;
  }

  c10::DeviceIndex device_;
  std::vector<at::Tensor> tensors_;  // shallow copies: same storage as the caller's tensors
  std::vector<Token> tokens_;
  // deques: element addresses stay valid as they grow
  std::deque<diopiScalar_t> scalars_;
  std::deque<diopiTensorHandle_t> allocated_;
  std::deque<bool> host_bools_;
  struct Result {  // one of the two: an allocated tensor's slot, or a host bool
    diopiTensorHandle_t* handle;
    bool* flag;
  };
  std::vector<Result> results_;
  std::deque<std::vector<int64_t>> sizes_;
  std::deque<diopiSize_t> size_ptrs_;
  std::deque<int64_t> ints_;
  std::deque<double> doubles_;
  std::deque<bool> bools_;
  std::deque<diopiDtype_t> dtypes_;
  std::deque<std::vector<diopiTensorHandle_t>> lists_;
  std::deque<std::vector<diopiConstTensorHandle_t>> const_lists_;
};

// Names by the slot numbers this file was compiled with (the thunks' `case` labels).
const char* const kCompiledNames[] = {
#if __has_include("aten/diopi_functions.inc")
#define OPWEAVE_DIOPI_FN(name) #name,
#include "aten/diopi_functions.inc"
#undef OPWEAVE_DIOPI_FN
#endif
    nullptr};

int64_t dispatch(int slot, diopiContextHandle_t ctx, Args& a) {
  switch (slot) {
#include "conformance/diopi_calls.inc"
    default:
      TORCH_CHECK(false, "conformance: no call thunk for slot ", slot,
                  " (regenerate and rebuild the runner)");
  }
}

int64_t call_op(const std::string& fn, int64_t device,
                const c10::List<c10::optional<at::Tensor>>& tensors, const std::string& spec) {
  const int slot = opweave::diopi_slot_index(fn.c_str());
  TORCH_CHECK(slot >= 0, "conformance: ", fn, " is not a DIOPI function of the catalogue");
  // The slot numbers of the loaded libopweave must be those the thunks were compiled with.
  TORCH_CHECK(slot < opweave::kDiopiFnCount && kCompiledNames[slot] != nullptr &&
                  std::string(kCompiledNames[slot]) == fn,
              "conformance: the runner was built for another catalogue than the loaded "
              "libopweave (rebuild both: make build conformance-runner)");
  const auto index = static_cast<c10::DeviceIndex>(device);
  Args args(tensors, spec, index);
  int64_t status = 0;
  {
    diopiContext ctx(index);
    status = dispatch(slot, &ctx, args);
    last_allocated().clear();
    if (status == 0) last_allocated() = args.allocated_tensors();  // before the context ends
  }
  opweave::synchronize_device(index);  // async kernel errors surface here, as exceptions
  return status;
}

std::vector<at::Tensor> allocated_op() { return last_allocated(); }

bool has_kernel_op(const std::string& fn) {
  const int slot = opweave::diopi_slot_index(fn.c_str());
  return slot >= 0 && opweave::g_diopi_slots[slot] != nullptr;
}

std::string last_error_op() {
  const char* msg = diopiGetLastErrorString();
  return msg != nullptr ? msg : "";
}

}  // namespace

TORCH_LIBRARY(opweave_conformance, m) {
  m.def("call(str fn, int device, Tensor?[] tensors, str args) -> int", &call_op);
  m.def("has_kernel(str fn) -> bool", &has_kernel_op);
  m.def("allocated() -> Tensor[]", &allocated_op);
  m.def("last_error() -> str", &last_error_op);
}
