// The `ldl_factor` family: LDL^T factorization (Bunch-Kaufman) of a batch of symmetric matrices
// with LAPACK sytrf on the lower triangle, as ATen's CPU kernel (the strict upper triangle of LD
// zero, optimal workspace; hermitian is the same for real dtypes). DIOPI: diopiLinalgLdlFactorEx.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

template <class T>
void ldl_batch(const View& ld_out, const View& pivots_out, const View& info_out, const View& a) {
  const int64_t n = a.sizes[a.ndim - 1];
  std::vector<int32_t> infos(static_cast<size_t>(batch_count(a, 2)), 0);
  if (n != 0 && !infos.empty()) {
    const int nn = lapack::dim(n);
    std::vector<int> ipiv(static_cast<size_t>(n));
    std::vector<T> ld = column_major_copy<T>(batch_item(a, 2, 0));
    T query = 0;
    int info = 0;
    lapack::sytrf('L', nn, ld.data(), nn, ipiv.data(), &query, -1, &info);
    lapack::check_argument_info(info, "sytrf");
    std::vector<T> work(static_cast<size_t>(lapack::workspace(query)));
    for (size_t b = 0; b < infos.size(); ++b) {
      ld = column_major_copy<T>(batch_item(a, 2, static_cast<int64_t>(b)));
      zero_triangle(ld, n, n, /*keep_upper=*/false);
      lapack::sytrf('L', nn, ld.data(), nn, ipiv.data(), work.data(), static_cast<int>(work.size()),
                    &info);
      lapack::check_argument_info(info, "sytrf");
      infos[b] = info;
      store_matrix(batch_item(ld_out, 2, static_cast<int64_t>(b)), ld.data(), n);
      store_vector(batch_item(pivots_out, 1, static_cast<int64_t>(b)), ipiv.data());
    }
  }
  unpack(info_out, infos);
}

}  // namespace

diopiError_t diopiLinalgLdlFactorEx(diopiContextHandle_t ctx, diopiTensorHandle_t LD,
                                    diopiTensorHandle_t pivots, diopiTensorHandle_t info,
                                    diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLinalgLdlFactorEx);
  return guarded(kernel.name, [&] {
    const View a = input_view(input, "input");
    check_matrix_input(a, /*square=*/true, "input");
    const int64_t n = a.sizes[a.ndim - 1];
    const View ld = batched_output(LD, a, a.dtype, {n, n}, "LD");
    const View piv = batched_output(pivots, a, diopi_dtype_int32, {n}, "pivots");
    const View inf = batched_output(info, a, diopi_dtype_int32, {}, "info");
    launch(kernel, ctx, ld, [=] {
      float_or_double(a.dtype,
                      [&](auto tag) { ldl_batch<TypeOf<decltype(tag)>>(ld, piv, inf, a); });
    });
  });
}
