// The `eye` family: ones on the main diagonal of out ([n, m], any dtype), zeros elsewhere.
// DIOPI: diopiEye.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiEye(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n, int64_t m) {
  SIMK_KERNEL(diopiEye);
  return guarded(kernel.name, [&] {
    const View o = output_view(out, "out");
    SIMK_CHECK(n >= 0 && m >= 0, "n and m must be non-negative, got %lld and %lld",
               static_cast<long long>(n), static_cast<long long>(m));
    SIMK_CHECK(o.ndim == 2 && o.sizes[0] == n && o.sizes[1] == m,
               "out has shape %s, expected [%lld, %lld]", o.shape_str().c_str(),
               static_cast<long long>(n), static_cast<long long>(m));
    check_dtype(o, kAllTypes, "out");
    launch(kernel, ctx, o, [=] {
      // 0 / 1 are exact in every dtype; unpack converts to out's dtype and layout
      std::vector<float> eye(static_cast<size_t>(n * m), 0.0f);
      for (int64_t i = 0; i < std::min(n, m); ++i) eye[static_cast<size_t>(i * m + i)] = 1.0f;
      unpack(o, eye);
    });
  });
}
