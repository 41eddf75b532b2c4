// The `randperm` family: A random permutation of 0 .. n-1 (Fisher-Yates on the device
// generator). DIOPI: diopiRandperm.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, int64_t n,
                           diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiRandperm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    SIMK_CHECK(n >= 0, "randperm: n must be non-negative, got %lld", static_cast<long long>(n));
    SIMK_CHECK(out.ndim == 1 && out.sizes[0] == n, "out must have shape [%lld], got %s",
               static_cast<long long>(n), out.shape_str().c_str());
    const Stream s = reserve(generator, static_cast<uint64_t>(n));
    launch(kernel, ctx, out, [=] {
      std::vector<int64_t> perm(static_cast<size_t>(n));
      for (int64_t i = 0; i < n; ++i) perm[i] = i;
      // Fisher-Yates: position i swaps with a uniform j in [0, i].
      for (int64_t i = n - 1; i > 0; --i) {
        const uint64_t r = mix(s.seed, s.first + static_cast<uint64_t>(i));
        const int64_t j = static_cast<int64_t>(r % static_cast<uint64_t>(i + 1));
        std::swap(perm[i], perm[j]);
      }
      unpack(out, perm);
    });
  });
}
