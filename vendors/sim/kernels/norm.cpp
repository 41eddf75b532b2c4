// The `norm` family: Vector p-norm over dim (every dim when empty; p null is 2, inf / -inf the
// largest / smallest magnitude, 0 the count of nonzeros), computed in double; keepdim is read
// from out's shape. DIOPI: diopiNorm.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, const diopiScalar_t* p_arg,
                       diopiSize_t dim) {
  SIMK_KERNEL(diopiNorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    check_dtype(out, kFloating, "out");
    const double p = scalar_or(p_arg, Scalar::of_double(2.0)).as<double>();
    bool reduced[kMaxDims] = {};
    const bool all = dim.data == nullptr || dim.len == 0;
    for (int d = 0; d < input.ndim; ++d) reduced[d] = all;
    for (int64_t k = 0; !all && k < dim.len; ++k) reduced[wrap_dim(dim.data[k], input.ndim)] = true;
    // out: the kept dims in order (with or without the reduced ones as 1).
    int64_t kept_numel = 1;
    int64_t kstride[kMaxDims] = {};
    for (int d = input.ndim - 1; d >= 0; --d) {
      if (reduced[d]) continue;
      kstride[d] = kept_numel;
      kept_numel *= input.sizes[d];
    }
    SIMK_CHECK(out.numel() == kept_numel,
               "out has shape %s; the norm of input %s has %lld elements", out.shape_str().c_str(),
               input.shape_str().c_str(), static_cast<long long>(kept_numel));
    for (int d = 0; d < input.ndim; ++d)
      SIMK_CHECK(!reduced[d] || input.sizes[d] > 0 || (p >= 0 && !std::isinf(p)),
                 "the %g-norm of an empty dim (dim %d of input %s) is undefined", p, d,
                 input.shape_str().c_str());
    const View in = input;
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(in);
      const bool inf = std::isinf(p);
      std::vector<double> acc(static_cast<size_t>(kept_numel),
                              inf ? (p > 0 ? 0.0 : std::numeric_limits<double>::infinity()) : 0.0);
      for (size_t i = 0; i < x.size(); ++i) {
        int64_t rest = static_cast<int64_t>(i), o = 0;
        for (int d = in.ndim - 1; d >= 0; --d) {
          const int64_t c = rest % in.sizes[d];
          rest /= in.sizes[d];
          if (!reduced[d]) o += c * kstride[d];
        }
        const double a = std::fabs(x[i]);
        double& r = acc[o];
        if (std::isnan(a)) {
          r = a;
        } else if (std::isnan(r)) {
          continue;
        } else if (inf) {
          r = p > 0 ? std::max(r, a) : std::min(r, a);
        } else if (p == 0) {
          r += a != 0 ? 1.0 : 0.0;
        } else if (p == 1) {
          r += a;
        } else if (p == 2) {
          r += a * a;
        } else {
          r += std::pow(a, p);
        }
      }
      if (!inf && p != 0 && p != 1)
        for (double& r : acc) r = p == 2 ? std::sqrt(r) : std::pow(r, 1.0 / p);
      unpack(out, acc);
    });
  });
}
