// Studies held in this process's memory: what a user's own storage backend looks like
// (storage_registry.h), for the tests of the storage registry and of an Optimizer on a scheme
// registered at run time. A MemoryStudies object is the "server": every MemoryStudyStorage
// opened on it with one study name shares that study, and an exclusive session holds the
// study's mutex from Begin to Commit, so that threads exclude each other as processes do on a
// file. Records are kept as given, numbered 1, 2, ... in commit order (study_storage.h).
#ifndef GPBANDIT_TESTS_STORAGE_MEMORY_STORAGE_H_
#define GPBANDIT_TESTS_STORAGE_MEMORY_STORAGE_H_

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/storage/storage_registry.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace testing {

struct MemoryStudy {
  std::mutex mutex;  // held by an exclusive session
  std::string header;
  std::vector<StudyRecord> records;
};

// The studies of one memory "server", by name.
class MemoryStudies {
 public:
  std::shared_ptr<MemoryStudy> Get(const std::string& name) {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<MemoryStudy>& study = studies_[name];
    if (!study) study = std::make_shared<MemoryStudy>();
    return study;
  }

  // The studies that exist (have a header), with their record counts.
  std::vector<StudySummary> List() {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<StudySummary> out;
    for (const auto& entry : studies_) {
      std::lock_guard<std::mutex> study_lock(entry.second->mutex);
      if (!entry.second->header.empty())
        out.push_back({entry.first, static_cast<long long>(entry.second->records.size())});
    }
    return out;
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<MemoryStudy>> studies_;
};

class MemorySession : public StudySession {
 public:
  MemorySession(std::shared_ptr<MemoryStudy> study, LockMode mode)
      : study_(std::move(study)), exclusive_(mode == LockMode::kExclusive) {
    std::unique_lock<std::mutex> lock(study_->mutex);
    header_ = study_->header;
    records_ = study_->records;
    if (exclusive_) lock_ = std::move(lock);  // held until Commit or destruction
  }

  const std::string& header() const override { return header_; }

  std::vector<StudyRecord> ReadAfter(long long after) override {
    std::vector<StudyRecord> out;
    for (const StudyRecord& r : records_)
      if (r.sequence > after) out.push_back(r);
    return out;
  }

  double Now() override {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  }

  void CreateStudy(const std::string& header_json) override {
    RequireExclusive("CreateStudy");
    if (!header_.empty() || !staged_.empty() || !created_header_.empty())
      throw std::logic_error("CreateStudy: the study exists already or records are staged");
    created_header_ = header_json;
  }

  void Append(const std::string& record_json) override {
    RequireExclusive("Append");
    const nlohmann::json record = nlohmann::json::parse(record_json, nullptr, false);
    if (!record.is_object() || !record.contains("type") || !record["type"].is_string())
      throw std::invalid_argument("Append: not a JSON object with a string \"type\": " +
                                  record_json);
    staged_.push_back({0, record["type"].get<std::string>(), record_json, ""});
  }

  long long Commit(Durability) override {
    RequireExclusive("Commit");
    if (header_.empty() && created_header_.empty() && !staged_.empty())
      throw std::logic_error("Commit: records for a study that does not exist");
    if (!created_header_.empty()) study_->header = created_header_;
    for (StudyRecord& r : staged_) {
      r.sequence = static_cast<long long>(study_->records.size()) + 1;
      study_->records.push_back(r);
    }
    const long long last = static_cast<long long>(study_->records.size());
    staged_.clear();
    created_header_.clear();
    lock_.unlock();
    return last;
  }

 private:
  void RequireExclusive(const char* what) const {
    if (!exclusive_ || !lock_.owns_lock())
      throw std::logic_error(std::string(what) + " in a shared or ended session");
  }

  std::shared_ptr<MemoryStudy> study_;
  bool exclusive_;
  std::unique_lock<std::mutex> lock_;
  std::string header_;
  std::vector<StudyRecord> records_;
  std::string created_header_;
  std::vector<StudyRecord> staged_;
};

class MemoryStudyStorage : public StudyStorage {
 public:
  MemoryStudyStorage(std::string describe, std::shared_ptr<MemoryStudy> study)
      : describe_(std::move(describe)), study_(std::move(study)) {}

  std::string Describe() const override { return describe_; }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    return std::make_unique<MemorySession>(study_, mode);
  }

 private:
  std::string describe_;
  std::shared_ptr<MemoryStudy> study_;
};

// The scheme of a MemoryStudies server (which must outlive the registry's use of it): a URL
// memory://anything names the server, `study` (non-empty) one of its studies.
inline StorageScheme MemoryScheme(MemoryStudies* server) {
  StorageScheme scheme;
  scheme.open = [server](const std::string& url, const std::string& study,
                         const StorageOptions&) -> std::unique_ptr<StudyStorage> {
    if (study.empty()) throw std::invalid_argument("a memory study needs a name");
    return std::make_unique<MemoryStudyStorage>("study '" + study + "' in " + url,
                                                server->Get(study));
  };
  scheme.list = [server](const std::string&, const StorageOptions&) { return server->List(); };
  scheme.description = "studies held in this process's memory (tests)";
  return scheme;
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_STORAGE_MEMORY_STORAGE_H_
