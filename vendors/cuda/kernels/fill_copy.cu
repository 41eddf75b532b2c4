// fill, zero, copy and dtype cast on the device. A dense same-dtype copy is one
// cudaMemcpyAsync; anything else (other dtype, strides, broadcast src) goes through the generic
// converting element-wise loop. Overlapping source and destination are staged through scratch so
// an element is never read after it was overwritten.
#include <diopi/functions.h>

#include "common/pointwise.cuh"

using namespace cuk;

namespace {

template <class A>
struct ConstF {
  A value;
  __device__ __forceinline__ A operator()() const { return value; }
};

void copy(diopiContextHandle_t ctx, const Tensor& dst, Tensor src) {
  if (dst.numel == 0) return;
  const cudaStream_t stream = stream_of(ctx);
  if (same_view(dst, src)) return;  // copying a tensor onto itself
  if (dst.dtype == src.dtype && same_shape(dst, src) && dst.is_contiguous() &&
      src.is_contiguous()) {
    const cudaError_t err = cudaMemcpyAsync(dst.data, src.data, dst.numel * dst.itemsize(),
                                            cudaMemcpyDeviceToDevice, stream);
    CUK_CHECK(err == cudaSuccess, "cudaMemcpyAsync: %s", cudaGetErrorString(err));
    return;
  }
  if (overlaps(dst, src)) {
    Tensor staged = scratch_like(ctx, src, src.dtype);
    cast_copy(stream, staged, src);
    src = staged;
  }
  cast_copy(stream, dst, src);
}

}  // namespace

extern "C" diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input_h,
                                  const diopiScalar_t* value) {
  return guarded("diopiFill", [&] {
    const Tensor t = output(input_h, "input");
    const Scalar v = scalar_arg(value, "value");
    dispatch<kAllTypes>(t.dtype, "input", [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      map<T>(stream_of(ctx), t, ConstF<A>{v.as<A>()});
    });
  });
}

extern "C" diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
  return guarded("diopiZeroInp", [&] {
    const Tensor t = output(self, "self");
    if (t.numel == 0) return;
    if (t.is_contiguous()) return zero_fill(stream_of(ctx), t);
    dispatch<kAllTypes>(t.dtype, "self", [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      map<T>(stream_of(ctx), t, ConstF<A>{A(0)});
    });
  });
}

extern "C" diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src,
                                     diopiTensorHandle_t dest) {
  return guarded("diopiCopyInp", [&] { copy(ctx, output(dest, "dest"), input(src, "src")); });
}

extern "C" diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input_h) {
  return guarded("diopiCastDtype", [&] { copy(ctx, output(out, "out"), input(input_h, "input")); });
}
