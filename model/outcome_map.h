// The units the models of a study's further outcomes hold (OptimizerOptions::outcomes): the
// objectives after the first in maximization sense, v = g or v = -g, and each constraint as
// c = g - bound (<=) or c = bound - g (>=), feasible when c <= 0 (acquisition/feasibility.h). The
// study's records keep the told g; the map is applied between the record and the model, so a
// replay rebuilds the same models. Identity (no entries) for studies without outcomes. Internal
// to model/; copyable; thread-safe to read.
#ifndef GPBANDIT_MODEL_OUTCOME_MAP_H_
#define GPBANDIT_MODEL_OUTCOME_MAP_H_

#include <Eigen/Core>

#include "gpbandit/study/outcome_options.h"

namespace gpbandit {

class OutcomeMap {
 public:
  OutcomeMap() = default;
  explicit OutcomeMap(const OutcomeOptions& outcomes);

  // The further outcomes told (outcomes 1.. in tell order) in model units; the empty vector of a
  // failure stays empty.
  Eigen::VectorXd ToModel(const Eigen::VectorXd& told) const;
  // Further outcome i's value v in model units back in the caller's units, and a model standard
  // deviation likewise.
  double ToTold(int i, double v) const;
  // The number of further outcomes (0 without outcomes).
  int size() const { return static_cast<int>(sign_.size()); }

 private:
  // v = sign * g + offset.
  Eigen::VectorXd sign_, offset_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_OUTCOME_MAP_H_
