/* What a vendor's DIOPI kernels accept: the input of the generated adaptor.
 *
 * A vendor declares it as data (vendors/<name>/kernel_support.yaml, validated by `make gen`
 * with file:line); the generator turns that file into a table this header describes
 * (generated/kernel_support/<name>.cpp), which the vendor library links and exports through
 * `owGetKernelSupport`. A vendor without the symbol accepts every dtype the catalogue lists.
 *
 * For each function the table names, the runtime puts the generated adaptor thunk of that
 * function in front of the vendor's kernel: a tensor argument whose dtype the catalogue lists
 * for the family but the vendor does not accept is cast ON THE DEVICE to the nearest wider
 * dtype the vendor accepts (float16 / bfloat16 -> float32 -> float64, int8 / uint8 -> int16 ->
 * int32 -> int64), and outputs are cast back; when `contiguous` is set, strided tensors are
 * copied to dense ones first. Narrowing (float64 -> float32, int64 -> int32) loses precision
 * and happens only when the table says `narrowing`. What cannot be adapted is declined
 * (diopiDtypeNotSupported), so the op runs on the CPU as before. */
#ifndef OPWEAVE_KERNEL_SUPPORT_H_
#define OPWEAVE_KERNEL_SUPPORT_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OW_KERNEL_SUPPORT_VERSION 1

typedef struct owKernelSupportEntry {
  const char* function; /* DIOPI function name, e.g. "diopiAdd" */
  uint64_t dtypes;      /* bit (1 << diopiDtype_t) per dtype the kernel accepts */
  uint8_t contiguous;   /* 1: every tensor argument must be contiguous */
} owKernelSupportEntry;

typedef struct owKernelSupport {
  uint32_t version;  /* OW_KERNEL_SUPPORT_VERSION */
  uint8_t narrowing; /* 1: float64 -> float32 and int64 -> int32 are allowed */
  uint32_t count;
  const owKernelSupportEntry* entries;
} owKernelSupport;

typedef const owKernelSupport* (*owGetKernelSupportFn)(void);
const owKernelSupport* owGetKernelSupport(void);

#ifdef __cplusplus
}
#endif

#endif /* OPWEAVE_KERNEL_SUPPORT_H_ */
