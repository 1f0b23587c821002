#include "optimizer/ask_slots.h"

#include <fcntl.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "gpbandit/numerics/warning_sink.h"
#include "storage/lease_lock.h"

namespace gpbandit {
namespace {

// A waiter's polls over the slots back off from 100 us to 2 ms.
constexpr auto kFirstPause = std::chrono::microseconds(100);
constexpr auto kLongestPause = std::chrono::microseconds(2000);

}  // namespace

AskSlots::AskSlots(double lease_seconds) : lease_seconds_(lease_seconds) {}

AskSlots::~AskSlots() {
  Give();
  if (mutex_fd_ >= 0) ::close(mutex_fd_);
}

int AskSlots::CoresAvailable() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN));
}

// The directory and its breakers' mutex file; false (and a warning) when they cannot be made.
bool AskSlots::Prepare() {
  if (!slots_.empty() || !usable_) return usable_;
  const char* tmp = std::getenv("TMPDIR");
  dir_ = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/gpbandit-" +
         std::to_string(::getuid());
  if (::mkdir(dir_.c_str(), 0700) != 0 && errno != EEXIST) usable_ = false;
  if (usable_) {
    mutex_fd_ = ::open((dir_ + "/slots").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    usable_ = mutex_fd_ >= 0;
  }
  if (!usable_) {
    Warn("cannot use " + dir_ +
         " for the ask slots; asks outside the study's lock go without them");
    return false;
  }
  for (int i = 0; i < CoresAvailable(); ++i)
    slots_.push_back(std::make_unique<LeaseLock>(dir_ + "/core" + std::to_string(i), lease_seconds_,
                                                 "an ask slot"));
  return true;
}

void AskSlots::Take() {
  if (held_ >= 0 || !Prepare()) return;
  auto pause = kFirstPause;
  for (;;) {
    try {
      for (std::size_t i = 0; i < slots_.size(); ++i) {
        if (slots_[i]->TryAcquire(mutex_fd_, dir_ + "/slots")) {
          held_ = static_cast<int>(i);
          return;
        }
      }
    } catch (const std::exception& e) {
      Warn(std::string(e.what()) + "; asks outside the study's lock go without slots");
      usable_ = false;
      slots_.clear();
      return;
    }
    std::this_thread::sleep_for(pause);
    pause = std::min(kLongestPause, pause * 2);
  }
}

void AskSlots::Give() {
  if (held_ < 0) return;
  slots_[static_cast<std::size_t>(held_)]->Release();
  held_ = -1;
}

}  // namespace gpbandit
