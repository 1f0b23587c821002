// An Optimizer's study: the records in its storage (storage/study_storage.h), replayed before
// each call so that several workers share one study, and each mutating call's commit run under
// the study's exclusive lock (the protocol of optimizer.h, "Shared studies", and
// docs/shared_studies.md): what others appended is replayed under the lock with the models'
// work deferred until after it, and a call that did its work outside the lock (an ask) sees
// those records before they are replayed (Observe). A study that lost records this worker had
// replayed (StudyRewound, a database crash) is replayed again from its start. Without a
// storage, calls run in memory with the same staging, so that a failed call leaves the
// optimizer as it was either way. Internal to study/; not thread-safe (the Optimizer
// serializes calls).
#ifndef GPBANDIT_STUDY_STUDY_JOURNAL_H_
#define GPBANDIT_STUDY_STUDY_JOURNAL_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"
#include "gpbandit/study/observation_log.h"
#include "gpbandit/study/optimizer_options.h"
#include "study/journal_client.h"

namespace gpbandit {

class StudyJournal {
 public:
  // Sees each batch of records others appended, parsed, before they are replayed.
  using Observer = std::function<void(const std::vector<LogRecord>& arrived)>;
  // A call's work: it stages the call's records (Append) and returns what applies the call to
  // the optimizer once they are committed.
  using Stage = std::function<std::function<void()>()>;

  // client: the optimizer served; must outlive the journal.
  explicit StudyJournal(JournalClient* client) : client_(client) {}

  // The storage OptimizerOptions::log_path or ::storage names, or nullptr.
  static std::unique_ptr<StudyStorage> StorageFromOptions(const OptimizerOptions& options);
  // Takes the storage and replays the study it holds, if any (checking its header first).
  void Attach(std::unique_ptr<StudyStorage> storage, const WorkerOptions& worker);
  bool has_storage() const { return storage_ != nullptr; }
  const StudyStorage& storage() const { return *storage_; }

  // Runs one mutating call: under the study's exclusive lock, after replaying what others
  // appended (the models' part deferred: JournalClient::Defer), `stage` does the call's work and
  // stages its records; once they are committed (as durably as asked) and the lock is let go, the
  // models catch up and what `stage` returned is applied. Retries after StorageInterrupted; a
  // failed attempt rolls back (JournalClient::RollBack) and throws.
  void Run(const Stage& stage, Durability durability = Durability::kDurable);
  // Stages a record in the current call (nothing without a storage). The header of a new study
  // goes with its first record, so that a call that writes nothing creates nothing.
  void Append(const std::string& record_json);
  // In a call: creates the study now if it does not exist yet; returns whether it did.
  bool CreateStudyInCall();
  // Replays what others appended since this optimizer's last call (no-op without a storage).
  void Sync();
  // Sync, without any lock, and sets the call clock from the storage (now()): the start of a
  // call's work outside the lock (no-op without a storage but for the clock). A lost
  // connection is not an error here: the locked part of the call waits for the storage.
  void ReadAhead();
  // While set (not null), `observer` sees the records of others before they are replayed, and
  // `on_reset` is told when the replica is rebuilt from the start: what an ask computed outside
  // the lock checks against (optimizer/ask_outside_lock.cc, optimizer/ask_check.h).
  void Observe(Observer observer, std::function<void()> on_reset);

  // The current call's clock: seconds since the Unix epoch on the study's clock (the database
  // server's for PostgreSQL, the wall clock otherwise).
  double now() const { return call_now_; }
  // WorkerOptions::id, or "host:pid" ("" without a storage).
  const std::string& worker_id() const { return worker_id_; }

 private:
  // Reads, parses and replays the records after synced_ from `session`; a shared session is
  // ended (*shared reset) before the replay, so that it holds nothing while the models update.
  // After StudyRewound, rebuilds the replica from the study's first record.
  void SyncFrom(StudySession& session, std::unique_ptr<StudySession>* shared = nullptr);
  // SyncFrom a shared session, read again after StorageInterrupted (RetryInterrupted).
  void SyncShared();
  std::vector<LogRecord> Parse(const std::vector<StudyRecord>& records) const;
  void ReadAheadUnlocked(bool clock);
  void Replay(const std::vector<StudyRecord>& raw, const std::vector<LogRecord>& records);
  void Attempt(const Stage& stage, Durability durability);

  JournalClient* client_;
  std::unique_ptr<StudyStorage> storage_;
  bool study_exists_ = false;  // the storage holds this study's header
  long long synced_ = 0;       // the last record of the study replayed
  std::string worker_id_;
  StudySession* session_ = nullptr;  // the current call's (Run)
  bool header_staged_ = false;       // the current call creates the study
  double call_now_ = 0;
  Observer observer_;
  std::function<void()> on_reset_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_STUDY_JOURNAL_H_
