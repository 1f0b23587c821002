#include "gpbandit/kernel/stationary_kernel.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "numerics/parallel_for.h"
#include "numerics/vector_exp.h"

namespace gpbandit {
namespace {

// Beyond this squared scaled distance every profile and slope below is 0 in double
// (exp(-sqrt(1e7)) underflows; Eigen's vectorized exp saturates at a denormal instead), so
// clamping there keeps huge or overflowing distances from turning into inf * 0 = NaN in the
// gradients.
constexpr double kMaxSquaredDistance = 1e7;
// Below this many points a parallel region costs more than it saves.
constexpr Eigen::Index kMinParallelSize = 64;

// The threads a loop over n points gets: num_threads from n = kMinParallelSize on, else one.
int ParallelThreads(int num_threads, Eigen::Index n) {
  return n >= kMinParallelSize ? num_threads : 1;
}

const double kSqrt3 = std::sqrt(3.0);
const double kSqrt5 = std::sqrt(5.0);

// Column boundaries b_0 = 0 < ... < b_parts = n that split the lower triangle of an n x n
// matrix (column j holds n - j entries) into `parts` pieces of about equal area. Depends on n
// and parts only.
std::vector<Eigen::Index> LowerTriangleChunks(Eigen::Index n, int parts) {
  std::vector<Eigen::Index> bounds(static_cast<std::size_t>(parts) + 1, n);
  bounds[0] = 0;
  for (int c = 1; c < parts; ++c) {
    // Columns from b on hold (n - b)^2 / 2 entries: leave (1 - c / parts) of the area there.
    const double rest = static_cast<double>(n) * std::sqrt(1.0 - static_cast<double>(c) / parts);
    const auto at = static_cast<std::size_t>(c);
    bounds[at] = std::clamp<Eigen::Index>(n - static_cast<Eigen::Index>(std::llround(rest)),
                                          bounds[at - 1], n);
  }
  return bounds;
}

// The profile f with k = s2 f(r), as a function of r^2.
double Profile(StationaryFamily family, double r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return std::exp(-0.5 * r2);
    case StationaryFamily::kMatern12:
      return std::exp(-std::sqrt(r2));
    case StationaryFamily::kMatern32: {
      const double s = kSqrt3 * std::sqrt(r2);
      return (1.0 + s) * std::exp(-s);
    }
    case StationaryFamily::kMatern52: {
      const double s = kSqrt5 * std::sqrt(r2);
      return (1.0 + s + s * s / 3.0) * std::exp(-s);
    }
  }
  return 0.0;
}

// The slope h = -f'(r) / r >= 0. Every derivative is a multiple of it: dk/da = -s2 h (a-b)/l^2
// and dk/dlog l_k = s2 h d_k^2. Dividing by r analytically keeps Matern-3/2, 5/2 and SE
// regular at r = 0; Matern-1/2 has h = exp(-r) / r there, set to 0 (its symmetric subgradient).
double Slope(StationaryFamily family, double r2) {
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      return std::exp(-0.5 * r2);
    case StationaryFamily::kMatern12: {
      const double r = std::sqrt(r2);
      return r > 0.0 ? std::exp(-r) / r : 0.0;
    }
    case StationaryFamily::kMatern32:
      return 3.0 * std::exp(-kSqrt3 * std::sqrt(r2));
    case StationaryFamily::kMatern52: {
      const double s = kSqrt5 * std::sqrt(r2);
      return (5.0 / 3.0) * (1.0 + s) * std::exp(-s);
    }
  }
  return 0.0;
}

// Per-thread scratch of n doubles (grown, never shrunk). The profiles below run once per
// kernel column and once per acquisition evaluation: fresh temporaries there cost as much as
// the arithmetic.
Eigen::Map<Eigen::ArrayXd> Scratch(int slot, Eigen::Index n) {
  thread_local std::vector<double> buffers[2];
  std::vector<double>& buffer = buffers[slot];
  if (static_cast<Eigen::Index>(buffer.size()) < n) buffer.resize(static_cast<std::size_t>(n));
  return Eigen::Map<Eigen::ArrayXd>(buffer.data(), n);
}

