// OptionalView: the optional tensors of layer_norm and batch_norm (weight, bias, running stats,
// the gradients autograd may not want: DIOPI passes NULL), read on the calling thread.
#ifndef SIM_KERNELS_COMMON_OPTIONAL_VIEW_H_
#define SIM_KERNELS_COMMON_OPTIONAL_VIEW_H_

#include <cmath>
#include <vector>

#include "elementwise.h"
#include "shape_ops.h"

namespace simk {

struct OptionalView {
  View v;
  bool present = false;
};

inline OptionalView optional_input(diopiConstTensorHandle_t h, const char* what) {
  OptionalView o;
  if (h != nullptr) {
    o.v = input_view(h, what);
    o.present = true;
    check_dtype(o.v, kFloating, what);
  }
  return o;
}

inline OptionalView optional_output(diopiTensorHandle_t h, const char* what) {
  OptionalView o;
  if (h != nullptr) {
    o.v = output_view(h, what);
    o.present = true;
    check_dtype(o.v, kFloating, what);
  }
  return o;
}

inline std::vector<double> packed_or(const OptionalView& o, int64_t n, double fallback) {
  if (!o.present) return std::vector<double>(static_cast<size_t>(n), fallback);
  return packed<double>(o.v);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_OPTIONAL_VIEW_H_
