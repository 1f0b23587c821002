// The reward's model in an Optimizer: one PosteriorModel (model/posterior_model.h) at a time,
// and the two places where it becomes another, both in AddObservation so that a run replayed
// from its log switches at the same observation and holds the same model:
// - exact -> local (OptimizerOptions::local_model): the exact GP (model/exact_posterior.h)
//   while it holds at most exact_until observations, then, where the local model applies (boxes
//   without contexts, time models or safety constraints), the local GP (model/local_posterior.h)
//   built from the exact GP's observations and hyperparameters at the observation that crosses
//   the threshold;
// - rank-one -> exact: on a finite set with fixed hyperparameters (OptimizerOptions::
//   finite_set_rank_one_updates) the model starts as the rank-one one (model/rank_one_posterior.h,
//   UseRankOne), without an exact GP, until an observation that is not a candidate arrives:
//   that one switches to the exact GP on every observation (one O(t^3) factorization).
// Everything else goes through posterior(). Internal to model/; not thread-safe (the local
// model is rebuilt when read).
#ifndef GPBANDIT_MODEL_REWARD_MODEL_H_
#define GPBANDIT_MODEL_REWARD_MODEL_H_

#include <Eigen/Core>
#include <memory>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/finite_set_model.h"
#include "model/posterior_model.h"

namespace gpbandit {

class RewardModel {
 public:
  // local_allowed: whether the domain and strategy admit the local model at all.
  RewardModel(std::unique_ptr<Kernel> kernel, int input_dim, const GaussianProcessOptions& options,
              const LocalModelOptions& local_options, bool local_allowed);
  RewardModel(const RewardModel& other);
  RewardModel& operator=(const RewardModel& other);
  RewardModel(RewardModel&&) noexcept;
  RewardModel& operator=(RewardModel&&) noexcept;
  ~RewardModel();

  // The model that predicts now. The reference stays valid until the next AddObservation or
  // an assignment.
  const PosteriorModel& posterior() const { return *model_; }
  // posterior().gp(): the exact GP, or the local GP's exact GP on its neighbours. Throws
  // std::logic_error while the model is the rank-one one, which keeps no GP.
  const GaussianProcess& gp() const;
  // The rank-one model over the finite set's candidates while it predicts, or nullptr: for
  // what needs candidate indices (ask_round.cc, recommender.cc say where).
  const FiniteSetModel* rank_one() const;
  // From now on, the rank-one model over these candidates (model inputs, input_dim x N) instead
  // of the exact GP, with its kernel and options. Only before the first observation; throws
  // std::invalid_argument as FiniteSetModel does.
  void UseRankOne(const Eigen::MatrixXd& unit_candidates);

  // Appends (u, y) (PosteriorModel::AddObservation), first switching model where the header
  // says. accepted: a reward, not a failure's imputed value. Unchanged on throw.
  void AddObservation(const Eigen::VectorXd& u, double y, bool accepted = true);
  // The PosteriorModel members the ModelKeeper reads and writes.
  int num_observations() const { return model_->num_observations(); }
  const Kernel& kernel() const { return model_->kernel(); }
  Eigen::VectorXd kernel_log_params() const { return model_->kernel_log_params(); }
  double noise_variance() const { return model_->noise_variance(); }
  const GaussianProcessOptions& options() const { return model_->options(); }
  void ScaleOutputs(int exponent) { model_->ScaleOutputs(exponent); }
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance) {
    model_->SetHyperparameters(kernel_log_params, noise_variance);
  }
  GaussianProcess FitData(int max_observations) const { return model_->FitData(max_observations); }

 private:
  // The model that takes over before (u, ...) is added, or nullptr to keep the current one.
  std::unique_ptr<PosteriorModel> Successor(const Eigen::VectorXd& u) const;

  LocalModelOptions local_options_;
  bool local_allowed_;
  std::unique_ptr<PosteriorModel> model_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_REWARD_MODEL_H_
