// The PostgreSQL backend (postgres_storage.h), on libpqxx 6.
#include "gpbandit/storage/postgres_storage.h"

#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <nlohmann/json.hpp>
#include <pqxx/pqxx>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "gpbandit/numerics/warning_sink.h"
#include "storage/json_lines.h"
#include "storage/lease_lock.h"
#include "storage/study_name.h"

namespace gpbandit {
namespace {

// Serializes the creation of the tables by concurrent first workers (any constant will do; this
// one spells "gpbandit" in ASCII).
constexpr long long kSchemaLockKey = 0x6770626e64697400LL;

const char* const kCreateTables[] = {
    "CREATE TABLE IF NOT EXISTS gpbandit_studies ("
    " id bigserial PRIMARY KEY,"
    " name text NOT NULL UNIQUE,"
    " header text NOT NULL,"
    " last_sequence bigint NOT NULL DEFAULT 0,"
    " commit_id text,"
    " created_at timestamptz NOT NULL DEFAULT now())",
    "CREATE TABLE IF NOT EXISTS gpbandit_records ("
    " study_id bigint NOT NULL REFERENCES gpbandit_studies (id) ON DELETE CASCADE,"
    " sequence bigint NOT NULL,"
    " type text NOT NULL,"
    " body text NOT NULL,"
    " commit_id text,"
    " PRIMARY KEY (study_id, sequence))"};

// The row lock serializes the study's sessions. Under READ COMMITTED a statement that waited for
// the lock sees the newest version of the locked row, so last_sequence is current; the records
// are read by a later statement, whose snapshot holds every commit made before the lock.
const char kLockStudy[] =
    "SELECT id, header, last_sequence FROM gpbandit_studies WHERE name = $1 FOR UPDATE";
// How long an exclusive session waits for the study's row lock before it looks for a stopped
// holder (EndStoppedHolders), then waits again.
constexpr char kLockWait[] = "250ms";
// The sessions of gpbandit workers of this host that are idle in a transaction (pid, the
// worker's "host:pid" from application_name, which Connection::Open sets): candidates for a
// stopped holder of the study's lock.
const char kIdleWorkers[] =
    "SELECT pid, substr(application_name, 10) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid() "
    "AND state = 'idle in transaction' AND application_name LIKE 'gpbandit %' "
    "AND state_change < clock_timestamp() - $1::interval";
const char kFindStudy[] = "SELECT id, header, last_sequence FROM gpbandit_studies WHERE name = $1";
// The records after a sequence number, after one row with the server's clock (sequence -1, its
// seconds since the epoch as the body): one round trip for both.
const char kReadRecords[] =
    "SELECT -1::bigint AS sequence, 'clock' AS type, "
    "extract(epoch FROM clock_timestamp())::float8::text AS body, NULL::text AS commit_id "
    "UNION ALL SELECT sequence, type, body, commit_id FROM gpbandit_records "
    "WHERE study_id = $1 AND sequence > $2 ORDER BY sequence";
const char kInsertStudy[] =
    "INSERT INTO gpbandit_studies (name, header, commit_id) VALUES ($1, $2, $3) "
    "ON CONFLICT (name) DO NOTHING RETURNING id";
// A commit's records (their types and bodies as two JSON arrays of strings, numbered from $2),
// the study's last sequence number ($6) and, for an asynchronous commit ($7 true),
// synchronous_commit = off for the transaction, in one statement: one round trip under the lock,
// however many records.
const char kAppendRecords[] =
    "WITH appended AS (INSERT INTO gpbandit_records (study_id, sequence, type, body, commit_id) "
    "SELECT $1, $2 + t.i - 1, t.value, b.value, $5 "
    "FROM json_array_elements_text($3::json) WITH ORDINALITY AS t(value, i) "
    "JOIN json_array_elements_text($4::json) WITH ORDINALITY AS b(value, i) USING (i)) "
    "UPDATE gpbandit_studies SET last_sequence = $6 WHERE id = $1 "
    "RETURNING CASE WHEN $7::boolean THEN set_config('synchronous_commit', 'off', true) END";
const char kStudyLanded[] = "SELECT 1 FROM gpbandit_studies WHERE name = $1 AND commit_id = $2";
const char kRecordLanded[] =
    "SELECT 1 FROM gpbandit_records WHERE study_id = $1 AND sequence = $2 AND commit_id = $3";

// A failure of the connection rather than of the statement: the server went away, restarts or
// shuts down (SQLSTATE classes 08 and 57P), or the outcome of a commit was lost.
bool IsConnectionLoss(const std::exception& e) {
  if (dynamic_cast<const pqxx::broken_connection*>(&e) != nullptr) return true;
  if (dynamic_cast<const pqxx::in_doubt_error*>(&e) != nullptr) return true;
  if (const auto* sql = dynamic_cast<const pqxx::sql_error*>(&e)) {
    const std::string& state = sql->sqlstate();
    return state.rfind("08", 0) == 0 || state.rfind("57P", 0) == 0;
  }
  return false;
}

// libpq's messages end in newlines and may span lines.
std::string OneLine(std::string text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text)
    if (c == '\n' || c == '\t') c = ' ';
  return text;
}

// The last record a storage object delivered or committed: the check that the study still holds
// what its worker replayed. After a server crash has forgotten the last asynchronous commits
// (Durability::kVisible), other workers' new records take their sequence numbers; reading on
// "after n" would then skip them for good.
struct Frontier {
  long long sequence = 0;  // 0: nothing yet
  std::string commit_id;   // the commit that wrote it ("" for rows written before ids were kept)
  std::string body;

