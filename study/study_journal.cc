#include "study/study_journal.h"

#include <chrono>
#include <stdexcept>

#include "gpbandit/numerics/warning_sink.h"
#include "study/interrupted_retry.h"
#include "study/refit_claims.h"

namespace gpbandit {
namespace {

double WallClock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

// A record that is valid JSON but wrong (a fit with too few parameters, a point outside the box)
// is named by its place in the study, so that a person can find it.
std::runtime_error RecordError(const StudyStorage& storage, const StudyRecord& record,
                               const std::exception& e) {
  const std::string where = record.location.empty()
                                ? storage.Describe() + ": record " + std::to_string(record.sequence)
                                : record.location;
  return std::runtime_error(where + ": " + record.type + " record: " + e.what());
}

}  // namespace

std::unique_ptr<StudyStorage> StudyJournal::StorageFromOptions(const OptimizerOptions& options) {
  if (options.log_path.empty() && options.storage.empty()) return nullptr;
  StorageOptions storage_options;
  storage_options.sync = options.sync_log;
  storage_options.reconnect_timeout_seconds = options.worker.reconnect_timeout_seconds;
  storage_options.lock_lease_seconds = options.worker.lock_lease_seconds;
  if (!options.log_path.empty()) return OpenStudyStorage(options.log_path, "", storage_options);
  return OpenStudyStorage(options.storage, options.study, storage_options);
}

void StudyJournal::Attach(std::unique_ptr<StudyStorage> storage, const WorkerOptions& worker) {
  storage_ = std::move(storage);
  worker_id_ = worker.id.empty() ? DefaultWorkerId() : worker.id;
  SyncShared();
}

// A shared read interrupted by a lost connection (a server that crashed after this worker
// connected) is read again: the storage reconnects first, and nothing was replayed from the
// interrupted session.
void StudyJournal::SyncShared() {
  RetryInterrupted(*storage_, "reading the study again", [&] {
    std::unique_ptr<StudySession> session = storage_->Begin(LockMode::kShared);
    SyncFrom(*session, &session);
  });
}

void StudyJournal::SyncFrom(StudySession& session, std::unique_ptr<StudySession>* shared) {
  if (!study_exists_) {
    if (session.header().empty()) return;
    hooks_.check_header(session.header());
    study_exists_ = true;
  }
  std::vector<StudyRecord> raw;
  try {
    raw = session.ReadAfter(synced_);
  } catch (const StudyRewound& e) {
    // What this worker replayed is no longer the study's prefix: start again from the header.
    Warn(std::string(e.what()) + "; replaying the study again");
    hooks_.reset();
    synced_ = 0;
    if (on_reset_) on_reset_();
    raw = session.ReadAfter(0);
  }
  const std::vector<LogRecord> records = Parse(raw);
  if (shared != nullptr) shared->reset();
  if (observer_ && !records.empty()) observer_(records);
  Replay(raw, records);
}

std::vector<LogRecord> StudyJournal::Parse(const std::vector<StudyRecord>& raw) const {
  std::vector<LogRecord> records;
  records.reserve(raw.size());
  for (const StudyRecord& record : raw) {
    try {
      records.push_back(ParseLogRecord(record.json));
    } catch (const std::exception& e) {
      throw RecordError(*storage_, record, e);
    }
  }
  return records;
}

void StudyJournal::Replay(const std::vector<StudyRecord>& raw,
                          const std::vector<LogRecord>& records) {
  for (std::size_t i = 0; i < raw.size(); ++i) {
    try {
      hooks_.replay(records[i]);
    } catch (const std::exception& e) {
      throw RecordError(*storage_, raw[i], e);
    }
    synced_ = raw[i].sequence;
  }
}

// Replays what is committed so far without the exclusive lock, so that only what others append
// meanwhile is replayed under it.
void StudyJournal::ReadAheadUnlocked(bool clock) {
  try {
    std::unique_ptr<StudySession> session = storage_->Begin(LockMode::kShared);
    if (clock) call_now_ = session->Now();
    SyncFrom(*session, &session);
  } catch (const StorageInterrupted&) {
    // The exclusive attempt that follows waits for the storage and reads everything.
  }
}

void StudyJournal::ReadAhead() {
  if (!storage_) {
    call_now_ = WallClock();
    return;
  }
  ReadAheadUnlocked(/*clock=*/true);
}

void StudyJournal::Observe(Observer observer, std::function<void()> on_reset) {
  observer_ = std::move(observer);
  on_reset_ = std::move(on_reset);
}

void StudyJournal::Run(const Stage& stage, Durability durability) {
  if (!storage_) {
    call_now_ = WallClock();
    std::function<void()> apply;
    try {
      apply = stage();
    } catch (...) {
      hooks_.roll_back();
      throw;
    }
    hooks_.forget_roll_back();
    apply();
    return;
  }
  ReadAheadUnlocked(/*clock=*/false);
  RetryInterrupted(*storage_, "retrying the call", [&] { Attempt(stage, durability); });
}

// One attempt of Run. Until the commit succeeds, a failure leaves the optimizer as it was (but
// for the records of others it replayed, which are committed).
void StudyJournal::Attempt(const Stage& stage, Durability durability) {
  std::unique_ptr<StudySession> session;
  std::function<void()> apply;
  long long last = 0;
  header_staged_ = false;
  try {
    session = storage_->Begin(LockMode::kExclusive);
    hooks_.defer();
    SyncFrom(*session);
    session_ = session.get();
    call_now_ = session->Now();
    apply = stage();
    session_ = nullptr;
    last = session->Commit(durability);
  } catch (...) {
    session_ = nullptr;
    hooks_.roll_back();
    session.reset();
    hooks_.catch_up();
    throw;
  }
  hooks_.forget_roll_back();
  study_exists_ = study_exists_ || header_staged_;
  synced_ = last;
  session.reset();  // lets go of the lock before the models' work
  hooks_.catch_up();
  apply();
}

void StudyJournal::Append(const std::string& record_json) {
  if (session_ == nullptr) return;
  if (!study_exists_ && session_->header().empty() && !header_staged_) {
    session_->CreateStudy(hooks_.header_json());
    header_staged_ = true;
  }
  session_->Append(record_json);
}

bool StudyJournal::CreateStudyInCall() {
  if (study_exists_ || session_ == nullptr) return false;
  session_->CreateStudy(hooks_.header_json());
  header_staged_ = true;
  return true;
}

void StudyJournal::Sync() {
  if (storage_) SyncShared();
}

}  // namespace gpbandit
