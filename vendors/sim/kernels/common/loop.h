// Strided N-d iteration over several same-shaped views (already broadcast), and the typed
// element-wise map built on it.
//
// StridedLoop drops size-1 dims, orders dims so the first operand (the output) is walked in
// memory order, merges dims that are contiguous for every operand, then calls
//   inner(char* const* ptrs, const int64_t* byte_strides, int64_t n)
// once per innermost run. map<Out, In...>(out, ins, op) stores op(load(in)...) into out.
#ifndef SIM_KERNELS_COMMON_LOOP_H_
#define SIM_KERNELS_COMMON_LOOP_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <utility>

#include "dtype.h"
#include "view.h"

namespace simk {

template <int N>
class StridedLoop {
 public:
  // All views must have the shape of ops[0].
  explicit StridedLoop(const View* const (&ops)[N]) {
    const View& ref = *ops[0];
    for (int k = 0; k < N; ++k) base_[k] = ops[k]->data;
    for (int d = 0; d < ref.ndim; ++d) {
      if (ref.sizes[d] == 0) empty_ = true;
      if (ref.sizes[d] == 1) continue;
      sizes_[ndim_] = ref.sizes[d];
      for (int k = 0; k < N; ++k) strides_[ndim_][k] = ops[k]->strides[d] * ops[k]->itemsize();
      ++ndim_;
    }
    sort_dims();
    coalesce();
    choose_tiling();
  }

  template <class F>
  void run(F&& inner_run) const {
    if (empty_) return;
    // Every call below goes through one out-of-line copy of the inner run: at -O3 the compiler
    // otherwise inlines the (vectorised) loop body at each of the three call sites, for every
    // op and dtype (sim's kernel files, no ccache: 690 s of compile CPU inlined there, 571 s
    // through one copy; the library 1.6 MB smaller). The call per inner run cost 25 to 50
    // instructions per 1-element launch (bench/icount.py).
    auto inner = [&inner_run](char* const* p, const int64_t* s, int64_t n) {
      call_inner(inner_run, p, s, n);
    };
    char* ptrs[N];
    for (int k = 0; k < N; ++k) ptrs[k] = base_[k];
    if (ndim_ == 0) {
      int64_t zero[N] = {};
      inner(ptrs, zero, int64_t{1});
      return;
    }
    const int last = ndim_ - 1;
    if (tiled_) {
      // The two innermost dims in kTile x kTile blocks, so that an operand walking memory along
      // dim last-1 (a transposed layout) reuses its cache lines.
      const int a = last - 1;
      outer_loop(a, ptrs, [&](char* const* p) {
        char* q[N];
        for (int64_t i0 = 0; i0 < sizes_[a]; i0 += kTile) {
          const int64_t i1 = std::min(sizes_[a], i0 + kTile);
          for (int64_t j0 = 0; j0 < sizes_[last]; j0 += kTile) {
            const int64_t n = std::min(sizes_[last] - j0, kTile);
            for (int64_t i = i0; i < i1; ++i) {
              for (int k = 0; k < N; ++k) q[k] = p[k] + i * strides_[a][k] + j0 * strides_[last][k];
              inner(q, strides_[last], n);
            }
          }
        }
      });
      return;
    }
    outer_loop(last, ptrs, [&](char* const* p) { inner(p, strides_[last], sizes_[last]); });
  }

 private:
  static constexpr int64_t kTile = 32;

  template <class F>
  [[gnu::noinline]] static void call_inner(F& f, char* const* p, const int64_t* s, int64_t n) {
    f(p, s, n);
  }

  // Calls body(ptrs) for every index of dims [0, stop) (the last of them fastest).
  template <class Body>
  void outer_loop(int stop, char** ptrs, Body&& body) const {
    int64_t counter[kMaxDims] = {};
    for (;;) {
      body(ptrs);
      int d = stop - 1;
      for (; d >= 0; --d) {
        for (int k = 0; k < N; ++k) ptrs[k] += strides_[d][k];
        if (++counter[d] < sizes_[d]) break;
        for (int k = 0; k < N; ++k) ptrs[k] -= strides_[d][k] * sizes_[d];
        counter[d] = 0;
      }
      if (d < 0) return;
    }
  }

