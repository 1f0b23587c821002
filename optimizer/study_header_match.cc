#include "optimizer/study_header_match.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace internal {
namespace {

using nlohmann::json;

// Header fields that belong to one process rather than to the study.
bool PerProcess(const std::string& path) {
  return path == "options.num_threads" || path == "options.sync_log";
}

// A value for a message: candidate sets and long vectors are cut short.
std::string Shown(const json* value) {
  if (value == nullptr) return "(absent)";
  std::string text = value->dump();
  constexpr std::size_t kMaxChars = 120;
  if (text.size() > kMaxChars) text = text.substr(0, kMaxChars) + "...";
  return text;
}

// The first path (a.b.c) at which `logged` and `mine` differ, "" when none does; *a and *b
// receive the two values there (nullptr for a field one of them lacks).
std::string FirstDifference(const json& logged, const json& mine, const std::string& path,
                            const json** a, const json** b) {
  if (logged.is_object() && mine.is_object()) {
    std::set<std::string> keys;
    for (const auto& item : logged.items()) keys.insert(item.key());
    for (const auto& item : mine.items()) keys.insert(item.key());
    for (const std::string& key : keys) {
      const std::string at = path.empty() ? key : path + "." + key;
      if (PerProcess(at)) continue;
      const bool in_logged = logged.contains(key), in_mine = mine.contains(key);
      if (!in_logged || !in_mine) {
        *a = in_logged ? &logged.at(key) : nullptr;
        *b = in_mine ? &mine.at(key) : nullptr;
        return at;
      }
      const std::string found = FirstDifference(logged.at(key), mine.at(key), at, a, b);
      if (!found.empty()) return found;
    }
    return "";
  }
  if (logged == mine) return "";
  *a = &logged;
  *b = &mine;
  return path;
}

json HeaderJson(const LogHeader& header) { return json::parse(FormatLogHeader(header)); }

bool CloseRelative(double a, double b) {
  return std::abs(a - b) <= 1e-9 * std::max(std::abs(a), std::abs(b));
}

// A prior mean function (prior_mean_function.h) is known by its name and its centring
// constants, which agree only to roundoff when the function is computed again elsewhere.
void CheckPriorMeanMatches(const PriorMeanFunction& logged, const PriorMeanFunction& mine,
                           const std::string& where) {
  if (!logged.declared() && !mine.declared()) return;
  if (logged.declared() != mine.declared())
    throw std::runtime_error(
        where + ": it was created " +
        (logged.declared() ? "with OptimizerOptions.prior_mean_function '" + logged.name + "'"
                           : std::string("without OptimizerOptions.prior_mean_function")) +
        ", not " +
        (mine.declared() ? "with OptimizerOptions.prior_mean_function '" + mine.name + "'"
                         : std::string("without one")) +
        " as here");
  if (logged.name != mine.name || !CloseRelative(logged.mean, mine.mean) ||
      !CloseRelative(logged.stddev, mine.stddev))
    throw std::runtime_error(where + ": prior_mean_function '" + mine.name +
                             "' differs from the one the study was created with ('" + logged.name +
                             "', mean " + FormatDouble(logged.mean) + ", stddev " +
                             FormatDouble(logged.stddev) + " over its centring set; here mean " +
                             FormatDouble(mine.mean) + ", stddev " + FormatDouble(mine.stddev) +
                             ")");
}

}  // namespace

void CheckJoinableHeader(const LogHeader& logged, const LogHeader& mine_in,
                         const std::string& where) {
  CheckPriorMeanMatches(logged.options.prior_mean_function, mine_in.options.prior_mean_function,
                        where);
  // Compared above, to a tolerance.
  LogHeader resolved = logged, mine = mine_in;
  resolved.options.prior_mean_function = mine.options.prior_mean_function = PriorMeanFunction();
  if (logged.strategy == mine.strategy && StrategyRegistry::Default().Contains(logged.strategy) &&
      logged.strategy_options != mine.strategy_options) {
    try {
      resolved.strategy_options =
          StrategyRegistry::Default().ResolveOptions(logged.strategy, logged.strategy_options);
    } catch (const std::invalid_argument&) {
      // Options the registered strategy does not know: they differ, as reported below.
    }
  }
  // Named: a and b point into them, and the message reads them below.
  const json logged_json = HeaderJson(resolved), mine_json = HeaderJson(mine);
  const json* a = nullptr;
  const json* b = nullptr;
  const std::string field = FirstDifference(logged_json, mine_json, "", &a, &b);
  if (field.empty()) return;
  throw std::runtime_error(
      where + ": it was written with " + field + " = " + Shown(a) + ", not " + Shown(b) +
      " as here (resume or open the study instead to take every setting from it)");
}

}  // namespace internal
}  // namespace gpbandit
