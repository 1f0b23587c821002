// The Optimizer's model of one safety signal of a safe strategy (SafeOpt): the signal's own
// outcome chain, GP and fit rule, so that its safety decisions do not depend on the units the
// caller writes it in (acquisition/safety_signal.h states the rule for users).
//
// Chain: a told value g (">= threshold" sense; a cost's limit arrives negated) becomes
//   v = (g - c) / u,   c = the prior mean (default: the threshold h),
//                      u = |g_k - c| of the first observation with g_k != c (1 before it),
// and h becomes (h - c) / u (0 by default). c and u move with any scaling or shift of g and h, so
// v and every decision are unchanged by one (exactly for a scale by a power of two and a shift
// that is exact in floating point, to round-off otherwise). u is fixed once set, so the GP's
// outputs never need rescaling and a replay of the told values rebuilds the same model.
//
// Model: an ExactPosterior (model/posterior_model.h), a GP with prior mean 0 over v (an unexplored
// point is on the limit) over unit-cube [action; context], kernel amplitude s2 = (stddev / u)^2
// (default 1: the prior standard deviation is the first observation's distance from c), given or
// default lengthscales.
//
// Fits (Refit, on the Optimizer's schedule), by MAP:
// - lengthscales: prior log l ~ N(log l0, 1), l0 the initial one; cautious: l <= l0, except a
//   context coordinate's when options.lengthscales is empty: l <= max(l0,
//   options.context_lengthscale_cap) (the contexts' data span their range; safety_signal.h);
// - amplitude: prior log s2 ~ N(log rms^2, 1.5^2), rms^2 = mean(v^2) over the observations (the
//   spread about c); cautious: s2 >= its initial value and, with
//   options.stddev_covers_measured, s2 >= max(v^2) over the observations (a signal measured
//   that far from c may lie that far from the mean where nobody measured);
// - noise: noise variance >= max((noise_floor rms)^2, (noise_stddev / u)^2): the model is never
//   more confident than a measurement resolution relative to the observed spread;
// - other amplitudes of a product kernel (the contexts') stay fixed (only the product matters).
// The safety decisions cap the mean of the lower bound at the largest value observed
// (max_observed): no more margin than was ever measured.
// With SignalModelOptions::fit false nothing is fitted. Internal to model/; copyable; not
// thread-safe.
#ifndef GPBANDIT_MODEL_SIGNAL_MODEL_H_
#define GPBANDIT_MODEL_SIGNAL_MODEL_H_

#include <Eigen/Core>
#include <memory>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "model/exact_posterior.h"

namespace gpbandit {

// The kernel of a signal's model over [action; context] in the unit cube (amplitude 1,
// lengthscales from options: 0.3 by default). Throws std::invalid_argument when
// options.lengthscales has neither 1 nor action_dim + context_dim entries.
std::unique_ptr<Kernel> MakeSignalKernel(const SignalModelOptions& options, int action_dim,
                                         int context_dim);

// The prior standard deviation of gp at the centre of the unit cube, in its output units:
// output_scale sqrt(k(c, c)).
double PriorStddev(const GaussianProcess& gp);

class SignalModel {
 public:
  // threshold: h (finite), in the told sense. kernel: over input_dim coordinates, the last
  // context_dim of them the context's (e.g. from MakeSignalKernel). gp_options: the
  // Optimizer's (its jitter ladder is kept; outputs are not standardized).
  SignalModel(double threshold, const SignalModelOptions& options, std::unique_ptr<Kernel> kernel,
              int input_dim, int context_dim, const GaussianProcessOptions& gp_options);

  // Adds the told value g (finite) at input u. Unchanged if it throws.
  void Add(const Eigen::VectorXd& u, double told);
  // The options of a refit, from the Optimizer's fit options (iterations, tolerances,
  // restarts, threads) and the rule above.
  HyperparameterFitOptions FitOptions(const HyperparameterFitOptions& base) const;
  // Refits (when options.fit and there are observations), then refactorizes from the final
  // values as a replay does; returns whether it fitted.
  bool Refit(const HyperparameterFitOptions& base, Rng& rng);
  // A logged fit's values.
  void SetHyperparameters(const Eigen::VectorXd& log_params, double noise_variance);

  // The model over v (model units), and its GP.
  const PosteriorModel& posterior() const { return posterior_; }
  const GaussianProcess& gp() const { return *posterior_.gp(); }
  // h in model units.
  double threshold() const { return (threshold_ - center_) / unit_; }
  // The prior standard deviation at the centre of the cube, model units.
  double prior_stddev() const { return PriorStddev(gp()); }
  // The largest output observed (model units), +infinity before any: the cap of the mean of
  // its lower bounds (acquisition/safe_set.h, SafeSignal::max_mean).
  double max_observed() const;
  // Model units back to told units.
  double MeanToTold(double v) const { return center_ + unit_ * v; }
  double StddevToTold(double s) const { return unit_ * s; }
  double unit() const { return unit_; }

 private:
  GaussianProcess& mutable_gp() { return posterior_.mutable_gp(); }
  // Fixes u from a told value g with g != c, converting the variance-like hyperparameters.
  void SetUnit(double unit);
  double MeanSquare() const;
  // max(v^2) over the observations (0 before any).
  double LargestSquare() const;

  double threshold_, center_, unit_ = 1.0;
  int context_dim_;
  bool unit_set_ = false;
  SignalModelOptions options_;
  ExactPosterior posterior_;
  // The initial hyperparameters in model units (the cautious bounds' anchor).
  Eigen::VectorXd initial_log_params_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_SIGNAL_MODEL_H_
