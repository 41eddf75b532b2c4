// Comparisons (eq ne lt le gt ge against a tensor or a scalar) in ATen's result type of their
// operands (int64 vs float32 compares as float32, a float scalar against an int tensor as
// float32, a 0-dim tensor does not promote a dimensioned one within the same category), writing
// bool, or out's dtype when out is not bool (in-place eq_ on a float tensor); the entry-point
// macros stamp out each comparison's out= / scalar / in-place forms.
#ifndef SIM_KERNELS_COMMON_COMPARE_H_
#define SIM_KERNELS_COMMON_COMPARE_H_

#include "elementwise.h"
#include "scalar.h"

namespace simk {

enum Category { kNone = -1, kBoolCategory = 0, kIntCategory = 1, kFloatCategory = 2 };

inline Category category(diopiDtype_t d) {
  if (d == diopi_dtype_bool) return kBoolCategory;
  if (is_integral(d)) return kIntCategory;
  return kFloatCategory;
}

inline int float_rank(diopiDtype_t d) {
  switch (d) {
    case diopi_dtype_float16:
    case diopi_dtype_bfloat16:
      return 0;
    case diopi_dtype_float32:
      return 1;
    default:
      return 2;
  }
}

inline diopiDtype_t promote_types(diopiDtype_t a, diopiDtype_t b) {
  if (a == b) return a;
  const Category ca = category(a), cb = category(b);
  if (ca != cb) return ca > cb ? a : b;
  if (ca == kFloatCategory) {
    if (float_rank(a) == 0 && float_rank(b) == 0) return diopi_dtype_float32;  // f16 vs bf16
    return float_rank(a) >= float_rank(b) ? a : b;
  }
  // Both integral.
  if ((a == diopi_dtype_uint8 && b == diopi_dtype_int8) ||
      (a == diopi_dtype_int8 && b == diopi_dtype_uint8))
    return diopi_dtype_int16;
  if (a == diopi_dtype_uint8) return b;
  if (b == diopi_dtype_uint8) return a;
  return dtype_size(a) >= dtype_size(b) ? a : b;
}

// Undefined (no operand of that kind) is diopi_dtype_unsupported.
constexpr diopiDtype_t kUndefined = diopi_dtype_unsupported;

inline diopiDtype_t promote_skip_undefined(diopiDtype_t a, diopiDtype_t b) {
  if (a == kUndefined) return b;
  if (b == kUndefined) return a;
  return promote_types(a, b);
}

// c10's combine_categories: a lower-priority operand only promotes across categories.
inline diopiDtype_t combine_categories(diopiDtype_t higher, diopiDtype_t lower) {
  if (higher != kUndefined && category(higher) == kFloatCategory) return higher;
  if (higher == diopi_dtype_bool || (lower != kUndefined && category(lower) == kFloatCategory))
    return promote_skip_undefined(higher, lower);
  return higher != kUndefined ? higher : lower;
}

struct ResultType {
  diopiDtype_t dim = kUndefined, zero_dim = kUndefined, wrapped = kUndefined;
  void add_tensor(const View& v) {
    diopiDtype_t& slot = v.ndim > 0 ? dim : zero_dim;
    slot = promote_skip_undefined(slot, v.dtype);
  }
  void add_scalar(const Scalar& s) {
    // A Python number: float -> the default dtype (float32), int -> int64.
    wrapped = promote_skip_undefined(wrapped, s.is_float ? diopi_dtype_float32 : diopi_dtype_int64);
  }
  diopiDtype_t get() const {
    return combine_categories(dim, combine_categories(zero_dim, wrapped));
  }
};

enum class Cmp { kEq, kLt, kGt, kNe, kLe, kGe };

template <Cmp C>
struct CmpOp {
  template <class A>
  bool operator()(A a, A b) const {
    if constexpr (C == Cmp::kEq) return a == b;
    if constexpr (C == Cmp::kLt) return a < b;
    if constexpr (C == Cmp::kGt) return a > b;
    if constexpr (C == Cmp::kNe) return a != b;
    if constexpr (C == Cmp::kLe) return a <= b;
    if constexpr (C == Cmp::kGe) return a >= b;
  }
};

// out = op(a, b) computed in dtype `ct`; `a` and `b` are converted to ct and broadcast to out.
template <Cmp C>
void compare_views(const View& out, const View& a, const View& b, diopiDtype_t ct) {
  dispatch<kAllTypes>(ct, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    Buffer sa, sb;
    const View va = broadcast_to(as_dtype(a, ct, sa), out, "input");
    const View vb = broadcast_to(as_dtype(b, ct, sb), out, "other");
    const View* ins[2] = {&va, &vb};
    if (out.dtype == diopi_dtype_bool) {
      map<bool, T, T>(out, ins, CmpOp<C>{});
    } else {
      Buffer result(diopi_dtype_bool, out.sizes, out.ndim);
      map<bool, T, T>(result.view(), ins, CmpOp<C>{});
      cast_copy(out, result.view());
    }
  });
}

