// Device math on compute types: one name per function, overloaded for float and double (the
// compute types of every floating storage type), so functors templated on the compute type A
// call dev::exp(x) and get expf or exp.
#ifndef CUDA_KERNELS_COMMON_MATH_CUH_
#define CUDA_KERNELS_COMMON_MATH_CUH_

namespace cuk {
namespace dev {

#define CUK_MATH1(name, f32, f64)                                   \
  __device__ __forceinline__ float name(float x) { return f32(x); } \
  __device__ __forceinline__ double name(double x) { return f64(x); }

CUK_MATH1(exp, expf, ::exp)
CUK_MATH1(log, logf, ::log)
CUK_MATH1(log2, log2f, ::log2)
CUK_MATH1(log10, log10f, ::log10)
CUK_MATH1(log1p, log1pf, ::log1p)
CUK_MATH1(sqrt, sqrtf, ::sqrt)
CUK_MATH1(rsqrt, rsqrtf, ::rsqrt)
CUK_MATH1(sin, sinf, ::sin)
CUK_MATH1(cos, cosf, ::cos)
CUK_MATH1(tanh, tanhf, ::tanh)
CUK_MATH1(erf, erff, ::erf)
CUK_MATH1(floor, floorf, ::floor)
CUK_MATH1(ceil, ceilf, ::ceil)
CUK_MATH1(trunc, truncf, ::trunc)
CUK_MATH1(fabs, fabsf, ::fabs)
#undef CUK_MATH1

__device__ __forceinline__ float pow(float x, float y) { return powf(x, y); }
__device__ __forceinline__ double pow(double x, double y) { return ::pow(x, y); }
__device__ __forceinline__ float fmod(float x, float y) { return fmodf(x, y); }
__device__ __forceinline__ double fmod(double x, double y) { return ::fmod(x, y); }

template <class A>
__device__ __forceinline__ bool isnan(A x) {
  return x != x;
}
template <class A>
__device__ __forceinline__ A sigmoid(A x) {
  return A(1) / (A(1) + exp(-x));
}

}  // namespace dev
}  // namespace cuk

#endif  // CUDA_KERNELS_COMMON_MATH_CUH_
