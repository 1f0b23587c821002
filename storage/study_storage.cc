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
#include "storage/study_name.h"

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
  return true;
}

bool IsDatabaseUrl(const std::string& url) {
  return StartsWith(url, "postgresql://") || StartsWith(url, "postgres://");
}

std::unique_ptr<StudyStorage> OpenStudyStorage(const std::string& url, const std::string& study,
                                               const StorageOptions& options) {
  std::string error;
  if (!options.IsValid(&error)) throw std::invalid_argument("StorageOptions: " + error);
  if (url.empty()) throw std::invalid_argument("storage: empty path or URL");
  CheckStudyName(study);
  if (IsDatabaseUrl(url)) return OpenPostgresStudy(url, study, options);
  if (IsDirectoryUrl(url)) {
    if (study.empty())
      throw std::invalid_argument("'" + RedactUrl(url) +
                                  "' is a directory, which holds studies by name: give a study "
                                  "name, or the path of a file");
    CheckFileStudyName(study);
    return std::make_unique<FileStudyStorage>(StudyFile(url, study), options.sync);
  }
  if (!study.empty())
    throw std::invalid_argument("storage '" + RedactUrl(url) +
                                "' is a file, which holds one study: give no "
                                "study name, or a directory to hold several studies");
  return std::make_unique<FileStudyStorage>(url, options.sync);
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
