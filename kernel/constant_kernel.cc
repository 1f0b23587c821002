#include "gpbandit/kernel/constant_kernel.h"

#include <cmath>
#include <stdexcept>

namespace gpbandit {
namespace {

// phi(x) = sqrt(s2): one feature, exact.
class ConstantFeatures : public KernelFeatures {
 public:
  explicit ConstantFeatures(double variance) : value_(std::sqrt(variance)) {}
  int size() const override { return 1; }
  void Evaluate(const ConstVectorRef&, Eigen::VectorXd* values) const override {
    values->setConstant(1, value_);
  }
  void AccumulateWeightedGradient(const ConstVectorRef&, const Eigen::VectorXd&,
                                  VectorRef) const override {}

 private:
  double value_;
};

}  // namespace

ConstantKernel::ConstantKernel(double variance) {
  CheckPositive("ConstantKernel", "variance", variance);
  log_variance_ = std::log(variance);
}

double ConstantKernel::variance() const { return ExpOfLogParam(log_variance_); }

std::unique_ptr<Kernel> ConstantKernel::Clone() const {
  return std::make_unique<ConstantKernel>(*this);
}

std::string ConstantKernel::Describe() const { return "constant()"; }

int ConstantKernel::MinInputDim() const { return 0; }

int ConstantKernel::NumParams() const { return 1; }

Eigen::VectorXd ConstantKernel::GetLogParams() const {
  return Eigen::VectorXd::Constant(1, log_variance_);
}

void ConstantKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), 1, log_params);
  log_variance_ = log_params(0);
}

std::vector<std::string> ConstantKernel::ParamNames() const { return {"constant.log_variance"}; }

std::vector<ParamKind> ConstantKernel::ParamKinds() const { return {ParamKind::kSignalVariance}; }

double ConstantKernel::Value(const ConstVectorRef&, const ConstVectorRef&) const {
  return variance();
}

void ConstantKernel::AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                                         VectorRef) const {}

void ConstantKernel::GradientLogParams(const ConstVectorRef&, const ConstVectorRef&,
                                       VectorRef grad) const {
  grad(0) = variance();
}

Eigen::MatrixXd ConstantKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  return Eigen::MatrixXd::Constant(A.cols(), B.cols(), variance());
}

Eigen::VectorXd ConstantKernel::Diagonal(const Eigen::MatrixXd& X) const {
  return Eigen::VectorXd::Constant(X.cols(), variance());
}

Eigen::MatrixXd ConstantKernel::Gram(const Eigen::MatrixXd& X) const {
  return Eigen::MatrixXd::Constant(X.cols(), X.cols(), variance());
}

Eigen::VectorXd ConstantKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                          const Eigen::MatrixXd& W) const {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(Describe() + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
  return Eigen::VectorXd::Constant(1, variance() * W.sum());
}

std::unique_ptr<KernelFeatures> ConstantKernel::DrawFeatures(int num_features, Rng&) const {
  CheckNumFeatures(*this, num_features);
  return std::make_unique<ConstantFeatures>(variance());
}

}  // namespace gpbandit
