// The `embedding` family: Looks up rows of weight by index, and accumulates the rows' gradients
// back. DIOPI: diopiEmbedding, diopiEmbeddingBackward.
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

diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t weight_h, diopiConstTensorHandle_t indices_h,
                            int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
  SIMK_KERNEL(diopiEmbedding);
  (void)padding_idx, (void)scale_grad_byfreq, (void)sparse;  // they only shape the backward
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View weight = input_view(weight_h, "weight");
    const View indices = input_view(indices_h, "indices");
    check_dtype(indices, kIndexTypes, "indices");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(weight.ndim == 2, "weight must be 2-D, got %s", weight.shape_str().c_str());
    SIMK_CHECK(indices.ndim + 1 < kMaxDims, "indices have too many dims");
    View expected = indices;
    expected.sizes[expected.ndim++] = weight.sizes[1];
    SIMK_CHECK(same_shape(out, expected), "out has shape %s, expected %s", out.shape_str().c_str(),
               expected.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(indices);
      for (int64_t k = 0; k < static_cast<int64_t>(idx.size()); ++k) {
        check_index(idx[k], weight.sizes[0], "embedding");
        cast_copy(trailing_at(out, 1, k), select(weight, 0, idx[k]));
      }
    });
  });
}

diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                    diopiConstTensorHandle_t grad_h,
                                    diopiConstTensorHandle_t indices_h, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
  SIMK_KERNEL(diopiEmbeddingBackward);
  (void)sparse;  // the gradient is dense either way
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View grad = input_view(grad_h, "grad");
    const View indices = input_view(indices_h, "indices");
    check_dtype(indices, kIndexTypes, "indices");
    check_dtype(out, kFloating, "out");
    check_dtype(grad, kFloating, "grad");
    SIMK_CHECK(grad.ndim == indices.ndim + 1, "grad %s does not match indices %s",
               grad.shape_str().c_str(), indices.shape_str().c_str());
    for (int d = 0; d < indices.ndim; ++d)
      SIMK_CHECK(grad.sizes[d] == indices.sizes[d], "grad %s does not match indices %s",
                 grad.shape_str().c_str(), indices.shape_str().c_str());
    const int64_t dim = grad.sizes[grad.ndim - 1];
    SIMK_CHECK(out.ndim == 2 && out.sizes[0] == num_weights && out.sizes[1] == dim,
               "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
               static_cast<long long>(num_weights), static_cast<long long>(dim));
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(indices);
      const std::vector<double> g = packed<double>(grad);
      std::vector<int64_t> counts;
      if (scale_grad_byfreq) {
        counts.assign(num_weights, 0);
        for (int64_t i : idx) {
          check_index(i, num_weights, "embedding_backward");
          ++counts[i];
        }
      }
      std::vector<double> acc(static_cast<size_t>(num_weights * dim), 0.0);
      for (size_t k = 0; k < idx.size(); ++k) {
        const int64_t row = idx[k];
        if (row == padding_idx) continue;
        check_index(row, num_weights, "embedding_backward");
        const double scale = scale_grad_byfreq ? 1.0 / static_cast<double>(counts[row]) : 1.0;
        for (int64_t j = 0; j < dim; ++j) acc[row * dim + j] += g[k * dim + j] * scale;
      }
      unpack(out, acc);
    });
  });
}
