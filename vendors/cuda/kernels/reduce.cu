// Reductions: sum / mean / amax / amin over a set of dims, max / min with indices along one dim,
// their all-element forms, and argmax / argmin.
//
// Every reduction is planned as a dense source [outer, len, inner] reduced along `len` into
// outer * inner output rows, in the row-major order of the output. When the reduced dims are
// adjacent (after dropping size-1 dims) the input is used in place (or one contiguous copy when
// it is strided or needs a dtype conversion); otherwise the kept dims are gathered in front of
// the reduced ones in a dense copy. inner == 1 reduces each row with a warp or a block; inner > 1
// (a column reduction such as sum over dim 0 of [N, C]) gives each thread one output so that
// neighbouring threads read neighbouring addresses. Rows too few to fill the GPU are split into
// chunks whose partial results a second pass combines. Results are deterministic.
#include <diopi/functions.h>

#include <algorithm>
#include <limits>
#include <type_traits>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

using cuk::Tensor;

// ---------------------------------------------------------------- accumulators and operators

// The extreme so far and its index along the reduced dims; i < 0: no element seen yet.
template <class A>
struct ArgAcc {
  A v;
  int64_t i;
};

template <class A>
__device__ __forceinline__ A shfl_xor(A v, int mask) {
  return __shfl_xor_sync(0xffffffffu, v, mask);
}
template <class A>
__device__ __forceinline__ ArgAcc<A> shfl_xor(ArgAcc<A> v, int mask) {
  return {shfl_xor(v.v, mask), shfl_xor(v.i, mask)};
}

// The first extreme wins ties; a NaN beats every number and the first NaN wins (ATen).
// Commutative and associative, so any combination order gives the sequential answer.
// (v != v: NaN; always false for integers.)
template <bool kMax>
struct ArgOp {
  template <class A>
  __device__ __forceinline__ ArgAcc<A> operator()(ArgAcc<A> a, ArgAcc<A> b) const {
    if (a.i < 0) return b;
    if (b.i < 0) return a;
    const bool a_nan = a.v != a.v, b_nan = b.v != b.v;
    if (a_nan != b_nan) return a_nan ? a : b;
    if (!a_nan && a.v != b.v) return (kMax ? a.v > b.v : a.v < b.v) ? a : b;
    return a.i < b.i ? a : b;
  }
};

// Identity of the NaN-propagating MaxOp / MinOp.
template <class A, bool kMax>
A worst() {
  if constexpr (std::is_floating_point<A>::value) {
    return kMax ? -std::numeric_limits<A>::infinity() : std::numeric_limits<A>::infinity();
  } else {
    return kMax ? std::numeric_limits<A>::lowest() : std::numeric_limits<A>::max();
  }
}

// ---------------------------------------------------------------- loads and stores

template <class T>
struct LoadValue {
  const T* x;
  __device__ __forceinline__ cuk::acc_t<T> operator()(int64_t off, int64_t) const {
    return cuk::load(x[off]);
  }
};
template <class T>
struct LoadArg {
  const T* x;
  __device__ __forceinline__ ArgAcc<cuk::acc_t<T>> operator()(int64_t off, int64_t i) const {
    return {cuk::load(x[off]), i};
  }
};
template <class Acc>
struct LoadPartial {
  const Acc* p;
  __device__ __forceinline__ Acc operator()(int64_t off, int64_t) const { return p[off]; }
};

template <class Acc>
struct StorePartial {
  Acc* p;
  int64_t splits;
  __device__ __forceinline__ void operator()(int64_t row, int64_t split, Acc v) const {
    p[row * splits + split] = v;
  }
};
template <class T>
struct StoreValue {
  T* out;
  template <class A>
  __device__ __forceinline__ void operator()(int64_t row, int64_t, A v) const {
    out[row] = cuk::convert<T>(v);
  }
};
template <class T>
struct StoreMean {  // ATen: the sum rounded to T, divided by the count rounded to T
  T* out;
  cuk::acc_t<T> count;
  __device__ __forceinline__ void operator()(int64_t row, int64_t, cuk::acc_t<T> v) const {
    out[row] = cuk::convert<T>(cuk::load(cuk::convert<T>(v)) / count);
  }
};
template <class T>
struct StoreArg {  // either pointer may be null
  T* values;
  int64_t* indices;
  __device__ __forceinline__ void operator()(int64_t row, int64_t, ArgAcc<cuk::acc_t<T>> v) const {
    if (values != nullptr) values[row] = cuk::convert<T>(v.v);
    if (indices != nullptr) indices[row] = v.i;
  }
};

