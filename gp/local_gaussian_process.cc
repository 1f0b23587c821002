#include "gpbandit/gp/local_gaussian_process.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

[[noreturn]] void FailLocal(const std::string& message) {
  throw std::invalid_argument("LocalGaussianProcess: " + message);
}

// Bisection steps for a trust box half-width: 2^-40 of the span is far below any lengthscale.
constexpr int kBisectionSteps = 40;
// The trust box keeps at least this fraction of the span around the anchor, so that a
// neighbourhood of duplicates of the anchor does not freeze the search on one point.
constexpr double kMinRelativeHalfWidth = 1e-4;
// The box's corners lie a hair inside the ellipsoid, so that a point observed there ranks above
// the least correlated neighbour rather than ties with it (ties go to the lower row).
constexpr double kInsideFactor = 0.999;
// A further region's anchor is at least this far (Euclidean, input units: the Optimizer's unit
// cube) from every earlier anchor, so that regions look at different basins rather than at the
// slopes of one. A distance rather than a correlation: hyperparameters fitted near the
// incumbent often have lengthscales as long as the box, which would leave no other anchor.
constexpr double kAnchorSeparation = 0.3;

}  // namespace

LocalGaussianProcess::LocalGaussianProcess(std::unique_ptr<Kernel> kernel, int input_dim,
                                           const GaussianProcessOptions& options, int size,
                                           int regions, LocalAnchor anchor_rule)
    : kernel_(std::move(kernel)),
      input_dim_(input_dim),
      options_(options),
      size_(size),
      regions_(regions),
      anchor_rule_(anchor_rule) {
  if (!kernel_) FailLocal("kernel is null");
  if (size < 1) FailLocal("size = " + std::to_string(size) + " must be >= 1");
  if (regions < 1 || regions > size)
    FailLocal("regions = " + std::to_string(regions) +
              " must be in [1, size = " + std::to_string(size) + "]");
  // The GP's own checks of the kernel, the input dimension and the options.
  GaussianProcess check(kernel_->Clone(), input_dim, options);
  noise_variance_ = options.noise_variance;
  X_.resize(input_dim_, 16);
  y_.resize(16);
}

LocalGaussianProcess::LocalGaussianProcess(const GaussianProcess& exact, int size, int regions,
                                           LocalAnchor anchor_rule)
    : LocalGaussianProcess(exact.kernel().Clone(), exact.input_dim(), exact.options(), size,
                           regions, anchor_rule) {
  noise_variance_ = exact.noise_variance();
  t_ = exact.num_observations();
  X_ = exact.inputs();
  y_ = exact.outputs();
}

LocalGaussianProcess::LocalGaussianProcess(const LocalGaussianProcess& other)
    : kernel_(other.kernel_->Clone()),
      input_dim_(other.input_dim_),
      options_(other.options_),
      noise_variance_(other.noise_variance_),
      size_(other.size_),
      regions_(other.regions_),
      anchor_rule_(other.anchor_rule_),
      t_(other.t_),
      X_(other.X_.leftCols(other.t_)),
      y_(other.y_.head(other.t_)),
      stale_(other.stale_),
      local_(other.local_ ? std::make_unique<GaussianProcess>(*other.local_) : nullptr),
      neighbours_(other.neighbours_),
      interior_(other.interior_),
      anchors_(other.anchors_),
      floors_(other.floors_) {}

LocalGaussianProcess& LocalGaussianProcess::operator=(const LocalGaussianProcess& other) {
  if (this != &other) {
    LocalGaussianProcess copy(other);
    *this = std::move(copy);
  }
  return *this;
}

LocalGaussianProcess::LocalGaussianProcess(LocalGaussianProcess&&) noexcept = default;
LocalGaussianProcess& LocalGaussianProcess::operator=(LocalGaussianProcess&&) noexcept = default;
LocalGaussianProcess::~LocalGaussianProcess() = default;

void LocalGaussianProcess::AddObservation(const ConstVectorRef& x, double y) {
  if (x.size() != input_dim_)
    FailLocal("x has dimension " + std::to_string(x.size()) +
              ", expected input_dim = " + std::to_string(input_dim_));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x(i)))
      FailLocal("x[" + std::to_string(i) + "] = " + FormatDouble(x(i)) + " is not finite");
  kernel_->ValidatePoint(x, "x");
  if (!std::isfinite(y)) FailLocal("y = " + FormatDouble(y) + " is not finite");
  if (t_ == X_.cols()) {
    X_.conservativeResize(Eigen::NoChange, std::max<Eigen::Index>(16, 2 * X_.cols()));
    y_.conservativeResize(X_.cols());
  }
  X_.col(t_) = x;
  y_(t_) = y;
  ++t_;
  Invalidate();
}

void LocalGaussianProcess::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                              double noise_variance) {
  if (!std::isfinite(noise_variance) || noise_variance < 0.0)
    FailLocal("noise_variance = " + FormatDouble(noise_variance) + " must be finite and >= 0");
  kernel_->SetLogParams(kernel_log_params);  // validates; throws before any change
  noise_variance_ = noise_variance;
  Invalidate();
}

