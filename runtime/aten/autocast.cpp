// Autocast on the device (torch 2.x): torch.autocast(device_type=<device>, dtype=...).
//
// torch registers no AutocastPrivateUse1 kernels, so every op inside an autocast region would
// fail to dispatch. This registers the fallthrough for ops autocast leaves alone and, for the
// others, CUDA's policy: the op lists torch 2.x exports for other backends to reuse
// (ATen/autocast_mode.h: lower-precision matmuls and convolutions, float32 norms, softmax and
// losses, type promotion for mixed inputs). torch 1.13 has no autocast for PrivateUse1.
#include "opweave/torch_compat.h"

#if OPWEAVE_TORCH_AT_LEAST(2, 4)

#include <ATen/autocast_mode.h>
#include <torch/library.h>

// In ATen's namespace: the op lists name Tensor, ScalarType, IntArrayRef unqualified.
namespace at::autocast {
namespace {

TORCH_LIBRARY_IMPL(_, AutocastPrivateUse1, m) { m.fallback(torch::CppFunction::makeFallthrough()); }

TORCH_LIBRARY_IMPL(aten, AutocastPrivateUse1, m) {
#define OPWEAVE_LOWER(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, lower_precision_fp)
#define OPWEAVE_FP32(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32)
#define OPWEAVE_FP32_OPT_DTYPE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, fp32_set_opt_dtype)
#define OPWEAVE_PROMOTE(...) KERNEL_PRIVATEUSEONE(__VA_ARGS__, promote)
  AT_FORALL_LOWER_PRECISION_FP(OPWEAVE_LOWER)
  AT_FORALL_FP32(OPWEAVE_FP32)
  AT_FORALL_FP32_SET_OPT_DTYPE(OPWEAVE_FP32_OPT_DTYPE)
  AT_FORALL_DIFFERENT_REDISPATCH_SIGNATURE(KERNEL_DIFFERENT_REDISPATCH_SIGNATURE_PRIVATEUSEONE)
  AT_FORALL_PROMOTE(OPWEAVE_PROMOTE)
#undef OPWEAVE_LOWER
#undef OPWEAVE_FP32
#undef OPWEAVE_FP32_OPT_DTYPE
#undef OPWEAVE_PROMOTE
}

}  // namespace
}  // namespace at::autocast

#endif  // torch >= 2.4
