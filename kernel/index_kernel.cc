#include "gpbandit/kernel/index_kernel.h"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

constexpr double kRelativeTolerance = 1e-9;

// F with F F^T = M from M's eigendecomposition: the eigenvectors of the positive eigenvalues,
// each scaled by the square root of its eigenvalue (the slightly negative ones that the PSD
// check tolerates are dropped).
Eigen::MatrixXd Factor(const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>& eigen) {
  const Eigen::VectorXd& values = eigen.eigenvalues();
  std::vector<Eigen::Index> kept;
  for (Eigen::Index i = 0; i < values.size(); ++i)
    if (values(i) > 0.0) kept.push_back(i);
  Eigen::MatrixXd factor(values.size(), static_cast<Eigen::Index>(kept.size()));
  for (std::size_t c = 0; c < kept.size(); ++c) {
    factor.col(static_cast<Eigen::Index>(c)) =
        eigen.eigenvectors().col(kept[c]) * std::sqrt(values(kept[c]));
  }
  return factor;
}

// phi(x) = rows(item(x)): exact, rank(M) features (the rows already scaled by sqrt(s)).
class IndexFeatures : public KernelFeatures {
 public:
  IndexFeatures(int dim, Eigen::MatrixXd rows) : dim_(dim), rows_(std::move(rows)) {}
  int size() const override { return static_cast<int>(rows_.cols()); }
  void Evaluate(const ConstVectorRef& x, Eigen::VectorXd* values) const override {
    // Validated points hold integer indices in range; clamp anyway, as IndexKernel::Item does.
    const double last = static_cast<double>(rows_.rows() - 1);
    const double v = std::min(std::max(x(dim_), 0.0), last);
    *values = rows_.row(std::lround(std::isnan(v) ? 0.0 : v)).transpose();
  }
  void AccumulateWeightedGradient(const ConstVectorRef&, const Eigen::VectorXd&,
                                  VectorRef) const override {}

 private:
  int dim_;
  Eigen::MatrixXd rows_;
};

}  // namespace

IndexKernel::IndexKernel(int dim, const Eigen::MatrixXd& covariance, double scale) : dim_(dim) {
  const std::string who = "IndexKernel";
  if (dim < 0) throw std::invalid_argument(who + ": dim = " + std::to_string(dim) + " is negative");
  if (covariance.size() == 0) throw std::invalid_argument(who + ": covariance is empty");
  if (covariance.rows() != covariance.cols()) {
    throw std::invalid_argument(who + ": covariance is " + std::to_string(covariance.rows()) +
                                " x " + std::to_string(covariance.cols()) + ", not square");
  }
  for (Eigen::Index j = 0; j < covariance.cols(); ++j) {
    for (Eigen::Index i = 0; i < covariance.rows(); ++i) {
      if (!std::isfinite(covariance(i, j))) {
        throw std::invalid_argument(who + ": covariance(" + std::to_string(i) + ", " +
                                    std::to_string(j) + ") = " + FormatDouble(covariance(i, j)) +
                                    " is not finite");
      }
    }
  }
  const double largest_entry = covariance.cwiseAbs().maxCoeff();
  Eigen::Index worst_i = 0, worst_j = 0;
  const double asymmetry =
      (covariance - covariance.transpose()).cwiseAbs().maxCoeff(&worst_i, &worst_j);
  if (asymmetry > kRelativeTolerance * largest_entry) {
    throw std::invalid_argument(
        who + ": covariance is not symmetric: covariance(" + std::to_string(worst_i) + ", " +
        std::to_string(worst_j) + ") = " + FormatDouble(covariance(worst_i, worst_j)) +
        " but covariance(" + std::to_string(worst_j) + ", " + std::to_string(worst_i) +
        ") = " + FormatDouble(covariance(worst_j, worst_i)));
  }
  const Eigen::MatrixXd symmetric = 0.5 * (covariance + covariance.transpose());
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen(symmetric);
  const Eigen::VectorXd& eigenvalues = eigen.eigenvalues();
  const double smallest = eigenvalues.minCoeff();
  const double largest = eigenvalues.maxCoeff();
  if (smallest < -kRelativeTolerance * largest || (largest <= 0.0 && smallest < 0.0)) {
    throw std::invalid_argument(who +
                                ": covariance is not positive semi-definite: smallest "
                                "eigenvalue " +
                                FormatDouble(smallest) + ", largest " + FormatDouble(largest));
  }
  CheckPositive(who, "scale", scale);
  covariance_ = symmetric;
  factor_ = Factor(eigen);
  log_scale_ = std::log(scale);
}

