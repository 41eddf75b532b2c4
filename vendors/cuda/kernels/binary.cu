// Binary and ternary arithmetic: add, sub, mul, div (with rounding modes), maximum, minimum,
// pow, clamp, addcmul, addcdiv, lerp; tensor and scalar operands, out-of-place and in-place.
// Operands are converted to out's dtype (chosen by the wrapper with torch's promotion rules) and
// computed in acc_t. Integer division is declined (a zero divisor would give garbage on the GPU
// where ATen raises), so it runs on CPU.
#include <diopi/functions.h>

#include "common/math.cuh"
#include "common/pointwise.cuh"

using namespace cuk;

namespace {

template <class A>
struct AxpyF {  // x + alpha * y
  A alpha;
  __device__ __forceinline__ A operator()(A x, A y) const { return x + alpha * y; }
};
template <class A>
struct AddConstF {
  A c;
  __device__ __forceinline__ A operator()(A x) const { return x + c; }
};
template <class A>
struct MulF {
  __device__ __forceinline__ A operator()(A x, A y) const { return x * y; }
};
template <class A>
struct MulConstF {
  A c;
  __device__ __forceinline__ A operator()(A x) const { return x * c; }
};

// Division in a rounding mode; floor division follows ATen's div_floor for floats (exact
// multiples stay exact, the sign of zero is kept).
template <class A>
__device__ __forceinline__ A divide(A a, A b, diopiRoundMode_t mode) {
  if (mode == RoundModeTrunc) return dev::trunc(a / b);
  if (mode != RoundModeFloor) return a / b;
  if (b == A(0)) return a / b;
  const A mod = dev::fmod(a, b);
  A div = (a - mod) / b;
  if (mod != A(0) && (b < A(0)) != (mod < A(0))) div -= A(1);
  if (div == A(0)) return copysign(A(0), a / b);
  A floored = dev::floor(div);
  if (div - floored > A(0.5)) floored += A(1);
  return floored;
}
template <class A>
struct DivF {
  diopiRoundMode_t mode;
  __device__ __forceinline__ A operator()(A x, A y) const { return divide(x, y, mode); }
};
template <class A>
struct DivConstF {
  A c;
  diopiRoundMode_t mode;
  __device__ __forceinline__ A operator()(A x) const { return divide(x, c, mode); }
};

template <class A>
struct MaximumF {  // NaN wins, as torch.maximum
  __device__ __forceinline__ A operator()(A x, A y) const {
    return (x != x || y != y) ? (x != x ? x : y) : (x > y ? x : y);
  }
};
template <class A>
struct MinimumF {
  __device__ __forceinline__ A operator()(A x, A y) const {
    return (x != x || y != y) ? (x != x ? x : y) : (x < y ? x : y);
  }
};

template <class A>
struct PowConstF {
  A e;
  __device__ __forceinline__ A operator()(A x) const {
    if (e == A(2)) return x * x;
    if (e == A(1)) return x;
    if (e == A(0.5)) return dev::sqrt(x);
    return dev::pow(x, e);
  }
};
template <class A>
struct PowF {
  __device__ __forceinline__ A operator()(A x, A e) const { return dev::pow(x, e); }
};

template <class A>
struct ClampConstF {
  bool has_lo, has_hi;
  A lo, hi;
  __device__ __forceinline__ A operator()(A x) const {
    if (x != x) return x;
    if (has_lo && x < lo) x = lo;
    if (has_hi && x > hi) x = hi;
    return x;
  }
};
template <class A>
struct ClampF {  // missing bounds are passed as `x` itself and ignored
  bool has_lo, has_hi;
  __device__ __forceinline__ A operator()(A x, A lo, A hi) const {
    if (x != x) return x;
    if (has_lo && (lo != lo || x < lo)) x = lo;
    if (has_hi && (hi != hi || x > hi)) x = hi;
    return x;
  }
};

template <class A>
struct AddcmulF {
  A value;
  __device__ __forceinline__ A operator()(A x, A a, A b) const { return x + value * a * b; }
};
template <class A>
struct AddcdivF {
  A value;
  __device__ __forceinline__ A operator()(A x, A a, A b) const { return x + value * (a / b); }
};
template <class A>
struct LerpF {  // ATen's two-sided form keeps lerp(a, b, 1) == b exactly
  __device__ __forceinline__ A operator()(A x, A end, A w) const {
    return w < A(0.5) ? x + w * (end - x) : end - (end - x) * (A(1) - w);
  }
};
template <class A>
struct LerpConstF {
  A w;
  __device__ __forceinline__ A operator()(A x, A end) const { return LerpF<A>{}(x, end, w); }
};

// ---- entry-point bodies
void add(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
         diopiConstTensorHandle_t other_h, const diopiScalar_t* alpha_arg, double sign) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), b = input(other_h, "other");
  const Scalar alpha = scalar_or(alpha_arg, scalar_of(int64_t{1}));
  pointwise<kFloatingAndInt>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return AxpyF<A>{static_cast<A>(sign) * alpha.as<A>()};
      },
      a, b);
}

