// The refits of a study's models: when one is owed (study/refit_claims.h: who refits in a
// shared study, and when a claim lasts), making it (the reward's model by RefitPolicy's options
// on at most fit_max_observations rows, then the constraint and signal models), the fit record
// it logs, the replay of fit records others logged, the last refit's report, and the refit's
// transaction: a refit is saved before it changes anything, so that a call whose records fail
// to commit can restore the models exactly (RestoreFit).
//
// A refit falls due at the observation counts the schedule names (RefitSchedule: the first count
// past the last refit's at which ShouldRefit holds). Alone, a worker refits exactly when a refit
// has fallen due since the last one, whether it runs as one process or as one process per
// evaluation. The random numbers of the refit in round r come from (seed, r) (study/round_rng.h),
// and the models take a refit's values exactly as a replay of its record does, so that live and
// resumed runs hold bit-identical models.
//
// The refitter works on models its owner holds (ModelKeeper): they, the counts, the deferred
// work, the options and the policy must outlive it. Internal to model/; not thread-safe.
#ifndef GPBANDIT_MODEL_REFITTER_H_
#define GPBANDIT_MODEL_REFITTER_H_

#include <string>

#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/study/observation_log.h"
#include "gpbandit/study/optimizer_options.h"
#include "model/constraint_models.h"
#include "model/deferred_work.h"
#include "model/observation_counts.h"
#include "model/refit_policy.h"
#include "model/reward_model.h"
#include "study/refit_claims.h"

namespace gpbandit {

class Refitter {
 public:
  // worker: this worker's name in a shared study (RefitClaims; named: given by
  // WorkerOptions::id, not the default).
  Refitter(const OptimizerOptions& options, const RefitPolicy& policy, RewardModel& reward,
           ConstraintModels& constraints, const ObservationCounts& counts, DeferredWork& work,
           const std::string& worker, bool named);
  Refitter(const Refitter&) = delete;
  Refitter& operator=(const Refitter&) = delete;

  // Whether this worker owes the refit due.
  bool owed() const { return claims_.owed(); }
  // The claim a tell that leaves the model with `rows_after` rows makes at study time `now`
  // (RefitClaims::ClaimFor), or NaN.
  double Claim(int rows_after, double now) const;
  // A tell's claim, replayed (made by `claimant`) or this worker's own (mine: it then owes the
  // refit); the tell's observation is already in the counts' rows.
  void NoteClaim(double until, bool mine, const std::string& claimant = "");
  // A worker that joins (claims_hold) or resumes (!claims_hold) a study at time `now` owes the
  // refit that has fallen due (RefitClaims::OweIfDue).
  void OweIfDue(bool claims_hold, double now);

  // Refits when one is owed; returns the fit record to log ("" when it did not refit). The
  // random numbers come from (seed, round). The refit is saved first (RestoreFit undoes it).
  // std::logic_error while model work is deferred (DeferredWork::CatchUp first).
  std::string MaybeRefit(long round);
  // The refit of an ask previewed (Optimizer::PreviewAskBatch) at study time `now`: made, as
  // MaybeRefit makes it, when this worker owes one or a worker joining the study now would
  // (RefitClaims::OwedByNextAsk); saved first, and the caller undoes it (RestoreFit). Its
  // duration is not kept (it would lengthen this worker's later claims). "" when none is made.
  std::string PreviewRefit(long round, double now);
  // Applies a fit record read from the study (another worker's refit); while deferring, the
  // models take it in turn on CatchUp. std::runtime_error, changing nothing, when the record
  // does not hold one entry per constraint and signal model.
  void ReplayFit(const LogRecord& record);
  // Applies this worker's own fit record, as a replay does, after RestoreFit undid it so that
  // others' records could be replayed first; keeps its report.
  void ApplyOwnFit(const LogRecord& record, HyperparameterFitReport report);

  bool has_fit_report() const { return has_fit_report_; }
  const HyperparameterFitReport& last_fit_report() const { return last_fit_report_; }
  // The model's rows at the last refit or replayed fit record; -1 before any.
  int last_fit_observations() const { return last_fit_observations_; }

  // The refit's transaction (RefitClaims::BeginFit): undoes an uncommitted refit.
  void RestoreFit() { claims_.RollBack(); }
  // The call that refitted was committed: the refit stands and is no longer owed.
  void ForgetSavedFit() { claims_.Commit(); }
  // Whether the models hold a refit that RestoreFit would undo.
  bool fit_uncommitted() const { return claims_.fit_uncommitted(); }

 private:
  // MaybeRefit's refit, made unconditionally; keep_duration: this refit's duration sets the
  // time of this worker's later claims.
  std::string Refit(long round, bool keep_duration);
  // The models' part of ReplayFit.
  void SetHyperparameters(const LogRecord& record);
  // Begins the refit's transaction: what a refit changes, restored on RollBack.
  void SaveFit();

  const OptimizerOptions& options_;
  const RefitPolicy& policy_;
  RewardModel& reward_;
  ConstraintModels& constraints_;
  const ObservationCounts& counts_;
  DeferredWork& work_;
  RefitClaims claims_;
  int last_fit_observations_ = -1;
  bool has_fit_report_ = false;
  HyperparameterFitReport last_fit_report_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_REFITTER_H_