// ---------------------------------------------------------------- kernels

// Row r of the source starts at base(r); its elements are `inner` apart. Each row is cut into
// `splits` chunks of `chunk` elements; one unit of work is one (row, chunk).
struct Layout {
  int64_t len, inner, chunk, splits;
  __device__ __forceinline__ int64_t base(int64_t row) const {
    return (row / inner) * len * inner + row % inner;
  }
};

template <class Acc, class Op>
__device__ __forceinline__ Acc warp_all(Acc v, Op op) {
#pragma unroll
  for (int mask = 16; mask > 0; mask /= 2) v = op(v, shfl_xor(v, mask));
  return v;
}

// Reduction over a group of kGroup threads (a warp, or the whole block of kGroup threads); the
// group's lane 0 holds the result. Every thread of the block must call it.
template <int kGroup, class Acc, class Op>
__device__ __forceinline__ Acc group_reduce(Acc v, Op op, Acc identity) {
  v = warp_all(v, op);
  if constexpr (kGroup == 32) {
    return v;
  } else {
    __shared__ Acc partial[kGroup / 32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    __syncthreads();  // the previous round may still be reading `partial`
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = lane < kGroup / 32 ? partial[lane] : identity;
    return warp_all(v, op);
  }
}

// One group of kGroup threads per unit; for dense rows (inner == 1).
template <int kGroup, class Acc, class Op, class Load, class Store>
__global__ void __launch_bounds__(cuk::kThreads)
    reduce_groups(Op op, Acc identity, Load load, Store store, Layout l, int64_t rows) {
  constexpr int kPerBlock = cuk::kThreads / kGroup;
  const int lane = threadIdx.x % kGroup, group = threadIdx.x / kGroup;
  const int64_t units = rows * l.splits;
  // The loop bound is uniform over the block, as group_reduce's barriers need.
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * kPerBlock; first < units;
       first += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t u = first + group, row = u / l.splits, split = u % l.splits;
    Acc v = identity;
    if (u < units) {
      const int64_t base = l.base(row), begin = split * l.chunk;
      const int64_t end = min(l.len, begin + l.chunk);
      for (int64_t i = begin + lane; i < end; i += kGroup) v = op(v, load(base + i * l.inner, i));
    }
    v = group_reduce<kGroup>(v, op, identity);
    if (u < units && lane == 0) store(row, split, v);
  }
}

// One thread per unit; neighbouring threads take neighbouring rows (columns of the source when
// inner > 1, so their loads coalesce).
template <class Acc, class Op, class Load, class Store>
__global__ void reduce_threads(Op op, Acc identity, Load load, Store store, Layout l,
                               int64_t rows) {
  CUK_GRID_STRIDE(u, rows * l.splits) {
    const int64_t row = u % rows, split = u / rows;
    const int64_t base = l.base(row), begin = split * l.chunk;
    const int64_t end = min(l.len, begin + l.chunk);
    Acc v = identity;
    for (int64_t i = begin; i < end; ++i) v = op(v, load(base + i * l.inner, i));
    store(row, split, v);
  }
}

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

unsigned group_blocks(int64_t units, int per_block) {
  return static_cast<unsigned>(std::min<int64_t>(ceil_div(units, per_block), 65535 * 8));
}