// The profile f(r) over n (clamped) squared distances r2, into f (which may be r2 itself). The
// exponentials run through ExpOfScaledInto, four per instruction where the CPU can, with the
// bits of Eigen's own expression.
void ProfileInto(StationaryFamily family, const double* r2_data, Eigen::Index n, double* f_data) {
  const Eigen::Map<const Eigen::ArrayXd> r2(r2_data, n);
  Eigen::Map<Eigen::ArrayXd> f(f_data, n);
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      ExpOfScaledInto(-0.5, r2_data, n, f_data);
      return;
    case StationaryFamily::kMatern12:
      f = r2.sqrt();
      ExpOfScaledInto(-1.0, f_data, n, f_data);
      return;
    case StationaryFamily::kMatern32: {
      Eigen::Map<Eigen::ArrayXd> s = Scratch(0, n);
      s = kSqrt3 * r2.sqrt();
      ExpOfScaledInto(-1.0, s.data(), n, f_data);
      f *= 1.0 + s;
      return;
    }
    case StationaryFamily::kMatern52: {
      Eigen::Map<Eigen::ArrayXd> s = Scratch(0, n);
      s = kSqrt5 * r2.sqrt();
      ExpOfScaledInto(-1.0, s.data(), n, f_data);
      f *= 1.0 + s + s.square() / 3.0;
      return;
    }
  }
}

// Profile and slope over n squared distances, sharing the exponential. f may be r2 itself
// (r2 is read in full before f is written); h may not.
void ProfileAndSlopeInto(StationaryFamily family, const double* r2_data, Eigen::Index n,
                         double* f_data, double* h_data) {
  const Eigen::Map<const Eigen::ArrayXd> r2(r2_data, n);
  Eigen::Map<Eigen::ArrayXd> f(f_data, n), h(h_data, n);
  switch (family) {
    case StationaryFamily::kSquaredExponential:
      ExpOfScaledInto(-0.5, r2_data, n, f_data);
      h = f;
      return;
    case StationaryFamily::kMatern12: {
      Eigen::Map<Eigen::ArrayXd> r = Scratch(0, n);
      r = r2.sqrt();
      ExpOfScaledInto(-1.0, r.data(), n, f_data);
      h = (r > 0.0).select(f / r, 0.0);
      return;
    }
    case StationaryFamily::kMatern32: {
      Eigen::Map<Eigen::ArrayXd> s = Scratch(0, n), e = Scratch(1, n);
      s = kSqrt3 * r2.sqrt();
      ExpOfScaledInto(-1.0, s.data(), n, e.data());
      f = (1.0 + s) * e;
      h = 3.0 * e;
      return;
    }
    case StationaryFamily::kMatern52: {
      Eigen::Map<Eigen::ArrayXd> s = Scratch(0, n), e = Scratch(1, n);
      s = kSqrt5 * r2.sqrt();
      ExpOfScaledInto(-1.0, s.data(), n, e.data());
      f = (1.0 + s + s.square() / 3.0) * e;
      h = (5.0 / 3.0) * (1.0 + s) * e;
      return;
    }
  }
}

// Copies the lower triangle onto the upper, tile by tile so that the transposed reads stay in
// cache.
void MirrorLowerTriangle(Eigen::MatrixXd* matrix) {
  Eigen::MatrixXd& K = *matrix;
  const Eigen::Index n = K.rows();
  constexpr Eigen::Index kTile = 64;
  for (Eigen::Index j0 = 0; j0 < n; j0 += kTile) {
    for (Eigen::Index i0 = 0; i0 <= j0; i0 += kTile) {
      const Eigen::Index j_end = std::min(n, j0 + kTile);
      for (Eigen::Index j = j0; j < j_end; ++j) {
        const Eigen::Index i_end = std::min(j, i0 + kTile);
        for (Eigen::Index i = i0; i < i_end; ++i) K(i, j) = K(j, i);
      }
    }
  }
}

}  // namespace

StationaryKernel::StationaryKernel(StationaryFamily family, std::vector<int> dims, bool ard,
                                   double variance, double lengthscale)
    : family_(family), dims_(std::move(dims)), ard_(ard) {
  const std::string who = "StationaryKernel(" + Name() + ")";
  CheckDims(who, dims_);
  CheckPositive(who, "variance", variance);
  CheckPositive(who, "lengthscale", lengthscale);
  log_params_.resize(NumParams());
  log_params_(0) = std::log(variance);
  log_params_.tail(NumParams() - 1).setConstant(std::log(lengthscale));
  UpdateDerived();
}

void StationaryKernel::UpdateDerived() {
  variance_ = ExpOfLogParam(log_params_(0));
  inv_lengthscales_.resize(dims_.size());
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    inv_lengthscales_(k) = 1.0 / ExpOfLogParam(log_params_(ard_ ? 1 + k : 1));
  }
}

