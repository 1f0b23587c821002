// The picture `gpbandit plot` draws for a study of several objectives: two objectives against
// each other (by default the first two), every told point as a grey circle (crosses for those
// not feasible with the study's confidence, when it has constraints), the Pareto front
// (Optimizer::ParetoFront, all objectives) in red, joined in the order of the first axis when the
// study has two objectives, and the hypervolume's reference point as a black cross. The values are
// the told ones, in each objective's units; the title gives the hypervolume and its reference.
#ifndef GPBANDIT_CLI_PARETO_PLOT_H_
#define GPBANDIT_CLI_PARETO_PLOT_H_

#include <iosfwd>
#include <string>
#include <utility>

#include "cli/command.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {

// The two objectives of `--objectives a,b` (names or 0-based indices; empty: 0,1). Throws
// UsageError naming the flag for an unknown name, an index out of range, or not two distinct.
std::pair<int, int> FrontAxes(const OutcomeOptions& outcomes, const std::string& flag_value);

// Writes gnuplot's data and script (PlotFiles, kept with `keep`) and runs it. Returns true when
// the PNG was written (otherwise the reason is on err).
bool DrawFront(const Optimizer& optimizer, std::pair<int, int> axes, const std::string& png,
               bool keep, std::ostream& err);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PARETO_PLOT_H_
