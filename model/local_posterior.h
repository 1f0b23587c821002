// The local posterior (model/posterior_model.h) of a LocalGaussianProcess: the exact GP on the
// neighbours of the incumbent's anchor, O(size^3) when they change, whatever t. The reward's
// model past OptimizerOptions::local_model.exact_until (RewardModel). Its asks search the trust
// boxes of its regions (LocalGaussianProcess::LocalTrustBox, half-widths times
// LocalModelOptions::trust_box_scale). Thread safety: none (the local GP is rebuilt when read).
#ifndef GPBANDIT_MODEL_LOCAL_POSTERIOR_H_
#define GPBANDIT_MODEL_LOCAL_POSTERIOR_H_

#include <memory>

#include "gpbandit/gp/local_gaussian_process.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/posterior_model.h"

namespace gpbandit {

class LocalPosterior : public PosteriorModel {
 public:
  // Every observation and the hyperparameters of `exact`, with options' size, regions, anchor
  // rule and trust-box scale (throws std::invalid_argument as LocalGaussianProcess does).
  LocalPosterior(const GaussianProcess& exact, const LocalModelOptions& options);

  std::unique_ptr<PosteriorModel> Clone() const override;
  PosteriorKind kind() const override { return PosteriorKind::kLocal; }
  // The local GP's GaussianProcess::MeanAndVariance at each column.
  void Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                 Eigen::VectorXd* variances) const override;
  Eigen::VectorXd MeansAtObservations() const override { return local_.MeansAtObservations(); }
  double InformationGain() const override { return local_.local().InformationGain(); }
  void RoundStatistics(bool sequential, RoundState* state) const override;
  const GaussianProcess* gp() const override { return &local_.local(); }
  // One region per anchor: its trust box and, as its start, the anchor.
  void SearchRegions(int action_dim, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                     Eigen::MatrixXd* region_lower, Eigen::MatrixXd* region_upper,
                     Eigen::MatrixXd* region_starts) const override;

  int num_observations() const override { return local_.num_observations(); }
  void AddObservation(const Eigen::VectorXd& u, double y, bool accepted) override;
  void ScaleOutputs(int exponent) override { local_.ScaleOutputs(exponent); }
  const Kernel& kernel() const override { return local_.kernel(); }
  double noise_variance() const override { return local_.noise_variance(); }
  const GaussianProcessOptions& options() const override { return local_.options(); }
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance) override;
  // A sample of the whole study, not of the neighbours: hyperparameters fitted near the
  // incumbent alone took noise for signal there.
  GaussianProcess FitData(int max_observations) const override;

 private:
  LocalGaussianProcess local_;
  double trust_box_scale_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_LOCAL_POSTERIOR_H_
