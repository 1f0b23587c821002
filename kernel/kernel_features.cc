#include "gpbandit/kernel/kernel_features.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "numerics/math.h"

namespace gpbandit {
namespace {

using ConstRef = Eigen::Ref<const Eigen::VectorXd>;

// phi_j(x) = amplitude cos(omega_j . x_dims + b_j), amplitude = sqrt(2 s2 / m).
class SpectralFeatures : public KernelFeatures {
 public:
  SpectralFeatures(SpectralSample sample, Rng& rng)
      : dims_(std::move(sample.dims)), frequencies_t_(sample.frequencies.transpose()) {
    const Eigen::Index m = frequencies_t_.rows();
    std::uniform_real_distribution<double> uniform(0.0, 2.0 * kPi);
    phases_.resize(m);
    for (Eigen::Index j = 0; j < m; ++j) phases_(j) = uniform(rng);
    amplitude_ = std::sqrt(2.0 * sample.variance / static_cast<double>(m));
  }

  int size() const override { return static_cast<int>(phases_.size()); }

  void Evaluate(const ConstRef& x, Eigen::VectorXd* values) const override {
    Angles(x, values);
    for (Eigen::Index j = 0; j < values->size(); ++j)
      (*values)(j) = amplitude_ * std::cos((*values)(j));
  }

  void AccumulateWeightedGradient(const ConstRef& x, const Eigen::VectorXd& weights,
                                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    Eigen::VectorXd slopes;
    Angles(x, &slopes);
    // d phi_j / dx = -amplitude sin(theta_j) omega_j.
    for (Eigen::Index j = 0; j < slopes.size(); ++j)
      slopes(j) = -amplitude_ * weights(j) * std::sin(slopes(j));
    const Eigen::VectorXd by_dim = frequencies_t_.transpose() * slopes;
    for (std::size_t k = 0; k < dims_.size(); ++k) grad(dims_[k]) += by_dim(static_cast<int>(k));
  }

 private:
  // theta = Omega^T x_dims + b.
  void Angles(const ConstRef& x, Eigen::VectorXd* angles) const {
    Eigen::VectorXd xd(dims_.size());
    for (std::size_t k = 0; k < dims_.size(); ++k) xd(static_cast<int>(k)) = x(dims_[k]);
    *angles = phases_;
    if (!dims_.empty()) angles->noalias() += frequencies_t_ * xd;
  }

  std::vector<int> dims_;
  Eigen::MatrixXd frequencies_t_;  // m x |dims|: one column per dim
  Eigen::VectorXd phases_;         // m
  double amplitude_ = 0.0;
};

class ConcatenatedFeatures : public KernelFeatures {
 public:
  explicit ConcatenatedFeatures(std::vector<std::unique_ptr<KernelFeatures>> parts)
      : parts_(std::move(parts)) {
    for (const auto& part : parts_) size_ += part->size();
  }

  int size() const override { return size_; }

  void Evaluate(const ConstRef& x, Eigen::VectorXd* values) const override {
    values->resize(size_);
    Eigen::VectorXd part_values;
    int offset = 0;
    for (const auto& part : parts_) {
      part->Evaluate(x, &part_values);
      values->segment(offset, part->size()) = part_values;
      offset += part->size();
    }
  }

  void AccumulateWeightedGradient(const ConstRef& x, const Eigen::VectorXd& weights,
                                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    int offset = 0;
    for (const auto& part : parts_) {
      part->AccumulateWeightedGradient(x, weights.segment(offset, part->size()), grad);
      offset += part->size();
    }
  }

 private:
  std::vector<std::unique_ptr<KernelFeatures>> parts_;
  int size_ = 0;
};

// psi_i = scale prod_j phi^j_{index(i, j)}(x) (see the header for the index maps and scale).
class ProductFeatures : public KernelFeatures {
 public:
  ProductFeatures(std::vector<std::unique_ptr<KernelFeatures>> parts, Eigen::MatrixXi index,
                  double scale)
      : parts_(std::move(parts)), index_(std::move(index)), scale_(scale) {}

  int size() const override { return static_cast<int>(index_.rows()); }

  void Evaluate(const ConstRef& x, Eigen::VectorXd* values) const override {
    const std::vector<Eigen::VectorXd> part_values = PartValues(x);
    values->setConstant(index_.rows(), scale_);
    for (std::size_t j = 0; j < parts_.size(); ++j) {
      for (Eigen::Index i = 0; i < index_.rows(); ++i)
        (*values)(i) *= part_values[j](index_(i, static_cast<Eigen::Index>(j)));
    }
  }

