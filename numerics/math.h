// The constants and small numeric helpers that several parts share: pi, and the cosine map that
// turns a box constraint into an unconstrained variable for L-BFGS (the hyperparameter fit and
// the acquisition maximizer both use it).
#ifndef GPBANDIT_NUMERICS_MATH_H_
#define GPBANDIT_NUMERICS_MATH_H_

#include <algorithm>
#include <cmath>

namespace gpbandit {

constexpr double kPi = 3.14159265358979323846;

// The cosine map of the real line onto the interval [lo, hi]:
//   x(u) = lo + (hi - lo) (1 - cos(pi u / period)) / 2,
// smooth and periodic, covering [lo, hi] once as u runs over [0, period] (x(0) = lo,
// x(period) = hi). An unconstrained solver over u then stays inside the interval without
// projections. `period` sets the slope: at most (hi - lo) pi / (2 period). Requires lo <= hi
// finite and period > 0.
inline double CosineMapToInterval(double u, double lo, double hi, double period) {
  return lo + (hi - lo) * 0.5 * (1.0 - std::cos(kPi * u / period));
}

// dx/du of CosineMapToInterval.
inline double CosineMapDerivative(double u, double lo, double hi, double period) {
  return (hi - lo) / period * 0.5 * kPi * std::sin(kPi * u / period);
}

// The u in [0, period] with CosineMapToInterval(u, lo, hi, period) = x, for x clamped into
// [lo, hi]. At u = 0 and u = period the derivative vanishes (a solver started there does not
// move): callers that start a solve at u move x strictly inside first.
inline double CosineMapInverse(double x, double lo, double hi, double period) {
  const double c = std::clamp(1.0 - 2.0 * (x - lo) / (hi - lo), -1.0, 1.0);
  return period * std::acos(c) / kPi;
}

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_MATH_H_