  bool Matches(const std::string& other_commit_id, const std::string& other_body) const {
    if (!commit_id.empty() && !other_commit_id.empty()) return commit_id == other_commit_id;
    return body == other_body;
  }
};

std::string NewCommitId() {
  std::random_device device;
  char text[33];
  std::snprintf(text, sizeof text, "%08x%08x%08x%08x", device(), device(), device(), device());
  return text;
}

double Seconds(std::chrono::steady_clock::duration d) {
  return std::chrono::duration<double>(d).count();
}

// One connection to the database, reopened with backoff after it was lost.
class Connection {
 public:
  Connection(std::string url, const StorageOptions& options)
      : url_(std::move(url)), redacted_(RedactPostgresUrl(url_)), options_(options) {
    try {
      Open();
    } catch (const std::exception& e) {
      throw std::runtime_error("cannot connect to " + redacted_ + ": " + OneLine(e.what()));
    }
  }

  const std::string& redacted() const { return redacted_; }

  // The open connection, reconnecting first (with backoff, reporting to the warning sink) if it was
  // lost.
  pqxx::connection& Get() {
    if (conn_ && conn_->is_open()) return *conn_;
    conn_.reset();
    const auto start = std::chrono::steady_clock::now();
    double wait = 0.05;
    for (int attempt = 1;; ++attempt) {
      try {
        Open();
        std::ostringstream message;
        message << "reconnected to " << redacted_ << " after "
                << Seconds(std::chrono::steady_clock::now() - start) << " s";
        Warn(message.str());
        return *conn_;
      } catch (const std::exception& e) {
        const double waited = Seconds(std::chrono::steady_clock::now() - start);
        if (waited >= options_.reconnect_timeout_seconds)
          throw std::runtime_error("gave up reconnecting to " + redacted_ + " after " +
                                   std::to_string(waited) + " s: " + OneLine(e.what()));
        if (attempt == 1) {
          std::ostringstream message;
          message << "lost the connection to " << redacted_ << " (" << OneLine(e.what())
                  << "); retrying for up to " << options_.reconnect_timeout_seconds << " s";
          Warn(message.str());
        }
      }
      std::this_thread::sleep_for(std::chrono::duration<double>(wait));
      wait = std::min(2.0, wait * 2.0);
    }
  }

  // Forgets the connection after a failure (the next Get reconnects).
  void Drop() { conn_.reset(); }

  bool TablesExist(pqxx::transaction_base& tx) {
    if (!tables_exist_) {
      tables_exist_ = !tx.exec("SELECT to_regclass('gpbandit_studies')")[0][0].is_null();
    }
    return tables_exist_;
  }
  void CreateTables(pqxx::transaction_base& tx) {
    tx.exec_params("SELECT pg_advisory_xact_lock($1)", kSchemaLockKey);
    for (const char* statement : kCreateTables) tx.exec(statement);
    tables_exist_ = true;
  }

