// The `lu_factor` family: LU factorization with partial pivoting of a batch of matrices
// [*, m, n] with LAPACK getrf, as ATen's CPU kernel (pivots 1-based, info per matrix; an empty
// input leaves LU and pivots empty and info 0). DIOPI: diopiLinalgLuFactorEx.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

diopiError_t diopiLinalgLuFactorEx(diopiContextHandle_t ctx, diopiTensorHandle_t LU,
                                   diopiTensorHandle_t pivots, diopiTensorHandle_t info,
                                   diopiConstTensorHandle_t A) {
  SIMK_KERNEL(diopiLinalgLuFactorEx);
  return guarded(kernel.name, [&] {
    const View a = input_view(A, "A");
    check_matrix_input(a, /*square=*/false, "A");
    const int64_t m = a.sizes[a.ndim - 2], n = a.sizes[a.ndim - 1];
    const View lu = batched_output(LU, a, a.dtype, {m, n}, "LU");
    const View piv = batched_output(pivots, a, diopi_dtype_int32, {std::min(m, n)}, "pivots");
    const View inf = batched_output(info, a, diopi_dtype_int32, {}, "info");
    launch(kernel, ctx, lu, [=] {
      float_or_double(a.dtype, [&](auto tag) {
        std::vector<int32_t> infos =
            factor_batch<TypeOf<decltype(tag)>>(a, lu, piv, [](int64_t, const auto&, bool) {});
        unpack(inf, infos);
      });
    });
  });
}
