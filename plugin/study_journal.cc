#include "plugin/study_journal.h"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <stdexcept>

namespace gpbandit {
namespace {

// A call interrupted by a lost connection is retried this often (each attempt first waits for
// the storage to come back, up to WorkerOptions::reconnect_timeout_seconds).
constexpr int kMaxAttempts = 20;

double WallClock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::string DefaultWorkerId() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  return std::string(host[0] ? host : "localhost") + ":" + std::to_string(::getpid());
}

}  // namespace

std::unique_ptr<StudyStorage> StudyJournal::StorageFromOptions(const OptimizerOptions& options) {
  if (options.log_path.empty() && options.storage.empty()) return nullptr;
  StorageOptions storage_options;
  storage_options.sync = options.sync_log;
  storage_options.reconnect_timeout_seconds = options.worker.reconnect_timeout_seconds;
  if (!options.log_path.empty()) return OpenStudyStorage(options.log_path, "", storage_options);
  return OpenStudyStorage(options.storage, options.study, storage_options);
}

void StudyJournal::Attach(std::unique_ptr<StudyStorage> storage, const WorkerOptions& worker) {
  storage_ = std::move(storage);
  worker_id_ = worker.id.empty() ? DefaultWorkerId() : worker.id;
  SyncFrom(*storage_->Begin(LockMode::kShared));
}

void StudyJournal::SyncFrom(StudySession& session) {
  if (!study_exists_) {
    if (session.header().empty()) return;
    hooks_.check_header(session.header());
    study_exists_ = true;
  }
  for (const StudyRecord& record : session.ReadAfter(synced_)) {
    // A record that is valid JSON but wrong (a fit with too few parameters, a point outside
    // the box) is named by its place in the study, so that a person can find it.
    try {
      hooks_.replay(ParseLogRecord(record.json));
    } catch (const std::exception& e) {
      const std::string where = record.location.empty() ? storage_->Describe() + ": record " +
                                                              std::to_string(record.sequence)
                                                        : record.location;
      throw std::runtime_error(where + ": " + record.type + " record: " + e.what());
    }
    synced_ = record.sequence;
  }
}

// Replays what is committed so far without the exclusive lock (a shared one for files), so that
// only what others append meanwhile is replayed under it.
void StudyJournal::ReadAhead() {
  try {
    SyncFrom(*storage_->Begin(LockMode::kShared));
  } catch (const StorageInterrupted&) {
    // The exclusive attempt that follows waits for the storage and reads everything.
  }
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
  ReadAhead();
  for (int attempt = 1;; ++attempt) {
    try {
      Attempt(stage, durability);
      return;
    } catch (const StorageInterrupted& e) {
      if (attempt >= kMaxAttempts)
        throw std::runtime_error(storage_->Describe() + ": gave up after " +
                                 std::to_string(attempt) + " interrupted attempts: " + e.what());
      std::cerr << "gpbandit: warning: " << e.what() << "; retrying the call\n";
    }
  }
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
    SyncFrom(*session);
    session_ = session.get();
    call_now_ = session->Now();
    apply = stage();
    session_ = nullptr;
    last = session->Commit(durability);
  } catch (...) {
    session_ = nullptr;
    hooks_.roll_back();
    throw;
  }
  hooks_.forget_roll_back();
  study_exists_ = study_exists_ || header_staged_;
  synced_ = last;
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
  if (storage_) SyncFrom(*storage_->Begin(LockMode::kShared));
}

}  // namespace gpbandit
