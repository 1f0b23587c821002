// The `gpbandit` program: the command line's own subcommands (cli/commands.h) and those that run
// the example studies (examples/commands.h), in the order `gpbandit --help` lists them. The
// table is explicit: a new subcommand is one row here.
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/commands.h"
#include "cli/dashboard/commands.h"
#include "examples/commands.h"

namespace gpbandit {
namespace {

const std::vector<cli::Command>& Subcommands() {
  static const std::vector<cli::Command> commands = {
      {"demo", "tune a simulated robot controller under changing payloads (CGP-UCB)",
       examples::DemoCommand},
      {"drift-demo", "tune the robot while its plant drifts: TV-GP-UCB, R-GP-UCB vs GP-UCB",
       examples::DriftDemoCommand},
      {"safe-demo",
       "tune the robot under a peak-error limit: SafeOpt-MC vs GP-UCB, unsafe episodes",
       examples::SafeDemoCommand},
      {"pid-tradeoff",
       "tune a PID loop for tracking error and control effort under an overshoot limit",
       examples::PidTradeoffCommand},
      {"sim-to-robot", "tune the robot with help from a wrong, cheaper simulator (fidelities)",
       examples::SimToRobotCommand},
      {"run", "a regret study: strategies x problem x trials, CSV per round, summary",
       examples::RunCommand},
      {"fit", "fit kernel hyperparameters to observations, print JSON", cli::FitCommand},
      {"suggest", "the next point to try, from a JSON-Lines log (one CSV line)",
       cli::SuggestCommand},
      {"observe", "record a reward for a point in the log", cli::ObserveCommand},
      {"best", "the recommended action at a context, from a study (one CSV line)",
       cli::BestCommand},
      {"predict", "posterior mean and standard deviation at a point, from a study",
       cli::PredictCommand},
      {"pareto", "the Pareto front of a study of several outcomes, and its hypervolume",
       cli::ParetoCommand},
      {"plot", "a PNG of the model on a 1-D or 2-D slice, with observations and next point",
       cli::PlotCommand},
      {"worker", "evaluate a command in a loop for a shared study (ask, run, tell)",
       cli::WorkerCommand},
      {"pending", "the points handed out and not yet observed, with their leases",
       cli::PendingCommand},
      {"dashboard", "serve a live page of a study: model, trials, workers (read-only)",
       cli::DashboardCommand},
      {"report", "the dashboard's views of a study in one self-contained HTML file",
       cli::ReportCommand},
      {"study", "create, list, show, export or import studies (files, PostgreSQL)",
       cli::StudyCommand},
      {"sensor-data", "simulate the building's sensors, write the finite-problem files",
       examples::SensorDataCommand},
      {"strategies", "list the registered strategies and their options", cli::StrategiesCommand},
  };
  return commands;
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  return gpbandit::cli::Main(gpbandit::Subcommands(), args, {std::cout, std::cerr});
}
