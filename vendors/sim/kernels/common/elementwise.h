// The element-wise kernel pattern: out = op(inputs...) with broadcasting, computed in out's dtype.
//
//   elementwise<kFloating>(kernel, ctx, out, [=](auto tag) {
//     using A = acc_t<TypeOf<decltype(tag)>>;       // compute type of out's storage type
//     return [=](A x, A y) { return x + y; };       // one element
//   }, In{input, "input"}, In{other, "other"});
//
// On the calling thread: views of out and inputs, dtype checks (out's dtype must be in OutSet),
// broadcast checks. On the stream: inputs whose dtype differs from out's are converted into
// scratch memory first (convert on read), then the op runs over out's shape. `out` may be one of
// the inputs (in-place variants).
#ifndef SIM_KERNELS_COMMON_ELEMENTWISE_H_
#define SIM_KERNELS_COMMON_ELEMENTWISE_H_

#include <array>
#include <cstddef>
#include <utility>

#include "dtype.h"
#include "launch.h"
#include "loop.h"
#include "view.h"

namespace simk {

struct In {
  diopiConstTensorHandle_t handle;
  const char* name;
};

// Throws diopiDtypeNotSupported unless v's dtype is in `set`.
void check_dtype(const View& v, uint32_t set, const char* what);

namespace detail {

template <class T, size_t>
using Repeat = T;

template <class T, size_t N, class Op, size_t... I>
void map_same(const View& out, const View* const (&ins)[N], Op op, std::index_sequence<I...>) {
  map<T, Repeat<T, I>...>(out, ins, op);
}

}  // namespace detail

template <uint32_t OutSet, class MakeOp, class... Ins>
void elementwise(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 MakeOp make_op, Ins... ins) {
  constexpr size_t N = sizeof...(Ins);
  static_assert(N > 0, "elementwise needs an input; use map_fill for fills");
  const View o = output_view(out, "out");
  check_dtype(o, OutSet, "out");
  const std::array<View, N> views = {input_view(ins.handle, ins.name)...};
  const std::array<const char*, N> names = {ins.name...};
  bool flat = o.is_contiguous();
  for (size_t k = 0; k < N; ++k) {
    check_dtype(views[k], kAllTypes, names[k]);
    broadcast_to(views[k], o, names[k]);  // validation only
    flat = flat && views[k].dtype == o.dtype && same_shape(views[k], o) && views[k].is_contiguous();
  }
  if (flat) {
    // The common case (one shape, contiguous, out's dtype throughout): the closure carries
    // pointers and a length, not N + 1 views of 272 bytes each, which every launch copies into
    // the stream's queue and the worker's core then reads; the loop is the same, over 1-d views.
    std::array<char*, N> in{};
    for (size_t k = 0; k < N; ++k) in[k] = views[k].data;
    launch(kernel, ctx, o, [out = o.data, in, n = o.numel(), dtype = o.dtype, make_op] {
      const View flat_out = contiguous_view(out, dtype, &n, 1);
      View b[N];
      const View* p[N];
      for (size_t k = 0; k < N; ++k) {
        b[k] = contiguous_view(in[k], dtype, &n, 1);
        p[k] = &b[k];
      }
      dispatch<OutSet>(dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        detail::map_same<T, N>(flat_out, p, make_op(tag), std::make_index_sequence<N>{});
      });
    });
    return;
  }
  launch(kernel, ctx, o, [o, views, make_op] {
    dispatch<OutSet>(o.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      Buffer scratch[N];
      View b[N];
      const View* p[N];
      for (size_t k = 0; k < N; ++k) {
        b[k] = broadcast_to(as_dtype(views[k], dtype_of<T>, scratch[k]), o, "input");
        p[k] = &b[k];
      }
      detail::map_same<T, N>(o, p, make_op(tag), std::make_index_sequence<N>{});
    });
  });
}

inline void fill_zero(const View& v) {
  dispatch<kAllTypes>(v.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    map_fill<T>(v, [] { return acc_t<T>(0); });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ELEMENTWISE_H_
