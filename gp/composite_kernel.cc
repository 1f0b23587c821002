#include "gpbandit/gp/composite_kernel.h"

#include <algorithm>
#include <stdexcept>

namespace gpbandit {

CompositeKernel::CompositeKernel(CompositeOperation operation,
                                 std::vector<std::unique_ptr<Kernel>> parts)
    : operation_(operation), parts_(std::move(parts)) {
  const std::string who = "CompositeKernel(" + Name() + ")";
  if (parts_.empty()) throw std::invalid_argument(who + ": parts is empty");
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    if (!parts_[j]) throw std::invalid_argument(who + ": parts[" + std::to_string(j) + "] is null");
  }
}

CompositeKernel::CompositeKernel(const CompositeKernel& other) : operation_(other.operation_) {
  parts_.reserve(other.parts_.size());
  for (const auto& part : other.parts_) parts_.push_back(part->Clone());
}

std::unique_ptr<Kernel> CompositeKernel::Clone() const {
  return std::make_unique<CompositeKernel>(*this);
}

std::string CompositeKernel::Name() const {
  return operation_ == CompositeOperation::kSum ? "sum" : "product";
}

std::string CompositeKernel::Describe() const {
  std::string out = Name() + "(";
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    if (j > 0) out += ", ";
    out += parts_[j]->Describe();
  }
  return out + ")";
}

int CompositeKernel::MinInputDim() const {
  int dim = 0;
  for (const auto& part : parts_) dim = std::max(dim, part->MinInputDim());
  return dim;
}

int CompositeKernel::NumParams() const {
  int n = 0;
  for (const auto& part : parts_) n += part->NumParams();
  return n;
}

Eigen::VectorXd CompositeKernel::GetLogParams() const {
  Eigen::VectorXd params(NumParams());
  int offset = 0;
  for (const auto& part : parts_) {
    const int n = part->NumParams();
    params.segment(offset, n) = part->GetLogParams();
    offset += n;
  }
  return params;
}

void CompositeKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  const Eigen::VectorXd previous = GetLogParams();
  int offset = 0;
  try {
    for (const auto& part : parts_) {
      const int n = part->NumParams();
      part->SetLogParams(log_params.segment(offset, n));
      offset += n;
    }
  } catch (...) {
    // A part rejected its share after earlier parts took theirs: put everything back.
    offset = 0;
    for (const auto& part : parts_) {
      const int n = part->NumParams();
      part->SetLogParams(previous.segment(offset, n));
      offset += n;
    }
    throw;
  }
}

std::vector<std::string> CompositeKernel::ParamNames() const {
  std::vector<std::string> names;
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    const std::string prefix = Name() + "[" + std::to_string(j) + "].";
    for (const std::string& name : parts_[j]->ParamNames()) names.push_back(prefix + name);
  }
  return names;
}

double CompositeKernel::ProductOfOthers(const std::vector<double>& values, std::size_t j) {
  double product = 1.0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i != j) product *= values[i];
  }
  return product;
}

double CompositeKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  if (operation_ == CompositeOperation::kSum) {
    double sum = 0.0;
    for (const auto& part : parts_) sum += part->Value(a, b);
    return sum;
  }
  double product = 1.0;
  for (const auto& part : parts_) product *= part->Value(a, b);
  return product;
}

void CompositeKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                          double scale, VectorRef grad) const {
  if (operation_ == CompositeOperation::kSum) {
    for (const auto& part : parts_) part->AccumulateGradientA(a, b, scale, grad);
    return;
  }
  std::vector<double> values;
  for (const auto& part : parts_) values.push_back(part->Value(a, b));
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    parts_[j]->AccumulateGradientA(a, b, scale * ProductOfOthers(values, j), grad);
  }
}

void CompositeKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                        VectorRef grad) const {
  std::vector<double> values;
  if (operation_ == CompositeOperation::kProduct) {
    for (const auto& part : parts_) values.push_back(part->Value(a, b));
  }
  int offset = 0;
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    const int n = parts_[j]->NumParams();
    parts_[j]->GradientLogParams(a, b, grad.segment(offset, n));
    if (operation_ == CompositeOperation::kProduct) {
      grad.segment(offset, n) *= ProductOfOthers(values, j);
    }
    offset += n;
  }
}

void CompositeKernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  Kernel::ValidatePoint(x, field);  // the size, against the largest part
  for (const auto& part : parts_) part->ValidatePoint(x, field);
}

Eigen::MatrixXd CompositeKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  Eigen::MatrixXd K = parts_[0]->Cross(A, B);
  for (std::size_t j = 1; j < parts_.size(); ++j) {
    if (operation_ == CompositeOperation::kSum) {
      K += parts_[j]->Cross(A, B);
    } else {
      K.array() *= parts_[j]->Cross(A, B).array();
    }
  }
  return K;
}

Eigen::VectorXd CompositeKernel::Diagonal(const Eigen::MatrixXd& X) const {
  Eigen::VectorXd diag = parts_[0]->Diagonal(X);
  for (std::size_t j = 1; j < parts_.size(); ++j) {
    if (operation_ == CompositeOperation::kSum) {
      diag += parts_[j]->Diagonal(X);
    } else {
      diag.array() *= parts_[j]->Diagonal(X).array();
    }
  }
  return diag;
}

Eigen::MatrixXd CompositeKernel::Gram(const Eigen::MatrixXd& X) const {
  Eigen::MatrixXd K = parts_[0]->Gram(X);
  for (std::size_t j = 1; j < parts_.size(); ++j) {
    if (operation_ == CompositeOperation::kSum) {
      K += parts_[j]->Gram(X);
    } else {
      K.array() *= parts_[j]->Gram(X).array();
    }
  }
  return K;
}

Eigen::VectorXd CompositeKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                           const Eigen::MatrixXd& W) const {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(Describe() + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
  Eigen::VectorXd grad(NumParams());
  std::vector<Eigen::MatrixXd> grams;
  if (operation_ == CompositeOperation::kProduct) {
    for (const auto& part : parts_) grams.push_back(part->Gram(X));
  }
  Eigen::MatrixXd weights;  // one buffer for every part: n x n allocations are not free
  int offset = 0;
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    const int n = parts_[j]->NumParams();
    if (operation_ == CompositeOperation::kSum) {
      grad.segment(offset, n) = parts_[j]->ContractGradientLogParams(X, W);
    } else {
      // d(prod_i K_i)/dθ_j = (dK_j/dθ_j) .* prod_{i != j} K_i, so the weights of part j are
      // W .* prod_{i != j} K_i.
      weights = W;
      for (std::size_t i = 0; i < parts_.size(); ++i) {
        if (i != j) weights.array() *= grams[i].array();
      }
      grad.segment(offset, n) = parts_[j]->ContractGradientLogParams(X, weights);
    }
    offset += n;
  }
  return grad;
}

}  // namespace gpbandit
