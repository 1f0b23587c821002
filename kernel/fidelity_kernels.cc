#include "gpbandit/kernel/fidelity_kernels.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

// phi(x, i) = [G_l(i, c) phi_l(x)]: block (l, c) is column c of G_l times part l's features.
class FidelityFeatures : public KernelFeatures {
 public:
  FidelityFeatures(int fidelity_dim, std::vector<Eigen::MatrixXd> factors,
                   std::vector<std::unique_ptr<KernelFeatures>> parts)
      : fidelity_dim_(fidelity_dim), factors_(std::move(factors)), parts_(std::move(parts)) {
    for (std::size_t l = 0; l < parts_.size(); ++l)
      size_ += static_cast<int>(factors_[l].cols()) * parts_[l]->size();
  }
  int size() const override { return size_; }

  void Evaluate(const ConstVectorRef& x, Eigen::VectorXd* values) const override {
    values->resize(size_);
    const int i = Fidelity(x);
    Eigen::VectorXd part_values;
    int offset = 0;
    for (std::size_t l = 0; l < parts_.size(); ++l) {
      parts_[l]->Evaluate(x, &part_values);
      const int m = static_cast<int>(part_values.size());
      for (Eigen::Index c = 0; c < factors_[l].cols(); ++c) {
        values->segment(offset, m) = factors_[l](i, c) * part_values;
        offset += m;
      }
    }
  }

  void AccumulateWeightedGradient(const ConstVectorRef& x, const Eigen::VectorXd& weights,
                                  VectorRef grad) const override {
    const int i = Fidelity(x);
    int offset = 0;
    for (std::size_t l = 0; l < parts_.size(); ++l) {
      const int m = parts_[l]->size();
      Eigen::VectorXd part_weights = Eigen::VectorXd::Zero(m);
      for (Eigen::Index c = 0; c < factors_[l].cols(); ++c) {
        part_weights += factors_[l](i, c) * weights.segment(offset, m);
        offset += m;
      }
      parts_[l]->AccumulateWeightedGradient(x, part_weights, grad);
    }
  }

 private:
  int Fidelity(const ConstVectorRef& x) const {
    const double last = static_cast<double>(factors_[0].rows() - 1);
    const double v = std::min(std::max(x(fidelity_dim_), 0.0), last);
    return static_cast<int>(std::lround(std::isnan(v) ? 0.0 : v));
  }

  int fidelity_dim_;
  std::vector<Eigen::MatrixXd> factors_;
  std::vector<std::unique_ptr<KernelFeatures>> parts_;
  int size_ = 0;
};

// sum over pairs of W(r, c) K(r, c), gathered by the pair's fidelities: S(i, j).
Eigen::MatrixXd FidelityBlocks(const Eigen::MatrixXd& W, const Eigen::MatrixXd& K,
                               const std::vector<int>& f, int num_fidelities) {
  Eigen::MatrixXd S = Eigen::MatrixXd::Zero(num_fidelities, num_fidelities);
  const Eigen::Index n = W.rows();
  for (Eigen::Index c = 0; c < n; ++c)
    for (Eigen::Index r = 0; r < n; ++r) S(f[r], f[c]) += W(r, c) * K(r, c);
  return S;
}

std::string Str(int v) { return std::to_string(v); }

}  // namespace

ParamKind FidelityFactorKind() {
  static const ParamKind kind = ParamKind::Register(
      {"fidelity_factor",
       "a signed factor between fidelities (an autoregressive rho, an entry of an ICM's L), "
       "stored as is, not as a log: the fit bounds it to [-5, 5] and starts it in [-1, 1]",
       {std::exp(-5.0), std::exp(5.0), std::exp(-1.0), std::exp(1.0)},
       OriginalUnits::kNone,
       CautiousDirection::kFree});
  return kind;
}

// ---- FidelityKernel -----------------------------------------------------------------------