void add_scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
                const diopiScalar_t* other_arg, const diopiScalar_t* alpha_arg, double sign) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Scalar other = scalar_arg(other_arg, "other");
  const Scalar alpha = scalar_or(alpha_arg, scalar_of(int64_t{1}));
  pointwise<kFloatingAndInt>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return AddConstF<A>{static_cast<A>(sign) * alpha.as<A>() * other.as<A>()};
      },
      a);
}

void mul(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
         diopiConstTensorHandle_t other_h) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), b = input(other_h, "other");
  pointwise<kFloatingAndInt>(
      ctx, out, [](auto acc) { return MulF<TypeOf<decltype(acc)>>{}; }, a, b);
}

void mul_scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
                const diopiScalar_t* other_arg) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Scalar other = scalar_arg(other_arg, "other");
  pointwise<kFloatingAndInt>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return MulConstF<A>{other.as<A>()};
      },
      a);
}

void div(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
         diopiConstTensorHandle_t other_h, diopiRoundMode_t mode) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), b = input(other_h, "other");
  pointwise<kFloating>(
      ctx, out, [&](auto acc) { return DivF<TypeOf<decltype(acc)>>{mode}; }, a, b);
}

void div_scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
                const diopiScalar_t* other_arg, diopiRoundMode_t mode) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Scalar other = scalar_arg(other_arg, "other");
  pointwise<kFloating>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return DivConstF<A>{other.as<A>(), mode};
      },
      a);
}

template <template <class> class F>
void binary(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
            diopiConstTensorHandle_t other_h, const char* other_name) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), b = input(other_h, other_name);
  pointwise<kFloatingAndInt>(
      ctx, out, [](auto acc) { return F<TypeOf<decltype(acc)>>{}; }, a, b);
}

void clamp_scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                  diopiConstTensorHandle_t in_h, const diopiScalar_t* lo, const diopiScalar_t* hi) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Scalar l = scalar_or(lo, Scalar{}), h = scalar_or(hi, Scalar{});
  pointwise<kFloatingAndInt>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return ClampConstF<A>{lo != nullptr, hi != nullptr, l.as<A>(), h.as<A>()};
      },
      a);
}

void clamp(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
           diopiConstTensorHandle_t lo_h, diopiConstTensorHandle_t hi_h) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Tensor lo = lo_h ? input(lo_h, "min") : a, hi = hi_h ? input(hi_h, "max") : a;
  const bool has_lo = lo_h != nullptr, has_hi = hi_h != nullptr;
  pointwise<kFloatingAndInt>(
      ctx, out,
      [&](auto acc) {
        return ClampF<TypeOf<decltype(acc)>>{has_lo, has_hi};
      },
      a, lo, hi);
}

