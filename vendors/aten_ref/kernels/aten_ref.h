// The reference vendor's view of DIOPI arguments as ATen values.
//
// A DIOPI tensor becomes a CPU tensor over the same (host-backed) device memory, built only
// from the diopirt accessors: the vendor depends on the DIOPI ABI, never on how the runtime
// represents a handle. Kernels then redispatch straight to the CPU kernel (kCpuKeys), skipping
// autograd and the other keys a native CPU call also skips below autograd.
#ifndef OPWEAVE_VENDOR_ATEN_REF_H_
#define OPWEAVE_VENDOR_ATEN_REF_H_

#include <ATen/core/Generator.h>
#include <ATen/core/IListRef.h>
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/core/DispatchKeySet.h>
#include <c10/core/Scalar.h>
#include <c10/core/SymIntArrayRef.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <c10/util/Exception.h>
#include <c10/util/OptionalArrayRef.h>
#include <c10/util/string_view.h>
#include <diopi/prototypes.h>

#include <cstdint>
#include <exception>
#include <stdexcept>
#include <vector>

#include "opweave/torch_compat.h"  // compat::redispatch: plain integers to the schema's SymInts

namespace aten_ref {

inline const c10::DispatchKeySet kCpuKeys{c10::DispatchKey::CPU};

// A DIOPI kernel may be called from anywhere (the conformance runner calls the C ABI
// directly): CPU kernels that assert they run below autograd (mkldnn's gelu) must see it
// excluded, as they do under the wrapper.
// Under the wrapper the autograd kernel has excluded them already (its redispatch runs below
// autograd): only a check then, not a guard's save and restore of the TLS key sets.
class BelowAutograd {
 public:
  BelowAutograd() {
    if (C10_UNLIKELY(!c10::impl::tls_is_dispatch_keyset_excluded(
            c10::autograd_dispatch_keyset_with_ADInplaceOrView))) {
      guard_.emplace();
    }
  }

 private:
  c10::optional<at::AutoDispatchBelowADInplaceOrView> guard_;
};

at::Tensor wrap(diopiConstTensorHandle_t h);
c10::optional<at::Tensor> wrap_optional(diopiConstTensorHandle_t h);  // null -> nullopt
std::vector<at::Tensor> wrap_list(const diopiConstTensorHandle_t* hs, int64_t n);
std::vector<at::Tensor> wrap_list(const diopiTensorHandle_t* hs, int64_t n);
// Tensor?[] (advanced indexing): NULL entries become nullopt.
c10::List<c10::optional<at::Tensor>> wrap_optional_list(const diopiConstTensorHandle_t* hs,
                                                        int64_t n);

at::ScalarType dtype(diopiDtype_t t);
diopiDtype_t diopi_dtype(at::ScalarType t);
c10::optional<at::ScalarType> optional_dtype(const diopiDtype_t* t);
at::Scalar scalar(const diopiScalar_t* s);
c10::optional<at::Scalar> optional_scalar(const diopiScalar_t* s);
// A number as the other operand of `input`'s `.Tensor` overload (mul.out for diopiMulScalar):
// a CPU 0-dim tensor in the dtype ATen promotes the pair to, float32 for float16 / bfloat16
// (the precision ATen's CPU kernels take a scalar operand in) -- what the runtime stages for
// a Python number too (OpGuard). Not a wrapped float64: ATen would convert that to the
// common dtype through a dispatched to() on every call (a 1-element mul_: 15,880 instructions
// against 8,282, bench/icount.py case mul_number).
at::Tensor number_operand(const at::Tensor& input, const diopiScalar_t* s);

inline c10::IntArrayRef ints(diopiSize_t s) {
  return c10::IntArrayRef(s.data, static_cast<size_t>(s.len));
}
// a == b, element by element: shapes have a few dimensions, and IntArrayRef::equals' memcmp
// call costs more than the loop (it ran ~10 times per 1-element op).
inline bool same_ints(c10::IntArrayRef a, diopiSize_t b) {
  if (static_cast<int64_t>(a.size()) != b.len) return false;
  for (int64_t d = 0; d < b.len; ++d) {
    if (a[static_cast<size_t>(d)] != b.data[d]) return false;
  }
  return true;
}
// DIOPI passes an absent int[]? as {NULL, 0}.
inline at::OptionalIntArrayRef optional_ints(diopiSize_t s) {
  if (s.data == nullptr) return c10::nullopt;
  return ints(s);
}
template <class T>
c10::optional<T> optional_value(const T* p) {
  return p != nullptr ? c10::optional<T>(*p) : c10::nullopt;
}
template <class T>
T required(const T* p, const char* name) {
  TORCH_CHECK(p != nullptr, "aten_ref: argument '", name, "' is required by this ATen overload");
  return *p;
}
inline c10::optional<c10::string_view> optional_str(const char* s) {
  return s != nullptr ? c10::optional<c10::string_view>(s) : c10::nullopt;
}
c10::optional<c10::string_view> round_mode(diopiRoundMode_t mode);

// A reduction kept its reduced dimensions when its output has as many as its input.
inline bool keepdim_of(const at::Tensor& out, const at::Tensor& input) {
  return input.dim() > 0 && out.dim() == input.dim();
}

// A CPU generator for one call, seeded from the device generator's (seed, offset), whose
// offset then advances: the same seed replays the same numbers, consecutive calls differ.
// A null handle means the CPU default generator.
class SeededCpuGenerator {
 public:
  explicit SeededCpuGenerator(diopiGeneratorHandle_t device_generator);
  c10::optional<at::Generator> get() const { return generator_; }

