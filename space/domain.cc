#include "gpbandit/space/domain.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/space/parameter_space.h"
#include "gpbandit/space/space_transform.h"

namespace gpbandit {
namespace {

// The map to the unit cube divides by upper - lower, which must be a finite double.
void CheckWidth(double lower, double upper, const std::string& fields) {
  if (!std::isfinite(upper - lower))
    throw std::invalid_argument(fields + " = " + FormatDouble(lower) + ", " + FormatDouble(upper) +
                                ": the width upper - lower overflows (exceeds the largest "
                                "double); rescale this coordinate");
}

void CheckBounds(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                 const std::string& lower_name, const std::string& upper_name) {
  if (lower.size() != upper.size()) {
    throw std::invalid_argument(lower_name + " has size " + std::to_string(lower.size()) + " but " +
                                upper_name + " has size " + std::to_string(upper.size()));
  }
  for (Eigen::Index i = 0; i < lower.size(); ++i) {
    const std::string at = "[" + std::to_string(i) + "]";
    if (!std::isfinite(lower(i)))
      throw std::invalid_argument(lower_name + at + " is not finite: " + FormatDouble(lower(i)));
    if (!std::isfinite(upper(i)))
      throw std::invalid_argument(upper_name + at + " is not finite: " + FormatDouble(upper(i)));
    if (lower(i) > upper(i)) {
      throw std::invalid_argument(lower_name + at + " = " + FormatDouble(lower(i)) +
                                  " is greater than " + upper_name + at + " = " +
                                  FormatDouble(upper(i)));
    }
    CheckWidth(lower(i), upper(i), lower_name + at + ", " + upper_name + at);
  }
}

// Affine map of [lo, hi] onto [0, 1]; a fixed coordinate (lo == hi) maps to 0.
// Unit coordinates this close to 0 or 1 map to the exact bound (far below any resolution a
// GP in the unit cube can have: lengthscales are >= 1e-3).
constexpr double kUnitEdgeTolerance = 1e-12;

double ToUnitCoordinate(double v, double lo, double hi) {
  return hi > lo ? (v - lo) / (hi - lo) : 0.0;
}

}  // namespace

Domain Domain::Box(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper) {
  if (lower.size() == 0 && upper.size() == 0)
    throw std::invalid_argument("box bounds are empty: lower and upper have size 0");
  CheckBounds(lower, upper, "lower", "upper");
  Domain d;
  d.kind_ = DomainKind::kBox;
  d.lower_ = lower;
  d.upper_ = upper;
  return d;
}

Domain Domain::FiniteSet(const Eigen::MatrixXd& candidates) {
  if (candidates.rows() == 0 || candidates.cols() == 0) {
    throw std::invalid_argument("candidates must be dim x N with dim, N >= 1, got " +
                                std::to_string(candidates.rows()) + " x " +
                                std::to_string(candidates.cols()));
  }
  for (Eigen::Index j = 0; j < candidates.cols(); ++j)
    for (Eigen::Index i = 0; i < candidates.rows(); ++i)
      if (!std::isfinite(candidates(i, j))) {
        throw std::invalid_argument("candidates(" + std::to_string(i) + ", " + std::to_string(j) +
                                    ") is not finite: " + FormatDouble(candidates(i, j)));
      }
  Domain d;
  d.kind_ = DomainKind::kFiniteSet;
  d.candidates_ = candidates;
  d.lower_ = candidates.rowwise().minCoeff();
  d.upper_ = candidates.rowwise().maxCoeff();
  for (Eigen::Index i = 0; i < d.lower_.size(); ++i)
    CheckWidth(d.lower_(i), d.upper_(i),
               "candidates row " + std::to_string(i) + " (smallest, largest)");
  return d;
}

Domain Domain::Space(const ParameterSpace& actions) {
  Domain d;
  d.kind_ = DomainKind::kSpace;
  d.actions_ = std::make_shared<const SpaceTransform>(actions);
  d.lower_ = actions.vector_lower();
  d.upper_ = actions.vector_upper();
  return d;
}

Domain Domain::WithContext(const ParameterSpace& contexts) const {
  Domain d = WithContext(contexts.size(), contexts.vector_lower(), contexts.vector_upper());
  d.contexts_ = std::make_shared<const SpaceTransform>(contexts);
  return d;
}

int Domain::num_decision_points() const {
  if (kind_ == DomainKind::kFiniteSet) return num_candidates();
  const ParameterSpace* space = action_space();
  return space == nullptr ? 0 : static_cast<int>(space->NumPoints(std::numeric_limits<int>::max()));
}

const ParameterSpace* Domain::action_space() const {
  return actions_ ? &actions_->space() : nullptr;
}

const ParameterSpace* Domain::context_space() const {
  return contexts_ ? &contexts_->space() : nullptr;
}

Eigen::VectorXd Domain::UnitActionUpper() const {
  if (actions_) return actions_->ModelUpper();
  Eigen::VectorXd upper(action_dim());
  for (int i = 0; i < action_dim(); ++i) upper(i) = upper_(i) > lower_(i) ? 1.0 : 0.0;
  return upper;
}

Domain Domain::WithContext(int context_dim, const Eigen::VectorXd& context_lower,
                           const Eigen::VectorXd& context_upper) const {
  if (context_dim < 1)
    throw std::invalid_argument("context_dim must be >= 1, got " + std::to_string(context_dim));
  if (context_dim_ != 0)
    throw std::invalid_argument("domain already has a context of dimension " +
                                std::to_string(context_dim_));
  if (context_lower.size() != 0 || context_upper.size() != 0) {
    CheckBounds(context_lower, context_upper, "context_lower", "context_upper");
    if (context_lower.size() != context_dim) {
      throw std::invalid_argument("context bounds have size " +
                                  std::to_string(context_lower.size()) + " but context_dim is " +
                                  std::to_string(context_dim));
    }
  }
  Domain d = *this;
  d.context_dim_ = context_dim;
  d.context_lower_ = context_lower;
  d.context_upper_ = context_upper;
  return d;
}

void Domain::CheckAction(const Eigen::VectorXd& x, const std::string& field) const {
  if (actions_) return actions_->space().CheckVector(x, field);
  if (x.size() != action_dim()) {
    throw std::invalid_argument(field + " has size " + std::to_string(x.size()) +
                                " but the action dimension is " + std::to_string(action_dim()));
  }
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "] = " + FormatDouble(x(i));
    if (!std::isfinite(x(i))) throw std::invalid_argument(at + " is not finite");
    if (x(i) < lower_(i) || x(i) > upper_(i)) {
      throw std::invalid_argument(at + " is outside [" + FormatDouble(lower_(i)) + ", " +
                                  FormatDouble(upper_(i)) + "]");
    }
  }
}

