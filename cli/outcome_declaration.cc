#include "cli/outcome_declaration.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <sstream>

namespace gpbandit {
namespace cli {
namespace {

void RequireName(const std::string& flag, const std::string& text, const std::string& name) {
  if (!IsOutcomeName(name))
    throw UsageError(flag + " '" + text + "': the name '" + name +
                     "' must be non-empty, without blanks, '=', ',', ':', '<' or '>'");
}

// A whole-text number (strtod, no trailing characters, not out of range); NaN and inf are
// numbers (a failed evaluation is the policy's business).
bool ParseNumber(const std::string& text, double* value) {
  if (text.empty()) return false;
  char* end = nullptr;
  errno = 0;
  *value = std::strtod(text.c_str(), &end);
  if (end == text.c_str() || *end != '\0') return false;
  return !(errno == ERANGE && std::isinf(*value));
}

ObjectiveSpec ParseObjective(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string::npos)
    throw UsageError("--objective '" + text + "' must be NAME:min or NAME:max");
  ObjectiveSpec spec;
  spec.name = text.substr(0, colon);
  RequireName("--objective", text, spec.name);
  const std::string sense = text.substr(colon + 1);
  if (sense == "min" || sense == "minimize") {
    spec.minimize = true;
  } else if (sense != "max" && sense != "maximize") {
    throw UsageError("--objective '" + text + "': the sense '" + sense +
                     "' is unknown; known: min, max (minimize, maximize)");
  }
  return spec;
}

ConstraintSpec ParseConstraint(const std::string& text) {
  std::size_t at = text.find("<=");
  ConstraintSpec spec;
  if (at == std::string::npos) {
    at = text.find(">=");
    spec.sense = ConstraintSense::kGreaterEqual;
  }
  if (at == std::string::npos)
    throw UsageError("--constraint '" + text + "' must be NAME<=BOUND or NAME>=BOUND");
  spec.name = text.substr(0, at);
  RequireName("--constraint", text, spec.name);
  const std::string bound = text.substr(at + 2);
  if (!ParseNumber(bound, &spec.bound) || !std::isfinite(spec.bound))
    throw UsageError("--constraint '" + text + "': the bound '" + bound +
                     "' is not a finite number");
  return spec;
}

bool SameOutcomes(const OutcomeOptions& a, const OutcomeOptions& b) {
  if (a.objectives.size() != b.objectives.size() || a.constraints.size() != b.constraints.size())
    return false;
  for (std::size_t i = 0; i < a.objectives.size(); ++i)
    if (a.objectives[i].name != b.objectives[i].name ||
        a.objectives[i].minimize != b.objectives[i].minimize)
      return false;
  for (std::size_t i = 0; i < a.constraints.size(); ++i)
    if (a.constraints[i].name != b.constraints[i].name ||
        a.constraints[i].sense != b.constraints[i].sense ||
        a.constraints[i].bound != b.constraints[i].bound)
      return false;
  return a.reference_point == b.reference_point &&
         a.feasibility_confidence == b.feasibility_confidence && a.scalarization == b.scalarization;
}

// The words of a line: split at blanks and commas, empty pieces dropped.
std::vector<std::string> Words(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  for (const char c : text + " ") {
    if (c == ',' || std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += c;
    }
  }
  return words;
}

// name=value words -> values in tell order; false with *problem otherwise. `what` names the
// source in messages ("--y", "the line").
bool NamedValues(const OutcomeOptions& outcomes, const std::vector<std::string>& words,
                 Eigen::VectorXd* values, std::string* problem) {
  const std::vector<std::string> names = outcomes.names();
  *values = Eigen::VectorXd::Constant(static_cast<Eigen::Index>(names.size()),
                                      std::numeric_limits<double>::quiet_NaN());
  std::vector<bool> seen(names.size(), false);
  for (const std::string& word : words) {
    const std::size_t eq = word.find('=');
    if (eq == std::string::npos) {
      *problem = "'" + word + "' is not NAME=VALUE";
      return false;
    }
    const std::string name = word.substr(0, eq), text = word.substr(eq + 1);
    const int i = outcomes.IndexOf(name);
    if (i < 0) {
      *problem =
          "'" + name + "' is not an outcome of this study; its outcomes: " + JoinNames(names);
      return false;
    }
    if (seen[i]) {
      *problem = "the outcome '" + name + "' is given more than once";
      return false;
    }
    double value = 0;
    if (!ParseNumber(text, &value)) {
      *problem = "the value of " + name + ", '" + text + "', is not a number";
      return false;
    }
    seen[i] = true;
    (*values)(i) = value;
  }
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (seen[i]) continue;
    *problem = "the outcome '" + names[i] +
               "' is missing (every outcome of this study is told: " + JoinNames(names) + ")";
    return false;
  }
  return true;
}

// The outcomes with the reference point and confidence, for a mismatch message.
std::string DeclarationText(const OutcomeOptions& o, ObjectiveSense sense) {
  std::string text = DescribeOutcomes(o, sense);
  if (!o.reference_point.empty())
    text += ", reference point " +
            FormatVector(Eigen::Map<const Eigen::VectorXd>(
                o.reference_point.data(), static_cast<Eigen::Index>(o.reference_point.size())));
  return text + ", feasibility confidence " + FormatDouble(o.feasibility_confidence) +
         ", scalarization " + ScalarizationRuleName(o.scalarization);
}

}  // namespace

