// Where a study lives: the storage interface behind the Optimizer's records, so that several
// workers (threads, processes, machines) share one study.
//
// A study is a header (the JSON object that rebuilds the optimizer: domain, strategy, options,
// kernel; study/log_header.h) and a sequence of records, each one JSON object with a string
// field "type" (study/observation_log.h lists the kinds). The storage does not interpret
// records beyond their type: a new record kind or field flows through unchanged. Records are
// numbered 1, 2, ... in the order they were committed (the header is number 0), and every
// worker replays them in that order.
//
// Protocol (the Optimizer follows it for every ask and tell):
//   1. Begin(kExclusive): blocks until this worker holds the study's exclusive lock;
//   2. ReadAfter(n): the records this worker has not replayed yet;
//   3. Append(...) any number of records (staged, invisible to others);
//   4. Commit(durability): the staged records become visible, in order, all of them or none,
//      and (kDurable) durable; then the session ends and the lock is released.
// Destroying a session without Commit drops what it staged and releases the lock. A worker that
// dies mid-session loses its lock (the kernel drops a file lock with the process; the database
// rolls back the transaction of a closed connection) and nothing it staged is committed. A
// worker that holds the lock beyond its lease (StorageOptions::lock_lease_seconds) without
// finishing — stopped, in a debugger — loses it too, so that the others go on; its Commit then
// throws StorageInterrupted and commits nothing.
// Begin(kShared) gives a read-only session that takes no lock (files: complete lines only;
// PostgreSQL: committed records only): for reading ahead of the exclusive lock, for the work an
// Optimizer does outside the lock, and for read-only commands.
//
// Backends, chosen by the scheme of the storage's URL (storage_registry.h, where users add their
// own):
//   file        a path: one JSON-Lines file per study (study/observation_log.h is its format),
//               locked with flock(2) on a lock file beside it. For processes on one machine;
//               network file systems are out of scope (their locks and fsync are not reliable
//               enough).
//   postgresql  tables gpbandit_studies and gpbandit_records; each session is one transaction
//               that locks the study's row (SELECT ... FOR UPDATE). For workers on many machines.
//
// Errors: std::runtime_error for a storage that cannot be used (no such file or directory,
// connection refused, wrong credentials, a corrupt record); StorageInterrupted (below) when a
// session was lost part-way and nothing of it was committed, so that the whole call can be
// retried. Messages never contain a password (RedactUrl).
//
// Thread safety: one StudyStorage and its sessions are used by one thread at a time (the
// Optimizer serializes its calls); separate StudyStorage objects on one study exclude each other
// through the lock exactly as separate processes do.
#ifndef GPBANDIT_STORAGE_STUDY_STORAGE_H_
#define GPBANDIT_STORAGE_STUDY_STORAGE_H_

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {

// One record of a study.
struct StudyRecord {
  long long sequence = 0;  // 1, 2, ... in commit order
  std::string type;        // the record's "type" field
  std::string json;        // the whole record: one JSON object, no newline
  std::string location;    // where it is, for messages: "runs.jsonl:7" (files); "" elsewhere
};

// A session was lost part-way (a database restarting, a connection reset, another worker
// creating the same study first): nothing it staged was committed, and the call that used it
// may be retried from the start (Begin waits for the storage to come back).
class StorageInterrupted : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The study holds fewer records than this storage object has delivered or committed, or other
// ones under their sequence numbers: a database server crashed and forgot its last asynchronous
// commits (Durability::kVisible), and records committed since took their numbers. What the
// reader replayed is no longer the study's prefix: it must read the study again from the start
// (ReadAfter(0), which then succeeds). Thrown by ReadAfter.
class StudyRewound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class LockMode { kShared, kExclusive };

// What a commit waits for.
enum class Durability {
  // On disk before Commit returns: fsync of the file (StorageOptions::sync), or a database
  // commit with synchronous_commit on. Acknowledged data (tells).
  kDurable,
  // Visible to every worker at once and on disk shortly after, without waiting: no fsync, or
  // synchronous_commit = off for this transaction. A crash of the machine (file) or of the
  // database server (not of a worker) may forget the last such commits, never a part of one,
  // and never one that a later kDurable commit followed: the study stays a consistent prefix.
  // For records whose loss costs little (a pending point simply is not pending any more).
  kVisible,
};

class StudySession {
 public:
  virtual ~StudySession() = default;

  // The study's header record (sequence 0), or "" when the study does not exist yet.
  virtual const std::string& header() const = 0;
  // The records with sequence > after, in order. Throws std::runtime_error for a corrupt record,
  // and StudyRewound when the study no longer holds the last record this storage object read or
  // committed (a database crash forgot it; the caller reads again from 0).
  virtual std::vector<StudyRecord> ReadAfter(long long after) = 0;
  // The study's clock, seconds since the Unix epoch: the database server's for PostgreSQL (one
  // clock for every machine), this machine's for files. Leases are measured on it.
  virtual double Now() = 0;

  // Exclusive sessions only (std::logic_error otherwise). Creates the study with this header
  // at Commit (the study must not exist: header() == ""); staged before any Append.
  virtual void CreateStudy(const std::string& header_json) = 0;
  // Stages one record (a JSON object with a string "type"; std::invalid_argument otherwise).
  virtual void Append(const std::string& record_json) = 0;
  // Makes the staged records visible, in order, and as durable as asked (Durability), and ends
  // the session; returns the sequence number of the last record committed (that of the last
  // record read when nothing was staged). The caller must have read every record (ReadAfter)
  // first: its records follow them. Throws StorageInterrupted if nothing was committed and the
  // call may be retried, std::runtime_error for a failure that retrying cannot mend (a full
  // disk).
  virtual long long Commit(Durability durability) = 0;
};

class StudyStorage {
 public:
  virtual ~StudyStorage() = default;

  // Where the study lives, for messages: the file's path, or the database URL without its
  // password and the study's name.
  virtual std::string Describe() const = 0;
  // Starts a session (see the protocol above) that uses this object: it must outlive the session.
  // Blocks (kExclusive) while another worker holds the study. A lost database connection is retried
  // with backoff (reported to the warning sink) up to StorageOptions::reconnect_timeout_seconds,
  // then std::runtime_error.
  virtual std::unique_ptr<StudySession> Begin(LockMode mode) = 0;
  // Throws std::runtime_error, naming the path and the reason, when this process could not
  // write the study: a file that exists but cannot be read and written, or a new one whose
  // directory is missing or cannot be written. Reads and writes nothing. By default nothing is
  // checked (a database's permissions show at its first write).
  virtual void CheckWritable() const {}
};

struct StorageOptions {
  // fsync every commit of a file study before Commit returns (the database always commits
  // durably). Turn off only for benchmarks on throw-away files. Default true.
  bool sync = true;
  // How long Begin keeps retrying a database that became unreachable after the storage was
  // opened (a server restarting), in seconds: >= 0. The first connection is not retried: a
  // wrong URL, a refused connection or wrong credentials fail at once. Default 300.
  double reconnect_timeout_seconds = 300.0;
  // The lease on a study's exclusive lock, in seconds: a worker that holds the lock this long
  // without finishing its session (stopped with SIGSTOP or in a debugger, a machine swapped
  // out) loses it, so that the others go on. A database ends the holder's transaction when it
  // has been idle this long (idle_in_transaction_session_timeout); on a file, the other
  // workers break a lock whose holder has not changed in this time. The holder's session then
  // commits nothing (Commit throws StorageInterrupted, and the call is retried). Sessions of
  // the Optimizer hold the lock for milliseconds (docs/shared_studies.md); keep the lease well
  // above the longest you expect. > 0, or infinity for no lease. Default 10.
  double lock_lease_seconds = 10.0;

  bool IsValid(std::string* error) const;
};

// `url` with its credentials replaced by "***", by the rule of its scheme (StorageRegistry::
// Redact): the password of user:PASSWORD@ and of password=... parameters in a PostgreSQL URL;
// then, whatever the scheme or its letter case (POSTGRESQL://, an unregistered one, a plain
// path), the user information's password and every password=... parameter (a URL's query, or
// libpq's key=value words). Every message that shows a storage's path or URL shows it through
// this function.
std::string RedactUrl(const std::string& url);

// Opens the study `study` in the storage at `url`, without creating it (an Optimizer creates a
// study with its first record; Optimizer::Open requires an existing one), through the storage
// registry's scheme of `url` (StorageRegistry::Default().Open). The built-in schemes:
//   postgresql://... or postgres://...   a libpq connection URI (user, password, host, port,
//       database, sslmode and every other libpq parameter pass through; so do PGPASSWORD,
//       PGPASSFILE and the other PG* environment variables). `study`: any non-empty name.
//   a path (or file:///path): an existing directory, or a path ending in '/': the study is the
//       file <path>/<study>.jsonl; `study`: letters, digits, '.', '_' and '-', not starting
//       with '.'. Any other path: that file is the study; `study` must be empty.
// Connects at once (a database): throws std::runtime_error naming the redacted URL for a
// refused connection or failed authentication, and std::invalid_argument for a bad study name
// (on every backend: one holding a control character such as a newline or a tab, checked
// before anything is opened or connected), a scheme that is not registered (the message names
// it) or not available in this build (a database URL in a build without PostgreSQL support).
std::unique_ptr<StudyStorage> OpenStudyStorage(const std::string& url, const std::string& study,
                                               const StorageOptions& options = StorageOptions());

// Summary of one study of a storage, for listings.
struct StudySummary {
  std::string name;       // "" for a storage that is a single file
  long long records = 0;  // records after the header
};

// The studies of the storage at `url` (a database, a directory, or a single file), by name,
// through the registry's scheme of `url` (StorageRegistry::Default().List).
std::vector<StudySummary> ListStudies(const std::string& url,
                                      const StorageOptions& options = StorageOptions());

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_STUDY_STORAGE_H_
