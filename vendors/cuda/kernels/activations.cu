// Activations and their gradients: relu, threshold (+ backward, which is relu's backward), gelu
// (exact and tanh) + backward, silu + backward, and the sigmoid / tanh gradients from the forward
// output. Computed in acc_t (float for 16-bit floats).
#include <diopi/functions.h>

#include <cstring>

#include "common/math.cuh"
#include "common/pointwise.cuh"

using namespace cuk;

namespace {

constexpr uint32_t kReluTypes =
    kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

template <class A>
struct ReluF {  // NaN passes through, as torch.relu
  __device__ __forceinline__ A operator()(A x) const { return x > A(0) || x != x ? x : A(0); }
};
template <class A>
struct ThresholdF {
  A threshold, value;
  __device__ __forceinline__ A operator()(A x) const { return x > threshold || x != x ? x : value; }
};
template <class A>
struct ThresholdBackwardF {
  A threshold;
  __device__ __forceinline__ A operator()(A g, A x) const { return x <= threshold ? A(0) : g; }
};

constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kSqrt2OverPi = 0.79788456080286535588;
constexpr double kInvSqrt2Pi = 0.39894228040143267794;

template <class A>
struct GeluF {
  bool tanh_approx;
  __device__ __forceinline__ A operator()(A x) const {
    if (tanh_approx) {
      const A inner = A(kSqrt2OverPi) * (x + A(0.044715) * x * x * x);
      return A(0.5) * x * (A(1) + dev::tanh(inner));
    }
    return A(0.5) * x * (A(1) + dev::erf(x * A(kSqrtHalf)));
  }
};
template <class A>
struct GeluBackwardF {
  bool tanh_approx;
  __device__ __forceinline__ A operator()(A g, A x) const {
    if (tanh_approx) {
      const A x2 = x * x;
      const A inner = A(kSqrt2OverPi) * (x + A(0.044715) * x2 * x);
      const A t = dev::tanh(inner);
      const A d_inner = A(kSqrt2OverPi) * (A(1) + A(3) * A(0.044715) * x2);
      return g * (A(0.5) * (A(1) + t) + A(0.5) * x * (A(1) - t * t) * d_inner);
    }
    const A cdf = A(0.5) * (A(1) + dev::erf(x * A(kSqrtHalf)));
    const A pdf = A(kInvSqrt2Pi) * dev::exp(A(-0.5) * x * x);
    return g * (cdf + x * pdf);
  }
};
template <class A>
struct SiluF {
  __device__ __forceinline__ A operator()(A x) const { return x / (A(1) + dev::exp(-x)); }
};
template <class A>
struct SiluBackwardF {
  __device__ __forceinline__ A operator()(A g, A x) const {
    const A s = A(1) / (A(1) + dev::exp(-x));
    return g * s * (A(1) + x * (A(1) - s));
  }
};
template <class A>
struct SigmoidBackwardF {
  __device__ __forceinline__ A operator()(A g, A y) const { return g * (A(1) - y) * y; }
};
template <class A>
struct TanhBackwardF {
  __device__ __forceinline__ A operator()(A g, A y) const { return g * (A(1) - y * y); }
};

bool gelu_tanh(const char* approximate) {
  if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return false;
  CUK_CHECK(std::strcmp(approximate, "tanh") == 0,
            "approximate must be \"none\" or \"tanh\", got \"%s\"", approximate);
  return true;
}

// out = F(input) for a stateless functor.
template <uint32_t Set, template <class> class F>
void unary(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t in_h) {
  const Tensor out = output(out_h, "out");
  const Tensor in = input(in_h, "input");
  check_same_shape(out, in, "out", "input");
  pointwise<Set>(
      ctx, out, [](auto acc) { return F<TypeOf<decltype(acc)>>{}; }, in);
}

// grad_input = F(grad_output, saved) for a gradient functor built by `make`.
template <class Make>
void backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
              diopiConstTensorHandle_t grad_output_h, diopiConstTensorHandle_t saved_h,
              const char* saved_name, Make&& make) {
  const Tensor gi = output(grad_input_h, "grad_input");
  const Tensor go = input(grad_output_h, "grad_output");
  const Tensor saved = input(saved_h, saved_name);
  check_same_shape(go, gi, "grad_output", "grad_input");
  check_same_shape(saved, gi, saved_name, "grad_input");
  pointwise<kFloating>(ctx, gi, make, go, saved);
}

}  // namespace

