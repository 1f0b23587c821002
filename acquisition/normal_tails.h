// The standard normal density and distribution function, and the continued fraction of its
// Mills ratio that the log-space strategies evaluate far in the lower tail (LogEI,
// log_expected_improvement.h; log Phi, feasibility.h), shared so that every acquisition reads
// the same constants and the same tail. Internal to acquisition/. Pure functions: thread-safe.
#ifndef GPBANDIT_ACQUISITION_NORMAL_TAILS_H_
#define GPBANDIT_ACQUISITION_NORMAL_TAILS_H_

#include <cmath>

namespace gpbandit {
namespace normal_tails {

constexpr double kInvSqrt2Pi = 0.39894228040143267794;
constexpr double kInvSqrt2 = 0.70710678118654752440;
constexpr double kLogSqrt2Pi = 0.91893853320467274178;
// Below z = -kContinuedFractionFrom the continued fraction is used: there phi(z) + z Phi(z)
// would lose more than one digit to cancellation, and 64 terms of the fraction are exact to
// the last bit for every u >= 3 (its error falls below 1e-16 by 40 terms at u = 3).
constexpr double kContinuedFractionFrom = 3.0;
constexpr int kContinuedFractionTerms = 64;
// Beyond this u, u T(u) = u^2 + 2 to the last bit; the closed forms avoid overflowing u T(u).
constexpr double kAsymptoticFrom = 1e100;

// phi(z) and Phi(z).
inline double NormalPdf(double z) { return kInvSqrt2Pi * std::exp(-0.5 * z * z); }
inline double NormalCdf(double z) { return 0.5 * std::erfc(-z * kInvSqrt2); }

// T(u) = u + 2/(u + 3/(u + 4/(u + ...))), evaluated from the tail (backward recurrence); the
// Mills ratio is R(u) = 1 / (u + 1 / T(u)).
inline double MillsTail(double u) {
  double t = u;
  for (int k = kContinuedFractionTerms; k >= 2; --k) t = u + k / t;
  return t;
}

}  // namespace normal_tails
}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_NORMAL_TAILS_H_
