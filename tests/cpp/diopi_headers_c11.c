/* The generated DIOPI headers compile as strict C11 (a vendor may write kernels in C). */
#include <diopi/functions.h>
/* Its doc-free twin redeclares every function: any difference is a compile error. */
#include <diopi/prototypes.h>

int main(void) {
  diopiSize_t size = {0, 0};
  diopiScalar_t alpha;
  alpha.stype = diopi_dtype_float64;
  alpha.fval = 1.0;
  /* Every prototype is reachable with C linkage. */
  diopiError_t (*add)(diopiContextHandle_t, diopiTensorHandle_t, diopiConstTensorHandle_t,
                      diopiConstTensorHandle_t, const diopiScalar_t*) = diopiAdd;
  (void)add;
  return (int)size.len + (alpha.fval == 1.0 ? 0 : 1);
}
