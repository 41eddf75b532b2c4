// ATen <-> DIOPI value conversions.
#include "opweave/diopi_convert.h"

#include <c10/util/Exception.h>

namespace opweave {

diopiDtype_t diopi_dtype(c10::ScalarType t) noexcept {
  switch (t) {
    case c10::ScalarType::Char:
      return diopi_dtype_int8;
    case c10::ScalarType::Byte:
      return diopi_dtype_uint8;
    case c10::ScalarType::Short:
      return diopi_dtype_int16;
    case c10::ScalarType::Int:
      return diopi_dtype_int32;
    case c10::ScalarType::Long:
      return diopi_dtype_int64;
    case c10::ScalarType::Half:
      return diopi_dtype_float16;
    case c10::ScalarType::Float:
      return diopi_dtype_float32;
    case c10::ScalarType::Double:
      return diopi_dtype_float64;
    case c10::ScalarType::Bool:
      return diopi_dtype_bool;
    case c10::ScalarType::BFloat16:
      return diopi_dtype_bfloat16;
    case c10::ScalarType::ComplexHalf:
      return diopi_dtype_complex32;
    case c10::ScalarType::ComplexFloat:
      return diopi_dtype_complex64;
    case c10::ScalarType::ComplexDouble:
      return diopi_dtype_complex128;
    default:
      return diopi_dtype_unsupported;
  }
}

c10::ScalarType aten_dtype(diopiDtype_t t) noexcept {
  switch (t) {
    case diopi_dtype_int8:
      return c10::ScalarType::Char;
    case diopi_dtype_uint8:
      return c10::ScalarType::Byte;
    case diopi_dtype_int16:
      return c10::ScalarType::Short;
    case diopi_dtype_int32:
      return c10::ScalarType::Int;
    case diopi_dtype_int64:
      return c10::ScalarType::Long;
    case diopi_dtype_float16:
      return c10::ScalarType::Half;
    case diopi_dtype_float32:
      return c10::ScalarType::Float;
    case diopi_dtype_tfloat32:
      return c10::ScalarType::Float;  // storage is float32
    case diopi_dtype_float64:
      return c10::ScalarType::Double;
    case diopi_dtype_bool:
      return c10::ScalarType::Bool;
    case diopi_dtype_bfloat16:
      return c10::ScalarType::BFloat16;
    case diopi_dtype_complex32:
      return c10::ScalarType::ComplexHalf;
    case diopi_dtype_complex64:
      return c10::ScalarType::ComplexFloat;
    case diopi_dtype_complex128:
      return c10::ScalarType::ComplexDouble;
    default:
      return c10::ScalarType::Undefined;  // uint16/32/64 do not exist in torch 1.13
  }
}

diopiScalar_t diopi_scalar(const c10::Scalar& s) {
  diopiScalar_t out{};
  if (s.isFloatingPoint()) {
    out.stype = diopi_dtype_float64;
    out.fval = s.toDouble();
  } else if (s.isIntegral(/*includeBool=*/true)) {  // DIOPI passes bools as int64 too
    out.stype = diopi_dtype_int64;
    out.ival = s.isBoolean() ? static_cast<int64_t>(s.toBool()) : s.toLong();
  } else {
    TORCH_CHECK(false, "opweave: complex scalars cannot be passed to DIOPI kernels");
  }
  return out;
}

}  // namespace opweave
