#include "gpbandit/space/space_transform.h"

#include <algorithm>
#include <cmath>

namespace gpbandit {
namespace {

// Model coordinates this close to a face decode to the bound itself: the maximizer reaches a
// face only asymptotically (domain.cc, kUnitEdgeTolerance).
constexpr double kFaceTolerance = 1e-12;

// The affine part of the map: the unit coordinate of a value already on its scale.
struct AffineScale {
  double lower = 0.0, width = 0.0;
  bool log = false;
  double Unit(double v) const {
    if (width == 0.0) return 0.0;
    return ((log ? std::log(v) : v) - lower) / width;
  }
  double Value(double u) const {
    const double s = lower + u * width;
    return log ? std::exp(s) : s;
  }
};

AffineScale ScaleOf(const Parameter& p) {
  AffineScale a;
  a.log = p.scale == ParameterScale::kLog;
  a.lower = a.log ? std::log(p.lower) : p.lower;
  a.width = (a.log ? std::log(p.upper) : p.upper) - a.lower;
  return a;
}

// The integer of [lower, upper] whose unit coordinate is nearest u (ties: the smaller). The
// integers around the rounded value are compared in model coordinates, which makes the
// rounding that of the model's scale and undoes the roundoff of exp and of the affine map.
double NearestInteger(const Parameter& p, const AffineScale& a, double u) {
  const double v = std::clamp(a.Value(u), p.lower, p.upper);
  double best = p.lower;
  double best_distance = HUGE_VAL;
  for (double k = std::floor(v) - 1.0; k <= std::floor(v) + 2.0; k += 1.0) {
    if (k < p.lower || k > p.upper) continue;
    const double distance = std::abs(a.Unit(k) - u);
    if (distance < best_distance) {
      best_distance = distance;
      best = k;
    }
  }
  return best;
}

}  // namespace

SpaceTransform::SpaceTransform(ParameterSpace space) : space_(std::move(space)) {}

double SpaceTransform::ToModel(int i, double v) const {
  const Parameter& p = space_.parameter(i);
  return p.kind == ParameterKind::kCategorical ? v : ScaleOf(p).Unit(v);
}

Eigen::VectorXd SpaceTransform::ToModel(const Eigen::VectorXd& x) const {
  Eigen::VectorXd u(dim());
  for (int i = 0; i < dim(); ++i) u(i) = ToModel(i, x(i));
  return u;
}

double SpaceTransform::FromModel(int i, double u) const {
  const Parameter& p = space_.parameter(i);
  if (p.kind == ParameterKind::kCategorical)
    return std::clamp(std::round(u), 0.0, static_cast<double>(p.labels.size()) - 1.0);
  if (p.fixed() || !(u > kFaceTolerance)) return p.lower;
  if (u >= 1.0 - kFaceTolerance) return p.upper;
  const AffineScale a = ScaleOf(p);
  if (p.kind == ParameterKind::kInteger) return NearestInteger(p, a, u);
  // Inside, the map can still land a rounding error outside the bounds; clamp exactly.
  return std::clamp(a.Value(u), p.lower, p.upper);
}

Eigen::VectorXd SpaceTransform::FromModel(const Eigen::VectorXd& u) const {
  Eigen::VectorXd x(dim());
  for (int i = 0; i < dim(); ++i) x(i) = FromModel(i, u(i));
  return x;
}

Eigen::VectorXd SpaceTransform::ModelUpper() const {
  Eigen::VectorXd upper(dim());
  for (int i = 0; i < dim(); ++i) {
    const Parameter& p = space_.parameter(i);
    upper(i) = p.kind == ParameterKind::kCategorical ? p.vector_upper() : (p.fixed() ? 0.0 : 1.0);
  }
  return upper;
}

Eigen::VectorXd SpaceTransform::FromUniform(const Eigen::VectorXd& s) const {
  Eigen::VectorXd x(dim());
  for (int i = 0; i < dim(); ++i) {
    const Parameter& p = space_.parameter(i);
    const double si = std::clamp(s(i), 0.0, 1.0);
    if (p.kind == ParameterKind::kReal) {
      x(i) = FromModel(i, si);
      continue;
    }
    const double levels = p.vector_upper() - p.vector_lower() + 1.0;
    if (p.kind == ParameterKind::kCategorical || p.scale == ParameterScale::kLinear) {
      x(i) = p.vector_lower() + std::min(levels - 1.0, std::floor(si * levels));
      continue;
    }
    // A log-scaled integer: uniform over ln of [lower - 1/2, upper + 1/2], then the cell's k.
    const double a = std::log(p.lower - 0.5), b = std::log(p.upper + 0.5);
    x(i) = std::clamp(std::round(std::exp(a + si * (b - a))), p.lower, p.upper);
  }
  return x;
}

std::vector<DiscreteCoordinate> SpaceTransform::DiscreteCoordinates(int offset) const {
  std::vector<DiscreteCoordinate> discrete;
  for (int i = 0; i < dim(); ++i) {
    const Parameter& p = space_.parameter(i);
    if (!p.discrete()) continue;
    DiscreteCoordinate c;
    c.dim = offset + i;
    c.num_levels = static_cast<long long>(p.vector_upper() - p.vector_lower()) + 1;
    c.ordered = p.kind == ParameterKind::kInteger;
    if (c.ordered) {
      const AffineScale a = ScaleOf(p);
      const double lower = p.lower;
      c.value_of_level = [a, lower](long long l) { return a.Unit(lower + static_cast<double>(l)); };
    } else {
      c.value_of_level = [](long long l) { return static_cast<double>(l); };
    }
    discrete.push_back(std::move(c));
  }
  return discrete;
}

std::vector<int> SpaceTransform::CategoricalDims(int offset) const {
  std::vector<int> dims;
  for (int i = 0; i < dim(); ++i) {
    const Parameter& p = space_.parameter(i);
    if (p.kind == ParameterKind::kCategorical && !p.fixed()) dims.push_back(offset + i);
  }
  return dims;
}

std::vector<int> SpaceTransform::CategoricalSizes() const {
  std::vector<int> sizes;
  for (const Parameter& p : space_.parameters())
    if (p.kind == ParameterKind::kCategorical && !p.fixed())
      sizes.push_back(static_cast<int>(p.labels.size()));
  return sizes;
}

std::vector<int> SpaceTransform::OtherDims(int offset) const {
  std::vector<int> dims;
  for (int i = 0; i < dim(); ++i) {
    const Parameter& p = space_.parameter(i);
    if (p.kind != ParameterKind::kCategorical || p.fixed()) dims.push_back(offset + i);
  }
  return dims;
}

}  // namespace gpbandit