template <template <class> class F>
void addc(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
          diopiConstTensorHandle_t t1_h, diopiConstTensorHandle_t t2_h,
          const diopiScalar_t* value_arg) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), t1 = input(t1_h, "tensor1"), t2 = input(t2_h, "tensor2");
  const Scalar value = scalar_or(value_arg, scalar_of(int64_t{1}));
  pointwise<kFloating>(
      ctx, out,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return F<A>{value.as<A>()};
      },
      a, t1, t2);
}

}  // namespace

// ---- add / sub
extern "C" diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                 const diopiScalar_t* alpha) {
  return guarded("diopiAdd", [&] { add(ctx, out, input, other, alpha, 1.0); });
}
extern "C" diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  return guarded("diopiAddInp", [&] { add(ctx, input, input, other, alpha, 1.0); });
}
extern "C" diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                       const diopiScalar_t* alpha) {
  return guarded("diopiAddScalar", [&] { add_scalar(ctx, out, input, other, alpha, 1.0); });
}
extern "C" diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other, const diopiScalar_t* alpha) {
  return guarded("diopiAddInpScalar", [&] { add_scalar(ctx, input, input, other, alpha, 1.0); });
}
extern "C" diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                 const diopiScalar_t* alpha) {
  return guarded("diopiSub", [&] { add(ctx, out, input, other, alpha, -1.0); });
}
extern "C" diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  return guarded("diopiSubInp", [&] { add(ctx, input, input, other, alpha, -1.0); });
}
extern "C" diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                       const diopiScalar_t* alpha) {
  return guarded("diopiSubScalar", [&] { add_scalar(ctx, out, input, other, alpha, -1.0); });
}
extern "C" diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other, const diopiScalar_t* alpha) {
  return guarded("diopiSubInpScalar", [&] { add_scalar(ctx, input, input, other, alpha, -1.0); });
}

// ---- mul / div
extern "C" diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiMul", [&] { mul(ctx, out, input, other); });
}
extern "C" diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other) {
  return guarded("diopiMulInp", [&] { mul(ctx, input, input, other); });
}
extern "C" diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiMulScalar", [&] { mul_scalar(ctx, out, input, other); });
}
extern "C" diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other) {
  return guarded("diopiMulInpScalar", [&] { mul_scalar(ctx, input, input, other); });
}
extern "C" diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                 diopiRoundMode_t rounding_mode) {
  return guarded("diopiDiv", [&] { div(ctx, out, input, other, rounding_mode); });
}
extern "C" diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other,
                                    diopiRoundMode_t rounding_mode) {
  return guarded("diopiDivInp", [&] { div(ctx, input, input, other, rounding_mode); });
}
extern "C" diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                       diopiRoundMode_t rounding_mode) {
  return guarded("diopiDivScalar", [&] { div_scalar(ctx, out, input, other, rounding_mode); });
}
extern "C" diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other,
                                          diopiRoundMode_t rounding_mode) {
  return guarded("diopiDivInpScalar", [&] { div_scalar(ctx, input, input, other, rounding_mode); });
}

// ---- maximum / minimum / pow
extern "C" diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t other) {
  return guarded("diopiMaximum", [&] { binary<MaximumF>(ctx, out, input, other, "other"); });
}
extern "C" diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t other) {
  return guarded("diopiMinimum", [&] { binary<MinimumF>(ctx, out, input, other, "other"); });
}
extern "C" diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                 diopiConstTensorHandle_t input_h, const diopiScalar_t* exponent) {
  return guarded("diopiPow", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor a = input(input_h, "input");
    const Scalar e = scalar_arg(exponent, "exponent");
    pointwise<kFloating>(
        ctx, out,
        [&](auto acc) {
          using A = TypeOf<decltype(acc)>;
          return PowConstF<A>{e.as<A>()};
        },
        a);
  });
}
extern "C" diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                       diopiConstTensorHandle_t input_h,
                                       diopiConstTensorHandle_t exponent_h) {
  return guarded("diopiPowTensor", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor a = input(input_h, "input"), e = input(exponent_h, "exponent");
    pointwise<kFloating>(
        ctx, out, [](auto acc) { return PowF<TypeOf<decltype(acc)>>{}; }, a, e);
  });
}

