// Matrix products through OpenBLAS for mm, bmm, addmm, baddbmm: computed in float (float16,
// bfloat16, float32) or double (float64); operands that are not already dense matrices of that
// type are packed first, and the result is written back through out's layout. A 16-bit product
// is accumulated in float and rounded once, as ATen 2.x and oneDNN do: ATen 1.13's small
// bfloat16 products summed in bfloat16 (its reference gemm loops), and the float64 referee
// (OpInfo, conformance) prefers the once-rounded value.
#ifndef SIM_KERNELS_COMMON_MATMUL_H_
#define SIM_KERNELS_COMMON_MATMUL_H_

#include <cblas.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "blas.h"
#include "elementwise.h"
#include "scalar.h"

namespace simk {

// A batch of matrices as BLAS sees it: element (b, i, j) at data + b * batch_stride + i * ld
// (or j * ld when transposed) + j (or i).
struct Matrices {
  const char* data = nullptr;
  int64_t batch_stride = 0;  // elements
  int64_t ld = 1;
  bool trans = false;
};

// Last two dims of v: rows, cols.
inline int64_t rows(const View& v) { return v.sizes[v.ndim - 2]; }

inline int64_t cols(const View& v) { return v.sizes[v.ndim - 1]; }

inline int64_t batch_stride(const View& v) { return v.ndim == 3 ? v.strides[0] : 0; }

// `v` ([B,] R, C) usable in place: dtype `ct` and each matrix dense in rows or in columns.
inline bool direct_operand(const View& v, diopiDtype_t ct, Matrices* m) {
  if (v.dtype != ct) return false;
  const int64_t r = rows(v), c = cols(v);
  const int64_t rs = v.strides[v.ndim - 2], cs = v.strides[v.ndim - 1];
  m->data = v.data;
  m->batch_stride = batch_stride(v);
  if ((cs == 1 || c == 1) && rs >= std::max<int64_t>(1, c)) {
    m->ld = rs;
    m->trans = false;
    return true;
  }
  if ((rs == 1 || r == 1) && cs >= std::max<int64_t>(1, r)) {
    m->ld = cs;
    m->trans = true;
    return true;
  }
  return false;
}

// `v` as BLAS operands of dtype ct, packed into `scratch` when needed.
inline Matrices operand(const View& v, diopiDtype_t ct, Buffer& scratch) {
  Matrices m;
  if (direct_operand(v, ct, &m)) return m;
  scratch = Buffer(ct, v.sizes, v.ndim);
  cast_copy(scratch.view(), v);
  const bool ok = direct_operand(scratch.view(), ct, &m);
  (void)ok;
  return m;
}

inline void gemm(diopiDtype_t ct, const Matrices& a, const Matrices& b, char* c, int64_t ldc,
                 int64_t m, int64_t n, int64_t k, double alpha, double beta) {
  const auto ta = a.trans ? CblasTrans : CblasNoTrans;
  const auto tb = b.trans ? CblasTrans : CblasNoTrans;
  if (ct == diopi_dtype_float32) {
    cblas_sgemm(CblasRowMajor, ta, tb, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(k), static_cast<float>(alpha),
                reinterpret_cast<const float*>(a.data), static_cast<blasint>(a.ld),
                reinterpret_cast<const float*>(b.data), static_cast<blasint>(b.ld),
                static_cast<float>(beta), reinterpret_cast<float*>(c), static_cast<blasint>(ldc));
  } else {
    cblas_dgemm(CblasRowMajor, ta, tb, static_cast<blasint>(m), static_cast<blasint>(n),
                static_cast<blasint>(k), alpha, reinterpret_cast<const double*>(a.data),
                static_cast<blasint>(a.ld), reinterpret_cast<const double*>(b.data),
                static_cast<blasint>(b.ld), beta, reinterpret_cast<double*>(c),
                static_cast<blasint>(ldc));
  }
}

// c[r, col] *= factor for an m x n matrix with leading dimension ld; factor 0 writes zeros (the
// old contents may be NaN).
inline void scale_rows(diopiDtype_t ct, char* c, int64_t ld, int64_t m, int64_t n, double factor) {
  for (int64_t r = 0; r < m; ++r) {
    for (int64_t col = 0; col < n; ++col) {
      if (ct == diopi_dtype_float32) {
        float* p = reinterpret_cast<float*>(c) + r * ld + col;
        *p = factor == 0 ? 0.f : static_cast<float>(*p * factor);
      } else {
        double* p = reinterpret_cast<double*>(c) + r * ld + col;
        *p = factor == 0 ? 0.0 : *p * factor;
      }
    }
  }
}

// out = beta * bias + alpha * (a @ b) for every batch; bias (broadcast to out) only when
// has_bias. Runs on the stream.
inline void matmul(const View& out, const View& a, const View& b, const View& bias, bool has_bias,
                   double alpha, double beta) {
  const diopiDtype_t ct =
      out.dtype == diopi_dtype_float64 ? diopi_dtype_float64 : diopi_dtype_float32;
  const int64_t batches = out.ndim == 3 ? out.sizes[0] : 1;
  const int64_t m = rows(out), n = cols(out), k = cols(a);
  if (out.numel() == 0) return;
  Buffer sa, sb, sc;
  const Matrices ma = operand(a, ct, sa), mb = operand(b, ct, sb);
  // C: out itself when it is a dense row-major batch of the compute type that no operand
  // reads, else scratch copied to out at the end.
  Matrices mc;
  const bool direct_c = direct_operand(out, ct, &mc) && !mc.trans &&
                        !(out.ndim == 3 && out.strides[0] < m * mc.ld && batches > 1) &&
                        !may_overlap(out, a) && !may_overlap(out, b);
  View c = out;
  if (!direct_c) {
    sc = Buffer(ct, out.sizes, out.ndim);
    c = sc.view();
    mc.data = c.data;
    mc.ld = std::max<int64_t>(1, n);
    mc.batch_stride = c.ndim == 3 ? c.strides[0] : 0;
  }
  const bool use_bias = has_bias && beta != 0;  // beta == 0 ignores bias (even NaN), as ATen
  if (use_bias) cast_copy(c, bias);
  const int64_t esize = dtype_size(ct);
  for (int64_t i = 0; i < batches; ++i) {
    char* cp = const_cast<char*>(mc.data) + i * mc.batch_stride * esize;
    if (k == 0) {  // empty inner dimension: the product is zero
      scale_rows(ct, cp, mc.ld, m, n, use_bias ? beta : 0.0);
      continue;
    }
    Matrices ai = ma, bi = mb;
    ai.data += i * ma.batch_stride * esize;
    bi.data += i * mb.batch_stride * esize;
    gemm(ct, ai, bi, cp, mc.ld, m, n, k, alpha, use_bias ? beta : 0.0);
  }
  if (!direct_c) cast_copy(out, c);
}

inline void check_blas_size(int64_t v, const char* what) {
  SIMK_CHECK(v <= INT_MAX, "%s = %lld exceeds the BLAS index range", what,
             static_cast<long long>(v));
}

// Shapes: out [.., M, N] = a [.., M, K] @ b [.., K, N], rank `nd` for all three.
inline void check_matmul(const View& out, const View& a, const View& b, int nd) {
  SIMK_CHECK(a.ndim == nd && b.ndim == nd && out.ndim == nd,
             "expected %d-D tensors, got input %s, mat2 %s, out %s", nd, a.shape_str().c_str(),
             b.shape_str().c_str(), out.shape_str().c_str());
  SIMK_CHECK(cols(a) == rows(b) && rows(out) == rows(a) && cols(out) == cols(b) &&
                 (nd == 2 || (a.sizes[0] == b.sizes[0] && out.sizes[0] == a.sizes[0])),
             "shapes do not match: %s @ %s -> %s", a.shape_str().c_str(), b.shape_str().c_str(),
             out.shape_str().c_str());
  check_dtype(out, kFloating, "out");
  check_dtype(a, kFloating, "input");
  check_dtype(b, kFloating, "mat2");
  for (int64_t v : {rows(a), cols(a), cols(b)}) check_blas_size(v, "matrix size");
  for (const View* v : {&a, &b, &out})
    for (int d = 0; d < v->ndim; ++d) check_blas_size(v->strides[d], "stride");
}

// The operands of out = beta * input + alpha * (a @ b) for rank-`nd` operands (addmm, baddbmm),
// validated on the calling thread; input is broadcast to the product's shape.
inline AddmmArgs product_args(diopiTensorHandle_t out_h, diopiConstTensorHandle_t input_h,
                              diopiConstTensorHandle_t a_h, diopiConstTensorHandle_t b_h, int nd,
                              double beta, double alpha) {
  AddmmArgs r;
  r.out = output_view(out_h, "out");
  r.bias = input_view(input_h, "input");
  r.a = input_view(a_h, nd == 2 ? "mat1" : "batch1");
  r.b = input_view(b_h, nd == 2 ? "mat2" : "batch2");
  check_matmul(r.out, r.a, r.b, nd);
  check_dtype(r.bias, kAllTypes, "input");
  broadcast_to(r.bias, r.out, "input");
  r.beta = beta;
  r.alpha = alpha;
  return r;
}

inline void add_product(const Kernel& kernel, diopiContextHandle_t ctx, const AddmmArgs& r) {
  launch(kernel, ctx, r.out, [r] { addmm_compute(r); });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_MATMUL_H_
