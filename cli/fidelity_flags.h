// Several fidelities of one objective on the command line (OptimizerOptions::fidelities,
// docs/fidelities.md): spelled alike in every command that makes or joins a study (suggest,
// observe, study create, worker):
//   --fidelity NAME:COST        repeatable, ordered by increasing cost; the last is the target
//   --fidelity-model autoregressive|icm
//   --fidelity-rule information|threshold
//   --fidelity-min-correlation R   a lower fidelity less correlated with the target is not used
//   --source [NAME:]PATH        repeatable: a finished study's log (same domain and sense), a
//                               source level below the fidelities (docs/fidelities.md, "Earlier
//                               studies as sources"); NAME defaults to the file's stem, else
//                               source<i>; a PATH holding ':' needs NAME:
// A command that makes a study takes them; one that joins a study accepts them only when they
// are the study's. observe also takes a bare --fidelity NAME: the fidelity the value was
// measured at (a name never holds ':', so the two spellings cannot be confused).
#ifndef GPBANDIT_CLI_FIDELITY_FLAGS_H_
#define GPBANDIT_CLI_FIDELITY_FLAGS_H_

#include <string>
#include <vector>

#include "cli/command.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

struct FidelityFlags {
  std::vector<std::string> values;   // every --fidelity as given
  std::string model, rule;           // empty: not given
  std::string min_correlation;       // empty: not given
  std::vector<std::string> sources;  // every --source as given
};

// What a bare --fidelity NAME means to a command: nothing (refused), the fidelity a told value
// was measured at (observe), or the one every point this process hands out is evaluated at
// (suggest, worker: WorkerOptions::fidelity).
enum class BareFidelity { kNone, kTold, kEvaluateAt };

// Adds --fidelity, --fidelity-model, --fidelity-rule and --fidelity-min-correlation; `when` ends
// their help, `bare` says what a bare NAME is.
void AddFidelityFlags(po::options_description* desc, FidelityFlags* f, const std::string& when,
                      BareFidelity bare);

// The fidelities the NAME:COST values declare, with the model and rule (empty when none is
// declared). Throws UsageError naming the value for a malformed one, costs not increasing, a
// single level, an unknown model or rule, a min_correlation outside [-1, 1], or a model, rule
// or min_correlation without fidelities.
FidelityOptions FidelitiesFromFlags(const FidelityFlags& f);

// Reads every --source (ReadSourceStudy) for a new study on `domain` and puts the levels before
// options->fidelities (AddSources); nothing without --source. Throws UsageError naming the flag
// and the file for a missing, malformed or mismatched study (nothing written).
void AddSourcesFromFlags(const FidelityFlags& f, const Domain& domain, OptimizerOptions* options);

// The bare --fidelity NAME (observe), or "" when none is given. Throws UsageError for more
// than one.
std::string ToldFidelityName(const FidelityFlags& f);

// Throws UsageError naming the flag, both values and `where` unless the declaring flags given
// are the study's.
void CheckFidelityMatches(const FidelityFlags& f, const Optimizer& optimizer,
                          const std::string& where);

// "sim:1,robot:20".
std::string DescribeFidelities(const FidelityOptions& fidelities);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_FIDELITY_FLAGS_H_
