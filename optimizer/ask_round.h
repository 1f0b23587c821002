// An Optimizer's ask (optimizer.h): the design points first, then each model-driven slot chosen
// by the domain's round chooser from the ask's posterior, every point recorded as pending before
// it is handed out; in a shared study, chosen outside the study's lock and checked under it when
// WorkerOptions::asks_outside_lock (ask_outside_lock.cc). Changes the study's replica
// (optimizer/study_replica.h) through the journal's calls; keeps the round's report, the seeds
// already reported unsafe and the machine's ask slots. Internal to the library; not thread-safe.
#ifndef GPBANDIT_OPTIMIZER_ASK_ROUND_H_
#define GPBANDIT_OPTIMIZER_ASK_ROUND_H_

#include <Eigen/Core>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/study/optimizer_types.h"
#include "optimizer/ask_check.h"
#include "optimizer/ask_slots.h"
#include "optimizer/round_chooser.h"
#include "optimizer/study_replica.h"
#include "study/study_journal.h"

namespace gpbandit {
namespace internal {

class AskRound {
 public:
  // replica and journal: must outlive the round.
  AskRound(StudyReplica* replica, StudyJournal* journal);

  // q points at context z (optimizer.h, Ask); trials: when not null, receives their trial
  // numbers. Everything is checked before anything changes.
  Eigen::MatrixXd Ask(int q, const Eigen::VectorXd& z, std::vector<long>* trials = nullptr);
  // The points the next Ask(q, z) would hand out if made now, and that round's report
  // (Optimizer::PreviewAskBatch), with nothing recorded or kept: the study's new records are
  // read (ReadAhead, no lock), a refit the ask would make is made and undone, and the replica
  // is left as it was (ask_preview.cc).
  Eigen::MatrixXd Preview(int q, const Eigen::VectorXd& z, RoundReport* report);
  // What the last Ask did; round -1 before any.
  const RoundReport& last_round_report() const { return last_round_report_; }
  const std::string& figure_name() const { return figure_name_; }
  // The replica was rebuilt from the study's start: no seed has been reported unsafe yet.
  void ForgetWarnings();

 private:
  void CheckAsk(int q, const Eigen::VectorXd& z) const;
  AskCall StartCall(int q, const Eigen::VectorXd& z) const;
  // The ask's work under the study's lock (or without a storage).
  void AskUnderLock(int q, const Eigen::VectorXd& z, AskCall* done, bool* refitted);
  void ChooseByModel(AskCall* call, AskPosterior* posterior);
  AskPosterior MakeAskPosterior(const AskCall& call) const;
  // With fidelities: the evaluations per fidelity told or in progress before slot `slot`.
  int WorkerFidelity() const;
  std::vector<int> FidelityCounts(const AskCall& call, int slot) const;
  ModelRound PrepareModelRound(AskCall* call) const;
  // The safe seeds still vouched for; throws std::runtime_error when none is left.
  std::vector<bool> UsableSeeds(AskCall* call) const;
  // drawn_round: the round whose numbers chose the points, when not call.round.
  std::function<void()> RecordPending(const AskCall& call, long drawn_round = -1);
  void ReportRound(const AskCall& call, bool refitted, double seconds);
  // What the round did (RoundReport), without warnings: fit, when not null, is its refit's.
  RoundReport RoundSummary(const AskCall& call, const HyperparameterFitReport* fit,
                           double seconds) const;
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

  StudyReplica& r_;
  StudyJournal& journal_;
  std::string figure_name_;
  RoundReport last_round_report_;
  // Per seed: its being measured unsafe was reported (RoundReport::warnings) already.
  std::vector<bool> reported_dropped_seeds_;
  std::unique_ptr<AskSlots> ask_slots_;  // made at the first ask outside the lock
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_ASK_ROUND_H_
