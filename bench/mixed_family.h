// A generated family of mixed minimization problems (reals, integers, categoricals) for choosing
// how the optimizer searches categories on one half and reporting it on the other
// (bench/mixed_family_study.cc). A problem is made from its instance seed alone; even seeds are
// the tuning half, odd seeds the held-out half.
//
// Each problem has 1-3 reals (each on a linear or, with probability 1/3, a log scale over
// [0.01, 100]), 0-2 integers of 3-16 levels and 1-2 categoricals of 2-6 labels. In the model
// coordinates u in [0, 1] of the reals and integers (space_transform.h: log-scaled reals by
// their log),
//   f(x) = sum_i w_i (u_i - c_i(labels))^2 + sum_k offset_k[label_k]
// with weights w_i log-uniform in [0.5, 2]; centres c_i = a_i + sum_k s_ik [label_k != best_k]
// (a_i uniform in [0.15, 0.85], s_ik uniform in [-0.1, 0.1]: a wrong label also moves the best
// continuous point); offset_k[best_k] = 0 for a best label drawn uniformly, and every other
// label's offset is gap_k + spread_k v (v uniform in [0, 1]) with gap_k log-uniform in
// [0.05, 1] and spread_k uniform in [0, 1]: the wrong labels cost from a twentieth to more than
// the whole continuous part's typical range. f* is computed exactly: over every combination of
// labels, the offsets plus each integer's best level (the reals reach their centres); the best
// labels are those of the minimizing combination (the drawn ones unless an integer's grid
// favours another combination by more than its offsets).
//
// Names: "mixed-<seed>". MakeMixedProblem(name) rebuilds the same problem from its name.
#ifndef GPBANDIT_BENCH_MIXED_FAMILY_H_
#define GPBANDIT_BENCH_MIXED_FAMILY_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "bench/problem_family.h"
#include "gpbandit/space/parameter_space.h"

namespace gpbandit {
namespace bench {

struct MixedProblem {
  std::string name;
  unsigned instance_seed = 0;
  std::vector<Parameter> parameters;  // the space's, in order
  // Per parameter: its weight and base centre (reals and integers), -1 for categoricals.
  std::vector<double> weight, centre;
  // Per parameter and categorical k: the centre's shift when label k is wrong (0 for
  // categoricals themselves).
  std::vector<std::vector<double>> shift;
  // Per categorical (in the space's order of categoricals): its parameter index, best label and
  // the offsets of its labels.
  std::vector<int> categorical_index;
  std::vector<int> best_label;
  // The labels drawn as best, from which the centres' shifts count.
  std::vector<int> drawn_best;
  std::vector<std::vector<double>> offset;
  double min_value = 0.0;

  ParameterSpace Space() const { return ParameterSpace(parameters); }
  // f at a legal vector of the space (parameter_space.h: a label's index for a categorical).
  double Value(const Eigen::VectorXd& x) const;
  // Whether x holds the best label of every categorical.
  bool HasBestLabels(const Eigen::VectorXd& x) const;
  // The largest number of labels of a categorical.
  int MaxLabels() const;
};

// "mixed-<seed>" for the seeds of one half: count problems, seeds 2j (tuning) or 2j + 1.
std::vector<std::string> MixedProblemNames(FamilyHalf half, int count);
// Throws std::invalid_argument naming the text unless it is "mixed-<seed>".
MixedProblem MakeMixedProblem(const std::string& name);

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_MIXED_FAMILY_H_
