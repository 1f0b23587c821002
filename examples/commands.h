// The subcommands of `gpbandit` that run the example studies (examples/demos/, examples/studies/),
// written with the command line's toolkit (cli/command.h) and listed in the program's command
// table (cli/main.cc). Each takes the arguments after the command name and returns the exit
// status; usage errors are thrown as cli::UsageError (exit 2).
#ifndef GPBANDIT_EXAMPLES_COMMANDS_H_
#define GPBANDIT_EXAMPLES_COMMANDS_H_

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpbandit {
namespace examples {

int DemoCommand(const std::vector<std::string>& args, cli::Streams streams);
int DriftDemoCommand(const std::vector<std::string>& args, cli::Streams streams);
int SafeDemoCommand(const std::vector<std::string>& args, cli::Streams streams);
int PidTradeoffCommand(const std::vector<std::string>& args, cli::Streams streams);
int SimToRobotCommand(const std::vector<std::string>& args, cli::Streams streams);
int RunCommand(const std::vector<std::string>& args, cli::Streams streams);
int SensorDataCommand(const std::vector<std::string>& args, cli::Streams streams);

}  // namespace examples
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_COMMANDS_H_
