// Sorting and selection (sort, topk), boolean reductions and tests (any, all, isnan), logical
// and / or / not, bitwise not, prod, the vector p-norm, and the data-movement ops flip, roll
// and repeat.
//
// Sorting compares in the input's compute type with NaN as the largest value and is stable;
// prod and norm compute in double (prod of integers in int64 with wrap-around); flip, roll and
// repeat copy elements between any two layouts without converting them.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// Sorts the indices of each line along `dim` (stable; NaN largest) and writes the first
// `keep` of them (values gathered, indices as int64) into values / indices, whose shape is
// the input's with `dim` resized to `keep`.
void sort_lines(const View& values, const View& indices, const View& input, int dim,
                bool descending, int64_t keep) {
  dispatch<kFloatingAndInt | kIntegral>(input.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    const std::vector<T> x = packed<T>(input);
    const Lines l = lines_of(input, dim);
    std::vector<T> vals(static_cast<size_t>(l.outer * keep * l.inner));
    std::vector<int64_t> idx(vals.size());
    std::vector<int64_t> order(static_cast<size_t>(l.len));
    std::vector<A> key(static_cast<size_t>(l.len));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        const int64_t base = o * l.len * l.inner + i;
        for (int64_t k = 0; k < l.len; ++k) key[k] = load(x[base + k * l.inner]);
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          const A ka = key[a], kb = key[b];
          if (descending) return (is_nan(ka) && !is_nan(kb)) || ka > kb;
          return (!is_nan(ka) && is_nan(kb)) || ka < kb;
        });
        for (int64_t k = 0; k < keep; ++k) {
          const int64_t dst = o * keep * l.inner + k * l.inner + i;
          vals[dst] = x[base + order[k] * l.inner];
          idx[dst] = order[k];
        }
      }
    unpack(values, vals);
    unpack(indices, idx);
  });
}

void check_selected(const View& out, const View& input, int dim, int64_t keep, const char* what) {
  View want = input;
  if (input.ndim > 0) want.sizes[dim] = keep;
  SIMK_CHECK(same_shape(out, want), "%s has shape %s, expected %s", what, out.shape_str().c_str(),
             want.shape_str().c_str());
}

// any / all along `dim` (or over everything when dim is null).
template <bool Any>
void any_all(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
             diopiConstTensorHandle_t input_h, const int64_t* dim_arg) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, kAllTypes, "out");
  int dim = -1;
  if (dim_arg != nullptr) {
    dim = wrap_dim(*dim_arg, input.ndim);
    check_reduced(out, input, dim, "out");
  } else {
    SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
  }
  launch(kernel, ctx, out, [=] {
    const std::vector<double> x = packed<double>(input);
    const Lines l = dim >= 0 ? lines_of(input, dim) : Lines{1, static_cast<int64_t>(x.size()), 1};
    std::vector<double> r(static_cast<size_t>(l.outer * l.inner));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        bool acc = !Any;
        for (int64_t k = 0; k < l.len; ++k) {
          const bool nz = x[o * l.len * l.inner + k * l.inner + i] != 0.0;  // NaN is nonzero
          acc = Any ? (acc || nz) : (acc && nz);
        }
        r[o * l.inner + i] = acc ? 1.0 : 0.0;
      }
    unpack(out, r);
  });
}

template <int Op>  // 0: and, 1: or
void logical_binary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  // Inputs are converted to out's dtype first: a nonzero (or NaN) stays nonzero in bool and
  // floating outs; integral outs see the inputs' integral values.
  elementwise<kAllTypes>(
      kernel, ctx, out,
      [](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [](A a, A b) -> A {
          const bool x = a != A(0), y = b != A(0);
          return static_cast<A>(Op == 0 ? (x && y) : (x || y));
        };
      },
      In{input, "input"}, In{other, "other"});
}

void logical_not(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, kAllTypes, "out");
  SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    std::vector<double> x = packed<double>(input);  // the input is read before out is written
    for (double& v : x) v = v == 0.0 ? 1.0 : 0.0;
    unpack(out, x);
  });
}

