// Reductions along one dim: max / min (values and the index of the first extreme; NaN counts as
// the extreme and stops the search, as ATen 1.13), their all-element forms, argmax / argmin,
// and the cumulative cumsum / cumprod.
#ifndef SIM_KERNELS_COMMON_REDUCE_DIM_H_
#define SIM_KERNELS_COMMON_REDUCE_DIM_H_

#include <cmath>
#include <stdexcept>
#include <vector>

#include "elementwise.h"
#include "select.h"
#include "shape_ops.h"

namespace simk {

// Index of the extreme of x[0], x[s], ..., x[(n-1)s]: the first maximum (or minimum), or the
// first NaN.
template <bool Max, class A>
int64_t extreme_index(const A* x, int64_t n, int64_t s) {
  A best = x[0];
  int64_t index = 0;
  for (int64_t i = 0; i < n; ++i) {
    const A v = x[i * s];
    const bool better = Max ? !(v <= best) : !(v >= best);
    if (better) {
      best = v;
      index = i;
      if (is_nan(v)) break;
    }
  }
  return index;
}

template <bool Max>
void reduce_dim(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t values_h,
                diopiTensorHandle_t indices_h, diopiConstTensorHandle_t input_h, int64_t dim_arg) {
  const View input = input_view(input_h, "input");
  select_lines<kFloatingAndInt | kIntegral>(
      kernel, ctx, output_view(values_h, Max ? "max" : "min"),
      output_view(indices_h, Max ? "max_indices" : "min_indices"), input,
      wrap_dim(dim_arg, input.ndim),
      [](auto* x, int64_t n, int64_t s) { return extreme_index<Max>(x, n, s); });
}

template <bool Max>
void reduce_all(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                diopiConstTensorHandle_t input_h) {
  const View out = output_view(out_h, Max ? "max" : "min");
  const View input = input_view(input_h, "input");
  check_dtype(input, kFloatingAndInt | kIntegral, "input");
  check_dtype(out, kFloatingAndInt | kIntegral, "out");
  SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
  SIMK_CHECK(input.numel() > 0, "the %s of an empty tensor is undefined", Max ? "max" : "min");
  launch(kernel, ctx, out, [=] {
    dispatch<kFloatingAndInt | kIntegral>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      std::vector<T> x = packed<T>(input);
      std::vector<acc_t<T>> a(x.size());
      for (size_t i = 0; i < x.size(); ++i) a[i] = load(x[i]);
      const int64_t k = extreme_index<Max>(a.data(), static_cast<int64_t>(a.size()), 1);
      std::vector<T> r = {x[k]};
      unpack(out, r);
    });
  });
}

// argmax / argmin: the first extreme along dim, or over every element when dim is null.
template <bool kMax>
void arg_extreme(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h, const int64_t* dim) {
  const char* what = kMax ? "argmax" : "argmin";
  const View out = output_view(out_h, "out");
  View input = input_view(input_h, "input");
  check_dtype(input, kFloatingAndInt | kIntegral, "input");
  check_dtype(out, dtype_bit(diopi_dtype_int64), "out");
  int d = 0;
  if (dim != nullptr) {
    d = wrap_dim(*dim, input.ndim);
    SIMK_CHECK(input.ndim == 0 || input.sizes[d] > 0, "%s over an empty dim of input %s", what,
               input.shape_str().c_str());
    check_reduced(out, input, d, "out");  // keepdim is read from out's shape
  } else {
    SIMK_CHECK(input.numel() > 0, "%s of an empty tensor is undefined", what);
    SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
  }
  const bool flat = dim == nullptr;
  launch(kernel, ctx, out, [=] {
    dispatch<kFloatingAndInt | kIntegral>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const std::vector<T> x = packed<T>(input);
      std::vector<acc_t<T>> a(x.size());
      for (size_t i = 0; i < x.size(); ++i) a[i] = load(x[i]);
      Lines l;
      if (flat) {
        l.len = static_cast<int64_t>(a.size());
      } else {
        l = lines_of(input, d);
      }
      std::vector<int64_t> where(static_cast<size_t>(l.outer * l.inner));
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t i = 0; i < l.inner; ++i)
          where[o * l.inner + i] =
              extreme_index<kMax>(a.data() + o * l.len * l.inner + i, l.len, l.inner);
      unpack(out, where);
    });
  });
}

// Replaces each line along dim of x (a row-major copy of a tensor shaped like `shape`) by its
// running op(acc, value) from init, in order along the line.
template <class A, class Op>
void scan_lines(std::vector<A>& x, const View& shape, int dim, A init, Op op) {
  const Lines l = lines_of(shape, dim);
  for (int64_t o = 0; o < l.outer; ++o)
    for (int64_t i = 0; i < l.inner; ++i) {
      A acc = init;
      A* p = x.data() + o * l.len * l.inner + i;
      for (int64_t j = 0; j < l.len; ++j) {
        acc = op(acc, p[j * l.inner]);
        p[j * l.inner] = acc;
      }
    }
}

// Cumulative sum (Prod false) or product along dim, in double or int64 (ATen's acc type).
template <bool Prod>
void cumulative(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                diopiConstTensorHandle_t input_h, int64_t dim) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, kFloatingAndInt | kIntegral, "out");
  SIMK_CHECK(same_shape(out, input), "out has shape %s but input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  const int d = wrap_dim(dim, input.ndim);
  auto run = [=](auto zero) {
    using A = decltype(zero);
    std::vector<A> x = packed<A>(input);
    scan_lines(x, input, d, static_cast<A>(Prod ? 1 : 0), [](A acc, A v) -> A {
      if constexpr (Prod) {
        return acc * v;
      } else {
        return acc + v;
      }
    });
    unpack(out, x);
  };
  const bool floating = is_floating(out.dtype);
  launch(kernel, ctx, out, [=] {
    if (floating) {
      run(0.0);
    } else {
      run(int64_t{0});
    }
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_REDUCE_DIM_H_
