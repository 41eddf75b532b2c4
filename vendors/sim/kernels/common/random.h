// The device generator's counter-based stream, shared by every random kernel. The generator is
// a (seed, offset) pair: a kernel reserves counters [offset, offset + n) on the calling thread
// and, on the stream, turns counter c into 64 random bits with a stateless mix of (seed, c), so
// values depend only on the seed and on the sequence of random calls, and element i always uses
// counter offset + i (row-major, whatever the layout).
#ifndef SIM_KERNELS_COMMON_RANDOM_H_
#define SIM_KERNELS_COMMON_RANDOM_H_

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "elementwise.h"
#include "shape_ops.h"

namespace simk {

inline uint64_t mix(uint64_t seed, uint64_t counter) {
  // SplitMix64 finalizer over the seed-keyed counter.
  uint64_t z = seed * 0xD1B54A32D192ED03ULL + (counter + 1) * 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// [0, 1) with 53 random bits.
inline double unit(uint64_t seed, uint64_t counter) {
  return static_cast<double>(mix(seed, counter) >> 11) * (1.0 / 9007199254740992.0);
}

// The generator's state for one kernel call: reserves `count` counters.
struct Stream {
  uint64_t seed = 0;
  uint64_t first = 0;
};

inline Stream reserve(diopiGeneratorHandle_t generator, uint64_t count) {
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

// Element i of a normal draw N(mean, std^2) (Box-Muller on counters 2i and 2i + 1; normal and
// log_normal share it, so a kernel drawing it reserves 2 counters per element).
inline double normal_at(Stream s, uint64_t i, double mean, double std) {
  constexpr double kTwoPi = 6.283185307179586476925286766559;
  const double u1 = 1.0 - unit(s.seed, s.first + 2 * i);  // (0, 1]
  const double u2 = unit(s.seed, s.first + 2 * i + 1);
  return mean + std * std::sqrt(-2.0 * std::log(u1)) * std::cos(kTwoPi * u2);
}

// Fills `out` (any layout) with f(i) for row-major element i, rounded to out's dtype.
template <class F>
void fill_each(const View& out, F&& f) {
  std::vector<double> v(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < v.size(); ++i) v[i] = f(static_cast<uint64_t>(i));
  unpack(out, v);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_RANDOM_H_
