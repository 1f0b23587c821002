#include "storage/lease_lock.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpbandit/numerics/warning_sink.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kInf;

bool Exists(const std::string& path) {
  struct stat s;
  return ::stat(path.c_str(), &s) == 0;
}

std::string Contents(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::string ThisHost() {
  char host[256] = {};
  if (::gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

// A study file (whose descriptor is the breakers' mutex) and its lock file, removed after.
class LeaseLockTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string base = ::testing::TempDir() + "/lease_lock_" + std::to_string(::getpid()) +
                             "_" + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    study_ = base + ".jsonl";
    lock_ = study_ + ".lock";
    std::remove(lock_.c_str());
    mutex_fd_ = ::open(study_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    ASSERT_GE(mutex_fd_, 0);
    previous_ = SetWarningSink([this](const std::string& m) { warnings_.push_back(m); });
  }
  void TearDown() override {
    SetWarningSink(previous_);
    ::close(mutex_fd_);
    std::remove(study_.c_str());
    std::remove(lock_.c_str());
  }

  std::string study_, lock_;
  int mutex_fd_ = -1;
  std::vector<std::string> warnings_;
  WarningSink previous_;
};

TEST_F(LeaseLockTest, AcquireHoldsTheLockAndWritesTheHoldersToken) {
  LeaseLock lock(lock_, 10.0);
  EXPECT_FALSE(lock.held());
  EXPECT_TRUE(LeaseLock::Free(lock_));
  lock.Acquire(mutex_fd_, study_);
  EXPECT_TRUE(lock.held());
  EXPECT_TRUE(lock.StillHeld());
  EXPECT_FALSE(LeaseLock::Free(lock_));
  const std::string token = Contents(lock_);
  EXPECT_EQ(token.size(), 128u);  // fixed width, so that one write replaces a whole token
  EXPECT_EQ(token.back(), '\n');
  const std::string who = "gpbandit-lock " + ThisHost() + ":" + std::to_string(::getpid()) + " ";
  EXPECT_EQ(token.rfind(who, 0), 0u) << token;
  EXPECT_NE(token.find(" 10 "), std::string::npos) << token;  // its lease
}

TEST_F(LeaseLockTest, ReleaseLetsGoAndRemovesTheLockFile) {
  LeaseLock lock(lock_, 10.0);
  lock.Acquire(mutex_fd_, study_);
  ASSERT_TRUE(Exists(lock_));
  lock.Release();
  EXPECT_FALSE(lock.held());
  EXPECT_FALSE(lock.StillHeld());
  EXPECT_FALSE(Exists(lock_));
  EXPECT_TRUE(LeaseLock::Free(lock_));
  lock.Release();  // twice is harmless
  EXPECT_FALSE(lock.held());
}

TEST_F(LeaseLockTest, TheDestructorReleases) {
  {
    LeaseLock lock(lock_, 10.0);
    lock.Acquire(mutex_fd_, study_);
  }
  EXPECT_FALSE(Exists(lock_));
  LeaseLock next(lock_, 10.0);
  EXPECT_TRUE(next.TryAcquire(mutex_fd_, study_));
}

TEST_F(LeaseLockTest, ASecondHolderWaitsUntilTheFirstLetsGo) {
  LeaseLock first(lock_, 10.0);
  LeaseLock second(lock_, 10.0);
  ASSERT_TRUE(first.TryAcquire(mutex_fd_, study_));
  EXPECT_FALSE(second.TryAcquire(mutex_fd_, study_));
  EXPECT_FALSE(second.held());
  first.Release();
  EXPECT_TRUE(second.TryAcquire(mutex_fd_, study_));
  EXPECT_TRUE(second.held());
  EXPECT_FALSE(first.TryAcquire(mutex_fd_, study_));
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(LeaseLockTest, AcquireBlocksWhileAnotherHolds) {
  LeaseLock first(lock_, 10.0);
  first.Acquire(mutex_fd_, study_);
  const auto start = std::chrono::steady_clock::now();
  std::thread releaser([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    first.Release();
  });
  LeaseLock second(lock_, 10.0);
  second.Acquire(mutex_fd_, study_);
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  releaser.join();
  EXPECT_TRUE(second.held());
  EXPECT_GE(waited, 0.14);
  EXPECT_TRUE(warnings_.empty());  // a release is not a break
}

TEST_F(LeaseLockTest, AHolderBeyondItsLeaseIsBrokenAndWritesNothing) {
  LeaseLock frozen(lock_, 0.2);
  frozen.Acquire(mutex_fd_, study_);
  LeaseLock waiter(lock_, 0.2);
  const auto start = std::chrono::steady_clock::now();
  waiter.Acquire(mutex_fd_, study_);  // breaks the lock once it has seen it held for 0.2 s
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_GE(waited, 0.2);
  EXPECT_LT(waited, 5.0);
  EXPECT_TRUE(waiter.held());
  EXPECT_TRUE(waiter.StillHeld());
  // The broken holder's file is no longer at the path (and its lease is past 3/4 anyway).
  EXPECT_FALSE(frozen.StillHeld());
  ASSERT_EQ(warnings_.size(), 1u);
  EXPECT_NE(warnings_[0].find(study_ + ": the study's lock was held by " + ThisHost() + ":"),
            std::string::npos)
      << warnings_[0];
  EXPECT_NE(warnings_[0].find("beyond its lease"), std::string::npos) << warnings_[0];
  EXPECT_NE(warnings_[0].find("breaking it"), std::string::npos) << warnings_[0];
  // The broken holder's release leaves the new holder's file alone.
  frozen.Release();
  EXPECT_TRUE(Exists(lock_));
  EXPECT_TRUE(waiter.StillHeld());
  EXPECT_FALSE(LeaseLock::Free(lock_));
}

TEST_F(LeaseLockTest, AHolderMayWriteForThreeQuartersOfItsLease) {
  LeaseLock lock(lock_, 0.4);
  lock.Acquire(mutex_fd_, study_);
  EXPECT_TRUE(lock.StillHeld());
  std::this_thread::sleep_for(std::chrono::milliseconds(320));  // 0.8 of the lease
  EXPECT_FALSE(lock.StillHeld());
  EXPECT_TRUE(lock.held());  // still locked: only its writes are fenced
}

TEST_F(LeaseLockTest, AnInfiniteLeaseIsNeverBroken) {
  LeaseLock holder(lock_, kInf);
  holder.Acquire(mutex_fd_, study_);
  EXPECT_NE(Contents(lock_).find(" inf "), std::string::npos);
  LeaseLock waiter(lock_, 0.05);  // the holder's own lease counts, not the waiter's
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(300);
  while (std::chrono::steady_clock::now() < until) {
    EXPECT_FALSE(waiter.TryAcquire(mutex_fd_, study_));
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  EXPECT_TRUE(holder.StillHeld());
  EXPECT_TRUE(warnings_.empty());
}

TEST_F(LeaseLockTest, ALockFileThatCannotBeCreatedIsAnError) {
  const std::string path = ::testing::TempDir() + "/no_such_directory_" +
                           std::to_string(::getpid()) + "/study.jsonl.lock";
  LeaseLock lock(path, 10.0);
  try {
    lock.Acquire(mutex_fd_, study_);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot open the lock file '" + path + "'"),
              std::string::npos)
        << e.what();
  }
  EXPECT_FALSE(lock.held());
}

TEST(LeaseLockFree, AMissingLockFileIsFree) {
  EXPECT_TRUE(LeaseLock::Free(::testing::TempDir() + "/never_locked.lock"));
}

TEST(ProcessStopped, IsFalseForMalformedNamesOtherHostsAndRunningProcesses) {
  const std::string me = ThisHost() + ":" + std::to_string(::getpid());
  EXPECT_FALSE(ProcessStopped(me));  // running this test
  EXPECT_FALSE(ProcessStopped(""));
  EXPECT_FALSE(ProcessStopped("nohost"));
  EXPECT_FALSE(ProcessStopped(ThisHost() + ":"));
  EXPECT_FALSE(ProcessStopped(ThisHost() + ":12ab"));
  EXPECT_FALSE(ProcessStopped(ThisHost() + ":1234567890"));  // more digits than a pid has
  EXPECT_FALSE(ProcessStopped("another-host-" + ThisHost() + ":" + std::to_string(::getpid())));
}

TEST(ProcessStopped, IsTrueForAStoppedChildAndFalseOnceItRunsOrIsGone) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    for (;;) ::pause();
  }
  const std::string name = ThisHost() + ":" + std::to_string(child);
  ASSERT_EQ(::kill(child, SIGSTOP), 0);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, WUNTRACED), child);
  ASSERT_TRUE(WIFSTOPPED(status));
  EXPECT_TRUE(ProcessStopped(name));
  // On another host the same pid is another process.
  EXPECT_FALSE(ProcessStopped("elsewhere:" + std::to_string(child)));
  ASSERT_EQ(::kill(child, SIGCONT), 0);
  ASSERT_EQ(::waitpid(child, &status, WCONTINUED), child);
  EXPECT_FALSE(ProcessStopped(name));
  ASSERT_EQ(::kill(child, SIGKILL), 0);
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  EXPECT_FALSE(ProcessStopped(name));
}

}  // namespace
}  // namespace gpbandit
