/* The C ABI between opweave.dicp's generated graph code and its runtime helper.
 *
 * A compiled graph is a small C shared library (no ATen headers: it includes only this file
 * and the DIOPI headers, so it compiles in a fraction of a second). It exports
 *
 *   const int ow_dicp_abi_version;                 = OW_DICP_ABI_VERSION
 *   const char* const ow_dicp_kernels[];           DIOPI functions it calls, NULL-terminated
 *   const char* const ow_dicp_nodes[];             node descriptions, for error messages
 *   const int64_t ow_dicp_num_inputs, ow_dicp_num_outputs;
 *   int ow_dicp_run(const ow_dicp_rt* rt, diopiTensorHandle_t const* inputs, const int64_t* sym);
 *
 * and calls the vendor's kernels through rt->kernels (resolved by the helper from the
 * runtime's DIOPI slot table, in ow_dicp_kernels order). Tensors it creates come from the
 * helper: fresh outputs, views, and intermediates placed in one scratch arena per run (the
 * generated code plans buffer reuse). Every callback returns NULL / non-zero on failure after
 * recording a message; the graph then returns rt->fail(self, node, status).
 */
#ifndef OW_DICP_ABI_H_
#define OW_DICP_ABI_H_

#include <diopi/diopirt.h>
#include <stdint.h>

#define OW_DICP_ABI_VERSION 1
#define OW_DICP_NONE INT64_MIN /* an absent optional integer in view parameters */

enum {
  OW_VIEW_ALIAS = 0,
  OW_VIEW_TRANSPOSE = 1, /* dim0, dim1 */
  OW_VIEW_PERMUTE = 2,   /* dims... */
  OW_VIEW_RESHAPE = 3,   /* sizes... (-1 inferred) */
  OW_VIEW_EXPAND = 4,    /* sizes... (-1 keeps) */
  OW_VIEW_UNSQUEEZE = 5, /* dim */
  OW_VIEW_SQUEEZE = 6,   /* dim */
  OW_VIEW_SELECT = 7,    /* dim, index */
  OW_VIEW_SLICE = 8      /* dim, start|NONE, end|NONE */
};

typedef struct ow_dicp_rt {
  int abi_version;
  void* self;
  diopiContextHandle_t ctx;
  void* const* kernels;
  /* A fresh contiguous device tensor (graph outputs: they outlive the run). */
  diopiTensorHandle_t (*empty)(void* self, int64_t ndim, const int64_t* sizes, diopiDtype_t dtype);
  /* Reserves this run's scratch arena of `nbytes`; 0 on success. */
  int (*arena)(void* self, int64_t nbytes);
  /* A contiguous tensor at byte `offset` of the arena. */
  diopiTensorHandle_t (*scratch)(void* self, int64_t offset, int64_t ndim, const int64_t* sizes,
                                 diopiDtype_t dtype);
  /* A view of `src` (OW_VIEW_* kind with n integer parameters). */
  diopiTensorHandle_t (*view)(void* self, diopiConstTensorHandle_t src, int kind, int64_t n,
                              const int64_t* params);
  /* Result `index` of the run. */
  void (*output)(void* self, int64_t index, diopiConstTensorHandle_t t);
  /* Records the failing node and returns `status` (non-zero). */
  int (*fail)(void* self, int64_t node, int status);
} ow_dicp_rt;

typedef int (*ow_dicp_run_fn)(const ow_dicp_rt* rt, diopiTensorHandle_t const* inputs,
                              const int64_t* sym);

#endif /* OW_DICP_ABI_H_ */
