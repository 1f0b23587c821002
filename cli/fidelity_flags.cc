#include "cli/fidelity_flags.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "gpbandit/optimizer/source_study.h"

namespace gpbandit {
namespace cli {
namespace {

bool IsFidelityDeclaration(const std::string& value) {
  return value.find(':') != std::string::npos;
}

// One --fidelity NAME:COST (the cost a whole-text number).
FidelitySpec ParseFidelityLevel(const std::string& text) {
  const std::size_t colon = text.rfind(':');
  FidelitySpec spec;
  spec.name = text.substr(0, colon);
  const std::string cost = text.substr(colon + 1);
  if (!IsOutcomeName(spec.name))
    throw UsageError("--fidelity '" + text + "': the name '" + spec.name +
                     "' must be non-empty, without blanks, '=', ',', ':', '<' or '>'");
  char* end = nullptr;
  errno = 0;
  spec.cost = std::strtod(cost.c_str(), &end);
  if (cost.empty() || *end != '\0' || errno == ERANGE || !std::isfinite(spec.cost) ||
      !(spec.cost > 0))
    throw UsageError("--fidelity '" + text + "': the cost '" + cost +
                     "' must be a finite number > 0 (NAME:COST, e.g. sim:1)");
  return spec;
}

FidelityModel FidelityModelOf(const std::string& name) {
  RequireOneOf("--fidelity-model", name, {"autoregressive", "icm"});
  return name == "icm" ? FidelityModel::kIcm : FidelityModel::kAutoregressive;
}

FidelityRule FidelityRuleOf(const std::string& name) {
  RequireOneOf("--fidelity-rule", name, {"information", "threshold"});
  return name == "threshold" ? FidelityRule::kThreshold : FidelityRule::kInformation;
}

double MinCorrelationOf(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || errno == ERANGE || !(value >= -1 && value <= 1))
    throw UsageError("--fidelity-min-correlation " + text + " must be a number in [-1, 1]");
  return value;
}

// The declaring flags' options, unchecked against each other.
FidelityOptions DeclaredFidelities(const FidelityFlags& f) {
  FidelityOptions options;
  for (const std::string& value : f.values)
    if (IsFidelityDeclaration(value)) options.levels.push_back(ParseFidelityLevel(value));
  if (!f.model.empty()) options.model = FidelityModelOf(f.model);
  if (!f.rule.empty()) options.rule = FidelityRuleOf(f.rule);
  if (!f.min_correlation.empty()) options.min_correlation = MinCorrelationOf(f.min_correlation);
  return options;
}

// The level's name and the log's path of one --source [NAME:]PATH (the `i`-th).
void SplitSourceFlag(const std::string& text, std::size_t i, std::string* name, std::string* path) {
  const std::size_t colon = text.find(':');
  if (colon != std::string::npos) {
    *name = text.substr(0, colon);
    *path = text.substr(colon + 1);
  } else {
    *path = text;
    const std::size_t slash = text.rfind('/');
    *name = text.substr(slash == std::string::npos ? 0 : slash + 1);
    const std::size_t dot = name->find('.');
    if (dot != std::string::npos) *name = name->substr(0, dot);
    if (!IsOutcomeName(*name)) *name = "source" + std::to_string(i);
  }
  if (!IsOutcomeName(*name))
    throw UsageError("--source '" + text + "': the name '" + *name +
                     "' must be non-empty, without blanks, '=', ',', ':', '<' or '>'");
  if (path->empty()) throw UsageError("--source '" + text + "': no path (NAME:PATH)");
}

}  // namespace

void AddFidelityFlags(po::options_description* desc, FidelityFlags* f, const std::string& when,
                      BareFidelity bare) {
  const std::string told =
      bare == BareFidelity::kTold
          ? "; a bare NAME (no cost) is the fidelity this value was measured at (default: "
            "the one suggest gave, else the target)"
      : bare == BareFidelity::kEvaluateAt
          ? "; a bare NAME (no cost): every point this command hands out is evaluated at that "
            "fidelity instead of where the study's rule says (a simulator farm beside one robot)"
          : "";
  desc->add_options()(
      "fidelity", po::value(&f->values),
      ("NAME:COST, a fidelity of the objective (a simulator, the robot), repeatable, in "
       "increasing cost; the last is the target, where best recommends (" +
       when + ")" + told)
          .c_str())(
      "fidelity-model", po::value(&f->model),
      ("the joint model of the fidelities: autoregressive (f_robot = rho f_sim + error) or icm "
       "(" +
       when + "; default autoregressive)")
          .c_str())(
      "fidelity-rule", po::value(&f->rule),
      ("which fidelity a suggestion is evaluated at: information (about the target per unit "
       "cost) or threshold (MF-GP-UCB) (" +
       when + "; default information)")
          .c_str())(
      "source", po::value(&f->sources),
      ("[NAME:]PATH, a finished study's log of the same parameters: its observations become a "
       "level below the fidelities whose relation with the target is fitted, repeatable (" +
       when + "; NAME: the file's stem)")
          .c_str())(
      "fidelity-min-correlation", po::value(&f->min_correlation),
      ("a lower fidelity whose fitted correlation with the target at the chosen point is below "
       "this is not evaluated, in [-1, 1] (" +
       when + "; default " + FormatDouble(FidelityOptions().min_correlation) + ")")
          .c_str());
}

FidelityOptions FidelitiesFromFlags(const FidelityFlags& f) {
  const FidelityOptions options = DeclaredFidelities(f);
  if (!options.active()) {
    const std::string given = !f.model.empty()  ? "--fidelity-model " + f.model
                              : !f.rule.empty() ? "--fidelity-rule " + f.rule
                              : !f.min_correlation.empty()
                                  ? "--fidelity-min-correlation " + f.min_correlation
                                  : "";
    if (!given.empty())
      throw UsageError(given + " given without fidelities (--fidelity sim:1 --fidelity robot:20)");
    return options;
  }
  std::string error;
  if (!options.IsValid(&error))
    throw UsageError("--fidelity " + DescribeFidelities(options) + ": " + error +
                     " (at least two, NAME:COST in increasing cost, the target last)");
  return options;
}

void AddSourcesFromFlags(const FidelityFlags& f, const Domain& domain, OptimizerOptions* options) {
  if (f.sources.empty()) return;
  std::vector<FidelitySpec> sources;
  for (std::size_t i = 0; i < f.sources.size(); ++i) {
    std::string name, path;
    SplitSourceFlag(f.sources[i], i, &name, &path);
    try {
      sources.push_back(ReadSourceStudy(path, domain, options->sense, name));
    } catch (const std::invalid_argument& e) {
      throw UsageError("--source " + f.sources[i] + ": " + e.what());
    }
  }
  try {
    AddSources(options, sources);
  } catch (const std::invalid_argument& e) {
    throw UsageError("--source: " + std::string(e.what()));
  }
}

std::string ToldFidelityName(const FidelityFlags& f) {
  std::string told;
  for (const std::string& value : f.values) {
    if (IsFidelityDeclaration(value)) continue;
    if (!told.empty())
      throw UsageError("--fidelity " + told + " and --fidelity " + value +
                       ": one value is measured at one fidelity");
    told = value;
  }
  return told;
}

void CheckFidelityMatches(const FidelityFlags& f, const Optimizer& optimizer,
                          const std::string& where) {
  const FidelityOptions given = DeclaredFidelities(f);
  const FidelityOptions& study = optimizer.options().fidelities;
  const std::string study_text =
      study.active() ? DescribeFidelities(study) : std::string("none (one source)");
  // A joined study keeps the sources copied when it was created: --source names one of them.
  for (std::size_t i = 0; i < f.sources.size(); ++i) {
    std::string name, path;
    SplitSourceFlag(f.sources[i], i, &name, &path);
    if (!study.IsSource(study.IndexOf(name)))
      throw UsageError("--source " + f.sources[i] + ": the study has no source '" + name +
                       "' (its fidelities: " + study_text + "; " + where +
                       "; sources are copied when a study is created)");
  }
  if (given.active()) {
    const std::size_t first = static_cast<std::size_t>(study.num_sources());
    bool same = given.levels.size() + first == study.levels.size();
    for (std::size_t i = 0; same && i < given.levels.size(); ++i)
      same = given.levels[i].name == study.levels[first + i].name &&
             given.levels[i].cost == study.levels[first + i].cost;
    if (!same)
      throw UsageError("--fidelity " + DescribeFidelities(given) +
                       " differs from the study's fidelities " + study_text + " (" + where +
                       "; a study keeps the fidelities it was created with)");
  }
  if (!f.model.empty() && (!study.active() || given.model != study.model))
    throw UsageError("--fidelity-model " + f.model + " differs from the study's " +
                     (study.active() ? FidelityModelName(study.model) : study_text) + " (" + where +
                     ")");
  if (!f.rule.empty() && (!study.active() || given.rule != study.rule))
    throw UsageError("--fidelity-rule " + f.rule + " differs from the study's " +
                     (study.active() ? FidelityRuleName(study.rule) : study_text) + " (" + where +
                     ")");
  if (!f.min_correlation.empty() &&
      (!study.active() || given.min_correlation != study.min_correlation))
    throw UsageError(
        "--fidelity-min-correlation " + f.min_correlation + " differs from the study's " +
        (study.active() ? FormatDouble(study.min_correlation) : study_text) + " (" + where + ")");
}

std::string DescribeFidelities(const FidelityOptions& fidelities) {
  std::string text;
  for (const FidelitySpec& level : fidelities.levels)
    text += (text.empty() ? "" : ",") + level.name + ":" +
            (level.source ? std::string("source") : FormatDouble(level.cost));
  return text;
}

}  // namespace cli
}  // namespace gpbandit
