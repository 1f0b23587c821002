#include "gpbandit/kernel/kernel.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "gpbandit/numerics/format.h"

namespace gpbandit {
namespace {

void CheckBatchRows(const Kernel& kernel, const std::string& field, const Eigen::MatrixXd& X) {
  if (X.rows() < kernel.MinInputDim()) {
    throw std::invalid_argument(kernel.Describe() + ": " + field + " has " +
                                std::to_string(X.rows()) + " rows, the kernel needs at least " +
                                std::to_string(kernel.MinInputDim()));
  }
}

}  // namespace

void CheckContractionWeights(const std::string& who, const Eigen::MatrixXd& X,
                             const Eigen::MatrixXd& W) {
  if (W.rows() != X.cols() || W.cols() != X.cols()) {
    throw std::invalid_argument(who + ": W is " + std::to_string(W.rows()) + " x " +
                                std::to_string(W.cols()) + ", expected " +
                                std::to_string(X.cols()) + " x " + std::to_string(X.cols()));
  }
}

void CheckLogParams(const std::string& who, int expected_size, const ConstVectorRef& log_params) {
  if (log_params.size() != expected_size) {
    throw std::invalid_argument(who + ": log_params has size " + std::to_string(log_params.size()) +
                                ", expected " + std::to_string(expected_size));
  }
  for (int i = 0; i < log_params.size(); ++i) {
    if (!std::isfinite(log_params(i))) {
      throw std::invalid_argument(who + ": log_params[" + std::to_string(i) +
                                  "] = " + FormatDouble(log_params(i)) + " is not finite");
    }
  }
}

void CheckDims(const std::string& who, const std::vector<int>& dims) {
  if (dims.empty()) throw std::invalid_argument(who + ": dims is empty");
  std::set<int> seen;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0) {
      throw std::invalid_argument(who + ": dims[" + std::to_string(i) +
                                  "] = " + std::to_string(dims[i]) + " is negative");
    }
    if (!seen.insert(dims[i]).second) {
      throw std::invalid_argument(who + ": dims[" + std::to_string(i) +
                                  "] = " + std::to_string(dims[i]) + " is a duplicate");
    }
  }
}

void CheckPositive(const std::string& who, const std::string& field, double value) {
  if (!(std::isfinite(value) && value > 0.0)) {
    throw std::invalid_argument(who + ": " + field + " = " + FormatDouble(value) +
                                " must be positive and finite");
  }
}

std::string FormatDims(const std::vector<int>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) out += ",";
    out += std::to_string(dims[i]);
  }
  return out;
}

double ExpOfLogParam(double log_value) {
  constexpr double kMaxAbsLog = 700.0;  // exp(700) ~ 1e304 < DBL_MAX
  return std::exp(std::min(std::max(log_value, -kMaxAbsLog), kMaxAbsLog));
}

std::vector<int> Kernel::InputDims() const {
  std::vector<int> dims(MinInputDim());
  for (int i = 0; i < MinInputDim(); ++i) dims[i] = i;
  return dims;
}

void Kernel::ValidatePoint(const ConstVectorRef& x, const std::string& field) const {
  if (x.size() < MinInputDim()) {
    throw std::invalid_argument(field + " has size " + std::to_string(x.size()) + ", " +
                                Describe() + " needs at least " + std::to_string(MinInputDim()));
  }
  for (int d : InputDims()) {
    if (!std::isfinite(x(d))) {
      throw std::invalid_argument(field + "[" + std::to_string(d) + "] = " + FormatDouble(x(d)) +
                                  " is not finite");
    }
  }
}

Eigen::MatrixXd Kernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  CheckBatchRows(*this, "A", A);
  CheckBatchRows(*this, "B", B);
  Eigen::MatrixXd K(A.cols(), B.cols());
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    for (Eigen::Index i = 0; i < A.cols(); ++i) K(i, j) = Value(A.col(i), B.col(j));
  }
  return K;
}

