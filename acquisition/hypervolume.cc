#include "gpbandit/acquisition/hypervolume.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/acquisition/pareto.h"

namespace gpbandit {
namespace {

constexpr int kMaxInclusionExclusionPoints = 20;
constexpr int kMaxBoxObjectives = 3;

using Point = std::vector<double>;

void RequireShapes(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference) {
  if (points.rows() < 1)
    throw std::invalid_argument("points must have at least one objective (row)");
  if (reference.size() != points.rows()) {
    throw std::invalid_argument("reference has " + std::to_string(reference.size()) +
                                " entries but points have " + std::to_string(points.rows()) +
                                " objectives (rows)");
  }
  RequireFiniteMatrix(points, "points");
  RequireFiniteMatrix(reference, "reference");
}

void RequireDominatedReference(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference) {
  RequireShapes(points, reference);
  for (Eigen::Index j = 0; j < points.cols(); ++j) {
    for (Eigen::Index i = 0; i < points.rows(); ++i) {
      if (points(i, j) < reference(i)) {
        std::ostringstream message;
        message << "reference(" << i << ") = " << reference(i) << " is not dominated by points("
                << i << ", " << j << ") = " << points(i, j)
                << " (every point must be >= the reference; see PointsDominatingReference)";
        throw std::invalid_argument(message.str());
      }
    }
  }
}

std::vector<Point> Columns(const Eigen::MatrixXd& points) {
  std::vector<Point> result(points.cols(), Point(points.rows()));
  for (Eigen::Index j = 0; j < points.cols(); ++j)
    for (Eigen::Index i = 0; i < points.rows(); ++i) result[j][i] = points(i, j);
  return result;
}

// Staircase sweep over the first two objectives: sorted by objective 0 descending, each point
// that rises above the running top of objective 1 adds the rectangle [r0, p0] x [top, p1].
double Sweep2D(std::vector<Point> pts, const Point& r) {
  std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a[0] > b[0]; });
  double area = 0.0, top = r[1];
  for (const Point& p : pts) {
    if (p[1] > top) {
      area += (p[0] - r[0]) * (p[1] - top);
      top = p[1];
    }
  }
  return area;
}

// HV over objectives 0..d-1: slices of objective d-1 between consecutive point values; in each,
// the (d-1)-dimensional hypervolume of the points that reach above the slice.
double SliceVolume(std::vector<Point> pts, const Point& r, int d) {
  if (pts.empty()) return 0.0;
  if (d == 1) {
    double top = r[0];
    for (const Point& p : pts) top = std::max(top, p[0]);
    return top - r[0];
  }
  if (d == 2) return Sweep2D(std::move(pts), r);
  std::sort(pts.begin(), pts.end(),
            [d](const Point& a, const Point& b) { return a[d - 1] > b[d - 1]; });
  double volume = 0.0;
  std::vector<Point> above;
  for (size_t i = 0; i < pts.size(); ++i) {
    above.push_back(pts[i]);
    const double bottom = i + 1 < pts.size() ? pts[i + 1][d - 1] : r[d - 1];
    const double height = pts[i][d - 1] - bottom;
    if (height > 0.0) volume += height * SliceVolume(above, r, d - 1);
  }
  return volume;
}

void InclusionExclusion(const std::vector<Point>& pts, const Point& r, size_t next,
                        const Point& lowest, int size, double* sum) {
  for (size_t j = next; j < pts.size(); ++j) {
    Point m(lowest.size());
    double volume = 1.0;
    for (size_t i = 0; i < m.size(); ++i) {
      m[i] = size == 0 ? pts[j][i] : std::min(lowest[i], pts[j][i]);
      volume *= m[i] - r[i];
    }
    *sum += (size % 2 == 0 ? 1.0 : -1.0) * volume;
    InclusionExclusion(pts, r, j + 1, m, size + 1, sum);
  }
}

// The boxes of the non-dominated region over objectives 0..d-1, as (lower, upper) pairs.
struct Box {
  Point lower, upper;
};

std::vector<Box> Boxes(const std::vector<Point>& pts, const Point& r, int d) {
  const double infinity = std::numeric_limits<double>::infinity();
  if (d == 1) {
    double top = r[0];
    for (const Point& p : pts) top = std::max(top, p[0]);
    return {Box{{top}, {infinity}}};
  }
  // The distinct values of objective d-1 above r: slice s spans (cuts[s], cuts[s + 1]].
  std::vector<double> cuts{r[d - 1]};
  for (const Point& p : pts)
    if (p[d - 1] > r[d - 1]) cuts.push_back(p[d - 1]);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  cuts.push_back(infinity);

  std::vector<Box> result;
  std::map<Point, size_t> open;  // (d-1)-box (lower then upper) -> its index in result
  for (size_t s = 0; s + 1 < cuts.size(); ++s) {
    // In this slice, z is dominated only by points reaching cuts[s + 1] in objective d-1.
    std::vector<Point> above;
    for (const Point& p : pts)
      if (p[d - 1] >= cuts[s + 1]) above.push_back(p);
    std::map<Point, size_t> still_open;
    for (Box& sub : Boxes(above, r, d - 1)) {
      Point key = sub.lower;
      key.insert(key.end(), sub.upper.begin(), sub.upper.end());
      auto found = open.find(key);
      if (found != open.end()) {
        result[found->second].upper[d - 1] = cuts[s + 1];
        still_open.emplace(key, found->second);
        continue;
      }
      sub.lower.push_back(cuts[s]);
      sub.upper.push_back(cuts[s + 1]);
      result.push_back(std::move(sub));
      still_open.emplace(key, result.size() - 1);
    }
    open = std::move(still_open);
  }
  return result;
}

}  // namespace

