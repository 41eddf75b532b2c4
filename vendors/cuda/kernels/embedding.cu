// Embedding lookup (diopiEmbedding) and its dense weight gradient (diopiEmbeddingBackward).
//
// Index values live on the device and are never read on the host, so they cannot be validated
// before the launch: a row index outside [0, num_weights) is never dereferenced. The forward
// writes zeros for it and the backward drops its gradient (the sim vendor and ATen fail the
// call instead).
//
// The backward accumulates with atomicAdd, in float for float32 and the 16-bit types (then
// rounded once into out), in double for float64. The summation order of repeated indices is
// therefore not fixed: results are reproducible to rounding, not bit for bit.
#include <diopi/functions.h>

#include "common/cuk.h"
#include "common/device.cuh"

namespace {

template <size_t Bytes>
struct WordOf;
template <>
struct WordOf<2> {
  using type = uint16_t;
};
template <>
struct WordOf<4> {
  using type = uint32_t;
};
template <>
struct WordOf<8> {
  using type = uint64_t;
};

// The lookup only moves data: W is an unsigned word of the element's size (0 bits are 0.0).
template <class W, class I>
__global__ void embedding_kernel(int64_t n, int64_t dim, int64_t rows, const I* indices,
                                 const W* weight, int64_t row_stride, int64_t col_stride, W* out) {
  CUK_GRID_STRIDE(e, n) {
    const int64_t k = e / dim, j = e - k * dim;
    const int64_t r = static_cast<int64_t>(indices[k]);
    out[e] = (r >= 0 && r < rows) ? weight[r * row_stride + j * col_stride] : W(0);
  }
}

template <class I>
__global__ void count_kernel(int64_t n, int64_t rows, const I* indices,
                             unsigned long long* counts) {
  CUK_GRID_STRIDE(k, n) {
    const int64_t r = static_cast<int64_t>(indices[k]);
    if (r >= 0 && r < rows) atomicAdd(&counts[r], 1ull);
  }
}

// acc[indices[k], j] += grad[k, j] (scaled by 1 / count of the row with scale_grad_byfreq);
// grad is dense [n / dim, dim], acc dense [rows, dim].
template <class T, class I, class A>
__global__ void embedding_backward_kernel(int64_t n, int64_t dim, int64_t rows, int64_t padding_idx,
                                          const I* indices, const T* grad,
                                          const unsigned long long* counts, A* acc) {
  CUK_GRID_STRIDE(e, n) {
    const int64_t k = e / dim, j = e - k * dim;
    const int64_t r = static_cast<int64_t>(indices[k]);
    if (r == padding_idx || r < 0 || r >= rows) continue;
    A g = cuk::load(grad[e]);
    if (counts != nullptr) g = g * (A(1) / static_cast<A>(counts[r]));
    atomicAdd(&acc[r * dim + j], g);
  }
}

}  // namespace

extern "C" diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t indices, int64_t padding_idx,
                                       bool scale_grad_byfreq, bool sparse) {
  (void)padding_idx, (void)scale_grad_byfreq, (void)sparse;  // they only shape the backward
  return cuk::guarded("diopiEmbedding", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor w = cuk::input(weight, "weight");
    cuk::Tensor idx = cuk::input(indices, "indices");
    cuk::check_dtype(o, cuk::kFloating, "out");
    cuk::check_dtype(w, cuk::kFloating, "weight");
    cuk::check_dtype(idx, cuk::kIndexTypes, "indices");
    CUK_DECLINE_UNLESS(o.dtype == w.dtype, "out has dtype %s but weight %s",
                       cuk::dtype_name(o.dtype), cuk::dtype_name(w.dtype));
    CUK_CHECK(w.ndim == 2, "weight must be 2-D, got %s", w.shape_str().c_str());
    bool shape_ok = o.ndim == idx.ndim + 1 && o.sizes[o.ndim - 1] == w.sizes[1];
    for (int d = 0; shape_ok && d < idx.ndim; ++d) shape_ok = o.sizes[d] == idx.sizes[d];
    CUK_CHECK(shape_ok, "out has shape %s, expected indices' shape %s followed by %lld",
              o.shape_str().c_str(), idx.shape_str().c_str(), static_cast<long long>(w.sizes[1]));
    if (o.numel == 0) return;
    idx = cuk::contiguous(ctx, idx);
    const cudaStream_t stream = cuk::stream_of(ctx);
    const cuk::Tensor dst = o.is_contiguous() ? o : cuk::scratch_like(ctx, o, o.dtype);
    cuk::dispatch<cuk::kIndexTypes>(idx.dtype, "indices", [&](auto itag) {
      using I = cuk::TypeOf<decltype(itag)>;
      cuk::dispatch<cuk::kFloating>(o.dtype, "out", [&](auto tag) {
        using W = typename WordOf<sizeof(cuk::TypeOf<decltype(tag)>)>::type;
        embedding_kernel<W, I><<<cuk::blocks_for(o.numel), cuk::kThreads, 0, stream>>>(
            o.numel, w.sizes[1], w.sizes[0], idx.ptr<const I>(), w.ptr<const W>(), w.strides[0],
            w.strides[1], dst.ptr<W>());
        cuk::check_launch("embedding");
      });
    });
    if (dst.data != o.data) cuk::cast_copy(stream, o, dst);
  });
}

