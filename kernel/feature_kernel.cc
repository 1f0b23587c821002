#include "gpbandit/kernel/feature_kernel.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <stdexcept>

namespace gpbandit {
namespace {

// sqrt(s2) phi(u): one feature, exact.
class OneBasisFeature : public KernelFeatures {
 public:
  OneBasisFeature(std::shared_ptr<const ScalarFeature> feature, double variance)
      : feature_(std::move(feature)), scale_(std::sqrt(variance)) {}
  int size() const override { return 1; }
  void Evaluate(const ConstVectorRef& u, Eigen::VectorXd* values) const override {
    values->setConstant(1, scale_ * feature_->Value(u));
  }
  void AccumulateWeightedGradient(const ConstVectorRef& u, const Eigen::VectorXd& weights,
                                  VectorRef grad) const override {
    feature_->AccumulateGradient(u, scale_ * weights(0), grad);
  }

 private:
  std::shared_ptr<const ScalarFeature> feature_;
  double scale_;
};

// How many leading columns of X equal those of `points`, bit for bit.
Eigen::Index SharedLeadingColumns(const Eigen::MatrixXd& X, const Eigen::MatrixXd& points) {
  if (X.rows() != points.rows()) return 0;
  const Eigen::Index n = std::min(X.cols(), points.cols());
  const std::size_t bytes = sizeof(double) * static_cast<std::size_t>(X.rows());
  Eigen::Index k = 0;
  while (k < n && std::memcmp(X.col(k).data(), points.col(k).data(), bytes) == 0) ++k;
  return k;
}

// Whether a and b are the same point, bit for bit.
bool SamePoint(const ConstVectorRef& a, const ConstVectorRef& b) {
  return a.size() == b.size() &&
         (a.data() == b.data() ||
          std::memcmp(a.data(), b.data(), sizeof(double) * static_cast<std::size_t>(a.size())) ==
              0);
}

}  // namespace

FeatureKernel::FeatureKernel(std::shared_ptr<const ScalarFeature> feature, int min_input_dim,
                             double variance)
    : feature_(std::move(feature)), min_input_dim_(min_input_dim) {
  if (feature_ == nullptr) throw std::invalid_argument("FeatureKernel: feature is null");
  if (min_input_dim < 0)
    throw std::invalid_argument("FeatureKernel: min_input_dim is " + std::to_string(min_input_dim) +
                                ", expected >= 0");
  CheckPositive("FeatureKernel", "variance", variance);
  log_variance_ = std::log(variance);
}

double FeatureKernel::variance() const { return ExpOfLogParam(log_variance_); }

std::unique_ptr<Kernel> FeatureKernel::Clone() const {
  return std::make_unique<FeatureKernel>(*this);
}

std::string FeatureKernel::Describe() const { return "feature(" + feature_->Describe() + ")"; }

int FeatureKernel::MinInputDim() const { return min_input_dim_; }

int FeatureKernel::NumParams() const { return 1; }

Eigen::VectorXd FeatureKernel::GetLogParams() const {
  return Eigen::VectorXd::Constant(1, log_variance_);
}

void FeatureKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), 1, log_params);
  log_variance_ = log_params(0);
}

std::vector<std::string> FeatureKernel::ParamNames() const { return {"feature.log_variance"}; }

std::vector<ParamKind> FeatureKernel::ParamKinds() const { return {ParamKind::kSignalVariance}; }

double FeatureKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  // s2 (phi(a) phi(b)): exactly symmetric in a and b. k(x, x), every acquisition evaluation's
  // prior variance, calls phi once.
  const double phi_a = feature_->Value(a);
  return variance() * (phi_a * (SamePoint(a, b) ? phi_a : feature_->Value(b)));
}

void FeatureKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                        double scale, VectorRef grad) const {
  feature_->AccumulateGradient(a, scale * variance() * feature_->Value(b), grad);
}

void FeatureKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                      VectorRef grad) const {
  grad(0) = Value(a, b);
}

Eigen::VectorXd FeatureKernel::FeatureValues(const Eigen::MatrixXd& X) const {
  Eigen::VectorXd phi(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) phi(j) = feature_->Value(X.col(j));
  return phi;
}

// The memo is per thread, so no lock is taken; it is keyed by the feature (the owner of
// feature_, not its address, which a later feature may reuse) and by the points' bits. New
// values are computed before the memo changes, so a throwing phi leaves it as it was.
const Eigen::VectorXd& FeatureKernel::KeptFeatureValues(const Eigen::MatrixXd& X) const {
  thread_local FeatureValueMemo memo;
  const bool same_feature = !memo.feature.owner_before(feature_) &&
                            !feature_.owner_before(memo.feature) && !memo.feature.expired();
  const Eigen::Index kept = same_feature ? SharedLeadingColumns(X, memo.points) : 0;
  const Eigen::Index n = X.cols();
  if (same_feature && kept == n && memo.points.cols() == n) return memo.values;
  Eigen::VectorXd fresh(n - kept);
  for (Eigen::Index j = kept; j < n; ++j) fresh(j - kept) = feature_->Value(X.col(j));
  if (kept == 0) {
    memo.feature = feature_;
    memo.points = X;
    memo.values = std::move(fresh);
    return memo.values;
  }
  memo.points.conservativeResize(Eigen::NoChange, n);
  memo.values.conservativeResize(n);
  memo.points.rightCols(n - kept) = X.rightCols(n - kept);
  memo.values.tail(n - kept) = fresh;
  return memo.values;
}

// The outer product first, then the scale: every entry is s2 (phi_i phi_j), as in Value, so
// that Gram is exactly symmetric (the Cholesky reads one triangle).
Eigen::MatrixXd FeatureKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  // A: the observations in the GP's predictions (kept); B: new points.
  Eigen::MatrixXd cross = KeptFeatureValues(A) * FeatureValues(B).transpose();
  cross *= variance();
  return cross;
}

Eigen::VectorXd FeatureKernel::Diagonal(const Eigen::MatrixXd& X) const {
  return variance() * FeatureValues(X).array().square().matrix();
}

Eigen::MatrixXd FeatureKernel::Gram(const Eigen::MatrixXd& X) const {
  const Eigen::VectorXd& phi = KeptFeatureValues(X);
  Eigen::MatrixXd gram = phi * phi.transpose();
  gram *= variance();
  return gram;
}

Eigen::VectorXd FeatureKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                         const Eigen::MatrixXd& W) const {
  CheckContractionWeights(Describe(), X, W);
  const Eigen::VectorXd& phi = KeptFeatureValues(X);
  return Eigen::VectorXd::Constant(1, variance() * phi.dot(W * phi));
}

void FeatureKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool,
                                   KernelPointCache* cache) const {
  cache->slopes = KeptFeatureValues(X);
  cache->values = variance() * (feature_->Value(x) * cache->slopes.array()).matrix();
}

void FeatureKernel::AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd&,
                                                const KernelPointCache& cache,
                                                const Eigen::VectorXd& c, double c_scale,
                                                VectorRef grad) const {
  feature_->AccumulateGradient(x, c_scale * variance() * cache.slopes.dot(c), grad);
}

std::unique_ptr<KernelFeatures> FeatureKernel::DrawFeatures(int num_features, Rng&) const {
  CheckNumFeatures(*this, num_features);
  return std::make_unique<OneBasisFeature>(feature_, variance());
}

}  // namespace gpbandit
