// The one place where OpWeave's C++ differs between torch 1.13 and torch 2.x.
//
// Generated wrappers take every integer argument as a plain int64_t / IntArrayRef (torch 2.x
// turned many schema `int`s into `SymInt`, and both versions' dispatchers unpack SymInts for a
// kernel registered that way). When the runtime calls an ATen operator itself, the arguments
// go through compat::call / compat::redispatch / compat::schema_apply, which convert them to
// the parameter types of the installed torch's schema (`Ops::schema`).
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <c10/core/Scalar.h>
#include <c10/core/Storage.h>
#include <c10/core/SymInt.h>
#include <c10/core/SymIntArrayRef.h>
#include <c10/util/OptionalArrayRef.h>
#include <torch/version.h>

#include <type_traits>
#include <utility>

#define OPWEAVE_TORCH_AT_LEAST(major, minor) \
  (TORCH_VERSION_MAJOR > (major) ||          \
   (TORCH_VERSION_MAJOR == (major) && TORCH_VERSION_MINOR >= (minor)))

// torch 2.x: Allocator::allocate is no longer const. Spell overrides with this.
// A member that overrides a virtual added in torch 2.x (GeneratorImpl::set_offset, ...).
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
#define OPWEAVE_ALLOCATE_CONST
#define OPWEAVE_OVERRIDE_2X override
#else
#define OPWEAVE_ALLOCATE_CONST const
#define OPWEAVE_OVERRIDE_2X
#endif

namespace opweave::compat {

// An argument that is `int?` before torch 2.0 and `Scalar?` from it (var / std's `correction`:
// the catalogue's `scalar_since`). Wrappers take it in the installed torch's type.
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
using IntOrScalar = const c10::optional<c10::Scalar>&;
#else
using IntOrScalar = c10::optional<int64_t>;
#endif

// Plain integers as SymInts, without a copy (SymInt stores a plain int inline).
inline c10::SymIntArrayRef sym_ints(c10::IntArrayRef a) {
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
  return c10::fromIntArrayRefSlow(a);
#else
  return c10::fromIntArrayRef(a);
#endif
}

// SymInts known to be concrete (a device kernel never sees symbolic sizes) as plain integers.
inline c10::IntArrayRef ints(c10::SymIntArrayRef a) {
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
  return C10_AS_INTARRAYREF_SLOW(a);
#else
  return c10::asIntArrayRefSlow(a);
#endif
}

// One argument in the type a schema parameter `P` takes.
template <class P, class A>
decltype(auto) as_param(A&& a) {
  using PT = std::decay_t<P>;
  using AT = std::decay_t<A>;
  if constexpr (std::is_same_v<PT, c10::SymIntArrayRef> && std::is_same_v<AT, c10::IntArrayRef>) {
    return sym_ints(a);
  } else if constexpr (std::is_same_v<PT, c10::SymInt> && std::is_integral_v<AT>) {
    return c10::SymInt(static_cast<int64_t>(a));
  } else if constexpr (std::is_same_v<PT, c10::optional<c10::SymInt>> &&
                       std::is_same_v<AT, c10::optional<int64_t>>) {
    return a.has_value() ? c10::optional<c10::SymInt>(c10::SymInt(*a)) : c10::nullopt;
  } else if constexpr (std::is_same_v<PT, c10::optional<int64_t>> &&
                       std::is_same_v<AT, c10::optional<c10::Scalar>>) {
    // A widened Scalar? (IntOrScalar) on the torch that still takes an int?.
    TORCH_CHECK(!a.has_value() || a->isIntegral(false), "torch ", TORCH_VERSION,
                " takes an integer here, got ", a->toDouble());
    return a.has_value() ? c10::optional<int64_t>(a->toLong()) : c10::nullopt;
  } else if constexpr (std::is_same_v<PT, at::OptionalSymIntArrayRef> &&
                       std::is_same_v<AT, at::OptionalIntArrayRef>) {
    return a.has_value() ? at::OptionalSymIntArrayRef(sym_ints(*a)) : at::OptionalSymIntArrayRef();
  } else {
    return std::forward<A>(a);
  }
}

template <class Sig>
struct SchemaApply;
template <class R, class... Ps>
struct SchemaApply<R(Ps...)> {
  template <class F, class... As>
  static R apply(F&& f, As&&... as) {
    static_assert(sizeof...(Ps) == sizeof...(As), "argument count differs from the schema's");
    return f(as_param<Ps>(std::forward<As>(as))...);
  }
};

// f(args converted to the parameter types of function type Sig).
template <class Sig, class F, class... As>
decltype(auto) schema_apply(F&& f, As&&... as) {
  return SchemaApply<Sig>::apply(std::forward<F>(f), std::forward<As>(as)...);
}

// Ops::call / Ops::redispatch with plain-integer arguments, on either torch version.
template <class Ops, class... As>
decltype(auto) call(As&&... as) {
  return schema_apply<typename Ops::schema>(
      [](auto&&... ps) -> decltype(auto) { return Ops::call(std::forward<decltype(ps)>(ps)...); },
      std::forward<As>(as)...);
}
template <class Ops, class... As>
decltype(auto) redispatch(c10::DispatchKeySet keys, As&&... as) {
  return schema_apply<typename Ops::schema>(
      [keys](auto&&... ps) -> decltype(auto) {
        return Ops::redispatch(keys, std::forward<decltype(ps)>(ps)...);
      },
      std::forward<As>(as)...);
}

// Writable storage bytes (2.x: data() is const; mutable_data() exists from 2.1).
inline void* storage_data(const c10::Storage& s) {
#if OPWEAVE_TORCH_AT_LEAST(2, 1)
  return s.mutable_data();
#else
  return s.data();
#endif
}

}  // namespace opweave::compat
