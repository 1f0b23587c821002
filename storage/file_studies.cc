// The scheme "file" of the storage registry (storage_registry.h): a plain path is a study file
// or a directory of study files.
#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/storage_registry.h"

namespace gpbandit {
namespace {

bool IsDirectory(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0 && S_ISDIR(info.st_mode);
}

bool IsDirectoryPath(const std::string& path) {
  return !path.empty() && (path.back() == '/' || IsDirectory(path));
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

std::string FilePathOf(const std::string& url) {
  const std::string prefix = "file://";
  if (url.compare(0, prefix.size(), prefix) != 0) return url;
  const std::string path = url.substr(prefix.size());
  if (path.empty() || path[0] != '/')
    throw std::invalid_argument("storage '" + RedactUserInformation(url) +
                                "': a file URL names a local path (file:///path/to/study.jsonl), "
                                "not a host");
  return path;
}

std::unique_ptr<StudyStorage> OpenFileStudy(const std::string& url, const std::string& study,
                                            const StorageOptions& options) {
  const std::string path = FilePathOf(url);
  if (path.empty()) throw std::invalid_argument("storage: empty path or URL");
  if (IsDirectoryPath(path)) {
    if (study.empty())
      throw std::invalid_argument("'" + RedactUrl(url) +
                                  "' is a directory, which holds studies by name: give a study "
                                  "name, or the path of a file");
    CheckFileStudyName(study);
    return std::make_unique<FileStudyStorage>(StudyFile(path, study), options.sync,
                                              options.lock_lease_seconds);
  }
  if (!study.empty())
    throw std::invalid_argument("storage '" + RedactUrl(url) +
                                "' is a file, which holds one study: give no "
                                "study name, or a directory to hold several studies");
  return std::make_unique<FileStudyStorage>(path, options.sync, options.lock_lease_seconds);
}

std::vector<StudySummary> ListFileStudies(const std::string& url, const StorageOptions&) {
  const std::string path = FilePathOf(url);
  std::vector<StudySummary> studies;
  if (!IsDirectoryPath(path)) {
    studies.push_back({"", CountRecords(path)});
    return studies;
  }
  DIR* dir = ::opendir(path.c_str());
  if (dir == nullptr) throw std::runtime_error("cannot list the directory '" + path + "'");
  while (const dirent* entry = ::readdir(dir)) {
    const std::string name = entry->d_name;
    const std::string suffix = ".jsonl";
    if (name.size() <= suffix.size() || name[0] == '.' ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
      continue;
    studies.push_back({name.substr(0, name.size() - suffix.size()), 0});
  }
  ::closedir(dir);
  std::sort(studies.begin(), studies.end(),
            [](const StudySummary& a, const StudySummary& b) { return a.name < b.name; });
  for (StudySummary& s : studies) s.records = CountRecords(StudyFile(path, s.name));
  return studies;
}

}  // namespace gpbandit
