#include "gpbandit/study/fidelity_options.h"

#include <cmath>
#include <set>
#include <string>

#include "gpbandit/numerics/format.h"
#include "gpbandit/study/outcome_options.h"

namespace gpbandit {
namespace {

bool RefuseFidelities(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

int FidelityOptions::IndexOf(const std::string& name) const {
  for (std::size_t i = 0; i < levels.size(); ++i)
    if (levels[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<double> FidelityOptions::costs() const {
  std::vector<double> all;
  for (const FidelitySpec& level : levels) all.push_back(level.cost);
  return all;
}

bool FidelityOptions::IsSource(int i) const {
  return i >= 0 && i < num_fidelities() && levels[static_cast<std::size_t>(i)].source;
}

int FidelityOptions::num_sources() const {
  int n = 0;
  for (const FidelitySpec& level : levels) n += level.source ? 1 : 0;
  return n;
}

bool FidelityOptions::IsValid(std::string* error) const {
  if (levels.size() == 1)
    return RefuseFidelities(error, "levels has 1 entry ('" + levels[0].name +
                                       "'); declare at least two fidelities, or none");
  std::set<std::string> seen;
  for (std::size_t i = 0; i < levels.size(); ++i) {
    const std::string at = "levels[" + std::to_string(i) + "]";
    const FidelitySpec& level = levels[i];
    if (!IsOutcomeName(level.name))
      return RefuseFidelities(error, at + ".name = '" + level.name +
                                         "': expected a non-empty name without whitespace or "
                                         "any of = , < > :");
    if (!seen.insert(level.name).second)
      return RefuseFidelities(error, at + ".name = '" + level.name + "' is declared twice");
    if (level.source) {
      if (i > 0 && !levels[i - 1].source)
        return RefuseFidelities(error, at + " ('" + level.name +
                                           "') is a source after an evaluable level; declare "
                                           "the sources (earlier studies) first");
      if (level.cost != 0.0)
        return RefuseFidelities(error, at + ".cost = " + FormatDouble(level.cost) +
                                           ": a source (an earlier study) is never evaluated; "
                                           "its cost must be 0");
      continue;
    }
    if (!level.observations.empty())
      return RefuseFidelities(error, at + " ('" + level.name + "') has " +
                                         std::to_string(level.observations.size()) +
                                         " observations but is not a source");
    if (!(std::isfinite(level.cost) && level.cost > 0.0))
      return RefuseFidelities(
          error, at + ".cost = " + FormatDouble(level.cost) + ": must be finite and > 0");
    if (i > 0 && !levels[i - 1].source && !(level.cost > levels[i - 1].cost))
      return RefuseFidelities(error, at + ".cost = " + FormatDouble(level.cost) +
                                         " is not above levels[" + std::to_string(i - 1) +
                                         "].cost = " + FormatDouble(levels[i - 1].cost) +
                                         " (order the fidelities by cost, the target last)");
  }
  if (!levels.empty() && levels.back().source)
    return RefuseFidelities(error,
                            "levels: every level is a source (an earlier study); the "
                            "last must be the target, which is evaluated");
  if (model != FidelityModel::kAutoregressive && model != FidelityModel::kIcm)
    return RefuseFidelities(error, "model = " + std::to_string(static_cast<int>(model)) +
                                       ": expected autoregressive or icm");
  if (rule != FidelityRule::kInformation && rule != FidelityRule::kThreshold)
    return RefuseFidelities(error, "rule = " + std::to_string(static_cast<int>(rule)) +
                                       ": expected information or threshold");
  if (!(min_correlation >= -1.0 && min_correlation <= 1.0))
    return RefuseFidelities(
        error, "min_correlation = " + FormatDouble(min_correlation) + ": must be in [-1, 1]");
  if (!(fit_function_tolerance > 0.0))
    return RefuseFidelities(error, "fit_function_tolerance = " +
                                       FormatDouble(fit_function_tolerance) + ": must be > 0");
  return true;
}

std::string FidelityModelName(FidelityModel model) {
  return model == FidelityModel::kIcm ? "icm" : "autoregressive";
}

std::string FidelityRuleName(FidelityRule rule) {
  return rule == FidelityRule::kThreshold ? "threshold" : "information";
}

}  // namespace gpbandit
