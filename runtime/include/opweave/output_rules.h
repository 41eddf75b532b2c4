// The output-shaping rules the catalogue names (`outputs:` in specs/ops.yaml): each returns
// the shape and dtype a wrapper allocates (functional), resizes to (out=) or checks (in-place).
#pragma once

#include <ATen/core/IListRef.h>
#include <ATen/core/Tensor.h>
#include <c10/util/SmallVector.h>

namespace opweave {

struct OutMeta {
  c10::SmallVector<int64_t, 6> sizes;
  at::ScalarType dtype;
};

namespace rules {

OutMeta like(const at::Tensor& a);
OutMeta broadcast(const at::Tensor& a, const at::Tensor& b);
OutMeta broadcast(const at::Tensor& a, const at::Scalar& b);
// a scalar first operand (remainder.Scalar_Tensor, pow.Scalar): other's shape
OutMeta broadcast(const at::Scalar& a, const at::Tensor& b);
OutMeta broadcast(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c);
// clamp's optional tensor bounds: an absent one takes no part
OutMeta broadcast(const at::Tensor& a, const c10::optional<at::Tensor>& b,
                  const c10::optional<at::Tensor>& c);
// broadcast(), except that true division (no rounding mode) of integers gives the default
// float dtype (int / int is a float tensor).
OutMeta division(const at::Tensor& a, const at::Tensor& b,
                 c10::optional<c10::string_view> rounding_mode);
OutMeta division(const at::Tensor& a, const at::Scalar& b,
                 c10::optional<c10::string_view> rounding_mode);
OutMeta division(const at::Tensor& a, const at::Tensor& b);
OutMeta division(const at::Tensor& a, const at::Scalar& b);
OutMeta compare(const at::Tensor& a, const at::Tensor& b);
OutMeta compare(const at::Tensor& a, const at::Scalar& b);
OutMeta select(const at::Tensor& condition, const at::Tensor& a, const at::Tensor& b);
OutMeta reduce(const at::Tensor& a, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype = c10::nullopt);
OutMeta mm(const at::Tensor& a, const at::Tensor& b);
OutMeta bmm(const at::Tensor& a, const at::Tensor& b);
OutMeta scalar(const at::Tensor& a);
// mv(mat, vec): [mat.size(0)] (addmv, mv); dot(a, b): 0-dim (dot, vdot); both check the
// operands' ranks, sizes and dtypes as ATen does
OutMeta mv(const at::Tensor& mat, const at::Tensor& vec);
OutMeta dot(const at::Tensor& a, const at::Tensor& b);
// outer(a, b): [a.size(0), b.size(0)] of two 1-D tensors of one dtype (addr)
OutMeta outer(const at::Tensor& a, const at::Tensor& b);
// diag(input, diagonal): [n + |k|, n + |k|] for a 1-D input, the diagonal's length for 2-D
OutMeta diag(const at::Tensor& a, int64_t diagonal);
OutMeta nll_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction);
// Element-wise losses (mse_loss, smooth_l1_loss): broadcast(input, target) when unreduced
// (reduction 0), else 0-dim; the promoted dtype.
OutMeta pointwise_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction);
OutMeta cast(const at::Tensor& a, at::ScalarType dtype);
OutMeta like(const c10::optional<at::Tensor>& a);
// like(), with integral and bool dtypes promoted to the default float dtype (exp of an int).
OutMeta like_float(const at::Tensor& a);
OutMeta like_bool(const at::Tensor& a);
OutMeta like_int64(const at::Tensor& a);
OutMeta like_int32(const at::Tensor& a);  // frexp's exponent
OutMeta bool_scalar(const at::Tensor& a);
OutMeta reduce_dim_bool(const at::Tensor& a, int64_t dim, bool keepdim);

// ---- dense linear algebra: batches of matrices [*, m, n], k = min(m, n) ----
// (output_rules_linalg.cpp) An input with fewer than 2 dims keeps its shape: the kernel declines
// it and ATen's CPU kernel raises its own error.
OutMeta svd_u(const at::Tensor& A, bool full_matrices, bool compute_uv);
OutMeta svd_vh(const at::Tensor& A, bool full_matrices, bool compute_uv);
OutMeta matrix_diag(const at::Tensor& A);
OutMeta qr_q(const at::Tensor& A, c10::string_view mode);
OutMeta qr_r(const at::Tensor& A, c10::string_view mode);
OutMeta eigh_vectors(const at::Tensor& A, bool compute_v);
OutMeta lu_pivots(const at::Tensor& A);
OutMeta batch(const at::Tensor& A);
OutMeta batch_info(const at::Tensor& A);
// linalg_lu_solve / linalg_solve's result: [*broadcast batch, n, k] (solve's vector case drops k)
OutMeta lu_solve(const at::Tensor& LU, const at::Tensor& B);
OutMeta solve(const at::Tensor& A, const at::Tensor& B);
// eye(n, m): [n, m]; bool, which every out dtype can hold (eye.m_out writes any dtype)
OutMeta eye(int64_t n, int64_t m);
// linalg_cross: broadcast(self, other)
OutMeta cross(const at::Tensor& self, const at::Tensor& other);

// ---- products, selection, random, repetition ----
OutMeta reduce_all(const at::Tensor& a, c10::optional<at::ScalarType> dtype);
OutMeta reduce_one(const at::Tensor& a, int64_t dim, bool keepdim,
                   c10::optional<at::ScalarType> dtype);
