#include "gpbandit/examples/cli/study_flags.h"

#include <chrono>
#include <cmath>
#include <limits>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace cli {

void AddStudyFlags(po::options_description* desc, StudyFlags* f, bool with_log,
                   bool with_worker) {
  if (with_log) {
    desc->add_options()("log", po::value(&f->log_path),
                        "the study's JSON-Lines log (created by the first suggest)");
  }
  desc->add_options()
      ("storage", po::value(&f->storage),
       "where the study lives: a .jsonl file, a directory of studies, or a postgresql:// URL "
       "(credentials through libpq: the URL, PGPASSWORD, PGPASSFILE)")
      ("study", po::value(&f->study), "the study's name (databases and directories)");
  if (with_worker) {
    desc->add_options()
        ("lease", po::value(&f->lease_seconds)->default_value(f->lease_seconds),
         "seconds a handed-out point counts as in progress (inf: forever)")
        ("worker-id", po::value(&f->worker_id),
         "the name this worker's pending points carry [host:pid]");
  }
}

void CheckStudyFlags(const StudyFlags& f, bool with_log) {
  if (with_log && f.log_path.empty() == f.storage.empty())
    throw UsageError("give one of --log FILE and --storage URL");
  if (!with_log && f.storage.empty()) throw UsageError("--storage is required");
  if (!f.study.empty() && f.storage.empty()) throw UsageError("--study goes with --storage");
  if (!f.storage.empty() && IsDatabaseUrl(f.storage) && f.study.empty())
    throw UsageError("--study is required with a database (--storage " + RedactUrl(f.storage) +
                     ")");
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
  return worker;
}

double WallClockSeconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::unique_ptr<Optimizer> OpenExistingStudy(const StudyFlags& f) {
  try {
    if (!f.log_path.empty()) return Optimizer::Open(f.log_path, "", nullptr, WorkerFromFlags(f));
    return Optimizer::Open(f.storage, f.study, nullptr, WorkerFromFlags(f));
  } catch (const std::runtime_error& e) {
    throw UsageError(e.what());
  }
}

}  // namespace cli
}  // namespace gpbandit
