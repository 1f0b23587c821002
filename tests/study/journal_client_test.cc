// The contract of a JournalClient (study/journal_client.h): which of its members a StudyJournal
// calls, when, and in what order, on a study that other workers append to, that fails to commit,
// or that forgot records. The storage is a fake held in memory whose tests can append records
// "from another worker" at the moment a session begins, forget the last records (a database
// crash) and refuse commits.
#include "study/journal_client.h"

#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/numerics/warning_sink.h"
#include "study/study_journal.h"

namespace gpbandit {
namespace {

const char kHeader[] = R"({"type":"header","name":"contract"})";

std::string Tell(double y) {
  return FormatTellRecord(Eigen::VectorXd::Constant(1, 0.5), Eigen::VectorXd(), y, true);
}

// One study: its header and records (sequence = index + 1).
struct Study {
  std::string header;
  std::vector<StudyRecord> records;
  // Run as an exclusive session begins (after the journal's unlocked read-ahead): what others
  // append meanwhile.
  std::function<void(Study&)> on_exclusive;
  // Commit throws these, then succeeds.
  int interrupted_commits = 0;
  bool commit_fails = false;
  int commits = 0;

  void Add(const std::string& json) {
    const long long sequence = static_cast<long long>(records.size()) + 1;
    records.push_back({sequence, "tell", json, ""});
  }
};

class Session : public StudySession {
 public:
  Session(Study* study, LockMode mode) : study_(study), exclusive_(mode == LockMode::kExclusive) {
    if (exclusive_ && study_->on_exclusive) study_->on_exclusive(*study_);
    header_ = study_->header;
  }
  const std::string& header() const override { return header_; }
  std::vector<StudyRecord> ReadAfter(long long after) override {
    // As a database that forgot the last record this reader saw (postgres_storage.cc).
    if (after > static_cast<long long>(study_->records.size()))
      throw StudyRewound("the study no longer holds record " + std::to_string(after));
    return {study_->records.begin() + after, study_->records.end()};
  }
  double Now() override { return 1.7e9; }
  void CreateStudy(const std::string& header_json) override { created_ = header_json; }
  void Append(const std::string& record_json) override { staged_.push_back(record_json); }
  long long Commit(Durability) override {
    if (study_->interrupted_commits > 0) {
      --study_->interrupted_commits;
      throw StorageInterrupted("connection reset");
    }
    if (study_->commit_fails) throw std::runtime_error("disk full");
    if (!created_.empty()) study_->header = created_;
    for (const std::string& json : staged_) study_->Add(json);
    ++study_->commits;
    return static_cast<long long>(study_->records.size());
  }

 private:
  Study* study_;
  bool exclusive_;
  std::string header_, created_;
  std::vector<std::string> staged_;
};

class Storage : public StudyStorage {
 public:
  explicit Storage(Study* study) : study_(study) {}
  std::string Describe() const override { return "memory study"; }
  std::unique_ptr<StudySession> Begin(LockMode mode) override {
    return std::make_unique<Session>(study_, mode);
  }

 private:
  Study* study_;
};

// Writes down each call, with the reward of each replayed tell.
class Client : public JournalClient {
 public:
  std::string HeaderJson() const override {
    calls.push_back("header");
    return kHeader;
  }
  void CheckHeader(const std::string& header_json) const override {
    calls.push_back("check");
    if (header_json != kHeader) throw std::runtime_error("not this optimizer's study");
  }
  void Replay(const LogRecord& record) override {
    if (record.y == refuse_y) throw std::invalid_argument("cannot replay");
    calls.push_back("replay " + std::to_string(static_cast<int>(record.y)));
  }
  void RollBack() override { calls.push_back("roll_back"); }
  void ForgetRollBack() override { calls.push_back("forget"); }
  void ResetReplica() override { calls.push_back("reset"); }
  void Defer() override { calls.push_back("defer"); }
  void CatchUp() override { calls.push_back("catch_up"); }

  mutable std::vector<std::string> calls;
  double refuse_y = -1;
};

using Calls = std::vector<std::string>;

class QuietWarnings {
 public:
  QuietWarnings() {
    previous_ = SetWarningSink([this](const std::string& m) { seen.push_back(m); });
  }
  ~QuietWarnings() { SetWarningSink(previous_); }
  std::vector<std::string> seen;

