// The `normal` family: Fills inout with values drawn from the normal distribution N(mean, std^2)
// by the device generator. DIOPI: diopiNormalInp, diopiNormalTensorScalar,
// diopiNormalScalarTensor, diopiNormalTensor.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean,
                            double std, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiNormalInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    SIMK_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std %g", std);
    const Stream s = reserve(generator, 2 * static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out,
           [=] { fill_each(out, [&](uint64_t i) { return normal_at(s, i, mean, std); }); });
  });
}

namespace {

// normal with per-element means and / or standard deviations (tensors broadcast to out; a null
// handle takes the scalar).
void normal_tensors(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t mean_h, double mean, diopiConstTensorHandle_t std_h,
                    double std, diopiGeneratorHandle_t generator) {
  const View out = output_view(out_h, "out");
  check_dtype(out, kFloating, "out");
  const bool has_mean = mean_h != nullptr, has_std = std_h != nullptr;
  View mv, sv;
  if (has_mean) {
    mv = input_view(mean_h, "mean");
    check_dtype(mv, kFloating, "mean");
    mv = broadcast_to(mv, out, "mean");
  }
  if (has_std) {
    sv = input_view(std_h, "std");
    check_dtype(sv, kFloating, "std");
    sv = broadcast_to(sv, out, "std");
  } else {
    SIMK_CHECK(std >= 0.0, "normal expects std >= 0.0, but found std %g", std);
  }
  const Stream s = reserve(generator, 2 * static_cast<uint64_t>(out.numel()));
  launch(kernel, ctx, out, [=] {
    const std::vector<double> m = has_mean ? packed<double>(mv) : std::vector<double>();
    const std::vector<double> d = has_std ? packed<double>(sv) : std::vector<double>();
    fill_each(out, [&](uint64_t i) {
      const double sd = has_std ? d[i] : std;
      SIMK_CHECK(sd >= 0.0, "normal expects all elements of std >= 0.0, found %g", sd);
      return normal_at(s, i, has_mean ? m[i] : mean, sd);
    });
  });
}

}  // namespace

diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t mean, double std,
                                     diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiNormalTensorScalar);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(mean != nullptr, "mean is NULL");
    normal_tensors(kernel, ctx, out, mean, 0.0, nullptr, std, generator);
  });
}

diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out, double mean,
                                     diopiConstTensorHandle_t std,
                                     diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiNormalScalarTensor);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(std != nullptr, "std is NULL");
    normal_tensors(kernel, ctx, out, nullptr, mean, std, 0.0, generator);
  });
}

diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                               diopiConstTensorHandle_t mean, diopiConstTensorHandle_t std,
                               diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiNormalTensor);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(mean != nullptr && std != nullptr, "mean and std must not be NULL");
    normal_tensors(kernel, ctx, out, mean, 0.0, std, 0.0, generator);
  });
}