double StationaryKernel::variance() const { return variance_; }

Eigen::VectorXd StationaryKernel::lengthscales() const {
  return log_params_.tail(NumParams() - 1).unaryExpr([](double v) { return ExpOfLogParam(v); });
}

std::unique_ptr<Kernel> StationaryKernel::Clone() const {
  return std::make_unique<StationaryKernel>(*this);
}

std::string StationaryKernel::Name() const {
  switch (family_) {
    case StationaryFamily::kSquaredExponential:
      return "se";
    case StationaryFamily::kMatern12:
      return "matern12";
    case StationaryFamily::kMatern32:
      return "matern32";
    case StationaryFamily::kMatern52:
      return "matern52";
  }
  return "stationary";
}

std::string StationaryKernel::Describe() const {
  return Name() + "(dims=" + FormatDims(dims_) + (ard_ ? "; ard)" : "; shared)");
}

int StationaryKernel::MinInputDim() const {
  int max_dim = -1;
  for (int d : dims_) max_dim = std::max(max_dim, d);
  return max_dim + 1;
}

std::vector<int> StationaryKernel::InputDims() const { return dims_; }

int StationaryKernel::NumParams() const { return 1 + (ard_ ? static_cast<int>(dims_.size()) : 1); }

Eigen::VectorXd StationaryKernel::GetLogParams() const { return log_params_; }

void StationaryKernel::SetLogParams(const ConstVectorRef& log_params) {
  CheckLogParams(Describe(), NumParams(), log_params);
  log_params_ = log_params;
  UpdateDerived();
}

std::vector<ParamKind> StationaryKernel::ParamKinds() const {
  std::vector<ParamKind> kinds(static_cast<std::size_t>(NumParams()), ParamKind::kLengthscale);
  kinds[0] = ParamKind::kSignalVariance;
  return kinds;
}

std::vector<std::string> StationaryKernel::ParamNames() const {
  std::vector<std::string> names{Name() + ".log_variance"};
  if (ard_) {
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      names.push_back(Name() + ".log_lengthscale[" + std::to_string(k) + "]");
    }
  } else {
    names.push_back(Name() + ".log_lengthscale");
  }
  return names;
}

double StationaryKernel::ScaledSquaredDistance(const ConstVectorRef& a,
                                               const ConstVectorRef& b) const {
  double r2 = 0.0;
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double d = (a(dims_[k]) - b(dims_[k])) * inv_lengthscales_(k);
    r2 += d * d;
  }
  return r2;
}

double StationaryKernel::Value(const ConstVectorRef& a, const ConstVectorRef& b) const {
  return variance_ * Profile(family_, std::min(ScaledSquaredDistance(a, b), kMaxSquaredDistance));
}

void StationaryKernel::AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b,
                                           double scale, VectorRef grad) const {
  const double r2 = ScaledSquaredDistance(a, b);
  if (!(r2 < kMaxSquaredDistance)) return;  // k and its gradient are 0 out there
  // dk/da_k = -s2 h (a_k - b_k) / l_k^2.
  const double factor = -scale * variance_ * Slope(family_, r2);
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const double inv_l2 = inv_lengthscales_(k) * inv_lengthscales_(k);
    grad(dims_[k]) += factor * (a(dims_[k]) - b(dims_[k])) * inv_l2;
  }
}

void StationaryKernel::GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                                         VectorRef grad) const {
  const double r2 = ScaledSquaredDistance(a, b);
  grad.setZero();
  if (!(r2 < kMaxSquaredDistance)) return;
  grad(0) = variance_ * Profile(family_, r2);
  // dk/dlog l_k = s2 h d_k^2 (ARD), s2 h r^2 (shared).
  const double factor = variance_ * Slope(family_, r2);
  if (ard_) {
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      const double d = (a(dims_[k]) - b(dims_[k])) * inv_lengthscales_(k);
      grad(1 + k) = factor * d * d;
    }
  } else {
    grad(1) = factor * r2;
  }
}

Eigen::VectorXd StationaryKernel::Center(const Eigen::MatrixXd& X) const {
  const int m = static_cast<int>(dims_.size());
  Eigen::VectorXd center = Eigen::VectorXd::Zero(m);
  if (X.cols() == 0) return center;
  // The midpoint of the range, halved before adding so that it cannot overflow.
  for (int k = 0; k < m; ++k) {
    center(k) = 0.5 * X.row(dims_[k]).minCoeff() + 0.5 * X.row(dims_[k]).maxCoeff();
  }
  return center;
}

