// The least a PrivateUse1 kernel can do to run diopiAdd: no checks, no output shaping, no
// instrumentation. bench/run.py times the generated add.out wrapper against it.
#include <ATen/core/Tensor.h>
#include <torch/library.h>

#include "diopi/prototypes.h"
#include "opweave/context.h"
#include "opweave/diopi_convert.h"
#include "opweave/diopi_handles.h"
#include "opweave/diopi_slots.h"

namespace {

at::Tensor& bare_add_out(const at::Tensor& self, const at::Tensor& other, at::Tensor& out) {
  diopiContext ctx(self.device().index());
  const diopiScalar_t alpha = opweave::diopi_scalar(1);
  OPWEAVE_DIOPI_SLOT(diopiAdd)
  (&ctx, opweave::handle(out), opweave::const_handle(self), opweave::const_handle(other), &alpha);
  return out;
}

}  // namespace

TORCH_LIBRARY(opweave_bench, m) {
  m.def("add_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
}

TORCH_LIBRARY_IMPL(opweave_bench, PrivateUse1, m) { m.impl("add_out", TORCH_FN(bare_add_out)); }

// No autograd for the yardstick: let the call fall through to the PrivateUse1 kernel.
TORCH_LIBRARY_IMPL(opweave_bench, AutogradPrivateUse1, m) {
  m.impl("add_out", torch::CppFunction::makeFallthrough());
}
