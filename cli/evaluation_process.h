// One evaluation of `gpbandit worker`: the user's command run as a child process, and the
// worker's reaction to SIGINT and SIGTERM.
#ifndef GPBANDIT_CLI_EVALUATION_PROCESS_H_
#define GPBANDIT_CLI_EVALUATION_PROCESS_H_

#include <string>
#include <utility>
#include <vector>

namespace gpbandit {
namespace cli {

struct EvaluationResult {
  enum class Outcome {
    kReward,       // exit status 0 and a finite number on the last non-empty line of stdout
    kFailed,       // a non-zero exit, a signal, or no number: `problem` says which
    kInterrupted,  // the worker was asked to stop (the child got SIGTERM)
  };
  Outcome outcome = Outcome::kFailed;
  double reward = 0.0;
  std::string problem;
  // The command exited with status 0 (whatever its output), and its standard output: a study of
  // several outcomes reads them from the output's last line (LastLine) instead of `reward`.
  bool completed = false;
  std::string output;
};

// The last non-empty line of `output`, without surrounding blanks ("" if none).
std::string LastLine(const std::string& output);

// Runs argv (argv[0] looked up in PATH, the point's coordinates already appended by the
// caller) with `environment` added to the worker's own, its standard output read through a
// pipe (standard error passes through). posix_spawn, not fork: the worker has run OpenMP, and
// libgomp is not fork-safe. The command runs in a process group of its own; when a stop signal
// arrives meanwhile, the group gets SIGTERM (and SIGKILL 10 s later if it is still running) and
// the result is kInterrupted. Throws std::runtime_error when the command cannot be started.
EvaluationResult RunEvaluation(const std::vector<std::string>& argv,
                               const std::vector<std::pair<std::string, std::string>>& environment);

// The reward in a command's standard output: its last non-empty line, trimmed, one finite
// number. false (and *problem) otherwise.
bool ParseReward(const std::string& output, double* reward, std::string* problem);

// SIGINT and SIGTERM set a flag instead of ending the process (installed without SA_RESTART,
// so that a blocking read or wait returns to look at it).
void InstallStopSignals();
// The stop signal received, or 0.
int StopSignal();

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_EVALUATION_PROCESS_H_