Eigen::MatrixXd StationaryKernel::Scaled(const Eigen::MatrixXd& X,
                                         const Eigen::VectorXd& center) const {
  const int m = static_cast<int>(dims_.size());
  Eigen::MatrixXd U(m, X.cols());
  // Centering before scaling: differences of centered coordinates are as exact as those of the
  // raw ones, and |u|^2 + |v|^2 - 2 u.v cancels far less near the center.
  for (int k = 0; k < m; ++k) {
    U.row(k) = (X.row(dims_[k]).array() - center(k)).matrix() * inv_lengthscales_(k);
  }
  return U;
}

Eigen::MatrixXd StationaryKernel::SquaredDistances(const Eigen::MatrixXd& A,
                                                   const Eigen::MatrixXd& B, bool same) const {
  Eigen::MatrixXd R2;
  SquaredDistancesInto(A, B, same, &R2);
  return R2;
}

void StationaryKernel::SquaredDistancesInto(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                            bool same, Eigen::MatrixXd* out) const {
  if (A.rows() < MinInputDim() || B.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": points have " + std::to_string(A.rows()) + " and " +
                                std::to_string(B.rows()) + " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  // One center for both sets, so that differences are unchanged.
  const Eigen::VectorXd center = Center(A);
  const Eigen::MatrixXd U = Scaled(A, center);
  // For a Gram matrix V is U itself (a reference, not a copy).
  Eigen::MatrixXd scaled_b;
  if (!same) scaled_b = Scaled(B, center);
  const Eigen::MatrixXd& V = same ? U : scaled_b;
  const Eigen::ArrayXd u_norms = U.colwise().squaredNorm().transpose().array();
  const Eigen::ArrayXd v_norms = V.colwise().squaredNorm().transpose().array();
  Eigen::MatrixXd& R2 = *out;
  if (same) {
    // A symmetric rank-m update: half the flops of a general product. Eigen's update reads
    // through the data pointer even when there is nothing to add: an empty batch (or a kernel
    // on zero dims) is all zeros as it stands.
    R2.setZero(U.cols(), U.cols());
    if (U.size() > 0) R2.selfadjointView<Eigen::Lower>().rankUpdate(U.transpose(), -2.0);
  } else {
    R2.noalias() = -2.0 * U.transpose() * V;
  }
  const Eigen::Index n = R2.rows();
  for (Eigen::Index j = 0; j < R2.cols(); ++j) {
    const Eigen::Index first = same ? j : 0;
    auto column = R2.col(j).segment(first, n - first).array();
    column += u_norms.segment(first, n - first) + v_norms(j);
    if (!column.allFinite()) {
      // Norms overflow only when the scaled points spread over more than ~1e154; recompute the
      // affected entries from raw differences (which can overflow to +inf but never give NaN).
      for (Eigen::Index i = first; i < n; ++i) {
        if (std::isfinite(R2(i, j))) continue;
        double r2 = 0.0;
        for (std::size_t k = 0; k < dims_.size(); ++k) {
          const double d = (A(dims_[k], i) - B(dims_[k], j)) * inv_lengthscales_(k);
          r2 += d * d;
        }
        R2(i, j) = r2;
      }
    }
    column = column.max(0.0).min(kMaxSquaredDistance);
    if (same) R2(j, j) = 0.0;
  }
}

Eigen::MatrixXd StationaryKernel::Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const {
  // &A == &B when called through Kernel::Gram: then only the lower triangle is computed, the
  // diagonal is exactly r = 0 and the result exactly symmetric.
  const bool same = &A == &B;
  Eigen::MatrixXd K = SquaredDistances(A, B, same);
  const double s2 = variance();
  const Eigen::Index n = K.rows();
  for (Eigen::Index j = 0; j < K.cols(); ++j) {
    const Eigen::Index first = same ? j : 0;
    double* column = K.col(j).data() + first;
    ProfileInto(family_, column, n - first, column);
    K.col(j).segment(first, n - first) *= s2;
  }
  if (same) MirrorLowerTriangle(&K);
  return K;
}

void StationaryKernel::GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram,
                                    KernelGramCache* parts, int num_threads) const {
  SquaredDistancesInto(X, X, true, &parts->squared_distances);
  const Eigen::MatrixXd& R2 = parts->squared_distances;
  const Eigen::Index n = X.cols();
  const double s2 = variance();
  Eigen::MatrixXd& K = *gram;
  K.resize(n, n);
  parts->slopes.resize(n, n);
  // Every column is computed alone, so any schedule gives the same matrices.
  const auto column = [&](Eigen::Index j) {
    const Eigen::Index len = n - j;
    ProfileAndSlopeInto(family_, R2.col(j).data() + j, len, K.col(j).data() + j,
                        parts->slopes.col(j).data() + j);
    K.col(j).segment(j, len) *= s2;
  };
  ForEachIndex(ParallelThreads(num_threads, n), Eigen::Index{0}, n, column, 16);
  MirrorLowerTriangle(&K);
}

