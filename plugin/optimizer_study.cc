// The Optimizer's side of a study's storage (optimizer.h, "Shared studies"): replaying what
// other workers appended, running each mutating call under the study's lock, leases.
#include <unistd.h>

#include <chrono>
#include <iostream>
#include <stdexcept>

#include "gpbandit/plugin/log_header.h"
#include "gpbandit/plugin/observation_log.h"
#include "gpbandit/plugin/optimizer.h"
#include "gpbandit/storage/study_storage.h"

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

std::unique_ptr<StudyStorage> Optimizer::StorageFromOptions(const OptimizerOptions& options) {
  if (options.log_path.empty() && options.storage.empty()) return nullptr;
  StorageOptions storage_options;
  storage_options.sync = options.sync_log;
  storage_options.reconnect_timeout_seconds = options.worker.reconnect_timeout_seconds;
  if (!options.log_path.empty()) return OpenStudyStorage(options.log_path, "", storage_options);
  return OpenStudyStorage(options.storage, options.study, storage_options);
}

void Optimizer::AttachStorage(std::unique_ptr<StudyStorage> storage) {
  storage_ = std::move(storage);
  worker_id_ = options_.worker.id.empty() ? DefaultWorkerId() : options_.worker.id;
  SyncFrom(*storage_->Begin(LockMode::kShared));
}

void Optimizer::SyncFrom(StudySession& session) {
  if (!study_exists_) {
    if (session.header().empty()) return;
    CheckStudyHeader(session.header());
    study_exists_ = true;
  }
  for (const StudyRecord& record : session.ReadAfter(synced_)) {
    // A record that is valid JSON but wrong (a fit with too few parameters, a point outside
    // the box) is named by its place in the study, so that a person can find it.
    try {
      Replay(ParseLogRecord(record.json));
    } catch (const std::exception& e) {
      const std::string where = record.location.empty() ? storage_->Describe() + ": record " +
                                                              std::to_string(record.sequence)
                                                        : record.location;
      throw std::runtime_error(where + ": " + record.type + " record: " + e.what());
    }
    synced_ = record.sequence;
  }
}

void Optimizer::ReadAhead() {
  try {
    SyncFrom(*storage_->Begin(LockMode::kShared));
  } catch (const StorageInterrupted&) {
    // The exclusive attempt that follows waits for the storage and reads everything.
  }
}

void Optimizer::InStudy(const std::function<std::function<void()>()>& stage,
                        Durability durability) {
  if (!storage_) {
    call_now_ = WallClock();
    std::function<void()> apply;
    try {
      apply = stage();
    } catch (...) {
      RestoreFit();
      throw;
    }
    saved_fit_.reset();
    apply();
    return;
  }
  ReadAhead();
  for (int attempt = 1;; ++attempt) {
    try {
      AttemptInStudy(stage, durability);
      return;
    } catch (const StorageInterrupted& e) {
      if (attempt >= kMaxAttempts)
        throw std::runtime_error(storage_->Describe() + ": gave up after " +
                                 std::to_string(attempt) + " interrupted attempts: " + e.what());
      std::cerr << "gpbandit: warning: " << e.what() << "; retrying the call\n";
    }
  }
}

// One attempt of InStudy. Until the commit succeeds, a failure leaves this optimizer as it was
// (but for the records of others it replayed, which are committed).
void Optimizer::AttemptInStudy(const std::function<std::function<void()>()>& stage,
                               Durability durability) {
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
    RestoreFit();
    throw;
  }
  saved_fit_.reset();
  study_exists_ = study_exists_ || header_staged_;
  synced_ = last;
  apply();
}

// The header of a new study goes with its first record, so that a call that writes nothing
// creates nothing.
void Optimizer::Stage(const std::string& record_json) {
  if (session_ == nullptr) return;
  if (!study_exists_ && session_->header().empty() && !header_staged_) {
    session_->CreateStudy(FormatLogHeader(MakeHeader()));
    header_staged_ = true;
  }
  session_->Append(record_json);
}

void Optimizer::SaveFit() {
  auto saved = std::make_unique<FitState>();
  saved->gp = std::make_unique<GaussianProcess>(*gp_);
  for (const auto& c : constraint_gps_) saved->constraint_gps.push_back(*c);
  saved->last_fit_observations = last_fit_observations_;
  saved->has_fit_report = has_fit_report_;
  saved->last_fit_report = last_fit_report_;
  saved_fit_ = std::move(saved);
}

void Optimizer::RestoreFit() {
  if (!saved_fit_) return;
  *gp_ = std::move(*saved_fit_->gp);
  for (std::size_t i = 0; i < saved_fit_->constraint_gps.size(); ++i)
    *constraint_gps_[i] = std::move(saved_fit_->constraint_gps[i]);
  last_fit_observations_ = saved_fit_->last_fit_observations;
  has_fit_report_ = saved_fit_->has_fit_report;
  last_fit_report_ = std::move(saved_fit_->last_fit_report);
  saved_fit_.reset();
}

bool Optimizer::Release(const Eigen::VectorXd& x, const Eigen::VectorXd& context) {
  std::lock_guard<std::mutex> lock(mutex_);
  domain_.CheckAction(x, "x");
  domain_.CheckContext(context, "context");
  bool released = false;
  InStudy([&] {
    released = PendingIndex(x, context) >= 0;
    if (released) Stage(FormatReleaseRecord(x, context));
    return std::function<void()>([&] {
      if (released) RemovePending(x, context);
    });
  });
  return released;
}

bool Optimizer::CreateStudy() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!storage_) throw std::logic_error("CreateStudy: the optimizer has no storage");
  bool created = false;
  InStudy([&] {
    created = !study_exists_;
    if (created) {
      session_->CreateStudy(FormatLogHeader(MakeHeader()));
      header_staged_ = true;
    }
    return std::function<void()>([] {});
  });
  return created;
}

void Optimizer::Sync() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (storage_) SyncFrom(*storage_->Begin(LockMode::kShared));
}

std::vector<PendingPoint> Optimizer::pending_points() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return pending_;
}

}  // namespace gpbandit
