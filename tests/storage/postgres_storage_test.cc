// The PostgreSQL backend (storage/postgres_storage.h) against a real server started for this
// program (local_postgres.h): byte-exact records, parameterized statements (hostile study
// names), sessions serialized per study, uncommitted work invisible, concurrent creators, the
// bad-connection cases with redacted messages, and a server that goes away and comes back.
//
// One server serves every test of the program (ctest runs the program as one test). In a
// build with the PostgreSQL backend the tests fail, never skip, when no server can be started.
#include "gpbandit/storage/postgres_storage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include "gpbandit/storage/study_storage.h"
#include "tests/storage/postgres_environment.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using testing::LocalPostgres;
using ::testing::Not;

const auto* const environment =
    ::testing::AddGlobalTestEnvironment(new testing::PostgresEnvironment);

LocalPostgres* Server() { return testing::PostgresServer(); }

const char kHeader[] = R"({"type":"header","format":"test"})";

long long Commit(StudyStorage& storage, const std::vector<std::string>& records,
                 bool create = false) {
  auto session = storage.Begin(LockMode::kExclusive);
  if (create) session->CreateStudy(kHeader);
  session->ReadAfter(0);
  for (const std::string& r : records) session->Append(r);
  return session->Commit(Durability::kDurable);
}

// A failing test gives up on a lost server after 30 s rather than the default 300.
std::unique_ptr<StudyStorage> Open(const std::string& study, const std::string& url = "") {
  StorageOptions options;
  options.reconnect_timeout_seconds = 30;
  return OpenStudyStorage(url.empty() ? Server()->Url() : url, study, options);
}

TEST(PostgresStorageTest, RecordsRoundTripByteForByteInOrder) {
  REQUIRE_POSTGRES();
  auto storage = Open("round-trip");
  const std::vector<std::string> records = {
      R"({"type":"tell","x":[0.1,1e-300,-2.2250738585072014e-308],"y":1.7976931348623157e+308})",
      R"({"type":"pending","worker":"h\u00e9te:1 'quoted' \"double\" \\ back","x":[]})",
      R"({"z":1,"type":"fit","report":"a;b; DROP TABLE x; --"})"};
  EXPECT_EQ(Commit(*storage, records, /*create=*/true), 3);
  EXPECT_EQ(Commit(*storage, {R"({"type":"release"})"}), 4);
  auto reader = Open("round-trip");
  auto session = reader->Begin(LockMode::kShared);
  EXPECT_EQ(session->header(), kHeader);
  const std::vector<StudyRecord> read = session->ReadAfter(0);
  ASSERT_EQ(read.size(), 4u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(read[i].json, records[i]);
    EXPECT_EQ(read[i].sequence, static_cast<long long>(i + 1));
  }
  EXPECT_EQ(read[2].type, "fit");
  EXPECT_EQ(session->ReadAfter(3).size(), 1u);
  EXPECT_GT(session->Now(), 1.6e9);  // the server's clock, seconds since 1970
}

// Study names are data, never SQL: hostile names are stored and found as given, and the tables
// survive them.
TEST(PostgresStorageTest, HostileStudyNamesAreParameters) {
  REQUIRE_POSTGRES();
  const std::vector<std::string> names = {"x'); DROP TABLE gpbandit_records; --",
                                          "Robert'); DROP TABLE gpbandit_studies;--", "$1",
                                          "quote\"d", "x' OR '1'='1"};
  // Control characters are refused before anything reaches the database (study_storage.h).
  EXPECT_THROW(Open("tab\tand\nnewline"), std::invalid_argument);
  for (const std::string& name : names) {
    auto storage = Open(name);
    Commit(*storage, {R"({"type":"tell","name":1})"}, true);
  }
  const std::vector<StudySummary> studies = ListStudies(Server()->Url());
  for (const std::string& name : names) {
    bool found = false;
    for (const StudySummary& s : studies) found = found || (s.name == name && s.records == 1);
    EXPECT_TRUE(found) << name;
    EXPECT_EQ(Open(name)->Begin(LockMode::kShared)->ReadAfter(0).size(), 1u) << name;
  }
  // "x' OR '1'='1" did not match every study: an unknown name finds nothing.
  EXPECT_EQ(Open("x' OR '1'='1' --")->Begin(LockMode::kShared)->header(), "");
  EXPECT_EQ(Server()->Sql("SELECT count(*) FROM gpbandit_records WHERE type = 'tell' AND body LIKE "
                          "'%name%'"),
            std::to_string(names.size()) + "\n");
}