void StationaryKernel::ValuesAndSlopes(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                       Eigen::VectorXd* values, Eigen::VectorXd* slopes) const {
  const Eigen::Index n = X.cols();
  // r^2 is accumulated in *values and turned into the profile in place: with the caller's
  // vectors already of size n, nothing is allocated.
  values->setZero(n);
  Eigen::ArrayXd::MapType r2 = Eigen::ArrayXd::Map(values->data(), n);
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const int i = dims_[k];
    r2 += ((X.row(i).transpose().array() - x(i)) * inv_lengthscales_(k)).square();
  }
  r2 = r2.min(kMaxSquaredDistance);
  if (slopes != nullptr) {
    slopes->resize(n);
    ProfileAndSlopeInto(family_, values->data(), n, values->data(), slopes->data());
  } else {
    ProfileInto(family_, values->data(), n, values->data());
  }
  *values *= variance_;
}

void StationaryKernel::AccumulateWeightedGradientA(const ConstVectorRef& x,
                                                   const Eigen::MatrixXd& X,
                                                   const Eigen::VectorXd& slopes,
                                                   const Eigen::VectorXd& c, double c_scale,
                                                   VectorRef grad) const {
  // The weights c_j h_j once for all dims; then per dim four partial sums over the columns
  // (j mod 4), so that consecutive columns do not wait on each other's additions, as one
  // running sum along a row of X (read with a stride, so not vectorized) would.
  const Eigen::Index n = X.cols(), ld = X.rows();
  thread_local Eigen::VectorXd weights;
  weights = c.cwiseProduct(slopes);
  const double* p = weights.data();
  for (std::size_t k = 0; k < dims_.size(); ++k) {
    const int i = dims_[k];
    const double xi = x(i);
    const double* row = X.data() + i;
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    Eigen::Index j = 0;
    for (; j + 4 <= n; j += 4) {
      s0 += (xi - row[j * ld]) * p[j];
      s1 += (xi - row[(j + 1) * ld]) * p[j + 1];
      s2 += (xi - row[(j + 2) * ld]) * p[j + 2];
      s3 += (xi - row[(j + 3) * ld]) * p[j + 3];
    }
    for (; j < n; ++j) s0 += (xi - row[j * ld]) * p[j];
    const double inv_l2 = inv_lengthscales_(k) * inv_lengthscales_(k);
    grad(i) -= c_scale * variance_ * inv_l2 * ((s0 + s1) + (s2 + s3));
  }
}

void StationaryKernel::CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                      bool for_gradient, KernelPointCache* cache) const {
  ValuesAndSlopes(x, X, &cache->values, for_gradient ? &cache->slopes : nullptr);
}

void StationaryKernel::AccumulateWeightedGradientA(const ConstVectorRef& x,
                                                   const Eigen::MatrixXd& X,
                                                   const KernelPointCache& cache,
                                                   const Eigen::VectorXd& c, double c_scale,
                                                   VectorRef grad) const {
  AccumulateWeightedGradientA(x, X, cache.slopes, c, c_scale, grad);
}

SpectralSample StationaryKernel::DrawSpectrum(int num_features, Rng& rng) const {
  CheckNumFeatures(*this, num_features);
  const int d = static_cast<int>(dims_.size());
  // The Matern smoothness nu; 0 stands for SE (a normal spectral density).
  const double nu = family_ == StationaryFamily::kMatern12   ? 0.5
                    : family_ == StationaryFamily::kMatern32 ? 1.5
                    : family_ == StationaryFamily::kMatern52 ? 2.5
                                                             : 0.0;
  SpectralSample sample;
  sample.variance = variance_;
  sample.dims = dims_;
  sample.frequencies = StandardNormalMatrix(d, num_features, rng);
  if (nu > 0.0) {
    std::gamma_distribution<double> gamma(nu, 1.0 / nu);
    for (int j = 0; j < num_features; ++j) sample.frequencies.col(j) /= std::sqrt(gamma(rng));
  }
  const Eigen::VectorXd l = lengthscales();
  for (int i = 0; i < d; ++i) sample.frequencies.row(i) /= l.size() == 1 ? l(0) : l(i);
  return sample;
}

