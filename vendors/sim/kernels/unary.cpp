// Unary math: neg, exp, log, sqrt, rsqrt, abs, sin, cos, reciprocal, clamp. Computed in out's
// dtype (float for 16-bit floats); an input of another dtype is converted on read.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// Runs the element functor F (a class template over the compute type) over input -> out.
template <uint32_t Set, template <class> class F>
void unary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
           diopiConstTensorHandle_t input) {
  elementwise<Set>(
      kernel, ctx, out, [](auto tag) { return F<acc_t<TypeOf<decltype(tag)>>>{}; },
      In{input, "input"});
}

template <class A>
struct Neg {
  A operator()(A x) const { return -x; }
};
template <class A>
struct Exp {
  A operator()(A x) const { return std::exp(x); }
};
template <class A>
struct Log {
  A operator()(A x) const { return std::log(x); }
};
template <class A>
struct Sqrt {
  A operator()(A x) const { return std::sqrt(x); }
};
template <class A>
struct Rsqrt {
  A operator()(A x) const { return A(1) / std::sqrt(x); }
};
template <class A>
struct Abs {
  A operator()(A x) const {
    if constexpr (std::is_floating_point<A>::value) {
      return std::fabs(x);
    } else {
      return x < 0 ? -x : x;
    }
  }
};
template <class A>
struct Sin {
  A operator()(A x) const { return std::sin(x); }
};
template <class A>
struct Cos {
  A operator()(A x) const { return std::cos(x); }
};
template <class A>
struct Reciprocal {
  A operator()(A x) const { return A(1) / x; }
};

}  // namespace

diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiNeg);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Neg>(kernel, ctx, out, input); });
}

diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiNegInp);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Neg>(kernel, ctx, input, input); });
}

diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiExp);
  return guarded(kernel.name, [&] { unary<kFloating, Exp>(kernel, ctx, out, input); });
}

diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiExpInp);
  return guarded(kernel.name, [&] { unary<kFloating, Exp>(kernel, ctx, input, input); });
}

diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLog);
  return guarded(kernel.name, [&] { unary<kFloating, Log>(kernel, ctx, out, input); });
}

diopiError_t diopiLogInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiLogInp);
  return guarded(kernel.name, [&] { unary<kFloating, Log>(kernel, ctx, input, input); });
}

diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSqrt);
  return guarded(kernel.name, [&] { unary<kFloating, Sqrt>(kernel, ctx, out, input); });
}

diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiSqrtInp);
  return guarded(kernel.name, [&] { unary<kFloating, Sqrt>(kernel, ctx, input, input); });
}

diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiRsqrt);
  return guarded(kernel.name, [&] { unary<kFloating, Rsqrt>(kernel, ctx, out, input); });
}

diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiAbs);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Abs>(kernel, ctx, out, input); });
}

diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSin);
  return guarded(kernel.name, [&] { unary<kFloating, Sin>(kernel, ctx, out, input); });
}

diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiCos);
  return guarded(kernel.name, [&] { unary<kFloating, Cos>(kernel, ctx, out, input); });
}

diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiReciprocal);
  return guarded(kernel.name, [&] { unary<kFloating, Reciprocal>(kernel, ctx, out, input); });
}

diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                              diopiConstTensorHandle_t input, const diopiScalar_t* min,
                              const diopiScalar_t* max) {
  SIMK_KERNEL(diopiClampScalar);
  return guarded(kernel.name, [&] {
    const bool has_min = min != nullptr, has_max = max != nullptr;
    const Scalar lo = has_min ? scalar_arg(min, "min") : Scalar{};
    const Scalar hi = has_max ? scalar_arg(max, "max") : Scalar{};
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [=](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          // Bounds are rounded to out's dtype first, as ATen does. NaN input stays NaN, and
          // min > max gives max.
          const A l = lo.rounded<T>(), h = hi.rounded<T>();
          return [=](A x) -> A {
            if (has_min && x < l) x = l;
            if (has_max && h < x) x = h;
            return x;
          };
        },
        In{input, "input"});
  });
}