TEST(PostgresStorageTest, ExclusiveSessionsOfOneStudyAreSerialized) {
  REQUIRE_POSTGRES();
  auto a = Open("serialized");
  auto b = Open("serialized");
  auto c = Open("serialized-other");
  Commit(*a, {R"({"type":"tell","i":0})"}, true);
  Commit(*c, {R"({"type":"tell","i":0})"}, true);
  auto held = a->Begin(LockMode::kExclusive);
  held->ReadAfter(0);
  std::atomic<bool> entered{false};
  long long seen = -1, sequence = -1;
  std::thread other([&] {
    auto session = b->Begin(LockMode::kExclusive);
    entered = true;
    seen = static_cast<long long>(session->ReadAfter(0).size());
    session->Append(R"({"type":"tell","i":2})");
    sequence = session->Commit(Durability::kDurable);
  });
  // Another study is not held up.
  EXPECT_EQ(Commit(*c, {R"({"type":"tell","i":1})"}), 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  EXPECT_FALSE(entered) << "the second session did not wait for the row lock";
  held->Append(R"({"type":"tell","i":1})");
  EXPECT_EQ(held->Commit(Durability::kDurable), 2);
  held.reset();
  other.join();
  EXPECT_EQ(seen, 2);  // it saw the record committed before it got the lock
  EXPECT_EQ(sequence, 3);
}

TEST(PostgresStorageTest, UncommittedWorkIsInvisibleAndConcurrentCreatorsMeetOneStudy) {
  REQUIRE_POSTGRES();
  auto a = Open("creators");
  auto b = Open("creators");
  {
    auto session = a->Begin(LockMode::kExclusive);
    session->CreateStudy(kHeader);
    session->Append(R"({"type":"tell"})");
  }  // no Commit
  EXPECT_EQ(b->Begin(LockMode::kShared)->header(), "");
  // Both see no study; the first commit creates it, the second is told to retry.
  auto first = a->Begin(LockMode::kExclusive);
  auto second = b->Begin(LockMode::kExclusive);
  EXPECT_EQ(first->header(), "");
  EXPECT_EQ(second->header(), "");
  first->CreateStudy(kHeader);
  first->Append(R"({"type":"tell","by":"a"})");
  second->CreateStudy(R"({"type":"header","format":"other"})");
  second->Append(R"({"type":"tell","by":"b"})");
  EXPECT_EQ(first->Commit(Durability::kDurable), 1);
  EXPECT_THROW(second->Commit(Durability::kDurable), StorageInterrupted);
  first.reset();
  second.reset();
  auto retry = b->Begin(LockMode::kExclusive);
  EXPECT_EQ(retry->header(), kHeader);
  const std::vector<StudyRecord> records = retry->ReadAfter(0);
  ASSERT_EQ(records.size(), 1u);
  EXPECT_THAT(records[0].json, HasSubstr("\"a\""));
}

// Connection refused, wrong credentials, an unknown role, a required SSL the server lacks:
// clear errors at open, no password in any message, nothing created.
TEST(PostgresStorageTest, BadConnectionsFailAtOnceWithRedactedMessages) {
  REQUIRE_POSTGRES();
  const std::string count = "SELECT count(*) FROM gpbandit_studies";
  Commit(*Open("bad-connections"), {}, true);
  const std::string before = Server()->Sql(count);
  struct Case {
    std::string url, expect;
  };
  const std::vector<Case> cases = {
      {"postgresql://nobody:hunter2secret@127.0.0.1:1/postgres?connect_timeout=5", "refused"},
      {Server()->Url(LocalPostgres::kGuardedUser, "hunter2secret"), "password authentication"},
      {Server()->Url("no_such_role"), "no_such_role"},
      {Server()->TcpUrl() + "?sslmode=require", "SSL"}};
  for (const Case& c : cases) {
    try {
      Open("bad-connections", c.url);
      ADD_FAILURE() << "connected to " << c.url;
    } catch (const std::runtime_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("cannot connect to postgresql://"));
      EXPECT_THAT(e.what(), HasSubstr(c.expect));
      EXPECT_THAT(e.what(), Not(HasSubstr("hunter2secret")));
    }
  }
  // The right password works.
  auto guarded = Open("bad-connections",
                      Server()->Url(LocalPostgres::kGuardedUser, LocalPostgres::kGuardedPassword));
  EXPECT_EQ(guarded->Begin(LockMode::kShared)->header(), kHeader);
  EXPECT_THAT(guarded->Describe(), Not(HasSubstr(LocalPostgres::kGuardedPassword)));
  EXPECT_EQ(Server()->Sql(count), before);
  // Over TCP without sslmode the same server is reachable: the refusal above was sslmode's.
  EXPECT_EQ(Open("bad-connections", Server()->TcpUrl())->Begin(LockMode::kShared)->header(),
            kHeader);
}

