// Child processes for the shared-study tests and benchmark: started with posix_spawn, their
// output in files. No test framework here (bench/ uses it too).
#ifndef GPBANDIT_TESTS_SHARED_CHILD_PROCESS_H_
#define GPBANDIT_TESTS_SHARED_CHILD_PROCESS_H_

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

extern char** environ;

namespace gpbandit {
namespace testing {

inline std::string ReadText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A child process whose stdout and stderr go to files.
struct Child {
  pid_t pid = -1;
  std::string out, err;
};

// Starts argv (argv[0] a path) with its output in out/err (created or truncated); throws
// std::runtime_error when it cannot. posix_spawn: the calling process may have run OpenMP, and
// libgomp is not fork-safe.
inline Child Spawn(const std::vector<std::string>& argv, const std::string& out,
                   const std::string& err) {
  std::vector<std::string> args = argv;
  std::vector<char*> c_args;
  for (std::string& a : args) c_args.push_back(&a[0]);
  c_args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  Child child;
  child.out = out;
  child.err = err;
  const int error = ::posix_spawn(&child.pid, c_args[0], &actions, nullptr, c_args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0] + ": " + std::strerror(error));
  return child;
}

// The child's wait status.
inline int Wait(const Child& child) {
  int status = 0;
  ::waitpid(child.pid, &status, 0);
  return status;
}

inline bool ExitedZero(int status) { return WIFEXITED(status) && WEXITSTATUS(status) == 0; }

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_SHARED_CHILD_PROCESS_H_
