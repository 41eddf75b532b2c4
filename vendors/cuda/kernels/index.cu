// Indexing along one dim: index_select, gather, their gradients, and scatter (src tensor or
// scalar value; reduce none, "add" or "multiply").
//
// All of them walk a row-major loop over one "iteration shape" (out's for the selections, the
// index's for the scatters) with three strided operands; the indexed operand's coordinate along
// `dim` comes from the index value instead of the loop. index_select is gather with the 1-D
// index broadcast over the iteration shape (stride 0 outside `dim`), so both share one kernel,
// and both gradients share one scatter-add kernel.
//
// Index values live on the device and are never read on the host, so they cannot be validated
// before the launch; an index outside [0, size) is never dereferenced: gather and index_select
// write 0 for it, the gradients and scatter skip it (the sim vendor and ATen fail the call).
//
// Gradients accumulate with atomics: float for float32 and the 16-bit types (then rounded once
// into the output), double for float64, integer adds for int32/int64, OR for bool. The order of
// repeated indices is not fixed, so float sums are reproducible to rounding only. scatter with
// repeated indices and no reduce keeps one of the written values, unspecified which (as
// torch's CUDA scatter); "add" and "multiply" combine all of them atomically in the tensor's
// own dtype (a 16-bit "add" rounds at every step, as the sim vendor and torch do).
#include <diopi/functions.h>

#include <cstring>
#include <type_traits>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

constexpr uint32_t kScatterTypes = cuk::kFloating | cuk::dtype_bit(diopi_dtype_int32) |
                                   cuk::dtype_bit(diopi_dtype_int64) |
                                   cuk::dtype_bit(diopi_dtype_bool);
constexpr uint32_t kInt64 = cuk::dtype_bit(diopi_dtype_int64);

// ---------------------------------------------------------------- host helpers

// A 0-dim tensor as the 1-D tensor of its one element, so that dim 0 exists.
cuk::Tensor promote(cuk::Tensor t) {
  if (t.ndim == 0) {
    t.ndim = 1;
    t.sizes[0] = 1;
    t.strides[0] = 1;
  }
  return t;
}

// The 0-D or 1-D `index` laid along dim `d` of `shape`: element p of the view is index[p[d]].
cuk::Tensor along(const cuk::Tensor& index, const cuk::Tensor& shape, int d) {
  cuk::Tensor v = index;
  v.ndim = shape.ndim;
  v.numel = shape.numel;
  for (int k = 0; k < shape.ndim; ++k) {
    v.sizes[k] = shape.sizes[k];
    v.strides[k] = 0;
  }
  v.strides[d] = index.ndim == 1 ? index.strides[0] : 0;
  return v;
}

// The loop over `shape` with operands target (its stride along d dropped: the index supplies
// that coordinate), index and other.
cuk::Geometry<3> indexed_geometry(const cuk::Tensor& shape, const cuk::Tensor& target,
                                  const cuk::Tensor& index, const cuk::Tensor* other, int d) {
  cuk::Geometry<3> g;
  g.ndim = shape.ndim;
  for (int k = 0; k < shape.ndim; ++k) {
    g.sizes[k] = shape.sizes[k];
    g.strides[0][k] = k == d ? 0 : target.strides[k];
    g.strides[1][k] = index.strides[k];
    g.strides[2][k] = other != nullptr ? other->strides[k] : 0;
  }
  return g;
}

void check_gather_shapes(const cuk::Tensor& input, const cuk::Tensor& index, int d) {
  CUK_CHECK(index.ndim == input.ndim, "index %s and input %s must have the same number of dims",
            index.shape_str().c_str(), input.shape_str().c_str());
  for (int k = 0; k < input.ndim; ++k)
    CUK_CHECK(k == d || index.sizes[k] <= input.sizes[k],
              "index %s is larger than input %s outside dim %d", index.shape_str().c_str(),
              input.shape_str().c_str(), d);
}

// ---------------------------------------------------------------- device helpers

// The type gradients are summed in.
template <class T>
using sum_t = std::conditional_t<std::is_same<cuk::acc_t<T>, float>::value, float, T>;