Eigen::VectorXd Kernel::Diagonal(const Eigen::MatrixXd& X) const {
  CheckBatchRows(*this, "X", X);
  Eigen::VectorXd diag(X.cols());
  for (Eigen::Index i = 0; i < X.cols(); ++i) diag(i) = Value(X.col(i), X.col(i));
  return diag;
}

Eigen::MatrixXd Kernel::Gram(const Eigen::MatrixXd& X) const {
  // Goes through the (possibly vectorized) Cross of the derived kernel; the symmetrization
  // removes the last-bit asymmetry of matrix products so that Cholesky sees an exactly
  // symmetric matrix.
  Eigen::MatrixXd K = Cross(X, X);
  // Tile by tile, so that the transposed accesses stay in cache for large n.
  constexpr Eigen::Index kTile = 64;
  const Eigen::Index n = K.cols();
  for (Eigen::Index j0 = 0; j0 < n; j0 += kTile) {
    for (Eigen::Index i0 = 0; i0 <= j0; i0 += kTile) {
      const Eigen::Index j_end = std::min(n, j0 + kTile);
      for (Eigen::Index j = j0; j < j_end; ++j) {
        const Eigen::Index i_end = std::min(j, i0 + kTile);
        for (Eigen::Index i = i0; i < i_end; ++i) {
          if (K(i, j) == K(j, i)) continue;  // vectorized overrides are often exact already
          const double mean = 0.5 * (K(i, j) + K(j, i));
          K(i, j) = mean;
          K(j, i) = mean;
        }
      }
    }
  }
  return K;
}

std::vector<ParamKind> Kernel::ParamKinds() const {
  return std::vector<ParamKind>(static_cast<std::size_t>(NumParams()), ParamKind::kOther);
}

Eigen::VectorXd Kernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                  const Eigen::MatrixXd& W) const {
  CheckBatchRows(*this, "X", X);
  CheckContractionWeights(Describe(), X, W);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(NumParams());
  Eigen::VectorXd grad(NumParams());
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    for (Eigen::Index i = 0; i <= j; ++i) {
      // k is symmetric, so the pair (i, j) stands for both W(i, j) and W(j, i).
      const double weight = i == j ? W(i, i) : W(i, j) + W(j, i);
      if (weight == 0.0) continue;
      GradientLogParams(X.col(i), X.col(j), grad);
      total += weight * grad;
    }
  }
  return total;
}

void Kernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool,
                            KernelPointCache* cache) const {
  cache->values = Cross(X, x);
}

void Kernel::AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                         const KernelPointCache&, const Eigen::VectorXd& c,
                                         double c_scale, VectorRef grad) const {
  for (Eigen::Index j = 0; j < X.cols(); ++j)
    AccumulateGradientA(x, X.col(j), c_scale * c(j), grad);
}

void Kernel::GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram, KernelGramCache*,
                          int) const {
  *gram = Gram(X);
}

Eigen::VectorXd Kernel::ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                           const Eigen::MatrixXd& W,
                                                           const Eigen::MatrixXd&,
                                                           const KernelGramCache&, int) const {
  return ContractGradientLogParams(X, W);
}

bool Kernel::HasFeatures() const { return false; }

std::unique_ptr<KernelFeatures> Kernel::DrawFeatures(int, Rng&) const {
  throw std::invalid_argument("kernel " + Describe() +
                              " provides no random features of its prior (Kernel::HasFeatures)");
}

bool Kernel::HasSpectralMeasure() const { return false; }

SpectralSample Kernel::DrawSpectrum(int, Rng&) const {
  throw std::invalid_argument("kernel " + Describe() +
                              " has no spectral measure (Kernel::HasSpectralMeasure)");
}

void CheckNumFeatures(const Kernel& kernel, int num_features) {
  if (num_features < 1) {
    throw std::invalid_argument(
        kernel.Describe() + ": num_features = " + std::to_string(num_features) + " must be >= 1");
  }
}

}  // namespace gpbandit