template <Cmp C>
void compare_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t other_h) {
  const View out = output_view(out_h, "out");
  const View a = input_view(input_h, "input");
  const View b = input_view(other_h, "other");
  check_dtype(out, kAllTypes, "out");
  check_dtype(a, kAllTypes, "input");
  check_dtype(b, kAllTypes, "other");
  broadcast_to(a, out, "input");
  broadcast_to(b, out, "other");
  ResultType rt;
  rt.add_tensor(a);
  rt.add_tensor(b);
  const diopiDtype_t ct = rt.get();
  launch(kernel, ctx, out, [=] { compare_views<C>(out, a, b, ct); });
}

template <Cmp C>
void compare_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t input_h, const diopiScalar_t* other_arg) {
  const View out = output_view(out_h, "out");
  const View a = input_view(input_h, "input");
  const Scalar s = scalar_arg(other_arg, "other");
  check_dtype(out, kAllTypes, "out");
  check_dtype(a, kAllTypes, "input");
  broadcast_to(a, out, "input");
  ResultType rt;
  rt.add_tensor(a);
  rt.add_scalar(s);
  const diopiDtype_t ct = rt.get();
  launch(kernel, ctx, out, [=] {
    // The scalar as a 0-dim tensor of the compute dtype.
    alignas(8) char storage[8];
    dispatch<kAllTypes>(ct, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      *reinterpret_cast<T*>(storage) = s.is_float ? convert<T>(s.f) : convert<T>(s.i);
    });
    compare_views<C>(out, a, contiguous_view(storage, ct, nullptr, 0), ct);
  });
}

}  // namespace simk

// ne / le / ge, and the in-place forms of every comparison (the result, 0 or 1, is written in
// input's dtype).
#define SIMK_COMPARE_ENTRY_POINTS(Name, C)                                                     \
  diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input,           \
                                diopiConstTensorHandle_t other) {                              \
    SIMK_KERNEL(diopi##Name##Inp);                                                             \
    return guarded(kernel.name, [&] { compare_tensor<C>(kernel, ctx, input, input, other); }); \
  }                                                                                            \
  diopiError_t diopi##Name##InpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,     \
                                      const diopiScalar_t* other) {                            \
    SIMK_KERNEL(diopi##Name##InpScalar);                                                       \
    return guarded(kernel.name, [&] { compare_scalar<C>(kernel, ctx, input, input, other); }); \
  }

#define SIMK_COMPARE_OUT_ENTRY_POINTS(Name, C)                                                   \
  diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,                    \
                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {     \
    SIMK_KERNEL(diopi##Name);                                                                    \
    return guarded(kernel.name, [&] { compare_tensor<C>(kernel, ctx, out, input, other); });     \
  }                                                                                              \
  diopiError_t diopi##Name##Scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,            \
                                   diopiConstTensorHandle_t input, const diopiScalar_t* other) { \
    SIMK_KERNEL(diopi##Name##Scalar);                                                            \
    return guarded(kernel.name, [&] { compare_scalar<C>(kernel, ctx, out, input, other); });     \
  }

#endif  // SIM_KERNELS_COMMON_COMPARE_H_