void LocalGaussianProcess::ScaleOutputs(int exponent) {
  y_.head(t_) = y_.head(t_).unaryExpr([exponent](double y) { return std::ldexp(y, exponent); });
  Invalidate();
}

int LocalGaussianProcess::anchor() const {
  if (t_ == 0) return -1;
  Eigen::Index best = 0;
  y_.head(t_).maxCoeff(&best);  // the first of equal maxima
  return static_cast<int>(best);
}

double LocalGaussianProcess::Correlation(const ConstVectorRef& x, const ConstVectorRef& a,
                                         double kaa) const {
  const double kxa = kernel_->Value(x, a);
  const double kxx = kernel_->Value(x, x);
  if (kxx > 0.0 && kaa > 0.0) return kxa / std::sqrt(kxx * kaa);
  return kxa;
}

Eigen::VectorXd LocalGaussianProcess::AnchorCorrelations(int anchor_row) const {
  const Eigen::MatrixXd X = inputs();
  const Eigen::VectorXd a = X.col(anchor_row);
  const Eigen::VectorXd cross = kernel_->Cross(X, a).col(0);
  const Eigen::VectorXd diagonal = kernel_->Diagonal(X);
  const double kaa = kernel_->Value(a, a);
  Eigen::VectorXd correlations(t_);
  for (int i = 0; i < t_; ++i)
    correlations(i) =
        (diagonal(i) > 0.0 && kaa > 0.0) ? cross(i) / std::sqrt(diagonal(i) * kaa) : cross(i);
  return correlations;
}

