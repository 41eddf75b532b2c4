// The `addr` family: out = beta * input + alpha * outer(vec1, vec2), input broadcast to
// [vec1.size(0), vec2.size(0)]; beta 0 ignores input (NaN included). A floating element is
// computed in double and rounded once, so bfloat16 and float16 carry a single rounding; an
// integral one in int64, wrapping as ATen's does (a fractional beta or alpha is refused, as
// ATen refuses it). DIOPI extension: diopiAddr.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// r[i, j] = beta * r[i, j] + alpha * a[i] * b[j] (r unread when use_input is false), in T.
template <class T>
void outer_update(std::vector<T>& r, const std::vector<T>& a, const std::vector<T>& b, T beta,
                  T alpha, bool use_input) {
  const size_t m = b.size();
  for (size_t i = 0; i < a.size(); ++i) {
    for (size_t j = 0; j < m; ++j) {
      const T product = alpha * (a[i] * b[j]);
      r[i * m + j] = use_input ? beta * r[i * m + j] + product : product;
    }
  }
}

// int64 values as uint64_t, whose arithmetic wraps like ATen's int64 (prod.cpp does the same)
// without signed-overflow UB.
std::vector<uint64_t> as_unsigned(const std::vector<int64_t>& x) {
  return std::vector<uint64_t>(x.begin(), x.end());
}

}  // namespace

diopiError_t diopiAddr(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t vec1_h,
                       diopiConstTensorHandle_t vec2_h, const diopiScalar_t* beta_arg,
                       const diopiScalar_t* alpha_arg) {
  SIMK_KERNEL(diopiAddr);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View v1 = input_view(vec1_h, "vec1");
    const View v2 = input_view(vec2_h, "vec2");
    check_dtype(out, kFloatingAndInt, "out");
    SIMK_CHECK(v1.dtype == out.dtype && v2.dtype == out.dtype,
               "vec1, vec2 and out must share one dtype");
    SIMK_CHECK(v1.ndim == 1 && v2.ndim == 1, "expected 1-D vectors, got %d-D and %d-D", v1.ndim,
               v2.ndim);
    SIMK_CHECK(out.ndim == 2 && out.sizes[0] == v1.sizes[0] && out.sizes[1] == v2.sizes[0],
               "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
               static_cast<long long>(v1.sizes[0]), static_cast<long long>(v2.sizes[0]));
    const Scalar beta = scalar_or(beta_arg, Scalar::of_int(1));
    const Scalar alpha = scalar_or(alpha_arg, Scalar::of_int(1));
    const bool integral = is_integral(out.dtype);
    SIMK_CHECK(!integral || (!beta.is_float && !alpha.is_float),
               "for integral input tensors, beta and alpha must not be floating point numbers");
    const bool use_input = input_h != nullptr && beta.as<double>() != 0;
    View in;
    if (use_input) {
      in = broadcast_to(input_view(input_h, "input"), out, "input");
      SIMK_CHECK(in.dtype == out.dtype, "input and out must share one dtype");
    }
    launch(kernel, ctx, out, [=] {
      const size_t size = static_cast<size_t>(v1.sizes[0] * v2.sizes[0]);
      if (integral) {
        std::vector<uint64_t> r =
            use_input ? as_unsigned(packed<int64_t>(in)) : std::vector<uint64_t>(size, 0);
        outer_update(r, as_unsigned(packed<int64_t>(v1)), as_unsigned(packed<int64_t>(v2)),
                     static_cast<uint64_t>(beta.i), static_cast<uint64_t>(alpha.i), use_input);
        std::vector<int64_t> values(r.begin(), r.end());
        unpack(out, values);
        return;
      }
      std::vector<double> r = use_input ? packed<double>(in) : std::vector<double>(size, 0.0);
      outer_update(r, packed<double>(v1), packed<double>(v2), beta.as<double>(), alpha.as<double>(),
                   use_input);
      unpack(out, r);
    });
  });
}
