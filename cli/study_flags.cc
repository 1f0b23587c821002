#include "cli/study_flags.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/storage_registry.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace cli {

void AddStudyFlags(po::options_description* desc, StudyFlags* f, bool with_log, bool with_worker) {
  if (with_log) {
    desc->add_options()("log", po::value(&f->log_path),
                        "the study's JSON-Lines log (created by the first suggest)");
  }
  desc->add_options()(
      "storage", po::value(&f->storage),
      "where the study lives: a .jsonl file, a directory of studies, or a postgresql:// URL "
      "(credentials through libpq: the URL, PGPASSWORD, PGPASSFILE)")(
      "study", po::value(&f->study), "the study's name (databases and directories)");
  if (with_worker) {
    desc->add_options()("lease", ValueWithDefault(&f->lease_seconds),
                        "seconds a handed-out point counts as in progress (inf: forever)")(
        "worker-id", po::value(&f->worker_id),
        "the name this worker's pending points carry [host:pid]");
  }
}

bool IsLocalStorage(const std::string& url) {
  return StorageRegistry::SchemeOf(url) == kPathScheme;
}

void CheckStudyFlags(const StudyFlags& f, bool with_log) {
  if (with_log && f.log_path.empty() == f.storage.empty())
    throw UsageError("give one of --log FILE and --storage URL");
  if (!with_log && f.storage.empty()) throw UsageError("--storage is required");
  if (!f.study.empty() && f.storage.empty()) throw UsageError("--study goes with --storage");
  if (!f.storage.empty() && !IsLocalStorage(f.storage) && f.study.empty())
    throw UsageError("--study is required with a database (--storage " + RedactUrl(f.storage) +
                     ")");
  if (!(f.lease_seconds > 0))
    throw UsageError("--lease " + FormatDouble(f.lease_seconds) + " must be > 0 (inf: forever)");
}

void CheckStudyAccess(const StudyFlags& f, bool writes) {
  const std::string flag = f.log_path.empty() ? "--storage" : "--log";
  const std::string url = f.log_path.empty() ? f.storage : f.log_path;
  if (!IsLocalStorage(url)) return;
  const std::string path = FilePathOf(url);
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    if (errno != ENOENT)
      throw InputError(flag + " " + path + ": cannot reach it: " + std::strerror(errno));
    if (writes) RequireWritableFile(flag, path);  // a new study: its directory must take it
    return;  // reading a study that does not exist: OpenExistingStudy says so
  }
  // A directory of studies: its study files are the storage's business (file_storage.h).
  const int mode = S_ISDIR(info.st_mode) ? (R_OK | X_OK) : (R_OK | (writes ? W_OK : 0));
  if (access(path.c_str(), mode) != 0)
    throw InputError(flag + " " + path + ": cannot " + (writes ? "write to" : "read") +
                     " it: " + std::strerror(errno));
  // A writer takes the study's lock file beside it (<study>.lock), which exists only while
  // it is held: the folder must take a new file.
  if (writes && !S_ISDIR(info.st_mode) && access(DirectoryOf(path).c_str(), W_OK | X_OK) != 0)
    throw InputError(flag + " " + path + ": cannot write to it: its lock file " + path +
                     ".lock cannot be created: the directory " + DirectoryOf(path) +
                     " is not writable (" + std::strerror(errno) + ")");
}

bool LogHasRecords(const std::string& log_path) {
  struct stat info;
  if (stat(log_path.c_str(), &info) == 0) return info.st_size > 0;
  if (errno == ENOENT) return false;
  throw InputError("--log " + log_path + ": cannot reach it: " + std::strerror(errno));
}

std::string DescribeStudy(const StudyFlags& f) {
  if (!f.log_path.empty()) return f.log_path;
  if (f.study.empty()) return f.storage;
  return "study '" + f.study + "' in " + RedactUrl(f.storage);
}

WorkerOptions WorkerFromFlags(const StudyFlags& f) {
  WorkerOptions worker;
  worker.pending_lease_seconds = f.lease_seconds;
  worker.id = f.worker_id;
  worker.fidelity = f.worker_fidelity;
  return worker;
}

double WallClockSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

std::unique_ptr<Optimizer> OpenExistingStudy(const StudyFlags& f) {
  try {
    if (!f.log_path.empty()) return Optimizer::Open(f.log_path, "", nullptr, WorkerFromFlags(f));
    return Optimizer::Open(f.storage, f.study, nullptr, WorkerFromFlags(f));
  } catch (const std::runtime_error& e) {
    throw InputError(e.what());
  }
}

void RequireObservations(const Optimizer& optimizer, const StudyFlags& f, const std::string& what) {
  if (optimizer.num_accepted() > 0) return;
  throw InputError(DescribeStudy(f) + " holds no observations yet (" +
                   std::to_string(optimizer.num_failed()) + " failed): nothing " + what +
                   "; observe a value first");
}

UsageError TrialNotPending(long trial, const std::string& where) {
  return UsageError("--trial " + std::to_string(trial) + " is not pending in " + where +
                    " (told, released or cleared, or never handed out; gpbandit pending lists "
                    "the pending trials)");
}

void RequirePendingTrial(const Optimizer& optimizer, long trial, const std::string& where) {
  RequireAtLeast("--trial", trial, 0);
  for (const PendingPoint& p : optimizer.pending_points())
    if (p.trial == trial) return;
  throw TrialNotPending(trial, where);
}

}  // namespace cli
}  // namespace gpbandit
