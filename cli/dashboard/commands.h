// The dashboard's two subcommands (cli/main.cc lists them):
//   gpbandit dashboard (--log FILE | --storage URL [--study NAME]) [--port N] [--bind ADDR]
//                      [--token T]      serve the page and the JSON API until interrupted
//   gpbandit report (--log FILE | --storage URL [--study NAME]) --out report.html
//                                       the same views in one self-contained HTML file
#ifndef GPBANDIT_CLI_DASHBOARD_COMMANDS_H_
#define GPBANDIT_CLI_DASHBOARD_COMMANDS_H_

#include <string>
#include <vector>

#include "cli/command.h"

namespace gpbandit {
namespace cli {

int DashboardCommand(const std::vector<std::string>& args, Streams streams);
int ReportCommand(const std::vector<std::string>& args, Streams streams);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_DASHBOARD_COMMANDS_H_
