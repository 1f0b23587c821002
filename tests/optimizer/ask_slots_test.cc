// The machine's ask slots (optimizer/ask_slots.h): one per core this process may run on, lease
// locks in "$TMPDIR/gpbandit-<uid>/", a take that waits while every slot is held, and asks
// without slots when the directory cannot be used.
#include "optimizer/ask_slots.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "gpbandit/numerics/warning_sink.h"
#include "tests/optimizer/scoped_tmpdir.h"

namespace gpbandit {
namespace {

// The CPUs this process may run on, read from /proc/self/status ("Cpus_allowed_list: 0-3,6").
int CpusAllowed() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Cpus_allowed_list:", 0) != 0) continue;
    std::stringstream list(line.substr(line.find(':') + 1));
    std::string range;
    int count = 0;
    while (std::getline(list, range, ',')) {
      const std::size_t dash = range.find('-');
      const int first = std::stoi(range.substr(0, dash));
      const int last = dash == std::string::npos ? first : std::stoi(range.substr(dash + 1));
      count += last - first + 1;
    }
    return count;
  }
  return -1;
}

bool Exists(const std::string& path) {
  struct stat s;
  return ::stat(path.c_str(), &s) == 0;
}

using testing::ScopedTmpdir;

TEST(AskSlots, ThereIsOneSlotPerCoreThisProcessMayRunOn) {
  const int cpus = CpusAllowed();
  if (cpus < 0) GTEST_SKIP() << "no /proc/self/status";
  EXPECT_EQ(AskSlots::CoresAvailable(), cpus);
  EXPECT_GE(AskSlots::CoresAvailable(), 1);
}

TEST(AskSlots, ATakenSlotIsALockFileUntilGivenBack) {
  ScopedTmpdir tmp("file");
  AskSlots slots(30.0);
  slots.Take();
  EXPECT_TRUE(Exists(tmp.SlotsDir() + "/slots"));
  EXPECT_TRUE(Exists(tmp.SlotsDir() + "/core0"));
  slots.Take();  // already held: no second slot
  EXPECT_FALSE(Exists(tmp.SlotsDir() + "/core1"));
  slots.Give();
  EXPECT_FALSE(Exists(tmp.SlotsDir() + "/core0"));
  slots.Give();  // nothing held: no-op
}

TEST(AskSlots, ATakeWaitsWhileEverySlotIsHeld) {
  ScopedTmpdir tmp("wait");
  const int n = AskSlots::CoresAvailable();
  std::vector<std::unique_ptr<AskSlots>> holders;
  for (int i = 0; i < n; ++i) {
    holders.push_back(std::make_unique<AskSlots>(30.0));
    holders.back()->Take();  // returns at once: a free slot
  }
  std::atomic<bool> taken{false};
  std::thread waiter([&] {
    AskSlots late(30.0);
    late.Take();
    taken = true;
    late.Give();
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_FALSE(taken) << "took a slot while all " << n << " were held";
  holders.front()->Give();
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!taken && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_TRUE(taken);
  waiter.join();
}

TEST(AskSlots, AnUnusableDirectoryMeansAsksWithoutSlotsAndOneWarning) {
  const char* old = std::getenv("TMPDIR");
  const std::string saved = old != nullptr ? old : "";
  ::setenv("TMPDIR", "/proc/gpbandit-no-such-dir", 1);
  std::vector<std::string> warnings;
  const WarningSink previous =
      SetWarningSink([&](const std::string& message) { warnings.push_back(message); });
  AskSlots slots(30.0);
  slots.Take();  // returns at once
  slots.Give();
  slots.Take();
  SetWarningSink(previous);
  if (old != nullptr)
    ::setenv("TMPDIR", saved.c_str(), 1);
  else
    ::unsetenv("TMPDIR");
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("for the ask slots; asks outside the study's lock go without them"),
            std::string::npos)
      << warnings[0];
}

TEST(AskSlot, HoldsASlotForItsScopeAndNothingWithoutSlots) {
  ScopedTmpdir tmp("scope");
  AskSlots slots(30.0);
  {
    const AskSlot held(&slots);
    EXPECT_TRUE(Exists(tmp.SlotsDir() + "/core0"));
  }
  EXPECT_FALSE(Exists(tmp.SlotsDir() + "/core0"));
  const AskSlot none(nullptr);  // no slots: nothing to take or give
}

}  // namespace
}  // namespace gpbandit
