// softmax / log_softmax along a dim and their backward from the forward output.
//
// The tensor is seen as dense [outer, len, inner] lines along dim. A line is processed by a warp
// (len <= 1024) or a block when dim is the innermost (inner == 1), else by one thread, so that
// neighbouring threads walk neighbouring lines and their loads coalesce. Forward: max (NaN
// propagating), then the sum of exp(x - max), then the result, reading the line three times
// (the re-reads mostly hit the caches). 16-bit floats compute in float, as ATen.
#include <diopi/functions.h>

#include <algorithm>
#include <limits>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

using cuk::Tensor;

__device__ __forceinline__ float dev_exp(float v) { return expf(v); }
__device__ __forceinline__ double dev_exp(double v) { return exp(v); }
__device__ __forceinline__ float dev_log(float v) { return logf(v); }
__device__ __forceinline__ double dev_log(double v) { return log(v); }

// How the lanes sharing a line combine their partial results (every lane gets the result).
struct ThreadAll {
  template <class A, class Op>
  __device__ __forceinline__ A operator()(A v, Op, A) const {
    return v;
  }
};
struct WarpAll {
  template <class A, class Op>
  __device__ __forceinline__ A operator()(A v, Op op, A) const {
    return cuk::warp_reduce(v, op);
  }
};
struct BlockAll {
  template <class A, class Op>
  __device__ __forceinline__ A operator()(A v, Op op, A identity) const {
    __shared__ A shared[32];
    return cuk::block_reduce(v, op, identity, shared);
  }
};

// Lines: run<kLanes>(base, len, stride, lane, all) processes the line whose elements are at
// base + i * stride, lane `lane` of kLanes taking every kLanes-th element.
template <class T, bool kLog>
struct SoftmaxLine {
  const T* x;
  T* y;
  template <int kLanes, class All>
  __device__ __forceinline__ void run(int64_t base, int64_t len, int64_t stride, int lane,
                                      All all) const {
    using A = cuk::acc_t<T>;
    const T* xl = x + base;
    T* yl = y + base;
    const A ninf = -std::numeric_limits<A>::infinity();
    A m = ninf;
    for (int64_t i = lane; i < len; i += kLanes) m = cuk::MaxOp{}(m, cuk::load(xl[i * stride]));
    m = all(m, cuk::MaxOp{}, ninf);
    if (m == ninf) m = A(0);  // every element -inf: exp(-inf - 0) = 0, as ATen
    A sum = 0;
    for (int64_t i = lane; i < len; i += kLanes) sum += dev_exp(cuk::load(xl[i * stride]) - m);
    sum = all(sum, cuk::SumOp{}, A(0));
    if constexpr (kLog) {
      const A lse = dev_log(sum);
      for (int64_t i = lane; i < len; i += kLanes)
        yl[i * stride] = cuk::convert<T>(cuk::load(xl[i * stride]) - m - lse);
    } else {
      for (int64_t i = lane; i < len; i += kLanes)
        yl[i * stride] = cuk::convert<T>(dev_exp(cuk::load(xl[i * stride]) - m) / sum);
    }
  }
};

// softmax: gI = y * (gO - sum(gO * y)); log_softmax: gI = gO - exp(y) * sum(gO).
template <class T, bool kLog>
struct SoftmaxBackwardLine {
  const T* g;
  const T* y;
  T* gi;
  template <int kLanes, class All>
  __device__ __forceinline__ void run(int64_t base, int64_t len, int64_t stride, int lane,
                                      All all) const {
    using A = cuk::acc_t<T>;
    const T* gl = g + base;
    const T* yl = y + base;
    T* out = gi + base;
    A dot = 0;
    for (int64_t i = lane; i < len; i += kLanes) {
      const A gv = cuk::load(gl[i * stride]);
      dot += kLog ? gv : gv * cuk::load(yl[i * stride]);
    }
    dot = all(dot, cuk::SumOp{}, A(0));
    for (int64_t i = lane; i < len; i += kLanes) {
      const A gv = cuk::load(gl[i * stride]), yv = cuk::load(yl[i * stride]);
      out[i * stride] = cuk::convert<T>(kLog ? gv - dev_exp(yv) * dot : yv * (gv - dot));
    }
  }
};

template <class Line>
__global__ void lines_per_thread(Line f, int64_t outer, int64_t len, int64_t inner) {
  CUK_GRID_STRIDE(u, outer * inner) {
    f.template run<1>((u / inner) * len * inner + u % inner, len, inner, 0, ThreadAll{});
  }
}

// kGroup threads (a warp, or the whole block) per dense line.
template <int kGroup, class Line>
__global__ void __launch_bounds__(cuk::kThreads)
    lines_per_group(Line f, int64_t lines, int64_t len) {
  constexpr int kPerBlock = cuk::kThreads / kGroup;
  const int lane = threadIdx.x % kGroup, group = threadIdx.x / kGroup;
  // With kGroup == blockDim every thread sees the same `line`, as block_reduce needs; a warp
  // group skips a line past the end as a whole.
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * kPerBlock; first < lines;
       first += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t line = first + group;
    if (line >= lines) continue;
    if constexpr (kGroup == 32) {
      f.template run<kGroup>(line * len, len, 1, lane, WarpAll{});
    } else {
      f.template run<kGroup>(line * len, len, 1, lane, BlockAll{});
    }
  }
}