extern "C" diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return guarded("diopiRelu", [&] { unary<kReluTypes, ReluF>(ctx, out, input); });
}

extern "C" diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return guarded("diopiReluInp", [&] { unary<kReluTypes, ReluF>(ctx, input, input); });
}

extern "C" diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                       diopiConstTensorHandle_t input_h,
                                       const diopiScalar_t* threshold, const diopiScalar_t* value) {
  return guarded("diopiThreshold", [&] {
    const Tensor out = output(out_h, "out");
    const Tensor in = input(input_h, "input");
    check_same_shape(out, in, "out", "input");
    const Scalar t = scalar_arg(threshold, "threshold"), v = scalar_arg(value, "value");
    pointwise<kReluTypes>(
        ctx, out,
        [&](auto acc) {
          using A = TypeOf<decltype(acc)>;
          return ThresholdF<A>{t.as<A>(), v.as<A>()};
        },
        in);
  });
}

extern "C" diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx,
                                               diopiTensorHandle_t grad_input,
                                               diopiConstTensorHandle_t grad_output,
                                               diopiConstTensorHandle_t input,
                                               const diopiScalar_t* threshold) {
  return guarded("diopiThresholdBackward", [&] {
    const Scalar t = scalar_arg(threshold, "threshold");
    backward(ctx, grad_input, grad_output, input, "input", [&](auto acc) {
      using A = TypeOf<decltype(acc)>;
      return ThresholdBackwardF<A>{t.as<A>()};
    });
  });
}

extern "C" diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                  diopiConstTensorHandle_t input_h, const char* approximate) {
  return guarded("diopiGelu", [&] {
    const bool tanh_approx = gelu_tanh(approximate);
    const Tensor out = output(out_h, "out");
    const Tensor in = input(input_h, "input");
    check_same_shape(out, in, "out", "input");
    pointwise<kFloating>(
        ctx, out, [&](auto acc) { return GeluF<TypeOf<decltype(acc)>>{tanh_approx}; }, in);
  });
}

extern "C" diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                          diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t input, const char* approximate) {
  return guarded("diopiGeluBackward", [&] {
    const bool tanh_approx = gelu_tanh(approximate);
    backward(ctx, grad_input, grad_output, input, "input",
             [&](auto acc) { return GeluBackwardF<TypeOf<decltype(acc)>>{tanh_approx}; });
  });
}

extern "C" diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  return guarded("diopiSilu", [&] { unary<kFloating, SiluF>(ctx, out, input); });
}

extern "C" diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return guarded("diopiSiluInp", [&] { unary<kFloating, SiluF>(ctx, input, input); });
}

extern "C" diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                          diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t input) {
  return guarded("diopiSiluBackward", [&] {
    backward(ctx, grad_input, grad_output, input, "input",
             [](auto acc) { return SiluBackwardF<TypeOf<decltype(acc)>>{}; });
  });
}

extern "C" diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx,
                                             diopiTensorHandle_t grad_input,
                                             diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t output) {
  return guarded("diopiSigmoidBackward", [&] {
    backward(ctx, grad_input, grad_output, output, "output",
             [](auto acc) { return SigmoidBackwardF<TypeOf<decltype(acc)>>{}; });
  });
}

extern "C" diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                          diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t output) {
  return guarded("diopiTanhBackward", [&] {
    backward(ctx, grad_input, grad_output, output, "output",
             [](auto acc) { return TanhBackwardF<TypeOf<decltype(acc)>>{}; });
  });
}
