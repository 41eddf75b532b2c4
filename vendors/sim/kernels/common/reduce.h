// Reductions over a set of dims (sum, mean, amax, amin): keepdim read from out's shape; the
// input converted to out's dtype first, then accumulated in double (floating) or int64
// (integral), rounding 16-bit partials where ATen's reduction loop does.
#ifndef SIM_KERNELS_COMMON_REDUCE_H_
#define SIM_KERNELS_COMMON_REDUCE_H_

#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

struct ReducePlan {
  View input;
  View out_keep;  // out seen with the input's rank: reduced dims have size 1, stride 0
  bool reduced[kMaxDims] = {};
  int64_t count = 1;  // elements folded into each output element
};

inline ReducePlan plan_reduction(const View& input, const View& out, diopiSize_t dim) {
  ReducePlan p;
  p.input = input;
  const int nd = input.ndim;
  const bool all = dim.data == nullptr || dim.len == 0;
  if (all) {
    for (int d = 0; d < nd; ++d) p.reduced[d] = true;
  } else {
    for (int64_t k = 0; k < dim.len; ++k) {
      int64_t d = dim.data[k];
      const int64_t wrap = nd > 0 ? nd : 1;  // a 0-dim tensor accepts dim 0 and -1
      SIMK_CHECK(d >= -wrap && d < wrap, "dim %lld out of range for a %d-dim input",
                 static_cast<long long>(d), nd);
      if (d < 0) d += wrap;
      if (nd == 0) continue;
      SIMK_CHECK(!p.reduced[d], "dim %lld appears more than once in the reduction dims",
                 static_cast<long long>(d));
      p.reduced[d] = true;
    }
  }
  // Expected shapes with and without keepdim.
  View keep, drop;
  keep.ndim = nd;
  for (int d = 0; d < nd; ++d) {
    keep.sizes[d] = p.reduced[d] ? 1 : input.sizes[d];
    if (!p.reduced[d]) drop.sizes[drop.ndim++] = input.sizes[d];
    if (p.reduced[d]) p.count *= input.sizes[d];
  }
  const bool keepdim = out.ndim == nd && same_shape(out, keep);
  SIMK_CHECK(keepdim || same_shape(out, drop),
             "out has shape %s; reducing input %s gives %s (or %s with keepdim)",
             out.shape_str().c_str(), input.shape_str().c_str(), drop.shape_str().c_str(),
             keep.shape_str().c_str());
  p.out_keep = out;
  p.out_keep.ndim = nd;
  for (int d = 0, od = 0; d < nd; ++d) {
    p.out_keep.sizes[d] = keep.sizes[d];
    if (keepdim) {
      p.out_keep.strides[d] = p.reduced[d] ? 0 : out.strides[d];
    } else {
      p.out_keep.strides[d] = p.reduced[d] ? 0 : out.strides[od++];
    }
  }
  return p;
}

// Floating results are accumulated in double, integers in int64. For float16/bfloat16 the sim
// reproduces where ATen 1.13's CPU sum rounds: its reduction loop sums one reduced dim in float
// (the innermost one after ATen's dim ordering and coalescing) and adds each such partial into
// the 16-bit output (out += partial, rounding both), so sums over several non-adjacent dims
// round in between.

struct Dim {
  int64_t size;
  int64_t in_stride;   // elements of the input
  int64_t acc_stride;  // elements of the accumulator buffer; 0 for a reduced dim
};

// ATen's TensorIterator reduction order (innermost first): reduced dims inside kept ones,
// then by input stride; kept dims by output stride. Size-1 dims are dropped and mergeable
// neighbours coalesced.
inline std::vector<Dim> ordered_dims(const View& x, const View& acc_bcast) {
  std::vector<Dim> dims;
  for (int d = x.ndim - 1; d >= 0; --d)
    if (x.sizes[d] != 1) dims.push_back({x.sizes[d], x.strides[d], acc_bcast.strides[d]});
  // should_swap(a, b) > 0 when b belongs inside a.
  auto should_swap = [](const Dim& a, const Dim& b) {
    if ((a.acc_stride == 0) != (b.acc_stride == 0)) return b.acc_stride == 0 ? 1 : -1;
    if (a.acc_stride != 0 && b.acc_stride != 0 && a.acc_stride != b.acc_stride)
      return a.acc_stride < b.acc_stride ? -1 : 1;
    if (a.in_stride != 0 && b.in_stride != 0) {
      if (a.in_stride != b.in_stride) return a.in_stride < b.in_stride ? -1 : 1;
      if (a.size > b.size) return 1;
    }
    return 0;
  };
  for (size_t i = 1; i < dims.size(); ++i) {
    size_t inner = i;
    for (size_t j = i; j-- > 0;) {
      const int c = should_swap(dims[j], dims[inner]);
      if (c > 0) {
        std::swap(dims[j], dims[inner]);
        inner = j;
      } else if (c < 0) {
        break;
      }
    }
  }
  std::vector<Dim> merged;
  for (const Dim& d : dims) {
    if (!merged.empty()) {
      Dim& p = merged.back();
      if (p.in_stride * p.size == d.in_stride && p.acc_stride * p.size == d.acc_stride) {
        p.size *= d.size;
        continue;
      }
    }
    merged.push_back(d);
  }
  return merged;
}