FidelityKernel::FidelityKernel(const std::string& who, int fidelity_dim, int num_fidelities,
                               std::vector<std::unique_ptr<Kernel>>&& parts)
    : fidelity_dim_(fidelity_dim), num_fidelities_(num_fidelities), parts_(std::move(parts)) {
  if (parts_.empty()) throw std::invalid_argument(who + ": parts is empty");
  if (fidelity_dim < 0)
    throw std::invalid_argument(who + ": fidelity_dim = " + Str(fidelity_dim) + " is negative");
  if (num_fidelities < 1)
    throw std::invalid_argument(who + ": num_fidelities = " + Str(num_fidelities) +
                                " must be >= 1");
  for (std::size_t l = 0; l < parts_.size(); ++l)
    if (!parts_[l]) throw std::invalid_argument(who + ": parts[" + Str(l) + "] is null");
}

FidelityKernel::FidelityKernel(const FidelityKernel& other)
    : Kernel(other), fidelity_dim_(other.fidelity_dim_), num_fidelities_(other.num_fidelities_) {
  for (const auto& part : other.parts_) parts_.push_back(part->Clone());
}

int FidelityKernel::MinInputDim() const {
  int dim = fidelity_dim_ + 1;
  for (const auto& part : parts_) dim = std::max(dim, part->MinInputDim());
  return dim;
}

int FidelityKernel::NumParams() const {
  int n = NumMixingParams();
  for (const auto& part : parts_) n += part->NumParams();
  return n;
}

Eigen::VectorXd FidelityKernel::GetLogParams() const {
  Eigen::VectorXd params(NumParams());
  int offset = 0;
  for (const auto& part : parts_) {
    params.segment(offset, part->NumParams()) = part->GetLogParams();
    offset += part->NumParams();
  }
  params.tail(NumMixingParams()) = MixingParams();
  return params;
}

void FidelityKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  const Eigen::VectorXd previous = GetLogParams();
  try {
    int offset = 0;
    for (const auto& part : parts_) {
      part->SetLogParams(log_params.segment(offset, part->NumParams()));
      offset += part->NumParams();
    }
  } catch (...) {
    // A part refused its share after earlier parts took theirs: put everything back.
    int offset = 0;
    for (const auto& part : parts_) {
      part->SetLogParams(previous.segment(offset, part->NumParams()));
      offset += part->NumParams();
    }
    throw;
  }
  SetMixingParams(log_params.tail(NumMixingParams()));
}

std::vector<std::string> FidelityKernel::ParamNames() const {
  std::vector<std::string> names;
  for (std::size_t l = 0; l < parts_.size(); ++l)
    for (const std::string& name : parts_[l]->ParamNames())
      names.push_back("part[" + Str(l) + "]." + name);
  for (const std::string& name : MixingNames()) names.push_back(name);
  return names;
}

std::vector<ParamKind> FidelityKernel::ParamKinds() const {
  std::vector<ParamKind> kinds;
  for (const auto& part : parts_) {
    const std::vector<ParamKind> part_kinds = part->ParamKinds();
    kinds.insert(kinds.end(), part_kinds.begin(), part_kinds.end());
  }
  const std::vector<ParamKind> mixing = MixingKinds();
  kinds.insert(kinds.end(), mixing.begin(), mixing.end());
  return kinds;
}

int FidelityKernel::Fidelity(double v) const {
  // Clamping keeps an unvalidated point from reading out of bounds; validated points hold
  // exact integers, for which this is the identity.
  const double clamped = std::min(std::max(v, 0.0), static_cast<double>(num_fidelities_ - 1));
  return static_cast<int>(std::lround(std::isnan(clamped) ? 0.0 : clamped));
}

std::vector<int> FidelityKernel::Fidelities(const Eigen::MatrixXd& X, const char* field) const {
  if (X.rows() < MinInputDim())
    throw std::invalid_argument(Describe() + ": " + field + " has " + Str(X.rows()) +
                                " rows, the kernel needs at least " + Str(MinInputDim()));
  std::vector<int> f(X.cols());
  for (Eigen::Index j = 0; j < X.cols(); ++j) f[j] = Fidelity(X(fidelity_dim_, j));
  return f;
}

Eigen::MatrixXd FidelityKernel::Expand(const Eigen::MatrixXd& C, const std::vector<int>& fa,
                                       const std::vector<int>& fb) {
  Eigen::MatrixXd out(fa.size(), fb.size());
  for (std::size_t c = 0; c < fb.size(); ++c)
    for (std::size_t r = 0; r < fa.size(); ++r) out(r, c) = C(fa[r], fb[c]);
  return out;
}

