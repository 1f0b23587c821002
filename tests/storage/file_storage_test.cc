// The file backend (storage/file_storage.h) and the storage factory: sessions, the header
// written once, incremental reads, the exclusive lock between storage objects, torn tails
// repaired only under the lock, nothing written by an uncommitted session, directories of
// studies, and URL redaction.
#include "gpbandit/storage/file_storage.h"

#include <dirent.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <vector>

#include "gpbandit/numerics/warning_sink.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

const char kHeader[] = R"({"type":"header","format":"test"})";

std::string TempPath(const std::string& name) {
  const std::string path = "/tmp/gpbandit_storage_" + name + "_" + std::to_string(::getpid());
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
  return path;
}

void RemoveStudy(const std::string& path) {
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
}

// A child process that takes the study's exclusive lock (lease `lease` seconds), stages a
// record and stops itself (SIGSTOP) while it holds the lock; continued, it tries to commit.
// Its exit status: 0 when the commit was refused with StorageInterrupted, 1 when it committed,
// 2 for any other error. Returns once it is stopped.
pid_t StartStoppedHolder(const std::string& path, double lease) {
  const pid_t child = ::fork();
  if (child != 0) {
    int status = 0;
    ::waitpid(child, &status, WUNTRACED);
    return WIFSTOPPED(status) ? child : -1;
  }
  int status = 2;
  try {
    FileStudyStorage storage(path, false, lease);
    auto session = storage.Begin(LockMode::kExclusive);
    session->Append(R"({"type":"tell","from":"stopped"})");
    ::raise(SIGSTOP);
    try {
      session->Commit(Durability::kDurable);
      status = 1;
    } catch (const StorageInterrupted&) {
      status = 0;
    }
  } catch (...) {
    status = 2;
  }
  _exit(status);
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

bool Exists(const std::string& path) {
  struct stat info;
  return ::stat(path.c_str(), &info) == 0;
}

// The names in a directory, sorted ("." and ".." left out).
std::vector<std::string> Names(const std::string& directory) {
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(directory.c_str())) {
    while (const dirent* entry = ::readdir(dir))
      if (std::string(entry->d_name) != "." && std::string(entry->d_name) != "..")
        names.push_back(entry->d_name);
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::string Record(int i) { return R"({"type":"tell","i":)" + std::to_string(i) + "}"; }

// Creates the study (if `create`) and appends records from..to-1 in one commit.
long long Commit(StudyStorage& storage, int from, int to, bool create = false) {
  auto session = storage.Begin(LockMode::kExclusive);
  if (create) session->CreateStudy(kHeader);
  for (int i = from; i < to; ++i) session->Append(Record(i));
  return session->Commit(Durability::kDurable);
}

TEST(FileStorageTest, HeaderOnceThenRecordsInOrderAndIncrementalReads) {
  const std::string path = TempPath("basic");
  FileStudyStorage writer(path, /*sync=*/true);
  {
    auto shared = writer.Begin(LockMode::kShared);  // no file yet: no study, nothing created
    EXPECT_EQ(shared->header(), "");
    EXPECT_TRUE(shared->ReadAfter(0).empty());
  }
  struct stat info;
  EXPECT_NE(::stat(path.c_str(), &info), 0);
  EXPECT_EQ(Commit(writer, 0, 2, /*create=*/true), 2);
  EXPECT_EQ(ReadFile(path), std::string(kHeader) + "\n" + Record(0) + "\n" + Record(1) + "\n");
  EXPECT_EQ(Commit(writer, 2, 5), 5);

  FileStudyStorage reader(path, true);
  auto session = reader.Begin(LockMode::kShared);
  EXPECT_EQ(session->header(), kHeader);
  const std::vector<StudyRecord> all = session->ReadAfter(0);
  ASSERT_EQ(all.size(), 5u);
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(all[static_cast<std::size_t>(i)].sequence, i + 1);
    EXPECT_EQ(all[static_cast<std::size_t>(i)].type, "tell");
    EXPECT_EQ(all[static_cast<std::size_t>(i)].json, Record(i));
  }
  EXPECT_EQ(session->ReadAfter(3).size(), 2u);
  session.reset();
  Commit(writer, 5, 6);
  // The next session reads only what was appended since; older records are read again on
  // request.
  session = reader.Begin(LockMode::kShared);
  const std::vector<StudyRecord> fresh = session->ReadAfter(5);
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh[0].json, Record(5));
  EXPECT_EQ(session->ReadAfter(1).size(), 5u);
  RemoveStudy(path);
}

