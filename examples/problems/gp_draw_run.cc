#include "examples/problems/gp_draw_run.h"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace problems {
namespace {

std::string Number(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// The constraint's true model in its told units: SafetySignal's model options as JSON.
std::string KnownSignalModels(const GpDrawOptions& o) {
  return "[{}, {\"kernel\": \"se\", \"lengthscales\": [" + Number(o.lengthscale) +
         "], \"stddev\": " + Number(o.stddev) + ", \"noise_stddev\": " + Number(o.noise_stddev) +
         ", \"prior_mean\": 0, \"fit\": false}]";
}

int IndexOf(const GpDrawProblem& p, const Eigen::VectorXd& x) {
  for (Eigen::Index j = 0; j < p.points.cols(); ++j)
    if (p.points.col(j) == x) return static_cast<int>(j);
  return -1;
}

}  // namespace

GpDrawRunResult RunGpDraw(const GpDrawProblem& p, const GpDrawRunSettings& settings) {
  const GpDrawOptions& o = p.options;
  OptimizerOptions options;
  options.seed = settings.seed;
  options.num_threads = 1;
  options.sync_log = false;
  StrategyParams params = StrategyParams()
                              .WithText("constraint_thresholds", "[" + Number(o.threshold) + "]")
                              .WithText("seeds", "[[" + Number(p.points(0, p.seed_index)) + "," +
                                                     Number(p.points(1, p.seed_index)) + "]]");
  if (settings.delta > 0.0)
    params = params.With("delta", settings.delta);
  else
    params = params.With("beta", settings.beta);
  std::unique_ptr<Kernel> kernel;
  if (settings.known_hyperparameters) {
    params = params.WithText("signal_models", KnownSignalModels(o));
    kernel = MakeSquaredExponential({0, 1}, false, o.stddev * o.stddev, o.lengthscale);
    options.gp.standardize_outputs = false;
    options.gp.noise_variance = o.noise_stddev * o.noise_stddev;
    options.refit.enabled = false;
  }
  Optimizer opt(Domain::FiniteSet(p.points), std::move(kernel), "safe-opt", params, options);
  Rng rng = SeededRng({settings.seed, 7});
  std::normal_distribution<double> noise(0.0, o.noise_stddev);
  GpDrawRunResult r;
  for (int t = 0; t < settings.rounds; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    const int j = IndexOf(p, x);
    r.unsafe_evaluations += p.constraint(j) < o.threshold;
    opt.Tell(x, Eigen::VectorXd(), p.reward(j) + noise(rng),
             Eigen::VectorXd::Constant(1, p.constraint(j) + noise(rng)));
  }
  int truly_safe = 0, covered = 0;
  r.best_safe_reward = -std::numeric_limits<double>::infinity();
  for (Eigen::Index j = 0; j < p.points.cols(); ++j) {
    if (p.constraint(j) < o.threshold) continue;
    ++truly_safe;
    covered += opt.SafetyMargin(p.points.col(j)) >= 0.0;
    r.best_safe_reward = std::max(r.best_safe_reward, p.reward(j));
  }
  r.coverage = static_cast<double>(covered) / truly_safe;
  const int best = IndexOf(p, opt.Best().x);
  r.recommended_reward = p.reward(best);
  r.recommendation_safe = p.constraint(best) >= o.threshold;
  return r;
}

}  // namespace problems
}  // namespace gpbandit
