#include "cli/command.h"

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <new>
#include <sstream>
#include <typeinfo>

#include "cli/io/csv.h"
#include "gpbandit/version.h"

namespace gpbandit {
namespace cli {

namespace {

enum class ValueKind { kNumber, kInteger, kUnsigned, kOther };

// What a flag's value is, from its C++ type (kOther for flags without a typed value).
ValueKind KindOf(const po::options_description& desc, const std::string& flag) {
  const std::string name = flag.substr(flag.find_first_not_of('-'));
  const po::option_description* option = desc.find_nothrow(name, false);
  const auto* typed =
      option ? dynamic_cast<const po::typed_value_base*>(option->semantic().get()) : nullptr;
  if (typed == nullptr) return ValueKind::kOther;
  const std::type_info& type = typed->value_type();
  if (type == typeid(double)) return ValueKind::kNumber;
  if (type == typeid(int) || type == typeid(long) || type == typeid(long long))
    return ValueKind::kInteger;
  if (type == typeid(unsigned) || type == typeid(unsigned long) ||
      type == typeid(unsigned long long))
    return ValueKind::kUnsigned;
  return ValueKind::kOther;
}

// "is not <what>" for a value that does not parse as the flag's kind.
std::string Expected(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNumber:
      return "a number (or is out of range)";
    case ValueKind::kInteger:
      return "an integer";
    case ValueKind::kUnsigned:
      return "an integer >= 0";
    case ValueKind::kOther:
      break;
  }
  return "a valid value";
}

// The text given for `flag` in the parsed arguments ("" if none).
std::string GivenValue(const po::parsed_options& parsed, const std::string& flag) {
  const std::string name = flag.substr(flag.find_first_not_of('-'));
  for (const po::option& o : parsed.options)
    if (o.string_key == name && !o.value.empty()) return o.value.front();
  return "";
}

// Boost's messages ("the argument ('abc') for option '--restarts' is invalid") in the
// grammar of command.h.
std::string FlagError(const po::error& e, const po::options_description& desc,
                      const po::parsed_options* parsed) {
  if (const auto* unknown = dynamic_cast<const po::unknown_option*>(&e))
    return "unknown option " + unknown->get_option_name();
  if (const auto* required = dynamic_cast<const po::required_option*>(&e))
    return required->get_option_name() + " is required";
  if (const auto* repeated = dynamic_cast<const po::multiple_occurrences*>(&e))
    return repeated->get_option_name() + " is given more than once";
  if (const auto* syntax = dynamic_cast<const po::invalid_command_line_syntax*>(&e)) {
    if (syntax->kind() == po::invalid_syntax::missing_parameter)
      return syntax->get_option_name() + " needs a value";
  }
  if (const auto* invalid = dynamic_cast<const po::validation_error*>(&e)) {
    const std::string flag = invalid->get_option_name();
    const std::string value = parsed ? GivenValue(*parsed, flag) : "";
    return flag + " '" + value + "' is not " + Expected(KindOf(desc, flag));
  }
  return e.what();
}

// Rejects positional arguments (every input is a --flag) and negative values of unsigned flags
// (which Boost would wrap around: --seed -1 would become 18446744073709551615).
void CheckParsedTokens(const po::parsed_options& parsed, const po::options_description& desc) {
  for (const po::option& o : parsed.options) {
    if (o.string_key.empty()) {
      const std::string token = o.original_tokens.empty() ? "" : o.original_tokens.front();
      throw UsageError("unexpected argument '" + token + "' (every value follows its --flag)");
    }
    if (!o.value.empty() && !o.value.front().empty() && o.value.front()[0] == '-' &&
        KindOf(desc, o.string_key) == ValueKind::kUnsigned)
      throw UsageError("--" + o.string_key + " " + o.value.front() + " must be >= 0");
  }
}

// The old spellings of `deprecated.renamed` in args, each replaced by its new one and warned
// about on `warnings`.
std::vector<std::string> RenameDeprecated(const std::string& command,
                                          const std::vector<std::string>& args,
                                          const DeprecatedFlags& deprecated,
                                          std::ostream* warnings) {
  std::vector<std::string> renamed = args;
  for (std::string& token : renamed) {
    for (const auto& [old_name, new_name] : deprecated.renamed) {
      const std::string flag = "--" + old_name;
      if (token != flag && token.rfind(flag + "=", 0) != 0) continue;
      *warnings << "gpbandit " << command << ": warning: " << flag
                << " is deprecated and will be removed in the next release; use --" << new_name
                << "\n";
      token = "--" + new_name + token.substr(flag.size());
    }
  }
  return renamed;
}

}  // namespace

bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    const DeprecatedFlags& deprecated, po::variables_map* vm, Streams streams) {
  desc.add_options()("help,h", "print this help and exit");
  // Every flag, the deprecated ones too; --help shows desc only.
  po::options_description all;
  all.add(desc).add(deprecated.changed);
  std::unique_ptr<po::parsed_options> parsed;
  try {
    parsed = std::make_unique<po::parsed_options>(
        po::command_line_parser(RenameDeprecated(command, args, deprecated, &streams.err))
            .options(all)
            .run());
    CheckParsedTokens(*parsed, all);
    po::store(*parsed, *vm);
    if (vm->count("help")) {
      streams.out << "usage: gpbandit " << command << " " << synopsis << "\n\n" << desc << "\n";
      return false;
    }
    po::notify(*vm);
  } catch (const po::error& e) {
    throw UsageError(FlagError(e, all, parsed.get()));
  }
  for (const auto& option : deprecated.changed.options()) {
    const std::string& name = option->long_name();
    if (vm->count(name) == 0 || (*vm)[name].defaulted()) continue;
    streams.err << "gpbandit " << command << ": warning: --" << name
                << " is deprecated and will be removed in the next release; use "
                << option->description() << "\n";
  }
  return true;
}