__device__ __forceinline__ void accumulate(float* p, float v) { atomicAdd(p, v); }
__device__ __forceinline__ void accumulate(double* p, double v) { atomicAdd(p, v); }
__device__ __forceinline__ void accumulate(int32_t* p, int32_t v) { atomicAdd(p, v); }
__device__ __forceinline__ void accumulate(int64_t* p, int64_t v) {
  // Two's complement: the unsigned sum has the signed sum's bits.
  atomicAdd(reinterpret_cast<unsigned long long*>(p), static_cast<unsigned long long>(v));
}
__device__ __forceinline__ void accumulate(bool* p, bool v) {
  if (v) *p = true;  // every writer stores the same value: no atomic needed
}

template <class T>
__device__ __forceinline__ void atomic_add(T* p, T x) {
  if constexpr (std::is_same<T, bool>::value || std::is_same<T, int64_t>::value) {
    accumulate(p, x);
  } else {
    atomicAdd(p, x);  // float, double, int32, and native f16 / bf16 adds (sm_70+)
  }
}

template <size_t Bytes>
struct CasWord;
template <>
struct CasWord<2> {
  using type = unsigned short;
};
template <>
struct CasWord<4> {
  using type = unsigned int;
};
template <>
struct CasWord<8> {
  using type = unsigned long long;
};

template <class T>
__device__ __forceinline__ void atomic_mul(T* p, T x) {
  if constexpr (std::is_same<T, bool>::value) {
    if (!x) *p = false;
  } else {
    using U = typename CasWord<sizeof(T)>::type;
    U* word = reinterpret_cast<U*>(p);
    U old = *word, assumed;
    do {
      assumed = old;
      T cur;
      memcpy(&cur, &assumed, sizeof(T));
      const T next = cuk::convert<T>(cuk::load(cur) * cuk::load(x));
      U bits;
      memcpy(&bits, &next, sizeof(T));
      old = atomicCAS(word, assumed, bits);
    } while (assumed != old);  // compares bits, so a NaN product terminates too
  }
}

// ---------------------------------------------------------------- kernels

// Operands: 0 input (indexed along d), 1 index, 2 out.
template <class W, class I>
__global__ void gather_kernel(int64_t n, cuk::Geometry<3> g, const W* input, const I* index, W* out,
                              int64_t size_d, int64_t stride_d) {
  int64_t off[3];
  CUK_GRID_STRIDE(e, n) {
    g.offsets(e, off);
    const int64_t r = static_cast<int64_t>(index[off[1]]);
    out[off[2]] = (r >= 0 && r < size_d) ? input[off[0] + r * stride_d] : W(0);
  }
}

// Operands: 0 acc (indexed along d), 1 index, 2 src.
template <class S, class T, class I>
__global__ void scatter_add_kernel(int64_t n, cuk::Geometry<3> g, S* acc, const I* index,
                                   const T* src, int64_t size_d, int64_t stride_d) {
  int64_t off[3];
  CUK_GRID_STRIDE(e, n) {
    g.offsets(e, off);
    const int64_t r = static_cast<int64_t>(index[off[1]]);
    if (r < 0 || r >= size_d) continue;
    accumulate(acc + off[0] + r * stride_d, cuk::convert<S>(src[off[2]]));
  }
}

enum Reduce : int { kReplace, kAdd, kMultiply };

// Operands: 0 out (indexed along d), 1 index, 2 src (unused when src is null: then `value`).
template <class T>
__global__ void scatter_kernel(int64_t n, cuk::Geometry<3> g, T* out, const int64_t* index,
                               const T* src, T value, int64_t size_d, int64_t stride_d,
                               int reduce) {
  int64_t off[3];
  CUK_GRID_STRIDE(e, n) {
    g.offsets(e, off);
    const int64_t r = index[off[1]];
    if (r < 0 || r >= size_d) continue;
    T* p = out + off[0] + r * stride_d;
    const T x = src != nullptr ? src[off[2]] : value;
    if (reduce == kReplace) {
      *p = x;
    } else if (reduce == kAdd) {
      atomic_add(p, x);
    } else {
      atomic_mul(p, x);
    }
  }
}

// ---------------------------------------------------------------- launchers

