// 3-D pooling geometry over the last three dims of [N, C, D, H, W] or [C, D, H, W] inputs, shared
// by max_pool3d and avg_pool3d: the 2-D arithmetic of pool.h (pooled_size) per dim.
#ifndef SIM_KERNELS_COMMON_POOL3D_H_
#define SIM_KERNELS_COMMON_POOL3D_H_

#include "pool.h"

namespace simk {

struct Pool3dGeom {
  int64_t planes = 1;
  int64_t in[3] = {}, out[3] = {}, k[3] = {}, s[3] = {}, p[3] = {}, d[3] = {};
  int64_t in_plane() const { return in[0] * in[1] * in[2]; }
  int64_t out_plane() const { return out[0] * out[1] * out[2]; }
};

inline Pool3dGeom pool3d_geometry(const View& input, diopiSize_t kernel_size, diopiSize_t stride,
                                  diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
  SIMK_CHECK(input.ndim == 4 || input.ndim == 5, "input must be 4-D or 5-D, got %s",
             input.shape_str().c_str());
  SIMK_CHECK(kernel_size.len == 1 || kernel_size.len == 3, "kernel_size must have 1 or 3 values");
  Pool3dGeom g;
  for (int i = 0; i < input.ndim - 3; ++i) g.planes *= input.sizes[i];
  for (int i = 0; i < 3; ++i) {
    g.in[i] = input.sizes[input.ndim - 3 + i];
    g.k[i] = at_or_last(kernel_size, i, 1);
    g.s[i] = at_or_last(stride, i, g.k[i]);
    g.p[i] = at_or_last(padding, i, 0);
    g.d[i] = at_or_last(dilation, i, 1);
    g.out[i] = pooled_size(g.in[i], g.k[i], g.p[i], g.s[i], g.d[i], ceil_mode);
  }
  return g;
}

// Checks that `t` is `input` with D, H, W replaced by the pooled sizes.
inline void check_pooled3d(const View& t, const View& input, const Pool3dGeom& g,
                           const char* what) {
  View expected = input;
  for (int i = 0; i < 3; ++i) expected.sizes[input.ndim - 3 + i] = g.out[i];
  SIMK_CHECK(same_shape(t, expected), "%s has shape %s, expected %s", what, t.shape_str().c_str(),
             expected.shape_str().c_str());
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_POOL3D_H_