void AddDeclarationFlags(po::options_description* desc, DeclarationFlags* f,
                         const std::string& when) {
  desc->add_options()("objective", po::value(&f->objectives),
                      ("an objective NAME:min or NAME:max, repeatable, in order (" + when +
                       "; without it the one objective y of --sense)")
                          .c_str())(
      "constraint", po::value(&f->constraints),
      ("an outcome constraint 'NAME<=BOUND' or 'NAME>=BOUND' that the answer must "
       "satisfy (evaluations may violate it), repeatable (" +
       when + ")")
          .c_str())(
      "reference-point", po::value(&f->reference_point),
      ("the hypervolume's reference point v1,v2,..., one per objective in its units (an upper "
       "limit of a minimized one); default: inferred from the observed front (" +
       when + ")")
          .c_str())(
      "feasibility-confidence", po::value(&f->feasibility_confidence),
      ("the front and the best point keep only observed points feasible with at least this "
       "posterior probability (" +
       when + "; default " + FormatDouble(OutcomeOptions().feasibility_confidence) + ")")
          .c_str())("scalarization", po::value(&f->scalarization),
                    ("chebyshev or linear: the random scalarization of several objectives under "
                     "an index strategy or gp-ts (" +
                     when + "; default chebyshev)")
                        .c_str());
}

void NoteDeclarationFlags(const po::variables_map& vm, DeclarationFlags* f) {
  f->confidence_given = vm.count("feasibility-confidence") > 0;
}

