// The `bmm` family: Batched matrix product of two 3-D tensors. DIOPI: diopiBmm.
#include <cblas.h>
#include <diopi/prototypes.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "common/blas.h"
#include "common/elementwise.h"
#include "common/matmul.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mat2_h) {
  SIMK_KERNEL(diopiBmm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View a = input_view(input_h, "input"), b = input_view(mat2_h, "mat2");
    check_matmul(out, a, b, 3);
    launch(kernel, ctx, out, [=] { matmul(out, a, b, View{}, false, 1.0, 0.0); });
  });
}
