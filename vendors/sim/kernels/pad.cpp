// The `pad` family: pads the last len(pad) / 2 dims of input, mirroring the border ('reflect') or
// repeating it ('replicate'); negative pads crop. DIOPI: diopiPad.
//
// Each output element is one input element (no arithmetic), so the kernel copies raw elements
// and serves every dtype. 'constant' and 'circular' are not implemented: declined, so the call
// runs on the CPU (ATen routes those modes through constant_pad_nd and slicing anyway).
#include <diopi/prototypes.h>

#include <cstring>
#include <vector>

#include "common/gather_elements.h"

using namespace simk;

namespace {

// Source index along one dim of size n for output position i of a dim padded by `left`.
int64_t source_index(int64_t i, int64_t left, int64_t n, bool reflect) {
  const int64_t j = i - left;
  if (j < 0) return reflect ? -j : 0;
  if (j >= n) return reflect ? 2 * (n - 1) - j : n - 1;
  return j;
}

}  // namespace

diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t input_h, diopiSize_t pad, const char* mode,
                      const double* value) {
  SIMK_KERNEL(diopiPad);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(mode != nullptr, "mode must not be NULL");
    const bool reflect = std::strcmp(mode, "reflect") == 0;
    if (!reflect && std::strcmp(mode, "replicate") != 0)
      failf(diopiNoImplement, "mode '%s' is not implemented (reflect and replicate are)", mode);
    (void)value;  // the fill value of 'constant' padding only
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    const int spatial = static_cast<int>(pad.len / 2);
    SIMK_CHECK(pad.len % 2 == 0 && spatial >= 1 && spatial <= input.ndim,
               "pad must hold (left, right) pairs for at most %d dims, got %lld values", input.ndim,
               static_cast<long long>(pad.len));
    std::vector<int64_t> left(input.ndim, 0);
    View expected = input;
    for (int k = 0; k < spatial; ++k) {
      const int d = input.ndim - 1 - k;
      const int64_t l = pad.data[2 * k], r = pad.data[2 * k + 1], n = input.sizes[d];
      SIMK_CHECK(n > 0, "input %s has an empty padded dim", input.shape_str().c_str());
      // ATen's limit: a mirror never reaches past the opposite border (or the element itself)
      SIMK_CHECK(!reflect || (l < n && r < n),
                 "padding (%lld, %lld) must be smaller than the size %lld of dim %d",
                 static_cast<long long>(l), static_cast<long long>(r), static_cast<long long>(n),
                 d);
      left[d] = l;
      expected.sizes[d] = n + l + r;
    }
    SIMK_CHECK(same_shape(out, expected), "out has shape %s, expected %s", out.shape_str().c_str(),
               expected.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d)
          off += source_index(idx[d], left[d], input.sizes[d], reflect) * input.strides[d];
        return off;
      });
    });
  });
}