// out[p] = input[p with p[d] = index[p]] over out's shape; index has out's shape (or is a
// broadcast view of it). Operands of equal ndim >= 1.
void gather(cudaStream_t stream, const cuk::Tensor& out, const cuk::Tensor& input,
            const cuk::Tensor& index, int d) {
  if (out.numel == 0) return;
  const cuk::Geometry<3> g = indexed_geometry(out, input, index, &out, d);
  cuk::dispatch<cuk::kIndexTypes>(index.dtype, "index", [&](auto itag) {
    using I = cuk::TypeOf<decltype(itag)>;
    cuk::dispatch_word(out.itemsize(), [&](auto wtag) {
      using W = cuk::TypeOf<decltype(wtag)>;
      gather_kernel<W, I><<<cuk::blocks_for(out.numel), cuk::kThreads, 0, stream>>>(
          out.numel, g, input.ptr<const W>(), index.ptr<const I>(), out.ptr<W>(), input.sizes[d],
          input.strides[d]);
    });
  });
  cuk::check_launch("gather");
}

// grad_input = 0, then grad_input[p with p[d] = index[p]] += src[p] over src's shape; index has
// src's shape (or is a broadcast view of it). Operands of equal ndim >= 1.
void scatter_add_into_zeros(diopiContextHandle_t ctx, const cuk::Tensor& grad_input,
                            const cuk::Tensor& src_arg, const cuk::Tensor& index, int d) {
  const cudaStream_t stream = cuk::stream_of(ctx);
  cuk::dispatch<kScatterTypes>(grad_input.dtype, "grad_input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using S = sum_t<T>;
    const diopiDtype_t sum_dtype =
        std::is_same<S, T>::value ? grad_input.dtype : diopi_dtype_float32;
    // Accumulate straight into grad_input when it already is the dense accumulator.
    const cuk::Tensor acc = (sum_dtype == grad_input.dtype && grad_input.is_contiguous())
                                ? grad_input
                                : cuk::scratch_like(ctx, grad_input, sum_dtype);
    zero_fill(stream, acc);
    if (src_arg.numel > 0) {
      const cuk::Tensor src = cuk::as_dtype(ctx, src_arg, grad_input.dtype);
      const cuk::Geometry<3> g = indexed_geometry(src, acc, index, &src, d);
      cuk::dispatch<cuk::kIndexTypes>(index.dtype, "index", [&](auto itag) {
        using I = cuk::TypeOf<decltype(itag)>;
        scatter_add_kernel<S, T, I><<<cuk::blocks_for(src.numel), cuk::kThreads, 0, stream>>>(
            src.numel, g, acc.ptr<S>(), index.ptr<const I>(), src.ptr<const T>(),
            grad_input.sizes[d], acc.strides[d]);
      });
      cuk::check_launch("scatter_add");
    }
    if (acc.data != grad_input.data) cuk::cast_copy(stream, grad_input, acc);
  });
}

Reduce parse_reduce(const char* reduce) {
  if (reduce == nullptr || *reduce == '\0') return kReplace;
  if (std::strcmp(reduce, "add") == 0) return kAdd;
  if (std::strcmp(reduce, "multiply") == 0) return kMultiply;
  cuk::failf(diopiErrorOccurred, "reduce must be null, \"add\" or \"multiply\", got \"%s\"",
             reduce);
}