TEST(FileStorageTest, UncommittedSessionWritesNothingAndBadRecordsAreRefused) {
  const std::string path = TempPath("uncommitted");
  FileStudyStorage storage(path, true);
  Commit(storage, 0, 1, true);
  const std::string before = ReadFile(path);
  {
    auto session = storage.Begin(LockMode::kExclusive);
    session->Append(Record(7));
    EXPECT_THROW(session->Append("not json"), std::invalid_argument);
    EXPECT_THROW(session->Append(R"({"no_type":1})"), std::invalid_argument);
    EXPECT_THROW(session->Append(kHeader), std::invalid_argument);
    EXPECT_THROW(session->Append("{\"type\":\"tell\",\n\"x\":1}"), std::invalid_argument);
    EXPECT_THROW(session->CreateStudy(kHeader), std::logic_error);  // it exists
  }                                                                 // destroyed without Commit
  EXPECT_EQ(ReadFile(path), before);
  auto shared = storage.Begin(LockMode::kShared);
  EXPECT_THROW(shared->Append(Record(1)), std::logic_error);
  EXPECT_THROW(shared->Commit(Durability::kDurable), std::logic_error);
  RemoveStudy(path);
}

// Two storage objects on one file exclude each other like two processes (flock belongs to the
// open file description): the second exclusive session waits for the first to end, then sees
// its records.
TEST(FileStorageTest, ExclusiveSessionsOfTwoStorageObjectsExcludeEachOther) {
  const std::string path = TempPath("exclusive");
  FileStudyStorage a(path, false), b(path, false);
  Commit(a, 0, 1, true);
  auto held = a.Begin(LockMode::kExclusive);
  held->ReadAfter(0);
  std::atomic<bool> entered{false};
  long long seen = -1;
  std::thread other([&] {
    auto session = b.Begin(LockMode::kExclusive);
    entered = true;
    seen = static_cast<long long>(session->ReadAfter(0).size());
    session->Append(Record(100));
    session->Commit(Durability::kDurable);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(entered) << "the second exclusive session did not wait for the first";
  held->Append(Record(1));
  EXPECT_EQ(held->Commit(Durability::kDurable), 2);
  held.reset();
  other.join();
  EXPECT_TRUE(entered);
  EXPECT_EQ(seen, 2);
  auto session = a.Begin(LockMode::kShared);
  const std::vector<StudyRecord> all = session->ReadAfter(0);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[2].json, Record(100));
  EXPECT_EQ(all[2].sequence, 3);
  RemoveStudy(path);
}

// Concurrent first sessions on a new file: exactly one creates the study; the others find its
// header under the lock.
TEST(FileStorageTest, ConcurrentCreatorsWriteOneHeader) {
  const std::string path = TempPath("creators");
  std::vector<std::thread> threads;
  std::atomic<int> created{0};
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      FileStudyStorage storage(path, false);
      auto session = storage.Begin(LockMode::kExclusive);
      if (session->header().empty()) {
        session->CreateStudy(kHeader);
        ++created;
      }
      session->ReadAfter(0);
      session->Append(Record(t));
      session->Commit(Durability::kDurable);
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(created, 1);
  const std::string text = ReadFile(path);
  EXPECT_EQ(text.find(kHeader), 0u);
  EXPECT_EQ(text.find(kHeader, 1), std::string::npos);
  FileStudyStorage reader(path, false);
  EXPECT_EQ(reader.Begin(LockMode::kShared)->ReadAfter(0).size(), 8u);
  RemoveStudy(path);
}

// The torn-line warning goes to the host's warning sink (numerics/warning_sink.h), not to stderr.
TEST(FileStorageTest, TornTailWarningGoesToTheWarningSink) {
  const std::string path = TempPath("torn-sink");
  FileStudyStorage storage(path, true);
  Commit(storage, 0, 2, true);
  std::ofstream(path, std::ios::app | std::ios::binary) << R"({"type":"tell","i":)";
  std::vector<std::string> warnings;
  SetWarningSink([&warnings](const std::string& message) { warnings.push_back(message); });
  ::testing::internal::CaptureStderr();
  FileStudyStorage other(path, true);
  other.Begin(LockMode::kShared)->ReadAfter(0);
  const std::string printed = ::testing::internal::GetCapturedStderr();
  SetWarningSink(nullptr);
  EXPECT_EQ(printed, "");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr(path + ": dropping a torn last line 4"));
  RemoveStudy(path);
}

