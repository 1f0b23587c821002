#include "gpbandit/kernel/one_hot_kernel.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

// The inner kernel's features at E(x).
class EmbeddedFeatures : public KernelFeatures {
 public:
  EmbeddedFeatures(const OneHotKernel& kernel, std::unique_ptr<KernelFeatures> inner,
                   std::vector<int> other_dims)
      : kernel_(kernel.Clone()), inner_(std::move(inner)), other_dims_(std::move(other_dims)) {}
  int size() const override { return inner_->size(); }
  void Evaluate(const ConstVectorRef& x, Eigen::VectorXd* values) const override {
    inner_->Evaluate(Embed(x), values);
  }
  void AccumulateWeightedGradient(const ConstVectorRef& x, const Eigen::VectorXd& weights,
                                  VectorRef grad) const override {
    const Eigen::VectorXd e = Embed(x);
    Eigen::VectorXd embedded_grad = Eigen::VectorXd::Zero(e.size());
    inner_->AccumulateWeightedGradient(e, weights, embedded_grad);
    for (std::size_t i = 0; i < other_dims_.size(); ++i)
      grad(other_dims_[i]) += embedded_grad(static_cast<Eigen::Index>(i));
  }

 private:
  Eigen::VectorXd Embed(const ConstVectorRef& x) const {
    return static_cast<const OneHotKernel&>(*kernel_).Embed(x);
  }
  std::unique_ptr<Kernel> kernel_;  // a copy: the features outlive nothing they point to
  std::unique_ptr<KernelFeatures> inner_;
  std::vector<int> other_dims_;
};

}  // namespace

OneHotKernel::OneHotKernel(std::unique_ptr<Kernel> inner, std::vector<int> other_dims,
                           std::vector<int> categorical_dims, std::vector<int> sizes)
    : inner_(std::move(inner)),
      other_dims_(std::move(other_dims)),
      categorical_dims_(std::move(categorical_dims)),
      sizes_(std::move(sizes)) {
  const std::string who = "OneHotKernel";
  if (!inner_) throw std::invalid_argument(who + ": inner is null");
  CheckDims(who + " categorical_dims", categorical_dims_);
  if (!other_dims_.empty()) CheckDims(who + " other_dims", other_dims_);
  if (sizes_.size() != categorical_dims_.size())
    throw std::invalid_argument(who + ": sizes has " + std::to_string(sizes_.size()) +
                                " entries but categorical_dims has " +
                                std::to_string(categorical_dims_.size()));
  const std::set<int> other(other_dims_.begin(), other_dims_.end());
  for (std::size_t k = 0; k < categorical_dims_.size(); ++k) {
    if (other.count(categorical_dims_[k]) > 0)
      throw std::invalid_argument(who + ": categorical_dims[" + std::to_string(k) + "] = " +
                                  std::to_string(categorical_dims_[k]) + " is in other_dims too");
    if (sizes_[k] < 1)
      throw std::invalid_argument(who + ": sizes[" + std::to_string(k) +
                                  "] = " + std::to_string(sizes_[k]) + " must be >= 1");
  }
  embedding_dim_ = static_cast<int>(other_dims_.size());
  for (int n : sizes_) embedding_dim_ += n;
  if (inner_->MinInputDim() > embedding_dim_)
    throw std::invalid_argument(who + ": inner kernel " + inner_->Describe() + " needs " +
                                std::to_string(inner_->MinInputDim()) +
                                " inputs, the embedding has " + std::to_string(embedding_dim_));
}

OneHotKernel::OneHotKernel(const OneHotKernel& other)
    : inner_(other.inner_->Clone()),
      other_dims_(other.other_dims_),
      categorical_dims_(other.categorical_dims_),
      sizes_(other.sizes_),
      embedding_dim_(other.embedding_dim_) {}

Eigen::VectorXd OneHotKernel::Embed(const ConstVectorRef& x) const {
  Eigen::VectorXd e = Eigen::VectorXd::Zero(embedding_dim_);
  Eigen::Index at = 0;
  for (int d : other_dims_) e(at++) = x(d);
  for (std::size_t k = 0; k < categorical_dims_.size(); ++k) {
    // Validated points hold label indices; clamp anyway, so that no call reads out of bounds.
    const double v = std::clamp(x(categorical_dims_[k]), 0.0, static_cast<double>(sizes_[k] - 1));
    e(at + std::lround(std::isnan(v) ? 0.0 : v)) = 1.0;
    at += sizes_[k];
  }
  return e;
}

