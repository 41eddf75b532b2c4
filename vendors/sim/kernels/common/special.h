// Entry points of the torch.special element-wise families: each computes its element function in
// double and rounds once to out's dtype (integral inputs arrive promoted to it), so float32
// results are as accurate as the function itself.
#ifndef SIM_KERNELS_COMMON_SPECIAL_H_
#define SIM_KERNELS_COMMON_SPECIAL_H_

#include "binary.h"
#include "elementwise.h"
#include "unary.h"

// diopiSpecial<Name>(ctx, out, input): out = Fn(input).
#define SIMK_SPECIAL_UNARY(Name, Fn)                                                           \
  diopiError_t diopiSpecial##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,           \
                                  diopiConstTensorHandle_t input) {                            \
    SIMK_KERNEL(diopiSpecial##Name);                                                           \
    return guarded(kernel.name, [&] {                                                          \
      float_unary(kernel, ctx, out, input, [](auto x) { return Fn(static_cast<double>(x)); }); \
    });                                                                                        \
  }

// diopiSpecial<Name>(ctx, out, input, other): out = Fn(input, other) with broadcasting;
// OtherName names the second tensor in error messages.
#define SIMK_SPECIAL_BINARY(Name, Fn, OtherName)                                             \
  diopiError_t diopiSpecial##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,         \
                                  diopiConstTensorHandle_t input,                            \
                                  diopiConstTensorHandle_t other) {                          \
    SIMK_KERNEL(diopiSpecial##Name);                                                         \
    return guarded(kernel.name, [&] {                                                        \
      tensor_tensor<kFloating>(                                                              \
          kernel, ctx, out, input, other,                                                    \
          [](auto x, auto y) { return Fn(static_cast<double>(x), static_cast<double>(y)); }, \
          OtherName);                                                                        \
    });                                                                                      \
  }

#endif  // SIM_KERNELS_COMMON_SPECIAL_H_
