// The generated DIOPI headers compile as C++17 and keep C linkage and DIOPI's enum values.
#include <diopi/functions.h>
// Its doc-free twin redeclares every function: any difference is a compile error.
#include <diopi/prototypes.h>

#include <type_traits>

static_assert(diopiSuccess == 0 && diopiNoImplement == 13 && diopiDtypeNotSupported == 1000);
static_assert(diopi_dtype_float32 == 9 && diopi_dtype_bfloat16 == 12);
static_assert(std::is_same_v<decltype(&diopiMm),
                             diopiError_t (*)(diopiContextHandle_t, diopiTensorHandle_t,
                                              diopiConstTensorHandle_t, diopiConstTensorHandle_t)>);

int main() { return 0; }
