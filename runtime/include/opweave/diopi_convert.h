// Conversions between ATen values and DIOPI's C value types.
#ifndef OPWEAVE_DIOPI_CONVERT_H_
#define OPWEAVE_DIOPI_CONVERT_H_

#include <ATen/core/Tensor.h>
#include <c10/core/Scalar.h>
#include <c10/core/ScalarType.h>
#include <diopi/diopirt.h>

namespace opweave {

// diopi_dtype_unsupported for ATen dtypes DIOPI cannot express.
diopiDtype_t diopi_dtype(c10::ScalarType t) noexcept;
// c10::ScalarType::Undefined for DIOPI dtypes ATen (1.13) cannot express.
c10::ScalarType aten_dtype(diopiDtype_t t) noexcept;

// Floating scalars become float64, integral and bool ones int64, as DIOPI expects.
diopiScalar_t diopi_scalar(const c10::Scalar& s);

// A view of sizes/strides that stays valid while `a` does.
inline diopiSize_t diopi_size(c10::IntArrayRef a) {
  return diopiSize_t{a.data(), static_cast<int64_t>(a.size())};
}

}  // namespace opweave

#endif  // OPWEAVE_DIOPI_CONVERT_H_
