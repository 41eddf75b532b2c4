// addmm's operands and compute (addmm.cpp), shared with the graph-level kernels (fused.cpp).
#ifndef SIM_KERNELS_COMMON_BLAS_H_
#define SIM_KERNELS_COMMON_BLAS_H_

#include <diopi/diopirt.h>

#include "view.h"

namespace simk {

// addmm's operands, read and validated on the calling thread (KernelError when invalid).
struct AddmmArgs {
  View out, bias, a, b;
  double alpha = 1, beta = 1;
};

AddmmArgs addmm_args(diopiTensorHandle_t out, diopiConstTensorHandle_t input,
                     diopiConstTensorHandle_t mat1, diopiConstTensorHandle_t mat2,
                     const diopiScalar_t* beta, const diopiScalar_t* alpha);

// out = beta * bias + alpha * a @ b, exactly as diopiAddmm computes it (call on the stream).
void addmm_compute(const AddmmArgs& args);

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_BLAS_H_