  // Tile the two innermost dims when some operand strides far along the innermost one but
  // less along the next (its memory order disagrees with the output's).
  void choose_tiling() {
    if (ndim_ < 2) return;
    const int last = ndim_ - 1;
    if (sizes_[last] < 2 * kTile || sizes_[last - 1] < 2 * kTile) return;
    for (int k = 0; k < N; ++k) {
      const int64_t inner = std::llabs(strides_[last][k]), next = std::llabs(strides_[last - 1][k]);
      if (inner > 64 && next < inner) tiled_ = true;
    }
  }

  // Dim a should be walked inside dim b when an operand steps less memory along it.
  bool inner_than(int a, int b) const {
    for (int k = 0; k < N; ++k) {
      const int64_t sa = std::llabs(strides_[a][k]), sb = std::llabs(strides_[b][k]);
      if (sa == 0 || sb == 0) continue;
      if (sa != sb) return sa < sb;
    }
    return false;
  }

  void swap_dims(int a, int b) {
    std::swap(sizes_[a], sizes_[b]);
    for (int k = 0; k < N; ++k) std::swap(strides_[a][k], strides_[b][k]);
  }

  // Stable insertion sort: innermost (smallest stride) last.
  void sort_dims() {
    for (int i = 1; i < ndim_; ++i)
      for (int j = i; j > 0 && inner_than(j - 1, j); --j) swap_dims(j - 1, j);
  }

  void coalesce() {
    if (ndim_ < 2) return;
    int out = 0;
    for (int d = 1; d < ndim_; ++d) {
      bool mergeable = true;
      for (int k = 0; k < N; ++k)
        mergeable = mergeable && strides_[out][k] == strides_[d][k] * sizes_[d];
      if (mergeable) {
        sizes_[out] *= sizes_[d];
        for (int k = 0; k < N; ++k) strides_[out][k] = strides_[d][k];
      } else {
        ++out;
        sizes_[out] = sizes_[d];
        for (int k = 0; k < N; ++k) strides_[out][k] = strides_[d][k];
      }
    }
    ndim_ = out + 1;
  }

  char* base_[N];
  int ndim_ = 0;
  bool empty_ = false;
  bool tiled_ = false;
  int64_t sizes_[kMaxDims];
  int64_t strides_[kMaxDims][N];  // bytes
};

namespace detail {

template <class Out, class... In, class Op, size_t... I>
void map_impl(const View* const (&ops)[sizeof...(In) + 1], Op& op, std::index_sequence<I...>) {
  StridedLoop<sizeof...(In) + 1> loop(ops);
  loop.run([&](char* const* p, const int64_t* s, int64_t n) {
    const bool contiguous =
        s[0] == int64_t{sizeof(Out)} && ((s[I + 1] == int64_t{sizeof(In)}) && ...);
    if (contiguous) {
      Out* o = reinterpret_cast<Out*>(p[0]);
      for (int64_t i = 0; i < n; ++i)
        o[i] = convert<Out>(op(load(reinterpret_cast<const In*>(p[I + 1])[i])...));
    } else {
      for (int64_t i = 0; i < n; ++i)
        *reinterpret_cast<Out*>(p[0] + i * s[0]) =
            convert<Out>(op(load(*reinterpret_cast<const In*>(p[I + 1] + i * s[I + 1]))...));
    }
  });
}

}  // namespace detail

// out[i] = convert<Out>(op(load<In>(ins[i])...)) over out's shape. Every view must already have
// out's shape (broadcast_to) and the dtype of its storage type. `out` may alias an input with the
// same layout.
template <class Out, class... In, class Op>
void map(const View& out, const View* const (&ins)[sizeof...(In)], Op op) {
  const View* ops[sizeof...(In) + 1] = {&out};
  for (size_t k = 0; k < sizeof...(In); ++k) ops[k + 1] = ins[k];
  detail::map_impl<Out, In...>(ops, op, std::index_sequence_for<In...>{});
}

// out[i] = convert<Out>(op()) (a fill).
template <class Out, class Op>
void map_fill(const View& out, Op op) {
  const View* ops[1] = {&out};
  detail::map_impl<Out>(ops, op, std::index_sequence<>{});
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_LOOP_H_
