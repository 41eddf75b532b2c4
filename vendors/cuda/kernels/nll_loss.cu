// nll_loss forward and backward: class scores [N, C] (or [C], or [N, C, d1, ...] with targets
// [N, d1, ...] as ATen's nll_loss2d), integer class indices, optional per-class weights,
// reduction none / mean / sum and ignore_index. Accumulates in acc_t (float for 16-bit floats).
//
// A target outside [0, C) (other than ignore_index) contributes nothing: no loss, no weight and
// a zero gradient. The CPU path raises an error for it, but telling the host would mean reading
// the targets back, i.e. synchronising the stream; ATen's CUDA kernel asserts on the device.
//
// Sum and mean reduce deterministically: per-block partial sums of the loss and of the weight,
// then one block combines them. Mean divides by the total weight of the counted targets (NaN
// when it is 0, as ATen).
#include <diopi/functions.h>

#include <algorithm>
#include <type_traits>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

using cuk::Tensor;

// Sample k (of N * S, row-major over [N, d1, ...]) and class c as an element offset of input.
struct Geometry {
  int64_t classes = 0, spatial = 1, stride_n = 0, stride_c = 0;
  int nspatial = 0;
  int64_t sizes[cuk::kMaxDims] = {}, strides[cuk::kMaxDims] = {};

  __device__ __forceinline__ int64_t offset(int64_t k, int64_t c) const {
    int64_t s = k % spatial, off = (k / spatial) * stride_n + c * stride_c;
    for (int d = nspatial - 1; d >= 0; --d) {
      off += (s % sizes[d]) * strides[d];
      s /= sizes[d];
    }
    return off;
  }
};

// The class weight of sample k's target, or 0 when it is ignored or out of range (`cls` gets
// the target).
template <class T>
struct Targets {
  const int64_t* target;
  const T* weight;  // null: every class weighs 1
  int64_t classes, ignore_index;

  __device__ __forceinline__ cuk::acc_t<T> weight_of(int64_t k, int64_t* cls) const {
    using A = cuk::acc_t<T>;
    const int64_t t = target[k];
    *cls = t;
    if (t == ignore_index || t < 0 || t >= classes) return A(0);
    return weight != nullptr ? cuk::load(weight[t]) : A(1);
  }
};

// -w * x, and 0 for a zero weight even where x is infinite (as the CPU path).
template <class A>
__device__ __forceinline__ A loss_of(A w, A x) {
  return w == A(0) ? A(0) : -w * x;
}

template <class T>
__global__ void nll_per_sample(const T* x, Geometry g, Targets<T> tg, T* out, int64_t n) {
  CUK_GRID_STRIDE(k, n) {
    int64_t c;
    const auto w = tg.weight_of(k, &c);
    out[k] = cuk::convert<T>(w == 0 ? w : loss_of(w, cuk::load(x[g.offset(k, c)])));
  }
}

// Per-block sums of the loss (when x is given) and of the weight: partial[b], partial[P + b].
template <class T>
__global__ void __launch_bounds__(cuk::kThreads)
    nll_partial(const T* x, Geometry g, Targets<T> tg, int64_t n, cuk::acc_t<T>* partial) {
  using A = cuk::acc_t<T>;
  __shared__ A shared[32];
  A loss = 0, weight = 0;
  CUK_GRID_STRIDE(k, n) {
    int64_t c;
    const A w = tg.weight_of(k, &c);
    if (w == A(0)) continue;
    weight += w;
    if (x != nullptr) loss += loss_of(w, cuk::load(x[g.offset(k, c)]));
  }
  loss = cuk::block_reduce(loss, cuk::SumOp{}, A(0), shared);
  weight = cuk::block_reduce(weight, cuk::SumOp{}, A(0), shared);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = loss;
    partial[gridDim.x + blockIdx.x] = weight;
  }
}

// One block: combines `parts` partials into out[0] (the loss; mean when `mean`) and/or
// total[0] (the total weight).
template <class T>
__global__ void __launch_bounds__(cuk::kThreads)
    nll_finish(const cuk::acc_t<T>* partial, int parts, bool mean, T* out, cuk::acc_t<T>* total) {
  using A = cuk::acc_t<T>;
  __shared__ A shared[32];
  A loss = 0, weight = 0;
  for (int b = threadIdx.x; b < parts; b += blockDim.x) {
    loss += partial[b];
    weight += partial[parts + b];
  }
  loss = cuk::block_reduce(loss, cuk::SumOp{}, A(0), shared);
  weight = cuk::block_reduce(weight, cuk::SumOp{}, A(0), shared);
  if (threadIdx.x == 0) {
    if (out != nullptr) out[0] = cuk::convert<T>(mean ? loss / weight : loss);
    if (total != nullptr) total[0] = weight;
  }
}