template <class Acc, class Op, class Load, class Store>
void launch_pass(cudaStream_t stream, Op op, Acc identity, Load load, Store store, Layout l,
                 int64_t rows) {
  const int64_t units = rows * l.splits;
  if (l.inner > 1 || l.chunk <= 16) {
    reduce_threads<<<cuk::blocks_for(units), cuk::kThreads, 0, stream>>>(op, identity, load, store,
                                                                         l, rows);
  } else if (l.chunk <= 1024) {
    reduce_groups<32><<<group_blocks(units, cuk::kThreads / 32), cuk::kThreads, 0, stream>>>(
        op, identity, load, store, l, rows);
  } else {
    reduce_groups<cuk::kThreads>
        <<<group_blocks(units, 1), cuk::kThreads, 0, stream>>>(op, identity, load, store, l, rows);
  }
  cuk::check_launch("reduction");
}

// The source layout: dense [outer, len, inner], reduced along len.
struct Plan {
  int64_t outer = 1, len = 1, inner = 1;
  int64_t rows() const { return outer * inner; }
};

// Below these, rows are split into chunks (about one H100's worth of resident work).
constexpr int64_t kTargetBlocks = 1024;      // row reductions: a group per (row, chunk)
constexpr int64_t kTargetThreads = 1 << 18;  // column reductions: a thread per (row, chunk)
constexpr int64_t kRowChunk = 16384;         // fewest elements a group's chunk holds
constexpr int64_t kColumnChunk = 32;         // fewest elements a thread's chunk holds

// Reduces each row of the planned source with `op` and hands the result to `store(row, 0, acc)`.
template <class Acc, class Op, class Load, class Store>
void reduce(diopiContextHandle_t ctx, const Plan& p, Op op, Acc identity, Load load, Store store) {
  const int64_t rows = p.rows();
  if (rows == 0) return;
  const cudaStream_t stream = cuk::stream_of(ctx);
  int64_t splits = 1;
  if (p.inner > 1 && rows < kTargetThreads) {
    splits = std::min(ceil_div(p.len, kColumnChunk), ceil_div(kTargetThreads, rows));
  } else if (p.inner == 1 && rows < kTargetBlocks) {
    splits = std::min(ceil_div(p.len, kRowChunk), ceil_div(kTargetBlocks, rows));
  }
  if (splits <= 1) {
    launch_pass(stream, op, identity, load, store, Layout{p.len, p.inner, p.len, 1}, rows);
    return;
  }
  const int64_t chunk = ceil_div(p.len, splits);
  splits = ceil_div(p.len, chunk);
  const int64_t words = ceil_div(rows * splits * static_cast<int64_t>(sizeof(Acc)), 8);
  Acc* partial = static_cast<Acc*>(cuk::scratch(ctx, diopi_dtype_int64, &words, 1).data);
  launch_pass(stream, op, identity, load, StorePartial<Acc>{partial, splits},
              Layout{p.len, p.inner, chunk, splits}, rows);
  launch_pass(stream, op, identity, LoadPartial<Acc>{partial}, store, Layout{splits, 1, splits, 1},
              rows);
}

// The source for reducing t over the dims flagged in `reduced`, in `dtype`, and its plan.
Tensor prepare(diopiContextHandle_t ctx, const Tensor& t, const bool* reduced, diopiDtype_t dtype,
               Plan* plan) {
  int64_t rows = 1, len = 1;
  for (int d = 0; d < t.ndim; ++d) (reduced[d] ? len : rows) *= t.sizes[d];
  *plan = Plan{rows, len, 1};
  if (t.numel == 0) return t;  // no element is read: sums give 0, means 0 / 0
  // Runs of kept / reduced dims, size-1 dims left out: at most one reduced run lets the
  // row-major order of t serve as [outer, len, inner].
  bool run_reduced[cuk::kMaxDims];
  int64_t run_size[cuk::kMaxDims];
  int runs = 0, reduced_runs = 0, reduced_at = -1;
  for (int d = 0; d < t.ndim; ++d) {
    if (t.sizes[d] == 1) continue;
    if (runs > 0 && run_reduced[runs - 1] == reduced[d]) {
      run_size[runs - 1] *= t.sizes[d];
      continue;
    }
    if (reduced[d]) {
      ++reduced_runs;
      reduced_at = runs;
    }
    run_reduced[runs] = reduced[d];
    run_size[runs++] = t.sizes[d];
  }
  Tensor gathered = t;  // the kept dims, then the reduced ones
  int k = 0;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < t.ndim; ++d)
      if (reduced[d] == (pass == 1)) {
        gathered.sizes[k] = t.sizes[d];
        gathered.strides[k++] = t.strides[d];
      }
  const bool in_order = reduced_runs <= 1;
  if (in_order && reduced_at >= 0) {
    plan->outer = plan->inner = 1;
    for (int r = 0; r < reduced_at; ++r) plan->outer *= run_size[r];
    for (int r = reduced_at + 1; r < runs; ++r) plan->inner *= run_size[r];
  }
  if (t.dtype == dtype && (!in_order || !t.is_contiguous()) && gathered.is_contiguous()) {
    *plan = Plan{rows, len, 1};  // e.g. a transposed view: its memory already is [rows, len]
    return gathered;
  }
  if (in_order) return cuk::contiguous(ctx, cuk::as_dtype(ctx, t, dtype));
  const Tensor dense = cuk::scratch(ctx, dtype, gathered.sizes, gathered.ndim);
  cuk::cast_copy(cuk::stream_of(ctx), dense, gathered);
  return dense;
}