TEST(FileStorageTest, TornTailIsLeftByReadersAndCutByTheNextWriter) {
  const std::string path = TempPath("torn");
  FileStudyStorage storage(path, true);
  Commit(storage, 0, 2, true);
  const std::string intact = ReadFile(path);
  std::ofstream(path, std::ios::app | std::ios::binary) << R"({"type":"tell","i":)";
  FileStudyStorage other(path, true);
  ::testing::internal::CaptureStderr();
  {
    auto shared = other.Begin(LockMode::kShared);
    EXPECT_EQ(shared->ReadAfter(0).size(), 2u);
  }
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("dropping a torn last line 4"));
  EXPECT_EQ(ReadFile(path), intact + R"({"type":"tell","i":)");  // a reader leaves it
  ::testing::internal::CaptureStderr();
  Commit(other, 2, 3);
  ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(ReadFile(path), intact + Record(2) + "\n");
  // The first storage object reads on from where it was.
  auto session = storage.Begin(LockMode::kShared);
  const std::vector<StudyRecord> fresh = session->ReadAfter(2);
  ASSERT_EQ(fresh.size(), 1u);
  EXPECT_EQ(fresh[0].json, Record(2));
  RemoveStudy(path);
}

TEST(FileStorageTest, CorruptionIsAnErrorNotATear) {
  const std::string path = TempPath("corrupt");
  std::ofstream(path) << kHeader << "\nnot json\n" << Record(1) << "\n";
  FileStudyStorage storage(path, false);
  try {
    storage.Begin(LockMode::kShared);
    ADD_FAILURE() << "expected a runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ":2"));
  }
  // A second header, even as the last line, is corruption (two creators), not a torn write.
  std::ofstream(path, std::ios::trunc) << kHeader << "\n" << kHeader << "\n";
  FileStudyStorage again(path, false);
  try {
    again.Begin(LockMode::kExclusive);
    ADD_FAILURE() << "expected a runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("a second header record"));
  }
  EXPECT_EQ(ReadFile(path), std::string(kHeader) + "\n" + kHeader + "\n");  // left alone
  RemoveStudy(path);
}

TEST(StudyStorageTest, DirectoriesHoldStudiesByNameAndFilesHoldOne) {
  char pattern[] = "/tmp/gpbandit_studies_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  for (const char* name : {"beta", "alpha-1"}) {
    auto storage = OpenStudyStorage(dir, name);
    Commit(*storage, 0, name[0] == 'b' ? 3 : 1, true);
    EXPECT_EQ(storage->Describe(), dir + "/" + name + ".jsonl");
  }
  const std::vector<StudySummary> studies = ListStudies(dir);
  ASSERT_EQ(studies.size(), 2u);
  EXPECT_EQ(studies[0].name, "alpha-1");
  EXPECT_EQ(studies[0].records, 1);
  EXPECT_EQ(studies[1].name, "beta");
  EXPECT_EQ(studies[1].records, 3);
  for (const char* bad : {"", "../x", "a/b", ".hidden", "x'; rm -rf /"})
    EXPECT_THROW(OpenStudyStorage(dir, bad), std::invalid_argument) << bad;
  const std::string file = dir + "/beta.jsonl";
  EXPECT_THROW(OpenStudyStorage(file, "beta"), std::invalid_argument);  // a file is one study
  const std::vector<StudySummary> one = ListStudies(file);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].records, 3);
  std::system(("rm -rf '" + dir + "'").c_str());
}

