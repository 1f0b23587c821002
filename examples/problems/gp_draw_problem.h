// SafeOpt's own setting (Sui, Gotovos, Burdick & Krause, ICML 2015, Section 4; Berkenkamp,
// Krause & Schoellig 2016): a reward f and a constraint g drawn independently from a zero-mean
// GP with a known kernel, on a finite grid of the unit square, observed with Gaussian noise of
// known standard deviation; the constraint's threshold h and one safe seed (a grid point with
// g >= h + 3 noise standard deviations). With the true kernel and noise and Sui et al.'s beta_t for
// confidence 1 - delta, the probability that a run evaluates any point with g < h is at most delta:
// the family that checks that guarantee (tests/examples/gp_draw_problem_test.cc,
// bench/safe_gp_draws_study.cc).
//
// Thread safety: pure functions.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_PROBLEM_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_PROBLEM_H_

#include <Eigen/Core>
#include <cstdint>

namespace gpbandit {
namespace problems {

struct GpDrawOptions {
  // Grid points per axis of the unit square, >= 2. Default 20 (400 candidates).
  int points_per_axis = 20;
  // The squared-exponential kernel's lengthscale (unit square) and standard deviation: both
  // signals are f ~ GP(0, stddev^2 exp(-|x - x'|^2 / (2 lengthscale^2))). Defaults 0.2, 1.
  double lengthscale = 0.2;
  double stddev = 1.0;
  // The observation noise's standard deviation. Default 0.05.
  double noise_stddev = 0.05;
  // The constraint's threshold. Default -0.5 (about 30% of the grid unsafe on average).
  double threshold = -0.5;
};

struct GpDrawProblem {
  Eigen::MatrixXd points;              // 2 x N, the grid (the candidates of a finite set)
  Eigen::VectorXd reward, constraint;  // N, noise-free
  int seed_index = 0;                  // a grid point with constraint >= threshold + 3 noise
  GpDrawOptions options;
};

// One draw, deterministic for `draw`. The seed is a uniformly drawn grid point among those with
// g >= threshold + 3 noise_stddev (a seed measured below its threshold would be dropped; a draw
// without such a point is redrawn). Throws std::invalid_argument for invalid
// options (points_per_axis < 2, non-positive lengthscale, stddev or noise).
GpDrawProblem DrawGpProblem(std::uint64_t draw, const GpDrawOptions& options = GpDrawOptions());

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_GP_DRAW_PROBLEM_H_