// Flags the dims of `dim` (every dim when it is empty) and checks out's shape: the input's
// without the reduced dims, or with them as 1 (keepdim). Returns whether out keeps them.
bool plan_dims(const Tensor& in, const Tensor& out, diopiSize_t dim, bool* reduced) {
  const int nd = in.ndim;
  for (int d = 0; d < nd; ++d) reduced[d] = dim.data == nullptr || dim.len == 0;
  for (int64_t k = 0; dim.data != nullptr && k < dim.len; ++k) {
    const int64_t d = cuk::wrap_dim(dim.data[k], nd, "dim");
    if (nd == 0) continue;
    CUK_CHECK(!reduced[d], "dim %lld appears more than once in the reduction dims",
              static_cast<long long>(d));
    reduced[d] = true;
  }
  Tensor keep = in, drop = in;
  drop.ndim = 0;
  for (int d = 0; d < nd; ++d) {
    if (reduced[d]) keep.sizes[d] = 1;
    if (!reduced[d]) drop.sizes[drop.ndim++] = in.sizes[d];
  }
  const bool keepdim = cuk::same_shape(out, keep);
  CUK_CHECK(keepdim || cuk::same_shape(out, drop),
            "out has shape %s; reducing input %s gives %s (or %s with keepdim)",
            out.shape_str().c_str(), in.shape_str().c_str(), drop.shape_str().c_str(),
            keep.shape_str().c_str());
  return keepdim;
}

// Flags dim (wrapped) for a reduction along one non-empty dim and checks `out` against it.
void plan_one_dim(const Tensor& in, const Tensor& out, int64_t dim, bool* reduced,
                  const char* what) {
  const int64_t d = cuk::wrap_dim(dim, in.ndim, "dim");
  CUK_CHECK(in.ndim == 0 || in.sizes[d] > 0,
            "cannot take the %s over dim %lld of input %s: it has no elements", what,
            static_cast<long long>(d), in.shape_str().c_str());
  plan_dims(in, out, diopiSize_t{&d, in.ndim > 0 ? 1 : 0}, reduced);
}

constexpr uint32_t kValueTypes = cuk::kFloatingAndInt;  // what the extreme kernels compute
constexpr uint32_t kStoredTypes = cuk::kFloatingAndInt | cuk::kIntegral;  // values written

template <bool kMean, uint32_t kSet>
void sum_or_mean(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h, diopiSize_t dim) {
  const Tensor out = cuk::output(out_h, "out");
  const Tensor input = cuk::input(input_h, "input");
  cuk::check_dtype(input, cuk::kAllTypes, "input");
  bool reduced[cuk::kMaxDims];
  plan_dims(input, out, dim, reduced);
  cuk::dispatch<kSet>(out.dtype, "out", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    if (out.numel == 0) return;
    Plan plan;
    // As ATen's sum(dtype=...), the input is converted to out's dtype before it is summed.
    const Tensor src = prepare(ctx, input, reduced, out.dtype, &plan);
    const Tensor buf = out_buffer(ctx, out, out.dtype);
    if constexpr (kMean) {
      const A count = cuk::load(cuk::convert<T>(static_cast<double>(plan.len)));
      reduce(ctx, plan, cuk::SumOp{}, A(0), LoadValue<T>{src.ptr<const T>()},
             StoreMean<T>{buf.ptr<T>(), count});
    } else {
      reduce(ctx, plan, cuk::SumOp{}, A(0), LoadValue<T>{src.ptr<const T>()},
             StoreValue<T>{buf.ptr<T>()});
    }
    copy_back(ctx, out, buf);
  });
}

