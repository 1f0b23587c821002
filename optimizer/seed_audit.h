// Whether the safe seeds a user declared were measured safe: a seed whose measured signal
// violates its threshold (or whose evaluation failed) no longer vouches for anything, and a
// threshold that every observation violates is most likely written in the wrong sense. The
// Optimizer drops such seeds with a warning (RoundReport::warnings) and refuses to go on when
// none is left (docs/robot_tuning.md, "Refusals"). Internal to optimizer/.
#ifndef GPBANDIT_OPTIMIZER_SEED_AUDIT_H_
#define GPBANDIT_OPTIMIZER_SEED_AUDIT_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpbandit/acquisition/safety_signal.h"
#include "gpbandit/study/optimizer_types.h"

namespace gpbandit {

struct SeedAudit {
  // Per seed: not measured unsafe (unevaluated seeds are usable).
  std::vector<bool> usable;
  // Per seed measured unsafe: what was measured, e.g. "seed 0 (8, 1, 12): constraint g_1 =
  // -0.07 < threshold -0.05" (empty for usable seeds).
  std::vector<std::string> findings;
  // For each safety signal that every observation so far violates: a hint about its sense.
  std::vector<std::string> sense_hints;
  bool any_usable() const;
  // The message of a refusal when no seed is usable: every finding, then the hints.
  std::string RefusalMessage(const std::string& strategy) const;
};

// True when observation o was accepted and every signal it carries is within its threshold.
bool MeasuredSafe(const Observation& o, const std::vector<SafetySignal>& signals, bool minimize);

// seeds: action_dim x s, original units. signals: Strategy::safety_signals() (the reward's,
// then one per constraint; thresholds in the caller's units). minimize: the caller's values are
// costs (the reward's threshold is then an upper limit). target: with fidelities, the target's
// index, whose observations alone are audited (the seeds are vouched for at the target); -1:
// every observation.
SeedAudit AuditSeeds(const Eigen::MatrixXd& seeds, const std::vector<Observation>& observations,
                     const std::vector<SafetySignal>& signals, bool minimize, int target = -1);

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_SEED_AUDIT_H_
