// The fill value of masked_fill / index_fill: a scalar, or the single element of a 0-dim tensor
// (any dtype, read on the stream), converted to the output's element type.
#ifndef SIM_KERNELS_COMMON_FILL_VALUE_H_
#define SIM_KERNELS_COMMON_FILL_VALUE_H_

#include "elementwise.h"
#include "scalar.h"

namespace simk {

struct FillValue {
  bool from_tensor = false;
  View tensor;
  Scalar scalar;

  // Checks the argument: the tensor when `value_h` is given, else the scalar.
  static FillValue of(diopiConstTensorHandle_t value_h, const diopiScalar_t* value_s) {
    FillValue v;
    v.from_tensor = value_h != nullptr;
    if (v.from_tensor) {
      v.tensor = input_view(value_h, "value");
      check_dtype(v.tensor, kAllTypes, "value");
      SIMK_CHECK(v.tensor.ndim == 0, "value must be a 0-dim tensor, got %s",
                 v.tensor.shape_str().c_str());
    } else {
      v.scalar = scalar_arg(value_s, "value");
    }
    return v;
  }

  // The value as T (on the stream: a tensor value is read there).
  template <class T>
  T get() const {
    T v;
    if (from_tensor) {
      cast_copy(contiguous_view(&v, dtype_of<T>, nullptr, 0), tensor);
    } else {
      v = scalar.is_float ? convert<T>(scalar.f) : convert<T>(scalar.i);
    }
    return v;
  }
};

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_FILL_VALUE_H_
