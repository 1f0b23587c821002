#include "gpbandit/examples/cli/command.h"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "gpbandit/examples/io/csv.h"

namespace gpbandit {
namespace cli {

bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    po::variables_map* vm, std::ostream& out) {
  desc.add_options()("help,h", "print this help and exit");
  try {
    po::store(po::command_line_parser(args).options(desc).run(), *vm);
    if (vm->count("help")) {
      out << "usage: gpbandit " << command << " " << synopsis << "\n\n" << desc << "\n";
      return false;
    }
    po::notify(*vm);
  } catch (const po::error& e) {
    throw UsageError(e.what());
  }
  return true;
}

Eigen::VectorXd ParseDoubleList(const std::string& flag, const std::string& text) {
  std::vector<double> values;
  std::stringstream in(text);
  std::string item;
  int position = 0;
  while (std::getline(in, item, ',')) {
    ++position;
    char* end = nullptr;
    const double value = std::strtod(item.c_str(), &end);
    if (item.empty() || end == item.c_str() || *end != '\0' || !std::isfinite(value))
      throw UsageError("--" + flag + ": item " + std::to_string(position) + " '" + item +
                       "' is not a finite number (in '" + text + "')");
    values.push_back(value);
  }
  if (values.empty() || (!text.empty() && text.back() == ','))
    throw UsageError("--" + flag + ": expected comma-separated numbers, got '" + text + "'");
  return Eigen::Map<Eigen::VectorXd>(values.data(), static_cast<Eigen::Index>(values.size()));
}

void ParseBounds(const std::string& flag, const std::string& text, Eigen::VectorXd* lower,
                 Eigen::VectorXd* upper) {
  std::vector<double> lo, hi;
  std::stringstream in(text);
  std::string item;
  int position = 0;
  while (std::getline(in, item, ',')) {
    ++position;
    const auto colon = item.find(':');
    const std::string where = "--" + flag + ": item " + std::to_string(position) + " '" + item + "'";
    if (colon == std::string::npos) throw UsageError(where + " is not of the form lower:upper");
    const std::string a = item.substr(0, colon), b = item.substr(colon + 1);
    char* end_a = nullptr;
    char* end_b = nullptr;
    const double va = std::strtod(a.c_str(), &end_a), vb = std::strtod(b.c_str(), &end_b);
    if (a.empty() || b.empty() || *end_a != '\0' || *end_b != '\0' || !std::isfinite(va) ||
        !std::isfinite(vb))
      throw UsageError(where + " needs two finite numbers lower:upper");
    if (va > vb) throw UsageError(where + " has lower > upper");
    lo.push_back(va);
    hi.push_back(vb);
  }
  if (lo.empty()) throw UsageError("--" + flag + ": expected lower:upper,..., got '" + text + "'");
  *lower = Eigen::Map<Eigen::VectorXd>(lo.data(), static_cast<Eigen::Index>(lo.size()));
  *upper = Eigen::Map<Eigen::VectorXd>(hi.data(), static_cast<Eigen::Index>(hi.size()));
}

std::vector<std::string> ParseNameList(const std::string& flag, const std::string& text) {
  std::vector<std::string> names;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    if (item.empty()) throw UsageError("--" + flag + ": empty name in '" + text + "'");
    names.push_back(item);
  }
  if (names.empty() || text.back() == ',')
    throw UsageError("--" + flag + ": expected comma-separated names, got '" + text + "'");
  return names;
}

StrategyParams ParseOptionFlags(const std::vector<std::string>& items) {
  StrategyParams params;
  for (const std::string& item : items) {
    const std::size_t equals = item.find('=');
    if (equals == std::string::npos || equals == 0)
      throw UsageError("--option '" + item + "': expected key=value, e.g. beta_scale=0.2");
    params = params.WithText(item.substr(0, equals), item.substr(equals + 1));
  }
  return params;
}

std::string FormatVector(const Eigen::VectorXd& v, const char* separator) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? separator : "") + io::FormatDouble(v(i));
  return out;
}

int Main(const std::vector<std::string>& args, Streams streams) {
  const std::vector<Command>& commands = Commands();
  auto usage = [&](std::ostream& os) {
    os << "usage: gpbandit <command> [options]   (gpbandit <command> --help for its options)\n\n"
          "Gaussian-process bandit optimization: GP-UCB, CGP-UCB, IGP-UCB, GP-TS, EI, PI.\n\n"
          "commands:\n";
    for (const Command& c : commands) {
      os << "  " << c.name << std::string(c.name.size() < 14 ? 14 - c.name.size() : 1, ' ')
         << c.summary << "\n";
    }
  };
  if (args.empty()) {
    usage(streams.err);
    return kExitUsage;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    usage(streams.out);
    return kExitOk;
  }
  for (const Command& c : commands) {
    if (c.name != args[0]) continue;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    try {
      return c.run(rest, streams);
    } catch (const UsageError& e) {
      streams.err << "gpbandit " << c.name << ": " << e.what() << "\n(see gpbandit " << c.name
                  << " --help)\n";
      return kExitUsage;
    } catch (const io::FileFormatError& e) {
      streams.err << "gpbandit " << c.name << ": " << e.what() << "\n";
      return kExitUsage;
    } catch (const std::invalid_argument& e) {
      // The library's own argument checks (bounds, options, sizes) are usage errors too.
      streams.err << "gpbandit " << c.name << ": " << e.what() << "\n";
      return kExitUsage;
    } catch (const std::exception& e) {
      streams.err << "gpbandit " << c.name << ": error: " << e.what() << "\n";
      return kExitFailure;
    }
  }
  streams.err << "gpbandit: unknown command '" << args[0] << "'\n\n";
  usage(streams.err);
  return kExitUsage;
}

}  // namespace cli
}  // namespace gpbandit
