#include "gpbandit/kernel/linear_kernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gpbandit {
namespace {

// phi_k(x) = scales_k x_{dims[k]}: exact, one feature per dim.
class LinearFeatures : public KernelFeatures {
 public:
  LinearFeatures(std::vector<int> dims, Eigen::VectorXd scales)
      : dims_(std::move(dims)), scales_(std::move(scales)) {}
  int size() const override { return static_cast<int>(dims_.size()); }
  void Evaluate(const ConstVectorRef& x, Eigen::VectorXd* values) const override {
    values->resize(size());
    for (int k = 0; k < size(); ++k) (*values)(k) = scales_(k) * x(dims_[k]);
  }
  void AccumulateWeightedGradient(const ConstVectorRef&, const Eigen::VectorXd& weights,
                                  VectorRef grad) const override {
    for (int k = 0; k < size(); ++k) grad(dims_[k]) += weights(k) * scales_(k);
  }

 private:
  std::vector<int> dims_;
  Eigen::VectorXd scales_;
};

}  // namespace

LinearKernel::LinearKernel(std::vector<int> dims, bool ard, double variance, double lengthscale)
    : dims_(std::move(dims)), ard_(ard) {
  CheckDims("LinearKernel", dims_);
  CheckPositive("LinearKernel", "variance", variance);
  CheckPositive("LinearKernel", "lengthscale", lengthscale);
  log_params_.resize(NumParams());
  log_params_(0) = std::log(variance);
  log_params_.tail(NumParams() - 1).setConstant(std::log(lengthscale));
  UpdateWeights();
}

std::unique_ptr<Kernel> LinearKernel::Clone() const {
  return std::make_unique<LinearKernel>(*this);
}

std::string LinearKernel::Describe() const {
  return "linear(dims=" + FormatDims(dims_) + (ard_ ? "; ard)" : "; shared)");
}

int LinearKernel::MinInputDim() const { return 1 + *std::max_element(dims_.begin(), dims_.end()); }

std::vector<int> LinearKernel::InputDims() const { return dims_; }

int LinearKernel::NumParams() const { return 1 + (ard_ ? static_cast<int>(dims_.size()) : 1); }

Eigen::VectorXd LinearKernel::GetLogParams() const { return log_params_; }

void LinearKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  log_params_ = log_params;
  UpdateWeights();
}

std::vector<std::string> LinearKernel::ParamNames() const {
  std::vector<std::string> names{"linear.log_variance"};
  if (ard_) {
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      names.push_back("linear.log_lengthscale[" + std::to_string(k) + "]");
    }
  } else {
    names.push_back("linear.log_lengthscale");
  }
  return names;
}

std::vector<ParamKind> LinearKernel::ParamKinds() const {
  std::vector<ParamKind> kinds(static_cast<std::size_t>(NumParams()), ParamKind::kLengthscale);
  kinds[0] = ParamKind::kSignalVariance;
  return kinds;
}

std::unique_ptr<KernelFeatures> LinearKernel::DrawFeatures(int num_features, Rng&) const {
  CheckNumFeatures(*this, num_features);
  return std::make_unique<LinearFeatures>(dims_, weights_.cwiseSqrt());
}

void LinearKernel::UpdateWeights() {
  const int m = static_cast<int>(dims_.size());
  Eigen::VectorXd& w = weights_;
  w.resize(m);
  // Combined in log space: s2 / l^2 stays representable when s2 and l^2 separately would not.
  for (int k = 0; k < m; ++k) {
    w(k) = ExpOfLogParam(log_params_(0) - 2.0 * log_params_(ard_ ? 1 + k : 1));
  }
}

double LinearKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  const Eigen::VectorXd& w = weights_;
  double value = 0.0;
  // a * b first: then k(a, b) == k(b, a) to the last bit.
  for (std::size_t k = 0; k < dims_.size(); ++k) value += w(k) * (a(dims_[k]) * b(dims_[k]));
  return value;
}

void LinearKernel::AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef& b, double scale,
                                       VectorRef grad) const {
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    grad(dims_[k]) += scale * weights_(k) * b(dims_[k]);
  }
}

void LinearKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                     VectorRef grad) const {
  const int m = static_cast<int>(dims_.size());
  double value = 0.0;
  for (int k = 0; k < m; ++k) {
    const double term = weights_(k) * (a(dims_[k]) * b(dims_[k]));
    value += term;
    if (ard_) grad(1 + k) = -2.0 * term;
  }
  grad(0) = value;
  if (!ard_) grad(1) = -2.0 * value;
}

Eigen::MatrixXd LinearKernel::Rows(const Eigen::MatrixXd& X, const char* field) const {
  if (X.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": " + field + " has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  Eigen::MatrixXd P(dims_.size(), X.cols());
  for (std::size_t k = 0; k < dims_.size(); ++k) P.row(k) = X.row(dims_[k]);
  return P;
}

Eigen::MatrixXd LinearKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  const Eigen::MatrixXd P = Rows(A, "A");
  const Eigen::MatrixXd Q = Rows(B, "B");
  return P.transpose() * (weights_.asDiagonal() * Q);
}

Eigen::VectorXd LinearKernel::Diagonal(const Eigen::MatrixXd& X) const {
  const Eigen::MatrixXd P = Rows(X, "X");
  return (weights_.asDiagonal() * P.cwiseAbs2()).colwise().sum().transpose();
}

Eigen::MatrixXd LinearKernel::Gram(const Eigen::MatrixXd& X) const {
  const Eigen::MatrixXd P = weights_.cwiseSqrt().asDiagonal() * Rows(X, "X");
  // A symmetric rank-m update is exactly symmetric, unlike a general product.
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(X.cols(), X.cols());
  // Eigen's update reads through the data pointer even when there is nothing to add.
  if (P.size() > 0) K.selfadjointView<Eigen::Lower>().rankUpdate(P.transpose());
  K.triangularView<Eigen::StrictlyUpper>() = K.transpose();
  return K;
}

Eigen::VectorXd LinearKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                        const Eigen::MatrixXd& W) const {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(Describe() + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
  const Eigen::MatrixXd P = Rows(X, "X");
  const Eigen::VectorXd& w = weights_;
  const int m = static_cast<int>(dims_.size());
  // Per-dim contractions p_k^T W p_k, all from one product W P^T.
  const Eigen::MatrixXd WP = W * P.transpose();
  Eigen::VectorXd per_dim(m);
  for (int k = 0; k < m; ++k) per_dim(k) = w(k) * P.row(k).dot(WP.col(k));
  Eigen::VectorXd grad(NumParams());
  grad(0) = per_dim.sum();
  if (ard_) {
    grad.tail(m) = -2.0 * per_dim;
  } else {
    grad(1) = -2.0 * grad(0);
  }
  return grad;
}

}  // namespace gpbandit