  void AccumulateWeightedGradient(const ConstRef& x, const Eigen::VectorXd& weights,
                                  Eigen::Ref<Eigen::VectorXd> grad) const override {
    const std::vector<Eigen::VectorXd> part_values = PartValues(x);
    // d psi_i = scale sum_j (prod_{r != j} phi^r_{I_r(i)}) d phi^j_{I_j(i)}: part j's
    // features get the weights sum over i with I_j(i) = l of w_i scale prod_{r != j} ...
    for (std::size_t j = 0; j < parts_.size(); ++j) {
      Eigen::VectorXd part_weights = Eigen::VectorXd::Zero(parts_[j]->size());
      for (Eigen::Index i = 0; i < index_.rows(); ++i) {
        double others = scale_ * weights(i);
        for (std::size_t r = 0; r < parts_.size(); ++r)
          if (r != j) others *= part_values[r](index_(i, static_cast<Eigen::Index>(r)));
        part_weights(index_(i, static_cast<Eigen::Index>(j))) += others;
      }
      parts_[j]->AccumulateWeightedGradient(x, part_weights, grad);
    }
  }

 private:
  std::vector<Eigen::VectorXd> PartValues(const ConstRef& x) const {
    std::vector<Eigen::VectorXd> values(parts_.size());
    for (std::size_t j = 0; j < parts_.size(); ++j) parts_[j]->Evaluate(x, &values[j]);
    return values;
  }

