// The decision domain of an Optimizer: where actions live, and whether a context comes with
// each round.
//
// Shapes:
// - a box of actions [lower, upper] (lower == upper on a coordinate fixes it);
// - a finite candidate set of actions (dim x N, one candidate per column);
// - a parameter space (parameter_space.h): named reals on linear or log scales, integers and
//   categoricals, of which the box is the simple case; an action is the space's vector (one
//   entry per parameter: the real, the integer, the label's index);
// - any of the above plus context_dim context coordinates revealed by the environment each
//   round (Krause & Ong's CGP-UCB), with optional context bounds, or contexts that are
//   themselves a parameter space (named, possibly integers and categoricals).
// A model input is always the action followed by the context: [s; z] of size
// action_dim() + context_dim().
//
// Inside the optimizer inputs are mapped to the unit cube (BoTorch warns otherwise; docs/design.md,
// "Faults": huge or tiny scales): an action box maps affinely to [0, 1]^d, a fixed
// coordinate to 0; a finite set uses the bounding box of its candidates; a parameter space
// maps through its transform (space_transform.h: reals and integers into [0, 1] on their
// scale, a categorical to its label's index); contexts use their bounds when given, their
// space's transform when they are a space, and pass through unscaled otherwise.
//
// Thread safety: immutable after construction. All points are in ORIGINAL units unless a name
// says "unit".
#ifndef GPBANDIT_SPACE_DOMAIN_H_
#define GPBANDIT_SPACE_DOMAIN_H_

#include <Eigen/Core>
#include <memory>
#include <string>

namespace gpbandit {

class ParameterSpace;
class SpaceTransform;

enum class DomainKind { kBox, kFiniteSet, kSpace };

class Domain {
 public:
  // A box of actions. Throws std::invalid_argument when the sizes differ or are 0, a bound is
  // non-finite, lower(i) > upper(i), or the width upper(i) - lower(i) overflows (e.g.
  // -1e308:1e308; the unit-cube map divides by it) (the message names the field, the index and
  // the values).
  static Domain Box(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper);
  // A finite set of candidate actions, dim x N (dim >= 1, N >= 1, finite entries, and on each
  // coordinate a spread largest - smallest that does not overflow).
  static Domain FiniteSet(const Eigen::MatrixXd& candidates);
  // A parameter space of actions (checked when the space was built).
  static Domain Space(const ParameterSpace& actions);

  // Adds context_dim >= 1 context coordinates to a box or finite set. Without bounds
  // (empty vectors) contexts are used as given; with bounds they must be finite, of size
  // context_dim, lower <= upper with a width that does not overflow, and every context passed
  // to the optimizer must lie inside.
  Domain WithContext(int context_dim, const Eigen::VectorXd& context_lower = Eigen::VectorXd(),
                     const Eigen::VectorXd& context_upper = Eigen::VectorXd()) const;
  // Adds contexts that are a parameter space: context vectors are its vectors (bounded by its
  // bounds, integral where it has integers, label indices for its categoricals).
  Domain WithContext(const ParameterSpace& contexts) const;

  DomainKind kind() const { return kind_; }
  int action_dim() const { return static_cast<int>(lower_.size()); }
  int context_dim() const { return context_dim_; }
  int input_dim() const { return action_dim() + context_dim_; }
  bool has_context_bounds() const { return context_lower_.size() > 0; }

  // The action box (for a finite set: the bounding box of the candidates).
  const Eigen::VectorXd& lower() const { return lower_; }
  const Eigen::VectorXd& upper() const { return upper_; }
  // Empty unless has_context_bounds().
  const Eigen::VectorXd& context_lower() const { return context_lower_; }
  const Eigen::VectorXd& context_upper() const { return context_upper_; }
  // dim x N for kFiniteSet, empty for kBox.
  const Eigen::MatrixXd& candidates() const { return candidates_; }
  int num_candidates() const { return static_cast<int>(candidates_.cols()); }
  // The size of a finite decision set: a finite set's candidates, or the legal points of a
  // space without a varying real (at most INT_MAX); 0 for a continuum. Srinivas et al.'s
  // finite-set beta_t (Theorem 1) counts these.
  int num_decision_points() const;
  // kSpace: the actions' space and transform; contexts given as a space: theirs. nullptr
  // otherwise.
  const ParameterSpace* action_space() const;
  const ParameterSpace* context_space() const;
  const SpaceTransform* action_transform() const { return actions_.get(); }
  const SpaceTransform* context_transform() const { return contexts_.get(); }
  // The action cube's upper corner in model coordinates (the lower is 0): 1 on a free
  // coordinate of a box or finite set, 0 on a fixed one; a space's SpaceTransform::ModelUpper.
  Eigen::VectorXd UnitActionUpper() const;

  // Throw std::invalid_argument naming `field`, both sizes, or the offending coordinate and
  // value: wrong size, non-finite, outside the box (finite sets: any point in the bounding box
  // is accepted, since a caller may tell an action it chose itself).
  void CheckAction(const Eigen::VectorXd& x, const std::string& field) const;
  void CheckContext(const Eigen::VectorXd& z, const std::string& field) const;

  // Original units <-> unit cube. ToUnit takes action and context and returns the model input
  // (size input_dim()); ActionFromUnit maps the action part back and clamps it exactly into
  // [lower, upper] (a hair outside the box never leaves the optimizer).
  Eigen::VectorXd ToUnit(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const;
  Eigen::VectorXd ActionFromUnit(const Eigen::VectorXd& unit_input) const;
  Eigen::VectorXd ContextToUnit(const Eigen::VectorXd& z) const;

  // One line, e.g. "box(d=2)", "finite(d=3, N=100) + context(2, bounded)" or
  // "space(kp: real [0.1, 100] log, mode: categorical {pid, lead-lag})".
  std::string Describe() const;

  bool operator==(const Domain& other) const;
  bool operator!=(const Domain& other) const { return !(*this == other); }

 private:
  Domain() = default;

  DomainKind kind_ = DomainKind::kBox;
  Eigen::VectorXd lower_, upper_;
  Eigen::MatrixXd candidates_;
  int context_dim_ = 0;
  Eigen::VectorXd context_lower_, context_upper_;
  // Shared (immutable) between copies of a domain.
  std::shared_ptr<const SpaceTransform> actions_, contexts_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_SPACE_DOMAIN_H_