// Every element of the dense [N, C, S] gradient: -w * grad_output (over the total weight for
// mean) at each sample's target class, 0 elsewhere.
template <class T>
__global__ void nll_backward(T* gi, const T* go, bool per_sample, const cuk::acc_t<T>* total,
                             Targets<T> tg, int64_t spatial, int64_t numel) {
  using A = cuk::acc_t<T>;
  const int64_t plane = tg.classes * spatial;
  CUK_GRID_STRIDE(e, numel) {
    const int64_t rem = e % plane;
    const int64_t k = (e / plane) * spatial + rem % spatial;
    int64_t t;
    const A w = tg.weight_of(k, &t);
    A v = 0;
    if (t == rem / spatial && t != tg.ignore_index) {
      A gv = cuk::load(go[per_sample ? k : 0]);
      if (total != nullptr) gv /= total[0];
      v = w * -gv;
    }
    gi[e] = cuk::convert<T>(v);
  }
}

template <class A>
constexpr diopiDtype_t dtype_of() {
  return std::is_same<A, double>::value ? diopi_dtype_float64 : diopi_dtype_float32;
}

struct Args {
  Tensor input, target, weight;  // target: int64, contiguous; weight: data null when absent
  Geometry geom;
  int64_t samples = 1;  // N * S
  diopiReduction_t reduction = ReductionMean;
  int64_t ignore_index = -100;
  bool per_sample() const { return reduction == ReductionNone && input.ndim >= 2; }
};

Args nll_args(diopiContextHandle_t ctx, diopiConstTensorHandle_t input_h,
              diopiConstTensorHandle_t target_h, diopiConstTensorHandle_t weight_h,
              diopiReduction_t reduction, int64_t ignore_index) {
  Args a;
  a.input = cuk::input(input_h, "input");
  const Tensor target = cuk::input(target_h, "target");
  a.weight = cuk::optional_input(weight_h, "weight");
  cuk::check_dtype(a.input, cuk::kFloating, "input");
  cuk::check_dtype(target, cuk::kIntegral, "target");
  if (a.weight.data != nullptr) cuk::check_dtype(a.weight, cuk::kFloating, "weight");
  const Tensor& in = a.input;
  CUK_CHECK(in.ndim >= 1, "input must have at least 1 dim, got %s", in.shape_str().c_str());
  CUK_CHECK(reduction == ReductionNone || reduction == ReductionMean || reduction == ReductionSum,
            "invalid reduction %d", static_cast<int>(reduction));
  // target: input's shape without the class dim (dim 1, or dim 0 of a 1-D input).
  Tensor expected = in;
  expected.ndim = 0;
  for (int d = 0; d < in.ndim; ++d)
    if (d != std::min(in.ndim - 1, 1)) expected.sizes[expected.ndim++] = in.sizes[d];
  CUK_CHECK(cuk::same_shape(target, expected), "target %s does not match input %s (expected %s)",
            target.shape_str().c_str(), in.shape_str().c_str(), expected.shape_str().c_str());
  Geometry& g = a.geom;
  g.classes = in.ndim == 1 ? in.sizes[0] : in.sizes[1];
  g.stride_c = in.ndim == 1 ? in.strides[0] : in.strides[1];
  g.stride_n = in.ndim == 1 ? 0 : in.strides[0];
  for (int d = 2; d < in.ndim; ++d) {
    g.sizes[g.nspatial] = in.sizes[d];
    g.strides[g.nspatial++] = in.strides[d];
    g.spatial *= in.sizes[d];
  }
  a.samples = target.numel;
  CUK_CHECK(a.weight.data == nullptr || a.weight.numel == g.classes,
            "weight has %lld elements, expected %lld (the number of classes)",
            static_cast<long long>(a.weight.numel), static_cast<long long>(g.classes));
  a.target = cuk::contiguous(ctx, cuk::as_dtype(ctx, target, diopi_dtype_int64));
  a.reduction = reduction;
  a.ignore_index = ignore_index;
  return a;
}

// The targets, with the weights (if any) dense and of `dtype`, T's dtype.
template <class T>
Targets<T> targets_of(diopiContextHandle_t ctx, const Args& a, diopiDtype_t dtype) {
  const T* w = nullptr;
  if (a.weight.data != nullptr)
    w = cuk::contiguous(ctx, cuk::as_dtype(ctx, a.weight, dtype)).ptr<const T>();
  return Targets<T>{a.target.ptr<const int64_t>(), w, a.geom.classes, a.ignore_index};
}

// Launches the per-block partial sums over the samples (none when there are none) and returns
// the scratch they are in ([2 * parts]); x null: weights only.
template <class T>
cuk::acc_t<T>* partial_sums(diopiContextHandle_t ctx, const Args& a, const T* x,
                            const Targets<T>& tg, int* parts) {
  using A = cuk::acc_t<T>;
  *parts =
      a.samples == 0 ? 0 : static_cast<int>(std::min<unsigned>(cuk::blocks_for(a.samples), 1024));
  const int64_t len = 2 * std::max(*parts, 1);
  A* partial = cuk::scratch(ctx, dtype_of<A>(), &len, 1).ptr<A>();
  if (*parts > 0) {
    nll_partial<T>
        <<<*parts, cuk::kThreads, 0, cuk::stream_of(ctx)>>>(x, a.geom, tg, a.samples, partial);
    cuk::check_launch("nll_loss partial sums");
  }
  return partial;
}