// The backend of a session is killed before its commit: nothing of it lands, the session says
// so with StorageInterrupted, and the next session reconnects.
TEST(PostgresStorageTest, ConnectionLostBeforeCommitCommitsNothing) {
  REQUIRE_POSTGRES();
  auto storage = Open("killed-backend", Server()->Url() + "&application_name=victim");
  Commit(*storage, {R"({"type":"tell","i":0})"}, true);
  auto session = storage->Begin(LockMode::kExclusive);
  session->ReadAfter(0);
  session->Append(R"({"type":"tell","i":1})");
  Server()->Sql(
      "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name "
      "= 'victim'");
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(session->Commit(Durability::kDurable), StorageInterrupted);
  session.reset();
  auto again = storage->Begin(LockMode::kExclusive);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(again->ReadAfter(0).size(), 1u);
  again->Append(R"({"type":"tell","i":1})");
  EXPECT_EQ(again->Commit(Durability::kDurable), 2);
}

// The server stops while a worker is connected: the open session fails with
// StorageInterrupted, the next Begin keeps retrying until the server is back, then carries on
// with every committed record intact.
TEST(PostgresStorageTest, ServerRestartIsWaitedOut) {
  REQUIRE_POSTGRES();
  auto storage = Open("restart");
  Commit(*storage, {R"({"type":"tell","i":0})"}, true);
  auto session = storage->Begin(LockMode::kExclusive);
  session->ReadAfter(0);
  session->Append(R"({"type":"tell","i":1})");
  Server()->Stop("fast");
  ::testing::internal::CaptureStderr();
  EXPECT_THROW(session->Commit(Durability::kDurable), StorageInterrupted);
  session.reset();
  std::thread restart([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(1500));
    Server()->Start();
  });
  const auto start = std::chrono::steady_clock::now();
  auto again = storage->Begin(LockMode::kExclusive);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  restart.join();
  const std::string messages = ::testing::internal::GetCapturedStderr();
  EXPECT_GT(waited, 1.0);
  EXPECT_THAT(messages, HasSubstr("lost the connection"));
  EXPECT_THAT(messages, HasSubstr("reconnected"));
  ASSERT_EQ(again->ReadAfter(0).size(), 1u);
  again->Append(R"({"type":"tell","i":1})");
  EXPECT_EQ(again->Commit(Durability::kDurable), 2);
}

// A crash of the server forgets the last asynchronous commit (a worker's pending point), and
// another worker's commit then takes its sequence number. Reading on "after my last record"
// would skip that commit for good; the storage says StudyRewound instead, in shared and in
// exclusive sessions, and a read from the start then gives the study as it is.
TEST(PostgresStorageTest, ACrashThatForgetsAsynchronousCommitsIsDetected) {
  if (!HavePostgresStorage()) GTEST_SKIP() << "built without PostgreSQL";
  // Asynchronous commits stay in the server's memory for up to 30 s: the crash forgets them.
  LocalPostgres server(/*fsync=*/false, "-c wal_writer_delay=10000");
  StorageOptions options;
  options.reconnect_timeout_seconds = 30;
  auto mine = OpenStudyStorage(server.Url(), "crash", options);
  auto other = OpenStudyStorage(server.Url(), "crash", options);
  auto mine_exclusive = OpenStudyStorage(server.Url(), "crash", options);
  Commit(*mine, {R"({"type":"tell","i":0})", R"({"type":"tell","i":1})"}, true);
  EXPECT_EQ(mine_exclusive->Begin(LockMode::kShared)->ReadAfter(0).size(), 2u);
  {
    auto session = mine->Begin(LockMode::kExclusive);
    session->ReadAfter(2);
    session->Append(R"({"type":"pending","i":2})");
    EXPECT_EQ(session->Commit(Durability::kVisible), 3);
  }
  EXPECT_EQ(mine_exclusive->Begin(LockMode::kShared)->ReadAfter(2).size(), 1u);  // it saw it
  server.Crash();
  server.Start();
  ::testing::internal::CaptureStderr();
  // Each storage object's first session finds its connection gone (StorageInterrupted, as a
  // call of the Optimizer would, which then retries); the next one reconnects.
  for (StudyStorage* s : {mine.get(), other.get(), mine_exclusive.get()})
    EXPECT_THROW(s->Begin(LockMode::kShared), StorageInterrupted);
  EXPECT_EQ(Commit(*other, {R"({"type":"tell","i":3})"}), 3);  // number 3 again
  EXPECT_THROW(mine->Begin(LockMode::kShared)->ReadAfter(3), StudyRewound);
  {
    auto session = mine_exclusive->Begin(LockMode::kExclusive);
    EXPECT_THROW(session->ReadAfter(3), StudyRewound);
    const std::vector<StudyRecord> all = session->ReadAfter(0);  // from the start: as it is
    ASSERT_EQ(all.size(), 3u);
    EXPECT_EQ(all[2].json, R"({"type":"tell","i":3})");
    session->Append(R"({"type":"tell","i":4})");
    EXPECT_EQ(session->Commit(Durability::kDurable), 4);
  }
  ::testing::internal::GetCapturedStderr();
  const std::vector<StudyRecord> again = mine->Begin(LockMode::kShared)->ReadAfter(0);
  ASSERT_EQ(again.size(), 4u);
  // Read on from there, the storage object goes on as before.
  EXPECT_EQ(Commit(*other, {R"({"type":"tell","i":5})"}), 5);
  const std::vector<StudyRecord> fresh = mine->Begin(LockMode::kShared)->ReadAfter(4);
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh[0].json, R"({"type":"tell","i":5})");
}

