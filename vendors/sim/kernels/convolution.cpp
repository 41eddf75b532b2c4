// The `convolution` family: 2-D convolution (cross-correlation) with stride, zero padding,
// dilation and groups, and its gradients. DIOPI: diopiConvolution2d, diopiConvolution2dBackward.
#include <cblas.h>
#include <diopi/prototypes.h>

#include <cstring>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

struct ConvGeom {
  int64_t n = 0, cin = 0, h = 0, w = 0;  // input
  int64_t cout = 0, kh = 0, kw = 0;      // weight [cout, cin / groups, kh, kw]
  int64_t oh = 0, ow = 0;                // output
  int64_t sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
  int64_t groups = 1, cg = 0, og = 0;  // channels per group (in, out)
  int64_t k() const { return cg * kh * kw; }
  int64_t p() const { return oh * ow; }
};

int64_t param(diopiSize_t v, int i, int64_t fallback, const char* what) {
  if (v.len == 0 || v.data == nullptr) return fallback;
  SIMK_CHECK(v.len == 1 || v.len == 2, "%s must have 1 or 2 values, got %lld", what,
             static_cast<long long>(v.len));
  return v.len == 1 ? v.data[0] : v.data[i];
}

ConvGeom geometry(const View& input, const View& weight, diopiSize_t stride, diopiSize_t padding,
                  diopiSize_t dilation, int64_t groups) {
  if (input.ndim != 4 || weight.ndim != 4)
    failf(diopiNoImplement,
          "only 4-D input and weight (conv2d) are implemented, got input %s "
          "and weight %s",
          input.shape_str().c_str(), weight.shape_str().c_str());
  ConvGeom g;
  g.n = input.sizes[0], g.cin = input.sizes[1], g.h = input.sizes[2], g.w = input.sizes[3];
  g.cout = weight.sizes[0], g.kh = weight.sizes[2], g.kw = weight.sizes[3];
  g.sh = param(stride, 0, 1, "stride"), g.sw = param(stride, 1, 1, "stride");
  g.ph = param(padding, 0, 0, "padding"), g.pw = param(padding, 1, 0, "padding");
  g.dh = param(dilation, 0, 1, "dilation"), g.dw = param(dilation, 1, 1, "dilation");
  SIMK_CHECK(groups > 0 && g.cin % groups == 0 && g.cout % groups == 0,
             "groups %lld must divide the input (%lld) and output (%lld) channels",
             static_cast<long long>(groups), static_cast<long long>(g.cin),
             static_cast<long long>(g.cout));
  g.groups = groups, g.cg = g.cin / groups, g.og = g.cout / groups;
  SIMK_CHECK(weight.sizes[1] == g.cg,
             "weight %s expects %lld input channels per group, input "
             "%s has %lld",
             weight.shape_str().c_str(), static_cast<long long>(weight.sizes[1]),
             input.shape_str().c_str(), static_cast<long long>(g.cg));
  SIMK_CHECK(g.sh > 0 && g.sw > 0 && g.dh > 0 && g.dw > 0 && g.ph >= 0 && g.pw >= 0,
             "stride and dilation must be positive and padding non-negative");
  const int64_t span_h = g.h + 2 * g.ph - g.dh * (g.kh - 1) - 1;
  const int64_t span_w = g.w + 2 * g.pw - g.dw * (g.kw - 1) - 1;
  SIMK_CHECK(span_h >= 0 && span_w >= 0, "kernel %s is larger than the padded input %s",
             weight.shape_str().c_str(), input.shape_str().c_str());
  g.oh = span_h / g.sh + 1, g.ow = span_w / g.sw + 1;
  return g;
}

void check_shape4(const View& v, int64_t a, int64_t b, int64_t c, int64_t d, const char* what) {
  SIMK_CHECK(
      v.ndim == 4 && v.sizes[0] == a && v.sizes[1] == b && v.sizes[2] == c && v.sizes[3] == d,
      "%s has shape %s, expected [%lld, %lld, %lld, %lld]", what, v.shape_str().c_str(),
      static_cast<long long>(a), static_cast<long long>(b), static_cast<long long>(c),
      static_cast<long long>(d));
}

