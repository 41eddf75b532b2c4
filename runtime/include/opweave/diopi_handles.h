// Zero-cost conversions between at::Tensor and DIOPI tensor handles.
//
// A diopiTensorHandle_t is the address of an at::Tensor owned by the caller (the generated
// wrapper); it is borrowed for the duration of the kernel call and must not be kept.
#ifndef OPWEAVE_DIOPI_HANDLES_H_
#define OPWEAVE_DIOPI_HANDLES_H_

#include <ATen/core/Tensor.h>
#include <c10/util/Optional.h>
#include <diopi/diopirt.h>

namespace opweave {

// Mutable handle (outputs, in-place inputs). Tensor is a shallow handle, so a const reference
// may still name a tensor the kernel writes (structured out= arguments are `const Tensor&`).
inline diopiTensorHandle_t handle(at::Tensor& t) {
  return reinterpret_cast<diopiTensorHandle_t>(&t);
}
inline diopiTensorHandle_t handle(const at::Tensor& t) {
  return reinterpret_cast<diopiTensorHandle_t>(const_cast<at::Tensor*>(&t));
}
inline diopiConstTensorHandle_t const_handle(const at::Tensor& t) {
  return reinterpret_cast<diopiConstTensorHandle_t>(&t);
}

// Optional inputs: DIOPI passes nullptr for "absent"; an undefined tensor counts as absent.
inline diopiConstTensorHandle_t const_handle(const c10::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? const_handle(*t) : nullptr;
}
inline diopiTensorHandle_t handle(const c10::optional<at::Tensor>& t) {
  return t.has_value() && t->defined() ? handle(*t) : nullptr;
}

inline const at::Tensor& tensor(diopiConstTensorHandle_t h) {
  return *reinterpret_cast<const at::Tensor*>(h);
}
inline at::Tensor& tensor(diopiTensorHandle_t h) { return *reinterpret_cast<at::Tensor*>(h); }

}  // namespace opweave

#endif  // OPWEAVE_DIOPI_HANDLES_H_