 private:
  c10::optional<at::Generator> generator_;
};

// An out= argument: the device view itself when it is contiguous, else a contiguous CPU
// temporary that commit() copies into the view (some ATen 1.13 CPU out= kernels, softmax's
// among them, write as if their output were contiguous). kMayResize (losses: ATen 1.13's
// structured mse_loss / smooth_l1_loss resize their out= through the unreduced shape, which
// the device memory behind the view cannot follow) gives single-element outputs a temporary
// too; every other op writes a single element in place, without an allocation and a copy.
class Output {
 public:
  enum Mode { kInPlace, kMayResize };
  explicit Output(diopiTensorHandle_t h, Mode mode = kInPlace);
  at::Tensor& tensor() { return work_; }
  void commit();

 private:
  diopiTensorHandle_t handle_;
  diopiSize_t stride_{};  // the handle's, as the runtime gave them
  at::Tensor view_, work_;
};

// A result this torch computes in a dtype the caller's output cannot hold: the kernel declines
// (diopiDtypeNotSupported), and the wrapper runs the op on CPU.
struct DtypeDeclined : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A functional overload's result into the DIOPI output the caller allocated (skipped when the
// caller passed no output for it; declined when out's dtype cannot hold it).
void copy_result(diopiTensorHandle_t out, const at::Tensor& result);
// The same into `target`, a view of the output.
void copy_into(const at::Tensor& target, const at::Tensor& result);

// A functional kernel computing straight into the DIOPI outputs (result_memory.cpp): while
// run() runs it, this thread's CPU allocations of exactly an output's size are placed in that
// output, so the result is usually in place already and copy_out() has nothing to copy. Only
// outputs that are contiguous, at least kMinBytes, aligned, and clear of every input given to
// keep_clear_of() are offered (a workspace placed in an input's memory would overwrite it).
//
//   aten_ref::ResultMemory results({out, save_mean});
//   results.keep_clear_of(input_t, weight_t);
//   const auto result = results.run([&] { return /* functional ATen call */; });
//   results.copy_out({{out, std::get<0>(result)}, {save_mean, std::get<1>(result)}});
class ResultMemory {
 public:
  explicit ResultMemory(std::initializer_list<diopiTensorHandle_t> outs);
  ResultMemory(const ResultMemory&) = delete;
  ResultMemory& operator=(const ResultMemory&) = delete;

  void keep_clear_of(const at::Tensor& input);
  void keep_clear_of(const c10::optional<at::Tensor>& input) {
    if (input.has_value()) keep_clear_of(*input);
  }
  void keep_clear_of(const std::vector<at::Tensor>& inputs) {
    for (const at::Tensor& t : inputs) keep_clear_of(t);
  }
  void keep_clear_of(const c10::List<c10::optional<at::Tensor>>& inputs) {
    for (size_t i = 0; i < inputs.size(); ++i) keep_clear_of(inputs.get(i));
  }
  template <class A, class B, class... More>
  void keep_clear_of(const A& a, const B& b, const More&... more) {
    keep_clear_of(a);
    keep_clear_of(b, more...);
  }

  // The kernel allocates this output's size `count` times before the allocation it returns
  // (ATen's CPU batch-norm backward allocates its input gradient at the top, then again on its
  // contiguous path, and returns the second): those are passed over. A wrong count costs a
  // copy, never a wrong result (copy_out checks where each result is).
  void lend_after(diopiTensorHandle_t out, int count);

  template <class F>
  decltype(auto) run(F&& kernel) {
    if (offered_ == 0) return kernel();  // small outputs: copied after, as a memmove
    const Active active(*this);
    return kernel();
  }
  struct Into {
    diopiTensorHandle_t out;
    const at::Tensor& result;
  };
  // Each result into its output; null outputs are skipped.
  void copy_out(std::initializer_list<Into> results);

  // For the allocator: an output's memory of exactly this size, and that memory back (the
  // kernel freed what it put there; a later allocation may have it).
  void* take(size_t nbytes);
  void release(void* data);

 private:
  static constexpr int kMaxOutputs = 4;
  // Smaller results are copied (a memmove of a few KiB costs less than the lookups here).
  static constexpr size_t kMinBytes = 4096;
  struct Slot {
    diopiTensorHandle_t handle = nullptr;
    at::Tensor view;
    size_t nbytes = 0;    // offered to the kernel's allocations when non-zero
    bool in_use = false;  // an allocation of the kernel holds it now
    bool lent = false;    // some allocation has held it: what is there may not be a result
    int skip = 0;         // allocations of its size still to pass over (lend_after)
  };
  const Slot& slot_of(diopiTensorHandle_t out) const;
  class Active {  // this thread's allocations look here while the kernel runs
   public:
    explicit Active(ResultMemory& m);
    ~Active();

   private:
    ResultMemory* previous_;
  };
  Slot slots_[kMaxOutputs];
  int count_ = 0;
  int offered_ = 0;  // slots with nbytes != 0
};
// An output whose shape depends on the data: allocated on the device (diopiRequireTensor) in
// the result's shape, then filled.
void return_allocated(diopiContextHandle_t ctx, diopiTensorHandle_t* out, const at::Tensor& result);

// Records the exception's message as the runtime's last error and returns the DIOPI code.
diopiError_t fail(const std::exception& e) noexcept;

}  // namespace aten_ref

#endif  // OPWEAVE_VENDOR_ATEN_REF_H_
