// The `geqrf` family: LAPACK geqrf of a batch of matrices [*, m, n] as ATen's CPU kernel calls
// it (column-major copy, optimal workspace): R and the reflectors in a, their scalars in tau.
// DIOPI: diopiGeqrf.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

template <class T>
void geqrf_batch(const View& a_out, const View& tau_out, const View& input) {
  const int64_t m = input.sizes[input.ndim - 2], n = input.sizes[input.ndim - 1];
  if (m == 0 || n == 0 || batch_count(input, 2) == 0) return;
  const int mm = lapack::dim(m), nn = lapack::dim(n);
  std::vector<T> tau(static_cast<size_t>(std::min(m, n)));
  std::vector<T> a = column_major_copy<T>(batch_item(input, 2, 0));
  T query = 0;
  int info = 0;
  lapack::geqrf(mm, nn, a.data(), mm, tau.data(), &query, -1, &info);
  lapack::check_argument_info(info, "geqrf");
  std::vector<T> work(static_cast<size_t>(lapack::workspace(query)));
  for (int64_t b = 0; b < batch_count(input, 2); ++b) {
    if (b > 0) a = column_major_copy<T>(batch_item(input, 2, b));
    lapack::geqrf(mm, nn, a.data(), mm, tau.data(), work.data(), static_cast<int>(work.size()),
                  &info);
    lapack::check_argument_info(info, "geqrf");
    store_matrix(batch_item(a_out, 2, b), a.data(), m);
    store_vector(batch_item(tau_out, 1, b), tau.data());
  }
}

}  // namespace

diopiError_t diopiGeqrf(diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t tau,
                        diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiGeqrf);
  return guarded(kernel.name, [&] {
    const View in = input_view(input, "input");
    check_matrix_input(in, /*square=*/false, "input");
    const int64_t m = in.sizes[in.ndim - 2], n = in.sizes[in.ndim - 1];
    const View a_out = batched_output(out, in, in.dtype, {m, n}, "out");
    const View tau_out = batched_output(tau, in, in.dtype, {std::min(m, n)}, "tau");
    launch(kernel, ctx, a_out, [=] {
      float_or_double(in.dtype,
                      [&](auto tag) { geqrf_batch<TypeOf<decltype(tag)>>(a_out, tau_out, in); });
    });
  });
}
