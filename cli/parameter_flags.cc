#include "cli/parameter_flags.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "gpbandit/space/parameter_spec.h"

namespace gpbandit {
namespace cli {
namespace {

// "name=fixed:VALUE": a parameter that always has VALUE, an integer when VALUE is one, else a
// real when it is a number, else a label (the library's spec grammar fixes one by equal bounds).
std::optional<Parameter> FixedSpec(const std::string& spec) {
  const std::size_t eq = spec.find('=');
  if (eq == std::string::npos || spec.compare(eq + 1, 6, "fixed:") != 0) return std::nullopt;
  const std::string name = spec.substr(0, eq), value = spec.substr(eq + 7);
  if (value.empty()) throw UsageError("--param '" + spec + "': 'fixed' takes a value, fixed:V");
  char* end = nullptr;
  errno = 0;
  const long long integer = std::strtoll(value.c_str(), &end, 10);
  if (*end == '\0' && errno == 0) return Parameter::Fixed(name, integer);
  errno = 0;
  const double real = std::strtod(value.c_str(), &end);
  if (*end == '\0' && errno == ERANGE)
    throw UsageError("--param '" + spec + "': '" + value + "' is out of range");
  if (*end == '\0') return Parameter::Fixed(name, real);
  return Parameter::Fixed(name, value);
}

std::vector<Parameter> ParametersOfSpecs(const std::vector<std::string>& specs) {
  std::vector<Parameter> parameters;
  for (const std::string& spec : specs) {
    try {
      const std::optional<Parameter> fixed = FixedSpec(spec);
      if (fixed) ParameterSpace({*fixed});  // the space's checks of one parameter
      parameters.push_back(fixed ? *fixed : ParseParameterSpec(spec));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--param '" + spec + "': " + e.what());
    }
  }
  return parameters;
}

ParameterSpace SpaceOfFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError("--space " + path + ": cannot read it: " + std::strerror(errno));
  std::stringstream text;
  text << in.rdbuf();
  try {
    return ParseParameterSpaceJson(text.str());
  } catch (const std::invalid_argument& e) {
    throw InputError("--space " + path + ": " + e.what());
  }
}

// Splits one text into name=value pairs: a pair starts at the text's start or after blanks,
// at "name=" of a parameter of the space; anything else (a blank inside a label) belongs to the
// pair before it.
std::vector<std::string> SplitPairs(const ParameterSpace& space, const std::string& text) {
  auto blank = [&](std::size_t at) { return std::isspace(static_cast<unsigned char>(text[at])); };
  auto starts_pair = [&](std::size_t at) {
    const std::size_t eq = text.find('=', at);
    return eq != std::string::npos && space.Index(text.substr(at, eq - at)) >= 0;
  };
  std::vector<std::string> pairs;
  std::size_t start = std::string::npos;  // of the pair being read
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const bool word_starts = i < text.size() && !blank(i) && (i == 0 || blank(i - 1));
    if (i < text.size() && !(word_starts && (start == std::string::npos || starts_pair(i))))
      continue;
    if (start != std::string::npos) {
      std::size_t end = i;
      while (end > start && blank(end - 1)) --end;
      pairs.push_back(text.substr(start, end - start));
    }
    start = i;
  }
  return pairs;
}

// The name of a word "name=value" shaped as a parameter's name (parameter_spec.h), or "".
std::string NameOfPairWord(const std::string& word) {
  const std::size_t eq = word.find('=');
  if (eq == std::string::npos || eq == 0) return "";
  const auto letter = [](char c) {
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
  };
  if (!letter(word[0])) return "";
  for (std::size_t i = 1; i < eq; ++i)
    if (!letter(word[i]) && !std::isdigit(static_cast<unsigned char>(word[i])) && word[i] != '.' &&
        word[i] != '-')
      return "";
  return word.substr(0, eq);
}

// Throws UsageError when a pair's value holds, after a blank, a word "name=..." that is no
// parameter's (SplitPairs joined it to the pair before as if a label went on), unless the
// whole value is a label of that pair's parameter.
void RequireKnownNames(const ParameterSpace& space, const std::vector<std::string>& pairs,
                       const std::string& flag) {
  for (const std::string& pair : pairs) {
    const std::size_t eq = pair.find('=');
    if (eq == std::string::npos) continue;
    const int index = space.Index(pair.substr(0, eq));
    const std::string value = pair.substr(eq + 1);
    if (index >= 0) {
      const Parameter& p = space.parameter(index);
      if (std::find(p.labels.begin(), p.labels.end(), value) != p.labels.end()) continue;
    }
    std::istringstream words(value);
    std::string word;
    words >> word;  // the value's own first word
    while (words >> word) {
      const std::string name = NameOfPairWord(word);
      if (!name.empty())
        throw UsageError("--" + flag + ": '" + name + "' in '" + word +
                         "' is not a parameter of this study (its parameters: " + space.Describe() +
                         ")");
    }
  }
}

// How far from a bound a coordinate may be and still be that bound: kBoundSnap of the
// coordinate's width, on a log parameter in log units.
bool WithinRounding(double v, double bound, double lower, double upper, bool log_scale) {
  if (log_scale && lower > 0 && v > 0)
    return std::fabs(std::log(v) - std::log(bound)) <=
           kBoundSnap * (std::log(upper) - std::log(lower));
  return std::fabs(v - bound) <= kBoundSnap * (upper - lower);
}

}  // namespace

