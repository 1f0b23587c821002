#include "gpbandit/kernel/categorical_kernel.h"

#include <cmath>
#include <stdexcept>

#include "gpbandit/kernel/index_kernel.h"
#include "gpbandit/numerics/format.h"

namespace gpbandit {

ParamKind CategoryLengthscaleKind() {
  static const ParamKind kind = ParamKind::Register(
      {"category_lengthscale",
       "the scale of a label change of an exchangeable categorical kernel: two labels "
       "correlate by exp(-1 / l)",
       kDefaultLengthscaleRange, OriginalUnits::kNone, CautiousDirection::kOnlyShrink});
  return kind;
}

CategoricalKernel::CategoricalKernel(std::vector<int> dims, std::vector<int> sizes, bool ard,
                                     double variance, double lengthscale)
    : dims_(std::move(dims)), sizes_(std::move(sizes)), ard_(ard) {
  const std::string who = "CategoricalKernel";
  CheckDims(who, dims_);
  if (sizes_.size() != dims_.size())
    throw std::invalid_argument(who + ": sizes has " + std::to_string(sizes_.size()) +
                                " entries but dims has " + std::to_string(dims_.size()));
  for (std::size_t k = 0; k < sizes_.size(); ++k)
    if (sizes_[k] < 1)
      throw std::invalid_argument(who + ": sizes[" + std::to_string(k) +
                                  "] = " + std::to_string(sizes_[k]) + " must be >= 1");
  CheckPositive(who, "variance", variance);
  CheckPositive(who, "lengthscale", lengthscale);
  log_params_.resize(NumParams());
  log_params_(0) = std::log(variance);
  log_params_.tail(NumParams() - 1).setConstant(std::log(lengthscale));
}

double CategoricalKernel::variance() const { return ExpOfLogParam(log_params_(0)); }

Eigen::VectorXd CategoricalKernel::lengthscales() const {
  return log_params_.tail(NumParams() - 1).unaryExpr([](double v) { return ExpOfLogParam(v); });
}

double CategoricalKernel::InverseLengthscale(std::size_t k) const {
  return 1.0 / ExpOfLogParam(log_params_(ard_ ? 1 + static_cast<Eigen::Index>(k) : 1));
}

std::unique_ptr<Kernel> CategoricalKernel::Clone() const {
  return std::make_unique<CategoricalKernel>(*this);
}

std::string CategoricalKernel::Describe() const {
  std::string sizes;
  for (std::size_t k = 0; k < sizes_.size(); ++k)
    sizes += (k ? "," : "") + std::to_string(sizes_[k]);
  return "categorical(dims=" + FormatDims(dims_) + "; sizes=" + sizes + (ard_ ? "; ard)" : ")");
}

int CategoricalKernel::MinInputDim() const {
  int largest = 0;
  for (int d : dims_) largest = std::max(largest, d);
  return largest + 1;
}

int CategoricalKernel::NumParams() const { return 1 + (ard_ ? static_cast<int>(dims_.size()) : 1); }

Eigen::VectorXd CategoricalKernel::GetLogParams() const { return log_params_; }

void CategoricalKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  log_params_ = log_params;
}

std::vector<std::string> CategoricalKernel::ParamNames() const {
  std::vector<std::string> names = {"categorical.log_variance"};
  if (!ard_) {
    names.push_back("categorical.log_lengthscale");
    return names;
  }
  for (std::size_t k = 0; k < dims_.size(); ++k)
    names.push_back("categorical.log_lengthscale[" + std::to_string(k) + "]");
  return names;
}

std::vector<ParamKind> CategoricalKernel::ParamKinds() const {
  std::vector<ParamKind> kinds(static_cast<std::size_t>(NumParams()), CategoryLengthscaleKind());
  kinds[0] = ParamKind::kSignalVariance;
  return kinds;
}

double CategoricalKernel::Distance(const ConstVectorRef& a, const ConstVectorRef& b) const {
  double distance = 0.0;
  for (std::size_t k = 0; k < dims_.size(); ++k)
    if (a(dims_[k]) != b(dims_[k])) distance += InverseLengthscale(k);
  return distance;
}

double CategoricalKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return variance() * std::exp(-Distance(a, b));
}

void CategoricalKernel::AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                                            VectorRef) const {}

// d k / d log s2 = k; d k / d log l_k = k [a_k != b_k] / l_k (summed over the coordinates that
// share l without ARD).
void CategoricalKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                          VectorRef grad) const {
  const double k = Value(a, b);
  grad.setZero();
  grad(0) = k;
  for (std::size_t j = 0; j < dims_.size(); ++j)
    if (a(dims_[j]) != b(dims_[j]))
      grad(ard_ ? 1 + static_cast<Eigen::Index>(j) : 1) += k * InverseLengthscale(j);
}

void CategoricalKernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  Kernel::ValidatePoint(x, field);  // size and finiteness of the dims
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double v = x(dims_[k]);
    if (v != std::floor(v) || v < 0.0 || v >= sizes_[k])
      throw std::invalid_argument(field + "[" + std::to_string(dims_[k]) + "] = " +
                                  FormatDouble(v) + " is not a label index of " + Describe() +
                                  " (an integer in [0, " + std::to_string(sizes_[k]) + "))");
  }
}

Eigen::MatrixXd CategoricalKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  if (A.rows() < MinInputDim() || B.rows() < MinInputDim())
    throw std::invalid_argument(Describe() + ": A has " + std::to_string(A.rows()) +
                                " rows and B has " + std::to_string(B.rows()) +
                                ", the kernel needs at least " + std::to_string(MinInputDim()));
  Eigen::MatrixXd distance = Eigen::MatrixXd::Zero(A.cols(), B.cols());
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double w = InverseLengthscale(k);
    const int d = dims_[k];
    for (Eigen::Index j = 0; j < B.cols(); ++j)
      for (Eigen::Index i = 0; i < A.cols(); ++i)
        if (A(d, i) != B(d, j)) distance(i, j) += w;
  }
  return variance() * (-distance.array()).exp().matrix();
}

Eigen::VectorXd CategoricalKernel::Diagonal(const Eigen::MatrixXd& X) const {
  return Eigen::VectorXd::Constant(X.cols(), variance());
}

std::unique_ptr<KernelFeatures> CategoricalKernel::DrawFeatures(int num_features, Rng& rng) const {
  CheckNumFeatures(*this, num_features);
  std::vector<std::unique_ptr<KernelFeatures>> parts;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double r = std::exp(-InverseLengthscale(k));
    const Eigen::MatrixXd M = (1.0 - r) * Eigen::MatrixXd::Identity(sizes_[k], sizes_[k]) +
                              Eigen::MatrixXd::Constant(sizes_[k], sizes_[k], r);
    parts.push_back(IndexKernel(dims_[k], M, k == 0 ? variance() : 1.0).DrawFeatures(1, rng));
  }
  if (parts.size() == 1) return std::move(parts[0]);
  return MakeProductFeatures(std::move(parts), num_features, rng);
}

}  // namespace gpbandit
