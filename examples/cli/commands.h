// The subcommands of `gpbandit`, one function each (examples/cli/*_command.cc). Each takes the
// arguments after the command name and returns the exit status; usage errors are thrown as
// UsageError (exit 2, see command.h).
#ifndef GPBANDIT_EXAMPLES_CLI_COMMANDS_H_
#define GPBANDIT_EXAMPLES_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "examples/cli/command.h"

namespace gpbandit {
namespace cli {

int RunCommand(const std::vector<std::string>& args, Streams streams);
int FitCommand(const std::vector<std::string>& args, Streams streams);
int SuggestCommand(const std::vector<std::string>& args, Streams streams);
int ObserveCommand(const std::vector<std::string>& args, Streams streams);
int WorkerCommand(const std::vector<std::string>& args, Streams streams);
int PendingCommand(const std::vector<std::string>& args, Streams streams);
int StudyCommand(const std::vector<std::string>& args, Streams streams);
int DemoCommand(const std::vector<std::string>& args, Streams streams);
int SensorDataCommand(const std::vector<std::string>& args, Streams streams);
int StrategiesCommand(const std::vector<std::string>& args, Streams streams);
int BestCommand(const std::vector<std::string>& args, Streams streams);
int PredictCommand(const std::vector<std::string>& args, Streams streams);
int PlotCommand(const std::vector<std::string>& args, Streams streams);
int DriftDemoCommand(const std::vector<std::string>& args, Streams streams);
int SafeDemoCommand(const std::vector<std::string>& args, Streams streams);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_CLI_COMMANDS_H_
