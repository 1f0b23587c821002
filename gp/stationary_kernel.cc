#include "gpbandit/gp/stationary_kernel.h"

#include <cmath>
#include <stdexcept>

namespace gpbandit {
namespace {

// Beyond this squared scaled distance every profile and slope below is exactly 0 in double
// (exp(-sqrt(1e7)) underflows), so clamping there keeps huge or overflowing distances from
// turning into inf * 0 = NaN in the gradients.
constexpr double kMaxSquaredDistance = 1e7;
const double kSqrt3 = std::sqrt(3.0);
const double kSqrt5 = std::sqrt(5.0);

// The profile f with k = s2 f(r), as a function of r^2.
double Profile(StationaryFamily family, double r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return std::exp(-0.5 * r2);
    case StationaryFamily::kMatern12:
      return std::exp(-std::sqrt(r2));
    case StationaryFamily::kMatern32: {
      const double s = kSqrt3 * std::sqrt(r2);
      return (1.0 + s) * std::exp(-s);
    }
    case StationaryFamily::kMatern52: {
      const double s = kSqrt5 * std::sqrt(r2);
      return (1.0 + s + s * s / 3.0) * std::exp(-s);
    }
  }
  return 0.0;
}

// The slope h = -f'(r) / r >= 0. Every derivative is a multiple of it: dk/da = -s2 h (a-b)/l^2
// and dk/dlog l_k = s2 h d_k^2. Dividing by r analytically keeps Matern-3/2, 5/2 and SE
// regular at r = 0; Matern-1/2 has h = exp(-r) / r there, set to 0 (its symmetric subgradient).
double Slope(StationaryFamily family, double r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return std::exp(-0.5 * r2);
    case StationaryFamily::kMatern12: {
      const double r = std::sqrt(r2);
      return r > 0.0 ? std::exp(-r) / r : 0.0;
    }
    case StationaryFamily::kMatern32:
      return 3.0 * std::exp(-kSqrt3 * std::sqrt(r2));
    case StationaryFamily::kMatern52: {
      const double s = kSqrt5 * std::sqrt(r2);
      return (5.0 / 3.0) * (1.0 + s) * std::exp(-s);
    }
  }
  return 0.0;
}

// Elementwise Profile over a matrix of (clamped) squared distances.
Eigen::ArrayXXd ProfileArray(StationaryFamily family, const Eigen::ArrayXXd& r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return (-0.5 * r2).exp();
    case StationaryFamily::kMatern12:
      return (-r2.sqrt()).exp();
    case StationaryFamily::kMatern32: {
      const Eigen::ArrayXXd s = kSqrt3 * r2.sqrt();
      return (1.0 + s) * (-s).exp();
    }
    case StationaryFamily::kMatern52: {
      const Eigen::ArrayXXd s = kSqrt5 * r2.sqrt();
      return (1.0 + s + s.square() / 3.0) * (-s).exp();
    }
  }
  return Eigen::ArrayXXd::Zero(r2.rows(), r2.cols());
}

// Elementwise Slope.
Eigen::ArrayXXd SlopeArray(StationaryFamily family, const Eigen::ArrayXXd& r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return (-0.5 * r2).exp();
    case StationaryFamily::kMatern12: {
      const Eigen::ArrayXXd r = r2.sqrt();
      return (r > 0.0).select((-r).exp() / r, 0.0);
    }
    case StationaryFamily::kMatern32:
      return 3.0 * (-kSqrt3 * r2.sqrt()).exp();
    case StationaryFamily::kMatern52: {
      const Eigen::ArrayXXd s = kSqrt5 * r2.sqrt();
      return (5.0 / 3.0) * (1.0 + s) * (-s).exp();
    }
  }
  return Eigen::ArrayXXd::Zero(r2.rows(), r2.cols());
}

}  // namespace

