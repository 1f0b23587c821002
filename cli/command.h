// What every subcommand of the `gpbandit` program shares: how arguments are parsed, how errors
// are reported, the flags and checks several commands have, and small parsers for list-valued
// flags.
//
// Errors speak the user's language, in one grammar, after "gpbandit <command>: ":
//   --flag VALUE must be RULE                    a value out of range (--restarts -1 must be >= 0)
//   --flag 'TEXT' is not a number                a value that does not parse
//   --flag 'NAME' is unknown; known: a, b, c     a name that is not one of a list
//   --flag is required / unknown option --flag   a missing or unknown flag
//   PATH:LINE:COLUMN: problem                    a malformed input file (io/csv.h)
//   --flag PATH: problem                         a file or directory that cannot be used
// Flag errors add "(see gpbandit <command> --help)"; file errors do not.
#ifndef GPBANDIT_CLI_COMMAND_H_
#define GPBANDIT_CLI_COMMAND_H_

#include <Eigen/Core>
#include <boost/program_options.hpp>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace cli {

namespace po = boost::program_options;

// Exit statuses of the program.
constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;  // the work itself failed part-way (I/O, numerics)
// Bad arguments, or input and output files that cannot be used as given (malformed, missing,
// unreadable, unwritable): found before any work is done.
constexpr int kExitUsage = 2;

// The seed every command starts from unless --seed says otherwise.
constexpr std::uint64_t kDefaultSeed = 1;

// A bad flag: reported as "gpbandit <command>: <message>" plus a pointer to --help; exit 2.
class UsageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A file, directory or study named on the command line that cannot be used as given (missing,
// unreadable, unwritable, corrupt): reported as "gpbandit <command>: <message>"; exit 2.
class InputError : public std::runtime_error {
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

// The whole program, with `commands` as its subcommands (listed by --help in this order): args
// excludes the program name. `gpbandit --version` prints "gpbandit 0.1.0" (the version of the
// headers it was built with, gpbandit/version.h). Never throws; returns the exit status.
int Main(const std::vector<Command>& commands, const std::vector<std::string>& args,
         Streams streams);

// Runs a command, turning what it throws into a message on streams.err and an exit status.
// `label` names it in messages ("fit", "study create").
int RunReportingErrors(const std::string& label, const std::function<int()>& run, Streams streams);

// Parses args against desc (plus --help). Returns false when --help was given (the usage has
// then been written to out). Throws UsageError for unknown, repeated, missing or malformed
// options, a negative value of an unsigned flag, and arguments that are not options.
bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    po::variables_map* vm, std::ostream& out);

// The old spellings of a command's flags, accepted for one release. Each use prints a warning
// on the error stream that names the new flag:
//   gpbandit run: warning: --T is deprecated and will be removed in the next release; use --rounds
// cli/README.md lists them.
struct DeprecatedFlags {
  // Old name -> new name ("T" -> "rounds") for a flag whose value means what it meant: the old
  // spelling is read as the new one (exactly the old name, as --T N or --T=N).
  std::vector<std::pair<std::string, std::string>> renamed;
  // Old flags whose value means something else than their successor's (run's --noise was a
  // variance, --noise-sd is a standard deviation): options of their own, left out of --help,
  // each described by what the warning advises instead ("--noise-sd SD, the standard deviation
  // (the square root of --noise)"). The command reads and converts their values.
  po::options_description changed;
};

// ParseArguments, also accepting the deprecated flags (warnings on streams.err).
bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    const DeprecatedFlags& deprecated, po::variables_map* vm, Streams streams);

// The text --help shows for a default value: numbers in their shortest round-trip form (0.2,
// not 0.20000000000000001), '' for an empty string.
template <typename T>
std::string DefaultText(const T& value) {
  if constexpr (std::is_floating_point_v<T>) {
    return FormatDouble(value);
  } else if constexpr (std::is_integral_v<T>) {
    return std::to_string(value);
  } else {
    return value.empty() ? "''" : std::string(value);
  }
}

// po::value(variable) with the variable's current value as the default, shown readably.
template <typename T>
po::typed_value<T>* ValueWithDefault(T* variable) {
  return po::value(variable)->default_value(*variable, DefaultText(*variable));
}

// Flag checks, each throwing UsageError "--flag VALUE must be RULE".
void RequireAtLeast(const std::string& flag, long long value, long long min);
void RequirePositive(const std::string& flag, double value);     // finite and > 0
void RequireNonNegative(const std::string& flag, double value);  // finite and >= 0
// Throws UsageError "--flag 'value' is unknown; known: a, b, c" unless value is in known.
void RequireOneOf(const std::string& flag, const std::string& value,
                  const std::vector<std::string>& known);
// The same for a strategy name, against the registry.
void RequireRegisteredStrategy(const std::string& flag, const std::string& name);
// Throws UsageError "--option: <problem>" unless the registry builds the strategy from these
// options (an unknown key, a value out of range).
void RequireValidStrategyOptions(const std::string& strategy, const StrategyParams& options);

// The directory a path's file lives in ("." for a bare name, "/" for a file at the root).
std::string DirectoryOf(const std::string& path);
// Output paths, checked before any work so that a long run does not end in a write error.
// Throws InputError "--flag PATH: cannot ..." unless an existing `path` is a writable file, or
// a new one would be created in an existing, writable directory.
void RequireWritableFile(const std::string& flag, const std::string& path);
// Creates the directory `path` if it does not exist (not its parents); throws InputError unless
// it then is a writable directory.
void RequireWritableDirectory(const std::string& flag, const std::string& path);

// The mean and the sample standard deviation (n - 1; 0 for fewer than two values) of v
// (non-empty).
void MeanAndSd(const std::vector<double>& v, double* mean, double* sd);

// "a, b, c".
std::string JoinNames(const std::vector<std::string>& names);

// "0.3,4.2" -> [0.3, 4.2]. Throws UsageError naming `flag` and the bad item.
Eigen::VectorXd ParseDoubleList(const std::string& flag, const std::string& text);
// "0:1,0:10" -> lower [0, 0], upper [1, 10]. Throws UsageError (bad item, lower > upper,
// non-finite).
void ParseBounds(const std::string& flag, const std::string& text, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper);
// "a,b,c" -> {a, b, c} (empty items rejected).
std::vector<std::string> ParseNameList(const std::string& flag, const std::string& text);
// Comma-separated doubles, round-trip exact.
std::string FormatVector(const Eigen::VectorXd& v, const char* separator = ",");

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_COMMAND_H_