template <class Line>
void run_lines(cudaStream_t stream, Line f, int64_t outer, int64_t len, int64_t inner) {
  const int64_t lines = outer * inner;
  if (lines == 0 || len == 0) return;
  if (inner > 1) {
    lines_per_thread<<<cuk::blocks_for(lines), cuk::kThreads, 0, stream>>>(f, outer, len, inner);
  } else if (len <= 1024) {
    constexpr int kPerBlock = cuk::kThreads / 32;
    const auto blocks = std::min<int64_t>((lines + kPerBlock - 1) / kPerBlock, 65535 * 8);
    lines_per_group<32><<<static_cast<unsigned>(blocks), cuk::kThreads, 0, stream>>>(f, lines, len);
  } else {
    const auto blocks = std::min<int64_t>(lines, 65535 * 8);
    lines_per_group<cuk::kThreads>
        <<<static_cast<unsigned>(blocks), cuk::kThreads, 0, stream>>>(f, lines, len);
  }
  cuk::check_launch("softmax");
}

struct Lines {
  int64_t outer = 1, len = 1, inner = 1;
};
Lines lines_of(const Tensor& t, int64_t dim) {
  Lines l;
  for (int d = 0; d < t.ndim; ++d) {
    if (d < dim) l.outer *= t.sizes[d];
    if (d == dim) l.len = t.sizes[d];
    if (d > dim) l.inner *= t.sizes[d];
  }
  return l;
}

template <bool kLog>
void softmax_forward(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                     diopiConstTensorHandle_t input_h, int64_t dim) {
  const Tensor out = cuk::output(out_h, "out");
  const Tensor input = cuk::input(input_h, "input");
  cuk::check_dtype(out, cuk::kFloating, "out");
  cuk::check_same_shape(out, input, "out", "input");
  const int64_t d = cuk::wrap_dim(dim, input.ndim, "dim");
  cuk::dispatch<cuk::kFloating>(input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    if (input.numel == 0) return;
    const Tensor x = cuk::contiguous(ctx, input);
    const Tensor y = out_buffer(ctx, out, input.dtype);
    const Lines l = lines_of(input, d);
    run_lines(cuk::stream_of(ctx), SoftmaxLine<T, kLog>{x.ptr<const T>(), y.ptr<T>()}, l.outer,
              l.len, l.inner);
    copy_back(ctx, out, y);
  });
}

template <bool kLog>
void softmax_backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                      diopiConstTensorHandle_t grad_output_h, diopiConstTensorHandle_t output_h,
                      int64_t dim) {
  const Tensor gi = cuk::output(grad_input_h, "grad_input");
  const Tensor go = cuk::input(grad_output_h, "grad_output");
  const Tensor y = cuk::input(output_h, "output");
  cuk::check_dtype(gi, cuk::kFloating, "grad_input");
  cuk::check_dtype(go, cuk::kFloating, "grad_output");
  cuk::check_same_shape(go, gi, "grad_output", "grad_input");
  cuk::check_same_shape(y, gi, "output", "grad_input");
  const int64_t d = cuk::wrap_dim(dim, gi.ndim, "dim");
  cuk::dispatch<cuk::kFloating>(y.dtype, "output", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    if (gi.numel == 0) return;
    const Tensor g = cuk::contiguous(ctx, cuk::as_dtype(ctx, go, y.dtype));
    const Tensor yc = cuk::contiguous(ctx, y);
    const Tensor out = out_buffer(ctx, gi, y.dtype);
    const Lines l = lines_of(gi, d);
    run_lines(cuk::stream_of(ctx),
              SoftmaxBackwardLine<T, kLog>{g.ptr<const T>(), yc.ptr<const T>(), out.ptr<T>()},
              l.outer, l.len, l.inner);
    copy_back(ctx, gi, out);
  });
}

}  // namespace

extern "C" diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input, int64_t dim) {
  return cuk::guarded("diopiSoftmax", [&] { softmax_forward<false>(ctx, out, input, dim); });
}

extern "C" diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx,
                                             diopiTensorHandle_t grad_input,
                                             diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t output, int64_t dim) {
  return cuk::guarded("diopiSoftmaxBackward",
                      [&] { softmax_backward<false>(ctx, grad_input, grad_output, output, dim); });
}

extern "C" diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input, int64_t dim) {
  return cuk::guarded("diopiLogSoftmax", [&] { softmax_forward<true>(ctx, out, input, dim); });
}

extern "C" diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx,
                                                diopiTensorHandle_t grad_input,
                                                diopiConstTensorHandle_t grad_output,
                                                diopiConstTensorHandle_t output, int64_t dim) {
  return cuk::guarded("diopiLogSoftmaxBackward",
                      [&] { softmax_backward<true>(ctx, grad_input, grad_output, output, dim); });
}
