// The `inv` family: inverse of a batch of square matrices as ATen's CPU kernel computes it
// (linalg_inv_ex solves A X = I through linalg_solve_ex): LU of A, or of A^T when A is contiguous
// (getrf), then getrs on the identity ('T' for the transpose). DIOPI: diopiLinalgInvEx.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

template <class T>
void inverse(const View& out, const View& info_out, const View& a, bool use_transpose) {
  const View m = use_transpose ? matrix_transpose(a) : a;
  const int64_t n = a.sizes[a.ndim - 1];
  const int64_t batches = batch_count(a, 2);
  std::vector<int> ipiv(static_cast<size_t>(std::max<int64_t>(n, 1)));
  std::vector<int32_t> infos(static_cast<size_t>(batches));
  for (int64_t b = 0; b < batches; ++b) {
    std::vector<T> lu = column_major_copy<T>(batch_item(m, 2, b));
    infos[static_cast<size_t>(b)] = lu_factor(lu, n, n, ipiv.data());
    if (n == 0) continue;
    std::vector<T> x(static_cast<size_t>(n * n), T(0));
    for (int64_t i = 0; i < n; ++i) x[static_cast<size_t>(i * n + i)] = T(1);
    int info = 0;
    const int nn = lapack::dim(n);
    // a singular U gives inf / nan, as ATen's (info reports it)
    lapack::getrs(use_transpose ? 'T' : 'N', nn, nn, lu.data(), nn, ipiv.data(), x.data(), nn,
                  &info);
    lapack::check_argument_info(info, "getrs");
    store_matrix(batch_item(out, 2, b), x.data(), n);
  }
  unpack(info_out, infos);
}

void linalg_inv_ex(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t inverse_h,
                   diopiTensorHandle_t info_h, diopiConstTensorHandle_t A_h) {
  const View a = input_view(A_h, "A");
  check_matrix_input(a, /*square=*/true, "A");
  const int64_t n = a.sizes[a.ndim - 1];
  const View out = batched_output(inverse_h, a, a.dtype, {n, n}, "inverse");
  const View info = batched_output(info_h, a, diopi_dtype_int32, {}, "info");
  const bool use_transpose = a.is_contiguous();
  launch(kernel, ctx, out, [=] {
    float_or_double(a.dtype,
                    [&](auto tag) { inverse<TypeOf<decltype(tag)>>(out, info, a, use_transpose); });
  });
}

}  // namespace

diopiError_t diopiLinalgInvEx(diopiContextHandle_t ctx, diopiTensorHandle_t inverse,
                              diopiTensorHandle_t info, diopiConstTensorHandle_t A) {
  SIMK_KERNEL(diopiLinalgInvEx);
  return guarded(kernel.name, [&] { linalg_inv_ex(kernel, ctx, inverse, info, A); });
}