 private:
  void Open() {
    auto conn = std::make_unique<pqxx::connection>(url_);
    // Notices (e.g. "relation already exists, skipping") are not for the user's terminal, and
    // the row lock's reasoning holds under READ COMMITTED, whatever the server's default.
    pqxx::nontransaction setup(*conn);
    setup.exec("SET client_min_messages = warning");
    setup.exec("SET default_transaction_isolation = 'read committed'");
    // The lease on the study's lock (StorageOptions::lock_lease_seconds): the server ends a
    // transaction left idle that long, a frozen worker's included, and so lets its row lock go.
    // A worker's own transactions are never idle that long (it reads before it replays).
    setup.exec("SET idle_in_transaction_session_timeout = " + LeaseMilliseconds());
    // An exclusive session that waits this long for the study's lock looks for a stopped holder
    // (PostgresSession::LockStudy); other statements wait without a limit (CommitStudy).
    setup.exec(std::string("SET lock_timeout = '") + kLockWait + "'");
    // pg_stat_activity names the worker (process) behind each session, unless the URL or
    // PGAPPNAME named it already: who holds a study's lock is then a query away.
    setup.exec_params(
        "SELECT set_config('application_name', $1, false) "
        "WHERE current_setting('application_name') = ''",
        "gpbandit " + HostAndPid());
    conn_ = std::move(conn);
  }

  // "0" (no limit) for an infinite lease.
  std::string LeaseMilliseconds() const {
    if (std::isinf(options_.lock_lease_seconds)) return "0";
    return std::to_string(std::max(1LL, std::llround(options_.lock_lease_seconds * 1000.0)));
  }

  std::string url_;
  std::string redacted_;
  StorageOptions options_;
  std::unique_ptr<pqxx::connection> conn_;
  bool tables_exist_ = false;
};

class PostgresStudyStorage;

// One transaction (exclusive: holding the study's row lock) or a lock-free reader (shared).
class PostgresSession : public StudySession {
 public:
  PostgresSession(Connection* connection, const std::string& study, LockMode mode,
                  Frontier* frontier);
  ~PostgresSession() override = default;

  const std::string& header() const override { return header_; }
  std::vector<StudyRecord> ReadAfter(long long after) override;
  double Now() override;
  void CreateStudy(const std::string& header_json) override;
  void Append(const std::string& record_json) override;
  long long Commit(Durability durability) override;

 private:
  struct Staged {
    std::string type, json;
  };
  // Runs a database step; a lost connection becomes StorageInterrupted.
  template <typename F>
  auto Guard(const char* what, F step) -> decltype(step());
  bool Start();
  void EndStoppedHolders(pqxx::connection& conn);
  void RequireExclusive(const char* what) const;
  void CommitStudy();
  // After the connection was lost during Commit: did the commit land?
  bool Landed();

