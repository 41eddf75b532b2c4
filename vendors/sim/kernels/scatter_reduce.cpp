// The `scatter_reduce` family: Combines src into input at the positions index gives along dim
// (sum, prod, mean, amax or amin; include_self false leaves input's value out of the reduction at
// scattered positions), in index order. DIOPI extensions: diopiScatterReduce, diopiScatterAdd.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/index.h"
#include "common/reduce_into.h"

using namespace simk;

namespace {

void scatter_reduce(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t input_h, int64_t dim, diopiConstTensorHandle_t index_h,
                    diopiConstTensorHandle_t src_h, Combine op, bool include_self) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  const View index = input_view(index_h, "index");
  const View src = input_view(src_h, "src");
  check_dtype(out, kCombineTypes, "out");
  check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
  SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype && src.dtype == out.dtype,
             "out (%s, %s), input (%s, %s) and src (%s) must agree", out.shape_str().c_str(),
             dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype),
             dtype_name(src.dtype));
  const int d = wrap_dim(dim, input.ndim);
  check_scatter_shapes(index, input, &src, d);
  launch(kernel, ctx, out, [=] {
    if (out.data != input.data) cast_copy(out, input);
    const std::vector<int64_t> idx = packed<int64_t>(index);
    reduce_into<kCombineTypes>(out, src, op, include_self, [&](auto f) {
      walk_gather(index, src, out, d, idx, kernel.name,
                  [&](int64_t, int64_t so, int64_t oo) { f(oo, so); });
    });
  });
}

}  // namespace

diopiError_t diopiScatterReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, int64_t dim,
                                diopiConstTensorHandle_t index, diopiConstTensorHandle_t src,
                                const char* reduce, bool include_self) {
  SIMK_KERNEL(diopiScatterReduce);
  return guarded(kernel.name, [&] {
    scatter_reduce(kernel, ctx, out, input, dim, index, src, parse_combine(reduce, true),
                   include_self);
  });
}

diopiError_t diopiScatterAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, int64_t dim,
                             diopiConstTensorHandle_t index, diopiConstTensorHandle_t src) {
  SIMK_KERNEL(diopiScatterAdd);
  return guarded(kernel.name, [&] {
    scatter_reduce(kernel, ctx, out, input, dim, index, src, Combine::kSum, true);
  });
}
