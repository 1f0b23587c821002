#include "model/outcome_map.h"

namespace gpbandit {

OutcomeMap::OutcomeMap(const OutcomeOptions& outcomes) {
  if (!outcomes.active()) return;
  const int extra = outcomes.num_outcomes() - 1;
  sign_.setOnes(extra);
  offset_.setZero(extra);
  int i = 0;
  for (std::size_t k = 1; k < outcomes.objectives.size(); ++k, ++i)
    sign_(i) = outcomes.objectives[k].minimize ? -1.0 : 1.0;
  for (const ConstraintSpec& c : outcomes.constraints) {
    const bool less = c.sense == ConstraintSense::kLessEqual;
    sign_(i) = less ? 1.0 : -1.0;
    offset_(i) = less ? -c.bound : c.bound;
    ++i;
  }
}

Eigen::VectorXd OutcomeMap::ToModel(const Eigen::VectorXd& told) const {
  if (told.size() == 0 || sign_.size() == 0) return told;
  return sign_.cwiseProduct(told) + offset_;
}

double OutcomeMap::ToTold(int i, double v) const {
  if (sign_.size() == 0) return v;
  return (v - offset_(i)) * sign_(i);
}

}  // namespace gpbandit