StationaryKernel::StationaryKernel(StationaryFamily family, std::vector<int> dims, bool ard,
                                   double variance, double lengthscale)
    : family_(family), dims_(std::move(dims)), ard_(ard) {
  const std::string who = "StationaryKernel(" + Name() + ")";
  CheckDims(who, dims_);
  CheckPositive(who, "variance", variance);
  CheckPositive(who, "lengthscale", lengthscale);
  log_params_.resize(NumParams());
  log_params_(0) = std::log(variance);
  log_params_.tail(NumParams() - 1).setConstant(std::log(lengthscale));
}

double StationaryKernel::variance() const { return std::exp(log_params_(0)); }

Eigen::VectorXd StationaryKernel::lengthscales() const {
  return log_params_.tail(NumParams() - 1).array().exp();
}

std::unique_ptr<Kernel> StationaryKernel::Clone() const {
  return std::make_unique<StationaryKernel>(*this);
}

std::string StationaryKernel::Name() const {
  switch (family_) {
    case StationaryFamily::kSquaredExponential:
      return "se";
    case StationaryFamily::kMatern12:
      return "matern12";
    case StationaryFamily::kMatern32:
      return "matern32";
    case StationaryFamily::kMatern52:
      return "matern52";
  }
  return "stationary";
}

std::string StationaryKernel::Describe() const {
  return Name() + "(dims=" + FormatDims(dims_) + (ard_ ? "; ard)" : "; shared)");
}

int StationaryKernel::MinInputDim() const {
  int max_dim = -1;
  for (int d : dims_) max_dim = std::max(max_dim, d);
  return max_dim + 1;
}

std::vector<int> StationaryKernel::InputDims() const { return dims_; }

int StationaryKernel::NumParams() const {
  return 1 + (ard_ ? static_cast<int>(dims_.size()) : 1);
}

Eigen::VectorXd StationaryKernel::GetLogParams() const { return log_params_; }

void StationaryKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  log_params_ = log_params;
}

std::vector<std::string> StationaryKernel::ParamNames() const {
  std::vector<std::string> names{Name() + ".log_variance"};
  if (ard_) {
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      names.push_back(Name() + ".log_lengthscale[" + std::to_string(k) + "]");
    }
  } else {
    names.push_back(Name() + ".log_lengthscale");
  }
  return names;
}

double StationaryKernel::Lengthscale(int k) const {
  return std::exp(log_params_(ard_ ? 1 + k : 1));
}

double StationaryKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  double r2 = 0.0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double d = (a(dims_[k]) - b(dims_[k])) / Lengthscale(static_cast<int>(k));
    r2 += d * d;
  }
  return variance() * Profile(family_, std::min(r2, kMaxSquaredDistance));
}

void StationaryKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                           double scale, VectorRef grad) const {
  const int m = static_cast<int>(dims_.size());
  Eigen::VectorXd scaled_diff(m);
  for (int k = 0; k < m; ++k) {
    scaled_diff(k) = (a(dims_[k]) - b(dims_[k])) / Lengthscale(k);
  }
  const double r2 = scaled_diff.squaredNorm();
  if (!(r2 < kMaxSquaredDistance)) return;  // k and its gradient are exactly 0 out there
  const double factor = -scale * variance() * Slope(family_, r2);
  for (int k = 0; k < m; ++k) grad(dims_[k]) += factor * scaled_diff(k) / Lengthscale(k);
}

void StationaryKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                         VectorRef grad) const {
  const int m = static_cast<int>(dims_.size());
  Eigen::VectorXd scaled_diff(m);
  for (int k = 0; k < m; ++k) {
    scaled_diff(k) = (a(dims_[k]) - b(dims_[k])) / Lengthscale(k);
  }
  const double r2 = scaled_diff.squaredNorm();
  grad.setZero();
  if (!(r2 < kMaxSquaredDistance)) return;
  const double s2 = variance();
  grad(0) = s2 * Profile(family_, r2);
  const double factor = s2 * Slope(family_, r2);
  if (ard_) {
    grad.tail(m) = factor * scaled_diff.array().square();
  } else {
    grad(1) = factor * r2;
  }
}

