// list_views: the views of a tensor list (cat, stack), validated on the calling thread.
#ifndef SIM_KERNELS_COMMON_TENSOR_LIST_H_
#define SIM_KERNELS_COMMON_TENSOR_LIST_H_

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

inline std::vector<View> list_views(diopiConstTensorHandle_t* tensors, int64_t n,
                                    const char* what) {
  SIMK_CHECK(n > 0 && tensors != nullptr, "%s: expected a non-empty list of tensors", what);
  std::vector<View> views;
  for (int64_t i = 0; i < n; ++i) {
    views.push_back(input_view(tensors[i], what));
    check_dtype(views.back(), kAllTypes, what);
  }
  return views;
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_TENSOR_LIST_H_