// The extreme (NaN propagating) over the flagged dims into out, converted to out's dtype.
template <bool kMax>
void extreme_values(diopiContextHandle_t ctx, const Tensor& input, const bool* reduced,
                    const Tensor& out) {
  cuk::dispatch<kValueTypes>(input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    if (out.numel == 0) return;
    Plan plan;
    const Tensor src = prepare(ctx, input, reduced, input.dtype, &plan);
    const Tensor buf = out_buffer(ctx, out, input.dtype);
    using Op = std::conditional_t<kMax, cuk::MaxOp, cuk::MinOp>;
    reduce(ctx, plan, Op{}, worst<A, kMax>(), LoadValue<T>{src.ptr<const T>()},
           StoreValue<T>{buf.ptr<T>()});
    copy_back(ctx, out, buf);
  });
}

template <bool kMax>
void amax_or_amin(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                  diopiConstTensorHandle_t self_h, diopiSize_t dim, bool keepdim) {
  const Tensor out = cuk::output(out_h, "out");
  const Tensor self = cuk::input(self_h, "self");
  CUK_CHECK(out.dtype == self.dtype, "out has dtype %s, self %s: they must match",
            cuk::dtype_name(out.dtype), cuk::dtype_name(self.dtype));
  bool reduced[cuk::kMaxDims];
  plan_dims(self, out, dim, reduced);
  CUK_CHECK(!keepdim || out.ndim == self.ndim,
            "keepdim is true but out %s does not have the rank of self %s", out.shape_str().c_str(),
            self.shape_str().c_str());
  for (int d = 0; d < self.ndim; ++d)
    CUK_CHECK(!reduced[d] || self.sizes[d] > 0,
              "cannot take the %s over dim %d of self %s: it has no elements",
              kMax ? "amax" : "amin", d, self.shape_str().c_str());
  extreme_values<kMax>(ctx, self, reduced, out);
}

// The first extreme (or NaN) along the flagged dims: its value into `values` and its index into
// `indices`; either may be absent (data == nullptr).
template <bool kMax>
void arg_extreme(diopiContextHandle_t ctx, const Tensor& input, const bool* reduced,
                 const Tensor& values, const Tensor& indices) {
  cuk::dispatch<kValueTypes>(input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    const Tensor& shape = values.data != nullptr ? values : indices;
    if (shape.numel == 0) return;
    Plan plan;
    const Tensor src = prepare(ctx, input, reduced, input.dtype, &plan);
    Tensor vbuf, ibuf;
    if (values.data != nullptr) vbuf = out_buffer(ctx, values, input.dtype);
    if (indices.data != nullptr) ibuf = out_buffer(ctx, indices, diopi_dtype_int64);
    reduce(ctx, plan, ArgOp<kMax>{}, ArgAcc<A>{A(0), -1}, LoadArg<T>{src.ptr<const T>()},
           StoreArg<T>{vbuf.ptr<T>(), ibuf.ptr<int64_t>()});
    if (values.data != nullptr) copy_back(ctx, values, vbuf);
    if (indices.data != nullptr) copy_back(ctx, indices, ibuf);
  });
}

template <bool kMax>
void max_or_min_dim(diopiContextHandle_t ctx, diopiTensorHandle_t values_h,
                    diopiTensorHandle_t indices_h, diopiConstTensorHandle_t input_h, int64_t dim) {
  const Tensor values = cuk::output(values_h, kMax ? "max" : "min");
  const Tensor indices = cuk::output(indices_h, kMax ? "max_indices" : "min_indices");
  const Tensor input = cuk::input(input_h, "input");
  cuk::check_dtype(values, kStoredTypes, kMax ? "max" : "min");
  cuk::check_dtype(indices, cuk::dtype_bit(diopi_dtype_int64), "indices");
  bool reduced[cuk::kMaxDims];
  plan_one_dim(input, values, dim, reduced, kMax ? "max" : "min");
  plan_one_dim(input, indices, dim, reduced, kMax ? "max" : "min");
  arg_extreme<kMax>(ctx, input, reduced, values, indices);
}

