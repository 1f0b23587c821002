// An Optimizer's models and what feeds them, wired together: the reward's model over the model
// inputs (model/reward_model.h, model/model_inputs.h), the outcome chain from told values to
// model outputs (model/outcome_transforms.h), and the restart monitor of a strategy that
// restarts (TimeModelKind::kRestarts). Each other job has a unit of its own, reached through
// an accessor:
//   counts()       the observations counted, and the imputation of failures
//                  (model/observation_counts.h);
//   constraints()  the constraint and safety-signal models (model/constraint_models.h);
//   refit()        the refits, their reports and their transaction (model/refitter.h);
// and the models' work deferred during a study's replay (model/deferred_work.h: Defer, CatchUp).
// The keeper's own job is Add: a told value through the chain into every model, in an order
// that leaves the models as they were when it throws.
//
// Internal to optimizer/; not thread-safe (the Optimizer serializes calls). Neither copyable
// nor movable: its units refer to each other.
#ifndef GPBANDIT_MODEL_MODEL_KEEPER_H_
#define GPBANDIT_MODEL_MODEL_KEEPER_H_

#include <Eigen/Core>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/constraint_models.h"
#include "model/deferred_work.h"
#include "model/observation_counts.h"
#include "model/outcome_map.h"
#include "model/outcome_transforms.h"
#include "model/refit_policy.h"
#include "model/refitter.h"
#include "model/restart_monitor.h"
#include "model/reward_model.h"
#include "study/refit_claims.h"

namespace gpbandit {

class ModelKeeper {
 public:
  // kernel: the model's (time kernel included), over inputs of dimension input_dim. Without
  // `safety`, each of the num_constraints constraint models starts from a copy of it, over the
  // unit-cube inputs [action; context] (constraint_input_dim). local_allowed: whether the
  // reward may switch to the local model (RewardModel). safety: the strategy's safety signals
  // (Strategy::safety_signals(): the reward's, then the constraints'; thresholds in the
  // caller's units), modelled over the same unit-cube inputs, whose first action_dim
  // coordinates are actions, and with options.fidelities over [action; context; fidelity]
  // (ConstraintModels). cautious: the reward's refits may not become
  // more optimistic (RefitPolicy). worker: this worker's name in a shared study (RefitClaims;
  // named: given by WorkerOptions::id, not the default). options must outlive the keeper.
  ModelKeeper(std::unique_ptr<Kernel> kernel, int input_dim, const OptimizerOptions& options,
              const TimeModel& time, bool default_kernel, bool cautious, int num_constraints,
              int constraint_input_dim, bool local_allowed,
              const std::vector<SafetySignal>& safety = {}, int action_dim = 0,
              const std::string& worker = DefaultWorkerId(), bool named = false);

  // The reward's model that predicts (RewardModel::gp()), and the model itself.
  const GaussianProcess& gp() const { return reward_->gp(); }
  const RewardModel& reward() const { return *reward_; }
  // The reward's model becomes the rank-one one over these candidates (RewardModel::UseRankOne).
  void UseRankOne(const Eigen::MatrixXd& unit_candidates) { reward_->UseRankOne(unit_candidates); }
  const ConstraintModels& constraints() const { return constraints_; }
  const OutcomeChain& chain() const { return chain_; }
  // The further outcomes' units (OptimizerOptions::outcomes).
  const OutcomeMap& outcome_map() const { return outcome_map_; }
  // 2^k: the reward unit the model's outputs are in (optimizer.h, "Units").
  double reward_unit() const { return std::ldexp(1.0, chain_.unit().exponent()); }
  const Eigen::VectorXd& initial_kernel_log_params() const { return initial_log_params_; }
  const RefitPolicy& refit_policy() const { return policy_; }
  // What the models were told, counted: rows, accepted rewards, the worst, the imputation.
  const ObservationCounts& counts() const { return counts_; }
  Refitter& refit() { return refit_; }
  const Refitter& refit() const { return refit_; }

  // Adds a told value (the caller's units) at model input `input`, and the constraint signals
  // at unit-cube input `unit_input`. Returns the reward imputed for a failure (model sense), or
  // NaN. The constraint models change first: they cannot fail after the reward's has changed.
  // While deferring, the counts change at once and the models on CatchUp.
  double Add(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input, double told,
             bool accepted, const Eigen::VectorXd& constraints);

  // From now on each accepted reward's residual against the reward's model before it is added
  // goes to `monitor` (TimeModelKind::kRestarts), the round read from input coordinate
  // time_dim; it is noted once the reward is in the model.
  void WatchForRestarts(std::shared_ptr<RestartMonitor> monitor, int time_dim);
  // The first round of the epoch of `round` under restarts; 0 without them.
  long EpochStart(long round) const { return restarts_ ? restarts_->EpochStart(round) : 0; }

  // Deferred model work (model/deferred_work.h): while deferring, Add and Refitter::ReplayFit
  // update at once what decides a call and queue the models' work, which CatchUp does in order.
  // gp() and the constraint models lag until then.
  void Defer() { work_.Defer(); }
  void CatchUp() { work_.CatchUp(); }

 private:
  // Adds a reward (model sense) at input u, first moving the model to the reward unit that it
  // requires; accepted: a told reward, not a failure's imputed one.
  void AddReward(const Eigen::VectorXd& u, double reward, bool accepted);
  // The models' part of Add (reward: NaN when the reward's model takes no row).
  void AddToModels(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input, double reward,
                   bool accepted, const Eigen::VectorXd& constraints);
  // The residual of `reward` (the model's units) at u for the restart monitor, or NaN.
  double RestartResidual(const Eigen::VectorXd& u, double reward) const;

  std::unique_ptr<RewardModel> reward_;
  Eigen::VectorXd initial_log_params_;
  RefitPolicy policy_;
  OutcomeChain chain_;
  OutcomeMap outcome_map_;
  ConstraintModels constraints_;
  ObservationCounts counts_;
  DeferredWork work_;
  Refitter refit_;
  double largest_reward_magnitude_ = 0.0;
  std::shared_ptr<RestartMonitor> restarts_;
  int restart_time_dim_ = -1;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_MODEL_KEEPER_H_
