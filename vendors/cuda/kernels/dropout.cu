// Dropout on the device generator (diopiDropout) and its gradient (diopiDropoutBackward).
//
// The generator protocol is the simulated vendor's (vendors/sim/kernels/common/random.h,
// reserve()): read (seed, offset), consume the counters [offset, offset + numel) rounded up to a
// block of 4, advance the offset past them. Counter c is lane c % 4 of Philox4x32-10 block c / 4
// keyed by the seed, so element i (row-major, whatever the layout) always draws counter offset + i:
// the result depends on (seed, offset) only, never on the launch geometry. Each thread computes one
// Philox block and serves the (up to) 4 elements whose counters it holds.
#include <diopi/functions.h>

#include "common/cuk.h"
#include "common/device.cuh"
#include "common/elementwise.cuh"

namespace {

struct Counters {
  uint64_t seed = 0;
  uint64_t first = 0;
};

Counters reserve(diopiGeneratorHandle_t generator, uint64_t count) {
  CUK_CHECK(generator != nullptr, "generator is NULL (pass the device's default generator)");
  Counters s;
  uint64_t offset = 0;
  CUK_CHECK(diopiGeneratorGetSeedAndOffset(generator, &s.seed, &offset) == diopiSuccess,
            "cannot read the generator state");
  s.first = offset;
  const uint64_t used = (count + 3) / 4 * 4;  // whole Philox blocks keep offsets aligned
  CUK_CHECK(diopiGeneratorSetSeedAndOffset(generator, s.seed, offset + used) == diopiSuccess,
            "cannot advance the generator");
  return s;
}

// Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3").
__device__ __forceinline__ uint4 philox(uint64_t block, uint64_t seed) {
  uint4 c = make_uint4(static_cast<uint32_t>(block), static_cast<uint32_t>(block >> 32), 0u, 0u);
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
#pragma unroll
  for (int round = 0; round < 10; ++round) {
    const uint32_t hi0 = __umulhi(0xD2511F53u, c.x), lo0 = 0xD2511F53u * c.x;
    const uint32_t hi1 = __umulhi(0xCD9E8D57u, c.z), lo1 = 0xCD9E8D57u * c.z;
    c = make_uint4(hi1 ^ c.y ^ k0, lo1, hi0 ^ c.w ^ k1, lo0);
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  return c;
}

// Operands of the geometry: 0 out, 1 mask, 2 input. `keep_scaled` is (1 - p) * 2^32: a 32-bit
// draw r keeps its element when r < keep_scaled, i.e. with probability 1 - p (always for p = 0,
// never for p = 1).
template <class T, bool Dense>
__global__ void dropout_kernel(int64_t n, cuk::Geometry<3> g, T* out, bool* mask, const T* in,
                               uint64_t seed, uint64_t first, double keep_scaled,
                               cuk::acc_t<T> scale) {
  using A = cuk::acc_t<T>;
  const int64_t lead = static_cast<int64_t>(first & 3);
  const int64_t blocks = (lead + n + 3) / 4;
  CUK_GRID_STRIDE(b, blocks) {
    const uint4 r = philox((first >> 2) + static_cast<uint64_t>(b), seed);
    const uint32_t lanes[4] = {r.x, r.y, r.z, r.w};
#pragma unroll
    for (int j = 0; j < 4; ++j) {
      const int64_t i = 4 * b + j - lead;
      if (i < 0 || i >= n) continue;
      int64_t off[3];
      if constexpr (Dense) {
        off[0] = off[1] = off[2] = i;
      } else {
        g.offsets(i, off);
      }
      const bool keep = static_cast<double>(lanes[j]) < keep_scaled;
      mask[off[1]] = keep;
      out[off[0]] = cuk::convert<T>(keep ? cuk::load(in[off[2]]) * scale : A(0));
    }
  }
}

struct True {
  __device__ bool operator()() const { return true; }
};

template <class A>
struct DropoutGrad {
  A scale;
  // mask * scale first, as ATen: an infinite gradient where the mask is 0 gives NaN.
  __device__ A operator()(A g, bool m) const { return g * (static_cast<A>(m) * scale); }
};

}  // namespace

extern "C" diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiTensorHandle_t mask, diopiConstTensorHandle_t input,
                                     double p, bool train, diopiGeneratorHandle_t generator) {
  return cuk::guarded("diopiDropout", [&] {
    const cuk::Tensor o = cuk::output(out, "out");
    const cuk::Tensor m = cuk::output(mask, "mask");
    cuk::Tensor x = cuk::input(input, "input");
    cuk::check_dtype(o, cuk::kFloating, "out");
    cuk::check_dtype(x, cuk::kFloating, "input");
    cuk::check_dtype(m, cuk::dtype_bit(diopi_dtype_bool), "mask");
    CUK_CHECK(cuk::same_shape(o, x) && cuk::same_shape(m, x),
              "out %s and mask %s must have input's shape %s", o.shape_str().c_str(),
              m.shape_str().c_str(), x.shape_str().c_str());
    CUK_CHECK(p >= 0.0 && p <= 1.0, "dropout probability has to be between 0 and 1, but got %g", p);
    const cudaStream_t stream = cuk::stream_of(ctx);
    if (!train) {  // evaluation: the input passes unchanged, every element kept, no draws
      cuk::cast_copy(stream, o, x);
      cuk::map<bool>(stream, m, True{});
      return;
    }
    const Counters s = reserve(generator, static_cast<uint64_t>(o.numel));
    if (o.numel == 0) return;
    x = cuk::as_dtype(ctx, x, o.dtype);
    const double keep = 1.0 - p;
    const double scale = p == 1.0 ? 0.0 : 1.0 / keep;
    const double keep_scaled = keep * 4294967296.0;
    cuk::dispatch<cuk::kFloating>(o.dtype, "out", [&](auto tag) {
      using T = cuk::TypeOf<decltype(tag)>;
      using A = cuk::acc_t<T>;
      const cuk::Tensor* ops[3] = {&o, &m, &x};
      const cuk::Geometry<3> g = cuk::geometry<3>(o, ops);
      const bool dense = o.is_contiguous() && m.is_contiguous() && x.is_contiguous();
      const int64_t blocks = (static_cast<int64_t>(s.first & 3) + o.numel + 3) / 4;
      const unsigned grid = cuk::blocks_for(blocks);
      if (dense) {
        dropout_kernel<T, true><<<grid, cuk::kThreads, 0, stream>>>(
            o.numel, g, o.ptr<T>(), m.ptr<bool>(), x.ptr<const T>(), s.seed, s.first, keep_scaled,
            static_cast<A>(scale));
      } else {
        dropout_kernel<T, false><<<grid, cuk::kThreads, 0, stream>>>(
            o.numel, g, o.ptr<T>(), m.ptr<bool>(), x.ptr<const T>(), s.seed, s.first, keep_scaled,
            static_cast<A>(scale));
      }
      cuk::check_launch("dropout");
    });
  });
}

