#include "gpbandit/study/outcome_options.h"

#include <cctype>
#include <cmath>
#include <set>
#include <string>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

bool RefuseOutcomes(std::string* error, const std::string& message) {
  if (error) *error = message;
  return false;
}

}  // namespace

bool IsOutcomeName(const std::string& name) {
  if (name.empty()) return false;
  for (const char c : name)
    if (c == '=' || c == ',' || c == '<' || c == '>' || c == ':' ||
        std::isspace(static_cast<unsigned char>(c)))
      return false;
  return true;
}

std::vector<std::string> OutcomeOptions::names() const {
  std::vector<std::string> all;
  if (objectives.empty()) all.emplace_back("y");
  for (const ObjectiveSpec& o : objectives) all.push_back(o.name);
  for (const ConstraintSpec& c : constraints) all.push_back(c.name);
  return all;
}

int OutcomeOptions::IndexOf(const std::string& name) const {
  const std::vector<std::string> all = names();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i] == name) return static_cast<int>(i);
  return -1;
}

bool OutcomeOptions::IsValid(std::string* error) const {
  std::set<std::string> seen;
  const std::vector<std::string> all = names();
  for (std::size_t i = 0; i < all.size(); ++i) {
    const bool objective = i < static_cast<std::size_t>(num_objectives());
    const std::string field =
        objective ? "objectives[" + std::to_string(i) + "].name"
                  : "constraints[" + std::to_string(i - num_objectives()) + "].name";
    if (!IsOutcomeName(all[i]))
      return RefuseOutcomes(
          error,
          field + " = '" + all[i] + "': must be non-empty, without whitespace or any of = , < > :");
    if (!seen.insert(all[i]).second)
      return RefuseOutcomes(error, field + " = '" + all[i] + "': the name is used twice");
  }
  for (std::size_t j = 0; j < constraints.size(); ++j) {
    if (!std::isfinite(constraints[j].bound))
      return RefuseOutcomes(error, "constraints[" + std::to_string(j) + "].bound = " +
                                       FormatDouble(constraints[j].bound) + ": must be finite");
    if (constraints[j].sense != ConstraintSense::kLessEqual &&
        constraints[j].sense != ConstraintSense::kGreaterEqual)
      return RefuseOutcomes(error, "constraints[" + std::to_string(j) + "].sense must be <= or >=");
  }
  if (!reference_point.empty() &&
      reference_point.size() != static_cast<std::size_t>(num_objectives()))
    return RefuseOutcomes(error, "reference_point has " + std::to_string(reference_point.size()) +
                                     " entries for " + std::to_string(num_objectives()) +
                                     " objectives");
  for (std::size_t i = 0; i < reference_point.size(); ++i)
    if (!std::isfinite(reference_point[i]))
      return RefuseOutcomes(error, "reference_point[" + std::to_string(i) + "] = " +
                                       FormatDouble(reference_point[i]) + ": must be finite");
  if (!(feasibility_confidence > 0.0 && feasibility_confidence < 1.0))
    return RefuseOutcomes(error, "feasibility_confidence = " +
                                     FormatDouble(feasibility_confidence) + ": must be in (0, 1)");
  if (scalarization != ScalarizationRule::kChebyshev && scalarization != ScalarizationRule::kLinear)
    return RefuseOutcomes(error, "scalarization must be chebyshev or linear");
  return true;
}

std::string ScalarizationRuleName(ScalarizationRule rule) {
  return rule == ScalarizationRule::kLinear ? "linear" : "chebyshev";
}

std::string ConstraintSenseSymbol(ConstraintSense sense) {
  return sense == ConstraintSense::kGreaterEqual ? ">=" : "<=";
}

}  // namespace gpbandit
