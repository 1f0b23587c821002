// The command line's own subcommands, one function each (cli/*_command.cc and
// cli/*_commands.cc): the ask/tell workflow on a study, the queries of a study, the fits, the
// shared-study tools and the strategy listing. Each takes the arguments after the command name
// and returns the exit status; usage errors are thrown as UsageError (exit 2, see command.h).
// The example studies' subcommands are in examples/commands.h; cli/main.cc lists them all.
#ifndef GPBANDIT_CLI_COMMANDS_H_
#define GPBANDIT_CLI_COMMANDS_H_

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpbandit {
namespace cli {

int FitCommand(const std::vector<std::string>& args, Streams streams);
int SuggestCommand(const std::vector<std::string>& args, Streams streams);
int ObserveCommand(const std::vector<std::string>& args, Streams streams);
int WorkerCommand(const std::vector<std::string>& args, Streams streams);
int PendingCommand(const std::vector<std::string>& args, Streams streams);
int StudyCommand(const std::vector<std::string>& args, Streams streams);
int StrategiesCommand(const std::vector<std::string>& args, Streams streams);
int BestCommand(const std::vector<std::string>& args, Streams streams);
int PredictCommand(const std::vector<std::string>& args, Streams streams);
int PlotCommand(const std::vector<std::string>& args, Streams streams);
int ParetoCommand(const std::vector<std::string>& args, Streams streams);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_COMMANDS_H_