// ---- clamp
extern "C" diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input, const diopiScalar_t* min,
                                         const diopiScalar_t* max) {
  return guarded("diopiClampScalar", [&] { clamp_scalar(ctx, out, input, min, max); });
}
extern "C" diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                            const diopiScalar_t* min, const diopiScalar_t* max) {
  return guarded("diopiClampInpScalar", [&] { clamp_scalar(ctx, input, input, min, max); });
}
extern "C" diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                            diopiConstTensorHandle_t input,
                                            const diopiScalar_t* min) {
  return guarded("diopiClampMinScalar", [&] { clamp_scalar(ctx, out, input, min, nullptr); });
}
extern "C" diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                               const diopiScalar_t* min) {
  return guarded("diopiClampMinInpScalar", [&] { clamp_scalar(ctx, input, input, min, nullptr); });
}
extern "C" diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                            diopiConstTensorHandle_t input,
                                            const diopiScalar_t* max) {
  return guarded("diopiClampMaxScalar", [&] { clamp_scalar(ctx, out, input, nullptr, max); });
}
extern "C" diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                               const diopiScalar_t* max) {
  return guarded("diopiClampMaxInpScalar", [&] { clamp_scalar(ctx, input, input, nullptr, max); });
}
extern "C" diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                                   diopiConstTensorHandle_t max) {
  return guarded("diopiClamp", [&] { clamp(ctx, out, input, min, max); });
}
extern "C" diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                      diopiConstTensorHandle_t min, diopiConstTensorHandle_t max) {
  return guarded("diopiClampInp", [&] { clamp(ctx, input, input, min, max); });
}
extern "C" diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t min) {
  return guarded("diopiClampMin", [&] { clamp(ctx, out, input, min, nullptr); });
}
extern "C" diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         diopiConstTensorHandle_t min) {
  return guarded("diopiClampMinInp", [&] { clamp(ctx, input, input, min, nullptr); });
}
extern "C" diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t max) {
  return guarded("diopiClampMax", [&] { clamp(ctx, out, input, nullptr, max); });
}
extern "C" diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         diopiConstTensorHandle_t max) {
  return guarded("diopiClampMaxInp", [&] { clamp(ctx, input, input, nullptr, max); });
}

// ---- addcmul / addcdiv / lerp
extern "C" diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t tensor1,
                                     diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  return guarded("diopiAddcmul", [&] { addc<AddcmulF>(ctx, out, input, tensor1, tensor2, value); });
}
extern "C" diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t tensor1,
                                     diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  return guarded("diopiAddcdiv", [&] { addc<AddcdivF>(ctx, out, input, tensor1, tensor2, value); });
}
extern "C" diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                        diopiConstTensorHandle_t input_h,
                                        diopiConstTensorHandle_t end_h,
                                        const diopiScalar_t* weight) {
  return guarded("diopiLerpScalar", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor a = input(input_h, "input"), end = input(end_h, "end");
    const Scalar w = scalar_arg(weight, "weight");
    pointwise<kFloating>(
        ctx, out,
        [&](auto acc) {
          using A = TypeOf<decltype(acc)>;
          return LerpConstF<A>{w.as<A>()};
        },
        a, end);
  });
}
extern "C" diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                        diopiConstTensorHandle_t input_h,
                                        diopiConstTensorHandle_t end_h,
                                        diopiConstTensorHandle_t weight_h) {
  return guarded("diopiLerpTensor", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor a = input(input_h, "input"), end = input(end_h, "end"),
                 w = input(weight_h, "weight");
    pointwise<kFloating>(
        ctx, out, [](auto acc) { return LerpF<TypeOf<decltype(acc)>>{}; }, a, end, w);
  });
}
