// Whether an optimizer built with its own settings may join an existing study: every setting
// its header records that shapes the run (the objective's sense, the domain, the strategy and
// its options, the initial design's size, the seed, the kernel and its initial hyperparameters,
// the fit, refit, model and maximizer options) must be the study's, or the two would disagree
// about what the records mean (a cost read as a reward) or choose differently from the same
// records. Per-process settings may differ: the thread count (results do not depend on it) and
// sync_log (this process's durability). Internal to optimizer/.
#ifndef GPBANDIT_OPTIMIZER_STUDY_HEADER_MATCH_H_
#define GPBANDIT_OPTIMIZER_STUDY_HEADER_MATCH_H_

#include <string>

#include "gpbandit/study/log_header.h"

namespace gpbandit {
namespace internal {

// Throws std::runtime_error "<where>: it was written with <field> = <logged value>, not <this
// optimizer's value> ..." naming the first field (in the header's JSON, e.g. options.sense,
// strategy_options.beta_scale, domain.upper) that differs. A logged strategy's options are
// compared after its registered defaults are filled in (older logs lack later-added fields).
void CheckJoinableHeader(const LogHeader& logged, const LogHeader& mine, const std::string& where);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_STUDY_HEADER_MATCH_H_
