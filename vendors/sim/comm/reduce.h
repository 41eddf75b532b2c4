// Element-wise reduction of the ranks' staging slots, for every dtype the catalogue uses.
//
// Every rank combines the slots in rank order 0..n-1 with one accumulator per element (float for
// float16/bfloat16, rounded once at the end), so all ranks get bit-identical results. Bool
// reduces logically: sum and max are "or", prod and min are "and".
#ifndef OPWEAVE_SIM_COMM_REDUCE_H_
#define OPWEAVE_SIM_COMM_REDUCE_H_

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "../kernels/common/dtype.h"
#include "opweave/collective_seam.h"

namespace sim {

template <class T>
void reduce_typed(T* out, const std::vector<const char*>& ins, size_t n, owReduceOp op) {
  using A = std::conditional_t<std::is_same_v<T, bool>, bool, simk::acc_t<T>>;
  const size_t ranks = ins.size();
  for (size_t i = 0; i < n; ++i) {
    A acc = simk::load(reinterpret_cast<const T*>(ins[0])[i]);
    for (size_t r = 1; r < ranks; ++r) {
      const A v = simk::load(reinterpret_cast<const T*>(ins[r])[i]);
      if constexpr (std::is_same_v<T, bool>) {
        acc = (op == owReduceSum || op == owReduceMax) ? (acc || v) : (acc && v);
      } else {
        switch (op) {
          case owReduceSum:
          case owReduceAvg:
            acc = acc + v;
            break;
          case owReduceProd:
            acc = acc * v;
            break;
          case owReduceMin:
            acc = v < acc ? v : acc;
            break;
          case owReduceMax:
            acc = v > acc ? v : acc;
            break;
        }
      }
    }
    if constexpr (std::is_floating_point_v<A>) {
      if (op == owReduceAvg) acc = acc / static_cast<A>(ranks);
    }
    out[i] = simk::convert<T>(acc);
  }
}

// out[0..n) = op over ins[r][0..n) (elements of `dtype`).
inline void reduce_slots(char* out, const std::vector<const char*>& ins, size_t n,
                         diopiDtype_t dtype, owReduceOp op) {
  simk::dispatch<simk::kAllTypes>(dtype, [&](auto tag) {
    using T = simk::TypeOf<decltype(tag)>;
    reduce_typed<T>(reinterpret_cast<T*>(out), ins, n, op);
  });
}

}  // namespace sim

#endif  // OPWEAVE_SIM_COMM_REDUCE_H_
