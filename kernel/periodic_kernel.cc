#include "gpbandit/kernel/periodic_kernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "numerics/math.h"

namespace gpbandit {
namespace {

// Up to this z = 1 / l^2 the spectral weights are computed exactly (about 12 sqrt(z) of them).
constexpr double kMaxExactZ = 1e8;

// e^{-z} I_n(z) for n = 0..: the power series sum_k (z/2)^{n+2k} / (k! (n+k)!), for z <= 1
// (where Miller's recurrence below would have to climb by factors 2n / z).
std::vector<double> SeriesWeights(double z) {
  std::vector<double> q;
  double leading = 1.0;  // (z/2)^n / n!
  for (int n = 0; n < 64 && (n == 0 || leading > 1e-40); ++n) {
    if (n > 0) leading *= 0.5 * z / n;
    double term = leading, sum = 0.0;
    for (int k = 0; k < 64 && term > 1e-18 * sum; ++k) {
      sum += term;
      term *= 0.25 * z * z / ((k + 1.0) * (n + k + 1.0));
    }
    q.push_back(std::exp(-z) * sum);
  }
  return q;
}

// Proportional to I_n(z), n = 0..N, by Miller's backward recurrence
// I_{n-1} = (2n / z) I_n + I_{n+1} from I_{N+1} = 0, I_N = 1 (stable downwards: I_n is the
// recurrence's minimal solution), rescaled before anything can overflow.
std::vector<double> MillerWeights(double z) {
  const int N = static_cast<int>(std::ceil(12.0 * std::sqrt(z) + 40.0));
  std::vector<double> b(static_cast<std::size_t>(N) + 2, 0.0);
  b[static_cast<std::size_t>(N)] = 1.0;
  for (int n = N; n >= 1; --n) {
    const auto i = static_cast<std::size_t>(n);
    b[i - 1] = (2.0 * n / z) * b[i] + b[i + 1];
    if (b[i - 1] > 1e250) {
      for (std::size_t k = i - 1; k <= static_cast<std::size_t>(N); ++k) b[k] *= 1e-250;
    }
  }
  b.pop_back();
  return b;
}

// sin^2(pi (a - b) / p) / l^2, with the conventions of the kernel's gradients.
struct PairTerms {
  double u;       // pi (a - b) / p
  double sin2u;   // sin(2 u)
  double scaled;  // 2 sin^2(u) / l^2, this dim's share of the exponent E
};

PairTerms Terms(double difference, double period, double inv_l2) {
  PairTerms t;
  t.u = kPi * difference / period;
  const double s = std::sin(t.u);
  t.sin2u = std::sin(2.0 * t.u);
  t.scaled = 2.0 * s * s * inv_l2;
  return t;
}

}  // namespace

std::vector<double> PeriodicSpectralWeights(double z) {
  if (!(z >= 0.0) || !(z <= kMaxExactZ)) {
    throw std::invalid_argument("PeriodicSpectralWeights: z = " + FormatDouble(z) +
                                " must be in [0, 1e8]");
  }
  std::vector<double> q = z <= 1.0 ? SeriesWeights(z) : MillerWeights(z);
  // P(|n| = 0) = q_0, P(|n| = n) = 2 q_n; normalized (the identity I_0 + 2 sum I_n = e^z).
  double total = q[0];
  for (std::size_t n = 1; n < q.size(); ++n) total += 2.0 * q[n];
  q[0] /= total;
  for (std::size_t n = 1; n < q.size(); ++n) q[n] *= 2.0 / total;
  return q;
}

PeriodicKernel::PeriodicKernel(std::vector<int> dims, bool ard, double variance, double lengthscale,
                               double period)
    : dims_(std::move(dims)), ard_(ard) {
  const std::string who = "PeriodicKernel";
  CheckDims(who, dims_);
  CheckPositive(who, "variance", variance);
  CheckPositive(who, "lengthscale", lengthscale);
  CheckPositive(who, "period", period);
  const int scales = NumScales();
  log_params_.resize(NumParams());
  log_params_(0) = std::log(variance);
  log_params_.segment(1, scales).setConstant(std::log(lengthscale));
  log_params_.tail(scales).setConstant(std::log(period));
  UpdateDerived();
}

int PeriodicKernel::NumScales() const { return ard_ ? static_cast<int>(dims_.size()) : 1; }

void PeriodicKernel::UpdateDerived() {
  const int scales = NumScales();
  variance_ = ExpOfLogParam(log_params_(0));
  inv_l2_.resize(static_cast<Eigen::Index>(dims_.size()));
  periods_.resize(static_cast<Eigen::Index>(dims_.size()));
  slope_factors_.resize(static_cast<Eigen::Index>(dims_.size()));
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const int s = ard_ ? static_cast<int>(k) : 0;
    // 1 / l^2 from the log directly: finite and positive for every finite log-param.
    inv_l2_(static_cast<Eigen::Index>(k)) = ExpOfLogParam(-2.0 * log_params_(1 + s));
    periods_(static_cast<Eigen::Index>(k)) = ExpOfLogParam(log_params_(1 + scales + s));
    // 2 pi / (p l^2) in log space, so that it stays finite at extreme log-params.
    slope_factors_(static_cast<Eigen::Index>(k)) =
        ExpOfLogParam(std::log(2.0 * kPi) - 2.0 * log_params_(1 + s) - log_params_(1 + scales + s));
  }
}

