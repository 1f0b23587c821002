// One interface for the models of a study's outcomes: what a model says about f at a set of
// inputs, what it is fed with, and its hyperparameters. The reward's model (RewardModel) is one,
// switching between three implementations: the exact GaussianProcess (model/exact_posterior.h),
// the LocalGaussianProcess past OptimizerOptions::local_model.exact_until
// (model/local_posterior.h), and the rank-one FiniteSetModel over a finite set's candidates
// (model/rank_one_posterior.h). The safety signals' models (model/signal_model.h) and the legacy
// constraint models (model/model_keeper.h, log format <= 4) are exact ones.
//
// Formula: with observations (x_i, y_i), i < t, kernel k, noise variance lambda and the output
// standardization (c, s) of GaussianProcessOptions, the posterior of f at x is Gaussian with
//   mean     c + s k_t(x)^T (K_t + lambda I)^-1 (y - c) / s,
//   variance s^2 (k(x, x) - k_t(x)^T (K_t + lambda I)^-1 k_t(x)), clamped at 0,
// the latent f's, without noise. The exact model computes it on every observation, the local one
// on the neighbours of an anchor (an approximation, LocalGaussianProcess), the rank-one one from
// its belief over the candidates (equal to the exact one's up to roundoff).
//
// Units: inputs are model inputs (model/model_inputs.h: the unit cube, plus the time coordinate
// of a time model); means, variances and outputs are in the model's output units (the caller's
// reward over 2^k, model/outcome_transforms.h). Contract: each call throws std::invalid_argument
// for an input of the wrong dimension or a bad value and leaves the model unchanged.
// Deterministic: a function of the observations in order and the hyperparameters, so a replay
// of a log holds the same bits. Thread safety: none; reads may cache (the local model rebuilds
// when read, the rank-one one caches a factorization), so no member may run concurrently with
// another. Clone gives an independent copy.
#ifndef GPBANDIT_MODEL_POSTERIOR_MODEL_H_
#define GPBANDIT_MODEL_POSTERIOR_MODEL_H_

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/gp/gaussian_process.h"

namespace gpbandit {

// Which implementation a PosteriorModel is: read only where a model switches to another
// (RewardModel::AddObservation) or where a caller needs the rank-one model's candidates.
enum class PosteriorKind { kExact, kLocal, kRankOne };

class PosteriorModel {
 public:
  virtual ~PosteriorModel() = default;
  virtual std::unique_ptr<PosteriorModel> Clone() const = 0;
  virtual PosteriorKind kind() const = 0;

  // ---- What the model says ----
  // The posterior mean and variance of f at each column of inputs (input_dim x m): m entries
  // each, model units (the formula above).
  virtual void Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                         Eigen::VectorXd* variances) const = 0;
  // The posterior means at every observation, in order; NaN where a model does not predict (the
  // local model's rows outside its neighbourhood).
  virtual Eigen::VectorXd MeansAtObservations() const = 0;
  // I(y; f) of the observations (GaussianProcess::InformationGain).
  virtual double InformationGain() const = 0;
  // What a round's RoundState takes from the model, original units: information gain,
  // sequential variances (when `sequential`), noise and signal variances, best output; the
  // rank-one model also sets the incumbent, which it keeps as the observations arrive.
  virtual void RoundStatistics(bool sequential, RoundState* state) const = 0;
  // The GaussianProcess that predicts (the exact GP, or the local GP on its neighbours), or
  // nullptr for the rank-one model, which keeps none. Valid until the model changes.
  virtual const GaussianProcess* gp() const = 0;
  // Where an ask searches within [lower, upper] (the first action_dim coordinates move): one
  // column per region (its box, and a start), or none: the whole box (the default).
  virtual void SearchRegions(int action_dim, const Eigen::VectorXd& lower,
                             const Eigen::VectorXd& upper, Eigen::MatrixXd* region_lower,
                             Eigen::MatrixXd* region_upper, Eigen::MatrixXd* region_starts) const;

  // ---- Observations and hyperparameters ----
  virtual int num_observations() const = 0;
  // Appends output y at input u; accepted: a reward, not a failure's imputed value (read by the
  // rank-one model's incumbent). Throws std::invalid_argument (unchanged) for a bad u or y, and
  // the rank-one model for a u that is no candidate.
  virtual void AddObservation(const Eigen::VectorXd& u, double y, bool accepted) = 0;
  // Multiplies every output by 2^exponent, exactly (GaussianProcess::ScaleOutputs).
  virtual void ScaleOutputs(int exponent) = 0;
  virtual const Kernel& kernel() const = 0;
  Eigen::VectorXd kernel_log_params() const { return kernel().GetLogParams(); }
  virtual double noise_variance() const = 0;
  virtual const GaussianProcessOptions& options() const = 0;
  // Throws std::invalid_argument (unchanged) for bad values.
  virtual void SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                  double noise_variance) = 0;
  // What a refit fits: an exact GP with this model's hyperparameters on at most
  // max_observations of the observations, spread evenly over the order told
  // (EvenlySpacedRows).
  virtual GaussianProcess FitData(int max_observations) const = 0;
};

// `count` of the rows 0..n-1 spread evenly over their order: floor(i n / count), i < count;
// every row when count >= n.
std::vector<int> EvenlySpacedRows(int n, int count);

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_POSTERIOR_MODEL_H_
