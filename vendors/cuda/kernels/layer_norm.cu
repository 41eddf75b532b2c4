// layer_norm forward and backward over the trailing normalized_shape dims.
//
// The input is seen as dense [rows, cols] (cols: the normalized elements). Each row is handled
// by a warp (cols <= 1024) or a block: two-pass statistics (mean, then the mean squared
// deviation) in acc_t (float for 16-bit floats, double for float64), as the CPU path. The
// statistics are saved in acc_t and converted into save_mean / save_invstd's dtype when it
// differs. grad_weight / grad_bias are column sums over the rows: per-(column tile, row chunk)
// partial sums, then one thread per column adds the chunks (deterministic).
#include <diopi/functions.h>

#include <algorithm>
#include <type_traits>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

using cuk::Tensor;

__device__ __forceinline__ float dev_sqrt(float v) { return sqrtf(v); }
__device__ __forceinline__ double dev_sqrt(double v) { return sqrt(v); }

struct WarpAll {
  template <class A>
  __device__ __forceinline__ A operator()(A v) const {
    return cuk::warp_reduce(v, cuk::SumOp{});
  }
};
struct BlockAll {
  template <class A>
  __device__ __forceinline__ A operator()(A v) const {
    __shared__ A shared[32];
    return cuk::block_reduce(v, cuk::SumOp{}, A(0), shared);
  }
};

template <class T>
struct ForwardRow {
  using A = cuk::acc_t<T>;
  const T* x;
  const T* weight;  // null: 1
  const T* bias;    // null: 0
  T* y;
  A* mean;  // null: not saved
  A* rstd;  // null: not saved
  int64_t cols;
  A eps;

  template <int kLanes, class All>
  __device__ __forceinline__ void run(int64_t row, int lane, All all) const {
    const T* xr = x + row * cols;
    A sum = 0;
    for (int64_t j = lane; j < cols; j += kLanes) sum += cuk::load(xr[j]);
    const A m = cols > 0 ? all(sum) / static_cast<A>(cols) : A(0);
    A sq = 0;
    for (int64_t j = lane; j < cols; j += kLanes) {
      const A d = cuk::load(xr[j]) - m;
      sq += d * d;
    }
    const A var = cols > 0 ? all(sq) / static_cast<A>(cols) : A(0);
    const A rs = A(1) / dev_sqrt(var + eps);
    if (lane == 0) {
      if (mean != nullptr) mean[row] = m;
      if (rstd != nullptr) rstd[row] = rs;
    }
    T* yr = y + row * cols;
    for (int64_t j = lane; j < cols; j += kLanes) {
      A v = (cuk::load(xr[j]) - m) * rs;
      if (weight != nullptr) v *= cuk::load(weight[j]);
      if (bias != nullptr) v += cuk::load(bias[j]);
      yr[j] = cuk::convert<T>(v);
    }
  }
};

// grad_input = rstd * (w*g - mean(w*g) - xhat * mean(w*g*xhat)), xhat = (x - mean) * rstd.
template <class T>
struct BackwardRow {
  using A = cuk::acc_t<T>;
  const T* g;
  const T* x;
  const T* weight;  // null: 1
  const A* mean;
  const A* rstd;
  T* gi;
  int64_t cols;

  template <int kLanes, class All>
  __device__ __forceinline__ void run(int64_t row, int lane, All all) const {
    const T* gr = g + row * cols;
    const T* xr = x + row * cols;
    const A m = mean[row], rs = rstd[row];
    A sum_wg = 0, sum_wgx = 0;
    for (int64_t j = lane; j < cols; j += kLanes) {
      A wg = cuk::load(gr[j]);
      if (weight != nullptr) wg *= cuk::load(weight[j]);
      sum_wg += wg;
      sum_wgx += wg * ((cuk::load(xr[j]) - m) * rs);
    }
    sum_wg = all(sum_wg);
    sum_wgx = all(sum_wgx);
    const A inv_n = A(1) / static_cast<A>(cols);
    T* out = gi + row * cols;
    for (int64_t j = lane; j < cols; j += kLanes) {
      A wg = cuk::load(gr[j]);
      if (weight != nullptr) wg *= cuk::load(weight[j]);
      const A xhat = (cuk::load(xr[j]) - m) * rs;
      out[j] = cuk::convert<T>(rs * (wg - inv_n * sum_wg - xhat * inv_n * sum_wgx));
    }
  }
};