void nll_forward(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t target_h,
                 diopiConstTensorHandle_t weight_h, diopiReduction_t reduction,
                 int64_t ignore_index) {
  const Tensor out = cuk::output(out_h, "out");
  cuk::check_dtype(out, cuk::kFloating, "out");
  const Args a = nll_args(ctx, input_h, target_h, weight_h, reduction, ignore_index);
  if (a.per_sample()) {
    CUK_CHECK(cuk::same_shape(out, a.target), "out has shape %s, expected %s",
              out.shape_str().c_str(), a.target.shape_str().c_str());
  } else {
    CUK_CHECK(out.ndim == 0, "out has shape %s, expected []", out.shape_str().c_str());
  }
  cuk::dispatch<cuk::kFloating>(a.input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    const Targets<T> tg = targets_of<T>(ctx, a, a.input.dtype);
    const Tensor buf = out_buffer(ctx, out, a.input.dtype);
    const cudaStream_t stream = cuk::stream_of(ctx);
    if (reduction == ReductionNone) {  // also a 1-D input's single sample
      if (a.samples == 0) return;
      nll_per_sample<T><<<cuk::blocks_for(a.samples), cuk::kThreads, 0, stream>>>(
          a.input.ptr<const T>(), a.geom, tg, buf.ptr<T>(), a.samples);
      cuk::check_launch("nll_loss");
    } else {
      int parts;
      const auto* partial = partial_sums<T>(ctx, a, a.input.ptr<const T>(), tg, &parts);
      nll_finish<T><<<1, cuk::kThreads, 0, stream>>>(partial, parts, reduction == ReductionMean,
                                                     buf.ptr<T>(), nullptr);
      cuk::check_launch("nll_loss reduction");
    }
    copy_back(ctx, out, buf);
  });
}

void nll_backward_entry(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                        diopiConstTensorHandle_t grad_output_h, diopiConstTensorHandle_t input_h,
                        diopiConstTensorHandle_t target_h, diopiConstTensorHandle_t weight_h,
                        diopiReduction_t reduction, int64_t ignore_index) {
  const Tensor gi = cuk::output(grad_input_h, "grad_input");
  const Tensor go = cuk::input(grad_output_h, "grad_output");
  cuk::check_dtype(gi, cuk::kFloating, "grad_input");
  cuk::check_dtype(go, cuk::kFloating, "grad_output");
  const Args a = nll_args(ctx, input_h, target_h, weight_h, reduction, ignore_index);
  cuk::check_same_shape(gi, a.input, "grad_input", "input");
  CUK_CHECK(go.numel == (a.per_sample() ? a.samples : 1), "grad_output has shape %s",
            go.shape_str().c_str());
  cuk::dispatch<cuk::kFloating>(gi.dtype, "grad_input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    if (gi.numel == 0) return;
    const Targets<T> tg = targets_of<T>(ctx, a, gi.dtype);
    const cudaStream_t stream = cuk::stream_of(ctx);
    A* total = nullptr;
    if (reduction == ReductionMean) {
      int parts;
      const A* partial = partial_sums<T>(ctx, a, static_cast<const T*>(nullptr), tg, &parts);
      const int64_t one = 1;
      total = cuk::scratch(ctx, dtype_of<A>(), &one, 1).ptr<A>();
      nll_finish<T><<<1, cuk::kThreads, 0, stream>>>(partial, parts, false, nullptr, total);
      cuk::check_launch("nll_loss total weight");
    }
    const Tensor g = cuk::contiguous(ctx, cuk::as_dtype(ctx, go, gi.dtype));
    const Tensor buf = out_buffer(ctx, gi, gi.dtype);
    nll_backward<T><<<cuk::blocks_for(gi.numel), cuk::kThreads, 0, stream>>>(
        buf.ptr<T>(), g.ptr<const T>(), a.per_sample(), total, tg, a.geom.spatial, gi.numel);
    cuk::check_launch("nll_loss backward");
    copy_back(ctx, gi, buf);
  });
}

}  // namespace

extern "C" diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t target,
                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                     int64_t ignore_index) {
  return cuk::guarded("diopiNLLLoss", [&] {
    nll_forward(ctx, out, input, target, weight, reduction, ignore_index);
  });
}

extern "C" diopiError_t diopiNLLLossBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
    diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
  return cuk::guarded("diopiNLLLossBackward", [&] {
    nll_backward_entry(ctx, grad_input, grad_output, input, target, weight, reduction,
                       ignore_index);
  });
}
