// Graph-level kernels of the sim: fused ops that graph mode (opweave.dicp) emits through its
// fusion rewrites (specs/dicp/sim.yaml `kernel:` ops). They are not DIOPI functions of
// specs/ops.yaml, so no eager wrapper calls them; the graph helper resolves them by name in
// the vendor library. Same conventions as the DIOPI kernels (README.md): validate on the
// calling thread, compute on the context's stream.
#include <diopi/diopirt.h>
#include <diopi/prototypes.h>  // diopiCat, which the Concat kernels call

#include <cmath>
#include <cstring>

#include "common/blas.h"
#include "common/elementwise.h"
#include "common/launch.h"
#include "common/loop.h"

using namespace simk;

namespace {

enum class Activation { kRelu, kGelu, kGeluTanh };

Activation activation_of(const char* name) {
  if (name != nullptr && std::strcmp(name, "relu") == 0) return Activation::kRelu;
  if (name != nullptr && std::strcmp(name, "gelu") == 0) return Activation::kGelu;
  if (name != nullptr && std::strcmp(name, "gelu_tanh") == 0) return Activation::kGeluTanh;
  failf(diopiErrorOccurred, "activation must be \"relu\", \"gelu\" or \"gelu_tanh\", got \"%s\"",
        name != nullptr ? name : "(null)");
}

// out = act(out) in place, computed in out's type (float32 / float64), as ATen's CPU kernels.
template <class T>
void activate(const View& out, Activation act) {
  const View* ins[1] = {&out};
  switch (act) {
    case Activation::kRelu:
      map<T, T>(out, ins, [](T x) -> T { return x < T(0) ? T(0) : x; });  // NaN stays NaN
      break;
    case Activation::kGelu:
      map<T, T>(out, ins,
                [](T x) -> T { return x * T(0.5) * (T(1) + std::erf(x * T(0.7071067811865476))); });
      break;
    case Activation::kGeluTanh:
      map<T, T>(out, ins, [](T x) -> T {
        const T inner = T(0.7978845608028654) * (x + T(0.044715) * x * x * x);
        return T(0.5) * x * (T(1) + std::tanh(inner));
      });
      break;
  }
}

}  // namespace

// out = act(beta * input + alpha * mat1 @ mat2): a linear layer and its activation in one
// kernel (one launch, no intermediate tensor). float32 / float64.
extern "C" __attribute__((visibility("default"))) diopiError_t simFusedAddmmAct(
    diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiConstTensorHandle_t input_h,
    diopiConstTensorHandle_t mat1_h, diopiConstTensorHandle_t mat2_h, const diopiScalar_t* beta,
    const diopiScalar_t* alpha, const char* activation) {
  SIMK_KERNEL(simFusedAddmmAct);
  return guarded(kernel.name, [&] {
    const AddmmArgs args = addmm_args(out_h, input_h, mat1_h, mat2_h, beta, alpha);
    check_dtype(args.out, dtype_bit(diopi_dtype_float32) | dtype_bit(diopi_dtype_float64), "out");
    const Activation act = activation_of(activation);
    launch(kernel, ctx, args.out, [args, act] {
      addmm_compute(args);
      if (args.out.dtype == diopi_dtype_float64) {
        activate<double>(args.out, act);
      } else {
        activate<float>(args.out, act);
      }
    });
  });
}

// Two or three tensors joined along dim: diopiCat over an array of the ports. Graph mode's
// generated C code passes tensors through fixed ports, so a tensor list becomes these.
extern "C" __attribute__((visibility("default"))) diopiError_t simConcat2(
    diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t a,
    diopiConstTensorHandle_t b, int64_t dim) {
  diopiConstTensorHandle_t parts[2] = {a, b};
  return diopiCat(ctx, out, parts, 2, dim);
}

extern "C" __attribute__((visibility("default"))) diopiError_t simConcat3(
    diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiConstTensorHandle_t a,
    diopiConstTensorHandle_t b, diopiConstTensorHandle_t c, int64_t dim) {
  diopiConstTensorHandle_t parts[3] = {a, b, c};
  return diopiCat(ctx, out, parts, 3, dim);
}
