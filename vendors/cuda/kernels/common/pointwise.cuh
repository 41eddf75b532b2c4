// Entry-point helpers for the point-wise families: out = f(inputs...) where every input is first
// converted to out's dtype (the wrapper has already chosen out's dtype by torch's promotion
// rules, so computing in it is what ATen does). `make` builds the functor for the compute type:
//
//   cuk::unary<kFloating>(ctx, out, input, [&](auto acc) {
//     using A = cuk::TypeOf<decltype(acc)>;
//     return ExpF<A>{};
//   });
#ifndef CUDA_KERNELS_COMMON_POINTWISE_CUH_
#define CUDA_KERNELS_COMMON_POINTWISE_CUH_

#include "elementwise.cuh"

namespace cuk {

// out = f(a...) with all operands in out's dtype; declines dtypes outside `Set`.
template <uint32_t Set, class Make, class... Tensors>
void pointwise(diopiContextHandle_t ctx, const Tensor& out, Make&& make, const Tensors&... in) {
  dispatch<Set>(out.dtype, "out", [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    auto f = make(TypeTag<A>{});
    const cudaStream_t stream = stream_of(ctx);
    map<T, decltype((void)in, T{})...>(stream, out, f, as_dtype(ctx, in, out.dtype)...);
  });
}

// The comparison shape: out (bool, or the operands' dtype for in-place forms) = pred(a, b...)
// computed in `compute`'s dtype. Other out dtypes compute into a bool scratch first.
template <uint32_t Set, class Make, class... Tensors>
void predicate(diopiContextHandle_t ctx, const Tensor& out, diopiDtype_t compute, Make&& make,
               const Tensors&... in) {
  const cudaStream_t stream = stream_of(ctx);
  dispatch<Set>(compute, "input", [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    auto f = make(TypeTag<A>{});
    if (out.dtype == diopi_dtype_bool) {
      map<bool, decltype((void)in, T{})...>(stream, out, f, as_dtype(ctx, in, compute)...);
    } else if (out.dtype == compute) {
      map<T, decltype((void)in, T{})...>(stream, out, f, as_dtype(ctx, in, compute)...);
    } else {
      const Tensor tmp = scratch_like(ctx, out, diopi_dtype_bool);
      map<bool, decltype((void)in, T{})...>(stream, tmp, f, as_dtype(ctx, in, compute)...);
      cast_copy(stream, out, tmp);
    }
  });
}

// The dtype two operands are compared or combined in: floating beats integral beats bool; the
// wider of two floats (float16 with bfloat16 meet in float32), the wider of two integers.
diopiDtype_t common_dtype(diopiDtype_t a, diopiDtype_t b);

}  // namespace cuk

#endif  // CUDA_KERNELS_COMMON_POINTWISE_CUH_
