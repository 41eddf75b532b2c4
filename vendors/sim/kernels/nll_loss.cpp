// The `nll_loss` family: Negative log-likelihood loss over class scores [N, C] (or [C]) and
// class indices. DIOPI: diopiNLLLoss, diopiNLLLossBackward.
#include <diopi/prototypes.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"

using namespace simk;

namespace {

struct NllArgs {
  View input, target, weight;
  bool has_weight = false;
  int64_t batch = 1, classes = 0;
  bool batched = false;  // input is [N, C]
  diopiReduction_t reduction = ReductionMean;
  int64_t ignore_index = -100;
};

NllArgs nll_args(diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t target_h,
                 diopiConstTensorHandle_t weight_h, diopiReduction_t reduction,
                 int64_t ignore_index) {
  NllArgs a;
  a.input = input_view(input_h, "input");
  a.target = input_view(target_h, "target");
  a.has_weight = weight_h != nullptr;
  if (a.has_weight) a.weight = input_view(weight_h, "weight");
  check_dtype(a.input, kFloating, "input");
  check_dtype(a.target, kIntegral, "target");
  if (a.has_weight) check_dtype(a.weight, kFloating, "weight");
  SIMK_CHECK(a.input.ndim == 1 || a.input.ndim == 2, "input must be 1-D or 2-D, got %s",
             a.input.shape_str().c_str());
  a.batched = a.input.ndim == 2;
  a.batch = a.batched ? a.input.sizes[0] : 1;
  a.classes = a.input.sizes[a.input.ndim - 1];
  SIMK_CHECK(a.target.ndim == a.input.ndim - 1 && (!a.batched || a.target.sizes[0] == a.batch),
             "target %s does not match input %s", a.target.shape_str().c_str(),
             a.input.shape_str().c_str());
  SIMK_CHECK(!a.has_weight || a.weight.numel() == a.classes,
             "weight has %lld elements, expected %lld (the number of classes)",
             static_cast<long long>(a.weight.numel()), static_cast<long long>(a.classes));
  SIMK_CHECK(reduction == ReductionNone || reduction == ReductionMean || reduction == ReductionSum,
             "invalid reduction %d", static_cast<int>(reduction));
  a.reduction = reduction;
  a.ignore_index = ignore_index;
  return a;
}

// Shape of the loss (and of grad_output): [N] for reduction none on batched input, else [].
bool per_sample(const NllArgs& a) { return a.reduction == ReductionNone && a.batched; }

// Contiguous copies (double scores and weights, int64 targets) plus each sample's class and
// weight (0 for an ignored sample). Runs on the stream; throws for an out-of-range target.
struct NllData {
  std::vector<double> x, w;  // x: [batch * classes]; w: per sample
  std::vector<int64_t> t;
  double total_weight = 0;
};

NllData load_nll(const NllArgs& a) {
  NllData d;
  Buffer xs(diopi_dtype_float64, a.input.sizes, a.input.ndim);
  cast_copy(xs.view(), a.input);
  d.x.assign(xs.view().ptr<double>(), xs.view().ptr<double>() + a.batch * a.classes);
  Buffer ts(diopi_dtype_int64, a.target.sizes, a.target.ndim);
  cast_copy(ts.view(), a.target);
  d.t.assign(ts.view().ptr<int64_t>(), ts.view().ptr<int64_t>() + a.batch);
  std::vector<double> class_weight;
  if (a.has_weight) {
    Buffer ws(diopi_dtype_float64, &a.classes, 1);
    cast_copy(ws.view(), a.weight);
    class_weight.assign(ws.view().ptr<double>(), ws.view().ptr<double>() + a.classes);
  }
  d.w.assign(a.batch, 0.0);
  for (int64_t i = 0; i < a.batch; ++i) {
    const int64_t t = d.t[i];
    if (t == a.ignore_index) continue;
    if (t < 0 || t >= a.classes)
      throw std::runtime_error("nll_loss: target " + std::to_string(t) + " is out of bounds [0, " +
                               std::to_string(a.classes) + ")");
    d.w[i] = a.has_weight ? class_weight[t] : 1.0;
    d.total_weight += d.w[i];
  }
  return d;
}

}  // namespace

diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                          int64_t ignore_index) {
  SIMK_KERNEL(diopiNLLLoss);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloating, "out");
    const NllArgs a = nll_args(input, target, weight, reduction, ignore_index);
    const int64_t expected = per_sample(a) ? a.batch : 1;
    SIMK_CHECK(out.numel() == expected && out.ndim == (per_sample(a) ? 1 : 0),
               "out has shape %s, expected %s", out.shape_str().c_str(),
               per_sample(a) ? ("[" + std::to_string(a.batch) + "]").c_str() : "[]");
    launch(kernel, ctx, out, [a, out] {
      const NllData d = load_nll(a);
      std::vector<double> loss(a.batch);
      double sum = 0;
      for (int64_t i = 0; i < a.batch; ++i) {
        loss[i] = d.w[i] == 0 ? 0.0 : -d.w[i] * d.x[i * a.classes + d.t[i]];
        sum += loss[i];
      }
      if (per_sample(a)) {
        cast_copy(out, contiguous_view(loss.data(), diopi_dtype_float64, &a.batch, 1));
        return;
      }
      // An empty batch or zero total weight gives NaN for mean, as ATen.
      double result = a.reduction == ReductionMean ? sum / d.total_weight : sum;
      if (a.reduction == ReductionNone) result = loss.empty() ? 0.0 : loss[0];
      cast_copy(out, contiguous_view(&result, diopi_dtype_float64, nullptr, 0));
    });
  });
}

diopiError_t diopiNLLLossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                  diopiConstTensorHandle_t grad_output_h,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                  diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                  int64_t ignore_index) {
  SIMK_KERNEL(diopiNLLLossBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    const NllArgs a = nll_args(input, target, weight, reduction, ignore_index);
    SIMK_CHECK(same_shape(gi, a.input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               a.input.shape_str().c_str());
    SIMK_CHECK(go.numel() == (per_sample(a) ? a.batch : 1), "grad_output has shape %s",
               go.shape_str().c_str());
    launch(kernel, ctx, gi, [a, gi, go] {
      const NllData d = load_nll(a);
      Buffer gs(diopi_dtype_float64, go.sizes, go.ndim);
      cast_copy(gs.view(), go);
      const double* g = gs.view().ptr<double>();
      std::vector<double> grad(a.batch * a.classes, 0.0);
      for (int64_t i = 0; i < a.batch; ++i) {
        if (d.w[i] == 0 && d.t[i] == a.ignore_index) continue;
        double gv = per_sample(a) ? g[i] : g[0];
        if (a.reduction == ReductionMean) gv /= d.total_weight;
        grad[i * a.classes + d.t[i]] = d.w[i] * -gv;
      }
      cast_copy(gi, contiguous_view(grad.data(), diopi_dtype_float64, a.input.sizes, a.input.ndim));
    });
  });
}