// Copies element src_offset(i) of `input` to row-major element i of `out` (raw bytes: both
// have the same dtype).
template <class SrcOffset>
void gather_elements(const View& out, const View& input, SrcOffset src_offset) {
  const int64_t n = out.numel();
  const int64_t isz = out.itemsize();
  int64_t idx[kMaxDims];
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i;
    for (int d = out.ndim - 1; d >= 0; --d) {
      idx[d] = rest % out.sizes[d];
      rest /= out.sizes[d];
    }
    std::memcpy(out.data + offset_of(out, i) * isz, input.data + src_offset(idx, i) * isz,
                static_cast<size_t>(isz));
  }
}

void check_same(const View& out, const View& input) {
  SIMK_CHECK(out.dtype == input.dtype, "out must have input's dtype");
  SIMK_CHECK(!may_overlap(out, input), "out must not overlap input");
}

}  // namespace

diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim,
                       bool descending, const bool* pStable) {
  SIMK_KERNEL(diopiSort);
  (void)pStable;  // always stable: a stable order is also a valid unstable one
  return guarded(kernel.name, [&] {
    const View v = output_view(values, "values");
    const View ix = output_view(indices, "indices");
    const View in = input_view(input, "input");
    check_dtype(in, kFloatingAndInt | kIntegral, "input");
    check_dtype(v, kFloatingAndInt | kIntegral, "values");
    check_dtype(ix, dtype_bit(diopi_dtype_int64) | dtype_bit(diopi_dtype_int32), "indices");
    const int d = wrap_dim(dim, in.ndim);
    const int64_t len = in.ndim == 0 ? 1 : in.sizes[d];
    check_selected(v, in, d, len, "values");
    check_selected(ix, in, d, len, "indices");
    launch(kernel, ctx, v, [=] { sort_lines(v, ix, in, d, descending, len); });
  });
}

diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t k,
                       int64_t dim, bool largest, bool sorted) {
  SIMK_KERNEL(diopiTopk);
  (void)sorted;  // the k elements always come in sorted order
  return guarded(kernel.name, [&] {
    const View v = output_view(values, "values");
    const View ix = output_view(indices, "indices");
    const View in = input_view(input, "input");
    check_dtype(in, kFloatingAndInt | kIntegral, "input");
    check_dtype(v, kFloatingAndInt | kIntegral, "values");
    check_dtype(ix, dtype_bit(diopi_dtype_int64) | dtype_bit(diopi_dtype_int32), "indices");
    const int d = wrap_dim(dim, in.ndim);
    const int64_t len = in.ndim == 0 ? 1 : in.sizes[d];
    SIMK_CHECK(k >= 0 && k <= len, "selected index k (%lld) out of range for dim %d of size %lld",
               static_cast<long long>(k), d, static_cast<long long>(len));
    check_selected(v, in, d, k, "values");
    check_selected(ix, in, d, k, "indices");
    launch(kernel, ctx, v, [=] { sort_lines(v, ix, in, d, largest, k); });
  });
}

diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const int64_t* dim) {
  SIMK_KERNEL(diopiAny);
  return guarded(kernel.name, [&] { any_all<true>(kernel, ctx, out, input, dim); });
}

diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const int64_t* dim) {
  SIMK_KERNEL(diopiAll);
  return guarded(kernel.name, [&] { any_all<false>(kernel, ctx, out, input, dim); });
}

diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiIsNan);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      std::vector<double> x = packed<double>(input);
      for (double& v : x) v = std::isnan(v) ? 1.0 : 0.0;
      unpack(out, x);
    });
  });
}

diopiError_t diopiLogicalAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalAnd);
  return guarded(kernel.name, [&] { logical_binary<0>(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalAndInp);
  return guarded(kernel.name, [&] { logical_binary<0>(kernel, ctx, input, input, other); });
}

diopiError_t diopiLogicalOr(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalOr);
  return guarded(kernel.name, [&] { logical_binary<1>(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalOrInp);
  return guarded(kernel.name, [&] { logical_binary<1>(kernel, ctx, input, input, other); });
}

diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLogicalNot);
  return guarded(kernel.name, [&] { logical_not(kernel, ctx, out, input); });
}

diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiLogicalNotInp);
  return guarded(kernel.name, [&] { logical_not(kernel, ctx, input, input); });
}

namespace {

// ~x on integers, !x on bool (ATen's bitwise_not of a bool tensor).
void bitwise_not(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input) {
  elementwise<kIntegral | dtype_bit(diopi_dtype_bool)>(
      kernel, ctx, out,
      [](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        return [](A x) -> A {
          if constexpr (std::is_same<T, bool>::value) {
            return !x;
          } else {
            return static_cast<A>(~x);
          }
        };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiBitwiseNot);
  return guarded(kernel.name, [&] { bitwise_not(kernel, ctx, out, input); });
}

diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiBitwiseNotInp);
  return guarded(kernel.name, [&] { bitwise_not(kernel, ctx, input, input); });
}

diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, const int64_t* dim_arg) {
  SIMK_KERNEL(diopiProd);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    int dim = -1;
    if (dim_arg != nullptr) {
      dim = wrap_dim(*dim_arg, input.ndim);
      check_reduced(out, input, dim, "out");
    } else {
      SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
    }
    const bool integral = !is_floating(input.dtype) && !is_floating(out.dtype);
    launch(kernel, ctx, out, [=] {
      const Lines l =
          dim >= 0 ? lines_of(input, dim) : Lines{1, std::max<int64_t>(input.numel(), 0), 1};
      const size_t n = static_cast<size_t>(l.outer * l.inner);
      if (integral) {
        const std::vector<int64_t> x = packed<int64_t>(input);
        std::vector<int64_t> r(n);
        for (int64_t o = 0; o < l.outer; ++o)
          for (int64_t i = 0; i < l.inner; ++i) {
            uint64_t acc = 1;  // unsigned: wraps like ATen's int64 product
            for (int64_t k = 0; k < l.len; ++k)
              acc *= static_cast<uint64_t>(x[o * l.len * l.inner + k * l.inner + i]);
            r[o * l.inner + i] = static_cast<int64_t>(acc);
          }
        unpack(out, r);
      } else {
        const std::vector<double> x = packed<double>(input);
        std::vector<double> r(n);
        for (int64_t o = 0; o < l.outer; ++o)
          for (int64_t i = 0; i < l.inner; ++i) {
            double acc = 1.0;
            for (int64_t k = 0; k < l.len; ++k) acc *= x[o * l.len * l.inner + k * l.inner + i];
            r[o * l.inner + i] = acc;
          }
        unpack(out, r);
      }
    });
  });
}

diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, const diopiScalar_t* p_arg,
                       diopiSize_t dim) {
  SIMK_KERNEL(diopiNorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    check_dtype(out, kFloating, "out");
    const double p = scalar_or(p_arg, Scalar::of_double(2.0)).as<double>();
    bool reduced[kMaxDims] = {};
    const bool all = dim.data == nullptr || dim.len == 0;
    for (int d = 0; d < input.ndim; ++d) reduced[d] = all;
    for (int64_t k = 0; !all && k < dim.len; ++k) reduced[wrap_dim(dim.data[k], input.ndim)] = true;
    // out: the kept dims in order (with or without the reduced ones as 1).
    int64_t kept_numel = 1;
    int64_t kstride[kMaxDims] = {};
    for (int d = input.ndim - 1; d >= 0; --d) {
      if (reduced[d]) continue;
      kstride[d] = kept_numel;
      kept_numel *= input.sizes[d];
    }
    SIMK_CHECK(out.numel() == kept_numel,
               "out has shape %s; the norm of input %s has %lld elements", out.shape_str().c_str(),
               input.shape_str().c_str(), static_cast<long long>(kept_numel));
    for (int d = 0; d < input.ndim; ++d)
      SIMK_CHECK(!reduced[d] || input.sizes[d] > 0 || (p >= 0 && !std::isinf(p)),
                 "the %g-norm of an empty dim (dim %d of input %s) is undefined", p, d,
                 input.shape_str().c_str());
    const View in = input;
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(in);
      const bool inf = std::isinf(p);
      std::vector<double> acc(static_cast<size_t>(kept_numel),
                              inf ? (p > 0 ? 0.0 : std::numeric_limits<double>::infinity()) : 0.0);
      for (size_t i = 0; i < x.size(); ++i) {
        int64_t rest = static_cast<int64_t>(i), o = 0;
        for (int d = in.ndim - 1; d >= 0; --d) {
          const int64_t c = rest % in.sizes[d];
          rest /= in.sizes[d];
          if (!reduced[d]) o += c * kstride[d];
        }
        const double a = std::fabs(x[i]);
        double& r = acc[o];
        if (std::isnan(a)) {
          r = a;
        } else if (std::isnan(r)) {
          continue;
        } else if (inf) {
          r = p > 0 ? std::max(r, a) : std::min(r, a);
        } else if (p == 0) {
          r += a != 0 ? 1.0 : 0.0;
        } else if (p == 1) {
          r += a;
        } else if (p == 2) {
          r += a * a;
        } else {
          r += std::pow(a, p);
        }
      }
      if (!inf && p != 0 && p != 1)
        for (double& r : acc) r = p == 2 ? std::sqrt(r) : std::pow(r, 1.0 / p);
      unpack(out, acc);
    });
  });
}

diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiSize_t dims) {
  SIMK_KERNEL(diopiFlip);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    bool flipped[kMaxDims] = {};
    for (int64_t k = 0; k < dims.len; ++k) {
      const int d = wrap_dim(dims.data[k], input.ndim);
      SIMK_CHECK(input.ndim == 0 || !flipped[d], "dim %d appears multiple times in dims", d);
      if (input.ndim > 0) flipped[d] = true;
    }
    std::vector<bool> f(flipped, flipped + kMaxDims);
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d)
          off += (f[d] ? input.sizes[d] - 1 - idx[d] : idx[d]) * input.strides[d];
        return off;
      });
    });
  });
}

diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiSize_t shifts, diopiSize_t dims) {
  SIMK_KERNEL(diopiRoll);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    SIMK_CHECK(shifts.len > 0, "`shifts` required");
    const bool flat = dims.len == 0;
    SIMK_CHECK(flat ? shifts.len == 1 : shifts.len == dims.len,
               "shifts and dimensions must align. shifts: %lld, dims: %lld",
               static_cast<long long>(shifts.len), static_cast<long long>(dims.len));
    std::vector<int64_t> shift(kMaxDims, 0);
    for (int64_t k = 0; !flat && k < dims.len; ++k) {
      const int d = wrap_dim(dims.data[k], input.ndim);
      if (input.ndim > 0) shift[d] += shifts.data[k];
    }
    const int64_t flat_shift = flat ? shifts.data[0] : 0;
    launch(kernel, ctx, out, [=] {
      const int64_t n = input.numel();
      gather_elements(out, input, [&](const int64_t* idx, int64_t linear) {
        if (flat) {
          const int64_t src = ((linear - flat_shift) % n + n) % n;
          return offset_of(input, src);
        }
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d) {
          const int64_t s = input.sizes[d];
          off += (((idx[d] - shift[d]) % s + s) % s) * input.strides[d];
        }
        return off;
      });
    });
  });
}

diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, diopiSize_t repeats_size) {
  SIMK_KERNEL(diopiRepeat);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(repeats_size.len >= input.ndim && repeats_size.len == out.ndim,
               "repeats (%lld dims) must cover input %s and match out %s",
               static_cast<long long>(repeats_size.len), input.shape_str().c_str(),
               out.shape_str().c_str());
    const int lead = out.ndim - input.ndim;
    for (int d = 0; d < out.ndim; ++d) {
      const int64_t base = d < lead ? 1 : input.sizes[d - lead];
      SIMK_CHECK(repeats_size.data[d] >= 0 && out.sizes[d] == base * repeats_size.data[d],
                 "out has shape %s; input %s repeated gives another size at dim %d",
                 out.shape_str().c_str(), input.shape_str().c_str(), d);
    }
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d)
          off += (idx[d + lead] % input.sizes[d]) * input.strides[d];
        return off;
      });
    });
  });
}

diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                          diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiNonzero);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    // The output's shape depends on the input's values: wait for them, then read them here.
    synchronize_on(ctx);
    const std::vector<double> x = packed<double>(input);  // NaN is nonzero
    const int nd = input.ndim;
    std::vector<int64_t> rows;
    int64_t count = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i] == 0.0) continue;
      ++count;
      int64_t coord[kMaxDims];
      int64_t rest = static_cast<int64_t>(i);
      for (int d = nd - 1; d >= 0; --d) {
        coord[d] = rest % input.sizes[d];
        rest /= input.sizes[d];
      }
      rows.insert(rows.end(), coord, coord + nd);
    }
    int64_t shape[2] = {count, nd};
    diopiSize_t size{shape, 2};
    diopiDevice_t device = diopi_device;
    SIMK_CHECK(diopiGetTensorDevice(input_h, &device) == diopiSuccess,
               "cannot read input's device");
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(
        diopiRequireTensor(ctx, &t, &size, nullptr, diopi_dtype_int64, device) == diopiSuccess,
        "cannot allocate the output [%lld, %d]", static_cast<long long>(shape[0]), nd);
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, rows] {
      std::vector<int64_t> r = rows;
      unpack(o, r);
    });
    *out = t;
  });
}

diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                               diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mask_h) {
  SIMK_KERNEL(diopiMaskedSelect);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View input = input_view(input_h, "input");
    const View mask = input_view(mask_h, "mask");
    check_dtype(input, kAllTypes, "input");
    check_dtype(mask, dtype_bit(diopi_dtype_bool), "mask");
    // The broadcast shape of input and mask (right-aligned).
    View shape;
    shape.ndim = std::max(input.ndim, mask.ndim);
    for (int d = 0; d < shape.ndim; ++d) {
      const int di = d - (shape.ndim - input.ndim), dm = d - (shape.ndim - mask.ndim);
      const int64_t si = di >= 0 ? input.sizes[di] : 1, sm = dm >= 0 ? mask.sizes[dm] : 1;
      SIMK_CHECK(si == sm || si == 1 || sm == 1,
                 "the shape of the mask %s does not match the shape of the input %s",
                 mask.shape_str().c_str(), input.shape_str().c_str());
      shape.sizes[d] = si == 1 ? sm : si;
    }
    const View in_b = broadcast_to(input, shape, "input");
    const View mask_b = broadcast_to(mask, shape, "mask");
    // The output's length depends on the mask's values: wait for them, then read them here.
    synchronize_on(ctx);
    const int64_t n = shape.numel();
    const int64_t isz = input.itemsize();
    std::vector<char> picked;
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (!*reinterpret_cast<const bool*>(mask_b.data + offset_of(mask_b, i))) continue;
      const char* src = in_b.data + offset_of(in_b, i) * isz;
      picked.insert(picked.end(), src, src + isz);
      ++count;
    }
    int64_t len[1] = {count};
    diopiSize_t size{len, 1};
    diopiDevice_t device = diopi_device;
    SIMK_CHECK(diopiGetTensorDevice(input_h, &device) == diopiSuccess,
               "cannot read input's device");
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(diopiRequireTensor(ctx, &t, &size, nullptr, input.dtype, device) == diopiSuccess,
               "cannot allocate the output [%lld]", static_cast<long long>(count));
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, picked] {
      if (!picked.empty()) std::memcpy(o.data, picked.data(), picked.size());
    });
    *out = t;
  });
}
