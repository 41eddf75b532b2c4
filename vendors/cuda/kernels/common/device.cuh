// Device-side vocabulary of the CUDA kernels: storage types per dtype, the float compute type of
// 16-bit floats, the host dtype switch, launch geometry and strided index arithmetic.
//
//   cuk::dispatch<cuk::kFloating>(t.dtype, "input", [&](auto tag) {
//     using T = cuk::TypeOf<decltype(tag)>;   // __half, __nv_bfloat16, float, double
//     using A = cuk::acc_t<T>;                 // float for the 16-bit types
//     ...
//   });
#ifndef CUDA_KERNELS_COMMON_DEVICE_CUH_
#define CUDA_KERNELS_COMMON_DEVICE_CUH_

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>

#include "cuk.h"

namespace cuk {

template <class T>
struct TypeTag {
  using type = T;
};
template <class Tag>
using TypeOf = typename std::decay_t<Tag>::type;

// ---- compute type: 16-bit floats compute in float, integers in int64, others as stored.
template <class T>
struct AccOf {
  using type =
      std::conditional_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int64_t, T>;
};
template <>
struct AccOf<__half> {
  using type = float;
};
template <>
struct AccOf<__nv_bfloat16> {
  using type = float;
};
template <class T>
using acc_t = typename AccOf<T>::type;

// Conversions between every storage and compute type (16-bit floats round to nearest even).
template <class To, class From>
__host__ __device__ __forceinline__ To convert(From v) {
  if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (std::is_same<From, __half>::value ||
                       std::is_same<From, __nv_bfloat16>::value) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same<To, __half>::value) {
    return __float2half_rn(static_cast<float>(v));
  } else if constexpr (std::is_same<To, __nv_bfloat16>::value) {
    return __float2bfloat16_rn(static_cast<float>(v));
  } else if constexpr (std::is_same<To, bool>::value) {
    return v != From(0);
  } else if constexpr (std::is_same<To, uint8_t>::value && std::is_floating_point<From>::value) {
    // Through int64, as ATen casts to uint8 (c10's static_cast_with_inter_type): a negative
    // value wraps (-1.5 -> 255) as on CPU, where the device's direct conversion saturates to 0
    // (the conformance suite's float-to-uint8 casts on the H200, 2026-11-28).
    return static_cast<uint8_t>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}
template <class T>
__host__ __device__ __forceinline__ acc_t<T> load(T v) {
  return convert<acc_t<T>>(v);
}

// ---- host dtype switch over a compile-time set; a dtype outside it declines to the CPU.
template <uint32_t Set, class F>
void dispatch(diopiDtype_t d, const char* what, F&& f) {
#define CUK_CASE(D, T)                         \
  case D:                                      \
    if constexpr ((Set & dtype_bit(D)) != 0) { \
      f(TypeTag<T>{});                         \
      return;                                  \
    }                                          \
    break;
  switch (d) {
    CUK_CASE(diopi_dtype_bool, bool)
    CUK_CASE(diopi_dtype_int8, int8_t)
    CUK_CASE(diopi_dtype_uint8, uint8_t)
    CUK_CASE(diopi_dtype_int16, int16_t)
    CUK_CASE(diopi_dtype_int32, int32_t)
    CUK_CASE(diopi_dtype_int64, int64_t)
    CUK_CASE(diopi_dtype_float16, __half)
    CUK_CASE(diopi_dtype_bfloat16, __nv_bfloat16)
    CUK_CASE(diopi_dtype_float32, float)
    CUK_CASE(diopi_dtype_float64, double)
    default:
      break;
  }
#undef CUK_CASE
  failf(diopiDtypeNotSupported, "%s has dtype %s, which this kernel does not compute", what,
        dtype_name(d));
}

// ---- raw words: data movement that never looks at values switches on the element size only.
template <class F>
void dispatch_word(int64_t bytes, F&& f) {
  switch (bytes) {
    case 1:
      return f(TypeTag<uint8_t>{});
    case 2:
      return f(TypeTag<uint16_t>{});
    case 4:
      return f(TypeTag<uint32_t>{});
    case 8:
      return f(TypeTag<uint64_t>{});
    default:
      failf(diopiDtypeNotSupported, "no word type of %lld bytes", static_cast<long long>(bytes));
  }
}

// ---- launch geometry: grid-stride loops over int64 element counts.
constexpr int kThreads = 256;
inline unsigned blocks_for(int64_t n, int threads = kThreads) {
  const int64_t b = (n + threads - 1) / threads;
  return static_cast<unsigned>(b < 65535 * 8 ? (b > 0 ? b : 1) : 65535 * 8);
}
#define CUK_GRID_STRIDE(i, n)                                                            \
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(blockDim.x) * gridDim.x)

// ---- strided index arithmetic: element i of a row-major walk over `sizes`, as the element
// offset of each of N operands with their own strides (0 for broadcast dimensions).
template <int N>
struct Geometry {
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  int64_t strides[N][kMaxDims] = {};

  __device__ __forceinline__ void offsets(int64_t i, int64_t* off) const {
#pragma unroll
    for (int k = 0; k < N; ++k) off[k] = 0;
    for (int d = ndim - 1; d >= 0; --d) {
      const int64_t idx = i % sizes[d];
      i /= sizes[d];
#pragma unroll
      for (int k = 0; k < N; ++k) off[k] += idx * strides[k][d];
    }
  }
};

// The geometry of `shape` for operands already broadcast to it (cuk::broadcast_to).
template <int N>
Geometry<N> geometry(const Tensor& shape, const Tensor* const (&ops)[N]) {
  Geometry<N> g;
  g.ndim = shape.ndim;
  for (int d = 0; d < shape.ndim; ++d) g.sizes[d] = shape.sizes[d];
  for (int k = 0; k < N; ++k)
    for (int d = 0; d < shape.ndim; ++d) g.strides[k][d] = ops[k]->strides[d];
  return g;
}

// ---- warp and block reductions (blockDim.x a multiple of 32, at most 1024)
template <class A, class Op>
__device__ __forceinline__ A warp_reduce(A v, Op op) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v = op(v, __shfl_xor_sync(0xffffffffu, v, offset));
  return v;
}
// Every thread of the block gets the reduction of all threads' `v`. `shared` holds 32 A.
template <class A, class Op>
__device__ __forceinline__ A block_reduce(A v, Op op, A identity, A* shared) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = warp_reduce(v, op);
  __syncthreads();  // `shared` may still be read by a previous call
  if (lane == 0) shared[warp] = v;
  __syncthreads();
  const int warps = (blockDim.x + 31) / 32;
  v = threadIdx.x < warps ? shared[threadIdx.x] : identity;
  if (warp == 0) v = warp_reduce(v, op);
  if (threadIdx.x == 0) shared[0] = v;
  __syncthreads();
  return shared[0];
}

struct SumOp {
  template <class A>
  __device__ __forceinline__ A operator()(A a, A b) const {
    return a + b;
  }
};
struct MaxOp {  // NaN-propagating, as torch.max
  template <class A>
  __device__ __forceinline__ A operator()(A a, A b) const {
    return (a != a || a > b) ? a : b;
  }
};
struct MinOp {
  template <class A>
  __device__ __forceinline__ A operator()(A a, A b) const {
    return (a != a || a < b) ? a : b;
  }
};

}  // namespace cuk

#endif  // CUDA_KERNELS_COMMON_DEVICE_CUH_
