// Classical orthogonal polynomials p_n(x) of the torch.special families (Chebyshev T U V W and
// their shifted forms, Hermite H and He, Laguerre L, Legendre P), in double, by their three-term
// recurrences p_{k+1} = a_k(x) p_k - b_k p_{k-1}.
//
// ATen's semantics: n arrives as a floating tensor and is truncated to an integer; n < 0 gives 0,
// n = 0 gives 1 whatever x (NaN included). Infinite x runs the recurrence as ATen does, so
// inf - inf turns into NaN from n = 3 on just as on the CPU. A recurrence stops as soon as its
// value is NaN (it can only stay NaN), which bounds the work once |x| > 1 overflows; for
// Chebyshev polynomials on [-1, 1], where the values stay bounded and the recurrence would run
// n steps, the trigonometric closed forms take over for large n. Legendre on [-1, 1] and Laguerre
// for x >= 0 stay bounded too and run all n steps, as ATen's CPU loops do (n = 1e8: ~2 s each).
#ifndef SIM_KERNELS_COMMON_ORTHOGONAL_POLY_H_
#define SIM_KERNELS_COMMON_ORTHOGONAL_POLY_H_

#include <cmath>
#include <cstdint>
#include <limits>

namespace simk {
namespace poly {

// The degree ATen's CPU kernel uses: static_cast<int64_t> of n, which x86 (cvttsd2si) turns into
// INT64_MIN for NaN and for values outside the int64 range, so those give a 0 result.
inline int64_t degree(double n) {
  constexpr double kTwo63 = 9223372036854775808.0;
  if (!(n > -kTwo63 && n < kTwo63)) return std::numeric_limits<int64_t>::min();
  return static_cast<int64_t>(n);
}

// p_n from p_0 = 1, p_1 and step(k, p_k, p_{k-1}) = p_{k+1}.
template <class Step>
double recurrence(int64_t n, double p1, Step step) {
  if (n < 0) return 0;
  if (n == 0) return 1;
  double prev = 1, cur = p1;
  for (int64_t k = 1; k < n && !std::isnan(cur); ++k) {
    const double next = step(static_cast<double>(k), cur, prev);
    prev = cur;
    cur = next;
  }
  return cur;
}

// Degrees above this use the closed forms on (-1, 1) and at +-1 (Chebyshev only).
constexpr int64_t kClosedFormDegree = 64;

// Chebyshev polynomials of the four kinds share p_{k+1} = 2x p_k - p_{k-1}; they differ in
// p_1 = x, 2x, 2x - 1, 2x + 1. On x = cos(t): T_n = cos(n t), U_n = sin((n + 1) t) / sin(t),
// V_n = cos((n + 1/2) t) / cos(t / 2), W_n = sin((n + 1/2) t) / sin(t / 2).
enum class Kind { T, U, V, W };

template <Kind K>
double chebyshev(double x, double n_value) {
  const int64_t n = degree(n_value);
  if (n > kClosedFormDegree && std::abs(x) <= 1) {
    const double nd = static_cast<double>(n);
    const double sign = (n % 2 == 0) ? 1.0 : -1.0;  // p_n(-1) carries (-1)^n
    if (x == 1 || x == -1) {
      const double s = x == 1 ? 1.0 : sign;
      if (K == Kind::T) return s;
      if (K == Kind::U) return s * (nd + 1);
      if (K == Kind::V) return x == 1 ? 1.0 : sign * (2 * nd + 1);
      return x == 1 ? 2 * nd + 1 : sign;
    }
    const double t = std::acos(x);
    if (K == Kind::T) return std::cos(nd * t);
    if (K == Kind::U) return std::sin((nd + 1) * t) / std::sin(t);
    if (K == Kind::V) return std::cos((nd + 0.5) * t) / std::cos(t / 2);
    return std::sin((nd + 0.5) * t) / std::sin(t / 2);
  }
  const double p1 = K == Kind::T ? x : K == Kind::U ? 2 * x : K == Kind::V ? 2 * x - 1 : 2 * x + 1;
  return recurrence(n, p1, [x](double, double cur, double prev) { return 2 * x * cur - prev; });
}

// Shifted Chebyshev polynomials on [0, 1]: p*_n(x) = p_n(2x - 1).
template <Kind K>
double shifted_chebyshev(double x, double n) {
  return chebyshev<K>(2 * x - 1, n);
}

// Physicists' Hermite: H_{k+1} = 2x H_k - 2k H_{k-1}, H_1 = 2x.
inline double hermite_h(double x, double n) {
  return recurrence(degree(n), 2 * x,
                    [x](double k, double cur, double prev) { return 2 * x * cur - 2 * k * prev; });
}

// Probabilists' Hermite: He_{k+1} = x He_k - k He_{k-1}, He_1 = x.
inline double hermite_he(double x, double n) {
  return recurrence(degree(n), x,
                    [x](double k, double cur, double prev) { return x * cur - k * prev; });
}

// Laguerre: (k + 1) L_{k+1} = (2k + 1 - x) L_k - k L_{k-1}, L_1 = 1 - x.
inline double laguerre_l(double x, double n) {
  return recurrence(degree(n), 1 - x, [x](double k, double cur, double prev) {
    return ((2 * k + 1 - x) * cur - k * prev) / (k + 1);
  });
}

// Legendre: (k + 1) P_{k+1} = (2k + 1) x P_k - k P_{k-1}, P_1 = x.
inline double legendre_p(double x, double n) {
  return recurrence(degree(n), x, [x](double k, double cur, double prev) {
    return ((2 * k + 1) * x * cur - k * prev) / (k + 1);
  });
}

}  // namespace poly
}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ORTHOGONAL_POLY_H_
