// The training steps bench/icount.cpp counts: small models written with ATen ops, each a mix
// of the ops its model in bench/models.py runs, so that a per-op cost added to any of them
// (an output rule, a vendor view, a result copy, a recomputation like NLL's total weight)
// moves a gated count. Sizes are small: the per-op path, not the arithmetic, is what they
// count. Each step is forward, loss, autograd backward (autograd's device thread on a device)
// and a plain SGD update under no_grad, the gradients then zeroed in place.
#pragma once

#include <ATen/ATen.h>
#include <c10/core/GradMode.h>

#include <cmath>
#include <initializer_list>
#include <limits>
#include <vector>

namespace icount {

class Step {
 protected:
  explicit Step(const at::TensorOptions& dev) : dev_(dev) { at::manual_seed(0); }
  // A parameter: N(0, 1) * scale (or a constant when scale is 0), on the device, trained.
  at::Tensor param(at::IntArrayRef shape, double scale, double constant = 0.0) {
    at::Tensor t = scale == 0.0 ? at::full(shape, constant) : at::randn(shape) * scale;
    params_.push_back(t.to(dev_).requires_grad_());
    return params_.back();
  }
  at::Tensor data(const at::Tensor& cpu) const { return cpu.to(dev_); }
  void update(const at::Tensor& loss) {
    loss.backward();
    c10::AutoGradMode no_grad(false);
    for (at::Tensor& p : params_) {
      p.sub_(p.grad(), 0.01);
      p.mutable_grad().zero_();
    }
  }

 private:
  at::TensorOptions dev_;
  std::vector<at::Tensor> params_;
};

// A two-layer MLP: linear, relu, MSE loss.
class MlpStep : Step {
 public:
  explicit MlpStep(const at::TensorOptions& dev)
      : Step(dev),
        x_(data(at::randn({16, 32}))),
        y_(data(at::randn({16, 8}))),
        w1_(param({64, 32}, 0.1)),
        b1_(param({64}, 0.0)),
        w2_(param({8, 64}, 0.1)),
        b2_(param({8}, 0.0)) {}
  void operator()() {
    const at::Tensor h = at::relu(at::linear(x_, w1_, b1_));
    update(at::mse_loss(at::linear(h, w2_, b2_), y_));
  }

 private:
  at::Tensor x_, y_, w1_, b1_, w2_, b2_;
};

// The small ResNet's op mix (opweave/demo/cnn.py): convolution with and without bias, batch
// norm in training mode (running statistics updated), ReLU6, max / average / adaptive average
// pooling, hardswish, a residual add, linear, cross entropy.
class ConvStep : Step {
 public:
  explicit ConvStep(const at::TensorOptions& dev)
      : Step(dev),
        x_(data(at::randn({4, 3, 8, 8}))),
        y_(data(at::randint(10, {4}, at::kLong))),
        stem_w_(param({8, 3, 3, 3}, 0.2)),
        stem_b_(param({8}, 0.0)),
        bn1_w_(param({8}, 0.0, 1.0)),
        bn1_b_(param({8}, 0.0)),
        conv_w_(param({16, 8, 3, 3}, 0.1)),
        bn2_w_(param({16}, 0.0, 1.0)),
        bn2_b_(param({16}, 0.0)),
        down_w_(param({16, 8, 1, 1}, 0.2)),
        down_b_(param({16}, 0.0)),
        head_w_(param({10, 64}, 0.1)),
        head_b_(param({10}, 0.0)),
        mean1_(data(at::zeros({8}))),
        var1_(data(at::ones({8}))),
        mean2_(data(at::zeros({16}))),
        var2_(data(at::ones({16}))) {}
  void operator()() {
    at::Tensor h = at::conv2d(x_, stem_w_, stem_b_, {1, 1}, {1, 1});
    h = at::hardtanh(batch_norm(h, bn1_w_, bn1_b_, mean1_, var1_), 0.0, 6.0);
    h = at::max_pool2d(h, {2, 2});                              // 4x4
    at::Tensor r = at::conv2d(h, conv_w_, {}, {2, 2}, {1, 1});  // 2x2
    r = batch_norm(r, bn2_w_, bn2_b_, mean2_, var2_);
    const at::Tensor d = at::conv2d(at::avg_pool2d(h, {2, 2}), down_w_, down_b_);  // 2x2
    h = at::adaptive_avg_pool2d(at::hardswish(r + d), {2, 2});
    update(at::cross_entropy_loss(at::linear(h.flatten(1), head_w_, head_b_), y_));
  }

