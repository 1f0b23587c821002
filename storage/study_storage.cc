#include "gpbandit/storage/study_storage.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <sstream>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/postgres_storage.h"

namespace gpbandit {
namespace {

bool StartsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool IsDirectory(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool IsDirectoryUrl(const std::string& url) {
  return !url.empty() && (url.back() == '/' || IsDirectory(url));
}

// A study of a directory is a file name: no separators, no hidden or relative names.
void CheckFileStudyName(const std::string& study) {
  const bool ok =
      !study.empty() && study[0] != '.' && std::all_of(study.begin(), study.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
      });
  if (!ok)
    throw std::invalid_argument("study name '" + study +
                                "': in a directory, a study is a file name (letters, digits, '.', "
                                "'_', '-', not starting with '.')");
}

std::string StudyFile(const std::string& directory, const std::string& study) {
  return directory + (directory.back() == '/' ? "" : "/") + study + ".jsonl";
}

long long CountRecords(const std::string& path) {
  FileStudyStorage storage(path, false);
  const std::unique_ptr<StudySession> session = storage.Begin(LockMode::kShared);
  return session->header().empty() ? 0 : static_cast<long long>(session->ReadAfter(0).size());
}

}  // namespace

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

bool IsDatabaseUrl(const std::string& url) {
  return StartsWith(url, "postgresql://") || StartsWith(url, "postgres://");
}

std::string RedactUrl(const std::string& url) {
  if (!IsDatabaseUrl(url)) return url;
  std::string out = url;
  const std::size_t authority = out.find("://") + 3;
  const std::size_t authority_end = std::min(out.find_first_of("/?#", authority), out.size());
  const std::size_t at = out.rfind('@', authority_end);
  if (at != std::string::npos && at >= authority) {
    const std::size_t colon = out.find(':', authority);
    if (colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  // password=... among the query parameters.
  for (std::size_t pos = out.find('?'); pos != std::string::npos; pos = out.find('&', pos + 1)) {
    if (out.compare(pos + 1, 9, "password=") != 0) continue;
    const std::size_t value = pos + 10;
    const std::size_t end = std::min(out.find('&', value), out.size());
    out.replace(value, end - value, "***");
  }
  return out;
}

std::unique_ptr<StudyStorage> OpenStudyStorage(const std::string& url, const std::string& study,
                                               const StorageOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("StorageOptions: " + error);
  if (url.empty()) throw std::invalid_argument("storage: empty path or URL");
  if (IsDatabaseUrl(url)) return OpenPostgresStudy(url, study, options);
  if (IsDirectoryUrl(url)) {
    CheckFileStudyName(study);
    return std::make_unique<FileStudyStorage>(StudyFile(url, study), options.sync,
                                              options.lock_lease_seconds);
  }
  if (!study.empty())
    throw std::invalid_argument("storage '" + url +
                                "' is a file, which holds one study: give no "
                                "study name, or a directory to hold several studies");
  return std::make_unique<FileStudyStorage>(url, options.sync, options.lock_lease_seconds);
}

std::vector<StudySummary> ListStudies(const std::string& url, const StorageOptions& options) {
  if (IsDatabaseUrl(url)) return ListPostgresStudies(url, options);
  std::vector<StudySummary> studies;
  if (!IsDirectoryUrl(url)) {
    studies.push_back({"", CountRecords(url)});
    return studies;
  }
  DIR* dir = ::opendir(url.c_str());
  if (dir == nullptr) throw std::runtime_error("cannot list the directory '" + url + "'");
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::string suffix = ".jsonl";
    if (name.size() <= suffix.size() || name[0] == '.' ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    const std::string study = name.substr(0, name.size() - suffix.size());
    studies.push_back({study, 0});
  }
  ::closedir(dir);
  std::sort(studies.begin(), studies.end(),
            [](const StudySummary& a, const StudySummary& b) { return a.name < b.name; });
  for (StudySummary& s : studies) s.records = CountRecords(StudyFile(url, s.name));
  return studies;
}

}  // namespace gpbandit