Eigen::VectorXd SnapToBounds(const Domain& domain, const Eigen::VectorXd& x) {
  const ParameterSpace* space = domain.action_space();
  const Eigen::VectorXd lower = space ? space->vector_lower() : domain.lower();
  const Eigen::VectorXd upper = space ? space->vector_upper() : domain.upper();
  if (domain.kind() == DomainKind::kFiniteSet || lower.size() != x.size()) return x;
  Eigen::VectorXd snapped = x;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const bool log_scale =
        space && space->parameter(static_cast<int>(i)).scale == ParameterScale::kLog;
    for (const double bound : {lower(i), upper(i)})
      if (WithinRounding(x(i), bound, lower(i), upper(i), log_scale)) snapped(i) = bound;
  }
  return snapped;
}

std::string SuggestionText(const Domain& domain, const Eigen::VectorXd& x) {
  return PointText(domain, SnapToBounds(domain, x));
}

long FindPendingPrintedAs(const std::vector<PendingPoint>& pending, const Domain& domain,
                          const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const std::string text = SuggestionText(domain, x);
  long found = -1;
  for (const PendingPoint& p : pending) {
    if (p.z.size() != z.size() || p.z != z) continue;
    if (p.x == x) return -1;  // pending exactly: Tell releases it
    if (found < 0 && SuggestionText(domain, p.x) == text) found = p.trial;
  }
  return found;
}

void AddSpaceFlags(po::options_description* desc, SpaceFlags* f, const std::string& when) {
  desc->add_options()(
      "param", po::value(&f->params)->composing(),
      ("a named parameter instead of --bounds, repeatable: name=real:lo:hi, name=log:lo:hi, "
       "name=int:lo:hi, name=int-log:lo:hi, name=cat:a,b,c or name=fixed:value (" +
       when + ")")
          .c_str())("space", po::value(&f->space_file),
                    ("a JSON file of the parameters, {\"parameters\": [...]}, instead of --param "
                     "(" +
                     when + ")")
                        .c_str());
}

std::optional<ParameterSpace> SpaceFromFlags(const SpaceFlags& f, const std::string& bounds) {
  if (!f.given()) return std::nullopt;
  if (!f.params.empty() && !f.space_file.empty())
    throw UsageError("give one of --param and --space, not both");
  const std::string flag = f.params.empty() ? "--space" : "--param";
  if (!bounds.empty())
    throw UsageError(flag + " and --bounds " + bounds +
                     " both give the actions: use --bounds for a box, " + flag +
                     " for named parameters");
  if (!f.space_file.empty()) return SpaceOfFile(f.space_file);
  try {
    return ParameterSpace(ParametersOfSpecs(f.params));
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--param: ") + e.what());
  }
}

void CheckSpaceMatches(const SpaceFlags& f, const Domain& domain, const std::string& where) {
  const std::optional<ParameterSpace> given = SpaceFromFlags(f, "");
  if (!given) return;
  const std::string flag = f.params.empty() ? "--space " + f.space_file : "--param";
  const ParameterSpace* logged = domain.action_space();
  if (logged == nullptr)
    throw UsageError(flag + " gives named parameters, but the study's actions are " +
                     domain.Describe() + " (" + where + "); omit " + flag + " or use a new log");
  if (*given == *logged) return;
  std::string difference = "it has " + std::to_string(given->size()) + " parameters, the study " +
                           std::to_string(logged->size());
  for (int i = 0; i < std::min(given->size(), logged->size()); ++i) {
    if (given->parameter(i) == logged->parameter(i)) continue;
    difference = "parameter " + std::to_string(i + 1) + " is '" + given->parameter(i).Describe() +
                 "' but the study's is '" + logged->parameter(i).Describe() + "'";
    break;
  }
  throw UsageError(flag + " differs from the study's parameters (" + where + "): " + difference +
                   "; omit " + flag + " or use a new log");
}

std::string PointText(const Domain& domain, const Eigen::VectorXd& x) {
  const ParameterSpace* space = domain.action_space();
  if (space == nullptr) return FormatVector(x);
  return FormatNamedValues(*space, space->ToNamed(x));
}

std::vector<std::string> PointArguments(const Domain& domain, const Eigen::VectorXd& x) {
  std::vector<std::string> arguments = PointValues(domain, x);
  if (const ParameterSpace* space = domain.action_space())
    for (int i = 0; i < space->size(); ++i)
      arguments[static_cast<std::size_t>(i)] =
          space->parameter(i).name + "=" + arguments[static_cast<std::size_t>(i)];
  return arguments;
}

std::vector<std::string> PointValues(const Domain& domain, const Eigen::VectorXd& x) {
  const ParameterSpace* space = domain.action_space();
  std::vector<std::string> values;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    values.push_back(space == nullptr
                         ? FormatDouble(x(i))
                         : FormatParameterValue(space->ValueAt(static_cast<int>(i), x(i))));
  return values;
}

Eigen::VectorXd ParsePoint(const Domain& domain, const std::string& flag,
                           const std::vector<std::string>& texts) {
  const ParameterSpace* space = domain.action_space();
  if (space == nullptr) {
    if (texts.size() != 1)
      throw UsageError("--" + flag + " is given " + std::to_string(texts.size()) +
                       " times; a point of this study is one list x1,x2,...");
    return ParseDoubleList(flag, texts[0]);
  }
  std::vector<std::string> pairs;
  for (const std::string& text : texts)
    for (const std::string& pair : SplitPairs(*space, text)) pairs.push_back(pair);
  RequireKnownNames(*space, pairs, flag);
  try {
    return space->ToVector(ParseNamedValues(*space, pairs), "--" + flag);
  } catch (const std::invalid_argument& e) {
    std::string given;
    for (const std::string& text : texts) given += (given.empty() ? "" : " ") + text;
    throw UsageError("--" + flag + " '" + given + "': " + e.what() +
                     " (the study's parameters: " + space->Describe() + ")");
  }
}

}  // namespace cli
}  // namespace gpbandit