  std::vector<std::unique_ptr<KernelFeatures>> parts_;
  Eigen::MatrixXi index_;  // size() x parts: the feature of each part that entry i multiplies
  double scale_;
};

void CheckParts(const std::vector<std::unique_ptr<KernelFeatures>>& parts, const char* who) {
  if (parts.empty()) throw std::invalid_argument(std::string(who) + ": parts is empty");
  for (std::size_t j = 0; j < parts.size(); ++j) {
    if (!parts[j]) {
      throw std::invalid_argument(std::string(who) + ": parts[" + std::to_string(j) + "] is null");
    }
  }
}

// The digits of 0..total-1 in the mixed radix of the parts' sizes (part 0 fastest).
Eigen::MatrixXi KroneckerIndex(const std::vector<std::unique_ptr<KernelFeatures>>& parts,
                               long total) {
  Eigen::MatrixXi index(total, static_cast<Eigen::Index>(parts.size()));
  for (long i = 0; i < total; ++i) {
    long rest = i;
    for (std::size_t j = 0; j < parts.size(); ++j) {
      index(i, static_cast<Eigen::Index>(j)) = static_cast<int>(rest % parts[j]->size());
      rest /= parts[j]->size();
    }
  }
  return index;
}

// Per part, a uniform permutation of 0..m-1 (a part of exactly m features) or m uniform draws
// with replacement from its features; *scale gets C = m^{(k-1)/2} prod_j sqrt(M_j / m).
Eigen::MatrixXi RandomIndex(const std::vector<std::unique_ptr<KernelFeatures>>& parts, int m,
                            Rng& rng, double* scale) {
  Eigen::MatrixXi index(m, static_cast<Eigen::Index>(parts.size()));
  *scale = std::pow(static_cast<double>(m), 0.5 * static_cast<double>(parts.size() - 1));
  for (std::size_t j = 0; j < parts.size(); ++j) {
    const int size = parts[j]->size();
    auto column = index.col(static_cast<Eigen::Index>(j));
    if (size == m) {
      for (int i = 0; i < m; ++i) column(i) = i;
      for (int i = m - 1; i > 0; --i) {  // Fisher-Yates
        std::uniform_int_distribution<int> pick(0, i);
        std::swap(column(i), column(pick(rng)));
      }
    } else {
      std::uniform_int_distribution<int> pick(0, size - 1);
      for (int i = 0; i < m; ++i) column(i) = pick(rng);
      *scale *= std::sqrt(static_cast<double>(size) / m);
    }
  }
  return index;
}

// The union of the samples' dims (ascending) and, per sample, the row of each of its dims in it.
std::vector<int> UnionOfDims(const std::vector<SpectralSample>& parts,
                             std::vector<std::vector<int>>* rows) {
  std::set<int> all;
  for (const SpectralSample& part : parts) all.insert(part.dims.begin(), part.dims.end());
  const std::vector<int> dims(all.begin(), all.end());
  rows->clear();
  for (const SpectralSample& part : parts) {
    std::vector<int> at;
    for (int d : part.dims)
      at.push_back(static_cast<int>(std::lower_bound(dims.begin(), dims.end(), d) - dims.begin()));
    rows->push_back(at);
  }
  return dims;
}

void CheckSameSizes(const std::vector<SpectralSample>& parts, const char* who) {
  if (parts.empty()) throw std::invalid_argument(std::string(who) + ": no spectral samples");
  for (const SpectralSample& part : parts) {
    if (part.size() != parts[0].size()) {
      throw std::invalid_argument(std::string(who) + ": spectral samples of sizes " +
                                  std::to_string(parts[0].size()) + " and " +
                                  std::to_string(part.size()));
    }
  }
}

}  // namespace

std::unique_ptr<KernelFeatures> MakeSpectralFeatures(SpectralSample sample, Rng& rng) {
  if (sample.size() < 1)
    throw std::invalid_argument("MakeSpectralFeatures: the sample has no frequencies");
  if (!(sample.variance >= 0.0) || !std::isfinite(sample.variance))
    throw std::invalid_argument("MakeSpectralFeatures: variance must be finite and >= 0");
  if (static_cast<std::size_t>(sample.frequencies.rows()) != sample.dims.size())
    throw std::invalid_argument("MakeSpectralFeatures: frequencies have " +
                                std::to_string(sample.frequencies.rows()) + " rows for " +
                                std::to_string(sample.dims.size()) + " dims");
  return std::make_unique<SpectralFeatures>(std::move(sample), rng);
}

std::unique_ptr<KernelFeatures> MakeConcatenatedFeatures(
    std::vector<std::unique_ptr<KernelFeatures>> parts) {
  CheckParts(parts, "MakeConcatenatedFeatures");
  if (parts.size() == 1) return std::move(parts[0]);
  return std::make_unique<ConcatenatedFeatures>(std::move(parts));
}

std::unique_ptr<KernelFeatures> MakeProductFeatures(
    std::vector<std::unique_ptr<KernelFeatures>> parts, int num_features, Rng& rng) {
  CheckParts(parts, "MakeProductFeatures");
  if (num_features < 1)
    throw std::invalid_argument(
        "MakeProductFeatures: num_features = " + std::to_string(num_features) + " must be >= 1");
  if (parts.size() == 1) return std::move(parts[0]);
  long kronecker = 1;
  for (const auto& part : parts) kronecker = std::min<long>(kronecker * part->size(), 1L << 40);
  if (kronecker <= num_features) {
    Eigen::MatrixXi index = KroneckerIndex(parts, kronecker);
    return std::make_unique<ProductFeatures>(std::move(parts), std::move(index), 1.0);
  }
  double scale = 1.0;
  Eigen::MatrixXi index = RandomIndex(parts, num_features, rng, &scale);
  return std::make_unique<ProductFeatures>(std::move(parts), std::move(index), scale);
}

SpectralSample MultiplySpectra(const std::vector<SpectralSample>& parts) {
  CheckSameSizes(parts, "MultiplySpectra");
  std::vector<std::vector<int>> rows;
  SpectralSample product;
  product.dims = UnionOfDims(parts, &rows);
  product.frequencies =
      Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(product.dims.size()), parts[0].size());
  for (std::size_t j = 0; j < parts.size(); ++j) {
    product.variance *= parts[j].variance;
    for (std::size_t k = 0; k < rows[j].size(); ++k)
      product.frequencies.row(rows[j][k]) += parts[j].frequencies.row(static_cast<int>(k));
  }
  return product;
}

SpectralSample MixSpectra(const std::vector<SpectralSample>& parts, Rng& rng) {
  CheckSameSizes(parts, "MixSpectra");
  std::vector<std::vector<int>> rows;
  SpectralSample mixture;
  mixture.dims = UnionOfDims(parts, &rows);
  mixture.variance = 0.0;
  for (const SpectralSample& part : parts) mixture.variance += part.variance;
  const int m = parts[0].size();
  mixture.frequencies = Eigen::MatrixXd::Zero(static_cast<Eigen::Index>(mixture.dims.size()), m);
  std::uniform_real_distribution<double> uniform(0.0, mixture.variance);
  for (int i = 0; i < m; ++i) {
    // Part j with probability variance_j / the sum (the last part takes any roundoff).
    double u = uniform(rng);
    std::size_t j = 0;
    while (j + 1 < parts.size() && u >= parts[j].variance) u -= parts[j++].variance;
    for (std::size_t k = 0; k < rows[j].size(); ++k)
      mixture.frequencies(rows[j][k], i) = parts[j].frequencies(static_cast<int>(k), i);
  }
  return mixture;
}

}  // namespace gpbandit
