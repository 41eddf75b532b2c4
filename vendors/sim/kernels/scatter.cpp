// The `scatter` family: Writes src (or value) into input at the positions index gives along dim;
// reduce "add" or "multiply" combines instead of replacing. DIOPI: diopiScatter,
// diopiScatterInp, diopiScatterScalar, diopiScatterInpScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/index.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

enum class ScatterReduce { kReplace, kAdd, kMultiply };

ScatterReduce scatter_reduce(const char* reduce) {
  if (reduce == nullptr || *reduce == '\0') return ScatterReduce::kReplace;
  if (std::strcmp(reduce, "add") == 0) return ScatterReduce::kAdd;
  if (std::strcmp(reduce, "multiply") == 0) return ScatterReduce::kMultiply;
  failf(diopiErrorOccurred, "reduce must be null, \"add\" or \"multiply\", got \"%s\"", reduce);
}

// out = input (unless out is input), then for each position p of index:
// out[p with p[dim] = index[p]] (op)= src[p] (or value). Runs in index order, so with repeated
// indices the last write wins, as ATen's CPU kernel.
void scatter(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
             int64_t dim_arg, diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t src_h,
             const diopiScalar_t* value_s, const char* reduce_s) {
  const View index = input_view(index_h, "index");
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
  SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
             "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
             dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
  const int d = wrap_dim(dim_arg, input.ndim);
  const ScatterReduce reduce = scatter_reduce(reduce_s);
  const bool from_src = src_h != nullptr;
  View src;
  Scalar value;
  if (from_src) {
    src = input_view(src_h, "src");
    SIMK_CHECK(src.dtype == out.dtype, "src has dtype %s, input %s", dtype_name(src.dtype),
               dtype_name(out.dtype));
  } else {
    value = scalar_arg(value_s, "value");
  }
  check_scatter_shapes(index, input, from_src ? &src : nullptr, d);
  launch(kernel, ctx, out, [=] {
    if (out.data != input.data) cast_copy(out, input);
    const std::vector<int64_t> idx = packed<int64_t>(index);
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      T* o = out.ptr<T>();
      const T* sp = from_src ? src.ptr<T>() : nullptr;
      const T v = from_src ? T() : (value.is_float ? convert<T>(value.f) : convert<T>(value.i));
      const View src_shape = from_src ? src : index;
      walk_gather(index, src_shape, out, d, idx, "scatter", [&](int64_t, int64_t os, int64_t oo) {
        const T x = from_src ? sp[os] : v;
        switch (reduce) {
          case ScatterReduce::kReplace:
            o[oo] = x;
            break;
          case ScatterReduce::kAdd:
            o[oo] = convert<T>(static_cast<A>(load(o[oo]) + load(x)));
            break;
          case ScatterReduce::kMultiply:
            o[oo] = convert<T>(static_cast<A>(load(o[oo]) * load(x)));
            break;
        }
      });
    });
  });
}

}  // namespace

diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, int64_t dim, diopiConstTensorHandle_t src,
                          diopiConstTensorHandle_t index, const char* reduce) {
  SIMK_KERNEL(diopiScatter);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(src != nullptr, "src is a null tensor");
    scatter(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index, src,
            nullptr, reduce);
  });
}

diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim,
                             diopiConstTensorHandle_t src, diopiConstTensorHandle_t index,
                             const char* reduce) {
  SIMK_KERNEL(diopiScatterInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(src != nullptr, "src is a null tensor");
    const View v = output_view(input, "input");
    scatter(kernel, ctx, v, v, dim, index, src, nullptr, reduce);
  });
}

diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, int64_t dim,
                                const diopiScalar_t* value, diopiConstTensorHandle_t index,
                                const char* reduce) {
  SIMK_KERNEL(diopiScatterScalar);
  return guarded(kernel.name, [&] {
    scatter(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index, nullptr,
            value, reduce);
  });
}

diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim,
                                   const diopiScalar_t* value, diopiConstTensorHandle_t index,
                                   const char* reduce) {
  SIMK_KERNEL(diopiScatterInpScalar);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    scatter(kernel, ctx, v, v, dim, index, nullptr, value, reduce);
  });
}
