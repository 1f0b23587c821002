// The wiring behind an Optimizer (include/gpbandit/optimizer/optimizer.h): the study's replica
// (optimizer/study_replica.h), its journal (study/study_journal.h), whose client this is, and
// the units each call goes to: the ask round, the tell step, the recommenders. The facade locks
// its mutex around every call. Internal to the library.
#ifndef GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
#define GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_

#include <functional>
#include <memory>
#include <string>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/optimizer_options.h"
#include "gpbandit/study/optimizer_types.h"
#include "optimizer/ask_round.h"
#include "optimizer/recommender.h"
#include "optimizer/safe_recommender.h"
#include "optimizer/study_replica.h"
#include "optimizer/tell_step.h"
#include "study/journal_client.h"
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

  // ---- The units each call goes to ----
  AskRound& asks() { return asks_; }
  const AskRound& asks() const { return asks_; }
  TellStep& tells() { return tells_; }
  const Recommender& recommender() const { return recommender_; }
  const SafeRecommender& safe_recommender() const { return safe_recommender_; }
  // The study's replica: what the optimizer was built with and what its records made of it.
  const StudyReplica& replica() const { return replica_; }
  OptimizerOptions& mutable_options() { return replica_.options; }
  StudyJournal& journal() { return journal_; }
  const StudyJournal& journal() const { return journal_; }
  std::function<void(const RoundReport&)> round_callback;

  // ---- The study journal's client (study/journal_client.h) ----
  std::string HeaderJson() const override { return FormatLogHeader(replica_.MakeHeader()); }
  void CheckHeader(const std::string& header_json) const override;
  // Replays one record with exactly the model operations the live run performed, so that the
  // rebuilt state is bit-for-bit the same.
  void Replay(const LogRecord& record) override;
  void RollBack() override { replica_.model->refit().RestoreFit(); }
  void ForgetRollBack() override { replica_.model->refit().ForgetSavedFit(); }
  // Forgets every record replayed.
  void ResetReplica() override;
  void Defer() override { replica_.model->Defer(); }
  void CatchUp() override { replica_.model->CatchUp(); }

 private:
  StudyReplica replica_;
  StudyJournal journal_;
  AskRound asks_;
  TellStep tells_;
  SafeRecommender safe_recommender_;
  Recommender recommender_;
};

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_OPTIMIZER_IMPL_H_