TEST(StudyStorageTest, RedactUrlHidesPasswordsOnly) {
  EXPECT_EQ(RedactUrl("postgresql://alice:s3cr%40t@db.lab:5432/tuning?sslmode=require"),
            "postgresql://alice:***@db.lab:5432/tuning?sslmode=require");
  EXPECT_EQ(RedactUrl("postgres://db/x?user=bob&password=hunter2&sslmode=verify-full"),
            "postgres://db/x?user=bob&password=***&sslmode=verify-full");
  EXPECT_EQ(RedactUrl("postgresql://alice@db/x?password=p"),
            "postgresql://alice@db/x?password=***");
  EXPECT_EQ(RedactUrl("postgresql:///postgres?host=/tmp/s&port=5"),
            "postgresql:///postgres?host=/tmp/s&port=5");
  EXPECT_EQ(RedactUrl("/data/runs:with@signs.jsonl"), "/data/runs:with@signs.jsonl");
}

// The password used to be echoed whole when the scheme was not spelled in lower case.
TEST(StudyStorageTest, RedactUrlHidesPasswordsOfAnySchemeInAnyCase) {
  EXPECT_EQ(RedactUrl("POSTGRESQL://user:secret@db.lab/tuning"),
            "POSTGRESQL://user:***@db.lab/tuning");
  EXPECT_EQ(RedactUrl("Postgres://user:secret@db/x?PassWord=hunter2"),
            "Postgres://user:***@db/x?PassWord=***");
  EXPECT_EQ(RedactUrl("mysql+driver://u:p@h:3306/d"), "mysql+driver://u:***@h:3306/d");
  EXPECT_EQ(RedactUrl("host=db user=bob password=hunter2 dbname=x"),
            "host=db user=bob password=*** dbname=x");
  EXPECT_EQ(RedactUrl("runs/user:me@host.jsonl"), "runs/user:me@host.jsonl");
  EXPECT_EQ(RedactUrl("my_password=x.jsonl"), "my_password=x.jsonl");
}

// Whatever the URL's spelling, no message of the storages or the factory shows the password.
TEST(StudyStorageTest, NoMessageShowsAPassword) {
  for (const char* url :
       {"POSTGRESQL://user:secret@localhost:1/db", "PostgreSQL://user:secret@localhost:1/db"}) {
    for (const char* study : {"", "s"}) {
      try {
        auto storage = OpenStudyStorage(url, study);
        EXPECT_EQ(storage->Describe().find("secret"), std::string::npos) << storage->Describe();
        storage->CheckWritable();
        storage->Begin(LockMode::kExclusive);
        ADD_FAILURE() << url << " opened";
      } catch (const std::exception& e) {
        EXPECT_EQ(std::string(e.what()).find("secret"), std::string::npos) << e.what();
        EXPECT_THAT(e.what(), HasSubstr("***")) << e.what();
      }
    }
  }
}

// A newline or a tab in a study's name would break every listing that shows it; refused on
// every backend, before anything is opened or connected.
TEST(StudyStorageTest, StudyNamesWithControlCharactersAreRefusedOnEveryBackend) {
  char pattern[] = "/tmp/gpbandit_names_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  for (const std::string& url : {dir, std::string("postgresql://user:pw@localhost:1/db")}) {
    for (const std::string& bad : {std::string("a\nb"), std::string("tab\there"),
                                   std::string("nul\0x", 5), std::string("del\x7f")}) {
      try {
        OpenStudyStorage(url, bad);
        ADD_FAILURE() << "accepted a control character in a study name on " << url;
      } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("control character")) << url;
      }
    }
  }
  EXPECT_EQ(ListStudies(dir).size(), 0u);  // nothing was created
  std::system(("rm -rf '" + dir + "'").c_str());
}

