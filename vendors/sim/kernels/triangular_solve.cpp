// The `triangular_solve` family: triangular systems with BLAS trsm on column-major copies, as
// ATen's CPU kernels, batch dims broadcast: triangular_solve (A X = B, op(A) = A or A^T, with a
// copy of the broadcast A) and linalg.solve_triangular (A X = B, or X A = B with left=False).
// DIOPI: diopiTriangularSolve, diopiLinalgSolveTriangular.
#include <cblas.h>
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

struct Triangular {
  View a, b, x;  // a and b broadcast to x's batch dims
  bool upper, transpose, unit, left;
};

inline void trsm(const Triangular& t, int64_t m, int64_t n, const float* a, float* b) {
  cblas_strsm(CblasColMajor, t.left ? CblasLeft : CblasRight, t.upper ? CblasUpper : CblasLower,
              t.transpose ? CblasTrans : CblasNoTrans, t.unit ? CblasUnit : CblasNonUnit,
              lapack::dim(m), lapack::dim(n), 1.0f, a, lapack::dim(t.a.sizes[t.a.ndim - 1]), b,
              lapack::dim(std::max<int64_t>(m, 1)));
}
inline void trsm(const Triangular& t, int64_t m, int64_t n, const double* a, double* b) {
  cblas_dtrsm(CblasColMajor, t.left ? CblasLeft : CblasRight, t.upper ? CblasUpper : CblasLower,
              t.transpose ? CblasTrans : CblasNoTrans, t.unit ? CblasUnit : CblasNonUnit,
              lapack::dim(m), lapack::dim(n), 1.0, a, lapack::dim(t.a.sizes[t.a.ndim - 1]), b,
              lapack::dim(std::max<int64_t>(m, 1)));
}

template <class T>
void solve(const Triangular& t) {
  const int64_t m = t.x.sizes[t.x.ndim - 2], n = t.x.sizes[t.x.ndim - 1];
  if (m == 0 || n == 0) return;
  for (int64_t i = 0; i < batch_count(t.x, 2); ++i) {
    const std::vector<T> a = column_major_copy<T>(batch_item(t.a, 2, i));
    std::vector<T> x = column_major_copy<T>(batch_item(t.b, 2, i));
    trsm(t, m, n, a.data(), x.data());  // a zero diagonal gives inf / nan, as ATen's
    store_matrix(batch_item(t.x, 2, i), x.data(), m);
  }
}

// Reads and checks A [*, n, n], B and out; declines (so ATen raises) what does not fit.
Triangular prepare(diopiConstTensorHandle_t A_h, diopiConstTensorHandle_t B_h,
                   diopiTensorHandle_t out_h, bool left) {
  Triangular t{};
  const View a = input_view(A_h, "A");
  check_matrix_input(a, /*square=*/true, "A");
  const View b = input_view(B_h, "B");
  t.x = output_view(out_h, "out");
  check_dtype(b, dtype_bit(a.dtype), "B");
  check_dtype(t.x, dtype_bit(a.dtype), "out");
  const int64_t n = a.sizes[a.ndim - 1];
  const bool fits = b.ndim >= 2 && t.x.ndim >= 2 && b.sizes[b.ndim - (left ? 2 : 1)] == n &&
                    b.sizes[b.ndim - 2] == t.x.sizes[t.x.ndim - 2] &&
                    b.sizes[b.ndim - 1] == t.x.sizes[t.x.ndim - 1];
  if (!fits)
    failf(diopiNoImplement, "B %s does not fit A %s", b.shape_str().c_str(), a.shape_str().c_str());
  t.a = broadcast_batch(a, t.x, 2);
  t.b = broadcast_batch(b, t.x, 2);
  t.left = left;
  return t;
}

// `cloned` (triangular_solve's copy of the broadcast A) when not null.
void launch_solve(const Kernel& kernel, diopiContextHandle_t ctx, const Triangular& t,
                  const View* cloned) {
  const bool copy_a = cloned != nullptr && cloned->numel() != 0;
  const View c = copy_a ? *cloned : View{};
  launch(kernel, ctx, t.x, [=] {
    if (copy_a) cast_copy(c, t.a);
    float_or_double(t.x.dtype, [&](auto tag) { solve<TypeOf<decltype(tag)>>(t); });
  });
}

}  // namespace

diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiTensorHandle_t cloned_mat, diopiConstTensorHandle_t b,
                                  diopiConstTensorHandle_t mat, bool upper, bool transpose,
                                  bool unitriangular) {
  SIMK_KERNEL(diopiTriangularSolve);
  return guarded(kernel.name, [&] {
    Triangular t = prepare(mat, b, out, /*left=*/true);
    t.upper = upper;
    t.transpose = transpose;
    t.unit = unitriangular;
    const View cloned =
        batched_output(cloned_mat, t.x, t.x.dtype,
                       {t.a.sizes[t.a.ndim - 2], t.a.sizes[t.a.ndim - 1]}, "cloned_mat");
    launch_solve(kernel, ctx, t, &cloned);
  });
}

diopiError_t diopiLinalgSolveTriangular(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t A, diopiConstTensorHandle_t B,
                                        bool upper, bool left, bool unitriangular) {
  SIMK_KERNEL(diopiLinalgSolveTriangular);
  return guarded(kernel.name, [&] {
    Triangular t = prepare(A, B, out, left);
    t.upper = upper;
    t.transpose = false;
    t.unit = unitriangular;
    launch_solve(kernel, ctx, t, nullptr);
  });
}