std::vector<int> FidelityKernel::InputDims() const {
  // Only the fidelity coordinate; each part checks its own (ValidatePoint).
  return {fidelity_dim_};
}

double FidelityKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  const int i = Fidelity(a(fidelity_dim_)), j = Fidelity(b(fidelity_dim_));
  double sum = 0.0;
  for (std::size_t l = 0; l < parts_.size(); ++l)
    if (C[l](i, j) != 0.0) sum += C[l](i, j) * parts_[l]->Value(a, b);
  return sum;
}

void FidelityKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                         double scale, VectorRef grad) const {
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  const int i = Fidelity(a(fidelity_dim_)), j = Fidelity(b(fidelity_dim_));
  for (std::size_t l = 0; l < parts_.size(); ++l)
    if (C[l](i, j) != 0.0) parts_[l]->AccumulateGradientA(a, b, scale * C[l](i, j), grad);
}

void FidelityKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                       VectorRef grad) const {
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  const int i = Fidelity(a(fidelity_dim_)), j = Fidelity(b(fidelity_dim_));
  std::vector<double> values(parts_.size());
  int offset = 0;
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    const int n = parts_[l]->NumParams();
    values[l] = parts_[l]->Value(a, b);
    parts_[l]->GradientLogParams(a, b, grad.segment(offset, n));
    grad.segment(offset, n) *= C[l](i, j);
    offset += n;
  }
  const std::vector<std::vector<Eigen::MatrixXd>> dC = CoefficientGradients();
  for (std::size_t p = 0; p < dC.size(); ++p) {
    double sum = 0.0;
    for (std::size_t l = 0; l < parts_.size(); ++l) sum += dC[p][l](i, j) * values[l];
    grad(offset + static_cast<int>(p)) = sum;
  }
}

void FidelityKernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  Kernel::ValidatePoint(x, field);  // the size, and a finite fidelity coordinate
  const double v = x(fidelity_dim_);
  if (v != std::floor(v) || v < 0.0 || v >= num_fidelities_)
    throw std::invalid_argument(field + "[" + Str(fidelity_dim_) + "] = " + FormatDouble(v) +
                                " is not a fidelity index of " + Describe() +
                                " (an integer in [0, " + Str(num_fidelities_) + "))");
  for (const auto& part : parts_) part->ValidatePoint(x, field);
}

Eigen::MatrixXd FidelityKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  const std::vector<int> fa = Fidelities(A, "A"), fb = Fidelities(B, "B");
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(A.cols(), B.cols());
  for (std::size_t l = 0; l < parts_.size(); ++l)
    K.array() += Expand(C[l], fa, fb).array() * parts_[l]->Cross(A, B).array();
  return K;
}

Eigen::VectorXd FidelityKernel::Diagonal(const Eigen::MatrixXd& X) const {
  const std::vector<int> f = Fidelities(X, "X");
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  Eigen::VectorXd diag = Eigen::VectorXd::Zero(X.cols());
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    const Eigen::VectorXd part = parts_[l]->Diagonal(X);
    for (Eigen::Index j = 0; j < X.cols(); ++j) diag(j) += C[l](f[j], f[j]) * part(j);
  }
  return diag;
}

Eigen::MatrixXd FidelityKernel::Gram(const Eigen::MatrixXd& X) const {
  const std::vector<int> f = Fidelities(X, "X");
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(X.cols(), X.cols());
  for (std::size_t l = 0; l < parts_.size(); ++l)
    K.array() += Expand(C[l], f, f).array() * parts_[l]->Gram(X).array();
  return K;
}

Eigen::VectorXd FidelityKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                          const Eigen::MatrixXd& W) const {
  CheckContractionWeights(Describe(), X, W);
  KernelGramCache cache;
  Eigen::MatrixXd K;
  GramAndParts(X, &K, &cache);
  return ContractGradientLogParamsFromParts(X, W, K, cache);
}

void FidelityKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                    bool for_gradient, KernelPointCache* cache) const {
  const std::vector<int> f = Fidelities(X, "X");
  const int i = Fidelity(x(fidelity_dim_));
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  cache->parts.resize(parts_.size());
  cache->values.setZero(X.cols());
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    KernelPointCache& part = cache->parts[l];
    parts_[l]->CrossWithPoint(x, X, for_gradient, &part);
    for (Eigen::Index j = 0; j < X.cols(); ++j) cache->values(j) += C[l](i, f[j]) * part.values(j);
  }
}

void FidelityKernel::AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                                 const KernelPointCache& cache,
                                                 const Eigen::VectorXd& c, double c_scale,
                                                 VectorRef grad) const {
  const std::vector<int> f = Fidelities(X, "X");
  const int i = Fidelity(x(fidelity_dim_));
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  Eigen::VectorXd& weights = cache.scratch;
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    weights.resize(X.cols());
    for (Eigen::Index j = 0; j < X.cols(); ++j) weights(j) = c(j) * C[l](i, f[j]);
    parts_[l]->AccumulateWeightedGradientA(x, X, cache.parts[l], weights, c_scale, grad);
  }
}

void FidelityKernel::GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram,
                                  KernelGramCache* cache, int num_threads) const {
  const std::vector<int> f = Fidelities(X, "X");
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  cache->parts.resize(parts_.size());
  gram->setZero(X.cols(), X.cols());
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    KernelGramCache& part = cache->parts[l];
    parts_[l]->GramAndParts(X, &part.gram, &part, num_threads);
    gram->array() += Expand(C[l], f, f).array() * part.gram.array();
  }
}

Eigen::VectorXd FidelityKernel::ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                                   const Eigen::MatrixXd& W,
                                                                   const Eigen::MatrixXd&,
                                                                   const KernelGramCache& cache,
                                                                   int num_threads) const {
  CheckContractionWeights(Describe(), X, W);
  if (cache.parts.size() != parts_.size())
    throw std::invalid_argument(Describe() + ": the cache holds " + Str(cache.parts.size()) +
                                " parts, expected " + Str(parts_.size()) + " (from GramAndParts)");
  const std::vector<int> f = Fidelities(X, "X");
  const std::vector<Eigen::MatrixXd> C = Coefficients();
  Eigen::VectorXd grad(NumParams());
  std::vector<Eigen::MatrixXd> blocks(parts_.size());
  int offset = 0;
  for (std::size_t l = 0; l < parts_.size(); ++l) {
    const int n = parts_[l]->NumParams();
    const KernelGramCache& part = cache.parts[l];
    // Part l's log-params enter as C_l(i, j) dk_l: its weights are W .* C_l[f, f].
    Eigen::MatrixXd& weights = cache.scratch;
    weights = W.array() * Expand(C[l], f, f).array();
    grad.segment(offset, n) =
        parts_[l]->ContractGradientLogParamsFromParts(X, weights, part.gram, part, num_threads);
    blocks[l] = FidelityBlocks(W, part.gram, f, num_fidelities_);
    offset += n;
  }
  const std::vector<std::vector<Eigen::MatrixXd>> dC = CoefficientGradients();
  for (std::size_t p = 0; p < dC.size(); ++p) {
    double sum = 0.0;
    for (std::size_t l = 0; l < parts_.size(); ++l)
      sum += (dC[p][l].array() * blocks[l].array()).sum();
    grad(offset + static_cast<int>(p)) = sum;
  }
  return grad;
}

bool FidelityKernel::HasFeatures() const {
  for (const auto& part : parts_)
    if (!part->HasFeatures()) return false;
  return true;
}

std::unique_ptr<KernelFeatures> FidelityKernel::DrawFeatures(int num_features, Rng& rng) const {
  if (!HasFeatures()) return Kernel::DrawFeatures(num_features, rng);  // throws
  CheckNumFeatures(*this, num_features);
  std::vector<std::unique_ptr<KernelFeatures>> features;
  for (const auto& part : parts_) features.push_back(part->DrawFeatures(num_features, rng));
  return std::make_unique<FidelityFeatures>(fidelity_dim_, CoefficientFactors(),
                                            std::move(features));
}

// ---- CoregionalizationKernel --------------------------------------------------------------

namespace {

std::vector<std::unique_ptr<Kernel>> OnePart(std::unique_ptr<Kernel> base) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(base));
  return parts;
}