 private:
  WarningSink previous_;
};

// A journal of `client` attached to `study`.
std::unique_ptr<StudyJournal> Attached(Client* client, Study* study) {
  auto journal = std::make_unique<StudyJournal>(client);
  journal->Attach(std::make_unique<Storage>(study), WorkerOptions());
  return journal;
}

// Runs a call that appends `records` and marks its stage and apply in client->calls.
void RunAppending(StudyJournal& journal, Client* client, const std::vector<std::string>& records) {
  journal.Run([&] {
    client->calls.push_back("stage");
    for (const std::string& r : records) journal.Append(r);
    return std::function<void()>([client] { client->calls.push_back("apply"); });
  });
}

TEST(JournalClient, ANewStudyAsksForTheHeaderOnlyWithItsFirstRecord) {
  Study study;
  Client client;
  auto journal = Attached(&client, &study);
  EXPECT_TRUE(client.calls.empty());  // nothing to check or replay yet
  RunAppending(*journal, &client, {});
  EXPECT_EQ(client.calls, (Calls{"defer", "stage", "forget", "catch_up", "apply"}));
  EXPECT_TRUE(study.header.empty());  // a call that writes nothing creates nothing
  client.calls.clear();
  RunAppending(*journal, &client, {Tell(1), Tell(2)});
  EXPECT_EQ(client.calls, (Calls{"defer", "stage", "header", "forget", "catch_up", "apply"}));
  EXPECT_EQ(study.header, kHeader);
  ASSERT_EQ(study.records.size(), 2u);
  // Its own records are not replayed back to it.
  client.calls.clear();
  journal->Sync();
  EXPECT_TRUE(client.calls.empty());
}

TEST(JournalClient, AnExistingStudyIsCheckedOnceThenReplayedInOrder) {
  Study study;
  study.header = kHeader;
  study.Add(Tell(1));
  study.Add(Tell(2));
  Client client;
  auto journal = Attached(&client, &study);
  EXPECT_EQ(client.calls, (Calls{"check", "replay 1", "replay 2"}));
  study.Add(Tell(3));
  client.calls.clear();
  journal->Sync();
  EXPECT_EQ(client.calls, (Calls{"replay 3"}));
}

TEST(JournalClient, ARefusedHeaderStopsTheAttachBeforeAnyReplay) {
  Study study;
  study.header = R"({"type":"header","name":"another optimizer"})";
  study.Add(Tell(1));
  Client client;
  StudyJournal journal(&client);
  EXPECT_THROW(journal.Attach(std::make_unique<Storage>(&study), WorkerOptions()),
               std::runtime_error);
  EXPECT_EQ(client.calls, (Calls{"check"}));
}

TEST(JournalClient, RecordsAppendedBeforeTheLockAreReplayedWhileDeferred) {
  Study study;
  study.header = kHeader;
  Client client;
  auto journal = Attached(&client, &study);
  client.calls.clear();
  study.Add(Tell(1));                                     // read ahead, without the lock
  study.on_exclusive = [](Study& s) { s.Add(Tell(2)); };  // appended just before the lock
  RunAppending(*journal, &client, {Tell(3)});
  EXPECT_EQ(client.calls,
            (Calls{"replay 1", "defer", "replay 2", "stage", "forget", "catch_up", "apply"}));
  ASSERT_EQ(study.records.size(), 3u);
  EXPECT_EQ(study.records[2].sequence, 3);
}

TEST(JournalClient, AFailedCommitRollsBackCatchesUpAndAppliesNothing) {
  Study study;
  study.header = kHeader;
  Client client;
  auto journal = Attached(&client, &study);
  client.calls.clear();
  study.commit_fails = true;
  EXPECT_THROW(RunAppending(*journal, &client, {Tell(1)}), std::runtime_error);
  EXPECT_EQ(client.calls, (Calls{"defer", "stage", "roll_back", "catch_up"}));
  EXPECT_TRUE(study.records.empty());
}

TEST(JournalClient, AnInterruptedCommitRollsBackAndRunsTheWholeCallAgain) {
  QuietWarnings warnings;
  Study study;
  study.header = kHeader;
  Client client;
  auto journal = Attached(&client, &study);
  client.calls.clear();
  study.interrupted_commits = 1;
  RunAppending(*journal, &client, {Tell(1)});
  EXPECT_EQ(client.calls, (Calls{"defer", "stage", "roll_back", "catch_up", "defer", "stage",
                                 "forget", "catch_up", "apply"}));
  EXPECT_EQ(study.records.size(), 1u);  // committed once
  EXPECT_EQ(study.commits, 1);
  EXPECT_EQ(warnings.seen.size(), 1u);
}

TEST(JournalClient, AFailedStageRollsBackAndNothingIsCommitted) {
  Study study;
  study.header = kHeader;
  Client client;
  auto journal = Attached(&client, &study);
  client.calls.clear();
  EXPECT_THROW(journal->Run([&]() -> std::function<void()> {
    journal->Append(Tell(1));
    throw std::invalid_argument("x has the wrong size");
  }),
               std::invalid_argument);
  EXPECT_EQ(client.calls, (Calls{"defer", "roll_back", "catch_up"}));
  EXPECT_EQ(study.commits, 0);
  EXPECT_TRUE(study.records.empty());
}

TEST(JournalClient, ARecordThatCannotBeReplayedFailsTheCallNamingIt) {
  Study study;
  study.header = kHeader;
  Client client;
  auto journal = Attached(&client, &study);
  client.calls.clear();
  client.refuse_y = 2;
  study.on_exclusive = [](Study& s) {
    if (s.records.empty()) s.Add(Tell(2));
  };
  try {
    RunAppending(*journal, &client, {Tell(3)});
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "memory study: record 1: tell record: cannot replay");
  }
  EXPECT_EQ(client.calls, (Calls{"defer", "roll_back", "catch_up"}));
  EXPECT_EQ(study.records.size(), 1u);  // the call's own record was not committed
}

TEST(JournalClient, AStudyThatForgotRecordsIsReplayedFromItsStartAfterAReset) {
  QuietWarnings warnings;
  Study study;
  study.header = kHeader;
  for (int y = 1; y <= 3; ++y) study.Add(Tell(y));
  Client client;
  auto journal = Attached(&client, &study);
  // The server forgets records 2 and 3; another worker's record takes number 2.
  study.records.resize(1);
  study.Add(Tell(7));
  client.calls.clear();
  journal->Sync();
  EXPECT_EQ(client.calls, (Calls{"reset", "replay 1", "replay 7"}));
  ASSERT_EQ(warnings.seen.size(), 1u);
  EXPECT_NE(warnings.seen[0].find("replaying the study again"), std::string::npos)
      << warnings.seen[0];
}

}  // namespace
}  // namespace gpbandit
