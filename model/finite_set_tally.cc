#include "model/finite_set_tally.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gpbandit {

FiniteSetTally::FiniteSetTally(int num_candidates)
    : counts(Eigen::VectorXd::Zero(num_candidates)),
      sums(Eigen::VectorXd::Zero(num_candidates)),
      accepted(static_cast<std::size_t>(num_candidates), 0),
      best_output(-std::numeric_limits<double>::infinity()) {}

void FiniteSetTally::Add(int index, double y, double centred, double variance, double diagonal,
                         bool accepted_output) {
  rows.push_back(index);
  outputs.push_back(y);
  sequential_variances.push_back(variance);
  counts(index) += 1.0;
  sums(index) += centred;
  if (accepted_output && !accepted[static_cast<std::size_t>(index)]) {
    accepted[static_cast<std::size_t>(index)] = 1;
    accepted_candidates.push_back(index);
  }
  diagonal_sum += diagonal;
  best_output = std::max(best_output, y);
}

void FiniteSetTally::Scale(int exponent) {
  auto scale = [exponent](double v) { return std::ldexp(v, exponent); };
  std::transform(outputs.begin(), outputs.end(), outputs.begin(), scale);
  sums = sums.unaryExpr(scale);
  best_output = scale(best_output);
}

}  // namespace gpbandit
