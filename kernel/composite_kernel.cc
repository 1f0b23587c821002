#include "gpbandit/kernel/composite_kernel.h"

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
  CheckContractionWeights(Describe(), X, W);
  KernelGramCache cache;
  Eigen::MatrixXd K;
  GramAndParts(X, &K, &cache);
  return ContractGradientLogParamsFromParts(X, W, K, cache);
}

std::vector<ParamKind> CompositeKernel::ParamKinds() const {
  std::vector<ParamKind> kinds;
  for (const auto& part : parts_) {
    const std::vector<ParamKind> part_kinds = part->ParamKinds();
    kinds.insert(kinds.end(), part_kinds.begin(), part_kinds.end());
  }
  return kinds;
}

void CompositeKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                     bool for_gradient, KernelPointCache* cache) const {
  cache->parts.resize(parts_.size());
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    KernelPointCache& part = cache->parts[j];
    parts_[j]->CrossWithPoint(x, X, for_gradient, &part);
    if (j == 0) {
      cache->values = part.values;
    } else if (operation_ == CompositeOperation::kSum) {
      cache->values += part.values;
    } else {
      cache->values.array() *= part.values.array();
    }
  }
}

void CompositeKernel::AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                                  const KernelPointCache& cache,
                                                  const Eigen::VectorXd& c, double c_scale,
                                                  VectorRef grad) const {
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    if (operation_ == CompositeOperation::kSum) {
      parts_[j]->AccumulateWeightedGradientA(x, X, cache.parts[j], c, c_scale, grad);
      continue;
    }
    // Product rule: part j's terms carry the other parts' values.
    Eigen::VectorXd& weights = cache.scratch;
    weights = c;
    for (std::size_t i = 0; i < parts_.size(); ++i)
      if (i != j) weights.array() *= cache.parts[i].values.array();
    parts_[j]->AccumulateWeightedGradientA(x, X, cache.parts[j], weights, c_scale, grad);
  }
}

void CompositeKernel::GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram,
                                   KernelGramCache* cache, int num_threads) const {
  cache->parts.resize(parts_.size());
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    KernelGramCache& part = cache->parts[j];
    parts_[j]->GramAndParts(X, &part.gram, &part, num_threads);
    if (j == 0) {
      *gram = part.gram;
    } else if (operation_ == CompositeOperation::kSum) {
      *gram += part.gram;
    } else {
      gram->array() *= part.gram.array();
    }
  }
}

Eigen::VectorXd CompositeKernel::ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                                    const Eigen::MatrixXd& W,
                                                                    const Eigen::MatrixXd&,
                                                                    const KernelGramCache& cache,
                                                                    int num_threads) const {
  CheckContractionWeights(Describe(), X, W);
  if (cache.parts.size() != parts_.size())
    throw std::invalid_argument(Describe() + ": the cache holds " +
                                std::to_string(cache.parts.size()) + " parts, expected " +
                                std::to_string(parts_.size()) + " (from GramAndParts)");
  Eigen::VectorXd grad(NumParams());
  int offset = 0;
  for (std::size_t j = 0; j < parts_.size(); ++j) {
    const int n = parts_[j]->NumParams();
    const KernelGramCache& part = cache.parts[j];
    if (operation_ == CompositeOperation::kSum) {
      grad.segment(offset, n) =
          parts_[j]->ContractGradientLogParamsFromParts(X, W, part.gram, part, num_threads);
    } else {
      // Part j's weights are W .* prod_{i != j} K_i.
      Eigen::MatrixXd& weights = cache.scratch;
      weights = W;
      for (std::size_t i = 0; i < parts_.size(); ++i)
        if (i != j) weights.array() *= cache.parts[i].gram.array();
      grad.segment(offset, n) =
          parts_[j]->ContractGradientLogParamsFromParts(X, weights, part.gram, part, num_threads);
    }
    offset += n;
  }
  return grad;
}

bool CompositeKernel::HasFeatures() const {
  for (const auto& part : parts_)
    if (!part->HasFeatures()) return false;
  return true;
}

bool CompositeKernel::HasSpectralMeasure() const {
  for (const auto& part : parts_)
    if (!part->HasSpectralMeasure()) return false;
  return true;
}

SpectralSample CompositeKernel::DrawSpectrum(int num_features, Rng& rng) const {
  if (!HasSpectralMeasure()) return Kernel::DrawSpectrum(num_features, rng);  // throws
  CheckNumFeatures(*this, num_features);
  std::vector<SpectralSample> samples;
  for (const auto& part : parts_) samples.push_back(part->DrawSpectrum(num_features, rng));
  return operation_ == CompositeOperation::kProduct ? MultiplySpectra(samples)
                                                    : MixSpectra(samples, rng);
}

std::unique_ptr<KernelFeatures> CompositeKernel::DrawFeatures(int num_features, Rng& rng) const {
  if (!HasFeatures()) return Kernel::DrawFeatures(num_features, rng);  // throws
  CheckNumFeatures(*this, num_features);
  if (operation_ == CompositeOperation::kSum) {
    std::vector<std::unique_ptr<KernelFeatures>> features;
    for (const auto& part : parts_) features.push_back(part->DrawFeatures(num_features, rng));
    return MakeConcatenatedFeatures(std::move(features));
  }
  if (HasSpectralMeasure()) return MakeSpectralFeatures(DrawSpectrum(num_features, rng), rng);
  return DrawProductFeatures(num_features, rng);
}

std::unique_ptr<KernelFeatures> CompositeKernel::DrawProductFeatures(int num_features,
                                                                     Rng& rng) const {
  // The parts with a spectral measure as one joint spectral sample, the others one by one.
  std::vector<SpectralSample> spectra;
  std::vector<std::unique_ptr<KernelFeatures>> features;
  for (const auto& part : parts_) {
    if (part->HasSpectralMeasure()) {
      spectra.push_back(part->DrawSpectrum(num_features, rng));
    } else {
      features.push_back(part->DrawFeatures(num_features, rng));
    }
  }
  if (!spectra.empty()) features.push_back(MakeSpectralFeatures(MultiplySpectra(spectra), rng));
  return MakeProductFeatures(std::move(features), num_features, rng);
}

}  // namespace gpbandit