// out = input (unless out is input), then out[p with p[dim] = index[p]] (op)= src[p] (or value)
// for every position p of index. `src` is null for the scalar forms.
void scatter(diopiContextHandle_t ctx, const cuk::Tensor& out, const cuk::Tensor& input,
             int64_t dim, const cuk::Tensor& index, const cuk::Tensor* src,
             const cuk::Scalar& value, const char* reduce_arg) {
  cuk::check_dtype(out, kScatterTypes, "out");
  cuk::check_dtype(input, kScatterTypes, "input");
  cuk::check_dtype(index, kInt64, "index");
  CUK_CHECK(cuk::same_shape(out, input) && out.dtype == input.dtype,
            "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
            cuk::dtype_name(out.dtype), input.shape_str().c_str(), cuk::dtype_name(input.dtype));
  const int d = static_cast<int>(cuk::wrap_dim(dim, input.ndim, "dim"));
  const Reduce reduce = parse_reduce(reduce_arg);
  if (src != nullptr)
    CUK_CHECK(src->dtype == out.dtype, "src has dtype %s, input %s", cuk::dtype_name(src->dtype),
              cuk::dtype_name(out.dtype));
  if (index.numel > 0) {
    CUK_CHECK(index.ndim == input.ndim, "index %s and input %s must have the same number of dims",
              index.shape_str().c_str(), input.shape_str().c_str());
    for (int k = 0; k < input.ndim; ++k) {
      CUK_CHECK(k == d || index.sizes[k] <= input.sizes[k],
                "index %s is larger than input %s outside dim %d", index.shape_str().c_str(),
                input.shape_str().c_str(), d);
      CUK_CHECK(src == nullptr || (src->ndim == index.ndim && index.sizes[k] <= src->sizes[k]),
                "index %s is larger than src %s", index.shape_str().c_str(),
                src->shape_str().c_str());
    }
  }
  const cudaStream_t stream = cuk::stream_of(ctx);
  if (out.data != input.data) cuk::cast_copy(stream, out, input);
  if (index.numel == 0) return;
  const cuk::Tensor o = promote(out), idx = promote(index);
  const cuk::Tensor s = src != nullptr ? promote(*src) : cuk::Tensor{};
  const cuk::Geometry<3> g = indexed_geometry(idx, o, idx, src != nullptr ? &s : nullptr, d);
  cuk::dispatch<kScatterTypes>(out.dtype, "out", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    const T v = value.is_float ? cuk::convert<T>(value.f) : cuk::convert<T>(value.i);
    scatter_kernel<T><<<cuk::blocks_for(idx.numel), cuk::kThreads, 0, stream>>>(
        idx.numel, g, o.ptr<T>(), idx.ptr<const int64_t>(),
        src != nullptr ? s.ptr<const T>() : nullptr, v, o.sizes[d], o.strides[d],
        static_cast<int>(reduce));
  });
  cuk::check_launch("scatter");
}

}  // namespace

// ---------------------------------------------------------------- index_select

extern "C" diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input, int64_t dim,
                                         diopiConstTensorHandle_t index) {
  return cuk::guarded("diopiIndexSelect", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor in = cuk::input(input, "input");
    const cuk::Tensor idx = cuk::input(index, "index");
    cuk::check_dtype(o, cuk::kAllTypes, "out");
    cuk::check_dtype(idx, cuk::kIndexTypes, "index");
    CUK_DECLINE_UNLESS(o.dtype == in.dtype, "out has dtype %s but input %s",
                       cuk::dtype_name(o.dtype), cuk::dtype_name(in.dtype));
    CUK_CHECK(idx.ndim <= 1, "index must be 0-D or 1-D, got %s", idx.shape_str().c_str());
    const int d = static_cast<int>(cuk::wrap_dim(dim, in.ndim, "dim"));
    if (in.ndim == 0) {
      CUK_CHECK(o.ndim <= 1 && o.numel == 1 && idx.numel == 1,
                "index_select of a 0-dim input takes one index");
    } else {
      cuk::Tensor expected = in;
      expected.sizes[d] = idx.numel;
      cuk::check_same_shape(o, expected, "out", "input with dim's size set to index's");
    }
    const cuk::Tensor op = promote(o);
    gather(cuk::stream_of(ctx), op, promote(in), along(idx, op, d), d);
  });
}

extern "C" diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx,
                                                 diopiTensorHandle_t grad_input,
                                                 diopiConstTensorHandle_t grad,
                                                 diopiSize_t input_sizes, int64_t dim,
                                                 diopiConstTensorHandle_t index) {
  return cuk::guarded("diopiIndexSelectBackward", [&] {
    const cuk::Tensor gi = cuk::output(grad_input, "grad_input");
    const cuk::Tensor g = cuk::input(grad, "grad");
    const cuk::Tensor idx = cuk::input(index, "index");
    cuk::check_dtype(idx, cuk::kIndexTypes, "index");
    bool sizes_ok = input_sizes.len == gi.ndim;
    for (int k = 0; sizes_ok && k < gi.ndim; ++k) sizes_ok = input_sizes.data[k] == gi.sizes[k];
    CUK_CHECK(sizes_ok, "grad_input has shape %s, input_sizes differ", gi.shape_str().c_str());
    const int d = static_cast<int>(cuk::wrap_dim(dim, gi.ndim, "dim"));
    CUK_CHECK(idx.ndim <= 1, "index must be 0-D or 1-D, got %s", idx.shape_str().c_str());
    if (gi.ndim == 0) {
      CUK_CHECK(g.ndim <= 1 && g.numel == idx.numel, "grad %s does not match index %s",
                g.shape_str().c_str(), idx.shape_str().c_str());
    } else {
      cuk::Tensor expected = gi;
      expected.sizes[d] = idx.numel;
      cuk::check_same_shape(g, expected, "grad", "grad_input with dim's size set to index's");
    }
    const cuk::Tensor gp = promote(g);
    scatter_add_into_zeros(ctx, promote(gi), gp, along(idx, gp, d), d);
  });
}