int CheckedRank(int rank, int num_fidelities) {
  if (rank < 1 || rank > std::max(num_fidelities, 1))
    throw std::invalid_argument("CoregionalizationKernel: rank = " + Str(rank) +
                                " is not in [1, num_fidelities = " + Str(num_fidelities) + "]");
  return rank;
}

}  // namespace

CoregionalizationKernel::CoregionalizationKernel(std::unique_ptr<Kernel> base, int fidelity_dim,
                                                 int num_fidelities, int rank)
    : FidelityKernel("CoregionalizationKernel", fidelity_dim, num_fidelities,
                     OnePart(std::move(base))),
      factor_(Eigen::MatrixXd::Constant(num_fidelities, CheckedRank(rank, num_fidelities),
                                        std::sqrt(0.9 / rank))),
      log_kappa_(Eigen::VectorXd::Constant(num_fidelities, std::log(0.1))) {}

CoregionalizationKernel::CoregionalizationKernel(std::unique_ptr<Kernel> base, int fidelity_dim,
                                                 const Eigen::MatrixXd& factor,
                                                 const Eigen::VectorXd& kappa)
    : FidelityKernel("CoregionalizationKernel", fidelity_dim, static_cast<int>(factor.rows()),
                     OnePart(std::move(base))) {
  const std::string who = "CoregionalizationKernel";
  if (factor.cols() < 1) throw std::invalid_argument(who + ": factor has no columns (rank 0)");
  if (kappa.size() != factor.rows())
    throw std::invalid_argument(who + ": kappa has " + Str(kappa.size()) + " entries, factor has " +
                                Str(factor.rows()) + " rows");
  for (Eigen::Index c = 0; c < factor.cols(); ++c)
    for (Eigen::Index r = 0; r < factor.rows(); ++r)
      if (!std::isfinite(factor(r, c)))
        throw std::invalid_argument(who + ": factor(" + Str(r) + ", " + Str(c) +
                                    ") = " + FormatDouble(factor(r, c)) + " is not finite");
  for (Eigen::Index i = 0; i < kappa.size(); ++i)
    CheckPositive(who, "kappa[" + Str(i) + "]", kappa(i));
  factor_ = factor;
  log_kappa_ = kappa.array().log();
}

Eigen::VectorXd CoregionalizationKernel::kappa() const {
  Eigen::VectorXd k(log_kappa_.size());
  for (Eigen::Index i = 0; i < k.size(); ++i) k(i) = ExpOfLogParam(log_kappa_(i));
  return k;
}

Eigen::MatrixXd CoregionalizationKernel::Coregionalization() const {
  Eigen::MatrixXd B = factor_ * factor_.transpose();
  B.diagonal() += kappa();
  return B;
}

std::unique_ptr<Kernel> CoregionalizationKernel::Clone() const {
  return std::make_unique<CoregionalizationKernel>(*this);
}

std::string CoregionalizationKernel::Describe() const {
  return "icm(fidelity_dim=" + Str(fidelity_dim()) + "; fidelities=" + Str(num_fidelities()) +
         "; rank=" + Str(rank()) + "; " + part(0).Describe() + ")";
}

std::vector<Eigen::MatrixXd> CoregionalizationKernel::Coefficients() const {
  return {Coregionalization()};
}

Eigen::VectorXd CoregionalizationKernel::MixingParams() const {
  Eigen::VectorXd p(factor_.size() + log_kappa_.size());
  p.head(factor_.size()) = Eigen::Map<const Eigen::VectorXd>(factor_.data(), factor_.size());
  p.tail(log_kappa_.size()) = log_kappa_;
  return p;
}

void CoregionalizationKernel::SetMixingParams(const ConstVectorRef& params) {
  factor_ = Eigen::Map<const Eigen::MatrixXd>(params.data(), factor_.rows(), factor_.cols());
  log_kappa_ = params.tail(log_kappa_.size());
}

std::vector<std::string> CoregionalizationKernel::MixingNames() const {
  std::vector<std::string> names;
  for (Eigen::Index c = 0; c < factor_.cols(); ++c)
    for (Eigen::Index r = 0; r < factor_.rows(); ++r)
      names.push_back("icm.L[" + Str(r) + "," + Str(c) + "]");
  for (Eigen::Index i = 0; i < log_kappa_.size(); ++i)
    names.push_back("icm.log_kappa[" + Str(i) + "]");
  return names;
}

