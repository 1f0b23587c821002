// What every subcommand of the `gpbandit` program shares: how arguments are parsed, how usage
// errors are reported (exit status 2), and small parsers for list-valued flags.
#ifndef GPBANDIT_EXAMPLES_CLI_COMMAND_H_
#define GPBANDIT_EXAMPLES_CLI_COMMAND_H_

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Core>
#include <boost/program_options.hpp>

#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace cli {

namespace po = boost::program_options;

// Exit statuses of the program.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // the work itself failed (I/O, numerics)
constexpr int kExitUsage = 2;    // bad arguments or malformed input files

// A bad argument or malformed input: reported as "gpbandit <command>: <message>" and exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The streams a command writes to: out is the result (a CSV line, JSON, a table), err the
// progress and diagnostics. Tests pass string streams.
struct Streams {
  std::ostream& out;
  std::ostream& err;
};

struct Command {
  std::string name;
  std::string summary;  // one line for `gpbandit --help`
  std::function<int(const std::vector<std::string>& args, Streams streams)> run;
};

// Every subcommand, in the order `gpbandit --help` lists them.
const std::vector<Command>& Commands();

// The whole program: args excludes the program name. Never throws; returns the exit status.
int Main(const std::vector<std::string>& args, Streams streams);

// Parses args against desc (plus --help). Returns false when --help was given (the usage has
// then been written to out). Throws UsageError for unknown or malformed options.
bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    po::variables_map* vm, std::ostream& out);

// "0.3,4.2" -> [0.3, 4.2]. Throws UsageError naming `flag` and the bad item.
Eigen::VectorXd ParseDoubleList(const std::string& flag, const std::string& text);
// "0:1,0:10" -> lower [0, 0], upper [1, 10]. Throws UsageError (bad item, lower > upper,
// non-finite).
void ParseBounds(const std::string& flag, const std::string& text, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper);
// "a,b,c" -> {a, b, c} (empty items rejected).
std::vector<std::string> ParseNameList(const std::string& flag, const std::string& text);
// The values of a repeatable --option key=value flag as strategy parameters (a value is JSON
// when it parses as a number, true, false or a quoted string, else text: beta_schedule=rkhs).
// Throws UsageError for an item without '=' or with an empty key.
StrategyParams ParseOptionFlags(const std::vector<std::string>& items);
// Comma-separated doubles, round-trip exact.
std::string FormatVector(const Eigen::VectorXd& v, const char* separator = ",");

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_CLI_COMMAND_H_
