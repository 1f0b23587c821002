#include "gpbandit/storage/study_storage.h"

#include <cmath>

#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {

bool StorageOptions::IsValid(std::string* error) const {
  if (!(reconnect_timeout_seconds >= 0.0) || std::isinf(reconnect_timeout_seconds)) {
    if (error)
      *error = "reconnect_timeout_seconds must be finite and >= 0, got " +
               std::to_string(reconnect_timeout_seconds);
    return false;
  }
  if (!(lock_lease_seconds > 0.0)) {
    if (error)
      *error =
          "lock_lease_seconds must be > 0 (or infinity), got " + std::to_string(lock_lease_seconds);
    return false;
  }
  return true;
}

std::string RedactUrl(const std::string& url) { return StorageRegistry::Default().Redact(url); }

std::unique_ptr<StudyStorage> OpenStudyStorage(const std::string& url, const std::string& study,
                                               const StorageOptions& options) {
  return StorageRegistry::Default().Open(url, study, options);
}

std::vector<StudySummary> ListStudies(const std::string& url, const StorageOptions& options) {
  return StorageRegistry::Default().List(url, options);
}

}  // namespace gpbandit
