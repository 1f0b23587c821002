// The PostgreSQL backend of a study (study_storage.h), for workers on many machines: the schemes
// postgresql:// and postgres:// of the storage registry (storage_registry.h). Built when
// libpqxx is found (pkg-config libpqxx); otherwise OpenPostgresStudy and ListPostgresStudies
// throw std::invalid_argument saying that the build has no PostgreSQL support.
//
// Tables (created with the first study, under an advisory lock so that concurrent creators do
// not collide):
//   gpbandit_studies (id, name UNIQUE, header, last_sequence, commit_id, created_at)
//   gpbandit_records (study_id, sequence, type, body, commit_id), primary key (study_id,
//                     sequence); body is the record's JSON text, byte for byte.
// An exclusive session is one READ COMMITTED transaction that starts by locking the study's row
// (SELECT ... FOR UPDATE): the sessions of one study are serialized, every session reads all
// records committed before it, and its records are numbered after them. A kVisible commit sets
// synchronous_commit = off for its transaction (a later synchronous commit flushes it too). A
// shared session reads committed records without a lock. Every statement is parameterized.
//
// Credentials come only through libpq (the URL, PGPASSWORD, PGPASSFILE, ~/.pgpass and the other
// PG* variables); messages show the URL through RedactUrl. sslmode and every other libpq
// parameter of the URL pass through unchanged.
//
// A lost connection (the server restarting, a network reset) makes the session throw
// StorageInterrupted; the next Begin reconnects with exponential backoff (up to
// StorageOptions::reconnect_timeout_seconds, reporting to the warning sink). A commit whose outcome
// was lost with the connection is resolved after reconnecting: each commit carries a random id
// stored with its first record, so Commit either confirms that it landed or reports that it did
// not (never both, never a duplicate).
//
// A worker stopped while it holds a study's lock (SIGSTOP, a debugger) sits idle in its
// transaction; the server ends it after the lease (idle_in_transaction_session_timeout =
// StorageOptions::lock_lease_seconds). A worker that has waited 250 ms for the lock ends at once
// the sessions of stopped gpbandit workers of its own host that sit idle in a transaction (named
// "gpbandit host:pid" in pg_stat_activity, unless the URL or PGAPPNAME names them otherwise, and
// of a role it may signal): a stopped holder then costs the others a quarter second, not a lease.
//
// Thread safety: as every StudyStorage (study_storage.h): one thread at a time per object.
#ifndef GPBANDIT_STORAGE_POSTGRES_STORAGE_H_
#define GPBANDIT_STORAGE_POSTGRES_STORAGE_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/study_storage.h"

namespace gpbandit {

// True when this build has the PostgreSQL backend.
bool HavePostgresStorage();

// Connects to `url` (throws std::runtime_error naming the redacted URL and libpq's reason when
// it cannot) and returns the storage of study `study` (which need not exist).
std::unique_ptr<StudyStorage> OpenPostgresStudy(const std::string& url, const std::string& study,
                                                const StorageOptions& options);

// The studies of the database at `url` (none when its tables do not exist yet).
std::vector<StudySummary> ListPostgresStudies(const std::string& url,
                                              const StorageOptions& options);

// `url` with the password of user:PASSWORD@ and of password=... parameters replaced by "***"
// (in every build): the scheme's redact function in the storage registry.
std::string RedactPostgresUrl(const std::string& url);

}  // namespace gpbandit

#endif  // GPBANDIT_STORAGE_POSTGRES_STORAGE_H_