Eigen::VectorXd PeriodicKernel::lengthscales() const {
  return log_params_.segment(1, NumScales()).unaryExpr([](double v) { return ExpOfLogParam(v); });
}

std::unique_ptr<Kernel> PeriodicKernel::Clone() const {
  return std::make_unique<PeriodicKernel>(*this);
}

std::string PeriodicKernel::Describe() const {
  return "periodic(dims=" + FormatDims(dims_) + (ard_ ? "; ard)" : "; shared)");
}

int PeriodicKernel::MinInputDim() const {
  return 1 + *std::max_element(dims_.begin(), dims_.end());
}

int PeriodicKernel::NumParams() const { return 1 + 2 * NumScales(); }

Eigen::VectorXd PeriodicKernel::GetLogParams() const { return log_params_; }

void PeriodicKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  log_params_ = log_params;
  UpdateDerived();
}

std::vector<std::string> PeriodicKernel::ParamNames() const {
  std::vector<std::string> names{"periodic.log_variance"};
  for (const char* what : {"log_lengthscale", "log_period"}) {
    if (!ard_) {
      names.push_back(std::string("periodic.") + what);
      continue;
    }
    for (std::size_t k = 0; k < dims_.size(); ++k)
      names.push_back(std::string("periodic.") + what + "[" + std::to_string(k) + "]");
  }
  return names;
}

std::vector<ParamKind> PeriodicKernel::ParamKinds() const {
  std::vector<ParamKind> kinds{ParamKind::kSignalVariance};
  kinds.insert(kinds.end(), static_cast<std::size_t>(NumScales()), ParamKind::kLengthscale);
  kinds.insert(kinds.end(), static_cast<std::size_t>(NumScales()), ParamKind::kPeriod);
  return kinds;
}

double PeriodicKernel::Exponent(const ConstVectorRef& a, const ConstVectorRef& b) const {
  double exponent = 0.0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const auto i = static_cast<Eigen::Index>(k);
    exponent += Terms(a(dims_[k]) - b(dims_[k]), periods_(i), inv_l2_(i)).scaled;
  }
  return exponent;
}

double PeriodicKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return variance_ * std::exp(-Exponent(a, b));
}

void PeriodicKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                         double scale, VectorRef grad) const {
  const double k = Value(a, b);
  if (k == 0.0) return;  // and so is every derivative (the factors below may be huge)
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    const auto i = static_cast<Eigen::Index>(d);
    const PairTerms t = Terms(a(dims_[d]) - b(dims_[d]), periods_(i), inv_l2_(i));
    // dk/da = -k (2 pi / (p l^2)) sin(2u).
    grad(dims_[d]) -= scale * k * slope_factors_(i) * t.sin2u;
  }
}

void PeriodicKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                       VectorRef grad) const {
  grad.setZero();
  const double k = Value(a, b);
  grad(0) = k;
  if (k == 0.0) return;
  const int scales = NumScales();
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    const auto i = static_cast<Eigen::Index>(d);
    const PairTerms t = Terms(a(dims_[d]) - b(dims_[d]), periods_(i), inv_l2_(i));
    const int s = ard_ ? static_cast<int>(d) : 0;
    // dk/dlog l = k 4 sin^2(u) / l^2 = 2 k scaled; dk/dlog p = k 2 u sin(2u) / l^2.
    grad(1 + s) += 2.0 * k * t.scaled;
    grad(1 + scales + s) += 2.0 * k * t.u * t.sin2u * inv_l2_(i);
  }
}

