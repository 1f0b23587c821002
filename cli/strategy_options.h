// Strategy options on the command line: one grammar in every command that builds strategies
// (suggest, observe, study create, run, demo, safe-demo, drift-demo), the repeatable flag
//   --option KEY=VALUE           for every strategy of the command that has the option KEY
//   --option STRATEGY:KEY=VALUE  for that strategy only (one the command runs)
// A VALUE is read by StrategyParams::WithText (a number, true, false or a quoted string as JSON,
// anything else as text: beta_schedule=rkhs). `gpbandit strategies` lists each strategy's keys.
#ifndef GPBANDIT_CLI_STRATEGY_OPTIONS_H_
#define GPBANDIT_CLI_STRATEGY_OPTIONS_H_

#include <map>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace cli {

struct StrategyOptionFlags {
  StrategyParams every;                               // the KEY=VALUE items
  std::map<std::string, StrategyParams> by_strategy;  // the STRATEGY:KEY=VALUE items

  // The options of `strategy`, one of the command's `strategies`: the keys of `every` it has
  // (every key that no strategy of the command has goes to all of them, so that each
  // strategy's own check names the key and the valid ones), then its own items.
  StrategyParams For(const std::string& strategy, const std::vector<std::string>& strategies) const;
  // For() of each of `strategies`, in order.
  std::vector<StrategyParams> ForEach(const std::vector<std::string>& strategies) const;
};

// Parses the --option items of a command that runs `strategies`. Throws UsageError for an item
// without '=' or with an empty key, and for a STRATEGY the command does not run.
StrategyOptionFlags ParseStrategyOptions(const std::vector<std::string>& items,
                                         const std::vector<std::string>& strategies);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_STRATEGY_OPTIONS_H_
