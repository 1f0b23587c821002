#include "cli/evaluation_process.h"

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace gpbandit {
namespace cli {
namespace {

volatile std::sig_atomic_t stop_signal = 0;

void OnStopSignal(int signal) { stop_signal = signal; }

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(&s[0]);
  out.push_back(nullptr);
  return out;
}

// The child's pid, its stdout at *out_fd.
pid_t Spawn(const std::vector<std::string>& argv,
            const std::vector<std::pair<std::string, std::string>>& environment, int* out_fd) {
  int pipe_fd[2];
  if (::pipe(pipe_fd) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  std::vector<std::string> args = argv, env;
  for (char** e = environ; *e != nullptr; ++e) env.emplace_back(*e);
  for (const auto& [key, value] : environment) env.push_back(key + "=" + value);
  std::vector<char*> c_args = CStrings(args), c_env = CStrings(env);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, pipe_fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addclose(&actions, pipe_fd[0]);
  posix_spawn_file_actions_addclose(&actions, pipe_fd[1]);
  // Its own process group, so that a stop reaches whatever it started too (a shell script's
  // children hold its output open).
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attributes, 0);
  pid_t pid = 0;
  const int error =
      ::posix_spawnp(&pid, c_args[0], &actions, &attributes, c_args.data(), c_env.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(pipe_fd[1]);
  if (error != 0) {
    ::close(pipe_fd[0]);
    throw std::runtime_error("cannot run '" + argv[0] + "': " + std::strerror(error));
  }
  *out_fd = pipe_fd[0];
  return pid;
}

// How long a stopped command may take to end before it is killed.
constexpr auto kStopGrace = std::chrono::seconds(10);

// Sends the command's process group SIGTERM once a stop signal has arrived, and SIGKILL when it
// is still running kStopGrace later.
void ForwardStop(pid_t child, bool* signalled,
                 std::chrono::steady_clock::time_point* signalled_at) {
  if (stop_signal == 0) return;
  if (!*signalled) {
    ::kill(-child, SIGTERM);
    *signalled = true;
    *signalled_at = std::chrono::steady_clock::now();
  } else if (std::chrono::steady_clock::now() - *signalled_at > kStopGrace) {
    ::kill(-child, SIGKILL);
  }
}

// Reads fd to its end, forwarding a stop to the command meanwhile.
std::string ReadAll(int fd, pid_t child, bool* signalled,
                    std::chrono::steady_clock::time_point* signalled_at) {
  std::string output;
  char buffer[4096];
  for (;;) {
    ForwardStop(child, signalled, signalled_at);
    pollfd readable{fd, POLLIN, 0};
    const int ready = ::poll(&readable, 1, 200);
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n > 0) output.append(buffer, static_cast<std::size_t>(n));
    if (n == 0 || (n < 0 && errno != EINTR)) break;
  }
  ::close(fd);
  return output;
}

int Wait(pid_t child, bool* signalled, std::chrono::steady_clock::time_point* signalled_at) {
  int status = 0;
  while (::waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return -1;
    ForwardStop(child, signalled, signalled_at);
  }
  return status;
}

}  // namespace

std::string LastLine(const std::string& output) {
  std::size_t end = output.find_last_not_of(" \t\r\n");
  if (end == std::string::npos) return "";
  const std::size_t start = output.find_last_of('\n', end) + 1;  // npos + 1 == 0
  std::string line = output.substr(start, end + 1 - start);
  line.erase(0, line.find_first_not_of(" \t"));
  return line;
}

bool ParseReward(const std::string& output, double* reward, std::string* problem) {
  const std::string line = LastLine(output);
  if (line.empty()) {
    *problem = "no output";
    return false;
  }
  char* parsed_end = nullptr;
  const double value = std::strtod(line.c_str(), &parsed_end);
  if (parsed_end == line.c_str() || *parsed_end != '\0' || !std::isfinite(value)) {
    *problem = "the last line of its output, '" + line + "', is not a finite number";
    return false;
  }
  *reward = value;
  return true;
}

EvaluationResult RunEvaluation(
    const std::vector<std::string>& argv,
    const std::vector<std::pair<std::string, std::string>>& environment) {
  int out_fd = -1;
  const pid_t child = Spawn(argv, environment, &out_fd);
  bool signalled = false;
  std::chrono::steady_clock::time_point signalled_at;
  const std::string output = ReadAll(out_fd, child, &signalled, &signalled_at);
  const int status = Wait(child, &signalled, &signalled_at);
  EvaluationResult result;
  if (signalled || stop_signal != 0) {
    result.outcome = EvaluationResult::Outcome::kInterrupted;
    return result;
  }
  if (status < 0 || !WIFEXITED(status)) {
    result.problem = WIFSIGNALED(status)
                         ? "it was killed by signal " + std::to_string(WTERMSIG(status))
                         : "it could not be waited for";
    return result;
  }
  if (WEXITSTATUS(status) != 0) {
    result.problem = "it exited with status " + std::to_string(WEXITSTATUS(status));
    return result;
  }
  result.completed = true;
  result.output = output;
  if (ParseReward(output, &result.reward, &result.problem))
    result.outcome = EvaluationResult::Outcome::kReward;
  return result;
}

void InstallStopSignals() {
  struct sigaction action;
  std::memset(&action, 0, sizeof action);
  action.sa_handler = OnStopSignal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = 0;  // no SA_RESTART
  ::sigaction(SIGINT, &action, nullptr);
  ::sigaction(SIGTERM, &action, nullptr);
}

int StopSignal() { return stop_signal; }

}  // namespace cli
}  // namespace gpbandit
