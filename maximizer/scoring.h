// What the box and mixed maximizers share about scoring candidates: the block of raw samples
// per EvaluateMany call and the order of two scores. Internal to maximizer/; pure: thread-safe.
#ifndef GPBANDIT_MAXIMIZER_SCORING_H_
#define GPBANDIT_MAXIMIZER_SCORING_H_

#include <cmath>
#include <limits>

namespace gpbandit {
namespace scoring {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
// Raw samples per EvaluateMany call: large enough for the batched solve to pay, small enough to
// share among threads.
constexpr int kScoreBlock = 32;

// Whether value beats best: a finite value beats a non-finite one and any smaller one (callers
// visit candidates in order, so ties keep the earlier).
inline bool Better(double value, double best) {
  return std::isfinite(value) && (!std::isfinite(best) || value > best);
}

}  // namespace scoring
}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_SCORING_H_