// kGroup threads (a warp, or the whole block) per row.
template <int kGroup, class Row>
__global__ void __launch_bounds__(cuk::kThreads) rows_per_group(Row f, int64_t rows) {
  constexpr int kPerBlock = cuk::kThreads / kGroup;
  const int lane = threadIdx.x % kGroup, group = threadIdx.x / kGroup;
  // With kGroup == blockDim every thread sees the same row, as block_reduce needs; a warp
  // group skips a row past the end as a whole.
  for (int64_t first = static_cast<int64_t>(blockIdx.x) * kPerBlock; first < rows;
       first += static_cast<int64_t>(gridDim.x) * kPerBlock) {
    const int64_t row = first + group;
    if (row >= rows) continue;
    if constexpr (kGroup == 32) {
      f.template run<kGroup>(row, lane, WarpAll{});
    } else {
      f.template run<kGroup>(row, lane, BlockAll{});
    }
  }
}

template <class Row>
void run_rows(cudaStream_t stream, Row f, int64_t rows, int64_t cols, const char* what) {
  if (rows == 0) return;
  if (cols <= 1024) {
    constexpr int kPerBlock = cuk::kThreads / 32;
    const auto blocks = std::min<int64_t>((rows + kPerBlock - 1) / kPerBlock, 65535 * 8);
    rows_per_group<32><<<static_cast<unsigned>(blocks), cuk::kThreads, 0, stream>>>(f, rows);
  } else {
    const auto blocks = std::min<int64_t>(rows, 65535 * 8);
    rows_per_group<cuk::kThreads>
        <<<static_cast<unsigned>(blocks), cuk::kThreads, 0, stream>>>(f, rows);
  }
  cuk::check_launch(what);
}

// ---------------------------------------------------------------- grad_weight / grad_bias

constexpr int kTileCols = 32, kTileRows = 8;  // a block: 32 columns x 8 row lanes

// Block (tile, chunk): sums of g * xhat and of g over the chunk's rows, for the tile's columns,
// into pw / pb [chunk, cols].
template <class T>
__global__ void __launch_bounds__(kTileCols* kTileRows)
    param_partial(const T* g, const T* x, const cuk::acc_t<T>* mean, const cuk::acc_t<T>* rstd,
                  int64_t rows, int64_t cols, int64_t chunk_rows, cuk::acc_t<T>* pw,
                  cuk::acc_t<T>* pb) {
  using A = cuk::acc_t<T>;
  __shared__ A sw[kTileRows][kTileCols + 1], sb[kTileRows][kTileCols + 1];
  const int tx = threadIdx.x % kTileCols, ty = threadIdx.x / kTileCols;
  const int64_t col = static_cast<int64_t>(blockIdx.x) * kTileCols + tx;
  const int64_t r0 = static_cast<int64_t>(blockIdx.y) * chunk_rows;
  const int64_t r1 = min(rows, r0 + chunk_rows);
  A dw = 0, db = 0;
  if (col < cols) {
    for (int64_t r = r0 + ty; r < r1; r += kTileRows) {
      const A gv = cuk::load(g[r * cols + col]);
      dw += gv * ((cuk::load(x[r * cols + col]) - mean[r]) * rstd[r]);
      db += gv;
    }
  }
  sw[ty][tx] = dw;
  sb[ty][tx] = db;
  __syncthreads();
  if (ty == 0 && col < cols) {
    for (int k = 1; k < kTileRows; ++k) {
      dw += sw[k][tx];
      db += sb[k][tx];
    }
    pw[blockIdx.y * cols + col] = dw;
    pb[blockIdx.y * cols + col] = db;
  }
}

template <class A>
__global__ void param_finish(const A* pw, const A* pb, int64_t chunks, int64_t cols, A* gw, A* gb) {
  CUK_GRID_STRIDE(col, cols) {
    A dw = 0, db = 0;
    for (int64_t c = 0; c < chunks; ++c) {
      dw += pw[c * cols + col];
      db += pb[c * cols + col];
    }
    if (gw != nullptr) gw[col] = dw;
    if (gb != nullptr) gb[col] = db;
  }
}

// ---------------------------------------------------------------- host side

template <class A>
constexpr diopiDtype_t dtype_of() {
  return std::is_same<A, double>::value ? diopi_dtype_float64 : diopi_dtype_float32;
}

Tensor optional_output(diopiTensorHandle_t h, const char* what) {
  if (h == nullptr) return Tensor{};
  const Tensor t = cuk::output(h, what);
  cuk::check_dtype(t, cuk::kFloating, what);
  return t;
}

