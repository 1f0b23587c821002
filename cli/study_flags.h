// The flags that name a study and this process's part in it, shared by suggest, observe,
// worker, pending and study: --log FILE (a JSON-Lines log, created by the first suggest) or
// --storage URL [--study NAME] (a file, a directory of studies, or a postgresql:// URL; see
// storage/study_storage.h), and the worker's lease and name.
#ifndef GPBANDIT_CLI_STUDY_FLAGS_H_
#define GPBANDIT_CLI_STUDY_FLAGS_H_

#include <memory>
#include <string>

#include "cli/command.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

struct StudyFlags {
  std::string log_path, storage, study;
  double lease_seconds = WorkerOptions().pending_lease_seconds;
  std::string worker_id;
  // WorkerOptions::fidelity: set by a command's bare --fidelity NAME (suggest, worker).
  std::string worker_fidelity;
};

// with_log: also --log (suggest, observe, pending); with_worker: --lease and --worker-id.
void AddStudyFlags(po::options_description* desc, StudyFlags* f, bool with_log, bool with_worker);

// True when the storage is a file or a directory on this machine (a path or file:///path, the
// storage registry's scheme "file"), false for a database or any other scheme.
bool IsLocalStorage(const std::string& url);

// Throws UsageError unless exactly one of --log and --storage is given (or --storage alone when
// !with_log), --study goes with --storage, and --lease is > 0.
void CheckStudyFlags(const StudyFlags& f, bool with_log);

// For a study in a file or directory (not a database): throws InputError, before anything is
// read or written, when this process cannot use it as the command needs: an existing file or
// directory that cannot be read (or, for `writes`, written), or for `writes` a new study whose
// directory is missing or read-only. New and existing studies fail alike (exit 2).
void CheckStudyAccess(const StudyFlags& f, bool writes);

// True if the --log file exists and is not empty; throws InputError if it cannot be examined
// (a directory on its path that this process may not enter).
bool LogHasRecords(const std::string& log_path);

// "runs.jsonl", or "study 'x' in postgresql://host/db" (passwords redacted).
std::string DescribeStudy(const StudyFlags& f);

WorkerOptions WorkerFromFlags(const StudyFlags& f);

// This machine's clock, seconds since the Unix epoch (leases are compared with it here; a
// database measures them on its server's clock).
double WallClockSeconds();

// Opens the existing study (Optimizer::Open, or Resume for --log). Every failure to reach it --
// storage unreachable, wrong credentials, no such study, an unregistered strategy, a corrupt
// record -- is an InputError (exit 2), and nothing is written.
std::unique_ptr<Optimizer> OpenExistingStudy(const StudyFlags& f);

// Throws InputError "WHERE holds no observations yet: nothing WHAT" (exit 2, a study that
// cannot be used as given) unless the study has an accepted observation; `what` is "to
// recommend", "to draw".
void RequireObservations(const Optimizer& optimizer, const StudyFlags& f, const std::string& what);

// The error of a --trial that has no pending point in the study described by `where` (told,
// released or cleared, or never handed out): "--trial N is not pending in WHERE ...".
UsageError TrialNotPending(long trial, const std::string& where);

// Throws UsageError (TrialNotPending, or "--trial N must be >= 0") unless one of the
// optimizer's pending points has trial number `trial`; checked before anything is written.
void RequirePendingTrial(const Optimizer& optimizer, long trial, const std::string& where);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_STUDY_FLAGS_H_