// Adds `partial` into an accumulator slot: exactly for wide types, with the 16-bit output's
// rounding for float16/bfloat16.
template <class T, class Acc>
inline void store_partial(Acc& slot, Acc partial) {
  if constexpr (is_reduced_float<T>) {
    const float p = load(convert<T>(partial));
    slot = load(convert<T>(static_cast<float>(slot) + p));
  } else {
    slot += partial;
  }
}

// Sum of n elements `stride` apart, in Acc (four interleaved partial sums when dense).
template <class Acc, class T>
Acc sum_run(const T* x, int64_t stride, int64_t n) {
  if (stride != 1) {
    Acc s = 0;
    for (int64_t i = 0; i < n; ++i) s += load(x[i * stride]);
    return s;
  }
  Acc s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  int64_t i = 0;
  for (; i + 4 <= n; i += 4) {
    s0 += load(x[i]);
    s1 += load(x[i + 1]);
    s2 += load(x[i + 2]);
    s3 += load(x[i + 3]);
  }
  for (; i < n; ++i) s0 += load(x[i]);
  return (s0 + s1) + (s2 + s3);
}

template <class T, class Acc>
void accumulate(const View& acc_bcast, const View& x) {
  if (x.numel() == 0) return;
  const std::vector<Dim> dims = ordered_dims(x, acc_bcast);
  const T* xp = x.ptr<const T>();
  Acc* ap = acc_bcast.ptr<Acc>();
  const Dim d0 = dims.empty() ? Dim{1, 0, 0} : dims[0];
  const Dim d1 = dims.size() < 2 ? Dim{1, 0, 0} : dims[1];
  const size_t n_outer = dims.size() < 2 ? 0 : dims.size() - 2;
  std::vector<int64_t> counter(n_outer, 0);
  std::vector<Acc> lanes;  // per-lane partial sums of an outer reduction
  for (;;) {
    if (d0.acc_stride == 0 && d1.acc_stride != 0 && d1.size > 1 &&
        std::llabs(d1.in_stride) < std::llabs(d0.in_stride)) {
      // Partial sums along d0, one per index of d1, walking memory in d1 order.
      lanes.assign(static_cast<size_t>(d1.size), Acc(0));
      for (int64_t i = 0; i < d0.size; ++i) {
        const T* row = xp + i * d0.in_stride;
        for (int64_t j = 0; j < d1.size; ++j) lanes[j] += load(row[j * d1.in_stride]);
      }
      for (int64_t j = 0; j < d1.size; ++j) store_partial<T>(ap[j * d1.acc_stride], lanes[j]);
    } else if (d0.acc_stride == 0) {  // partial sums along d0, one per index of d1
      for (int64_t j = 0; j < d1.size; ++j)
        store_partial<T>(ap[j * d1.acc_stride],
                         sum_run<Acc>(xp + j * d1.in_stride, d0.in_stride, d0.size));
    } else if (d1.acc_stride == 0 && d1.size > 1) {  // partial sums along d1, one per lane
      lanes.assign(static_cast<size_t>(d0.size), Acc(0));
      for (int64_t j = 0; j < d1.size; ++j) {
        const T* row = xp + j * d1.in_stride;
        for (int64_t i = 0; i < d0.size; ++i) lanes[i] += load(row[i * d0.in_stride]);
      }
      for (int64_t i = 0; i < d0.size; ++i) store_partial<T>(ap[i * d0.acc_stride], lanes[i]);
    } else {  // no reduced dim among the two innermost
      for (int64_t j = 0; j < d1.size; ++j)
        for (int64_t i = 0; i < d0.size; ++i)
          store_partial<T>(ap[j * d1.acc_stride + i * d0.acc_stride],
                           static_cast<Acc>(load(xp[j * d1.in_stride + i * d0.in_stride])));
    }
    size_t k = 0;
    for (; k < n_outer; ++k) {
      const Dim& d = dims[k + 2];
      xp += d.in_stride;
      ap += d.acc_stride;
      if (++counter[k] < d.size) break;
      xp -= d.in_stride * d.size;
      ap -= d.acc_stride * d.size;
      counter[k] = 0;
    }
    if (k == n_outer) return;
  }
}