// A worker process takes the study's lock and is stopped (SIGSTOP) while it holds it. Another
// worker of the same host ends its session within a fraction of a second; one that cannot tell
// it is stopped (it is named otherwise, as a worker of another host would be) waits for the
// server to end its transaction after the lease. Either way the stopped one, once continued,
// commits nothing (StorageInterrupted) and retries.
void ExpectStoppedHolderLosesTheLock(const std::string& study, const char* application_name,
                                     double at_least, double below) {
  StorageOptions options;
  options.reconnect_timeout_seconds = 30;
  options.lock_lease_seconds = 2.0;
  auto storage = OpenStudyStorage(Server()->Url(), study, options);
  Commit(*storage, {R"({"type":"tell","i":0})"}, true);
  int locked[2];
  ASSERT_EQ(::pipe(locked), 0);
  const pid_t holder = ::fork();
  ASSERT_GE(holder, 0);
  if (holder == 0) {
    // The child: its own connection, the lock, then a commit after it is continued.
    int status = 3;
    try {
      if (application_name != nullptr) ::setenv("PGAPPNAME", application_name, 1);
      auto mine = OpenStudyStorage(Server()->Url(), study, options);
      auto session = mine->Begin(LockMode::kExclusive);
      session->ReadAfter(0);
      session->Append(R"({"type":"tell","from":"stopped"})");
      (void)!::write(locked[1], "L", 1);
      ::raise(SIGSTOP);
      try {
        session->Commit(Durability::kDurable);
        status = 1;  // committed after losing its lock
      } catch (const StorageInterrupted&) {
        status = 0;
      }
    } catch (...) {
      status = 2;
    }
    _exit(status);
  }
  char byte = 0;
  ASSERT_EQ(::read(locked[0], &byte, 1), 1);
  int status = 0;
  ASSERT_EQ(::waitpid(holder, &status, WUNTRACED), holder);
  ASSERT_TRUE(WIFSTOPPED(status));
  const auto start = std::chrono::steady_clock::now();
  auto other = OpenStudyStorage(Server()->Url(), study, options);
  EXPECT_EQ(Commit(*other, {R"({"type":"tell","from":"other"})"}), 2);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, at_least) << study;
  EXPECT_LT(waited, below) << study;
  ::kill(holder, SIGCONT);
  ASSERT_EQ(::waitpid(holder, &status, 0), holder);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  const std::vector<StudyRecord> all = other->Begin(LockMode::kShared)->ReadAfter(0);
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(all[1].json, R"({"type":"tell","from":"other"})");
}

TEST(PostgresStorageTest, AStoppedLockHolderOfThisHostLosesTheLockAtOnce) {
  REQUIRE_POSTGRES();
  // The waiter looks for a stopped holder after 0.25 s of waiting, well before the 2 s lease.
  ExpectStoppedHolderLosesTheLock("stopped-holder-here", nullptr, 0.2, 1.5);
}

TEST(PostgresStorageTest, AStoppedLockHolderNamedOtherwiseLosesTheLockAfterItsLease) {
  REQUIRE_POSTGRES();
  // The lease runs from the holder's last statement (2 s), a little before the waiter began.
  ExpectStoppedHolderLosesTheLock("stopped-holder-elsewhere", "another-host-worker", 1.5, 10.0);
}

}  // namespace
}  // namespace gpbandit
