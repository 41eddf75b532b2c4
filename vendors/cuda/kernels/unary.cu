// Unary point-wise math: abs, neg, sign, exp, log/log2/log10/log1p, sqrt, rsqrt, sin, cos, tanh,
// sigmoid, reciprocal, erf, floor, ceil (out-of-place and in-place) and logical_not. The input is
// converted to out's dtype and computed in acc_t (float for 16-bit floats), as ATen's CUDA
// kernels do.
#include <diopi/functions.h>

#include "common/math.cuh"
#include "common/pointwise.cuh"

using namespace cuk;

namespace {

// One functor per operation, templated on the compute type A.
#define CUK_UNARY_FUNCTOR(Name, expr)                                   \
  template <class A>                                                    \
  struct Name {                                                         \
    __device__ __forceinline__ A operator()(A x) const { return expr; } \
  };

CUK_UNARY_FUNCTOR(AbsF, x < A(0) ? -x : x)
CUK_UNARY_FUNCTOR(NegF, -x)
CUK_UNARY_FUNCTOR(SignF, A((A(0) < x) - (x < A(0))))
CUK_UNARY_FUNCTOR(ExpF, dev::exp(x))
CUK_UNARY_FUNCTOR(LogF, dev::log(x))
CUK_UNARY_FUNCTOR(Log2F, dev::log2(x))
CUK_UNARY_FUNCTOR(Log10F, dev::log10(x))
CUK_UNARY_FUNCTOR(Log1pF, dev::log1p(x))
CUK_UNARY_FUNCTOR(SqrtF, dev::sqrt(x))
CUK_UNARY_FUNCTOR(RsqrtF, dev::rsqrt(x))
CUK_UNARY_FUNCTOR(SinF, dev::sin(x))
CUK_UNARY_FUNCTOR(CosF, dev::cos(x))
CUK_UNARY_FUNCTOR(TanhF, dev::tanh(x))
CUK_UNARY_FUNCTOR(SigmoidF, dev::sigmoid(x))
CUK_UNARY_FUNCTOR(ReciprocalF, A(1) / x)
CUK_UNARY_FUNCTOR(ErfF, dev::erf(x))
CUK_UNARY_FUNCTOR(FloorF, dev::floor(x))
CUK_UNARY_FUNCTOR(CeilF, dev::ceil(x))
#undef CUK_UNARY_FUNCTOR

// abs(NaN) is NaN and abs(-0.0) is +0.0 for floats: fabs, not the comparison.
template <class A>
struct FloatAbsF {
  __device__ __forceinline__ A operator()(A x) const { return dev::fabs(x); }
};

template <uint32_t Set, template <class> class F>
diopiError_t run(const char* name, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h) {
  return guarded(name, [&] {
    const Tensor out = output(out_h, "out");
    const Tensor in = input(input_h, "input");
    check_same_shape(out, in, "out", "input");
    pointwise<Set>(
        ctx, out, [](auto acc) { return F<TypeOf<decltype(acc)>>{}; }, in);
  });
}

constexpr uint32_t kSigned =
    kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

template <class A>
struct AbsAnyF {
  __device__ __forceinline__ A operator()(A x) const {
    if constexpr (std::is_floating_point<A>::value) {
      return FloatAbsF<A>{}(x);
    } else {
      return AbsF<A>{}(x);
    }
  }
};

template <class A>
struct SignAnyF {  // 0 for NaN, like ATen
  __device__ __forceinline__ A operator()(A x) const { return SignF<A>{}(x); }
};

struct LogicalNotF {
  template <class A>
  __device__ __forceinline__ bool operator()(A x) const {
    return !(x != A(0));
  }
};

diopiError_t logical_not(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h) {
  return guarded("diopiLogicalNot", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor in = input(input_h, "input");
    check_same_shape(out, in, "out", "input");
    predicate<kAllTypes>(
        ctx, out, in.dtype, [](auto) { return LogicalNotF{}; }, in);
  });
}

}  // namespace