// A file that is not a study (a user's notes given as a log by mistake) used to be cut to its
// last newline, with a warning about a torn line, and then written over. Now every session
// refuses it, shared or exclusive, and the file is left byte for byte as it was.
TEST(FileStorageTest, AFileThatIsNotAStudyIsNeverCutOrAppendedTo) {
  const std::string path = TempPath("notes");
  for (const std::string& text :
       {std::string("my notes"), std::string("my notes\n"), std::string("line 1\nline 2"),
        std::string("{\"a\": 1}\n"), std::string(Record(1) + "\n" + kHeader + "\n"),
        std::string(R"({"type":"head)"), std::string("\n\n")}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    for (LockMode mode : {LockMode::kShared, LockMode::kExclusive}) {
      FileStudyStorage storage(path, true);
      ::testing::internal::CaptureStderr();
      try {
        storage.Begin(mode);
        ADD_FAILURE() << "accepted " << text;
      } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), HasSubstr("not a gpbandit study")) << text;
      }
      EXPECT_EQ(::testing::internal::GetCapturedStderr(), "") << text;  // no "torn line"
      EXPECT_EQ(ReadFile(path), text);
    }
  }
  std::remove(path.c_str());
}

// Only a last line without its newline is a torn write; a complete last line that is not a
// record is corruption, reported and left alone (it used to be cut off with a warning).
TEST(FileStorageTest, ACompleteLastLineThatIsNotARecordIsCorruptionNotATear) {
  const std::string path = TempPath("bad_last");
  FileStudyStorage storage(path, true);
  Commit(storage, 0, 2, true);
  const std::string text = ReadFile(path) + "{\"type\":\"te\n";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
  FileStudyStorage other(path, true);
  try {
    other.Begin(LockMode::kExclusive);
    ADD_FAILURE() << "expected a runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ":4: malformed log record"));
  }
  EXPECT_EQ(ReadFile(path), text);
  std::remove(path.c_str());
}

// A new optimizer's log must be writable: checked when the storage is opened for it.
TEST(FileStorageTest, CheckWritableNamesThePathAndTheReason) {
  const std::string path = TempPath("writable");
  FileStudyStorage fine(path, true);
  fine.CheckWritable();  // a new file in a writable directory
  struct stat info;
  EXPECT_NE(::stat(path.c_str(), &info), 0);  // nothing created
  for (const std::string& bad : {std::string("/nonexistent-gpbandit-dir/x.jsonl"),
                                 path + "/below-a-missing-file", std::string("/tmp")}) {
    try {
      FileStudyStorage(bad, true).CheckWritable();
      ADD_FAILURE() << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_THAT(e.what(), HasSubstr(bad)) << e.what();
    }
  }
  std::ofstream(path) << "x";
  try {
    FileStudyStorage(path + "/under-a-file.jsonl", true).CheckWritable();
    ADD_FAILURE() << "a path under a regular file";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("Not a directory"));
  }
  std::remove(path.c_str());
}

// A worker of this host stopped (SIGSTOP) while it holds the study's lock loses it within a
// fraction of a second, whatever its lease: the next worker breaks it, says so, and commits; the
// stopped worker, continued, writes nothing.
TEST(FileStorageTest, AStoppedLockHolderOfThisHostLosesTheLockAtOnce) {
  const std::string path = TempPath("stopped_holder");
  FileStudyStorage other(path, false, 60.0);
  Commit(other, 0, 1, true);
  const pid_t holder = StartStoppedHolder(path, 60.0);
  ASSERT_GT(holder, 0);
  ::testing::internal::CaptureStderr();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Commit(other, 1, 2), 2);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("breaking it"));
  EXPECT_GE(waited, 0.25);
  EXPECT_LT(waited, 10.0) << "a 60 s lease";
  ::kill(holder, SIGCONT);
  int status = 0;
  ASSERT_EQ(::waitpid(holder, &status, 0), holder);
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  EXPECT_EQ(ReadFile(path), std::string(kHeader) + "\n" + Record(0) + "\n" + Record(1) + "\n");
  EXPECT_FALSE(Exists(path + ".lock")) << "the broken holder's lock file was left";
  RemoveStudy(path);
}

