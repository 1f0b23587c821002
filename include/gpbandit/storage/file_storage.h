// The file backend of a study: one JSON-Lines file (study/observation_log.h is its format) that
// several processes on one machine share with exactly the guarantees of one process.
//
// - An exclusive session holds the study's lock from Begin to its end: the syncing read and the
//   append of one Optimizer call happen under one lock, so that no record is lost and no two
//   workers see the same state when they choose. The lock is flock(2) on a lock file beside the
//   study ("<path>.lock", which exists only while an exclusive session holds the lock: the
//   holder removes it as it lets go, so that a study whose processes ended leaves no file beside
//   it, unless one was killed holding the lock; storage/lease_lock.h), with a
//   lease (StorageOptions::lock_lease_seconds): a process that dies lets go at once; one that
//   holds the lock beyond its lease without finishing (stopped with SIGSTOP, in a debugger) has
//   it broken by the next worker, and its session then writes nothing.
// - A shared session takes no lock: it reads the complete lines appended since the last read (a
//   line still being written, without its newline yet, is left for the next read). It warns
//   about a torn last line only when no writer holds the lock (then the line is a crash's).
// - The header is written exactly once: by the first exclusive session that finds the file
//   empty, with that session's records.
// - A commit is one write() of every staged line under the lock; a kDurable one then releases
//   the lock and fsyncs (StorageOptions::sync) before Commit returns, so that the disk's
//   latency does not hold up the other workers. A crash can only tear the last line; fsync
//   makes every earlier line durable too. Bytes are never truncated except a torn tail (a
//   last line without its newline, after a valid header), and only under the exclusive lock
//   (when no other process can be writing it). A file that is not empty and does not start
//   with a header record is not a study: every session on it throws std::runtime_error, and it
//   is never cut or appended to.
// - The file is opened once per storage object and read incrementally (each session reads the
//   bytes appended since the previous one).
// flock(2) locks belong to the open file description, so two storage objects in one process
// exclude each other like two processes. Every process on one study must lock it this way
// (gpbandit since lock leases; older versions locked the study file itself). Network file
// systems are out of scope.
//
// Thread safety: as every StudyStorage (study_storage.h): one thread at a time per object.
#ifndef GPBANDIT_STORAGE_FILE_STORAGE_H_
#define GPBANDIT_STORAGE_FILE_STORAGE_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

// The storage registry's scheme "file" (storage_registry.h), as OpenStudyStorage and
// ListStudies describe it (study_storage.h). `url` is a plain path or file:///path.
std::unique_ptr<StudyStorage> OpenFileStudy(const std::string& url, const std::string& study,
                                            const StorageOptions& options);
std::vector<StudySummary> ListFileStudies(const std::string& url, const StorageOptions& options);
// The path a URL of the scheme "file" names: a plain path as given, file:///a/b -> /a/b
// (RFC 8089, local files only). Throws std::invalid_argument for a file URL with a host.
std::string FilePathOf(const std::string& url);

class LeaseLock;

class FileStudyStorage : public StudyStorage {
 public:
  // The file need not exist: a shared session then sees no study, and the first exclusive
  // session creates the file. sync: fsync each commit. lock_lease_seconds: the lease on the
  // study's lock (StorageOptions::lock_lease_seconds).
  FileStudyStorage(std::string path, bool sync, double lock_lease_seconds = 10.0);
  ~FileStudyStorage() override;

  // The path (through RedactUrl, like every message that shows it).
  std::string Describe() const override { return RedactUrl(path_); }
  std::unique_ptr<StudySession> Begin(LockMode mode) override;
  void CheckWritable() const override;

 private:
  friend class FileStudySession;
  struct Cursor {
    long long sequence = -1;  // the last record read (0: the header), -1: nothing read yet
    long long bytes = 0;      // where the next record starts
    long long lines = 0;      // lines before it (for messages)
  };

  // Opens the file (creating it when `create`); false when it does not exist and !create.
  bool EnsureOpen(bool writable);
  // Reads the records after the cursor up to the end of the file (advancing the cursor);
  // repairs a torn tail when `repair` (exclusive lock held).
  std::vector<StudyRecord> ReadNew(bool repair);
  // Every record after `after`, read from the start of the file (cursor untouched).
  std::vector<StudyRecord> ReadAllAfter(long long after);
  // Parses `text`, the file from *cursor on, into records (the header into *header); advances
  // *cursor past the intact lines and cuts a torn tail off when `repair`.
  std::vector<StudyRecord> Parse(const std::string& text, bool repair, Cursor* cursor,
                                 std::string* header);
  // Appends `text` (`records` complete lines) at the end (exclusive lock held).
  long long Append(const std::string& text, long long records);
  // fsync (no lock needed).
  void SyncToDisk();

  std::string path_;
  bool sync_;
  std::unique_ptr<LeaseLock> lock_;
  int fd_ = -1;
  bool writable_ = false;
  Cursor cursor_;
  std::string header_;
  long long warned_torn_line_ = -1;  // warn once per torn line
};

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_FILE_STORAGE_H_
