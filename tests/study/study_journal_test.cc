#include "study/study_journal.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/study/observation_log.h"

namespace gpbandit {
namespace {

// A client that writes down each call the journal makes of it.
class FakeClient : public JournalClient {
 public:
  std::string HeaderJson() const override {
    calls.push_back("header");
    return R"({"type":"header","name":"fake"})";
  }
  void CheckHeader(const std::string& header_json) const override {
    calls.push_back("check");
    checked = header_json;
    if (refuse_header) throw std::runtime_error("header refused");
  }
  void Replay(const LogRecord& record) override {
    calls.push_back("replay");
    replayed.push_back(record.type);
  }
  void RollBack() override { calls.push_back("roll_back"); }
  void ForgetRollBack() override { calls.push_back("forget"); }
  void ResetReplica() override { calls.push_back("reset"); }
  void Defer() override { calls.push_back("defer"); }
  void CatchUp() override { calls.push_back("catch_up"); }

  mutable std::vector<std::string> calls;
  mutable std::string checked;
  bool refuse_header = false;
  std::vector<LogRecordType> replayed;
};

std::string TempPath(const std::string& name) {
  return ::testing::TempDir() + "/study_journal_" + name + "_" + std::to_string(getpid()) +
         ".jsonl";
}

TEST(StudyJournal, WithoutStorageAppliesAfterForgettingTheRollBack) {
  FakeClient client;
  StudyJournal journal(&client);
  bool applied = false;
  journal.Run([&] {
    journal.Append(FormatClearPendingRecord());  // nothing to stage without a storage
    client.calls.push_back("stage");
    return std::function<void()>([&] { applied = true; });
  });
  EXPECT_TRUE(applied);
  EXPECT_EQ(client.calls, (std::vector<std::string>{"stage", "forget"}));
  EXPECT_GT(journal.now(), 1.0e9);  // the wall clock, in seconds since the epoch
}

TEST(StudyJournal, AFailedStageRollsBackAndAppliesNothing) {
  FakeClient client;
  StudyJournal journal(&client);
  bool applied = false;
  EXPECT_THROW(journal.Run([&]() -> std::function<void()> {
    throw std::invalid_argument("bad call");
    return [&] { applied = true; };
  }),
               std::invalid_argument);
  EXPECT_FALSE(applied);
  EXPECT_EQ(client.calls, (std::vector<std::string>{"roll_back"}));
}

TEST(StudyJournal, FirstRecordCreatesTheStudyAndAnotherJournalReplaysIt) {
  const std::string path = TempPath("replay");
  std::remove(path.c_str());
  {
    FakeClient client;
    StudyJournal journal(&client);
    journal.Attach(OpenStudyStorage(path, "", StorageOptions()), WorkerOptions());
    journal.Run([&] {
      journal.Append(FormatClearPendingRecord());
      return std::function<void()>([] {});
    });
    // Deferred under the lock, caught up after it, the header written with the first record.
    EXPECT_EQ(client.calls, (std::vector<std::string>{"defer", "header", "forget", "catch_up"}));
  }
  FakeClient reader;
  StudyJournal journal(&reader);
  journal.Attach(OpenStudyStorage(path, "", StorageOptions()), WorkerOptions());
  EXPECT_EQ(reader.checked, R"({"type":"header","name":"fake"})");
  EXPECT_EQ(reader.replayed, (std::vector<LogRecordType>{LogRecordType::kClearPending}));
  std::remove(path.c_str());
}

TEST(StudyJournal, AStudyWhoseHeaderIsRefusedIsNotReplayed) {
  const std::string path = TempPath("refused");
  std::remove(path.c_str());
  {
    FakeClient client;
    StudyJournal journal(&client);
    journal.Attach(OpenStudyStorage(path, "", StorageOptions()), WorkerOptions());
    journal.Run([&] {
      journal.Append(FormatClearPendingRecord());
      return std::function<void()>([] {});
    });
  }
  FakeClient reader;
  reader.refuse_header = true;
  StudyJournal journal(&reader);
  EXPECT_THROW(journal.Attach(OpenStudyStorage(path, "", StorageOptions()), WorkerOptions()),
               std::runtime_error);
  EXPECT_TRUE(reader.replayed.empty());
  std::remove(path.c_str());
}

TEST(StudyJournal, CreateStudyInCallWritesTheHeaderOnce) {
  const std::string path = TempPath("create");
  std::remove(path.c_str());
  FakeClient client;
  StudyJournal journal(&client);
  journal.Attach(OpenStudyStorage(path, "", StorageOptions()), WorkerOptions());
  bool created = false;
  journal.Run([&] {
    created = journal.CreateStudyInCall();
    return std::function<void()>([] {});
  });
  EXPECT_TRUE(created);
  journal.Run([&] {
    created = journal.CreateStudyInCall();
    return std::function<void()>([] {});
  });
  EXPECT_FALSE(created);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