// col[k, p] for sample n, group grp: k = (ci, ki, kj), p = (oi, oj).
void im2col(const ConvGeom& g, const double* x, int64_t n, int64_t grp, double* col) {
  const int64_t P = g.p();
  for (int64_t ci = 0; ci < g.cg; ++ci) {
    const double* plane = x + ((n * g.cin) + grp * g.cg + ci) * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki)
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        double* row = col + ((ci * g.kh + ki) * g.kw + kj) * P;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i = oi * g.sh - g.ph + ki * g.dh;
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j = oj * g.sw - g.pw + kj * g.dw;
            row[oi * g.ow + oj] =
                (i >= 0 && i < g.h && j >= 0 && j < g.w) ? plane[i * g.w + j] : 0.0;
          }
        }
      }
  }
}

// gx[n, group channels] += col2im(col).
void col2im(const ConvGeom& g, const double* col, int64_t n, int64_t grp, double* gx) {
  const int64_t P = g.p();
  for (int64_t ci = 0; ci < g.cg; ++ci) {
    double* plane = gx + ((n * g.cin) + grp * g.cg + ci) * g.h * g.w;
    for (int64_t ki = 0; ki < g.kh; ++ki)
      for (int64_t kj = 0; kj < g.kw; ++kj) {
        const double* row = col + ((ci * g.kh + ki) * g.kw + kj) * P;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i = oi * g.sh - g.ph + ki * g.dh;
          if (i < 0 || i >= g.h) continue;
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j = oj * g.sw - g.pw + kj * g.dw;
            if (j >= 0 && j < g.w) plane[i * g.w + j] += row[oi * g.ow + oj];
          }
        }
      }
  }
}

// C[m, n] (+)= op(A) op(B), row-major.
void gemm(bool ta, bool tb, int64_t m, int64_t n, int64_t k, const double* a, int64_t lda,
          const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    if (beta == 0)
      for (int64_t i = 0; i < m; ++i) std::memset(c + i * ldc, 0, sizeof(double) * n);
    return;
  }
  cblas_dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans, tb ? CblasTrans : CblasNoTrans,
              static_cast<blasint>(m), static_cast<blasint>(n), static_cast<blasint>(k), 1.0, a,
              static_cast<blasint>(lda), b, static_cast<blasint>(ldb), beta, c,
              static_cast<blasint>(ldc));
}

}  // namespace

diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
                                diopiConstTensorHandle_t bias_h, diopiSize_t stride,
                                diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
  SIMK_KERNEL(diopiConvolution2d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View weight = input_view(weight_h, "weight");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(weight, kFloating, "weight");
    const ConvGeom g = geometry(input, weight, stride, padding, dilation, groups);
    check_shape4(out, g.n, g.cout, g.oh, g.ow, "out");
    View bias;
    const bool has_bias = bias_h != nullptr;
    if (has_bias) {
      bias = input_view(bias_h, "bias");
      check_dtype(bias, kFloating, "bias");
      SIMK_CHECK(bias.numel() == g.cout, "bias has %lld elements, expected %lld",
                 static_cast<long long>(bias.numel()), static_cast<long long>(g.cout));
    }
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> w = packed<double>(weight);
      const std::vector<double> b = has_bias ? packed<double>(bias) : std::vector<double>();
      std::vector<double> y(static_cast<size_t>(g.n * g.cout * g.p()));
      std::vector<double> col(static_cast<size_t>(g.k() * g.p()));
      for (int64_t n = 0; n < g.n; ++n)
        for (int64_t grp = 0; grp < g.groups; ++grp) {
          im2col(g, x.data(), n, grp, col.data());
          double* yo = y.data() + (n * g.cout + grp * g.og) * g.p();
          gemm(false, false, g.og, g.p(), g.k(), w.data() + grp * g.og * g.k(), g.k(), col.data(),
               g.p(), 0.0, yo, g.p());
          if (has_bias)
            for (int64_t co = 0; co < g.og; ++co)
              for (int64_t q = 0; q < g.p(); ++q) yo[co * g.p() + q] += b[grp * g.og + co];
        }
      unpack(out, y);
    });
  });
}