// Entry points are spelled out (no macro) so that `make new-vendor` and grep find each one.
extern "C" diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kSigned, AbsAnyF>("diopiAbs", ctx, out, input);
}
extern "C" diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kSigned, AbsAnyF>("diopiAbsInp", ctx, input, input);
}

extern "C" diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kSigned, NegF>("diopiNeg", ctx, out, input);
}
extern "C" diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kSigned, NegF>("diopiNegInp", ctx, input, input);
}

extern "C" diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kFloating, ExpF>("diopiExp", ctx, out, input);
}
extern "C" diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, ExpF>("diopiExpInp", ctx, input, input);
}

extern "C" diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kFloating, LogF>("diopiLog", ctx, out, input);
}
extern "C" diopiError_t diopiLogInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, LogF>("diopiLogInp", ctx, input, input);
}

extern "C" diopiError_t diopiLog2(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return run<kFloating, Log2F>("diopiLog2", ctx, out, input);
}
extern "C" diopiError_t diopiLog2Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, Log2F>("diopiLog2Inp", ctx, input, input);
}

extern "C" diopiError_t diopiLog10(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  return run<kFloating, Log10F>("diopiLog10", ctx, out, input);
}
extern "C" diopiError_t diopiLog10Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, Log10F>("diopiLog10Inp", ctx, input, input);
}

extern "C" diopiError_t diopiLog1p(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  return run<kFloating, Log1pF>("diopiLog1p", ctx, out, input);
}
extern "C" diopiError_t diopiLog1pInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, Log1pF>("diopiLog1pInp", ctx, input, input);
}

extern "C" diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return run<kFloating, SqrtF>("diopiSqrt", ctx, out, input);
}
extern "C" diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, SqrtF>("diopiSqrtInp", ctx, input, input);
}

extern "C" diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  return run<kFloating, RsqrtF>("diopiRsqrt", ctx, out, input);
}
extern "C" diopiError_t diopiRsqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, RsqrtF>("diopiRsqrtInp", ctx, input, input);
}

extern "C" diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kFloating, SinF>("diopiSin", ctx, out, input);
}
extern "C" diopiError_t diopiSinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, SinF>("diopiSinInp", ctx, input, input);
}

extern "C" diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kFloating, CosF>("diopiCos", ctx, out, input);
}
extern "C" diopiError_t diopiCosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, CosF>("diopiCosInp", ctx, input, input);
}

extern "C" diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return run<kFloating, TanhF>("diopiTanh", ctx, out, input);
}
extern "C" diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, TanhF>("diopiTanhInp", ctx, input, input);
}

extern "C" diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input) {
  return run<kFloating, SigmoidF>("diopiSigmoid", ctx, out, input);
}
extern "C" diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, SigmoidF>("diopiSigmoidInp", ctx, input, input);
}

extern "C" diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input) {
  return run<kFloating, ReciprocalF>("diopiReciprocal", ctx, out, input);
}
extern "C" diopiError_t diopiReciprocalInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, ReciprocalF>("diopiReciprocalInp", ctx, input, input);
}

extern "C" diopiError_t diopiErf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input) {
  return run<kFloating, ErfF>("diopiErf", ctx, out, input);
}
extern "C" diopiError_t diopiErfInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, ErfF>("diopiErfInp", ctx, input, input);
}

extern "C" diopiError_t diopiFloor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  return run<kFloating, FloorF>("diopiFloor", ctx, out, input);
}
extern "C" diopiError_t diopiFloorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, FloorF>("diopiFloorInp", ctx, input, input);
}

extern "C" diopiError_t diopiCeil(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return run<kFloating, CeilF>("diopiCeil", ctx, out, input);
}
extern "C" diopiError_t diopiCeilInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return run<kFloating, CeilF>("diopiCeilInp", ctx, input, input);
}

extern "C" diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return run<kSigned, SignAnyF>("diopiSign", ctx, out, input);
}

extern "C" diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input) {
  return logical_not(ctx, out, input);
}

extern "C" diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return logical_not(ctx, input, input);
}