std::vector<int> LocalGaussianProcess::TopCorrelated(const Eigen::VectorXd& correlations,
                                                     int anchor_row, std::vector<int> candidates,
                                                     int count, double* floor) const {
  *floor = -std::numeric_limits<double>::infinity();
  if (count >= static_cast<int>(candidates.size())) return candidates;
  if (count < 1) return {};
  // A strict total order (the anchor first, then correlation descending, then row ascending),
  // so that the selection does not depend on the order nth_element visits the rows in.
  auto before = [&correlations, anchor_row](int i, int j) {
    if (i == anchor_row || j == anchor_row) return i == anchor_row && j != anchor_row;
    if (correlations(i) != correlations(j)) return correlations(i) > correlations(j);
    return i < j;
  };
  std::nth_element(candidates.begin(), candidates.begin() + (count - 1), candidates.end(), before);
  candidates.resize(static_cast<std::size_t>(count));
  *floor = std::numeric_limits<double>::infinity();
  for (int row : candidates)
    if (row != anchor_row) *floor = std::min(*floor, correlations(row));
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

GaussianProcess LocalGaussianProcess::ModelOn(const std::vector<int>& rows) const {
  GaussianProcessOptions options = options_;
  options.noise_variance = noise_variance_;
  GaussianProcess gp(kernel_->Clone(), input_dim_, options);
  Eigen::MatrixXd X(input_dim_, static_cast<Eigen::Index>(rows.size()));
  Eigen::VectorXd y(static_cast<Eigen::Index>(rows.size()));
  for (std::size_t j = 0; j < rows.size(); ++j) {
    const int row = rows[j];
    if (row < 0 || row >= t_)
      FailLocal("row " + std::to_string(row) + " out of range [0, " + std::to_string(t_) + ")");
    X.col(static_cast<Eigen::Index>(j)) = X_.col(row);
    y(static_cast<Eigen::Index>(j)) = y_(row);
  }
  gp.AddObservations(X, y);  // one factorization: a function of the rows, not of the history
  return gp;
}

std::vector<int> LocalGaussianProcess::FindAnchors(
    int first, std::vector<Eigen::VectorXd>* correlations) const {
  std::vector<int> anchors = {first};
  correlations->assign(1, AnchorCorrelations(anchors[0]));
  const int regions = t_ <= size_ ? 1 : regions_;
  // The distance of every row to its nearest anchor.
  Eigen::VectorXd nearest = (X_.leftCols(t_).colwise() - X_.col(anchors[0])).colwise().norm();
  while (static_cast<int>(anchors.size()) < regions) {
    int best = -1;
    for (int row = 0; row < t_; ++row)
      if (nearest(row) >= kAnchorSeparation && (best < 0 || y_(row) > y_(best))) best = row;
    if (best < 0) break;
    anchors.push_back(best);
    correlations->push_back(AnchorCorrelations(best));
    nearest =
        nearest.cwiseMin((X_.leftCols(t_).colwise() - X_.col(best)).colwise().norm().transpose());
  }
  return anchors;
}

void LocalGaussianProcess::Rebuild() const {
  BuildAround(anchor());
  if (anchor_rule_ != LocalAnchor::kHighestMean) return;
  // The second pass: around the row of the highest posterior mean of the first pass's model
  // among its groups' interiors (MeansAtObservations), the first of equal ones.
  const Eigen::VectorXd means = InteriorMeans();
  int best = -1;
  for (int row = 0; row < t_; ++row)
    if (!std::isnan(means(row)) && (best < 0 || means(row) > means(best))) best = row;
  if (best >= 0 && best != anchors_[0]) BuildAround(best);
}

void LocalGaussianProcess::BuildAround(int first) const {
  std::vector<Eigen::VectorXd> correlations;
  anchors_ = FindAnchors(first, &correlations);
  floors_.clear();
  std::vector<int> remaining(static_cast<std::size_t>(t_)), rows, interior;
  std::iota(remaining.begin(), remaining.end(), 0);
  const int regions = static_cast<int>(anchors_.size());
  for (int j = 0; j < regions; ++j) {
    const int count = j == 0 ? size_ - (regions - 1) * (size_ / regions) : size_ / regions;
    double floor;
    const std::vector<int> group =
        TopCorrelated(correlations[static_cast<std::size_t>(j)],
                      anchors_[static_cast<std::size_t>(j)], remaining, count, &floor);
    floors_.push_back(floor);
    // The group's interior: correlation with the anchor at least the square root of the least
    // (for a squared exponential, within 1/sqrt(2) of the group's radius).
    const double inner = floor > 0.0 ? std::sqrt(floor) : floor;
    for (int row : group)
      if (correlations[static_cast<std::size_t>(j)](row) >= inner) interior.push_back(row);
    std::vector<int> rest;
    std::set_difference(remaining.begin(), remaining.end(), group.begin(), group.end(),
                        std::back_inserter(rest));
    remaining.swap(rest);
    rows.insert(rows.end(), group.begin(), group.end());
  }
  std::sort(rows.begin(), rows.end());
  if (local_)
    *local_ = ModelOn(rows);
  else
    local_ = std::make_unique<GaussianProcess>(ModelOn(rows));
  neighbours_ = std::move(rows);
  std::sort(interior.begin(), interior.end());
  interior_ = std::move(interior);
  stale_ = false;
}

const std::vector<int>& LocalGaussianProcess::anchors() const {
  if (stale_) Rebuild();
  return anchors_;
}

const std::vector<int>& LocalGaussianProcess::neighbours() const {
  if (stale_) Rebuild();
  return neighbours_;
}

const GaussianProcess& LocalGaussianProcess::local() const {
  if (stale_) Rebuild();
  return *local_;
}

Eigen::VectorXd LocalGaussianProcess::MeansAtObservations() const {
  if (stale_) Rebuild();
  return InteriorMeans();
}

Eigen::VectorXd LocalGaussianProcess::InteriorMeans() const {
  Eigen::VectorXd means = Eigen::VectorXd::Constant(t_, std::numeric_limits<double>::quiet_NaN());
  const Eigen::VectorXd local_means = local_->MeansAtObservations();
  const std::vector<int>& rows = neighbours_;
  for (std::size_t j = 0; j < rows.size(); ++j)
    if (std::binary_search(interior_.begin(), interior_.end(), rows[j]))
      means(rows[j]) = local_means(static_cast<Eigen::Index>(j));
  return means;
}

void LocalGaussianProcess::LocalTrustBox(int region, int action_dim, Eigen::VectorXd* lower,
                                         Eigen::VectorXd* upper, double scale) const {
  if (t_ == 0) throw std::logic_error("LocalGaussianProcess::LocalTrustBox: no observation");
  const int regions = static_cast<int>(anchors().size());
  if (region < 0 || region >= regions || action_dim < 1 || action_dim > input_dim_ ||
      lower->size() != input_dim_ || upper->size() != input_dim_ || !(scale > 0.0 && scale <= 1.0))
    FailLocal("LocalTrustBox: region " + std::to_string(region) + " of " + std::to_string(regions) +
              ", action_dim = " + std::to_string(action_dim) + ", bounds of size " +
              std::to_string(lower->size()) + " and " + std::to_string(upper->size()) +
              " for input_dim = " + std::to_string(input_dim_) + ", scale " + FormatDouble(scale));
  const double floor = floors_[static_cast<std::size_t>(region)];
  if (floor == -std::numeric_limits<double>::infinity()) return;  // the group holds every row
  const Eigen::VectorXd a = X_.col(anchors_[static_cast<std::size_t>(region)]);
  const double kaa = kernel_->Value(a, a);
  const double shrink = kInsideFactor / std::sqrt(static_cast<double>(action_dim)) * scale;
  for (int i = 0; i < action_dim; ++i) {
    const double span = (*upper)(i) - (*lower)(i);
    const double reach = std::max(a(i) - (*lower)(i), (*upper)(i)-a(i));
    auto correlation_at = [&](double h) {
      Eigen::VectorXd x = a;
      x(i) += h;
      return Correlation(x, a, kaa);
    };
    double h = reach;
    if (correlation_at(reach) < floor) {
      double inside = 0.0, outside = reach;
      for (int step = 0; step < kBisectionSteps; ++step) {
        const double mid = 0.5 * (inside + outside);
        (correlation_at(mid) >= floor ? inside : outside) = mid;
      }
      h = inside;
    }
    const double half = std::max(shrink * h, kMinRelativeHalfWidth * span);
    (*lower)(i) = std::max((*lower)(i), a(i) - half);
    (*upper)(i) = std::min((*upper)(i), a(i) + half);
  }
}

}  // namespace gpbandit
