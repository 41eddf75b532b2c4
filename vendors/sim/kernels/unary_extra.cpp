// More element-wise ops: floor, ceil, erf, log2, log10, log1p (+ in-place), sign, minimum, lerp,
// leaky_relu (+ in-place, backward), clamp_min / clamp_max and clamp with tensor bounds
// (+ in-place). Formulas follow
// ATen 1.13's CPU kernels; 16-bit floats are computed in float and rounded once.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// out = f(input) for floating dtypes; `out` may be `input` (in-place forms).
template <class F>
void float_unary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input, F f) {
  elementwise<kFloating>(
      kernel, ctx, out,
      [f](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [f](A x) -> A { return static_cast<A>(f(x)); };
      },
      In{input, "input"});
}

struct Floor {
  template <class A>
  A operator()(A x) const {
    return std::floor(x);
  }
};
struct Ceil {
  template <class A>
  A operator()(A x) const {
    return std::ceil(x);
  }
};
struct Erf {
  template <class A>
  A operator()(A x) const {
    return std::erf(x);
  }
};
struct Log2 {
  template <class A>
  A operator()(A x) const {
    return std::log2(x);
  }
};
struct Log10 {
  template <class A>
  A operator()(A x) const {
    return std::log10(x);
  }
};
struct Log1p {
  template <class A>
  A operator()(A x) const {
    return std::log1p(x);
  }
};

}  // namespace

#define SIMK_FLOAT_UNARY(Name, Op)                                                      \
  diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,           \
                           diopiConstTensorHandle_t input) {                            \
    SIMK_KERNEL(diopi##Name);                                                           \
    return guarded(kernel.name, [&] { float_unary(kernel, ctx, out, input, Op{}); });   \
  }                                                                                     \
  diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {  \
    SIMK_KERNEL(diopi##Name##Inp);                                                      \
    return guarded(kernel.name, [&] { float_unary(kernel, ctx, input, input, Op{}); }); \
  }

SIMK_FLOAT_UNARY(Floor, Floor)
SIMK_FLOAT_UNARY(Ceil, Ceil)
SIMK_FLOAT_UNARY(Erf, Erf)
SIMK_FLOAT_UNARY(Log2, Log2)
SIMK_FLOAT_UNARY(Log10, Log10)
SIMK_FLOAT_UNARY(Log1p, Log1p)
#undef SIMK_FLOAT_UNARY

diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSign);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          // (0 < x) - (x < 0): NaN gives 0, as ATen's real sign.
          return [](A x) -> A { return static_cast<A>((A(0) < x) - (x < A(0))); };
        },
        In{input, "input"});
  });
}

// ---------------------------------------------------------------- minimum / lerp

diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMinimum);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A y) -> A {
            if (is_nan(x)) return x;
            if (is_nan(y)) return y;
            return y < x ? y : x;
          };
        },
        In{input, "input"}, In{other, "other"});
  });
}

namespace {

template <class A>
A lerp(A self, A end, A weight) {
  return std::abs(weight) < A(0.5) ? self + weight * (end - self)
                                   : end - (end - self) * (A(1) - weight);
}

}  // namespace

diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             const diopiScalar_t* weight) {
  SIMK_KERNEL(diopiLerpScalar);
  return guarded(kernel.name, [&] {
    const Scalar w = scalar_arg(weight, "weight");
    elementwise<kFloating>(
        kernel, ctx, out,
        [w](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A wv = w.as<A>();
          return [wv](A x, A e) -> A { return lerp(x, e, wv); };
        },
        In{input, "input"}, In{end, "end"});
  });
}

diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             diopiConstTensorHandle_t weight) {
  SIMK_KERNEL(diopiLerpTensor);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A e, A w) -> A { return lerp(x, e, w); };
        },
        In{input, "input"}, In{end, "end"}, In{weight, "weight"});
  });
}

// ---------------------------------------------------------------- leaky_relu

