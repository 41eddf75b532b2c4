// widen(float): the double a DIOPI float parameter stands for.
//
// DIOPI passes optimizer hyper-parameters (lr, betas, eps, weight decay) as C float, while torch
// computes with the Python double the user wrote (0.9, 1e-3). The shortest decimal that reads
// back as the same float is that double for such values, so a kernel that widens through it
// computes with torch's coefficients, bit for bit. Header-only and free of torch: every vendor
// (sim, aten_ref, cuda host code) may include it.
#ifndef OPWEAVE_WIDEN_H_
#define OPWEAVE_WIDEN_H_

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace opweave {

inline double widen(float v) {
  if (!std::isfinite(v)) return v;
  char text[32];
  for (int digits = 1; digits <= 9; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
    if (std::strtof(text, nullptr) == v) return std::strtod(text, nullptr);
  }
  return v;  // unreachable: 9 significant digits always round-trip a float
}

}  // namespace opweave

#endif  // OPWEAVE_WIDEN_H_
