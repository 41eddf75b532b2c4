// The `addmm` family: out = beta * input + alpha * (mat1 @ mat2), input broadcast to the
// product's shape. DIOPI: diopiAddmm.
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

namespace {

double scalar_or_one(const diopiScalar_t* s) {
  return scalar_or(s, Scalar::of_int(1)).as<double>();
}

}  // namespace

diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mat1_h,
                        diopiConstTensorHandle_t mat2_h, const diopiScalar_t* beta_arg,
                        const diopiScalar_t* alpha_arg) {
  SIMK_KERNEL(diopiAddmm);
  return guarded(kernel.name, [&] {
    add_product(kernel, ctx, addmm_args(out_h, input_h, mat1_h, mat2_h, beta_arg, alpha_arg));
  });
}

namespace simk {

AddmmArgs addmm_args(diopiTensorHandle_t out_h, diopiConstTensorHandle_t input_h,
                     diopiConstTensorHandle_t mat1_h, diopiConstTensorHandle_t mat2_h,
                     const diopiScalar_t* beta_arg, const diopiScalar_t* alpha_arg) {
  return product_args(out_h, input_h, mat1_h, mat2_h, 2, scalar_or_one(beta_arg),
                      scalar_or_one(alpha_arg));
}

// Declared in common/blas.h: baddbmm (through add_product) and fused.cpp call it too.
void addmm_compute(const AddmmArgs& r) { matmul(r.out, r.a, r.b, r.bias, true, r.alpha, r.beta); }

}  // namespace simk