void Domain::CheckContext(const Eigen::VectorXd& z, const std::string& field) const {
  if (contexts_) return contexts_->space().CheckVector(z, field);
  if (z.size() != context_dim_) {
    throw std::invalid_argument(field + " has size " + std::to_string(z.size()) +
                                " but the context dimension is " + std::to_string(context_dim_));
  }
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const std::string at = field + "[" + std::to_string(i) + "] = " + FormatDouble(z(i));
    if (!std::isfinite(z(i))) throw std::invalid_argument(at + " is not finite");
    if (has_context_bounds() && (z(i) < context_lower_(i) || z(i) > context_upper_(i))) {
      throw std::invalid_argument(at + " is outside [" + FormatDouble(context_lower_(i)) + ", " +
                                  FormatDouble(context_upper_(i)) + "]");
    }
  }
}

Eigen::VectorXd Domain::ContextToUnit(const Eigen::VectorXd& z) const {
  if (contexts_) return contexts_->ToModel(z);
  if (!has_context_bounds()) return z;
  Eigen::VectorXd u(z.size());
  for (Eigen::Index i = 0; i < z.size(); ++i)
    u(i) = ToUnitCoordinate(z(i), context_lower_(i), context_upper_(i));
  return u;
}

Eigen::VectorXd Domain::ToUnit(const Eigen::VectorXd& x, const Eigen::VectorXd& z) const {
  Eigen::VectorXd u(input_dim());
  if (actions_) {
    u.head(action_dim()) = actions_->ToModel(x);
  } else {
    for (int i = 0; i < action_dim(); ++i) u(i) = ToUnitCoordinate(x(i), lower_(i), upper_(i));
  }
  if (context_dim_ > 0) u.tail(context_dim_) = ContextToUnit(z);
  return u;
}

Eigen::VectorXd Domain::ActionFromUnit(const Eigen::VectorXd& unit_input) const {
  if (actions_) return actions_->FromModel(unit_input.head(action_dim()));
  Eigen::VectorXd x(action_dim());
  for (int i = 0; i < action_dim(); ++i) {
    // The cube's faces map to the exact bounds. The maximizer reaches a face only
    // asymptotically (its cos transform is flat there), so a face point arrives as e.g.
    // 1 - 4e-15 and would print as 0.999999999999996 instead of the bound; within
    // kUnitEdgeTolerance of a face the coordinate is taken to be on it.
    if (!(unit_input(i) > kUnitEdgeTolerance)) {
      x(i) = lower_(i);
      continue;
    }
    if (unit_input(i) >= 1.0 - kUnitEdgeTolerance) {
      x(i) = upper_(i);
      continue;
    }
    // Inside, the affine map can still land a rounding error outside the box; clamp exactly
    // (docs/design.md, "Faults": a candidate a hair outside the box).
    const double v = lower_(i) + unit_input(i) * (upper_(i) - lower_(i));
    x(i) = std::min(upper_(i), std::max(lower_(i), v));
  }
  return x;
}

std::string Domain::Describe() const {
  std::ostringstream s;
  if (kind_ == DomainKind::kBox) {
    s << "box(d=" << action_dim() << ")";
  } else if (kind_ == DomainKind::kFiniteSet) {
    s << "finite(d=" << action_dim() << ", N=" << num_candidates() << ")";
  } else {
    s << "space(" << actions_->space().Describe() << ")";
  }
  if (contexts_) {
    s << " + context(" << contexts_->space().Describe() << ")";
  } else if (context_dim_ > 0) {
    s << " + context(" << context_dim_ << (has_context_bounds() ? ", bounded)" : ")");
  }
  return s.str();
}

bool Domain::operator==(const Domain& o) const {
  auto same = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && a == b;
  };
  auto same_space = [](const std::shared_ptr<const SpaceTransform>& a,
                       const std::shared_ptr<const SpaceTransform>& b) {
    return (!a && !b) || (a && b && a->space() == b->space());
  };
  if (!same_space(actions_, o.actions_) || !same_space(contexts_, o.contexts_)) return false;
  return kind_ == o.kind_ && context_dim_ == o.context_dim_ && same(lower_, o.lower_) &&
         same(upper_, o.upper_) && same(candidates_, o.candidates_) &&
         same(context_lower_, o.context_lower_) && same(context_upper_, o.context_upper_);
}

}  // namespace gpbandit
