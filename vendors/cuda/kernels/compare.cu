// Comparisons (eq, ne, lt, le, gt, ge against a tensor or a scalar, out-of-place into bool and
// in-place into the input's dtype), where and masked_fill. Operands are compared in their common
// dtype (common_dtype), the way torch promotes before comparing.
#include <diopi/functions.h>

#include "common/pointwise.cuh"

using namespace cuk;

namespace {

enum class Cmp { kEq, kNe, kLt, kLe, kGt, kGe };

template <Cmp C>
struct CmpF {
  template <class A>
  __device__ __forceinline__ bool operator()(A x, A y) const {
    if constexpr (C == Cmp::kEq) return x == y;
    if constexpr (C == Cmp::kNe) return x != y;
    if constexpr (C == Cmp::kLt) return x < y;
    if constexpr (C == Cmp::kLe) return x <= y;
    if constexpr (C == Cmp::kGt) return x > y;
    return x >= y;
  }
};
template <Cmp C, class A>
struct CmpConstF {
  A c;
  __device__ __forceinline__ bool operator()(A x) const { return CmpF<C>{}(x, c); }
};

template <Cmp C>
void compare(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
             diopiConstTensorHandle_t other_h) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input"), b = input(other_h, "other");
  predicate<kAllTypes>(
      ctx, out, common_dtype(a.dtype, b.dtype), [](auto) { return CmpF<C>{}; }, a, b);
}

template <Cmp C>
void compare_scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t in_h, const diopiScalar_t* other_arg) {
  const Tensor out = output(out_h, "out");
  const Tensor a = input(in_h, "input");
  const Scalar other = scalar_arg(other_arg, "other");
  // An integral tensor against a fractional scalar compares in float64, as torch does.
  const bool promote = other.is_float && !in_set(a.dtype, kFloating);
  predicate<kAllTypes>(
      ctx, out, promote ? diopi_dtype_float64 : a.dtype,
      [&](auto acc) {
        using A = TypeOf<decltype(acc)>;
        return CmpConstF<C, A>{other.as<A>()};
      },
      a);
}

struct WhereF {
  template <class A>
  __device__ __forceinline__ A operator()(bool c, A x, A y) const {
    return c ? x : y;
  }
};

template <class A>
struct MaskedFillConstF {
  A value;
  __device__ __forceinline__ A operator()(A x, bool m) const { return m ? value : x; }
};
struct MaskedFillF {
  template <class A>
  __device__ __forceinline__ A operator()(A x, bool m, A v) const {
    return m ? v : x;
  }
};

Tensor bool_mask(diopiContextHandle_t ctx, diopiConstTensorHandle_t h, const char* what) {
  const Tensor m = input(h, what);
  CUK_CHECK(m.dtype == diopi_dtype_bool || m.dtype == diopi_dtype_uint8,
            "%s must be bool (or uint8), got %s", what, dtype_name(m.dtype));
  return as_dtype(ctx, m, diopi_dtype_bool);
}

void masked_fill(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h,
                 diopiConstTensorHandle_t mask_h, diopiConstTensorHandle_t value_h,
                 const diopiScalar_t* value_arg) {
  const Tensor out = output(out_h, "out");
  const Tensor in = input(in_h, "input");
  const Tensor mask = bool_mask(ctx, mask_h, "mask");
  const cudaStream_t stream = stream_of(ctx);
  dispatch<kAllTypes>(out.dtype, "out", [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    const Tensor x = as_dtype(ctx, in, out.dtype);
    if (value_h == nullptr) {
      const A v = scalar_arg(value_arg, "value").as<A>();
      map<T, T, bool>(stream, out, MaskedFillConstF<A>{v}, x, mask);
    } else {
      // The value is a 0-dim device tensor: read on the device, broadcast, never on the host.
      const Tensor value = input(value_h, "value");
      CUK_CHECK(value.numel == 1 && value.ndim == 0, "value must be a 0-dim tensor, got %s",
                value.shape_str().c_str());
      map<T, T, bool, T>(stream, out, MaskedFillF{}, x, mask, as_dtype(ctx, value, out.dtype));
    }
  });
}

}  // namespace