bool ParseArguments(const std::string& command, const std::string& synopsis,
                    const std::vector<std::string>& args, po::options_description& desc,
                    po::variables_map* vm, std::ostream& out) {
  // Without deprecated flags nothing is warned about: the error stream is never written.
  return ParseArguments(command, synopsis, args, desc, DeprecatedFlags(), vm, Streams{out, out});
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
    const std::string where =
        "--" + flag + ": item " + std::to_string(position) + " '" + item + "'";
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

void MeanAndSd(const std::vector<double>& v, double* mean, double* sd) {
  double s = 0, s2 = 0;
  for (double x : v) s += x;
  *mean = s / v.size();
  for (double x : v) s2 += (x - *mean) * (x - *mean);
  *sd = v.size() > 1 ? std::sqrt(s2 / (v.size() - 1)) : 0.0;
}

std::string FormatVector(const Eigen::VectorXd& v, const char* separator) {
  std::string out;
  for (Eigen::Index i = 0; i < v.size(); ++i) out += (i ? separator : "") + io::FormatDouble(v(i));
  return out;
}

int RunReportingErrors(const std::string& label, const std::function<int()>& run, Streams streams) {
  try {
    return run();
  } catch (const UsageError& e) {
    streams.err << "gpbandit " << label << ": " << e.what() << "\n(see gpbandit " << label
                << " --help)\n";
  } catch (const InputError& e) {
    streams.err << "gpbandit " << label << ": " << e.what() << "\n";
  } catch (const io::FileFormatError& e) {
    streams.err << "gpbandit " << label << ": " << e.what() << "\n";
  } catch (const std::invalid_argument& e) {
    // The library's own argument checks (bounds, options, sizes) are usage errors too.
    streams.err << "gpbandit " << label << ": " << e.what() << "\n";
  } catch (const std::bad_alloc&) {
    streams.err << "gpbandit " << label << ": error: out of memory\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    streams.err << "gpbandit " << label << ": error: " << e.what() << "\n";
    return kExitFailure;
  }
  return kExitUsage;
}

int Main(const std::vector<Command>& commands, const std::vector<std::string>& args,
         Streams streams) {
  auto usage = [&](std::ostream& os) {
    os << "usage: gpbandit <command> [options]   (gpbandit <command> --help for its options)\n"
          "       gpbandit --version\n\n"
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
  if (args[0] == "--version") {
    streams.out << "gpbandit " << GPBANDIT_VERSION_STRING << "\n";
    return kExitOk;
  }
  for (const Command& c : commands) {
    if (c.name != args[0]) continue;
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    return RunReportingErrors(
        c.name, [&] { return c.run(rest, streams); }, streams);
  }
  streams.err << "gpbandit: unknown command '" << args[0] << "'\n\n";
  usage(streams.err);
  return kExitUsage;
}

}  // namespace cli
}  // namespace gpbandit
