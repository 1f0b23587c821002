// The reward's model in an Optimizer, and when it switches from the exact GP to the local one
// (OptimizerOptions::local_model): the exact GaussianProcess while it holds at most exact_until
// observations, then, where the local model applies (boxes without contexts, time models or
// safety constraints), the LocalGaussianProcess built from the exact GP's observations and
// hyperparameters at the observation that crosses the threshold. The switch happens in
// AddObservation, so a run replayed from its log switches at the same observation and holds the
// same model. On a finite set with fixed hyperparameters (OptimizerOptions::
// finite_set_rank_one_updates) the model is instead the rank-one FiniteSetModel, without an exact
// GP, until an observation that is not a candidate arrives: that one switches to the exact GP on
// every observation (one O(t^3) factorization). Internal to plugin/; not thread-safe (the local
// model is rebuilt when read).
#ifndef GPBANDIT_MODEL_REWARD_MODEL_H_
#define GPBANDIT_MODEL_REWARD_MODEL_H_

#include <Eigen/Core>
#include <memory>

#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/gp/local_gaussian_process.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/finite_set_model.h"

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

  // The model that predicts: the exact GP, or the local GP's exact GP on its neighbours. The
  // reference stays valid until the switch to the local model or an assignment. Throws
  // std::logic_error while the model is the rank-one one (rank_one()), which has no GP.
  const GaussianProcess& gp() const;
  bool is_local() const { return local_ != nullptr; }
  // The rank-one model over the finite set's candidates, or nullptr.
  const FiniteSetModel* rank_one() const { return finite_.get(); }
  // From now on, the rank-one model over these candidates (model inputs, input_dim x N) instead
  // of the exact GP, with its kernel and options. Only before the first observation; throws
  // std::invalid_argument as FiniteSetModel does.
  void UseRankOne(const Eigen::MatrixXd& unit_candidates);
  // Every observation told to the model, whichever predicts.
  int num_observations() const;
  const Kernel& kernel() const;
  Eigen::VectorXd kernel_log_params() const { return kernel().GetLogParams(); }
  double noise_variance() const;
  const GaussianProcessOptions& options() const;

  // Appends (u, y) (GaussianProcess::AddObservation); past exact_until, switches to, or feeds,
  // the local model. accepted: a reward, not a failure's imputed value (the rank-one model's
  // incumbent). Unchanged on throw.
  void AddObservation(const Eigen::VectorXd& u, double y, bool accepted = true);
  void ScaleOutputs(int exponent);
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance);

  // The posterior means at every observation, in order; NaN where the local model does not
  // predict (rows outside its neighbourhood).
  Eigen::VectorXd MeansAtObservations() const;
  // What a refit fits, with the model's hyperparameters: a copy of the exact GP when it holds at
  // most max_observations, else an exact GP on max_observations of the observations spread
  // evenly over the order told (rows floor(i t / max_observations)), for the local model too: a
  // sample of the whole study, whose hyperparameters fit every region (those fitted to the
  // observations near the incumbent alone made the exact GP explore the rest at random, and the
  // local GP take noise for signal).
  GaussianProcess FitData(int max_observations) const;
  // Where an ask searches, within the search box [lower, upper] (unit-cube inputs; the first
  // action_dim coordinates move): nothing for the exact GP (the whole box); for the local model
  // one column per region of *region_lower and *region_upper, its trust box
  // (LocalGaussianProcess::LocalTrustBox, scaled by local_model.trust_box_scale), and of
  // *region_starts, its anchor.
  void SearchRegions(int action_dim, const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                     Eigen::MatrixXd* region_lower, Eigen::MatrixXd* region_upper,
                     Eigen::MatrixXd* region_starts) const;

 private:
  void AddToRankOne(const Eigen::VectorXd& u, double y, bool accepted);

  LocalModelOptions local_options_;
  bool local_allowed_;
  std::unique_ptr<GaussianProcess> exact_;       // below the threshold
  std::unique_ptr<LocalGaussianProcess> local_;  // past it
  std::unique_ptr<FiniteSetModel> finite_;       // on a finite set, instead of both
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_REWARD_MODEL_H_