std::unique_ptr<KernelFeatures> StationaryKernel::DrawFeatures(int num_features, Rng& rng) const {
  return MakeSpectralFeatures(DrawSpectrum(num_features, rng), rng);
}

Eigen::VectorXd StationaryKernel::Diagonal(const Eigen::MatrixXd& X) const {
  if (X.rows() < MinInputDim()) {
    throw std::invalid_argument(Describe() + ": X has " + std::to_string(X.rows()) +
                                " rows, the kernel needs at least " +
                                std::to_string(MinInputDim()));
  }
  return Eigen::VectorXd::Constant(X.cols(), variance());
}

Eigen::VectorXd StationaryKernel::ContractGradientLogParams(const Eigen::MatrixXd& X,
                                                            const Eigen::MatrixXd& W) const {
  KernelGramCache parts;
  Eigen::MatrixXd K;
  GramAndParts(X, &K, &parts);
  return ContractGradientLogParamsFromParts(X, W, K, parts);
}

Eigen::VectorXd StationaryKernel::ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                                     const Eigen::MatrixXd& W,
                                                                     const Eigen::MatrixXd& gram,
                                                                     const KernelGramCache& parts,
                                                                     int num_threads) const {
  const Eigen::Index n = X.cols();
  const std::string expected = ", expected " + std::to_string(n) + " x " + std::to_string(n);
  CheckContractionWeights(Describe(), X, W);
  if (gram.rows() != n || gram.cols() != n || parts.slopes.rows() != n ||
      parts.slopes.cols() != n || parts.squared_distances.rows() != n ||
      parts.squared_distances.cols() != n) {
    throw std::invalid_argument(Describe() + ": gram is " + std::to_string(gram.rows()) + " x " +
                                std::to_string(gram.cols()) + " and the parts " +
                                std::to_string(parts.slopes.rows()) + " x " +
                                std::to_string(parts.slopes.cols()) + expected +
                                " (from GramAndParts of the same X)");
  }
  const Eigen::MatrixXd U = Scaled(X, Center(X));
  const int m = static_cast<int>(U.rows());
  const double s2 = variance();
  const std::vector<Eigen::Index> bounds = LowerTriangleChunks(n, kContractionChunks);
  Eigen::MatrixXd partial = Eigen::MatrixXd::Zero(NumParams(), kContractionChunks);
  const auto contract_chunk = [&](int c) {
    auto grad = partial.col(c);
    Eigen::ArrayXd weight_storage(n), mh_storage(n);
    for (Eigen::Index j = bounds[c]; j < bounds[c + 1]; ++j) {
      const Eigen::Index len = n - j;
      auto weight = weight_storage.head(len);
      auto mh = mh_storage.head(len);
      // Pair (i, j), i > j, stands for both W(i, j) and W(j, i): k is symmetric.
      weight = W.col(j).segment(j, len).array() + W.row(j).segment(j, len).transpose().array();
      weight(0) = W(j, j);
      // dk/dlog s2 = k; on the diagonal k = s2 (gram's diagonal may carry noise).
      grad(0) += (weight.tail(len - 1) * gram.col(j).segment(j + 1, len - 1).array()).sum() +
                 weight(0) * s2;
      // dk/dlog l_k = s2 h d_k^2 (ARD) or s2 h r^2 (shared).
      mh = weight * parts.slopes.col(j).segment(j, len).array();
      if (ard_) {
        for (int k = 0; k < m; ++k) {
          // Where h != 0 every d_k^2 < kMaxSquaredDistance, so the clamp only removes the
          // inf * 0 of pairs too far apart to matter.
          const auto u = U.row(k).segment(j, len).transpose().array();
          grad(1 + k) += (mh * (u - U(k, j)).square().min(kMaxSquaredDistance)).sum();
        }
      } else {
        grad(1) += (mh * parts.squared_distances.col(j).segment(j, len).array()).sum();
      }
    }
  };
  ForEachIndex(ParallelThreads(num_threads, n), 0, kContractionChunks, contract_chunk);
  // The chunks' sums in a fixed order: the same for any thread count.
  Eigen::VectorXd grad = partial.col(0);
  for (int c = 1; c < kContractionChunks; ++c) grad += partial.col(c);
  grad.tail(NumParams() - 1) *= s2;
  return grad;
}

}  // namespace gpbandit
