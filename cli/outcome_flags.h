// What a told value means and what a failed evaluation does, spelled alike in every command
// that makes or joins a study (suggest, observe, study create, worker):
//   --sense maximize|minimize              --y (or a worker's last line) is a reward or a cost
//   --failures skip|impute-worst|throw     a NaN or a crashed command: recorded as failed,
//                                          recorded and taught at the worst value so far, or
//                                          refused (OptimizerOptions::non_finite_rewards)
// A command that makes a study takes them (else its own defaults); a command that joins one
// accepts them only when they are the study's, so that a script states what it assumes and a
// mismatch is refused before anything is written.
#ifndef GPBANDIT_CLI_OUTCOME_FLAGS_H_
#define GPBANDIT_CLI_OUTCOME_FLAGS_H_

#include <optional>
#include <string>

#include "cli/command.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

struct OutcomeFlags {
  std::string sense, failures;  // empty: not given
};

// Adds --sense and --failures; `when` ends their help ("first call; remembered by the log").
// A command that makes studies gives the default policy of its new studies (the default sense
// is maximize); one that joins them gives none.
void AddOutcomeFlags(po::options_description* desc, OutcomeFlags* f, const std::string& when,
                     std::optional<NonFiniteRewardPolicy> default_failures);

// The sense of --sense, or `fallback` when it is not given. Throws UsageError for another name.
ObjectiveSense SenseOf(const OutcomeFlags& f, ObjectiveSense fallback);
// The policy of --failures, or `fallback` when it is not given. Throws UsageError likewise.
NonFiniteRewardPolicy FailuresOf(const OutcomeFlags& f, NonFiniteRewardPolicy fallback);

// "skip", "impute-worst", "throw": the values of --failures.
std::string FailuresName(NonFiniteRewardPolicy policy);

// Throws UsageError naming the flag, both values and `where` unless the flags given are the
// optimizer's study's.
void CheckOutcomeMatches(const OutcomeFlags& f, const Optimizer& optimizer,
                         const std::string& where);

// Throws UsageError "--y nan is not finite ..." when y is not finite and the study refuses
// failed evaluations: the message names --failures, the flag that chooses otherwise.
void RequireTellable(const Optimizer& optimizer, double y, const std::string& flag);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_OUTCOME_FLAGS_H_