namespace {

// The flags' outcomes; what they do not give comes from `base` (a study's, or the defaults).
OutcomeOptions DeclarationOf(const DeclarationFlags& f, const OutcomeFlags& outcome,
                             const OutcomeOptions& base) {
  OutcomeOptions o = base;
  if (!f.objectives.empty() && !outcome.sense.empty())
    throw UsageError("--sense " + outcome.sense +
                     " goes with the one unnamed objective; with --objective each objective "
                     "has its own sense (NAME:min or NAME:max)");
  if (!f.objectives.empty()) {
    o.objectives.clear();
    for (const std::string& text : f.objectives) o.objectives.push_back(ParseObjective(text));
  }
  if (!f.constraints.empty()) {
    o.constraints.clear();
    for (const std::string& text : f.constraints) o.constraints.push_back(ParseConstraint(text));
  }
  const std::vector<std::string> names = o.names();
  for (std::size_t i = 0; i < names.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (names[i] == names[j])
        throw UsageError("the outcome name '" + names[i] +
                         "' is declared twice (--objective and --constraint names are unique)");
  if (!f.reference_point.empty()) {
    const Eigen::VectorXd r = ParseDoubleList("reference-point", f.reference_point);
    if (r.size() != o.num_objectives())
      throw UsageError("--reference-point " + f.reference_point + " has " +
                       std::to_string(r.size()) + (r.size() == 1 ? " value" : " values") +
                       " but the study has " + std::to_string(o.num_objectives()) +
                       (o.num_objectives() == 1 ? " objective (" : " objectives (") +
                       DescribeOutcomes(o, ObjectiveSense::kMaximize) + ")");
    o.reference_point.assign(r.data(), r.data() + r.size());
  }
  if (f.confidence_given) {
    if (!(f.feasibility_confidence > 0 && f.feasibility_confidence < 1))
      throw UsageError("--feasibility-confidence " + FormatDouble(f.feasibility_confidence) +
                       " must be in (0, 1)");
    o.feasibility_confidence = f.feasibility_confidence;
  }
  if (!f.scalarization.empty()) {
    RequireOneOf("--scalarization", f.scalarization, {"chebyshev", "linear"});
    o.scalarization =
        f.scalarization == "linear" ? ScalarizationRule::kLinear : ScalarizationRule::kChebyshev;
  }
  std::string error;
  if (!o.IsValid(&error)) throw UsageError("the declared outcomes: " + error);
  return o;
}

}  // namespace

OutcomeOptions OutcomesFromFlags(const DeclarationFlags& f, const OutcomeFlags& outcome) {
  if (!f.given()) return OutcomeOptions();
  return DeclarationOf(f, outcome, OutcomeOptions());
}

void CheckDeclarationMatches(const DeclarationFlags& f, const OutcomeFlags& outcome,
                             const Optimizer& optimizer, const std::string& where) {
  if (!f.given()) return;
  const OptimizerOptions& study = optimizer.options();
  const OutcomeOptions given = DeclarationOf(f, outcome, study.outcomes);
  if (SameOutcomes(given, study.outcomes)) return;
  throw UsageError("the outcome flags declare " + DeclarationText(given, study.sense) +
                   ", but the study's are " + DeclarationText(study.outcomes, study.sense) + " (" +
                   where + "; a study keeps the outcomes it was created with)");
}

bool DeclaresOutcomes(const Optimizer& optimizer) {
  const OutcomeOptions& o = optimizer.options().outcomes;
  return !o.objectives.empty() || !o.constraints.empty();
}

std::string DescribeOutcomes(const OutcomeOptions& outcomes, ObjectiveSense sense) {
  std::vector<std::string> parts;
  if (outcomes.objectives.empty())
    parts.push_back(std::string("y:") + (sense == ObjectiveSense::kMinimize ? "min" : "max"));
  for (const ObjectiveSpec& o : outcomes.objectives)
    parts.push_back(o.name + (o.minimize ? ":min" : ":max"));
  for (const ConstraintSpec& c : outcomes.constraints)
    parts.push_back(c.name + ConstraintSenseSymbol(c.sense) + FormatDouble(c.bound));
  return JoinNames(parts);
}

Eigen::VectorXd ParseOutcomeFlag(const Optimizer& optimizer, const std::string& flag,
                                 const std::string& text) {
  const OutcomeOptions& outcomes = optimizer.options().outcomes;
  const std::vector<std::string> words = Words(text);
  const bool named = text.find('=') != std::string::npos;
  if (!named) {
    double value = 0;
    if (!ParseNumber(text, &value))
      throw UsageError(flag + " '" + text + "' is not a number (or is out of range)" +
                       (outcomes.num_outcomes() > 1
                            ? "; this study's outcomes are told by name, " + flag + " " +
                                  outcomes.names()[0] + "=V,..."
                            : ""));
    if (outcomes.num_outcomes() > 1) {
      std::string example;
      for (const std::string& name : outcomes.names())
        example += (example.empty() ? "" : ",") + name + "=V";
      throw UsageError(flag + " " + text + " is one number, but this study has " +
                       std::to_string(outcomes.num_outcomes()) + " outcomes (" +
                       DescribeOutcomes(outcomes, optimizer.options().sense) + "): give " + flag +
                       " " + example);
    }
    return Eigen::VectorXd::Constant(1, value);
  }
  Eigen::VectorXd values;
  std::string problem;
  if (words.empty() || !NamedValues(outcomes, words, &values, &problem))
    throw UsageError(flag + " '" + text + "': " + (words.empty() ? "no outcome" : problem));
  return values;
}

bool ParseOutcomeLine(const OutcomeOptions& outcomes, const std::string& line,
                      Eigen::VectorXd* values, std::string* problem) {
  const std::vector<std::string> words = Words(line);
  std::string inner;
  if (words.empty()) {
    *problem = "no output";
    return false;
  }
  if (line.find('=') != std::string::npos) {
    if (NamedValues(outcomes, words, values, &inner)) return true;
    *problem = "the last line of its output, '" + line + "': " + inner;
    return false;
  }
  if (static_cast<int>(words.size()) != outcomes.num_outcomes()) {
    *problem = "the last line of its output, '" + line + "', holds " +
               std::to_string(words.size()) + " values, but the study has " +
               std::to_string(outcomes.num_outcomes()) + " outcomes (" +
               JoinNames(outcomes.names()) + ": name=value pairs or the values in this order)";
    return false;
  }
  *values = Eigen::VectorXd(static_cast<Eigen::Index>(words.size()));
  for (std::size_t i = 0; i < words.size(); ++i) {
    if (ParseNumber(words[i], &(*values)(static_cast<Eigen::Index>(i)))) continue;
    *problem = "the last line of its output, '" + line + "': value " + std::to_string(i + 1) +
               ", '" + words[i] + "', is not a number";
    return false;
  }
  return true;
}

void RequireTellableOutcomes(const Optimizer& optimizer, const Eigen::VectorXd& values,
                             const std::string& flag) {
  if (optimizer.options().non_finite_rewards != NonFiniteRewardPolicy::kThrow) return;
  const std::vector<std::string> names = optimizer.options().outcomes.names();
  for (Eigen::Index i = 0; i < values.size(); ++i) {
    if (std::isfinite(values(i))) continue;
    const std::string what =
        values.size() == 1 ? FormatDouble(values(i))
                           : names[static_cast<std::size_t>(i)] + "=" + FormatDouble(values(i));
    throw UsageError(flag + " " + what +
                     " is not finite, and this study refuses failed evaluations (--failures "
                     "throw); a study created with --failures skip records such an evaluation as "
                     "failed (--failures impute-worst: at the worst value so far)");
  }
}

std::string OutcomeText(const OutcomeOptions& outcomes, const Eigen::VectorXd& values,
                        const char* separator) {
  const std::vector<std::string> names = outcomes.names();
  std::string text;
  for (Eigen::Index i = 0; i < values.size() && i < static_cast<Eigen::Index>(names.size()); ++i)
    text += (i == 0 ? "" : separator) + names[static_cast<std::size_t>(i)] + "=" +
            FormatDouble(values(i));
  return text;
}

Eigen::VectorXd ObservedOutcomes(const OutcomeOptions& outcomes, const Observation& o) {
  Eigen::VectorXd v =
      Eigen::VectorXd::Constant(outcomes.num_outcomes(), std::numeric_limits<double>::quiet_NaN());
  v(0) = o.y;
  for (Eigen::Index i = 0; i < o.constraints.size() && i + 1 < v.size(); ++i)
    v(i + 1) = o.constraints(i);
  return v;
}

}  // namespace cli
}  // namespace gpbandit
