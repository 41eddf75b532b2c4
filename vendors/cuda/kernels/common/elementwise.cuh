// The generic element-wise loop: out[i] = f(in0[i], in1[i], ...) over out's shape, with the
// inputs broadcast to it. One kernel template per shape of loop:
//   - contiguous: every operand dense and the same shape (the common case in training): a flat
//     grid-stride loop with no index arithmetic;
//   - strided: any strides, broadcast inputs (stride 0), transposed or sliced views.
// Operands are loaded as acc_t of their storage type, `f` computes in those types and its result
// is converted to out's storage type. f is a functor with a __device__ operator() (no extended
// lambdas needed).
#ifndef CUDA_KERNELS_COMMON_ELEMENTWISE_CUH_
#define CUDA_KERNELS_COMMON_ELEMENTWISE_CUH_

#include <utility>

#include "device.cuh"

namespace cuk {

template <class F, class Out, class... In>
__global__ void map_contiguous(F f, int64_t n, Out* out, const In*... in) {
  CUK_GRID_STRIDE(i, n) { out[i] = convert<Out>(f(load(in[i])...)); }
}

template <class F, class Out, class... In, size_t... K>
__device__ __forceinline__ void map_one(const F& f, Out* out, const int64_t* off,
                                        std::index_sequence<K...>, const In*... in) {
  out[off[0]] = convert<Out>(f(load(in[off[K + 1]])...));
}

template <class F, class Out, class... In>
__global__ void map_strided(F f, int64_t n, Geometry<1 + sizeof...(In)> g, Out* out,
                            const In*... in) {
  int64_t off[1 + sizeof...(In)];
  CUK_GRID_STRIDE(i, n) {
    g.offsets(i, off);
    map_one(f, out, off, std::index_sequence_for<In...>{}, in...);
  }
}

// out = f(in...) with each input broadcast to out's shape. Out and In... are the storage types
// of the operands (the caller dispatched on their dtypes). Launches nothing for an empty out.
template <class Out, class... In, class F, class... Tensors>
void map(cudaStream_t stream, const Tensor& out, F f, const Tensors&... in) {
  static_assert(sizeof...(In) == sizeof...(Tensors), "one storage type per input tensor");
  if (out.numel == 0) return;
  const int64_t n = out.numel;
  const bool dense = out.is_contiguous() && ((in.is_contiguous() && same_shape(in, out)) && ...);
  if (dense) {
    map_contiguous<F, Out, In...><<<blocks_for(n), kThreads, 0, stream>>>(
        f, n, out.ptr<Out>(), in.template ptr<const In>()...);
  } else {
    const Tensor b[] = {out, broadcast_to(in, out, "input")...};
    const Tensor* ops[1 + sizeof...(In)];
    for (size_t k = 0; k < 1 + sizeof...(In); ++k) ops[k] = &b[k];
    map_strided<F, Out, In...>
        <<<blocks_for(n), kThreads, 0, stream>>>(f, n, geometry<1 + sizeof...(In)>(out, ops),
                                                 out.ptr<Out>(), in.template ptr<const In>()...);
  }
  check_launch("element-wise kernel");
}

}  // namespace cuk

#endif  // CUDA_KERNELS_COMMON_ELEMENTWISE_CUH_
