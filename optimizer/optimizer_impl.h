// The state behind an Optimizer (include/gpbandit/optimizer/optimizer.h) and the walk of each call
// through its collaborators: the study journal (records, replay, the shared-study protocol),
// the model keeper (models, outcome chain, refits), the pending book, the initial design and the
// round chooser of the domain's kind. The facade locks its mutex around every call. Internal to
// plugin/.
#ifndef GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
#define GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/optimizer_options.h"
#include "gpbandit/study/optimizer_types.h"
#include "model/model_inputs.h"
#include "model/model_keeper.h"
#include "optimizer/ask_check.h"
#include "optimizer/ask_slots.h"
#include "optimizer/initial_design.h"
#include "optimizer/recommender.h"
#include "optimizer/round_chooser.h"
#include "optimizer/safe_recommender.h"
#include "optimizer/study_replica.h"
#include "study/journal_client.h"
#include "study/pending_book.h"
#include "study/study_journal.h"

namespace gpbandit {
namespace internal {

class OptimizerImpl : public JournalClient {
 public:
  // strategy: ready to use; strategy_name and strategy_options: as logged. kernel: the caller's,
  // or nullptr for the default. storage: a ready one, or nullptr for the one the options name.
  OptimizerImpl(const Domain& domain, std::unique_ptr<Strategy> strategy,
                const std::string& strategy_name, const StrategyParams& strategy_options,
                const OptimizerOptions& options, std::unique_ptr<Kernel> kernel,
                std::unique_ptr<StudyStorage> storage);

  // ---- Calls (optimizer.h); ask_round.cc and tell.cc ----
  // trials: when not null, receives the points' trial numbers.
  Eigen::MatrixXd Ask(int q, const Eigen::VectorXd& z, std::vector<long>* trials = nullptr);
  // trial: the trial whose pending point the tell releases, or -1 for the first one equal to
  // (x, z).
  void Tell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
            const Eigen::VectorXd& constraints, long trial = -1);
  void TellMany(const Eigen::MatrixXd& X, const Eigen::MatrixXd& Z, const Eigen::VectorXd& y);
  void ClearPending();
  bool Release(const Eigen::VectorXd& x, const Eigen::VectorXd& z);
  bool ReleaseTrial(long trial);
  bool CreateStudy();
  void Sync() { journal_.Sync(); }
  // ---- Queries: the units that answer them ----
  const Recommender& recommender() const { return recommender_; }
  const SafeRecommender& safe_recommender() const { return safe_recommender_; }
  // The study's replica: what the optimizer was built with and what its records made of it.
  const StudyReplica& replica() const { return replica_; }
  OptimizerOptions& mutable_options() { return replica_.options; }
  const StudyJournal& journal() const { return journal_; }
  const std::string& figure_name() const { return figure_name_; }
  const RoundReport& last_round_report() const { return last_round_report_; }
  std::function<void(const RoundReport&)> round_callback;

  // ---- The study journal's client (study/journal_client.h) ----
  std::string HeaderJson() const override { return FormatLogHeader(replica_.MakeHeader()); }
  void CheckHeader(const std::string& header_json) const override;
  // Replays one record with exactly the model operations the live run performed.
  void Replay(const LogRecord& record) override;
  void RollBack() override { replica_.model->RestoreFit(); }
  void ForgetRollBack() override { replica_.model->ForgetSavedFit(); }
  // Forgets every record replayed.
  void ResetReplica() override;
  void Defer() override { replica_.model->Defer(); }
  void CatchUp() override { replica_.model->CatchUp(); }

 private:
  // ---- Ask (ask_round.cc) ----
  void CheckAsk(int q, const Eigen::VectorXd& z) const;
  AskCall StartCall(int q, const Eigen::VectorXd& z) const;
  // The ask's work under the study's lock (or without a storage).
  void AskUnderLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted);
  void ChooseByModel(AskCall* call, AskPosterior* posterior);
  AskPosterior MakeAskPosterior(const AskCall& call) const;
  ModelRound PrepareModelRound(AskCall* call) const;
  // The safe seeds still vouched for; throws std::runtime_error when none is left.
  std::vector<bool> UsableSeeds(AskCall* call) const;
  // drawn_round: the round whose numbers chose the points, when not call.round.
  std::function<void()> RecordPending(const AskCall& call, long drawn_round = -1);
  void ReportRound(const AskCall& call, bool refitted, double seconds);
  // RoundReport::warnings: the seeds newly found measured unsafe (also handed to the warning sink).
  std::vector<std::string> NewWarnings(const AskCall& call);
  // ---- Asks outside the lock (ask_outside_lock.cc) ----
  // One try: chosen on the replica, checked against what others recorded meanwhile
  // (AskCheck), recorded under the lock if it holds. A refit it made is recorded either way.
  // Returns whether the points were recorded.
  bool AskOutsideLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted);
  // What one try carries from outside the lock to its commit.
  struct OutsideLock {
    AskCall call;
    std::string fit_record;  // this worker's refit ("" none)
    HyperparameterFitReport fit_report;
  };
  std::unique_ptr<AskCheck> ChooseOutsideLock(AskCall* call);
  std::function<void()> RecordChecked(int q, const Eigen::VectorXd& z, const AskCheck& check,
                                      OutsideLock* ask, bool* kept, bool* refitted);
  // ---- Tell (tell.cc) ----
  void CheckTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                 const std::string& x_field, const std::string& z_field,
                 const std::string& y_field) const;
  void CheckConstraints(double y, const Eigen::VectorXd& constraints) const;
  // The round of an observation told now (Observation::round).
  long TellRound(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  // The pending point of `trial` (a tell by trial number); std::invalid_argument if none.
  const PendingPoint& PendingTrial(long trial) const;
  std::function<void()> StageTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y,
                                  double imputed, long round, const Eigen::VectorXd& constraints,
                                  long trial, double refit_claim);
  void ApplyTell(const Eigen::VectorXd& x, const Eigen::VectorXd& z, double y, bool accepted,
                 long round, const Eigen::VectorXd& constraints, long trial);

  StudyReplica replica_;
  // Per seed: its being measured unsafe was reported (RoundReport::warnings) already.
  std::vector<bool> reported_dropped_seeds_;
  StudyJournal journal_;
  std::unique_ptr<AskSlots> ask_slots_;  // made at the first ask outside the lock
  SafeRecommender safe_recommender_;
  Recommender recommender_;
  std::string figure_name_;
  RoundReport last_round_report_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
