// The `cholesky` family: Cholesky factor of a batch of symmetric positive-definite matrices with
// LAPACK potrf, as ATen's CPU kernel (the other triangle zeroed before the factorization; a
// matrix that is not positive-definite keeps potrf's partial factor, info > 0).
// DIOPI: diopiCholesky.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

template <class T>
void cholesky_batch(const View& out, const View& info_out, const View& a, bool upper) {
  const int64_t n = a.sizes[a.ndim - 1];
  const int64_t batches = batch_count(a, 2);
  std::vector<int32_t> infos(static_cast<size_t>(batches), 0);
  for (int64_t b = 0; b < batches && n != 0; ++b) {
    std::vector<T> l = column_major_copy<T>(batch_item(a, 2, b));
    zero_triangle(l, n, n, /*keep_upper=*/upper);
    int info = 0;
    lapack::potrf(upper ? 'U' : 'L', lapack::dim(n), l.data(), lapack::dim(n), &info);
    lapack::check_argument_info(info, "potrf");
    infos[static_cast<size_t>(b)] = info;
    store_matrix(batch_item(out, 2, b), l.data(), n);
  }
  unpack(info_out, infos);
}

void cholesky(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
              diopiTensorHandle_t info_h, diopiConstTensorHandle_t mat_h, bool upper,
              bool checkerror) {
  // Raising on a non-positive-definite matrix needs its info on the host: the caller's (ATen
  // checks the info tensor itself when it asks for check_errors=False)
  if (checkerror) failf(diopiNoImplement, "checkerror=true is not supported");
  const View a = input_view(mat_h, "mat");
  check_matrix_input(a, /*square=*/true, "mat");
  const int64_t n = a.sizes[a.ndim - 1];
  const View out = batched_output(out_h, a, a.dtype, {n, n}, "out");
  const View info = batched_output(info_h, a, diopi_dtype_int32, {}, "info");
  launch(kernel, ctx, out, [=] {
    float_or_double(a.dtype,
                    [&](auto tag) { cholesky_batch<TypeOf<decltype(tag)>>(out, info, a, upper); });
  });
}

}  // namespace

diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiTensorHandle_t info, diopiConstTensorHandle_t mat, bool upper,
                           bool checkerror) {
  SIMK_KERNEL(diopiCholesky);
  return guarded(kernel.name, [&] { cholesky(kernel, ctx, out, info, mat, upper, checkerror); });
}
