// The `addbmm` family: out = beta * input + alpha * (the sum over b of batch1[b] @ batch2[b]),
// input broadcast to [n, p] (beta 0 ignores input, NaN included). DIOPI extension: diopiAddbmm.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiAddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t batch1_h,
                         diopiConstTensorHandle_t batch2_h, double beta, double alpha) {
  SIMK_KERNEL(diopiAddbmm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View b1 = input_view(batch1_h, "batch1");
    const View b2 = input_view(batch2_h, "batch2");
    check_dtype(out, kFloat32Or64, "out");
    check_dtype(b1, kFloat32Or64, "batch1");
    check_dtype(b2, kFloat32Or64, "batch2");
    SIMK_CHECK(b1.ndim == 3 && b2.ndim == 3, "batch1 and batch2 must be 3-D, got %s and %s",
               b1.shape_str().c_str(), b2.shape_str().c_str());
    SIMK_CHECK(b1.sizes[0] == b2.sizes[0] && b1.sizes[2] == b2.sizes[1],
               "batch1 %s and batch2 %s cannot be multiplied", b1.shape_str().c_str(),
               b2.shape_str().c_str());
    const int64_t nb = b1.sizes[0], n = b1.sizes[1], k = b1.sizes[2], p = b2.sizes[2];
    SIMK_CHECK(out.ndim == 2 && out.sizes[0] == n && out.sizes[1] == p,
               "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
               static_cast<long long>(n), static_cast<long long>(p));
    const bool use_input = beta != 0;
    View in;
    if (use_input) {
      in = broadcast_to(input_view(input_h, "input"), out, "input");
      check_dtype(in, kFloat32Or64, "input");
    }
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(b1), y = packed<double>(b2);
      std::vector<double> r = use_input ? packed<double>(in) : std::vector<double>(n * p, 0.0);
      for (int64_t i = 0; i < n; ++i)
        for (int64_t j = 0; j < p; ++j) {
          double s = 0;
          for (int64_t b = 0; b < nb; ++b)
            for (int64_t t = 0; t < k; ++t) s += x[(b * n + i) * k + t] * y[(b * k + t) * p + j];
          const size_t o = static_cast<size_t>(i * p + j);
          r[o] = (use_input ? beta * r[o] : 0.0) + alpha * s;
        }
      unpack(out, r);
    });
  });
}