// ---------------------------------------------------------------- gather

extern "C" diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, int64_t dim,
                                    diopiConstTensorHandle_t index) {
  return cuk::guarded("diopiGather", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor in = cuk::input(input, "input");
    const cuk::Tensor idx = cuk::input(index, "index");
    cuk::check_dtype(o, cuk::kAllTypes, "out");
    cuk::check_dtype(idx, kInt64, "index");
    CUK_CHECK(o.dtype == in.dtype, "out has dtype %s but input %s", cuk::dtype_name(o.dtype),
              cuk::dtype_name(in.dtype));
    const int d = static_cast<int>(cuk::wrap_dim(dim, in.ndim, "dim"));
    check_gather_shapes(in, idx, d);
    cuk::check_same_shape(o, idx, "out", "index");
    gather(cuk::stream_of(ctx), promote(o), promote(in), promote(idx), d);
  });
}

extern "C" diopiError_t diopiGatherBackward(diopiContextHandle_t ctx,
                                            diopiTensorHandle_t grad_input,
                                            diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, int64_t dim,
                                            diopiConstTensorHandle_t index) {
  return cuk::guarded("diopiGatherBackward", [&] {
    const cuk::Tensor gi = cuk::output(grad_input, "grad_input");
    const cuk::Tensor go = cuk::input(grad_output, "grad_output");
    const cuk::Tensor in = cuk::input(input, "input");
    const cuk::Tensor idx = cuk::input(index, "index");
    cuk::check_dtype(idx, kInt64, "index");
    const int d = static_cast<int>(cuk::wrap_dim(dim, in.ndim, "dim"));
    check_gather_shapes(in, idx, d);
    cuk::check_same_shape(gi, in, "grad_input", "input");
    cuk::check_same_shape(go, idx, "grad_output", "index");
    scatter_add_into_zeros(ctx, promote(gi), promote(go), promote(idx), d);
  });
}

// ---------------------------------------------------------------- scatter

extern "C" diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input, int64_t dim,
                                     diopiConstTensorHandle_t src, diopiConstTensorHandle_t index,
                                     const char* reduce) {
  return cuk::guarded("diopiScatter", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor in = cuk::input(input, "input");
    const cuk::Tensor s = cuk::input(src, "src");
    const cuk::Tensor idx = cuk::input(index, "index");
    scatter(ctx, o, in, dim, idx, &s, cuk::Scalar{}, reduce);
  });
}

extern "C" diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                        int64_t dim, diopiConstTensorHandle_t src,
                                        diopiConstTensorHandle_t index, const char* reduce) {
  return cuk::guarded("diopiScatterInp", [&] {
    const cuk::Tensor io = cuk::output(input, "input");
    const cuk::Tensor s = cuk::input(src, "src");
    const cuk::Tensor idx = cuk::input(index, "index");
    scatter(ctx, io, io, dim, idx, &s, cuk::Scalar{}, reduce);
  });
}

extern "C" diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input, int64_t dim,
                                           const diopiScalar_t* value,
                                           diopiConstTensorHandle_t index, const char* reduce) {
  return cuk::guarded("diopiScatterScalar", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor in = cuk::input(input, "input");
    const cuk::Tensor idx = cuk::input(index, "index");
    scatter(ctx, o, in, dim, idx, nullptr, cuk::scalar_arg(value, "value"), reduce);
  });
}

extern "C" diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                              int64_t dim, const diopiScalar_t* value,
                                              diopiConstTensorHandle_t index, const char* reduce) {
  return cuk::guarded("diopiScatterInpScalar", [&] {
    const cuk::Tensor io = cuk::output(input, "input");
    const cuk::Tensor idx = cuk::input(index, "index");
    scatter(ctx, io, io, dim, idx, nullptr, cuk::scalar_arg(value, "value"), reduce);
  });
}
