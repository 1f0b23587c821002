// Helpers shared by the plugin tests: cheap optimizer options and temporary log paths.
#ifndef GPBANDIT_TESTS_OPTIMIZER_PLUGIN_TEST_UTIL_H_
#define GPBANDIT_TESTS_OPTIMIZER_PLUGIN_TEST_UTIL_H_

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {
namespace testing {

// Small maximizer, few fit restarts: fast enough for hundreds of rounds in a unit test.
inline OptimizerOptions CheapOptions(std::uint64_t seed = 1) {
  OptimizerOptions o;
  o.seed = seed;
  o.maximizer_raw_samples = 64;
  o.maximizer_starts = 2;
  o.maximizer_iterations = 20;
  o.fit.num_restarts = 1;
  o.fit.max_iterations = 50;
  o.sync_log = false;
  o.num_threads = 1;  // the machine is shared; results do not depend on it
  return o;
}

// The paths TempLogPath handed out, removed when the test program ends, unless a test failed
// (then they are left to look at). Only by the process that asked for them: a forked child that
// exits normally removes nothing.
class TempLogs {
 public:
  static void Add(const std::string& path) {
    static TempLogs* const logs = [] {
      static TempLogs instance;
      std::atexit([] { instance.RemoveAll(); });
      return &instance;
    }();
    logs->paths_.push_back(path);
  }

 private:
  void RemoveAll() const {
    if (::getpid() != owner_ || !::testing::UnitTest::GetInstance()->Passed()) return;
    for (const std::string& path : paths_) {
      std::remove(path.c_str());
      std::remove((path + ".lock").c_str());  // a lock file left by a process killed holding it
    }
  }
  pid_t owner_ = ::getpid();
  std::vector<std::string> paths_;
};

// A fresh path under TMPDIR (or /tmp), removed first, and again when the test program ends.
inline std::string TempLogPath(const std::string& name) {
  const char* dir = std::getenv("TMPDIR");
  const std::string path = std::string(dir ? dir : "/tmp") + "/gpbandit_" + name + "_" +
                           std::to_string(::getpid()) + ".jsonl";
  std::remove(path.c_str());
  TempLogs::Add(path);
  return path;
}

inline std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A log's text without the fields that depend on the wall clock and the process (the end of
// each pending point's lease and of each refit claim, the worker's name): what two runs that
// made the same suggestions have in common, byte for byte.
inline std::string WithoutLeases(const std::string& log_text) {
  static const std::regex lease(R"re(,?"(lease_until|refit_claim)":[-+.0-9eE]+)re");
  static const std::regex worker(R"re(,?"worker":"[^"]*")re");
  return std::regex_replace(std::regex_replace(log_text, lease, ""), worker, "");
}

// The log at `path`, WithoutLeases.
inline std::string ReadLogWithoutLeases(const std::string& path) {
  return WithoutLeases(ReadFile(path));
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_OPTIMIZER_PLUGIN_TEST_UTIL_H_
