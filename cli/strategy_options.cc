#include "cli/strategy_options.h"

#include <algorithm>

#include "cli/command.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace cli {
namespace {

bool Contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

// The study's own options are flags of their own (cli/outcome_flags.h), not strategy options:
// a user who writes them as --option is told the flag.
void RequireStrategyKey(const std::string& item, const std::string& key) {
  const std::string flag = key == "non_finite_rewards" || key == "failures" ? "--failures"
                           : key == "sense"                                 ? "--sense"
                                                                            : "";
  if (!flag.empty())
    throw UsageError("--option " + item + ": " + key +
                     " is the study's, not a strategy option; give it as " + flag + " " +
                     item.substr(item.find('=') + 1));
}

}  // namespace

StrategyOptionFlags ParseStrategyOptions(const std::vector<std::string>& items,
                                         const std::vector<std::string>& strategies) {
  StrategyOptionFlags flags;
  for (const std::string& item : items) {
    const std::size_t equals = item.find('=');
    // A strategy name never holds ':' or '='; a value may ("beta_schedule=a:b" has no prefix).
    const std::size_t colon = item.find(':');
    const bool prefixed = colon != std::string::npos && colon < equals;
    const std::size_t key_start = prefixed ? colon + 1 : 0;
    if (equals == std::string::npos || equals == key_start)
      throw UsageError("--option '" + item +
                       "': expected key=value or strategy:key=value, e.g. beta_scale=0.2");
    const std::string key = item.substr(key_start, equals - key_start);
    RequireStrategyKey(item, key);
    const StrategyParams param = StrategyParams().WithText(key, item.substr(equals + 1));
    if (!prefixed) {
      flags.every = flags.every.MergedWith(param);
      continue;
    }
    const std::string strategy = item.substr(0, colon);
    if (!Contains(strategies, strategy))
      throw UsageError("--option " + item + ": " + strategy +
                       " is not a strategy of this command (" + JoinNames(strategies) + ")");
    flags.by_strategy[strategy] = flags.by_strategy[strategy].MergedWith(param);
  }
  return flags;
}

StrategyParams StrategyOptionFlags::For(const std::string& strategy,
                                        const std::vector<std::string>& strategies) const {
  const StrategyRegistry& registry = StrategyRegistry::Default();
  const auto has = [&](const std::string& name, const std::string& key) {
    return registry.Contains(name) && registry.DefaultOptions(name).contains(key);
  };
  StrategyParams its_keys;  // the values are placeholders: Intersection reads the keys only
  for (const std::string& key : every.keys()) {
    const bool anyone_has = std::any_of(strategies.begin(), strategies.end(),
                                        [&](const std::string& name) { return has(name, key); });
    if (has(strategy, key) || !anyone_has) its_keys = its_keys.With(key, 0.0);
  }
  const StrategyParams options = every.Intersection(its_keys);
  const auto own = by_strategy.find(strategy);
  return own == by_strategy.end() ? options : options.MergedWith(own->second);
}

std::vector<StrategyParams> StrategyOptionFlags::ForEach(
    const std::vector<std::string>& strategies) const {
  std::vector<StrategyParams> options;
  for (const std::string& strategy : strategies) options.push_back(For(strategy, strategies));
  return options;
}

}  // namespace cli
}  // namespace gpbandit