template <bool kMax>
void max_or_min_all(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t input_h) {
  const Tensor out = cuk::output(out_h, kMax ? "max" : "min");
  const Tensor input = cuk::input(input_h, "input");
  cuk::check_dtype(out, kStoredTypes, "out");
  CUK_CHECK(out.numel == 1, "out must have one element, got %s", out.shape_str().c_str());
  CUK_CHECK(input.numel > 0, "the %s of an empty tensor is undefined", kMax ? "max" : "min");
  bool reduced[cuk::kMaxDims];
  for (int d = 0; d < input.ndim; ++d) reduced[d] = true;
  extreme_values<kMax>(ctx, input, reduced, out);
}

// argmax / argmin; keepdim is read from out's shape (as the CPU path does).
template <bool kMax>
void argmax_or_argmin(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t input_h, const int64_t* dim) {
  const char* what = kMax ? "argmax" : "argmin";
  const Tensor out = cuk::output(out_h, "out");
  const Tensor input = cuk::input(input_h, "input");
  cuk::check_dtype(out, cuk::dtype_bit(diopi_dtype_int64), "out");
  bool reduced[cuk::kMaxDims];
  if (dim != nullptr) {
    plan_one_dim(input, out, *dim, reduced, what);
  } else {
    CUK_CHECK(input.numel > 0, "%s of an empty tensor is undefined", what);
    CUK_CHECK(out.numel == 1, "out must have one element, got %s", out.shape_str().c_str());
    for (int d = 0; d < input.ndim; ++d) reduced[d] = true;  // the flat index, row-major
  }
  arg_extreme<kMax>(ctx, input, reduced, Tensor{}, out);
}

}  // namespace

extern "C" diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiSize_t dim) {
  return cuk::guarded("diopiSum",
                      [&] { sum_or_mean<false, cuk::kFloatingAndInt>(ctx, out, input, dim); });
}

extern "C" diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiSize_t dim) {
  return cuk::guarded("diopiMean",
                      [&] { sum_or_mean<true, cuk::kFloating>(ctx, out, input, dim); });
}

extern "C" diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
  return cuk::guarded("diopiAmax", [&] { amax_or_amin<true>(ctx, out, self, dim, keepdim); });
}

extern "C" diopiError_t diopiAmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
  return cuk::guarded("diopiAmin", [&] { amax_or_amin<false>(ctx, out, self, dim, keepdim); });
}

extern "C" diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                                 diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                                 int64_t dim) {
  return cuk::guarded("diopiMax", [&] { max_or_min_dim<true>(ctx, max, max_indices, input, dim); });
}

extern "C" diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                                 diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                                 int64_t dim) {
  return cuk::guarded("diopiMin",
                      [&] { max_or_min_dim<false>(ctx, min, min_indices, input, dim); });
}

extern "C" diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                                    diopiConstTensorHandle_t input) {
  return cuk::guarded("diopiMaxAll", [&] { max_or_min_all<true>(ctx, max, input); });
}

extern "C" diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                                    diopiConstTensorHandle_t input) {
  return cuk::guarded("diopiMinAll", [&] { max_or_min_all<false>(ctx, min, input); });
}

extern "C" diopiError_t diopiArgmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, const int64_t* dim,
                                    bool keepdim) {
  (void)keepdim;  // read from out's shape
  return cuk::guarded("diopiArgmax", [&] { argmax_or_argmin<true>(ctx, out, input, dim); });
}

extern "C" diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, const int64_t* dim,
                                    bool keepdim) {
  (void)keepdim;  // read from out's shape
  return cuk::guarded("diopiArgmin", [&] { argmax_or_argmin<false>(ctx, out, input, dim); });
}
