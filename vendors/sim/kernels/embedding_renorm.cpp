// The `embedding_renorm` family: Rescales in place each row of the embedding table that indices
// name whose norm_type-norm exceeds max_norm to norm max_norm (scale max_norm / (norm + 1e-7)).
// DIOPI: diopiEmbeddingRenorm_.
#include <diopi/prototypes.h>

#include <algorithm>
#include <vector>

#include "common/elementwise.h"
#include "common/index.h"
#include "common/shape_ops.h"
#include "common/vector_norm.h"

using namespace simk;

diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                   diopiConstTensorHandle_t indices_h, double max_norm,
                                   double norm_type) {
  SIMK_KERNEL(diopiEmbeddingRenorm_);
  return guarded(kernel.name, [&] {
    const View table = output_view(inout, "inout");
    const View indices = input_view(indices_h, "indices");
    check_dtype(table, kFloat32Or64, "inout");
    check_dtype(indices, kIndexTypes, "indices");
    SIMK_CHECK(table.ndim == 2, "the embedding table must be 2-D, got %s",
               table.shape_str().c_str());
    launch(kernel, ctx, table, [=] {
      std::vector<int64_t> idx = packed<int64_t>(indices);
      for (int64_t& i : idx) {  // ATen indexes the table's rows as self[i]: from the end too
        check_index(i < 0 ? i + table.sizes[0] : i, table.sizes[0], "embedding_renorm_");
        if (i < 0) i += table.sizes[0];
      }
      std::sort(idx.begin(), idx.end());  // any shape, each named row once, as ATen
      idx.erase(std::unique(idx.begin(), idx.end()), idx.end());
      dispatch<kFloat32Or64>(table.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        for (const int64_t i : idx) {
          const View row = select(table, 0, i);
          std::vector<double> values = packed<double>(row);
          const double norm = vector_norm(values, norm_type);
          if (!(norm > max_norm)) continue;
          // ATen multiplies the row by the scale as a scalar of the row's dtype
          const T scale = static_cast<T>(max_norm / (norm + 1e-7));
          std::vector<T> scaled = packed<T>(row);
          for (T& v : scaled) v *= scale;
          unpack(row, scaled);
        }
      });
    });
  });
}
