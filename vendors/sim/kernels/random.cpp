// Random kernels on the device generator: uniform_, normal_, bernoulli (tensor and scalar
// probability), randperm and dropout with its keep-mask.
//
// The generator is a (seed, offset) pair (diopiGeneratorGetSeedAndOffset). A kernel reserves a
// range of counters [offset, offset + n) on the calling thread, advances the offset past it,
// and on the stream turns counter c into 64 random bits with a stateless mix of (seed, c). So
// values depend only on the seed and on the sequence of random calls (reproducible after
// opweave.manual_seed), and element i always uses counter offset + i (row-major, whatever the
// layout). Values are computed in double and rounded to the output dtype.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

constexpr double kTwoPi = 6.283185307179586476925286766559;

uint64_t mix(uint64_t seed, uint64_t counter) {
  // SplitMix64 finalizer over the seed-keyed counter.
  uint64_t z = seed * 0xD1B54A32D192ED03ULL + (counter + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// [0, 1) with 53 random bits.
double unit(uint64_t seed, uint64_t counter) {
  return static_cast<double>(mix(seed, counter) >> 11) * (1.0 / 9007199254740992.0);
}

// The generator's state for one kernel call: reserves `count` counters.
struct Stream {
  uint64_t seed = 0;
  uint64_t first = 0;
};

Stream reserve(diopiGeneratorHandle_t generator, uint64_t count) {
  SIMK_CHECK(generator != nullptr, "generator is NULL (pass the device's default generator)");
  Stream s;
  uint64_t offset = 0;
  SIMK_CHECK(diopiGeneratorGetSeedAndOffset(generator, &s.seed, &offset) == diopiSuccess,
             "cannot read the generator state");
  s.first = offset;
  // Counters are consumed in blocks of 4 (as Philox does), so offsets stay aligned.
  const uint64_t used = (count + 3) / 4 * 4;
  SIMK_CHECK(diopiGeneratorSetSeedAndOffset(generator, s.seed, offset + used) == diopiSuccess,
             "cannot advance the generator");
  return s;
}

// Fills `out` (any layout) with f(i) for row-major element i, rounded to out's dtype.
template <class F>
void fill_each(const View& out, F&& f) {
  std::vector<double> v(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = f(static_cast<uint64_t>(i));
  unpack(out, v);
}

// uniform in [from, to): a value rounding up to `to` in a narrow dtype becomes `from`.
template <class T>
void uniform_into(const View& out, Stream s, double from, double to) {
  std::vector<T> v(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < v.size(); ++i) {
    const double x = from + (to - from) * unit(s.seed, s.first + i);
    T t = convert<T>(x);
    if (!(static_cast<double>(load(t)) < to) && to > from) t = convert<T>(from);
    v[i] = t;
  }
  unpack(out, v);
}

double normal_at(Stream s, uint64_t i, double mean, double std) {
  const double u1 = 1.0 - unit(s.seed, s.first + 2 * i);  // (0, 1]
  const double u2 = unit(s.seed, s.first + 2 * i + 1);
  return mean + std * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

}  // namespace

diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from,
                             double to, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiUniformInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    SIMK_CHECK(from <= to,
               "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from,
               to);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        uniform_into<T>(out, s, from, to);
      });
    });
  });
}

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

diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, double p,
                                  diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiBernoulliScalar);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(p >= 0.0 && p <= 1.0, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      fill_each(out, [&](uint64_t i) { return unit(s.seed, s.first + i) < p ? 1.0 : 0.0; });
    });
  });
}

diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t input_h, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiBernoulli);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kAllTypes, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input (the probabilities) %s",
               out.shape_str().c_str(), input.shape_str().c_str());
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      const std::vector<double> prob = packed<double>(input);
      fill_each(out, [&](uint64_t i) {
        const double p = prob[i];
        SIMK_CHECK(p >= 0.0 && p <= 1.0,
                   "bernoulli expects all elements of input to be in [0, 1], "
                   "found %g",
                   p);
        return unit(s.seed, s.first + i) < p ? 1.0 : 0.0;
      });
    });
  });
}

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

diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                          diopiTensorHandle_t mask_h, diopiConstTensorHandle_t input_h, double p,
                          bool train, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiDropout);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View mask = output_view(mask_h, "mask");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(mask, kAllTypes, "mask");
    SIMK_CHECK(same_shape(out, input) && same_shape(mask, input),
               "out %s and mask %s must have input's shape %s", out.shape_str().c_str(),
               mask.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(p >= 0.0 && p <= 1.0, "dropout probability has to be between 0 and 1, but got %g",
               p);
    // Evaluation mode: the input passes unchanged and every element is kept.
    const Stream s = train ? reserve(generator, static_cast<uint64_t>(out.numel())) : Stream{};
    const double keep = 1.0 - p;
    const double scale = p == 1.0 ? 0.0 : 1.0 / keep;
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> x = packed<T>(input);
        std::vector<T> y(x.size());
        std::vector<bool> m(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
          m[i] = !train || unit(s.seed, s.first + i) < keep;
          y[i] = !train ? x[i] : convert<T>(m[i] ? static_cast<double>(load(x[i])) * scale : 0.0);
        }
        unpack(out, y);
        std::vector<uint8_t> mb(m.begin(), m.end());
        std::vector<double> md(mb.begin(), mb.end());
        unpack(mask, md);
      });
    });
  });
}

// OpWeave extension: dropout's gradient, grad_output * (mask * scale). Like ATen, scale is first
// rounded to the gradient's dtype; the product of two such values is exact in double, so
// rounding it once gives ATen's result in every floating dtype.
diopiError_t diopiDropoutBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                  diopiConstTensorHandle_t grad_output_h,
                                  diopiConstTensorHandle_t mask_h, double scale) {
  SIMK_KERNEL(diopiDropoutBackward);
  return guarded(kernel.name, [&] {
    const View grad_input = output_view(grad_input_h, "grad_input");
    const View grad_output = input_view(grad_output_h, "grad_output");
    const View mask = input_view(mask_h, "mask");
    check_dtype(grad_output, kFloating, "grad_output");
    check_dtype(grad_input, kFloating, "grad_input");
    SIMK_CHECK(mask.dtype == diopi_dtype_bool, "mask must be bool");
    SIMK_CHECK(same_shape(grad_input, grad_output) && same_shape(mask, grad_output),
               "grad_input %s and mask %s must have grad_output's shape %s",
               grad_input.shape_str().c_str(), mask.shape_str().c_str(),
               grad_output.shape_str().c_str());
    launch(kernel, ctx, grad_input, [=] {
      dispatch<kFloating>(grad_input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> g = packed<T>(grad_output);
        const std::vector<double> m = packed<double>(mask);
        const double s = static_cast<double>(load(convert<T>(scale)));
        std::vector<T> y(g.size());
        for (size_t i = 0; i < g.size(); ++i) {
          y[i] = convert<T>(static_cast<double>(load(g[i])) * (m[i] * s));  // inf * 0: NaN, as ATen
        }
        unpack(grad_input, y);
      });
    });
  });
}
