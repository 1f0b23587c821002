// The warning sink (numerics/warning_sink.cc): the default writes to stderr, a host's sink gets
// every message instead, from any thread.
#include "gpbandit/numerics/warning_sink.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace gpbandit {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Collects the messages handed to it, thread-safely.
class Collector {
 public:
  WarningSink Sink() {
    return [this](const std::string& message) {
      std::lock_guard<std::mutex> lock(mutex_);
      messages_.push_back(message);
    };
  }
  std::vector<std::string> messages() {
    std::lock_guard<std::mutex> lock(mutex_);
    return messages_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

// Restores the default sink after each test, whatever it set.
class WarningSinkTest : public ::testing::Test {
 protected:
  void TearDown() override { SetWarningSink(nullptr); }
};

TEST_F(WarningSinkTest, DefaultWritesOneLineToStderr) {
  ::testing::internal::CaptureStderr();
  Warn("runs.jsonl: dropping a torn last line 4");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(),
            "gpbandit: warning: runs.jsonl: dropping a torn last line 4\n");
}

TEST_F(WarningSinkTest, SetSinkGetsEveryMessageAndStderrNone) {
  Collector collector;
  EXPECT_FALSE(SetWarningSink(collector.Sink()));  // the default was in place
  ::testing::internal::CaptureStderr();
  Warn("first");
  Warn("second");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
  EXPECT_THAT(collector.messages(), ElementsAre("first", "second"));
}

TEST_F(WarningSinkTest, SetReturnsThePreviousSinkAndEmptyRestoresTheDefault) {
  Collector a;
  Collector b;
  SetWarningSink(a.Sink());
  WarningSink previous = SetWarningSink(b.Sink());
  ASSERT_TRUE(previous);
  previous("through the returned sink");
  EXPECT_THAT(a.messages(), ElementsAre("through the returned sink"));
  SetWarningSink(nullptr);
  ::testing::internal::CaptureStderr();
  Warn("back to stderr");
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "gpbandit: warning: back to stderr\n");
  EXPECT_THAT(b.messages(), IsEmpty());
}

TEST_F(WarningSinkTest, ThrowingSinkFallsBackToStderr) {
  SetWarningSink([](const std::string&) { throw std::runtime_error("the host's logger broke"); });
  ::testing::internal::CaptureStderr();
  EXPECT_NO_THROW(Warn("still said"));
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "gpbandit: warning: still said\n");
}

TEST_F(WarningSinkTest, SinkMayWarnAndSetTheSinkWithoutDeadlock) {
  Collector collector;
  SetWarningSink([&collector](const std::string& message) {
    if (message == "outer") {
      Warn("inner");  // still this sink: it is the current one
      SetWarningSink(collector.Sink());
      return;
    }
    collector.Sink()(message);
  });
  Warn("outer");
  Warn("after");
  EXPECT_THAT(collector.messages(), ElementsAre("inner", "after"));
}

// Threads warn while another swaps the sink: every message reaches one of the two sinks exactly
// once (ThreadSanitizer, .ci/tsan, checks the accesses).
TEST_F(WarningSinkTest, ConcurrentWarningsAndSinkChangesLoseNothing) {
  Collector a;
  Collector b;
  SetWarningSink(a.Sink());
  constexpr int kThreads = 4;
  constexpr int kEach = 200;
  std::atomic<bool> done{false};
  std::thread swapper([&] {
    for (int i = 0; !done.load(); ++i) SetWarningSink(i % 2 == 0 ? b.Sink() : a.Sink());
  });
  std::vector<std::thread> writers;
  for (int t = 0; t < kThreads; ++t)
    writers.emplace_back([t] {
      for (int i = 0; i < kEach; ++i) Warn(std::to_string(t) + ":" + std::to_string(i));
    });
  for (std::thread& w : writers) w.join();
  done = true;
  swapper.join();
  std::vector<std::string> all = a.messages();
  const std::vector<std::string> from_b = b.messages();
  all.insert(all.end(), from_b.begin(), from_b.end());
  std::sort(all.begin(), all.end());
  std::vector<std::string> expected;
  for (int t = 0; t < kThreads; ++t)
    for (int i = 0; i < kEach; ++i) expected.push_back(std::to_string(t) + ":" + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(all, expected);
}

}  // namespace
}  // namespace gpbandit
