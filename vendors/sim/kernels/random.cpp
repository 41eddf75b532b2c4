// The `random` family: Fills inout with integers drawn uniformly from [from, to - 1] by the device
// generator (to NULL: [from, the dtype's largest integer], 2^mantissa digits for a floating
// dtype). DIOPI: diopiRandomInp.
#include "common/random.h"

#include <diopi/prototypes.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// The integers `from` and `to - 1` may be in dtype d without ATen raising, warning or moving
// them: every integer of magnitude up to 2^digits is exact in a floating dtype; an integral
// dtype's range.
struct Bounds {
  int64_t lo, hi;
};

Bounds exact_integers(diopiDtype_t d) {
  switch (d) {
    case diopi_dtype_float16:
      return {-(int64_t{1} << 11), int64_t{1} << 11};
    case diopi_dtype_bfloat16:
      return {-(int64_t{1} << 8), int64_t{1} << 8};
    case diopi_dtype_float32:
      return {-(int64_t{1} << 24), int64_t{1} << 24};
    case diopi_dtype_float64:
      return {-(int64_t{1} << 53), int64_t{1} << 53};
    case diopi_dtype_int8:
      return {INT8_MIN, INT8_MAX};
    case diopi_dtype_uint8:
      return {0, UINT8_MAX};
    case diopi_dtype_int16:
      return {INT16_MIN, INT16_MAX};
    case diopi_dtype_int32:
      return {INT32_MIN, INT32_MAX};
    default:
      return {INT64_MIN, INT64_MAX};
  }
}

}  // namespace

diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, int64_t from,
                            const int64_t* to, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiRandomInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating | kIntegral, "inout");
    if (to != nullptr) {
      SIMK_CHECK(from < *to,
                 "random_ expects 'from' to be less than 'to', but got from=%lld >= to=%lld",
                 static_cast<long long>(from), static_cast<long long>(*to));
    }
    // [from, to_inc]; bounds beyond the dtype's exact integers (ATen then raises, warns, or moves
    // them to representable values) and the full 64-bit range are declined: the CPU handles them.
    const auto [lo, hi] = exact_integers(out.dtype);
    const int64_t to_inc = to != nullptr ? *to - 1 : hi;
    if (from < lo || from > hi || to_inc < lo || to_inc > hi || (to == nullptr && from == hi)) {
      failf(diopiNoImplement, "bounds [%lld, %lld] beyond the exact integers of %s",
            static_cast<long long>(from), static_cast<long long>(to_inc), dtype_name(out.dtype));
    }
    const uint64_t range = static_cast<uint64_t>(to_inc) - static_cast<uint64_t>(from) + 1;
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      std::vector<int64_t> v(static_cast<size_t>(out.numel()));
      for (size_t i = 0; i < v.size(); ++i) {
        // range 0: 2^64 (int64 from its lowest value, to NULL), every 64-bit pattern
        const uint64_t bits = mix(s.seed, s.first + i);
        v[i] =
            static_cast<int64_t>(static_cast<uint64_t>(from) + (range == 0 ? bits : bits % range));
      }
      unpack(out, v);  // exact: every value lies in [lo, hi]
    });
  });
}
