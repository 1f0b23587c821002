// What FiniteSetModel (model/finite_set_model.h) keeps of its observations besides the belief:
// per observation its candidate, output and sequential variance, in order; per candidate the
// number of observations, the sum of their outputs minus the belief's reference, and whether
// one was accepted (a reward, not a failure's imputed value); and the running sums behind the
// round's statistics (mean kernel diagonal, best output). O(N + t) numbers; Add is O(1)
// amortized, Scale O(N + t), both exact. Internal to model/; copyable; not thread-safe.
#ifndef GPBANDIT_MODEL_FINITE_SET_TALLY_H_
#define GPBANDIT_MODEL_FINITE_SET_TALLY_H_

#include <Eigen/Core>
#include <vector>

namespace gpbandit {

struct FiniteSetTally {
  // No observation yet over num_candidates (>= 0) candidates.
  explicit FiniteSetTally(int num_candidates);

  // Notes output y at candidate `index` (0 <= index < N: the caller checks), whose output
  // minus the belief's reference is `centred`, whose variance before it was `variance` and
  // whose kernel diagonal k(x_c, x_c) is `diagonal`; accepted_output: a reward.
  void Add(int index, double y, double centred, double variance, double diagonal,
           bool accepted_output);
  // Multiplies every output (and the sums and best output) by 2^exponent.
  void Scale(int exponent);
  int size() const { return static_cast<int>(rows.size()); }

  // Per observation, in order.
  std::vector<int> rows;
  std::vector<double> outputs;
  std::vector<double> sequential_variances;
  // Per candidate; the candidates holding an accepted observation, in first order.
  Eigen::VectorXd counts, sums;
  std::vector<char> accepted;
  std::vector<int> accepted_candidates;
  double diagonal_sum = 0.0;
  double best_output;  // -infinity before any
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_FINITE_SET_TALLY_H_
