// A StudyJournal client for the tests of an Optimizer's units without the optimizer: it rolls a
// failed call's refit back on the replica's models, as the optimizer's wiring does; without a
// storage the journal asks nothing else of it.
#ifndef GPBANDIT_TESTS_OPTIMIZER_UNIT_JOURNAL_CLIENT_H_
#define GPBANDIT_TESTS_OPTIMIZER_UNIT_JOURNAL_CLIENT_H_

#include <stdexcept>
#include <string>

#include "optimizer/study_replica.h"
#include "study/journal_client.h"

namespace gpbandit {
namespace testing {

class UnitJournalClient : public JournalClient {
 public:
  explicit UnitJournalClient(internal::StudyReplica* replica) : replica_(replica) {}
  std::string HeaderJson() const override { throw std::logic_error("no storage"); }
  void CheckHeader(const std::string&) const override { throw std::logic_error("no storage"); }
  void Replay(const LogRecord&) override { throw std::logic_error("no storage"); }
  void RollBack() override { replica_->model->refit().RestoreFit(); }
  void ForgetRollBack() override { replica_->model->refit().ForgetSavedFit(); }
  void ResetReplica() override { replica_->Reset(); }
  void Defer() override { replica_->model->Defer(); }
  void CatchUp() override { replica_->model->CatchUp(); }

 private:
  internal::StudyReplica* replica_;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_UNIT_JOURNAL_CLIENT_H_
