#include "study/interrupted_retry.h"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace {

// A storage that is only ever described: RetryInterrupted names it in its message.
class NamedStorage : public StudyStorage {
 public:
  std::string Describe() const override { return "postgresql://db/x study 'runs'"; }
  std::unique_ptr<StudySession> Begin(LockMode) override { throw std::logic_error("not used"); }
};

// Collects the warnings of its lifetime.
class CollectWarnings {
 public:
  CollectWarnings() {
    previous_ = SetWarningSink([this](const std::string& m) { messages.push_back(m); });
  }
  ~CollectWarnings() { SetWarningSink(previous_); }
  std::vector<std::string> messages;

 private:
  WarningSink previous_;
};

TEST(RetryInterrupted, ReturnsTheFirstAttemptsResultWithoutAWarning) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  EXPECT_EQ(RetryInterrupted(storage, "retrying", [&] { return ++calls * 10; }), 10);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(warnings.messages.empty());
}

TEST(RetryInterrupted, RunsAgainAfterEachInterruptionAndWarnsEachTime) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  const std::string result = RetryInterrupted(storage, "retrying the call", [&] {
    if (++calls <= 3) throw StorageInterrupted("connection lost " + std::to_string(calls));
    return std::string("done");
  });
  EXPECT_EQ(result, "done");
  EXPECT_EQ(calls, 4);
  EXPECT_EQ(warnings.messages, (std::vector<std::string>{"connection lost 1; retrying the call",
                                                         "connection lost 2; retrying the call",
                                                         "connection lost 3; retrying the call"}));
}

TEST(RetryInterrupted, WorksForAVoidAttempt) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  RetryInterrupted(storage, "again", [&] {
    if (++calls == 1) throw StorageInterrupted("reset");
  });
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(warnings.messages.size(), 1u);
}

TEST(RetryInterrupted, SucceedsOnTheLastAllowedAttempt) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  EXPECT_EQ(RetryInterrupted(storage, "again",
                             [&] {
                               if (++calls < kMaxInterruptedAttempts)
                                 throw StorageInterrupted("reset");
                               return calls;
                             }),
            kMaxInterruptedAttempts);
  EXPECT_EQ(warnings.messages.size(), static_cast<std::size_t>(kMaxInterruptedAttempts - 1));
}

TEST(RetryInterrupted, GivesUpAfterTwentyInterruptionsNamingTheStorageAndTheLastOne) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  try {
    RetryInterrupted(storage, "again", [&]() -> int {
      throw StorageInterrupted("server gone " + std::to_string(++calls));
    });
    FAIL() << "no exception";
  } catch (const StorageInterrupted&) {
    FAIL() << "the last interruption escaped as itself";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "postgresql://db/x study 'runs': gave up after 20 interrupted attempts: "
              "server gone 20");
  }
  EXPECT_EQ(calls, 20);
  EXPECT_EQ(kMaxInterruptedAttempts, 20);
  EXPECT_EQ(warnings.messages.size(), 19u);
}

TEST(RetryInterrupted, OtherErrorsAreNotRetried) {
  CollectWarnings warnings;
  NamedStorage storage;
  int calls = 0;
  EXPECT_THROW(RetryInterrupted(storage, "again",
                                [&] {
                                  ++calls;
                                  throw std::runtime_error("disk full");
                                }),
               std::runtime_error);
  EXPECT_EQ(calls, 1);
  // StudyRewound is a runtime_error too, but not an interruption: the caller handles it.
  calls = 0;
  EXPECT_THROW(RetryInterrupted(storage, "again",
                                [&] {
                                  ++calls;
                                  throw StudyRewound("forgot record 3");
                                }),
               StudyRewound);
  EXPECT_EQ(calls, 1);
  EXPECT_TRUE(warnings.messages.empty());
}

}  // namespace
}  // namespace gpbandit
