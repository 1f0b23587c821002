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
//
// With fidelities (SignalFidelity; docs/fidelities.md, "Safety across fidelities") the kernel is
// the joint one over [action; context; fidelity] (model/default_model.h, WithFidelityKernel of
// MakeSignalKernel's), fed with the signal measured at every fidelity, and the decisions read it
// at the target:
// - each part of the joint kernel gets the rules above for its lengthscales; the first part's
//   amplitude (the cheapest source's, or the ICM's only part) the amplitude rule; the further
//   parts' amplitudes (the autoregressive model's errors) are fitted in [rms^2 / 1e3,
//   rms^2 1e3] about a prior at rms^2 (a simulator is taken to be as wrong as the signal varies
//   until the data say otherwise); the mixing parameters (rho, L) within the kind's range
//   [-5, 5], the ICM's kappa within 1e3 of its initial value about a prior at it
//   (log kappa ~ N(log kappa_0, 1.5^2): without it a misleading simulator's fit drove the
//   target's own share to its bound and certified unsafe points; docs/fidelities.md);
// - cautious: after a fit and after every added value, the target's prior variance (at the
//   centre of the cube) is raised to at least the amplitude rule's floor by scaling every part's
//   amplitude alike, so that a fitted rho near 0, or a unit set by a simulator's value close to
//   the limit, never makes the target's model narrower than the target-only model's;
// - the gate: a lower fidelity whose fitted prior correlation with the target (at the centre)
//   is below min_correlation is left out of the decision model (decision_gp: the same kernel on
//   the rows of the other fidelities), so a simulator the fit finds unrelated contributes
//   nothing to the target's safe set;
// - max_observed is the largest value measured at the target (over every fidelity before any
//   target measurement): a simulator's margins never raise the cap.
// With SignalModelOptions::fit false nothing is fitted. Internal to model/; copyable; not
// thread-safe.
#ifndef GPBANDIT_MODEL_SIGNAL_MODEL_H_
#define GPBANDIT_MODEL_SIGNAL_MODEL_H_

#include <Eigen/Core>
#include <memory>
#include <vector>

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

// Where a signal's model has its fidelity coordinate (none by default).
struct SignalFidelity {
  int dim = -1;                  // the fidelity coordinate of the inputs; -1: one source
  int target = -1;               // the target's index (F - 1)
  double min_correlation = 0.3;  // FidelityOptions::min_correlation
  bool active() const { return dim >= 0; }
};

class SignalModel {
 public:
  // threshold: h (finite), in the told sense. kernel: over input_dim coordinates, the last
  // context_dim of them the context's (e.g. from MakeSignalKernel). gp_options: the
  // Optimizer's (its jitter ladder is kept; outputs are not standardized).
  // fidelity: where the inputs hold the fidelity (then kernel is a joint one, input_dim counts
  // the fidelity coordinate and context_dim does not).
  SignalModel(double threshold, const SignalModelOptions& options, std::unique_ptr<Kernel> kernel,
              int input_dim, int context_dim, const GaussianProcessOptions& gp_options,
              const SignalFidelity& fidelity = SignalFidelity());

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

  // The model over v (model units), and its GP (every fidelity's rows).
  const PosteriorModel& posterior() const { return posterior_; }
  const GaussianProcess& gp() const { return *posterior_.gp(); }
  // The GP the safety decisions read (at the target): gp(), or with fidelities gated out the
  // same kernel on the other rows.
  const GaussianProcess& decision_gp() const { return gated_ ? *gated_ : gp(); }
  // The decision input of unit-cube [action; context] u: u, with the target appended when the
  // model has fidelities.
  Eigen::VectorXd AtTarget(const Eigen::VectorXd& u) const;
  // Per fidelity below the target: the fitted prior correlation with the target at the centre
  // of the cube (CorrelationWithTarget, fidelity_rule.h; empty without fidelities).
  std::vector<double> TargetCorrelations() const;
  // h in model units.
  double threshold() const { return (threshold_ - center_) / unit_; }
  // The prior standard deviation at the centre of the cube (at the target), model units.
  double prior_stddev() const;
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
  // The centre of the cube (at `fidelity` when the model has fidelities).
  Eigen::VectorXd Centre(int fidelity) const;
  // Cautious fits with fidelities: the target's prior variance raised to `floor` (above).
  void RaiseTargetVariance(double floor);
  // The amplitude floor of a cautious fit (log), as FitOptions computes it.
  double AmplitudeFloorLog() const;
  // Rebuilds gated_ from the current rows and hyperparameters (the gate above).
  void UpdateDecisionModel();
  // After a row is added: the variance floor (with fidelities), then the decision model.
  void AfterAdd();
  // max(v^2) over the observations (0 before any).
  double LargestSquare() const;

  double threshold_, center_, unit_ = 1.0;
  int context_dim_;
  bool unit_set_ = false;
  SignalModelOptions options_;
  ExactPosterior posterior_;
  // The initial hyperparameters in model units (the cautious bounds' anchor).
  Eigen::VectorXd initial_log_params_;
  SignalFidelity fidelity_;
  // The decision model when a fidelity is gated out; shared, immutable, rebuilt on change.
  std::shared_ptr<const GaussianProcess> gated_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_SIGNAL_MODEL_H_