Eigen::MatrixXd OneHotKernel::EmbedAll(const Eigen::MatrixXd& X) const {
  if (X.rows() < MinInputDim())
    throw std::invalid_argument(Describe() + ": a batch has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  Eigen::MatrixXd E(embedding_dim_, X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) E.col(j) = Embed(X.col(j));
  return E;
}

void OneHotKernel::AddOtherGradient(const Eigen::VectorXd& embedded_grad, VectorRef grad) const {
  for (std::size_t i = 0; i < other_dims_.size(); ++i)
    grad(other_dims_[i]) += embedded_grad(static_cast<Eigen::Index>(i));
}

std::unique_ptr<Kernel> OneHotKernel::Clone() const {
  return std::make_unique<OneHotKernel>(*this);
}

std::string OneHotKernel::Describe() const {
  return "one_hot(other=" + FormatDims(other_dims_) +
         "; categorical=" + FormatDims(categorical_dims_) + "; " + inner_->Describe() + ")";
}

int OneHotKernel::MinInputDim() const {
  int largest = *std::max_element(categorical_dims_.begin(), categorical_dims_.end());
  for (int d : other_dims_) largest = std::max(largest, d);
  return largest + 1;
}

std::vector<int> OneHotKernel::InputDims() const {
  std::vector<int> dims = other_dims_;
  dims.insert(dims.end(), categorical_dims_.begin(), categorical_dims_.end());
  return dims;
}

void OneHotKernel::SetLogParams(const ConstVectorRef& log_params) {
  inner_->SetLogParams(log_params);
}

std::vector<std::string> OneHotKernel::ParamNames() const {
  std::vector<std::string> names = inner_->ParamNames();
  for (std::string& name : names) name = "one_hot." + name;
  return names;
}

double OneHotKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return inner_->Value(Embed(a), Embed(b));
}

void OneHotKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                       double scale, VectorRef grad) const {
  Eigen::VectorXd embedded_grad = Eigen::VectorXd::Zero(embedding_dim_);
  inner_->AccumulateGradientA(Embed(a), Embed(b), scale, embedded_grad);
  AddOtherGradient(embedded_grad, grad);
}

void OneHotKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                     VectorRef grad) const {
  inner_->GradientLogParams(Embed(a), Embed(b), grad);
}

void OneHotKernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  Kernel::ValidatePoint(x, field);  // size and finiteness of the dims read
  for (std::size_t k = 0; k < categorical_dims_.size(); ++k) {
    const double v = x(categorical_dims_[k]);
    if (v != std::floor(v) || v < 0.0 || v >= sizes_[k])
      throw std::invalid_argument(field + "[" + std::to_string(categorical_dims_[k]) + "] = " +
                                  FormatDouble(v) + " is not a label index of " + Describe() +
                                  " (an integer in [0, " + std::to_string(sizes_[k]) + "))");
  }
  inner_->ValidatePoint(Embed(x), field + " (embedded)");
}

Eigen::MatrixXd OneHotKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  return inner_->Cross(EmbedAll(A), EmbedAll(B));
}

Eigen::VectorXd OneHotKernel::Diagonal(const Eigen::MatrixXd& X) const {
  return inner_->Diagonal(EmbedAll(X));
}

Eigen::VectorXd OneHotKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                        const Eigen::MatrixXd& W) const {
  return inner_->ContractGradientLogParams(EmbedAll(X), W);
}

void OneHotKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                  bool for_gradient, KernelPointCache* cache) const {
  inner_->CrossWithPoint(Embed(x), EmbedAll(X), for_gradient, cache);
}

void OneHotKernel::AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                               const KernelPointCache& cache,
                                               const Eigen::VectorXd& c, double c_scale,
                                               VectorRef grad) const {
  Eigen::VectorXd embedded_grad = Eigen::VectorXd::Zero(embedding_dim_);
  inner_->AccumulateWeightedGradientA(Embed(x), EmbedAll(X), cache, c, c_scale, embedded_grad);
  AddOtherGradient(embedded_grad, grad);
}

std::unique_ptr<KernelFeatures> OneHotKernel::DrawFeatures(int num_features, Rng& rng) const {
  return std::make_unique<EmbeddedFeatures>(*this, inner_->DrawFeatures(num_features, rng),
                                            other_dims_);
}

}  // namespace gpbandit