extern "C" diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                               diopiConstTensorHandle_t grad,
                                               diopiConstTensorHandle_t indices,
                                               int64_t num_weights, int64_t padding_idx,
                                               bool scale_grad_byfreq, bool sparse) {
  return cuk::guarded("diopiEmbeddingBackward", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    cuk::Tensor g = cuk::input(grad, "grad");
    cuk::Tensor idx = cuk::input(indices, "indices");
    CUK_DECLINE_UNLESS(!sparse, "a sparse embedding gradient is computed on the CPU");
    cuk::check_dtype(o, cuk::kFloating, "out");
    cuk::check_dtype(g, cuk::kFloating, "grad");
    cuk::check_dtype(idx, cuk::kIndexTypes, "indices");
    bool shape_ok = g.ndim == idx.ndim + 1;
    for (int d = 0; shape_ok && d < idx.ndim; ++d) shape_ok = g.sizes[d] == idx.sizes[d];
    CUK_CHECK(shape_ok, "grad %s does not match indices %s", g.shape_str().c_str(),
              idx.shape_str().c_str());
    const int64_t dim = g.sizes[g.ndim - 1];
    CUK_CHECK(o.ndim == 2 && o.sizes[0] == num_weights && o.sizes[1] == dim,
              "out has shape %s, expected [%lld, %lld]", o.shape_str().c_str(),
              static_cast<long long>(num_weights), static_cast<long long>(dim));
    const cudaStream_t stream = cuk::stream_of(ctx);
    const bool wide = o.dtype == diopi_dtype_float64;
    const diopiDtype_t acc_dtype = wide ? diopi_dtype_float64 : diopi_dtype_float32;
    // Accumulate straight into out when it already is the dense accumulator.
    const cuk::Tensor acc =
        (o.dtype == acc_dtype && o.is_contiguous()) ? o : cuk::scratch_like(ctx, o, acc_dtype);
    zero_fill(stream, acc);
    if (g.numel > 0) {
      g = cuk::contiguous(ctx, cuk::as_dtype(ctx, g, o.dtype));
      idx = cuk::contiguous(ctx, idx);
      cuk::Tensor counts;
      if (scale_grad_byfreq) {
        counts = cuk::scratch(ctx, diopi_dtype_int64, &num_weights, 1);
        zero_fill(stream, counts);
      }
      cuk::dispatch<cuk::kIndexTypes>(idx.dtype, "indices", [&](auto itag) {
        using I = cuk::TypeOf<decltype(itag)>;
        if (scale_grad_byfreq) {
          count_kernel<I><<<cuk::blocks_for(idx.numel), cuk::kThreads, 0, stream>>>(
              idx.numel, num_weights, idx.ptr<const I>(), counts.ptr<unsigned long long>());
          cuk::check_launch("embedding_backward counts");
        }
        const unsigned long long* cp =
            scale_grad_byfreq ? counts.ptr<const unsigned long long>() : nullptr;
        cuk::dispatch<cuk::kFloating>(g.dtype, "grad", [&](auto tag) {
          using T = cuk::TypeOf<decltype(tag)>;
          using A = cuk::acc_t<T>;
          embedding_backward_kernel<T, I, A>
              <<<cuk::blocks_for(g.numel), cuk::kThreads, 0, stream>>>(
                  g.numel, dim, num_weights, padding_idx, idx.ptr<const I>(), g.ptr<const T>(), cp,
                  acc.ptr<A>());
          cuk::check_launch("embedding_backward");
        });
      });
    }
    if (acc.data != o.data) cuk::cast_copy(stream, o, acc);
  });
}