 private:
  static at::Tensor batch_norm(const at::Tensor& x, const at::Tensor& w, const at::Tensor& b,
                               const at::Tensor& mean, const at::Tensor& var) {
    return at::batch_norm(x, w, b, mean, var, /*training=*/true, 0.1, 1e-5,
                          /*cudnn_enabled=*/false);
  }
  at::Tensor x_, y_, stem_w_, stem_b_, bn1_w_, bn1_b_, conv_w_, bn2_w_, bn2_b_, down_w_, down_b_,
      head_w_, head_b_, mean1_, var1_, mean2_, var2_;
};

// The tiny GPT's op mix (opweave/demo/gpt.py): one pre-norm transformer block with causal
// self-attention. Embeddings, layer norm, linear, head split (view / permute / unbind),
// batched matmul, masked_fill, softmax, GELU, residual adds, cross entropy.
class AttnStep : Step {
 public:
  explicit AttnStep(const at::TensorOptions& dev)
      : Step(dev),
        idx_(data(at::randint(kVocab, {kBatch, kSeq}, at::kLong))),
        targets_(data(at::randint(kVocab, {kBatch * kSeq}, at::kLong))),
        positions_(data(at::arange(kSeq, at::kLong))),
        future_(data(at::ones({kSeq, kSeq}).triu(1) != 0)),
        tok_(param({kVocab, kDim}, 0.1)),
        pos_(param({kSeq, kDim}, 0.1)),
        ln1_w_(param({kDim}, 0.0, 1.0)),
        ln1_b_(param({kDim}, 0.0)),
        qkv_w_(param({3 * kDim, kDim}, 0.1)),
        qkv_b_(param({3 * kDim}, 0.0)),
        proj_w_(param({kDim, kDim}, 0.1)),
        proj_b_(param({kDim}, 0.0)),
        ln2_w_(param({kDim}, 0.0, 1.0)),
        ln2_b_(param({kDim}, 0.0)),
        fc_w_(param({4 * kDim, kDim}, 0.1)),
        fc_b_(param({4 * kDim}, 0.0)),
        out_w_(param({kDim, 4 * kDim}, 0.1)),
        out_b_(param({kDim}, 0.0)),
        head_w_(param({kVocab, kDim}, 0.1)) {}
  void operator()() {
    at::Tensor x = at::embedding(tok_, idx_) + at::embedding(pos_, positions_);
    const at::Tensor qkv = at::linear(at::layer_norm(x, {kDim}, ln1_w_, ln1_b_), qkv_w_, qkv_b_)
                               .view({kBatch, kSeq, 3, kHeads, kDim / kHeads})
                               .permute({2, 0, 3, 1, 4});
    const std::vector<at::Tensor> qk_v = qkv.unbind(0);
    at::Tensor att =
        at::matmul(qk_v[0], qk_v[1].transpose(-2, -1)) * (1.0 / std::sqrt(kDim / kHeads));
    att = at::softmax(att.masked_fill(future_, -std::numeric_limits<double>::infinity()), -1);
    const at::Tensor y = at::matmul(att, qk_v[2]).transpose(1, 2).reshape({kBatch, kSeq, kDim});
    x = x + at::linear(y, proj_w_, proj_b_);
    const at::Tensor hidden =
        at::gelu(at::linear(at::layer_norm(x, {kDim}, ln2_w_, ln2_b_), fc_w_, fc_b_));
    x = x + at::linear(hidden, out_w_, out_b_);
    const at::Tensor logits = at::linear(x, head_w_).view({kBatch * kSeq, kVocab});
    update(at::cross_entropy_loss(logits, targets_));
  }

 private:
  static constexpr int64_t kBatch = 2, kSeq = 8, kDim = 16, kHeads = 2, kVocab = 32;
  at::Tensor idx_, targets_, positions_, future_, tok_, pos_, ln1_w_, ln1_b_, qkv_w_, qkv_b_,
      proj_w_, proj_b_, ln2_w_, ln2_b_, fc_w_, fc_b_, out_w_, out_b_, head_w_;
};

}  // namespace icount