// Sums (mean = false) or averages the planned reduction; runs on the stream.
template <bool Mean, uint32_t Set>
void reduce(const ReducePlan& p) {
  dispatch<Set>(p.out_keep.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    using Acc = std::conditional_t<std::is_floating_point<A>::value, double, int64_t>;
    Buffer scratch;
    const View x = as_dtype(p.input, dtype_of<T>, scratch);
    // Accumulators: one per output element, laid out in the keepdim shape.
    Buffer acc_buf(dtype_of<Acc>, p.out_keep.sizes, p.out_keep.ndim);
    const View acc = acc_buf.view();
    std::memset(acc.data, 0, static_cast<size_t>(acc.numel() * acc.itemsize()));
    View acc_bcast = acc;
    for (int d = 0; d < acc.ndim; ++d) {
      acc_bcast.sizes[d] = x.sizes[d];
      if (p.reduced[d]) acc_bcast.strides[d] = 0;
    }
    accumulate<T, Acc>(acc_bcast, x);
    const View* ins[1] = {&acc};
    if constexpr (Mean) {
      // ATen: sum rounded to the dtype, then divided by the count (a scalar of the dtype).
      const A n = Scalar::of_int(p.count).rounded<T>();
      map<T, Acc>(p.out_keep, ins, [n](Acc s) { return load(convert<T>(s)) / n; });
    } else {
      map<T, Acc>(p.out_keep, ins, [](Acc s) { return s; });
    }
  });
}

template <bool Mean, uint32_t Set>
void reduction_kernel(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t input_h, diopiSize_t dim) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(out, Set, "out");
  check_dtype(input, kAllTypes, "input");
  const ReducePlan plan = plan_reduction(input, out, dim);
  launch(kernel, ctx, out, [plan] { reduce<Mean, Set>(plan); });
}

template <bool kMax>
void extreme_reduction(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiSize_t dim, bool keepdim) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "self");
  check_dtype(input, kFloating | kIntegral, "self");
  SIMK_CHECK(out.dtype == input.dtype, "out has dtype %s, self %s: they must match",
             dtype_name(out.dtype), dtype_name(input.dtype));
  const ReducePlan p = plan_reduction(input, out, dim);
  SIMK_CHECK(!keepdim || out.ndim == input.ndim,
             "keepdim is true but out %s does not have the rank of self %s",
             out.shape_str().c_str(), input.shape_str().c_str());
  for (int d = 0; d < input.ndim; ++d)
    SIMK_CHECK(!p.reduced[d] || input.sizes[d] > 0,
               "cannot take the %s over dim %d of self %s: it has no elements",
               kMax ? "amax" : "amin", d, input.shape_str().c_str());
  SIMK_CHECK(input.ndim > 0 || input.numel() == 1, "empty 0-dim input");
  launch(kernel, ctx, out, [=] {
    dispatch<kFloating | kIntegral>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const std::vector<T> x = packed<T>(input);
      // Row-major strides of the kept shape; 0 along reduced dims.
      const View& keep = p.out_keep;
      int64_t kstride[kMaxDims] = {};
      int64_t n_out = 1;
      for (int d = input.ndim - 1; d >= 0; --d) {
        kstride[d] = p.reduced[d] ? 0 : n_out;
        n_out *= keep.sizes[d];
      }
      std::vector<T> best(static_cast<size_t>(n_out));
      std::vector<char> seen(best.size(), 0);
      int64_t index[kMaxDims] = {};
      int64_t o = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        const auto v = load(x[i]);
        if (!seen[o]) {
          best[o] = x[i];
          seen[o] = 1;
        } else {
          const auto b = load(best[o]);
          const bool better = kMax ? (v > b) : (v < b);
          if (!is_nan(b) && (is_nan(v) || better)) best[o] = x[i];
        }
        for (int d = input.ndim - 1; d >= 0; --d) {  // advance the row-major index
          o += kstride[d];
          if (++index[d] < input.sizes[d]) break;
          o -= kstride[d] * input.sizes[d];
          index[d] = 0;
        }
      }
      unpack(keep, best);
    });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_REDUCE_H_