// As ATen, scale is first rounded to the gradient's dtype; mask * scale is then exact and the
// product with the gradient is rounded once, in float for the 16-bit types (exact there: the
// product of two 16-bit significands fits a float's).
extern "C" diopiError_t diopiDropoutBackward(diopiContextHandle_t ctx,
                                             diopiTensorHandle_t grad_input,
                                             diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t mask, double scale) {
  return cuk::guarded("diopiDropoutBackward", [&] {
    const cuk::Tensor gi = cuk::output(grad_input, "grad_input");
    cuk::Tensor go = cuk::input(grad_output, "grad_output");
    const cuk::Tensor m = cuk::input(mask, "mask");
    cuk::check_dtype(gi, cuk::kFloating, "grad_input");
    cuk::check_dtype(go, cuk::kFloating, "grad_output");
    CUK_CHECK(m.dtype == diopi_dtype_bool, "mask must be bool, got %s", cuk::dtype_name(m.dtype));
    CUK_CHECK(cuk::same_shape(gi, go) && cuk::same_shape(m, go),
              "grad_input %s and mask %s must have grad_output's shape %s", gi.shape_str().c_str(),
              m.shape_str().c_str(), go.shape_str().c_str());
    if (gi.numel == 0) return;
    go = cuk::as_dtype(ctx, go, gi.dtype);
    cuk::dispatch<cuk::kFloating>(gi.dtype, "grad_input", [&](auto tag) {
      using T = cuk::TypeOf<decltype(tag)>;
      using A = cuk::acc_t<T>;
      const A s = cuk::load(cuk::convert<T>(scale));
      cuk::map<T, T, bool>(cuk::stream_of(ctx), gi, DropoutGrad<A>{s}, go, m);
    });
  });
}
