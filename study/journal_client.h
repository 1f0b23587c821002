// What a StudyJournal (study/study_journal.h) needs of the optimizer it serves: its header, the
// check of a study it joins, the replay of each record, the transaction of a call's refit, the
// reset of its replica, and the deferral of the models' work while the study's lock is held.
// The optimizer's wiring (optimizer/optimizer_impl.h) implements it; tests use a fake. Internal
// to the library.
#ifndef GPBANDIT_STUDY_JOURNAL_CLIENT_H_
#define GPBANDIT_STUDY_JOURNAL_CLIENT_H_

#include <string>

#include "gpbandit/study/observation_log.h"

namespace gpbandit {

class JournalClient {
 public:
  virtual ~JournalClient() = default;
  // This optimizer's header record (a new study's first record).
  virtual std::string HeaderJson() const = 0;
  // Throws std::runtime_error when an existing study's header does not match this optimizer.
  virtual void CheckHeader(const std::string& header_json) const = 0;
  // Applies one record another worker (or an earlier run) appended.
  virtual void Replay(const LogRecord& record) = 0;
  // Undoes what a failed call changed before its commit (a refit), and forgets it after one.
  virtual void RollBack() = 0;
  virtual void ForgetRollBack() = 0;
  // Forgets every record replayed: the optimizer as built, before any record (the study lost
  // records this worker had replayed; StudyRewound).
  virtual void ResetReplica() = 0;
  // Under the lock, replay defers the models' work (ModelKeeper::Defer); CatchUp does it once
  // the lock is let go. A call's stage that needs the models catches up itself.
  virtual void Defer() = 0;
  virtual void CatchUp() = 0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_JOURNAL_CLIENT_H_