  Connection* connection_;
  std::string study_;
  LockMode mode_;
  Frontier* frontier_;
  std::unique_ptr<pqxx::dbtransaction> tx_;
  long long study_id_ = -1;
  long long last_sequence_ = 0;
  std::string header_;
  double now_ = std::numeric_limits<double>::quiet_NaN();
  std::string create_header_;
  std::vector<Staged> staged_;
  std::string commit_id_;
};

template <typename F>
auto PostgresSession::Guard(const char* what, F step) -> decltype(step()) {
  try {
    return step();
  } catch (const pqxx::failure& e) {
    const std::string message = OneLine(e.what());
    if (IsConnectionLoss(e)) {
      tx_.reset();
      connection_->Drop();
      throw StorageInterrupted(connection_->redacted() + ": " + what + ": " + message);
    }
    throw std::runtime_error(connection_->redacted() + ": " + what + ": " + message);
  }
}

PostgresSession::PostgresSession(Connection* connection, const std::string& study, LockMode mode,
                                 Frontier* frontier)
    : connection_(connection), study_(study), mode_(mode), frontier_(frontier) {
  while (!Start()) EndStoppedHolders(connection_->Get());
}

// Begins the transaction and reads (and for an exclusive session locks) the study's row; false
// when the lock was not free within kLockWait (the transaction is then rolled back).
bool PostgresSession::Start() {
  pqxx::connection& conn = connection_->Get();
  return Guard("beginning a transaction", [&] {
    if (mode_ == LockMode::kExclusive) {
      tx_ = std::make_unique<pqxx::work>(conn);
    } else {
      tx_ = std::make_unique<pqxx::read_transaction>(conn);
    }
    if (!connection_->TablesExist(*tx_)) return true;
    pqxx::result row;
    try {
      row = tx_->exec_params(mode_ == LockMode::kExclusive ? kLockStudy : kFindStudy, study_);
    } catch (const pqxx::sql_error& e) {
      if (e.sqlstate() != "55P03") throw;  // lock_not_available: lock_timeout ran out
      tx_.reset();
      return false;
    }
    if (row.empty()) return true;
    study_id_ = row[0][0].as<long long>();
    header_ = row[0][1].as<std::string>();
    last_sequence_ = row[0][2].as<long long>();
    return true;
  });
}

// Ends the database sessions of this host's gpbandit workers whose process is stopped (SIGSTOP,
// a debugger: ProcessStopped) and that sit idle in a transaction, as a holder of the study's
// lock does while it is stopped: the server rolls the transaction back and the lock is free at
// once, not after the lease (idle_in_transaction_session_timeout). A stopped worker commits
// nothing and retries its call when it is continued, as after its lease. Sessions this role may
// not end, of other hosts, or named otherwise (PGAPPNAME) are left to the lease.
void PostgresSession::EndStoppedHolders(pqxx::connection& conn) {
  try {
    pqxx::nontransaction look(conn);
    for (const auto& row : look.exec_params(kIdleWorkers, kLockWait)) {
      if (!ProcessStopped(row[1].as<std::string>())) continue;
      try {
        look.exec_params("SELECT pg_terminate_backend($1)", row[0].as<long long>());
      } catch (const pqxx::sql_error&) {
        // not this role's session: its lease ends it
      }
    }
  } catch (const pqxx::failure& e) {
    if (IsConnectionLoss(e)) {
      connection_->Drop();
      throw StorageInterrupted(connection_->redacted() +
                               ": waiting for the study's lock: " + OneLine(e.what()));
    }
    throw std::runtime_error(
        connection_->redacted() +
        ": looking for a stopped holder of the study's lock: " + OneLine(e.what()));
  }
}

// Reads from the frontier's record on, to check that it is still the record this storage object
// saw (a study that lost it cannot be read on from a sequence number).
std::vector<StudyRecord> PostgresSession::ReadAfter(long long after) {
  std::vector<StudyRecord> records;
  if (study_id_ < 0) return records;
  const long long checked = frontier_->sequence;
  const long long from = checked > 0 ? std::min(after, checked - 1) : after;
  const pqxx::result rows =
      Guard("reading records", [&] { return tx_->exec_params(kReadRecords, study_id_, from); });
  bool found = checked == 0;
  records.reserve(rows.size());
  for (const auto& row : rows) {
    const long long sequence = row[0].as<long long>();
    if (sequence < 0) {  // the clock row
      if (std::isnan(now_)) now_ = std::strtod(row[2].c_str(), nullptr);
      continue;
    }
    const std::string commit_id = row[3].is_null() ? std::string() : row[3].as<std::string>();
    if (sequence == checked) found = frontier_->Matches(commit_id, row[2].as<std::string>());
    if (sequence <= after) continue;
    // No location: the Optimizer names a record by the study and its sequence number.
    records.push_back({sequence, row[1].as<std::string>(), row[2].as<std::string>(), ""});
    last_sequence_ = std::max(last_sequence_, sequence);
  }
  if (!found) {
    *frontier_ = Frontier();
    throw StudyRewound(connection_->redacted() + " study '" + study_ + "' no longer holds record " +
                       std::to_string(checked) +
                       " as this worker read it (the server lost its last asynchronous commits "
                       "in a crash): read the study again from the start");
  }
  if (!records.empty() && records.back().sequence > frontier_->sequence) {
    const auto& last = rows[rows.size() - 1];
    *frontier_ = {records.back().sequence,
                  last[3].is_null() ? std::string() : last[3].as<std::string>(),
                  records.back().json};
  }
  return records;
}

double PostgresSession::Now() {
  if (std::isnan(now_)) {
    if (!tx_) throw std::logic_error("Now after the session ended");
    now_ = Guard("reading the clock", [&] {
      return tx_->exec("SELECT extract(epoch FROM clock_timestamp())::float8")[0][0].as<double>();
    });
  }
  return now_;
}

void PostgresSession::RequireExclusive(const char* what) const {
  if (mode_ != LockMode::kExclusive)
    throw std::logic_error(std::string(what) + " in a shared session");
  if (!tx_) throw std::logic_error(std::string(what) + " after the session ended");
}

void PostgresSession::CreateStudy(const std::string& header_json) {
  RequireExclusive("CreateStudy");
  if (!header_.empty() || !create_header_.empty() || !staged_.empty())
    throw std::logic_error("CreateStudy: the study exists already or records are staged");
  CheckHeaderRecord(header_json, "CreateStudy");
  create_header_ = header_json;
}

void PostgresSession::Append(const std::string& record_json) {
  RequireExclusive("Append");
  staged_.push_back({AppendableRecordType(record_json, "Append"), record_json});
}

void PostgresSession::CommitStudy() {
  Guard("creating the study", [&] {
    // Concurrent creators wait for each other (the schema's lock, the name's index) as long as
    // it takes.
    tx_->exec("SET LOCAL lock_timeout = 0");
    if (!connection_->TablesExist(*tx_)) connection_->CreateTables(*tx_);
    const pqxx::result row = tx_->exec_params(kInsertStudy, study_, create_header_, commit_id_);
    if (!row.empty()) study_id_ = row[0][0].as<long long>();
  });
  if (study_id_ < 0) {
    tx_.reset();
    throw StorageInterrupted("study '" + study_ + "' was created by another worker meanwhile");
  }
  header_ = create_header_;
}

long long PostgresSession::Commit(Durability durability) {
  RequireExclusive("Commit");
  if (study_id_ < 0 && create_header_.empty() && !staged_.empty())
    throw std::logic_error("Commit: records for a study that does not exist");
  commit_id_ = NewCommitId();
  const long long first = last_sequence_ + 1;
  const long long last = first + static_cast<long long>(staged_.size()) - 1;
  if (!create_header_.empty()) CommitStudy();
  if (!staged_.empty()) {
    nlohmann::json types = nlohmann::json::array(), bodies = nlohmann::json::array();
    for (const Staged& r : staged_) {
      types.push_back(r.type);
      bodies.push_back(r.json);
    }
    // Every record carries its commit's id: the frontier check (Frontier) compares it. A later
    // synchronous commit flushes the log up to itself, an asynchronous one included.
    Guard("appending records", [&] {
      tx_->exec_params(kAppendRecords, study_id_, first, types.dump(), bodies.dump(), commit_id_,
                       last, durability == Durability::kVisible);
    });
  }
  // Lost before COMMIT reached the server, the transaction is certainly rolled back; lost while
  // committing, it may have landed: wait for the server and look for this commit's id. (A
  // synchronous commit is visible only once it is on disk.)
  try {
    Guard("committing", [&] { tx_->commit(); });
  } catch (const StorageInterrupted&) {
    if (!Landed()) throw;
  }
  tx_.reset();
  last_sequence_ = last;
  if (!staged_.empty()) *frontier_ = {last, commit_id_, staged_.back().json};
  staged_.clear();
  create_header_.clear();
  return last_sequence_;
}

// Asks the server, reconnecting as long as Get allows (then std::runtime_error: the outcome is
// unknown), whether this session's commit landed. Never StorageInterrupted: that would tell
// the caller to commit again.
bool PostgresSession::Landed() {
  if (create_header_.empty() && staged_.empty()) return false;
  for (;;) {
    try {
      bool present = false;
      {
        pqxx::read_transaction check(connection_->Get());
        present = !create_header_.empty()
                      ? !check.exec_params(kStudyLanded, study_, commit_id_).empty()
                      : !check.exec_params(kRecordLanded, study_id_, last_sequence_ + 1, commit_id_)
                             .empty();
      }
      return present;
    } catch (const pqxx::failure& e) {
      if (!IsConnectionLoss(e))
        throw std::runtime_error(connection_->redacted() +
                                 ": checking a commit: " + OneLine(e.what()));
      connection_->Drop();
    }
  }
}

class PostgresStudyStorage : public StudyStorage {
 public:
  PostgresStudyStorage(const std::string& url, std::string study, const StorageOptions& options)
      : connection_(url, options), study_(std::move(study)) {}

  std::string Describe() const override {
    return connection_.redacted() + " study '" + study_ + "'";
  }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    return std::make_unique<PostgresSession>(&connection_, study_, mode, &frontier_);
  }

 private:
  mutable Connection connection_;
  std::string study_;
  Frontier frontier_;
};

}  // namespace

bool HavePostgresStorage() { return true; }

std::unique_ptr<StudyStorage> OpenPostgresStudy(const std::string& url, const std::string& study,
                                                const StorageOptions& options) {
  if (study.empty()) throw std::invalid_argument("a database study needs a name (--study)");
  CheckStudyName(study);
  return std::make_unique<PostgresStudyStorage>(url, study, options);
}

std::vector<StudySummary> ListPostgresStudies(const std::string& url,
                                              const StorageOptions& options) {
  Connection connection(url, options);
  pqxx::read_transaction tx(connection.Get());
  std::vector<StudySummary> studies;
  if (!connection.TablesExist(tx)) return studies;
  for (const auto& row :
       tx.exec("SELECT name, last_sequence FROM gpbandit_studies ORDER BY name")) {
    studies.push_back({row[0].as<std::string>(), row[1].as<long long>()});
  }
  return studies;
}

}  // namespace gpbandit