// A dense copy of an optional input in `dtype`; data null when absent.
Tensor dense_optional(diopiContextHandle_t ctx, const Tensor& t, diopiDtype_t dtype) {
  if (t.data == nullptr) return t;
  return cuk::contiguous(ctx, cuk::as_dtype(ctx, t, dtype));
}

struct Shape {
  int64_t rows = 1, cols = 1;
};

Shape layer_norm_shape(const Tensor& input, diopiSize_t normalized_shape) {
  const int64_t k = normalized_shape.len;
  CUK_CHECK(k >= 1 && k <= input.ndim && normalized_shape.data != nullptr,
            "normalized_shape has %lld dims for input %s", static_cast<long long>(k),
            input.shape_str().c_str());
  Shape s;
  const int axis = input.ndim - static_cast<int>(k);
  for (int d = 0; d < input.ndim; ++d) {
    if (d < axis) {
      s.rows *= input.sizes[d];
    } else {
      CUK_CHECK(input.sizes[d] == normalized_shape.data[d - axis],
                "normalized_shape does not match the trailing dims of input %s",
                input.shape_str().c_str());
      s.cols *= input.sizes[d];
    }
  }
  return s;
}

void check_numel(const Tensor& t, int64_t n, const char* what) {
  CUK_CHECK(t.data == nullptr || t.numel == n, "%s has %lld elements, expected %lld", what,
            static_cast<long long>(t.numel), static_cast<long long>(n));
}

void layer_norm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, diopiTensorHandle_t mean_h,
                diopiTensorHandle_t invstd_h, diopiConstTensorHandle_t input_h,
                diopiConstTensorHandle_t weight_h, diopiConstTensorHandle_t bias_h,
                diopiSize_t normalized_shape, double eps) {
  const Tensor out = cuk::output(out_h, "out");
  const Tensor input = cuk::input(input_h, "input");
  const Tensor mean = optional_output(mean_h, "save_mean");
  const Tensor invstd = optional_output(invstd_h, "save_invstd");
  const Tensor weight = cuk::optional_input(weight_h, "weight");
  const Tensor bias = cuk::optional_input(bias_h, "bias");
  cuk::check_dtype(out, cuk::kFloating, "out");
  if (weight.data != nullptr) cuk::check_dtype(weight, cuk::kFloating, "weight");
  if (bias.data != nullptr) cuk::check_dtype(bias, cuk::kFloating, "bias");
  cuk::check_same_shape(out, input, "out", "input");
  const Shape s = layer_norm_shape(input, normalized_shape);
  check_numel(weight, s.cols, "weight");
  check_numel(bias, s.cols, "bias");
  check_numel(mean, s.rows, "save_mean");
  check_numel(invstd, s.rows, "save_invstd");
  cuk::dispatch<cuk::kFloating>(input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    if (s.rows == 0) return;
    const Tensor x = cuk::contiguous(ctx, input);
    const Tensor w = dense_optional(ctx, weight, input.dtype);
    const Tensor b = dense_optional(ctx, bias, input.dtype);
    const Tensor y = out_buffer(ctx, out, input.dtype);
    const Tensor mu = out_buffer(ctx, mean, dtype_of<A>());
    const Tensor rs = out_buffer(ctx, invstd, dtype_of<A>());
    const ForwardRow<T> f{x.ptr<const T>(), w.ptr<const T>(),   b.ptr<const T>(),
                          y.ptr<T>(),       mu.ptr<A>(),        rs.ptr<A>(),
                          s.cols,           static_cast<A>(eps)};
    run_rows(cuk::stream_of(ctx), f, s.rows, s.cols, "layer_norm");
    copy_back(ctx, out, y);
    copy_back(ctx, mean, mu);
    copy_back(ctx, invstd, rs);
  });
}

