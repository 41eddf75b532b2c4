// The element type a kernel keeps a row-major copy of T-typed values in (packed() / unpack()):
// bool as uint8_t (0 / 1, in the same order), because std::vector<bool> has no contiguous
// storage.
#ifndef SIM_KERNELS_COMMON_PACKABLE_H_
#define SIM_KERNELS_COMMON_PACKABLE_H_

#include <cstdint>
#include <type_traits>

namespace simk {

template <class T>
using packable_t = std::conditional_t<std::is_same<T, bool>::value, uint8_t, T>;

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_PACKABLE_H_
