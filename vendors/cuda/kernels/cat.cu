// Concatenation (diopiCat) and stacking (diopiStack); stack is cat of the inputs with a size-1
// dim inserted at `dim`.
//
// A dense input of out's dtype going into a dense out is copied by one batched kernel (up to
// kBatch inputs per launch, one grid row each) that moves raw words: out viewed as
// [outer, total * inner] takes input j's [outer, size_j * inner] at column offset_j * inner.
// Any other input (strided, or of another dtype: out holds the promoted dtype ATen chose, so
// each input is converted to it, as the sim vendor does) is cast_copy'd into its slice of out.
#include <diopi/functions.h>

#include <algorithm>
#include <vector>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

constexpr int kBatch = 64;

struct CatBatch {
  const void* src[kBatch];
  int64_t numel[kBatch];
  int64_t chunk[kBatch];   // size_j * inner: one row of input j
  int64_t offset[kBatch];  // offset_j * inner: where that row starts in a row of out
};

template <class W>
__global__ void cat_kernel(CatBatch b, W* out, int64_t out_row) {
  const int j = blockIdx.y;
  const W* src = static_cast<const W*>(b.src[j]);
  const int64_t n = b.numel[j], chunk = b.chunk[j], offset = b.offset[j];
  CUK_GRID_STRIDE(e, n) {
    const int64_t row = e / chunk, col = e - row * chunk;
    out[row * out_row + offset + col] = src[e];
  }
}

void launch_batch(cudaStream_t stream, const cuk::Tensor& out, const CatBatch& b, int count,
                  int64_t max_numel, int64_t out_row) {
  if (count == 0) return;
  const dim3 grid(cuk::blocks_for(max_numel), static_cast<unsigned>(count));
  cuk::dispatch_word(out.itemsize(), [&](auto tag) {
    using W = cuk::TypeOf<decltype(tag)>;
    cat_kernel<W><<<grid, cuk::kThreads, 0, stream>>>(b, out.ptr<W>(), out_row);
  });
  cuk::check_launch("cat");
}

// Copies `parts` (already checked: out's shape outside `d`, sizes along d summing to out's)
// into out.
void concat(cudaStream_t stream, const cuk::Tensor& out, const std::vector<cuk::Tensor>& parts,
            int d) {
  if (out.numel == 0) return;
  int64_t inner = 1;
  for (int k = d + 1; k < out.ndim; ++k) inner *= out.sizes[k];
  const int64_t out_row = out.sizes[d] * inner;
  const bool out_dense = out.is_contiguous();
  CatBatch batch{};
  int count = 0;
  int64_t max_numel = 0, offset = 0;
  for (const cuk::Tensor& v : parts) {
    const int64_t at = offset;
    offset += v.sizes[d];
    if (v.numel == 0) continue;
    if (out_dense && v.dtype == out.dtype && v.is_contiguous()) {
      batch.src[count] = v.data;
      batch.numel[count] = v.numel;
      batch.chunk[count] = v.sizes[d] * inner;
      batch.offset[count] = at * inner;
      max_numel = std::max(max_numel, v.numel);
      if (++count == kBatch) {
        launch_batch(stream, out, batch, count, max_numel, out_row);
        count = 0;
        max_numel = 0;
      }
      continue;
    }
    cuk::Tensor slice = out;  // out narrowed to [at, at + size) along d
    slice.data = static_cast<char*>(out.data) + at * out.strides[d] * out.itemsize();
    slice.sizes[d] = v.sizes[d];
    slice.numel = v.numel;
    cuk::cast_copy(stream, slice, v);
  }
  launch_batch(stream, out, batch, count, max_numel, out_row);
}

std::vector<cuk::Tensor> capture_list(diopiConstTensorHandle_t* tensors, int64_t n) {
  CUK_CHECK(n > 0 && tensors != nullptr, "expected a non-empty list of tensors");
  std::vector<cuk::Tensor> views;
  views.reserve(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    views.push_back(cuk::input(tensors[i], "tensors"));
    cuk::check_dtype(views.back(), cuk::kAllTypes, "tensors");
  }
  return views;
}

}  // namespace

extern "C" diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t* tensors, int64_t num_inputs,
                                 int64_t dim) {
  return cuk::guarded("diopiCat", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    cuk::check_dtype(o, cuk::kAllTypes, "out");
    std::vector<cuk::Tensor> parts;
    for (const cuk::Tensor& v : capture_list(tensors, num_inputs))
      if (!(v.ndim == 1 && v.sizes[0] == 0)) parts.push_back(v);  // ATen's legacy skip
    if (parts.empty()) {
      CUK_CHECK(o.numel == 0, "out has shape %s; all inputs are empty", o.shape_str().c_str());
      return;
    }
    CUK_CHECK(o.ndim > 0, "zero-dimensional tensors cannot be concatenated");
    const int d = static_cast<int>(cuk::wrap_dim(dim, o.ndim, "dim"));
    int64_t total = 0;
    for (const cuk::Tensor& v : parts) {
      bool match = v.ndim == o.ndim;
      for (int k = 0; match && k < o.ndim; ++k) match = k == d || v.sizes[k] == o.sizes[k];
      CUK_CHECK(match, "tensor %s does not match out %s outside dim %d", v.shape_str().c_str(),
                o.shape_str().c_str(), d);
      total += v.sizes[d];
    }
    CUK_CHECK(total == o.sizes[d], "out has %lld elements along dim %d, the inputs %lld",
              static_cast<long long>(o.sizes[d]), d, static_cast<long long>(total));
    concat(cuk::stream_of(ctx), o, parts, d);
  });
}

extern "C" diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t* tensors, int64_t numTensors,
                                   int64_t dim) {
  return cuk::guarded("diopiStack", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    cuk::check_dtype(o, cuk::kAllTypes, "out");
    std::vector<cuk::Tensor> parts = capture_list(tensors, numTensors);
    CUK_CHECK(o.ndim >= 1, "out must have at least one dimension");
    const int d = static_cast<int>(cuk::wrap_dim(dim, o.ndim, "dim"));
    CUK_CHECK(o.sizes[d] == numTensors, "out has %lld elements along dim %d for %lld tensors",
              static_cast<long long>(o.sizes[d]), d, static_cast<long long>(numTensors));
    for (cuk::Tensor& v : parts) {
      bool match = v.ndim == o.ndim - 1;
      for (int k = 0; match && k < v.ndim; ++k) match = v.sizes[k] == o.sizes[k < d ? k : k + 1];
      CUK_CHECK(match, "tensor %s does not match out %s without dim %d", v.shape_str().c_str(),
                o.shape_str().c_str(), d);
      // Insert the size-1 dim at d (its stride is irrelevant: it is never stepped along).
      for (int k = v.ndim; k > d; --k) {
        v.sizes[k] = v.sizes[k - 1];
        v.strides[k] = v.strides[k - 1];
      }
      v.sizes[d] = 1;
      v.strides[d] = 1;
      ++v.ndim;
    }
    concat(cuk::stream_of(ctx), o, parts, d);
  });
}