namespace {

void leaky_relu(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope) {
  const Scalar slope = scalar_arg(negative_slope, "negative_slope");
  elementwise<kFloating>(
      kernel, ctx, out,
      [slope](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A s = slope.rounded<T>();
        return [s](A x) -> A { return x > A(0) ? x : x * s; };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope) {
  SIMK_KERNEL(diopiLeakyRelu);
  return guarded(kernel.name, [&] { leaky_relu(kernel, ctx, out, input, negative_slope); });
}

diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* negative_slope) {
  SIMK_KERNEL(diopiLeakyReluInp);
  return guarded(kernel.name, [&] { leaky_relu(kernel, ctx, input, input, negative_slope); });
}

diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                    diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input,
                                    const diopiScalar_t* negative_slope, bool input_is_result) {
  SIMK_KERNEL(diopiLeakyReluBackward);
  return guarded(kernel.name, [&] {
    const Scalar slope = scalar_arg(negative_slope, "negative_slope");
    // With input_is_result the input is the forward's output: for a non-negative slope its
    // sign is the input's, so the same test applies (ATen rejects negative slopes there).
    SIMK_CHECK(!input_is_result || slope.as<double>() >= 0,
               "in-place leaky_relu backward needs a non-negative slope");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [slope](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A s = slope.rounded<T>();
          return [s](A g, A x) -> A { return x > A(0) ? g : g * s; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}

// ---------------------------------------------------------------- clamp_min / clamp_max

namespace {

void clamp_one(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
               diopiConstTensorHandle_t input, const diopiScalar_t* bound, bool is_min) {
  const Scalar b = scalar_arg(bound, is_min ? "min" : "max");
  elementwise<kFloatingAndInt>(
      kernel, ctx, out,
      [b, is_min](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A v = b.rounded<T>();
        // NaN input stays NaN (the comparisons are false).
        return [v, is_min](A x) -> A { return is_min ? (x < v ? v : x) : (v < x ? v : x); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const diopiScalar_t* min) {
  SIMK_KERNEL(diopiClampMinScalar);
  return guarded(kernel.name, [&] { clamp_one(kernel, ctx, out, input, min, true); });
}

diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    const diopiScalar_t* min) {
  SIMK_KERNEL(diopiClampMinInpScalar);
  return guarded(kernel.name, [&] { clamp_one(kernel, ctx, input, input, min, true); });
}

diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const diopiScalar_t* max) {
  SIMK_KERNEL(diopiClampMaxScalar);
  return guarded(kernel.name, [&] { clamp_one(kernel, ctx, out, input, max, false); });
}

diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    const diopiScalar_t* max) {
  SIMK_KERNEL(diopiClampMaxInpScalar);
  return guarded(kernel.name, [&] { clamp_one(kernel, ctx, input, input, max, false); });
}

// ---------------------------------------------------------------- clamp with tensor bounds

namespace {

// ATen's tensor-bound clamp: NaN in x or in a bound gives NaN; applied as min then max, so
// min > max gives max.
template <class A>
A at_least(A x, A lo) {
  return is_nan(x) ? x : is_nan(lo) ? lo : (x < lo ? lo : x);
}
template <class A>
A at_most(A x, A hi) {
  return is_nan(x) ? x : is_nan(hi) ? hi : (hi < x ? hi : x);
}

void clamp_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                  diopiConstTensorHandle_t max) {
  SIMK_CHECK(min != nullptr || max != nullptr, "at least one of min and max must be given");
  if (min != nullptr && max != nullptr) {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A lo, A hi) -> A { return at_most(at_least(x, lo), hi); };
        },
        In{input, "input"}, In{min, "min"}, In{max, "max"});
  } else if (min != nullptr) {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A lo) -> A { return at_least(x, lo); };
        },
        In{input, "input"}, In{min, "min"});
  } else {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A hi) -> A { return at_most(x, hi); };
        },
        In{input, "input"}, In{max, "max"});
  }
}

}  // namespace

diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                        diopiConstTensorHandle_t max) {
  SIMK_KERNEL(diopiClamp);
  return guarded(kernel.name, [&] { clamp_tensor(kernel, ctx, out, input, min, max); });
}

diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                           diopiConstTensorHandle_t min, diopiConstTensorHandle_t max) {
  SIMK_KERNEL(diopiClampInp);
  return guarded(kernel.name, [&] { clamp_tensor(kernel, ctx, input, input, min, max); });
}

diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t min) {
  SIMK_KERNEL(diopiClampMin);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(min != nullptr, "min is NULL");
    clamp_tensor(kernel, ctx, out, input, min, nullptr);
  });
}

diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                              diopiConstTensorHandle_t min) {
  SIMK_KERNEL(diopiClampMinInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(min != nullptr, "min is NULL");
    clamp_tensor(kernel, ctx, input, input, min, nullptr);
  });
}

diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t max) {
  SIMK_KERNEL(diopiClampMax);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(max != nullptr, "max is NULL");
    clamp_tensor(kernel, ctx, out, input, nullptr, max);
  });
}

diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                              diopiConstTensorHandle_t max) {
  SIMK_KERNEL(diopiClampMaxInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(max != nullptr, "max is NULL");
    clamp_tensor(kernel, ctx, input, input, nullptr, max);
  });
}

// ---------------------------------------------------------------- in-place forms of existing ops
//
// The DIOPI in-place functions of ops whose out-of-place kernel already handles out == input
// (elementwise() reads each element before writing it): they run that kernel on input.

diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiAbs(ctx, input, input);
}
diopiError_t diopiRsqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiRsqrt(ctx, input, input);
}
diopiError_t diopiSinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSin(ctx, input, input);
}
diopiError_t diopiCosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiCos(ctx, input, input);
}
diopiError_t diopiReciprocalInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiReciprocal(ctx, input, input);
}
diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSigmoid(ctx, input, input);
}
diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiTanh(ctx, input, input);
}
diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSilu(ctx, input, input);
}
diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                 const diopiScalar_t* min, const diopiScalar_t* max) {
  return diopiClampScalar(ctx, input, input, min, max);
}
