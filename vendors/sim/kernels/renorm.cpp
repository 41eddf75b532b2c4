// The `renorm` family: Rescales each slice of input along dim whose p-norm exceeds maxnorm to
// norm maxnorm (factor maxnorm / (norm + 1e-7), in the accumulate type); other slices are kept.
// DIOPI extension: diopiRenorm.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/vector_norm.h"

using namespace simk;

diopiError_t diopiRenorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, const diopiScalar_t* p_s, int64_t dim,
                         const diopiScalar_t* maxnorm_s) {
  SIMK_KERNEL(diopiRenorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
               "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
               dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
    const double p = scalar_arg(p_s, "p").as<double>();
    const double maxnorm = scalar_arg(maxnorm_s, "maxnorm").as<double>();
    SIMK_CHECK(p > 0, "renorm: non-positive norm (p = %g) not supported", p);
    SIMK_CHECK(maxnorm >= 0, "renorm: expected maxnorm to be >= 0 but got %g", maxnorm);
    SIMK_CHECK(input.ndim > 1, "renorm: input needs at least 2 dimensions, got %d", input.ndim);
    const int d = wrap_dim(dim, input.ndim);
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;  // float for the 16-bit types, as ATen's factor
        for (int64_t i = 0; i < input.sizes[d]; ++i) {
          const View slice = select(input, d, i);
          std::vector<T> x = packed<T>(slice);
          const A norm = static_cast<A>(vector_norm(packed<double>(slice), p));
          const A factor = norm > static_cast<A>(maxnorm)
                               ? static_cast<A>(maxnorm) / (norm + static_cast<A>(1e-7))
                               : A(1);
          for (T& v : x) v = convert<T>(static_cast<A>(load(v) * factor));
          unpack(select(out, d, i), x);
        }
      });
    });
  });
}