void PeriodicKernel::CheckRows(const Eigen::MatrixXd& X, const char* field) const {
  if (X.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": " + field + " has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
}

Eigen::MatrixXd PeriodicKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  CheckRows(A, "A");
  CheckRows(B, "B");
  Eigen::MatrixXd K(A.cols(), B.cols());
  for (Eigen::Index j = 0; j < B.cols(); ++j) {
    for (Eigen::Index i = 0; i < A.cols(); ++i)
      K(i, j) = variance_ * std::exp(-Exponent(A.col(i), B.col(j)));
  }
  return K;
}

Eigen::VectorXd PeriodicKernel::Diagonal(const Eigen::MatrixXd& X) const {
  CheckRows(X, "X");
  return Eigen::VectorXd::Constant(X.cols(), variance_);
}

Eigen::VectorXd PeriodicKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                          const Eigen::MatrixXd& W) const {
  CheckRows(X, "X");
  CheckContractionWeights(Describe(), X, W);
  Eigen::VectorXd total = Eigen::VectorXd::Zero(NumParams());
  Eigen::VectorXd grad(NumParams());
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    for (Eigen::Index i = j; i < X.cols(); ++i) {
      // k is symmetric, so the pair (i, j) stands for both W(i, j) and W(j, i).
      const double weight = i == j ? W(i, i) : W(i, j) + W(j, i);
      if (weight == 0.0) continue;
      GradientLogParams(X.col(i), X.col(j), grad);
      total += weight * grad;
    }
  }
  return total;
}

void PeriodicKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                    bool for_gradient, KernelPointCache* cache) const {
  const Eigen::Index n = X.cols();
  const auto m = static_cast<Eigen::Index>(dims_.size());
  cache->values.resize(n);
  if (for_gradient) cache->slopes_by_dim.resize(m, n);
  for (Eigen::Index j = 0; j < n; ++j) {
    double exponent = 0.0;
    for (Eigen::Index d = 0; d < m; ++d) {
      const PairTerms t = Terms(x(dims_[d]) - X(dims_[d], j), periods_(d), inv_l2_(d));
      exponent += t.scaled;
      if (for_gradient) cache->slopes_by_dim(d, j) = slope_factors_(d) * t.sin2u;
    }
    cache->values(j) = variance_ * std::exp(-exponent);
  }
}

void PeriodicKernel::AccumulateWeightedGradientA(const ConstVectorRef&, const Eigen::MatrixXd&,
                                                 const KernelPointCache& cache,
                                                 const Eigen::VectorXd& c, double c_scale,
                                                 VectorRef grad) const {
  // Where a value is 0 its slope may be huge: such columns contribute nothing.
  const Eigen::ArrayXd weighted =
      (cache.values.array() == 0.0).select(0.0, c.array() * cache.values.array());
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    const auto row = cache.slopes_by_dim.row(static_cast<Eigen::Index>(d)).transpose().array();
    grad(dims_[d]) -= c_scale * (weighted * row).sum();
  }
}

SpectralSample PeriodicKernel::DrawSpectrum(int num_features, Rng& rng) const {
  CheckNumFeatures(*this, num_features);
  SpectralSample sample;
  sample.variance = variance_;
  sample.dims = dims_;
  sample.frequencies.resize(static_cast<Eigen::Index>(dims_.size()), num_features);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    const auto i = static_cast<Eigen::Index>(d);
    const double z = inv_l2_(i);
    const double unit = 2.0 * kPi / periods_(i);  // the frequency of n = 1
    if (z > kMaxExactZ) {
      // The weights tend to those of the rounded N(0, z) (relative error O(1 / z)).
      std::normal_distribution<double> normal(0.0, std::sqrt(z));
      for (int j = 0; j < num_features; ++j)
        sample.frequencies(i, j) = unit * static_cast<double>(std::llround(normal(rng)));
      continue;
    }
    std::vector<double> cdf = PeriodicSpectralWeights(z);
    for (std::size_t n = 1; n < cdf.size(); ++n) cdf[n] += cdf[n - 1];
    for (int j = 0; j < num_features; ++j) {
      const auto n = std::min<std::size_t>(
          static_cast<std::size_t>(std::upper_bound(cdf.begin(), cdf.end(), uniform(rng)) -
                                   cdf.begin()),
          cdf.size() - 1);
      const double sign = uniform(rng) < 0.5 ? -1.0 : 1.0;
      sample.frequencies(i, j) = sign * unit * static_cast<double>(n);
    }
  }
  return sample;
}

std::unique_ptr<KernelFeatures> PeriodicKernel::DrawFeatures(int num_features, Rng& rng) const {
  return MakeSpectralFeatures(DrawSpectrum(num_features, rng), rng);
}

}  // namespace gpbandit