std::vector<ParamKind> CoregionalizationKernel::MixingKinds() const {
  std::vector<ParamKind> kinds(factor_.size(), FidelityFactorKind());
  kinds.insert(kinds.end(), log_kappa_.size(), ParamKind::kSignalVariance);
  return kinds;
}

std::vector<std::vector<Eigen::MatrixXd>> CoregionalizationKernel::CoefficientGradients() const {
  const Eigen::Index F = factor_.rows();
  std::vector<std::vector<Eigen::MatrixXd>> dC;
  // d (L L^T) / d L(r, c) = e_r L_c^T + L_c e_r^T.
  for (Eigen::Index c = 0; c < factor_.cols(); ++c) {
    for (Eigen::Index r = 0; r < F; ++r) {
      Eigen::MatrixXd d = Eigen::MatrixXd::Zero(F, F);
      d.row(r) += factor_.col(c).transpose();
      d.col(r) += factor_.col(c);
      dC.push_back({d});
    }
  }
  const Eigen::VectorXd k = kappa();
  for (Eigen::Index i = 0; i < F; ++i) {
    Eigen::MatrixXd d = Eigen::MatrixXd::Zero(F, F);
    d(i, i) = k(i);  // d kappa / d log kappa
    dC.push_back({d});
  }
  return dC;
}

std::vector<Eigen::MatrixXd> CoregionalizationKernel::CoefficientFactors() const {
  Eigen::MatrixXd G(factor_.rows(), factor_.cols() + factor_.rows());
  G.leftCols(factor_.cols()) = factor_;
  G.rightCols(factor_.rows()) = kappa().cwiseSqrt().asDiagonal();
  return {G};
}

// ---- AutoregressiveKernel -----------------------------------------------------------------

namespace {

std::vector<double> CheckedRho(std::vector<double> rho, std::size_t num_parts) {
  const std::string who = "AutoregressiveKernel";
  if (num_parts == 0) throw std::invalid_argument(who + ": parts is empty");
  if (rho.empty()) rho.assign(num_parts - 1, 1.0);
  if (rho.size() != num_parts - 1)
    throw std::invalid_argument(who + ": rho has " + Str(rho.size()) + " entries, expected " +
                                Str(num_parts - 1) + " (one per fidelity above the cheapest)");
  for (std::size_t m = 0; m < rho.size(); ++m)
    if (!std::isfinite(rho[m]))
      throw std::invalid_argument(who + ": rho[" + Str(m) + "] = " + FormatDouble(rho[m]) +
                                  " is not finite");
  return rho;
}

}  // namespace

AutoregressiveKernel::AutoregressiveKernel(std::vector<std::unique_ptr<Kernel>> parts,
                                           int fidelity_dim, std::vector<double> rho)
    : FidelityKernel("AutoregressiveKernel", fidelity_dim, static_cast<int>(parts.size()),
                     std::move(parts)) {
  rho_ = CheckedRho(std::move(rho), num_parts());
}

std::unique_ptr<Kernel> AutoregressiveKernel::Clone() const {
  return std::make_unique<AutoregressiveKernel>(*this);
}

std::string AutoregressiveKernel::Describe() const {
  std::string out = "autoregressive(fidelity_dim=" + Str(fidelity_dim()) +
                    "; fidelities=" + Str(num_fidelities());
  for (int l = 0; l < num_parts(); ++l) out += (l == 0 ? "; " : ", ") + part(l).Describe();
  return out + ")";
}

Eigen::MatrixXd AutoregressiveKernel::Loadings(int rho_skip) const {
  const int F = num_fidelities();
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(F, F);  // a(l, i)
  for (int l = 0; l < F; ++l) {
    double product = 1.0;
    for (int i = l; i < F; ++i) {
      if (i > l && i != rho_skip) product *= rho_[i - 1];
      a(l, i) = product;
    }
  }
  return a;
}