diopiError_t diopiConvolution2dBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h, diopiTensorHandle_t grad_weight_h,
    diopiTensorHandle_t grad_bias_h, diopiConstTensorHandle_t grad_output_h,
    diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h, diopiSize_t* bias_sizes,
    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
  SIMK_KERNEL(diopiConvolution2dBackward);
  return guarded(kernel.name, [&] {
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View weight = input_view(weight_h, "weight");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(input, kFloating, "input");
    check_dtype(weight, kFloating, "weight");
    const ConvGeom g = geometry(input, weight, stride, padding, dilation, groups);
    check_shape4(go, g.n, g.cout, g.oh, g.ow, "grad_output");
    const bool want_gi = grad_input_h != nullptr, want_gw = grad_weight_h != nullptr;
    // grad_bias is computed when both it and bias_sizes are given (DIOPI's convention).
    const bool want_gb = grad_bias_h != nullptr && bias_sizes != nullptr;
    View gi, gw, gb;
    if (want_gi) {
      gi = output_view(grad_input_h, "grad_input");
      check_dtype(gi, kFloating, "grad_input");
      SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
                 input.shape_str().c_str());
    }
    if (want_gw) {
      gw = output_view(grad_weight_h, "grad_weight");
      check_dtype(gw, kFloating, "grad_weight");
      SIMK_CHECK(same_shape(gw, weight), "grad_weight has shape %s, weight %s",
                 gw.shape_str().c_str(), weight.shape_str().c_str());
    }
    if (want_gb) {
      gb = output_view(grad_bias_h, "grad_bias");
      check_dtype(gb, kFloating, "grad_bias");
      SIMK_CHECK(gb.numel() == g.cout, "grad_bias has %lld elements, expected %lld",
                 static_cast<long long>(gb.numel()), static_cast<long long>(g.cout));
      SIMK_CHECK(bias_sizes->len == 1 && bias_sizes->data[0] == g.cout, "bias_sizes must be [%lld]",
                 static_cast<long long>(g.cout));
    }
    if (!want_gi && !want_gw && !want_gb) return;
    const View first = want_gi ? gi : want_gw ? gw : gb;
    launch(kernel, ctx, first, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<double> x = want_gw ? packed<double>(input) : std::vector<double>();
      const std::vector<double> w = want_gi ? packed<double>(weight) : std::vector<double>();
      std::vector<double> dx(want_gi ? static_cast<size_t>(input.numel()) : 0, 0.0);
      std::vector<double> dw(want_gw ? static_cast<size_t>(weight.numel()) : 0, 0.0);
      std::vector<double> col(static_cast<size_t>(g.k() * g.p()));
      for (int64_t n = 0; n < g.n; ++n)
        for (int64_t grp = 0; grp < g.groups; ++grp) {
          const double* dyo = dy.data() + (n * g.cout + grp * g.og) * g.p();
          if (want_gw) {
            im2col(g, x.data(), n, grp, col.data());
            // dW_g [og, K] += dY [og, P] x col^T [P, K]
            gemm(false, true, g.og, g.k(), g.p(), dyo, g.p(), col.data(), g.p(), 1.0,
                 dw.data() + grp * g.og * g.k(), g.k());
          }
          if (want_gi) {
            // col [K, P] = W_g^T [K, og] x dY [og, P]
            gemm(true, false, g.k(), g.p(), g.og, w.data() + grp * g.og * g.k(), g.k(), dyo, g.p(),
                 0.0, col.data(), g.p());
            col2im(g, col.data(), n, grp, dx.data());
          }
        }
      if (want_gi) unpack(gi, dx);
      if (want_gw) unpack(gw, dw);
      if (want_gb) {
        std::vector<double> db(static_cast<size_t>(g.cout), 0.0);
        for (int64_t n = 0; n < g.n; ++n)
          for (int64_t c = 0; c < g.cout; ++c)
            for (int64_t q = 0; q < g.p(); ++q) db[c] += dy[(n * g.cout + c) * g.p() + q];
        unpack(gb, db);
      }
    });
  });
}
