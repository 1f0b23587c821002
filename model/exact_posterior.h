// The exact posterior (model/posterior_model.h) of one GaussianProcess: O(t^2) per observation
// and per prediction after one O(t^3) factorization. The reward's model below
// OptimizerOptions::local_model.exact_until, each safety signal's (model/signal_model.h) and
// each legacy constraint's (model/model_keeper.h). Thread safety: as GaussianProcess (const
// members may run concurrently; none with a non-const one).
#ifndef GPBANDIT_MODEL_EXACT_POSTERIOR_H_
#define GPBANDIT_MODEL_EXACT_POSTERIOR_H_

#include <memory>

#include "model/posterior_model.h"

namespace gpbandit {

class ExactPosterior : public PosteriorModel {
 public:
  // As GaussianProcess's constructor (throws as it does).
  ExactPosterior(std::unique_ptr<Kernel> kernel, int input_dim,
                 const GaussianProcessOptions& options);
  explicit ExactPosterior(GaussianProcess gp) : gp_(std::move(gp)) {}

  std::unique_ptr<PosteriorModel> Clone() const override;
  PosteriorKind kind() const override { return PosteriorKind::kExact; }
  // GaussianProcess::MeanAndVariance at each column.
  void Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                 Eigen::VectorXd* variances) const override;
  Eigen::VectorXd MeansAtObservations() const override { return gp_.MeansAtObservations(); }
  double InformationGain() const override { return gp_.InformationGain(); }
  void RoundStatistics(bool sequential, RoundState* state) const override;
  const GaussianProcess* gp() const override { return &gp_; }
  // The GP itself, for a hyperparameter fit (FitHyperparameters) of its owner.
  GaussianProcess& mutable_gp() { return gp_; }

  int num_observations() const override { return gp_.num_observations(); }
  void AddObservation(const Eigen::VectorXd& u, double y, bool accepted) override;
  void ScaleOutputs(int exponent) override { gp_.ScaleOutputs(exponent); }
  const Kernel& kernel() const override { return gp_.kernel(); }
  double noise_variance() const override { return gp_.noise_variance(); }
  const GaussianProcessOptions& options() const override { return gp_.options(); }
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance) override;
  // A copy of the GP when it holds at most max_observations, else the GP on the rows
  // EvenlySpacedRows names.
  GaussianProcess FitData(int max_observations) const override;

 private:
  GaussianProcess gp_;
};

// RoundStatistics of a GaussianProcess (the exact model's, and the local model's on its
// neighbours), original units: signal variance = the mean of k(x_i, x_i) over the observations
// times s^2 (s^2 alone before any, or if it is not finite and > 0), clamped into the positive
// normal doubles; noise variance = (lambda + jitter) s^2.
void GaussianProcessRoundStatistics(const GaussianProcess& gp, bool sequential, RoundState* state);

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_EXACT_POSTERIOR_H_