Eigen::MatrixXd StationaryKernel::Scaled(const Eigen::MatrixXd& X) const {
  const int m = static_cast<int>(dims_.size());
  Eigen::MatrixXd U(m, X.cols());
  for (int k = 0; k < m; ++k) U.row(k) = X.row(dims_[k]) / Lengthscale(k);
  return U;
}

Eigen::MatrixXd StationaryKernel::SquaredDistances(const Eigen::MatrixXd& A,
                                                   const Eigen::MatrixXd& B, bool same) const {
  if (A.rows() < MinInputDim() || B.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": points have " + std::to_string(A.rows()) +
                                " and " + std::to_string(B.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  Eigen::MatrixXd U = Scaled(A);
  Eigen::MatrixXd V = same ? U : Scaled(B);
  // Centering first limits the cancellation in |u|^2 + |v|^2 - 2 u.v for points far from the
  // origin.
  if (U.cols() > 0) {
    const Eigen::VectorXd center = U.rowwise().mean();
    U.colwise() -= center;
    V.colwise() -= center;
  }
  const Eigen::VectorXd u_norms = U.colwise().squaredNorm().transpose();
  const Eigen::VectorXd v_norms = V.colwise().squaredNorm().transpose();
  Eigen::MatrixXd R2 = -2.0 * U.transpose() * V;
  R2.colwise() += u_norms;
  R2.rowwise() += v_norms.transpose();
  if (!R2.allFinite()) {
    // Norms overflow only when the scaled points spread over more than ~1e154; recompute the
    // affected entries from differences (which can overflow to +inf but never give NaN).
    for (Eigen::Index j = 0; j < R2.cols(); ++j) {
      for (Eigen::Index i = 0; i < R2.rows(); ++i) {
        if (!std::isfinite(R2(i, j))) R2(i, j) = (U.col(i) - V.col(j)).squaredNorm();
      }
    }
  }
  R2 = R2.array().max(0.0).min(kMaxSquaredDistance).matrix();
  if (same) R2.diagonal().setZero();
  return R2;
}

Eigen::MatrixXd StationaryKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  // &A == &B when called through Kernel::Gram: then the diagonal is exactly r = 0.
  const Eigen::MatrixXd R2 = SquaredDistances(A, B, &A == &B);
  return (variance() * ProfileArray(family_, R2.array())).matrix();
}

Eigen::VectorXd StationaryKernel::Diagonal(const Eigen::MatrixXd& X) const {
  if (X.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": X has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  return Eigen::VectorXd::Constant(X.cols(), variance());
}

Eigen::VectorXd StationaryKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                            const Eigen::MatrixXd& W) const {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(Describe() + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
  const Eigen::ArrayXXd R2 = SquaredDistances(X, X, true).array();
  const double s2 = variance();
  Eigen::VectorXd grad(NumParams());
  grad(0) = s2 * (W.array() * ProfileArray(family_, R2)).sum();
  // M(i, j) = W(i, j) dk_ij/d(d_ijk^2); the lengthscale gradients are sums of M times squared
  // per-dim distances. Computed from differences directly (not from norms) because these sums
  // cancel much more than the distances themselves.
  const Eigen::ArrayXXd M = s2 * W.array() * SlopeArray(family_, R2);
  if (ard_) {
    const Eigen::MatrixXd U = Scaled(X);
    for (int k = 0; k < U.rows(); ++k) {
      const Eigen::ArrayXd u = U.row(k).transpose().array();
      double sum = 0.0;
      for (Eigen::Index j = 0; j < X.cols(); ++j) {
        // Where M != 0 every d_k^2 < kMaxSquaredDistance, so the clamp only removes the
        // inf * 0 of pairs too far apart to matter.
        sum += (M.col(j) * (u - u(j)).square().min(kMaxSquaredDistance)).sum();
      }
      grad(1 + k) = sum;
    }
  } else {
    grad(1) = (M * R2).sum();
  }
  return grad;
}

}  // namespace gpbandit
