// An Optimizer's models and what feeds them: the reward's GaussianProcess over the model inputs
// (model/model_inputs.h), the models of a safe strategy's safety signals, the outcome chain
// from told values to model outputs (model/outcome_transforms.h), the imputation of failed
// evaluations (NonFiniteRewardPolicy::kImputeWorst), and the refits with their reports. A refit
// is saved before it changes anything, so that a call whose records fail to commit can restore
// the models exactly (RestoreFit). Internal to plugin/; not thread-safe.
//
// Safety signals: when the strategy declares them (Strategy::safety_signals()), each signal
// with a threshold has its own SignalModel (model/signal_model.h), the reward's first, then one
// per constraint signal, refitted on the reward's schedule and logged in fit records as
// "signals". Otherwise (log format <= 4) each constraint signal has a GP in the caller's units
// copying the reward's kernel, refitted with the reward's fit options ("constraints").
#ifndef GPBANDIT_MODEL_MODEL_KEEPER_H_
#define GPBANDIT_MODEL_MODEL_KEEPER_H_

#include <Eigen/Core>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/study/observation_log.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/exact_posterior.h"
#include "model/outcome_transforms.h"
#include "model/refit_policy.h"
#include "model/restart_monitor.h"
#include "model/reward_model.h"
#include "model/signal_model.h"
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
  // coordinates are actions. cautious: the reward's refits may not become more optimistic
  // (RefitPolicy). worker: this worker's name in a shared study (RefitClaims; named: given by
  // WorkerOptions::id, not the default). options must outlive the keeper.
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
  int num_constraints() const { return num_constraints_; }
  // Constraint signal i's model (the caller's units without safety signals, else its
  // SignalModel's units).
  const GaussianProcess& constraint(int i) const;
  // The safety signals' models (empty without declared safety signals): the reward's first
  // when it has a threshold, then one per constraint signal.
  const std::vector<SignalModel>& safety_models() const { return signals_; }
  // The index in safety_models() of the reward's model, or -1.
  int reward_safety_model() const { return reward_safety_ ? 0 : -1; }
  // The index in safety_models() of constraint signal i's model.
  int constraint_safety_model(int i) const { return (reward_safety_ ? 1 : 0) + i; }
  const OutcomeChain& chain() const { return chain_; }
  // 2^k: the reward unit the model's outputs are in (optimizer.h, "Units").
  double reward_unit() const { return std::ldexp(1.0, chain_.unit().exponent()); }
  const Eigen::VectorXd& initial_kernel_log_params() const { return initial_log_params_; }
  const RefitPolicy& refit_policy() const { return policy_; }

  // ---- Observations ----
  // The model's rows (accepted rewards and imputed failures): the observations it holds, and
  // those deferred (below).
  int rows() const { return rows_; }
  int num_accepted() const { return num_accepted_; }
  // The lowest accepted reward (model sense); +infinity before any.
  double worst_reward() const { return worst_reward_; }
  // The reward (model sense) a failure told now enters the model with (kImputeWorst), or NaN;
  // the same after `accepted` accepted rewards whose worst is `worst`.
  double ImputedReward() const { return ImputedReward(worst_reward_, num_accepted_); }
  double ImputedReward(double worst, int accepted) const;
  // Adds a told value (the caller's units) at model input `input`, and the constraint signals
  // at unit-cube input `unit_input`. Returns the reward imputed for a failure (model sense), or
  // NaN. The constraint models change first: they cannot fail after the reward's has changed.
  double Add(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input, double told,
             bool accepted, const Eigen::VectorXd& constraints);

  // From now on each accepted reward's residual against the reward's model before it is added
  // goes to `monitor` (TimeModelKind::kRestarts), the round read from input coordinate
  // time_dim; it is noted once the reward is in the model.
  void WatchForRestarts(std::shared_ptr<RestartMonitor> monitor, int time_dim);
  // The first round of the epoch of `round` under restarts; 0 without them.
  long EpochStart(long round) const { return restarts_ ? restarts_->EpochStart(round) : 0; }

  // ---- Deferred model work ----
  // While deferring, Add and ReplayFit update at once what decides a call (the counts, the worst
  // reward, the refit's bookkeeping) and queue the models' work (an O(t^2) update per
  // observation, an O(t^3) refactorization per refit), which CatchUp then does in order: the
  // records others appended are replayed under a study's lock, and the models catch up with them
  // after it (StudyJournal). gp() and the constraint models lag until then.
  void Defer() { deferring_ = true; }
  void CatchUp();

  // ---- Refits ----
  // Who refits in a shared study, and when a claim to a refit lasts: study/refit_claims.h. A
  // refit falls due at the observation counts the schedule names (RefitSchedule: the first
  // count past the last refit's at which ShouldRefit holds). Alone, a worker refits exactly
  // when a refit has fallen due since the last one, whether it runs as one process or as one
  // process per evaluation.
  bool refit_owed() const { return claims_.owed(); }
  // The claim a tell that leaves the model with `rows_after` rows makes at study time `now`
  // (RefitClaims::ClaimFor), or NaN.
  double RefitClaim(int rows_after, double now) const;
  // A tell's claim, replayed (made by `claimant`) or this worker's own (mine: it then owes the
  // refit); the tell's observation is already in rows().
  void NoteRefitClaim(double until, bool mine, const std::string& claimant = "");
  // A worker that joins (claims_hold) or resumes (!claims_hold) a study at time `now` owes the
  // refit that has fallen due (RefitClaims::OweIfDue).
  void OweRefitIfDue(bool claims_hold, double now);
  // Refits when one is owed; returns the fit record to log ("" when it did not refit). The
  // random numbers come from (seed, round). The refit is saved first (RestoreFit undoes it).
  std::string MaybeRefit(long round);
  // Applies a fit record read from the study (another worker's refit).
  void ReplayFit(const LogRecord& record);
  // Applies this worker's own fit record, as a replay does, after RestoreFit undid it so that
  // others' records could be replayed first; keeps its report.
  void ApplyOwnFit(const LogRecord& record, HyperparameterFitReport report);
  bool has_fit_report() const { return has_fit_report_; }
  const HyperparameterFitReport& last_fit_report() const { return last_fit_report_; }
  int last_fit_observations() const { return last_fit_observations_; }
  // The refit's transaction (RefitClaims::BeginFit): undoes an uncommitted refit.
  void RestoreFit() { claims_.RollBack(); }
  // The call that refitted was committed: the refit stands and is no longer owed.
  void ForgetSavedFit() { claims_.Commit(); }
  // Whether the model holds a refit that RestoreFit would undo.
  bool fit_uncommitted() const { return claims_.fit_uncommitted(); }

 private:
  // Adds a reward (model sense) at input u, first moving the model to the reward unit that it
  // requires; accepted: a told reward, not a failure's imputed one.
  void AddReward(const Eigen::VectorXd& u, double reward, bool accepted);
  // The models' part of Add (reward: NaN when the reward's model takes no row).
  void AddToModels(const Eigen::VectorXd& input, const Eigen::VectorXd& unit_input, double reward,
                   bool accepted, const Eigen::VectorXd& constraints);
  // The residual of `reward` (the model's units) at u for the restart monitor, or NaN.
  double RestartResidual(const Eigen::VectorXd& u, double reward) const;
  // The models' part of ReplayFit.
  void SetFittedHyperparameters(const LogRecord& record);
  // Begins the refit's transaction: what a refit changes, restored on RollBack.
  void SaveFit();
  void RefitConstraints(const HyperparameterFitOptions& fit, long round,
                        std::vector<Eigen::VectorXd>* log_params,
                        std::vector<double>* noise_variances);
  void RefitSafetyModels(int observed, long round, std::vector<Eigen::VectorXd>* log_params,
                         std::vector<double>* noise_variances);
  void BuildSafetyModels(const std::vector<SafetySignal>& safety, int input_dim, int action_dim);

  const OptimizerOptions& options_;
  std::unique_ptr<RewardModel> reward_;
  std::vector<std::unique_ptr<ExactPosterior>> constraint_gps_;
  int num_constraints_ = 0;
  std::shared_ptr<RestartMonitor> restarts_;
  int restart_time_dim_ = -1;
  std::vector<SignalModel> signals_;
  bool reward_safety_ = false;
  Eigen::VectorXd initial_log_params_;
  RefitPolicy policy_;
  OutcomeChain chain_;
  double largest_reward_magnitude_ = 0.0;
  int rows_ = 0;
  int num_accepted_ = 0;
  double worst_reward_ = std::numeric_limits<double>::infinity();
  // The models' work queued while deferring: an observation (fit == nullptr) or a refit.
  struct Deferred {
    Eigen::VectorXd input, unit_input, constraints;
    double reward = 0;
    bool accepted = false;
    std::shared_ptr<const LogRecord> fit;
  };
  bool deferring_ = false;
  std::vector<Deferred> deferred_;
  int last_fit_observations_ = -1;
  bool has_fit_report_ = false;
  HyperparameterFitReport last_fit_report_;
  RefitClaims claims_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_MODEL_KEEPER_H_