double IndexKernel::scale() const { return ExpOfLogParam(log_scale_); }

std::unique_ptr<Kernel> IndexKernel::Clone() const { return std::make_unique<IndexKernel>(*this); }

std::string IndexKernel::Describe() const {
  return "index(dim=" + std::to_string(dim_) + "; items=" + std::to_string(num_items()) + ")";
}

int IndexKernel::MinInputDim() const { return dim_ + 1; }

int IndexKernel::NumParams() const { return 1; }

Eigen::VectorXd IndexKernel::GetLogParams() const {
  return Eigen::VectorXd::Constant(1, log_scale_);
}

void IndexKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), 1, log_params);
  log_scale_ = log_params(0);
}

std::vector<std::string> IndexKernel::ParamNames() const { return {"index.log_scale"}; }

std::vector<ParamKind> IndexKernel::ParamKinds() const { return {ParamKind::kSignalVariance}; }

std::unique_ptr<KernelFeatures> IndexKernel::DrawFeatures(int num_features, Rng&) const {
  CheckNumFeatures(*this, num_features);
  return std::make_unique<IndexFeatures>(dim_, std::sqrt(scale()) * factor_);
}

int IndexKernel::Item(double v) const {
  // Clamping keeps an unvalidated point from reading out of bounds; validated points hold
  // exact integers, for which this is the identity.
  const double clamped = std::min(std::max(v, 0.0), static_cast<double>(num_items() - 1));
  return static_cast<int>(std::lround(std::isnan(clamped) ? 0.0 : clamped));
}

double IndexKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return scale() * covariance_(Item(a(dim_)), Item(b(dim_)));
}

void IndexKernel::AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                                      VectorRef) const {}

void IndexKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                    VectorRef grad) const {
  grad(0) = Value(a, b);
}

void IndexKernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  Kernel::ValidatePoint(x, field);  // size and finiteness of coordinate dim_
  const double v = x(dim_);
  if (v != std::floor(v) || v < 0.0 || v >= num_items()) {
    throw std::invalid_argument(field + "[" + std::to_string(dim_) + "] = " + FormatDouble(v) +
                                " is not an item index of " + Describe() + " (an integer in [0, " +
                                std::to_string(num_items()) + "))");
  }
}

std::vector<int> IndexKernel::Items(const Eigen::MatrixXd& X, const char* field) const {
  if (X.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": " + field + " has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  std::vector<int> items(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) items[j] = Item(X(dim_, j));
  return items;
}

Eigen::MatrixXd IndexKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  const std::vector<int> ia = Items(A, "A");
  const std::vector<int> ib = Items(B, "B");
  const double s = scale();
  Eigen::MatrixXd K(ia.size(), ib.size());
  for (std::size_t j = 0; j < ib.size(); ++j) {
    for (std::size_t i = 0; i < ia.size(); ++i) K(i, j) = s * covariance_(ia[i], ib[j]);
  }
  return K;
}

Eigen::VectorXd IndexKernel::Diagonal(const Eigen::MatrixXd& X) const {
  const std::vector<int> items = Items(X, "X");
  Eigen::VectorXd diag(items.size());
  const double s = scale();
  for (std::size_t i = 0; i < items.size(); ++i) diag(i) = s * covariance_(items[i], items[i]);
  return diag;
}

Eigen::MatrixXd IndexKernel::Gram(const Eigen::MatrixXd& X) const { return Cross(X, X); }

Eigen::VectorXd IndexKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                       const Eigen::MatrixXd& W) const {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(Describe() + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
  const std::vector<int> items = Items(X, "X");
  double sum = 0.0;
  for (std::size_t j = 0; j < items.size(); ++j) {
    for (std::size_t i = 0; i < items.size(); ++i) sum += W(i, j) * covariance_(items[i], items[j]);
  }
  return Eigen::VectorXd::Constant(1, scale() * sum);
}

}  // namespace gpbandit