// Entry points are spelled out (no macro) so that `make new-vendor` and grep find each one.
extern "C" diopiError_t diopiEq(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiEq", [&] { compare<Cmp::kEq>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiEqScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiEqScalar", [&] { compare_scalar<Cmp::kEq>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiEqInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiEqInp", [&] { compare<Cmp::kEq>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiEqInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiEqInpScalar", [&] { compare_scalar<Cmp::kEq>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiNe(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiNe", [&] { compare<Cmp::kNe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiNeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiNeScalar", [&] { compare_scalar<Cmp::kNe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiNeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiNeInp", [&] { compare<Cmp::kNe>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiNeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiNeInpScalar", [&] { compare_scalar<Cmp::kNe>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiLt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiLt", [&] { compare<Cmp::kLt>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiLtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiLtScalar", [&] { compare_scalar<Cmp::kLt>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiLtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiLtInp", [&] { compare<Cmp::kLt>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiLtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiLtInpScalar", [&] { compare_scalar<Cmp::kLt>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiLe(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiLe", [&] { compare<Cmp::kLe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiLeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiLeScalar", [&] { compare_scalar<Cmp::kLe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiLeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiLeInp", [&] { compare<Cmp::kLe>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiLeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiLeInpScalar", [&] { compare_scalar<Cmp::kLe>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiGt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiGt", [&] { compare<Cmp::kGt>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiGtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiGtScalar", [&] { compare_scalar<Cmp::kGt>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiGtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiGtInp", [&] { compare<Cmp::kGt>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiGtInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiGtInpScalar", [&] { compare_scalar<Cmp::kGt>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiGe(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  return guarded("diopiGe", [&] { compare<Cmp::kGe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiGeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  return guarded("diopiGeScalar", [&] { compare_scalar<Cmp::kGe>(ctx, out, input, other); });
}
extern "C" diopiError_t diopiGeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  return guarded("diopiGeInp", [&] { compare<Cmp::kGe>(ctx, input, input, other); });
}
extern "C" diopiError_t diopiGeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  return guarded("diopiGeInpScalar", [&] { compare_scalar<Cmp::kGe>(ctx, input, input, other); });
}

extern "C" diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                   diopiConstTensorHandle_t condition,
                                   diopiConstTensorHandle_t input_h,
                                   diopiConstTensorHandle_t other_h) {
  return guarded("diopiWhere", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor cond = bool_mask(ctx, condition, "condition");
    const Tensor a = input(input_h, "input"), b = input(other_h, "other");
    const cudaStream_t stream = stream_of(ctx);
    dispatch<kAllTypes>(out.dtype, "out", [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      map<T, bool, T, T>(stream, out, WhereF{}, cond, as_dtype(ctx, a, out.dtype),
                         as_dtype(ctx, b, out.dtype));
    });
  });
}

extern "C" diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t mask,
                                        diopiConstTensorHandle_t value) {
  return guarded("diopiMaskedFill", [&] { masked_fill(ctx, out, input, mask, value, nullptr); });
}
extern "C" diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                           diopiConstTensorHandle_t mask,
                                           diopiConstTensorHandle_t value) {
  return guarded("diopiMaskedFillInp",
                 [&] { masked_fill(ctx, input, input, mask, value, nullptr); });
}
extern "C" diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                              diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t mask,
                                              const diopiScalar_t* value) {
  return guarded("diopiMaskedFillScalar",
                 [&] { masked_fill(ctx, out, input, mask, nullptr, value); });
}
extern "C" diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx,
                                                 diopiTensorHandle_t input,
                                                 diopiConstTensorHandle_t mask,
                                                 const diopiScalar_t* value) {
  return guarded("diopiMaskedFillInpScalar",
                 [&] { masked_fill(ctx, input, input, mask, nullptr, value); });
}
