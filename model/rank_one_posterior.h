// The rank-one posterior (model/posterior_model.h) of a FiniteSetModel: the posterior over a
// finite set's candidates kept by O(N^2) rank-one updates, with the exact GP's standardization,
// whatever t; at a non-candidate from the observations' sufficient statistics
// (model/finite_set_model.h). The reward's model on a finite set with fixed hyperparameters
// (OptimizerOptions::finite_set_rank_one_updates) until an observation that is no candidate
// (RewardModel). Keeps no GaussianProcess (gp() is nullptr). Thread safety: none (a prediction
// away from the candidates caches a factorization).
#ifndef GPBANDIT_MODEL_RANK_ONE_POSTERIOR_H_
#define GPBANDIT_MODEL_RANK_ONE_POSTERIOR_H_

#include <memory>

#include "model/finite_set_model.h"
#include "model/posterior_model.h"

namespace gpbandit {

class RankOnePosterior : public PosteriorModel {
 public:
  // As FiniteSetModel's constructor (throws as it does).
  RankOnePosterior(std::unique_ptr<Kernel> kernel, const Eigen::MatrixXd& unit_candidates,
                   const GaussianProcessOptions& options);

  std::unique_ptr<PosteriorModel> Clone() const override;
  PosteriorKind kind() const override { return PosteriorKind::kRankOne; }
  // FiniteSetModel::Predict at each column.
  void Posterior(const Eigen::MatrixXd& inputs, Eigen::VectorXd* means,
                 Eigen::VectorXd* variances) const override;
  Eigen::VectorXd MeansAtObservations() const override { return model_.MeansAtObservations(); }
  double InformationGain() const override { return model_.InformationGain(); }
  // Each statistic as kept while the observations arrived (O(N) whatever t; the sequential
  // variances O(t)); the incumbent too.
  void RoundStatistics(bool sequential, RoundState* state) const override;
  const GaussianProcess* gp() const override { return nullptr; }
  // The model over the candidates, for what needs their indices (a hallucination, the belief).
  const FiniteSetModel& model() const { return model_; }

  int num_observations() const override { return model_.num_observations(); }
  // Throws std::invalid_argument for a u that is no candidate (RewardModel switches to the exact
  // model before one arrives), or as FiniteSetModel::AddObservation.
  void AddObservation(const Eigen::VectorXd& u, double y, bool accepted) override;
  void ScaleOutputs(int exponent) override { model_.ScaleOutputs(exponent); }
  const Kernel& kernel() const override { return model_.kernel(); }
  double noise_variance() const override { return model_.noise_variance(); }
  const GaussianProcessOptions& options() const override { return model_.options(); }
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance) override;
  GaussianProcess FitData(int max_observations) const override;

 private:
  FiniteSetModel model_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_RANK_ONE_POSTERIOR_H_
