#include "opweave/diopi_convert.h"

#include <c10/util/Exception.h>

namespace opweave {

diopiDtype_t to_diopi_dtype(at::ScalarType t) {
  switch (t) {
    case at::kChar: return diopi_dtype_int8;
    case at::kByte: return diopi_dtype_uint8;
    case at::kShort: return diopi_dtype_int16;
    case at::kInt: return diopi_dtype_int32;
    case at::kLong: return diopi_dtype_int64;
    case at::kHalf: return diopi_dtype_float16;
    case at::kFloat: return diopi_dtype_float32;
    case at::kDouble: return diopi_dtype_float64;
    case at::kBool: return diopi_dtype_bool;
    case at::kBFloat16: return diopi_dtype_bfloat16;
    case at::kComplexFloat: return diopi_dtype_complex64;
    case at::kComplexDouble: return diopi_dtype_complex128;
    default: return diopi_dtype_unsupported;
  }
}

at::ScalarType from_diopi_dtype(diopiDtype_t t) {
  switch (t) {
    case diopi_dtype_int8: return at::kChar;
    case diopi_dtype_uint8: return at::kByte;
    case diopi_dtype_int16: return at::kShort;
    case diopi_dtype_int32: return at::kInt;
    case diopi_dtype_int64: return at::kLong;
    case diopi_dtype_float16: return at::kHalf;
    case diopi_dtype_float32: return at::kFloat;
    case diopi_dtype_float64: return at::kDouble;
    case diopi_dtype_bool: return at::kBool;
    case diopi_dtype_bfloat16: return at::kBFloat16;
    case diopi_dtype_complex64: return at::kComplexFloat;
    case diopi_dtype_complex128: return at::kComplexDouble;
    default: TORCH_CHECK(false, "opweave: DIOPI dtype ", static_cast<int>(t), " has no torch dtype");
  }
}

diopiRoundMode_t to_round_mode(const c10::optional<c10::string_view>& mode) {
  if (!mode.has_value()) return RoundModeNone;
  if (*mode == "trunc") return RoundModeTrunc;
  if (*mode == "floor") return RoundModeFloor;
  TORCH_CHECK(false, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found '",
              std::string(*mode), "'");
}

}  // namespace opweave
