// The space-filling points handed out before the model drives the choice
// (OptimizerOptions::initial_design_size): a random Latin hypercube over the action box (over
// a parameter space's uniform positions, SpaceTransform::FromUniform, so that every point is
// legal), or a random subset of a finite set, drawn once from the seed. Observations already told
// and points in progress count towards its size, so none is wasted. Internal to optimizer/; not
// thread-safe.
#ifndef GPBANDIT_OPTIMIZER_INITIAL_DESIGN_H_
#define GPBANDIT_OPTIMIZER_INITIAL_DESIGN_H_

#include <Eigen/Core>

#include "gpbandit/space/domain.h"
#include "optimizer/round_chooser.h"

namespace gpbandit {

class InitialDesign {
 public:
  // size: the number of design points (0: none). unit_upper: the action cube's upper corner.
  InitialDesign(const Domain& domain, int size, const Eigen::VectorXd& unit_upper,
                std::uint64_t seed);
  // The design size OptimizerOptions::initial_design_size asks for: -1 = max(2, action_dim + 1),
  // at most the number of candidates of a finite set; 0 for a safe strategy (it evaluates its
  // seeds first and nothing nobody vouched for).
  static int Size(const Domain& domain, int requested, bool safe_strategy);

  // Fills the call's slots with design points while fewer than the design's size are told
  // (`told`) or in progress (`active_pending`, and the call's earlier slots); the other slots
  // are left to the model (call->num_model).
  void Take(const Domain& domain, long told, long active_pending, AskCall* call) const;
  // The number of design points handed out so far.
  long handed_out() const { return handed_out_; }
  void set_handed_out(long n) { handed_out_ = n; }

 private:
  Eigen::MatrixXd points_;  // action_dim x n unit-cube points, or 1 x n candidate indices
  long handed_out_ = 0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_OPTIMIZER_INITIAL_DESIGN_H_
