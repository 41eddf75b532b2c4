// ATen values -> DIOPI C parameters, as the generated wrappers pass them. Inline and
// allocation-free for the common kinds: they run on every op call.
#pragma once

#include <ATen/core/IListRef.h>
#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <c10/core/GradMode.h>
#include <c10/core/Scalar.h>
#include <c10/util/Exception.h>
#include <c10/util/Optional.h>
#include <c10/util/SmallVector.h>
#include <c10/util/string_view.h>

#include <string>

#include "diopi/diopirt.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_handles.h"
#include "opweave/generator.h"

namespace opweave {

inline diopiDtype_t to_diopi_dtype(at::ScalarType t) { return diopi_dtype(t); }
inline diopiScalar_t to_diopi_scalar(const at::Scalar& s) { return diopi_scalar(s); }

class OptionalScalar {
 public:
  explicit OptionalScalar(const c10::optional<at::Scalar>& s)
      : present_(s.has_value()), value_(present_ ? diopi_scalar(*s) : diopiScalar_t{}) {}
  // An `int?` that is `Scalar?` on newer torch (compat::IntOrScalar on torch 1.13).
  explicit OptionalScalar(const c10::optional<int64_t>& s)
      : present_(s.has_value()),
        value_(present_ ? diopi_scalar(at::Scalar(*s)) : diopiScalar_t{}) {}
  const diopiScalar_t* get() const { return present_ ? &value_ : nullptr; }

 private:
  bool present_;
  diopiScalar_t value_;
};

inline diopiSize_t to_diopi_size(at::IntArrayRef v) { return diopi_size(v); }
inline diopiSize_t to_diopi_size(at::OptionalIntArrayRef v) {
  return v.has_value() ? diopi_size(*v) : diopiSize_t{nullptr, 0};
}

template <class T>
inline const T* optional_ptr(const c10::optional<T>& v) {
  return v.has_value() ? &*v : nullptr;
}
// An ATen int passed where DIOPI takes an optional `const int64_t*` (prod's dim).
inline const int64_t* optional_ptr(const int64_t& v) { return &v; }

// The output a kernel allocated through diopiRequireTensor (kept alive by the call's context
// until the wrapper takes its own reference here).
inline at::Tensor allocated_output(diopiTensorHandle_t h) {
  TORCH_CHECK(h != nullptr, "the kernel succeeded but did not allocate its output");
  return *reinterpret_cast<at::Tensor*>(h);
}

class OptionalCString {
 public:
  explicit OptionalCString(const c10::optional<c10::string_view>& s)
      : present_(s.has_value()), value_(present_ ? std::string(*s) : std::string()) {}
  const char* get() const { return present_ ? value_.c_str() : nullptr; }

 private:
  bool present_;
  std::string value_;
};

class OptionalDtype {
 public:
  explicit OptionalDtype(c10::optional<at::ScalarType> t)
      : present_(t.has_value()), value_(present_ ? diopi_dtype(*t) : diopi_dtype_unsupported) {}
  const diopiDtype_t* get() const { return present_ ? &value_ : nullptr; }

 private:
  bool present_;
  diopiDtype_t value_;
};

inline diopiRoundMode_t to_round_mode(const c10::optional<c10::string_view>& mode) {
  if (!mode.has_value()) return RoundModeNone;
  if (*mode == "trunc") return RoundModeTrunc;
  if (*mode == "floor") return RoundModeFloor;
  TORCH_CHECK(false,
              "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              std::string(*mode), "'");
}

// Tensor lists (Tensor[] inputs) as DIOPI's pointer + count.
class HandleList {
 public:
  explicit HandleList(at::TensorList tensors) {
    handles_.reserve(tensors.size());
    for (const at::Tensor& t : tensors) handles_.push_back(const_handle(t));
  }
  // Structured ops (cat) take their lists as ITensorListRef; its elements are references to
  // tensors that outlive the call (the caller's list), so their addresses are stable.
  explicit HandleList(const at::ITensorListRef& tensors) {
    handles_.reserve(tensors.size());
    for (const at::Tensor& t : tensors) handles_.push_back(const_handle(t));
  }
  // DIOPI prototypes take `diopiConstTensorHandle_t*` (a non-const array); kernels only read it.
  diopiConstTensorHandle_t* data() const { return handles_.data(); }
  int64_t size() const { return static_cast<int64_t>(handles_.size()); }

 private:
  mutable c10::SmallVector<diopiConstTensorHandle_t, 8> handles_;
};

// Tensor?[] (advanced indexing) -> a DIOPI handle array whose absent entries are NULL. A handle
// is the address of an at::Tensor and c10::List holds no at::Tensor objects, so the tensors are
// held here (CPU index tensors copied to `device`) for the duration of the call.
class OptionalHandleList {
 public:
  OptionalHandleList(const c10::List<c10::optional<at::Tensor>>& tensors, c10::Device device) {
    held_.reserve(tensors.size());  // no reallocation below: handles point into held_
    handles_.reserve(tensors.size());
    for (size_t i = 0; i < tensors.size(); ++i) {
      const c10::optional<at::Tensor> t = tensors.get(i);
      if (!t.has_value() || !t->defined()) {
        handles_.push_back(nullptr);
        continue;
      }
      held_.push_back(t->device() == device ? *t : t->to(device));
      handles_.push_back(const_handle(held_.back()));
    }
  }
  OptionalHandleList(const OptionalHandleList&) = delete;
  OptionalHandleList& operator=(const OptionalHandleList&) = delete;
  diopiConstTensorHandle_t* data() const { return handles_.data(); }
  int64_t size() const { return static_cast<int64_t>(handles_.size()); }

 private:
  c10::SmallVector<at::Tensor, 4> held_;
  mutable c10::SmallVector<diopiConstTensorHandle_t, 4> handles_;
};

inline diopiConstTensorHandle_t optional_handle(const c10::optional<at::Tensor>& t) {
  return const_handle(t);
}

// Autograd kernels of CompositeImplicitAutograd ops: does this call need a gradient?
inline bool requires_grad(const at::Tensor& t) { return t.defined() && t.requires_grad(); }
inline bool requires_grad(const c10::optional<at::Tensor>& t) {
  return t.has_value() && requires_grad(*t);
}
template <class... Ts>
inline bool grad_required(const Ts&... tensors) {
  return c10::GradMode::is_enabled() && (requires_grad(tensors) || ...);
}

// An output a wrapper allocated only when its output_mask entry is set: NULL otherwise.
inline diopiTensorHandle_t handle_or_null(const at::Tensor& t) {
  return t.defined() ? handle(t) : nullptr;
}

}  // namespace opweave