Eigen::MatrixXd PointsDominatingReference(const Eigen::MatrixXd& points,
                                          const Eigen::VectorXd& reference) {
  RequireShapes(points, reference);
  std::vector<Eigen::Index> kept;
  for (Eigen::Index j = 0; j < points.cols(); ++j)
    if ((points.col(j).array() > reference.array()).all()) kept.push_back(j);
  Eigen::MatrixXd result(points.rows(), static_cast<Eigen::Index>(kept.size()));
  for (size_t c = 0; c < kept.size(); ++c) result.col(c) = points.col(kept[c]);
  return result;
}

double Hypervolume(const Eigen::MatrixXd& points, const Eigen::VectorXd& reference) {
  RequireDominatedReference(points, reference);
  const Point r(reference.data(), reference.data() + reference.size());
  return SliceVolume(Columns(points), r, static_cast<int>(points.rows()));
}

double HypervolumeInclusionExclusion(const Eigen::MatrixXd& points,
                                     const Eigen::VectorXd& reference) {
  RequireDominatedReference(points, reference);
  if (points.cols() > kMaxInclusionExclusionPoints) {
    throw std::invalid_argument("HypervolumeInclusionExclusion: points has " +
                                std::to_string(points.cols()) + " columns; at most " +
                                std::to_string(kMaxInclusionExclusionPoints));
  }
  const Point r(reference.data(), reference.data() + reference.size());
  double sum = 0.0;
  InclusionExclusion(Columns(points), r, 0, Point(r.size()), 0, &sum);
  return sum;
}

double HypervolumeImprovement(const Eigen::VectorXd& y, const Eigen::MatrixXd& points,
                              const Eigen::VectorXd& reference) {
  RequireDominatedReference(points, reference);
  if (y.size() != reference.size()) {
    throw std::invalid_argument("y has " + std::to_string(y.size()) +
                                " entries but reference has " + std::to_string(reference.size()));
  }
  RequireFiniteMatrix(y, "y");
  if (!(y.array() > reference.array()).all()) return 0.0;
  Eigen::MatrixXd clipped = points;
  for (Eigen::Index j = 0; j < clipped.cols(); ++j) clipped.col(j) = clipped.col(j).cwiseMin(y);
  const double box = (y - reference).prod();
  // Never negative: rounding in the difference of two close volumes could make it so.
  return std::max(0.0, box - Hypervolume(clipped, reference));
}

MonteCarloEstimate HypervolumeMonteCarlo(const Eigen::MatrixXd& points,
                                         const Eigen::VectorXd& reference, int samples, Rng& rng) {
  RequireDominatedReference(points, reference);
  if (samples < 1) {
    throw std::invalid_argument("samples = " + std::to_string(samples) + " must be >= 1");
  }
  MonteCarloEstimate estimate;
  if (points.cols() == 0) return estimate;
  const Eigen::VectorXd upper = points.rowwise().maxCoeff();
  const double volume = (upper - reference).prod();
  if (volume == 0.0) return estimate;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  Eigen::VectorXd z(reference.size());
  long hits = 0;
  for (int s = 0; s < samples; ++s) {
    for (Eigen::Index i = 0; i < z.size(); ++i)
      z(i) = reference(i) + unit(rng) * (upper(i) - reference(i));
    for (Eigen::Index j = 0; j < points.cols(); ++j) {
      if ((points.col(j).array() >= z.array()).all()) {
        ++hits;
        break;
      }
    }
  }
  const double p = static_cast<double>(hits) / samples;
  estimate.value = volume * p;
  estimate.standard_error = volume * std::sqrt(p * (1.0 - p) / samples);
  return estimate;
}

BoxDecomposition NonDominatedBoxes(const Eigen::MatrixXd& points,
                                   const Eigen::VectorXd& reference) {
  RequireDominatedReference(points, reference);
  const int k = static_cast<int>(points.rows());
  if (k > kMaxBoxObjectives) {
    throw std::invalid_argument("NonDominatedBoxes: points have " + std::to_string(k) +
                                " objectives; at most " + std::to_string(kMaxBoxObjectives));
  }
  const Point r(reference.data(), reference.data() + reference.size());
  const std::vector<Box> boxes = Boxes(Columns(points), r, k);
  BoxDecomposition result;
  result.lower.resize(k, static_cast<Eigen::Index>(boxes.size()));
  result.upper.resize(k, static_cast<Eigen::Index>(boxes.size()));
  for (size_t b = 0; b < boxes.size(); ++b) {
    for (int i = 0; i < k; ++i) {
      result.lower(i, b) = boxes[b].lower[i];
      result.upper(i, b) = boxes[b].upper[i];
    }
  }
  return result;
}

}  // namespace gpbandit
