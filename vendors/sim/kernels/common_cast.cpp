// Strided copy with dtype conversion (every pair of sim dtypes), and the fault perturbation.
#include <cmath>
#include <cstring>

#include "common/dtype.h"
#include "common/launch.h"
#include "common/loop.h"
#include "common/view.h"

namespace simk {

namespace {

struct Identity {
  template <class A>
  A operator()(A v) const {
    return v;
  }
};

// Both dense with the same layout and dtype: one memmove.
bool plain_copy(const View& dst, const View& src) {
  if (dst.dtype != src.dtype || !dst.is_contiguous() || !src.is_contiguous()) return false;
  std::memmove(dst.data, src.data, static_cast<size_t>(dst.numel() * dst.itemsize()));
  return true;
}

}  // namespace

void cast_copy(const View& dst, const View& src_unbroadcast) {
  const View src = broadcast_to(src_unbroadcast, dst, "source");
  if (dst.numel() == 0) return;
  if (same_shape(src_unbroadcast, dst) && plain_copy(dst, src)) return;
  dispatch<kAllTypes>(dst.dtype, [&](auto to_tag) {
    using To = TypeOf<decltype(to_tag)>;
    dispatch<kAllTypes>(src.dtype, [&](auto from_tag) {
      using From = TypeOf<decltype(from_tag)>;
      const View* ins[1] = {&src};
      map<To, From>(dst, ins, Identity{});
    });
  });
}

void perturb_first(const View& out) {
  if (out.numel() == 0) return;
  dispatch<kAllTypes>(out.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    T* p = out.ptr<T>();
    if constexpr (std::is_same<T, bool>::value) {
      *p = !*p;
    } else if constexpr (std::is_integral<T>::value) {
      *p = static_cast<T>(*p + 1);
    } else {
      const acc_t<T> v = load(*p);
      *p = convert<T>(v + static_cast<acc_t<T>>(1e-2) * (1 + std::abs(v)));
    }
  });
}

}  // namespace simk
