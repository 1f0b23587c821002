#include "examples/problems/gp_draw_problem.h"

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace problems {
namespace {

// The seed's margin above the threshold in noise standard deviations: a seed measured below
// its threshold is dropped by the Optimizer, as a user's seed would be, so the seed is one a
// careful user would vouch for, well inside the limit.
constexpr double kSeedMargin = 3.0;

}  // namespace

GpDrawProblem DrawGpProblem(std::uint64_t draw, const GpDrawOptions& options) {
  if (options.points_per_axis < 2)
    throw std::invalid_argument("GpDrawOptions.points_per_axis = " +
                                std::to_string(options.points_per_axis) + ": must be >= 2");
  if (!(options.lengthscale > 0.0) || !(options.stddev > 0.0) || !(options.noise_stddev > 0.0))
    throw std::invalid_argument("GpDrawOptions: lengthscale, stddev and noise_stddev must be > 0");
  GpDrawProblem p;
  p.options = options;
  const int n = options.points_per_axis;
  p.points.resize(2, n * n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      p.points.col(i * n + j) =
          Eigen::Vector2d(static_cast<double>(i) / (n - 1), static_cast<double>(j) / (n - 1));
  const GaussianProcess prior(
      MakeSquaredExponential({0, 1}, false, options.stddev * options.stddev, options.lengthscale),
      2);
  Rng rng = SeededRng({draw, 21});
  for (;;) {
    p.reward = prior.SampleJoint(p.points, 1, rng).col(0);
    p.constraint = prior.SampleJoint(p.points, 1, rng).col(0);
    std::vector<int> safe;
    for (int k = 0; k < p.constraint.size(); ++k)
      if (p.constraint(k) >= options.threshold + kSeedMargin * options.noise_stddev)
        safe.push_back(k);
    if (safe.empty()) continue;
    p.seed_index = safe[std::uniform_int_distribution<std::size_t>(0, safe.size() - 1)(rng)];
    return p;
  }
}

}  // namespace problems
}  // namespace gpbandit