std::vector<Eigen::MatrixXd> AutoregressiveKernel::Coefficients() const {
  const Eigen::MatrixXd a = Loadings(0);
  std::vector<Eigen::MatrixXd> C;
  for (int l = 0; l < num_fidelities(); ++l) C.push_back(a.row(l).transpose() * a.row(l));
  return C;
}

Eigen::VectorXd AutoregressiveKernel::MixingParams() const {
  return Eigen::Map<const Eigen::VectorXd>(rho_.data(), static_cast<Eigen::Index>(rho_.size()));
}

void AutoregressiveKernel::SetMixingParams(const ConstVectorRef& params) {
  for (std::size_t m = 0; m < rho_.size(); ++m) rho_[m] = params(static_cast<Eigen::Index>(m));
}

std::vector<std::string> AutoregressiveKernel::MixingNames() const {
  std::vector<std::string> names;
  for (std::size_t m = 1; m <= rho_.size(); ++m) names.push_back("ar.rho[" + Str(m) + "]");
  return names;
}

std::vector<ParamKind> AutoregressiveKernel::MixingKinds() const {
  return std::vector<ParamKind>(rho_.size(), FidelityFactorKind());
}

std::vector<std::vector<Eigen::MatrixXd>> AutoregressiveKernel::CoefficientGradients() const {
  const int F = num_fidelities();
  const Eigen::MatrixXd a = Loadings(0);
  std::vector<std::vector<Eigen::MatrixXd>> dC;
  for (int p = 1; p < F; ++p) {
    // rho_p enters a_l(i) for l < p <= i, as a plain factor.
    const Eigen::MatrixXd skipped = Loadings(p);
    std::vector<Eigen::MatrixXd> per_part;
    for (int l = 0; l < F; ++l) {
      Eigen::VectorXd da = Eigen::VectorXd::Zero(F);
      if (l < p)
        for (int i = p; i < F; ++i) da(i) = skipped(l, i);
      const Eigen::VectorXd al = a.row(l).transpose();
      per_part.push_back(da * al.transpose() + al * da.transpose());
    }
    dC.push_back(std::move(per_part));
  }
  return dC;
}

std::vector<Eigen::MatrixXd> AutoregressiveKernel::CoefficientFactors() const {
  const Eigen::MatrixXd a = Loadings(0);
  std::vector<Eigen::MatrixXd> G;
  for (int l = 0; l < num_fidelities(); ++l) G.push_back(a.row(l).transpose());
  return G;
}

// ---- Free functions -----------------------------------------------------------------------

Eigen::MatrixXd FidelityPriorCovariance(const Kernel& kernel, const ConstVectorRef& x,
                                        int fidelity_dim, int num_fidelities) {
  if (fidelity_dim < 0 || fidelity_dim >= x.size())
    throw std::invalid_argument("FidelityPriorCovariance: fidelity_dim = " + Str(fidelity_dim) +
                                " is not a coordinate of x (size " + Str(x.size()) + ")");
  if (num_fidelities < 1)
    throw std::invalid_argument("FidelityPriorCovariance: num_fidelities = " + Str(num_fidelities) +
                                " must be >= 1");
  Eigen::MatrixXd X(x.size(), num_fidelities);
  for (int i = 0; i < num_fidelities; ++i) {
    X.col(i) = x;
    X(fidelity_dim, i) = i;
    kernel.ValidatePoint(X.col(i), "x");
  }
  return kernel.Gram(X);
}

std::vector<int> TargetCouplingParams(const Kernel& kernel) {
  std::vector<int> indices;
  const int n = kernel.NumParams();
  if (const auto* chain = dynamic_cast<const AutoregressiveKernel*>(&kernel)) {
    const int factors = static_cast<int>(chain->rho().size());
    for (int m = 0; m < factors; ++m) indices.push_back(n - factors + m);
  } else if (const auto* icm = dynamic_cast<const CoregionalizationKernel*>(&kernel)) {
    const int levels = icm->num_fidelities();
    const int first = n - levels * icm->rank() - levels;  // L(0, 0), column by column
    for (int c = 0; c < icm->rank(); ++c)
      for (int m = 0; m + 1 < levels; ++m) indices.push_back(first + c * levels + m);
  }
  return indices;
}

}  // namespace gpbandit