void layer_norm_backward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                         diopiTensorHandle_t grad_weight_h, diopiTensorHandle_t grad_bias_h,
                         diopiConstTensorHandle_t grad_output_h, diopiConstTensorHandle_t input_h,
                         diopiConstTensorHandle_t weight_h, diopiConstTensorHandle_t mean_h,
                         diopiConstTensorHandle_t rstd_h, diopiSize_t normalized_shape) {
  const Tensor gi = optional_output(grad_input_h, "grad_input");
  const Tensor gw = optional_output(grad_weight_h, "grad_weight");
  const Tensor gb = optional_output(grad_bias_h, "grad_bias");
  const Tensor go = cuk::input(grad_output_h, "grad_output");
  const Tensor input = cuk::input(input_h, "input");
  const Tensor mean = cuk::input(mean_h, "mean");
  const Tensor rstd = cuk::input(rstd_h, "rstd");
  const Tensor weight = cuk::optional_input(weight_h, "weight");
  cuk::check_dtype(go, cuk::kFloating, "grad_output");
  cuk::check_dtype(mean, cuk::kFloating, "mean");
  cuk::check_dtype(rstd, cuk::kFloating, "rstd");
  if (weight.data != nullptr) cuk::check_dtype(weight, cuk::kFloating, "weight");
  const Shape s = layer_norm_shape(input, normalized_shape);
  check_numel(weight, s.cols, "weight");
  check_numel(gw, s.cols, "grad_weight");
  check_numel(gb, s.cols, "grad_bias");
  cuk::check_same_shape(go, input, "grad_output", "input");
  if (gi.data != nullptr) cuk::check_same_shape(gi, input, "grad_input", "input");
  CUK_CHECK(mean.numel == s.rows && rstd.numel == s.rows, "mean and rstd must have %lld elements",
            static_cast<long long>(s.rows));
  cuk::dispatch<cuk::kFloating>(input.dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    const bool want_params =
        (gw.data != nullptr && gw.numel > 0) || (gb.data != nullptr && gb.numel > 0);
    const bool want_input = gi.data != nullptr && gi.numel > 0;
    if (!want_params && !want_input) return;
    const cudaStream_t stream = cuk::stream_of(ctx);
    const Tensor x = cuk::contiguous(ctx, input);
    const Tensor g = cuk::contiguous(ctx, cuk::as_dtype(ctx, go, input.dtype));
    const Tensor mu = cuk::contiguous(ctx, cuk::as_dtype(ctx, mean, dtype_of<A>()));
    const Tensor rs = cuk::contiguous(ctx, cuk::as_dtype(ctx, rstd, dtype_of<A>()));
    if (want_input) {
      const Tensor w = dense_optional(ctx, weight, input.dtype);
      const Tensor buf = out_buffer(ctx, gi, input.dtype);
      const BackwardRow<T> f{g.ptr<const T>(),
                             x.ptr<const T>(),
                             w.ptr<const T>(),
                             mu.ptr<const A>(),
                             rs.ptr<const A>(),
                             buf.ptr<T>(),
                             s.cols};
      run_rows(stream, f, s.rows, s.cols, "layer_norm backward");
      copy_back(ctx, gi, buf);
    }
    if (want_params) {  // here cols > 0
      const int64_t tiles = (s.cols + kTileCols - 1) / kTileCols;
      const int64_t chunks =
          std::max<int64_t>(1, std::min<int64_t>((s.rows + 31) / 32, (1024 + tiles - 1) / tiles));
      const int64_t chunk_rows = std::max<int64_t>(1, (s.rows + chunks - 1) / chunks);
      const int64_t partial_shape[2] = {2 * chunks, s.cols};
      A* pw = cuk::scratch(ctx, dtype_of<A>(), partial_shape, 2).ptr<A>();
      A* pb = pw + chunks * s.cols;
      param_partial<T><<<dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(chunks)),
                         kTileCols * kTileRows, 0, stream>>>(g.ptr<const T>(), x.ptr<const T>(),
                                                             mu.ptr<const A>(), rs.ptr<const A>(),
                                                             s.rows, s.cols, chunk_rows, pw, pb);
      cuk::check_launch("layer_norm backward: parameter partial sums");
      const Tensor wbuf = out_buffer(ctx, gw, dtype_of<A>());
      const Tensor bbuf = out_buffer(ctx, gb, dtype_of<A>());
      param_finish<A><<<cuk::blocks_for(s.cols), cuk::kThreads, 0, stream>>>(
          pw, pb, chunks, s.cols, wbuf.ptr<A>(), bbuf.ptr<A>());
      cuk::check_launch("layer_norm backward: parameter sums");
      copy_back(ctx, gw, wbuf);
      copy_back(ctx, gb, bbuf);
    }
  });
}

}  // namespace

extern "C" diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiTensorHandle_t save_mean,
                                       diopiTensorHandle_t save_invstd,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t bias, diopiSize_t normalized_shape,
                                       double eps) {
  return cuk::guarded("diopiLayerNorm", [&] {
    layer_norm(ctx, out, save_mean, save_invstd, input, weight, bias, normalized_shape, eps);
  });
}

extern "C" diopiError_t diopiLayerNormBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
    diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape) {
  (void)bias;  // the bias does not enter the gradients
  return cuk::guarded("diopiLayerNormBackward", [&] {
    layer_norm_backward(ctx, grad_input, grad_weight, grad_bias, grad_output, input, weight, mean,
                        rstd, normalized_shape);
  });
}