OutMeta topk(const at::Tensor& a, int64_t k, int64_t dim);
OutMeta topk_indices(const at::Tensor& a, int64_t k, int64_t dim);
OutMeta randperm(int64_t n);
OutMeta linspace(int64_t steps);
OutMeta repeat(const at::Tensor& a, at::IntArrayRef repeats);

// ---- indexing, joining ----
OutMeta embedding(const at::Tensor& weight, const at::Tensor& indices);
OutMeta embedding_backward(const at::Tensor& grad_output, int64_t num_weights);
OutMeta index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index);
OutMeta gather(const at::Tensor& self, const at::Tensor& index);
OutMeta shape(const at::Tensor& dtype_of, at::IntArrayRef sizes);
OutMeta shape(const at::Tensor& dtype_of, const at::Tensor& shape_of);
OutMeta cat(const at::ITensorListRef& tensors, int64_t dim);
OutMeta cat(at::TensorList tensors, int64_t dim);
OutMeta stack(at::TensorList tensors, int64_t dim);
OutMeta arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step,
               const at::Tensor& out);

// ---- reductions along one dim ----
OutMeta reduce_dim(const at::Tensor& a, int64_t dim, bool keepdim);
OutMeta argreduce(const at::Tensor& a, int64_t dim, bool keepdim);
OutMeta argreduce(const at::Tensor& a, c10::optional<int64_t> dim, bool keepdim);
OutMeta cumsum(const at::Tensor& a, c10::optional<at::ScalarType> dtype);

// ---- reductions and searches (output_rules_search.cpp) ----
OutMeta reduce_dim(const at::Tensor& a, c10::optional<int64_t> dim, bool keepdim);
OutMeta reduce_count(const at::Tensor& a, at::IntArrayRef dim);
OutMeta trace(const at::Tensor& a);
OutMeta addbmm(const at::Tensor& batch1, const at::Tensor& batch2);
OutMeta bucket(const at::Tensor& a, bool out_int32);
OutMeta histc(const at::Tensor& a, int64_t bins);

// ---- normalization ----
OutMeta layer_norm_stats(const at::Tensor& input, at::IntArrayRef normalized_shape);
OutMeta batch_norm_stats(const at::Tensor& input);
// native_group_norm's mean / rstd: [N, group].
OutMeta group_norm_stats(const at::Tensor& input, int64_t group);
// native_batch_norm's save_mean / save_invstd: [channels] when training, [0] in evaluation (as
// ATen's CPU kernel gives them). Refuses an empty batch with channels, as torch 2.x does (1.13's
// CPU kernel divides by zero on it, so no vendor may be handed one).
OutMeta batch_norm_saved(const at::Tensor& input, bool training);

// ---- convolution and pooling (N-d over the trailing spatial dims) ----
OutMeta conv(const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
             at::IntArrayRef padding, at::IntArrayRef dilation);
OutMeta channels(const at::Tensor& weight);
OutMeta pool2d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, bool ceil_mode);
OutMeta pool2d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode);
OutMeta pool2d_indices(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode);
OutMeta adaptive_pool2d(const at::Tensor& input, at::IntArrayRef output_size);

namespace detail {
// Pooling over the trailing `spatial` dims (pool2d, pool3d): each pooled as ATen computes it,
// a one-value kernel_size / stride / padding / dilation standing for every dim.
OutMeta pool_nd(int64_t spatial, const at::Tensor& input, at::IntArrayRef kernel_size,
                at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                bool ceil_mode);
}  // namespace detail

// ---- padding, 3-D and adaptive max pooling, glu, im2col, margin losses (output_rules_nn.cpp) ----
// pad(input, padding): the last len(padding) / 2 dims grown by their (left, right) pair, the
// last dim by the first pair (negative pads crop); the input has one or two dims more.
OutMeta pad(const at::Tensor& input, at::IntArrayRef padding);
OutMeta pool3d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, bool ceil_mode);
OutMeta pool3d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode);
OutMeta pool3d_indices(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode);
OutMeta adaptive_pool2d_indices(const at::Tensor& input, at::IntArrayRef output_size);
OutMeta glu(const at::Tensor& input, int64_t dim);
OutMeta im2col(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef dilation,
               at::IntArrayRef padding, at::IntArrayRef stride);
// prelu(input, weight): like(input), once weight is one value or one per channel (dim 1)
OutMeta prelu(const at::Tensor& input, const at::Tensor& weight);
OutMeta multi_margin_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction);
OutMeta multilabel_margin_loss(const at::Tensor& input, const at::Tensor& target,
                               int64_t reduction);

}  // namespace rules

// Functional variants: a new tensor on `like`'s device.
at::Tensor allocate(const OutMeta& meta, const at::Tensor& like);
// ... on the op's device (a derived functional whose first argument is a CPU wrapped number).
at::Tensor allocate(const OutMeta& meta, c10::Device device);
// Functional variants of list ops (cat, stack): on the device of the list's first tensor.
at::Tensor allocate(const OutMeta& meta, at::TensorList like);
at::Tensor allocate(const OutMeta& meta, const at::ITensorListRef& like);
// out= variants: checks the dtype can hold the result and resizes `out` like ATen does.
void resize_out(int op, const at::Tensor& out, const OutMeta& meta);
// In-place variants: the result must have self's shape and be castable to self's dtype.
void check_inplace(int op, const at::Tensor& self, const OutMeta& meta);

}  // namespace opweave