// A holder that runs but does not let go (a long computation, another host's process) keeps
// the lock for its lease, then loses it: the waiter commits, the holder's commit is refused.
TEST(FileStorageTest, ARunningLockHolderLosesTheLockAfterItsLease) {
  const std::string path = TempPath("busy_holder");
  FileStudyStorage holder(path, false, 1.0);
  Commit(holder, 0, 1, true);
  auto held = holder.Begin(LockMode::kExclusive);
  held->Append(R"({"type":"tell","from":"busy"})");
  FileStudyStorage other(path, false, 1.0);
  ::testing::internal::CaptureStderr();
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Commit(other, 1, 2), 2);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_THAT(::testing::internal::GetCapturedStderr(), HasSubstr("breaking it"));
  EXPECT_GE(waited, 1.0);
  EXPECT_LT(waited, 10.0);
  EXPECT_THROW(held->Commit(Durability::kDurable), StorageInterrupted);
  held.reset();
  EXPECT_EQ(ReadFile(path), std::string(kHeader) + "\n" + Record(0) + "\n" + Record(1) + "\n");
  RemoveStudy(path);
}

// A worker killed while it holds the lock lets go at once: nobody waits for its lease.
TEST(FileStorageTest, AKilledLockHolderLetsGoAtOnce) {
  const std::string path = TempPath("killed_holder");
  FileStudyStorage other(path, false, 60.0);
  Commit(other, 0, 1, true);
  const pid_t holder = StartStoppedHolder(path, 60.0);
  ASSERT_GT(holder, 0);
  ::kill(holder, SIGKILL);
  ::waitpid(holder, nullptr, 0);
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(Commit(other, 1, 2), 2);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_FALSE(Exists(path + ".lock")) << "the next holder left the killed one's lock file";
  RemoveStudy(path);
}

// The lock file exists only while a session holds the lock: once the sessions of every storage
// object and process on a study have ended, the study's folder holds the study alone.
TEST(FileStorageTest, NothingIsLeftBesideTheStudyOnceItsSessionsEnd) {
  char folder[] = "/tmp/gpbandit_storage_folder_XXXXXX";
  ASSERT_NE(::mkdtemp(folder), nullptr);
  const std::string path = std::string(folder) + "/study.jsonl";
  FileStudyStorage a(path, false), b(path, false);
  Commit(a, 0, 1, true);
  EXPECT_EQ(Names(folder), std::vector<std::string>{"study.jsonl"});
  {
    auto held = a.Begin(LockMode::kExclusive);
    EXPECT_TRUE(Exists(path + ".lock"));
  }
  EXPECT_EQ(Names(folder), std::vector<std::string>{"study.jsonl"});
  // Sessions that wait for each other: two storage objects here and two processes.
  std::vector<pid_t> children;
  for (int c = 0; c < 2; ++c) {
    const pid_t child = ::fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      int status = 0;
      try {
        FileStudyStorage mine(path, false);
        for (int i = 0; i < 50; ++i) Commit(mine, 1000 * (c + 1) + i, 1000 * (c + 1) + i + 1);
      } catch (...) {
        status = 1;
      }
      _exit(status);
    }
    children.push_back(child);
  }
  std::thread other([&] {
    for (int i = 0; i < 50; ++i) Commit(b, 100 + i, 101 + i);
  });
  for (int i = 0; i < 50; ++i) Commit(a, 200 + i, 201 + i);
  other.join();
  for (const pid_t child : children) {
    int status = 0;
    ASSERT_EQ(::waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << "child status " << status;
  }
  EXPECT_EQ(a.Begin(LockMode::kShared)->ReadAfter(0).size(), 201u) << "a commit was lost";
  EXPECT_EQ(Names(folder), std::vector<std::string>{"study.jsonl"});
  RemoveStudy(path);
  ::rmdir(folder);
}

}  // namespace
}  // namespace gpbandit
