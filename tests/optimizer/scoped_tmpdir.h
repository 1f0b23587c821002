// TMPDIR pointed at a fresh directory of one test for its scope, so that the machine's ask slots
// (optimizer/ask_slots.h, "$TMPDIR/gpbandit-<uid>/") are this test's alone: no other process's
// asks hold them. Restores TMPDIR and removes the directory (and the slots' files) at the end.
#ifndef GPBANDIT_TESTS_OPTIMIZER_SCOPED_TMPDIR_H_
#define GPBANDIT_TESTS_OPTIMIZER_SCOPED_TMPDIR_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>

namespace gpbandit {
namespace testing {

class ScopedTmpdir {
 public:
  explicit ScopedTmpdir(const std::string& name) {
    const char* old = std::getenv("TMPDIR");
    had_ = old != nullptr;
    if (had_) old_ = old;
    dir_ = std::string(had_ ? old : "/tmp") + "/gpbandit_slots_" + name + "_" +
           std::to_string(::getpid());
    ::mkdir(dir_.c_str(), 0700);
    ::setenv("TMPDIR", dir_.c_str(), 1);
  }
  ~ScopedTmpdir() {
    if (had_)
      ::setenv("TMPDIR", old_.c_str(), 1);
    else
      ::unsetenv("TMPDIR");
    const std::string slots = SlotsDir();
    for (int i = 0; i < 256; ++i) ::unlink((slots + "/core" + std::to_string(i)).c_str());
    ::unlink((slots + "/slots").c_str());
    ::rmdir(slots.c_str());
    ::rmdir(dir_.c_str());
  }
  ScopedTmpdir(const ScopedTmpdir&) = delete;
  ScopedTmpdir& operator=(const ScopedTmpdir&) = delete;

  // Where the ask slots of this scope are.
  std::string SlotsDir() const { return dir_ + "/gpbandit-" + std::to_string(::getuid()); }

 private:
  std::string dir_, old_;
  bool had_ = false;
};

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_SCOPED_TMPDIR_H_
