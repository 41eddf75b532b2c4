// The `clamp` family: Clamps every element into [min, max]; a missing bound is not applied.
// DIOPI: diopiClampScalar, diopiClampMinScalar, diopiClampMinInpScalar, diopiClampMaxScalar,
// diopiClampMaxInpScalar, diopiClamp, diopiClampInp, diopiClampMin, diopiClampMinInp,
// diopiClampMax, diopiClampMaxInp, diopiClampInpScalar.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

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

diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                 const diopiScalar_t* min, const diopiScalar_t* max) {
  return diopiClampScalar(ctx, input, input, min, max);
}
