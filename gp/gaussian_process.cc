#include "gpbandit/gp/gaussian_process.h"

#include <cmath>
#include <stdexcept>
#include <utility>

#include "gpbandit/numerics/format.h"
#include "numerics/cholesky.h"
#include "numerics/dense_kernels.h"

namespace gpbandit {
namespace {

constexpr double kLog2Pi = 1.8378770664093454835606594728112;

[[noreturn]] void Fail(const std::string& message) {
  throw std::invalid_argument("GaussianProcess: " + message);
}

// (a - b) / unit without overflow in the difference: two finite doubles of opposite signs
// near the largest double differ by more than the largest double.
double ScaledDifference(double a, double b, double unit) {
  const double d = a - b;
  if (std::isfinite(d)) return d / unit;
  return (0.5 * a - 0.5 * b) / (0.5 * unit);
}

// Mean and (population) standard deviation of y, for any finite doubles: y is first scaled by
// the power of two that brings its largest magnitude into [0.5, 1), which is exact, so the
// sums cannot overflow and, away from overflow, the results are bit for bit those of the
// plain formulas.
struct Moments {
  double mean = 0.0;
  double deviation = 0.0;
};

Moments OutputMoments(const Eigen::VectorXd& y) {
  const double largest = y.cwiseAbs().maxCoeff();
  if (!(largest > 0.0)) return Moments();
  int exponent = 0;
  std::frexp(largest, &exponent);
  const Eigen::ArrayXd u =
      y.array().unaryExpr([exponent](double v) { return std::ldexp(v, -exponent); });
  const double mean = u.mean();
  const double deviation = std::sqrt((u - mean).square().sum() / static_cast<double>(y.size()));
  return {std::ldexp(mean, exponent), std::ldexp(deviation, exponent)};
}

}  // namespace

bool GaussianProcessOptions::IsValid(std::string* error) const {
  auto fail = [&](const std::string& m) {
    if (error) *error = m;
    return false;
  };
  if (!(noise_variance >= 0.0) || !std::isfinite(noise_variance))
    return fail("noise_variance must be finite and >= 0, got " + FormatDouble(noise_variance));
  if (!(max_relative_jitter > 0.0 && max_relative_jitter <= 1.0))
    return fail("max_relative_jitter must be in (0, 1], got " + FormatDouble(max_relative_jitter));
  return true;
}

GaussianProcess::GaussianProcess(std::unique_ptr<Kernel> kernel, int input_dim,
                                 const GaussianProcessOptions& options)
    : kernel_(std::move(kernel)), input_dim_(input_dim), options_(options) {
  if (!kernel_) Fail("kernel is null");
  if (input_dim < kernel_->MinInputDim() || input_dim < 1)
    Fail("input_dim = " + std::to_string(input_dim) + " but the kernel " + kernel_->Describe() +
         " needs at least " + std::to_string(std::max(1, kernel_->MinInputDim())));
  std::string error;
  if (!options_.IsValid(&error)) Fail("options." + error);
  noise_variance_ = options_.noise_variance;
  X_.resize(input_dim_, 0);
  y_.resize(0);
  Reserve(16);
}

GaussianProcess::GaussianProcess(const GaussianProcess& other)
    : kernel_(other.kernel_->Clone()),
      input_dim_(other.input_dim_),
      options_(other.options_),
      noise_variance_(other.noise_variance_),
      jitter_(other.jitter_),
      t_(other.t_),
      X_(other.X_),
      y_(other.y_),
      L_(other.L_),
      zy_(other.zy_),
      z1_(other.z1_),
      alpha_(other.alpha_),
      offset_(other.offset_),
      scale_(other.scale_),
      reference_(other.reference_),
      unit_(other.unit_) {}

GaussianProcess& GaussianProcess::operator=(const GaussianProcess& other) {
  if (this != &other) {
    GaussianProcess copy(other);
    *this = std::move(copy);
  }
  return *this;
}

GaussianProcess::GaussianProcess(GaussianProcess&&) noexcept = default;
GaussianProcess& GaussianProcess::operator=(GaussianProcess&&) noexcept = default;
GaussianProcess::~GaussianProcess() = default;

void GaussianProcess::Reserve(int capacity) {
  if (capacity <= L_.cols()) return;
  zy_.conservativeResize(capacity);
  z1_.conservativeResize(capacity);
  Eigen::MatrixXd grown = Eigen::MatrixXd::Zero(capacity, capacity);
  grown.topLeftCorner(t_, t_) = L_.topLeftCorner(t_, t_);
  L_.swap(grown);
}

void GaussianProcess::CheckPoint(const ConstVectorRef& x, const char* field) const {
  if (x.size() != input_dim_)
    Fail(std::string(field) + " has dimension " + std::to_string(x.size()) +
         ", expected input_dim = " + std::to_string(input_dim_));
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x(i)))
      Fail(std::string(field) + "[" + std::to_string(i) + "] = " + FormatDouble(x(i)) +
           " is not finite");
  kernel_->ValidatePoint(x, field);
}

// ---- Data -------------------------------------------------------------------------------------

void GaussianProcess::AddObservation(const ConstVectorRef& x, double y) {
  CheckPoint(x, "x");
  if (!std::isfinite(y)) Fail("y = " + FormatDouble(y) + " is not finite");
  if (t_ == L_.cols()) Reserve(2 * t_);

  // New row of the factor: l = L^-1 k(X, x), pivot^2 = k(x,x) + noise + jitter - |l|^2.
  const Eigen::VectorXd k = kernel_->Cross(X(), x);
  const double kxx = kernel_->Value(x, x);
  Eigen::VectorXd l = k;
  if (t_ > 0) L().solveInPlace(l);
  const double pivot_squared = kxx + NoisePlusJitter() - l.squaredNorm();

  X_.conservativeResize(Eigen::NoChange, t_ + 1);
  y_.conservativeResize(t_ + 1);
  X_.col(t_) = x;
  y_(t_) = y;
  const double scale = std::max(std::abs(kxx) + NoisePlusJitter(), 1e-300);
  if (PivotAcceptable(pivot_squared, scale)) {
    const double pivot = std::sqrt(pivot_squared);
    L_.row(t_).head(t_) = l.transpose();
    L_(t_, t_) = pivot;
    // Transiently non-finite when y is far outside the reference's range; UpdateWeights then
    // takes a new reference and recomputes zy.
    zy_(t_) = (ScaledDifference(y, reference_, unit_) - l.dot(zy_.head(t_))) / pivot;
    z1_(t_) = (1.0 - l.dot(z1_.head(t_))) / pivot;
    ++t_;
  } else {
    // The new point (nearly) duplicates old ones relative to the noise: refactorize with the
    // jitter ladder rather than let a tiny pivot amplify roundoff.
    ++t_;
    RefactorizeOrRollBack(t_ - 1, jitter_);
  }
  UpdateWeights();
}

void GaussianProcess::AddObservations(const Eigen::MatrixXd& X, const Eigen::VectorXd& y) {
  if (X.cols() != y.size())
    Fail("X has " + std::to_string(X.cols()) + " columns but y has " + std::to_string(y.size()) +
         " entries");
  for (Eigen::Index j = 0; j < X.cols(); ++j) {
    CheckPoint(X.col(j), ("X column " + std::to_string(j)).c_str());
    if (!std::isfinite(y(j)))
      Fail("y[" + std::to_string(j) + "] = " + FormatDouble(y(j)) + " is not finite");
  }
  if (X.cols() == 0) return;
  const int old_t = t_;
  const double old_jitter = jitter_;
  Reserve(std::max<int>(2 * L_.cols(), t_ + static_cast<int>(X.cols())));
  X_.conservativeResize(Eigen::NoChange, t_ + X.cols());
  y_.conservativeResize(t_ + y.size());
  X_.rightCols(X.cols()) = X;
  y_.tail(y.size()) = y;
  t_ += static_cast<int>(X.cols());
  RefactorizeOrRollBack(old_t, old_jitter);
  UpdateWeights();
}

void GaussianProcess::RemoveLastObservations(int count) {
  if (count < 0 || count > t_)
    Fail("RemoveLastObservations(count = " + std::to_string(count) + ") with " +
         std::to_string(t_) + " observations");
  // The factor of a leading principal submatrix is the leading block of the factor, and the
  // forward substitutions zy, z1 are prefixes too: dropping the tail is exact.
  t_ -= count;
  X_.conservativeResize(Eigen::NoChange, t_);
  y_.conservativeResize(t_);
  if (t_ == 0) jitter_ = 0.0;
  UpdateWeights();
}

void GaussianProcess::Clear() { RemoveLastObservations(t_); }

Eigen::MatrixXd GaussianProcess::inputs() const { return X_; }
Eigen::VectorXd GaussianProcess::outputs() const { return y_; }
Eigen::VectorXd GaussianProcess::standardized_outputs() const {
  return y_.unaryExpr([this](double y) { return ScaledDifference(y, offset_, scale_); });
}

void GaussianProcess::ScaleOutputs(int exponent) {
  // Every quantity below scales exactly; the factor stays, so zy = L^-1 (y - reference) / unit
  // is unchanged when outputs are standardized, and scales with y when they are not.
  y_ = y_.unaryExpr([exponent](double y) { return std::ldexp(y, exponent); });
  if (options_.standardize_outputs) {
    reference_ = std::ldexp(reference_, exponent);
    unit_ = std::ldexp(unit_, exponent);
  } else {
    zy_.head(t_) = zy_.head(t_).unaryExpr([exponent](double z) { return std::ldexp(z, exponent); });
  }
  UpdateWeights();
}

// ---- Hyperparameters --------------------------------------------------------------------------

void GaussianProcess::SetHyperparameters(const ConstVectorRef& kernel_log_params,
                                         double noise_variance) {
  if (!std::isfinite(noise_variance) || noise_variance < 0.0)
    Fail("noise_variance = " + FormatDouble(noise_variance) + " must be finite and >= 0");
  const Eigen::VectorXd old_params = kernel_->GetLogParams();
  const double old_noise = noise_variance_, old_jitter = jitter_;
  kernel_->SetLogParams(kernel_log_params);  // validates; throws before any change
  noise_variance_ = noise_variance;
  try {
    Refactorize();
  } catch (...) {
    kernel_->SetLogParams(old_params);
    noise_variance_ = old_noise;
    jitter_ = old_jitter;
    Refactorize();
    throw;
  }
  UpdateWeights();
}

void GaussianProcess::RefactorizeOrRollBack(int old_t, double old_jitter) {
  try {
    Refactorize();
  } catch (...) {
    t_ = old_t;
    X_.conservativeResize(Eigen::NoChange, t_);
    y_.conservativeResize(t_);
    jitter_ = old_jitter;
    Refactorize();
    throw;
  }
}

void GaussianProcess::Refactorize() {
  if (t_ == 0) {
    jitter_ = 0.0;
    return;
  }
  Eigen::MatrixXd K = kernel_->Gram(X());
  K.diagonal().array() += noise_variance_;
  JitteredCholesky chol = FactorizeWithJitter(K, options_.max_relative_jitter);
  if (!chol.ok)
    throw std::runtime_error("GaussianProcess: the kernel matrix of " + std::to_string(t_) +
                             " points could not be factorized even with relative jitter " +
                             FormatDouble(options_.max_relative_jitter) +
                             " (non-finite kernel values or hyperparameters?)");
  jitter_ = chol.jitter;
  L_.topLeftCorner(t_, t_) = chol.lower;
  z1_.head(t_).setOnes();
  L().solveInPlace(z1_.head(t_));
  ComputeStandardization();
  SetReference();
}

void GaussianProcess::ComputeStandardization() {
  offset_ = 0.0;
  scale_ = 1.0;
  if (!options_.standardize_outputs || t_ == 0) return;
  const Moments moments = OutputMoments(y_);
  offset_ = moments.mean;
  // Any spread the doubles can represent is signal (a threshold relative to the mean, as
  // before, took rewards like 1e5 + 1e-8 f(x) for constant); only equal outputs get unit scale,
  // as in scikit-learn and BoTorch.
  if (t_ >= 2 && moments.deviation > 0.0) scale_ = moments.deviation;
}

bool GaussianProcess::ReferenceIsStale() const {
  if (!options_.standardize_outputs) return false;
  // zy - d z1 loses about log2(|d| unit / scale) bits to cancellation, and unit / scale far from
  // 1 risks overflow or underflow in zy.
  const double d = ScaledDifference(offset_, reference_, unit_);
  const double ratio = unit_ / scale_;
  constexpr double kMaxUnitRatio = 65536.0;
  return !(std::abs(d) * ratio <= 2.0) || !(ratio <= kMaxUnitRatio && ratio >= 1.0 / kMaxUnitRatio);
}

void GaussianProcess::SetReference() {
  reference_ = 0.0;
  unit_ = 1.0;
  if (options_.standardize_outputs) {
    reference_ = offset_;
    unit_ = std::ldexp(1.0, std::ilogb(scale_));  // a power of two: dividing by it is exact
  }
  zy_.head(t_) = y_.unaryExpr([this](double y) { return ScaledDifference(y, reference_, unit_); });
  if (t_ > 0) L().solveInPlace(zy_.head(t_));
}

double GaussianProcess::Destandardize(double z) const {
  const double value = offset_ + scale_ * z;
  if (std::isfinite(value)) return value;
  // scale * z may overflow where offset + scale * z does not (rewards near the largest double).
  return 2.0 * (0.5 * offset_ + (0.5 * scale_) * z);
}

Eigen::VectorXd GaussianProcess::ForwardStandardizedOutputs() const {
  // L^-1 y_std = L^-1 ((y - reference) / unit - d) * unit / scale, d = (offset - reference) / unit.
  const double d = ScaledDifference(offset_, reference_, unit_);
  return (zy_.head(t_) - d * z1_.head(t_)) * (unit_ / scale_);
}

double GaussianProcess::GeneralizedLeastSquaresMean() const {
  // zy = L^-1 (y - reference) / unit and z1 = L^-1 1, so 1^T C^-1 (y - reference) / unit =
  // z1 . zy and 1^T C^-1 1 = |z1|^2 > 0 (C is positive definite).
  return reference_ + unit_ * (z1_.head(t_).dot(zy_.head(t_)) / z1_.head(t_).squaredNorm());
}

void GaussianProcess::UpdateWeights() {
  ComputeStandardization();
  if (ReferenceIsStale()) SetReference();  // O(t^2), rare: the outputs moved or changed scale
  if (options_.standardize_outputs && t_ > 0 &&
      options_.prior_mean == PriorMeanEstimate::kGeneralizedLeastSquares) {
    // From zy around a reference near the sample mean (finite); a GLS mean far from it moves the
    // reference there, for zy's accuracy, and is recomputed from the new zy.
    offset_ = GeneralizedLeastSquaresMean();
    if (ReferenceIsStale()) {
      SetReference();
      offset_ = GeneralizedLeastSquaresMean();
    }
  }
  alpha_ = ForwardStandardizedOutputs();
  if (t_ > 0) LT().solveInPlace(alpha_);
}

// ---- Predictions ------------------------------------------------------------------------------

double GaussianProcess::Mean(const ConstVectorRef& x) const {
  CheckPoint(x, "x");
  if (t_ == 0) return offset_;
  thread_local KernelPointCache cache;
  kernel_->CrossWithPoint(x, X_, false, &cache);
  return Destandardize(cache.values.dot(alpha_));
}

double GaussianProcess::Variance(const ConstVectorRef& x) const {
  double mean, variance;
  MeanAndVariance(x, &mean, &variance);
  return variance;
}

void GaussianProcess::MeanAndVariance(const ConstVectorRef& x, double* mean, double* variance,
                                      Eigen::VectorXd* mean_gradient,
                                      Eigen::VectorXd* variance_gradient) const {
  CheckPoint(x, "x");
  const double kxx = kernel_->Value(x, x);
  const double s2 = scale_ * scale_;
  // Per-thread work: this runs thousands of times per round at the same t, and fresh vectors
  // cost a fifth of a call. The kernel vector and all gradients come from one pass of the
  // kernel's CrossWithPoint (one exponential per observation and part for the kernels shipped),
  // instead of Cross plus 2 t virtual AccumulateGradientA calls.
  thread_local KernelPointCache cache;
  thread_local Eigen::VectorXd v, w;
  double latent_variance = kxx;
  const bool any_gradient = mean_gradient != nullptr || variance_gradient != nullptr;
  if (t_ > 0) {
    kernel_->CrossWithPoint(x, X_, any_gradient, &cache);
    v = cache.values;
    LowerSolveVectorInPlace(L_.topLeftCorner(t_, t_), v);
    latent_variance = kxx - v.squaredNorm();
  }
  const bool clamped = latent_variance <= 0.0;
  if (mean) *mean = t_ > 0 ? Destandardize(cache.values.dot(alpha_)) : offset_;
  if (variance) *variance = clamped ? 0.0 : s2 * latent_variance;

  if (mean_gradient) mean_gradient->setZero(input_dim_);
  if (variance_gradient) {
    // d k(x, x) / dx = 2 d k(a, b) / da at a = b = x for a symmetric kernel.
    variance_gradient->setZero(input_dim_);
    if (!clamped) kernel_->AccumulateGradientA(x, x, 2.0 * s2, *variance_gradient);
  }
  if (t_ == 0 || !any_gradient) return;
  // d var / dx = d k(x,x)/dx - 2 sum_i w_i d k(x, x_i)/dx with w = K^-1 k = L^-T v.
  if (mean_gradient)
    kernel_->AccumulateWeightedGradientA(x, X_, cache, alpha_, scale_, *mean_gradient);
  if (variance_gradient && !clamped) {
    w = v;
    LowerTransposeSolveInPlace(L_.topLeftCorner(t_, t_), w);
    kernel_->AccumulateWeightedGradientA(x, X_, cache, w, -2.0 * s2, *variance_gradient);
  }
}

Eigen::VectorXd GaussianProcess::MeansAtObservations() const {
  if (t_ == 0) return Eigen::VectorXd();
  // The latent mean at x_i is (K alpha)_i, and (K + (noise + jitter) I) alpha = y_std.
  return (standardized_outputs() - NoisePlusJitter() * alpha_).unaryExpr([this](double z) {
    return Destandardize(z);
  });
}

void GaussianProcess::Predict(const Eigen::MatrixXd& Xs, Eigen::VectorXd* means,
                              Eigen::VectorXd* variances) const {
  if (Xs.rows() != input_dim_)
    Fail("points have dimension " + std::to_string(Xs.rows()) +
         ", expected input_dim = " + std::to_string(input_dim_));
  for (Eigen::Index j = 0; j < Xs.cols(); ++j) CheckPoint(Xs.col(j), "points column");
  const Eigen::Index m = Xs.cols();
  if (t_ == 0) {
    if (means) means->setConstant(m, offset_);
    if (variances) *variances = (scale_ * scale_) * kernel_->Diagonal(Xs).cwiseMax(0.0);
    return;
  }
  Eigen::MatrixXd Ks = kernel_->Cross(X(), Xs);  // t x m
  if (means) {
    *means = Ks.transpose() * alpha_;
    *means = means->unaryExpr([this](double z) { return Destandardize(z); });
  }
  if (variances) {
    // Ks is not needed after the means: the solve overwrites it instead of a copy.
    // One multi-right-hand-side triangular solve: V = L^-1 Ks.
    LowerTriangularSolveInPlace(L_.topLeftCorner(t_, t_), Ks);
    *variances = ((kernel_->Diagonal(Xs) - Ks.colwise().squaredNorm().transpose()).cwiseMax(0.0)) *
                 (scale_ * scale_);
  }
}

double GaussianProcess::Covariance(const ConstVectorRef& a, const ConstVectorRef& b,
                                   Eigen::VectorXd* gradient_a) const {
  CheckPoint(a, "a");
  CheckPoint(b, "b");
  const double s2 = scale_ * scale_;
  double cov = kernel_->Value(a, b);
  if (gradient_a) {
    gradient_a->setZero(input_dim_);
    kernel_->AccumulateGradientA(a, b, s2, *gradient_a);
  }
  if (t_ == 0) return s2 * cov;
  Eigen::VectorXd ka = kernel_->Cross(X(), a).col(0);
  Eigen::VectorXd wb = kernel_->Cross(X(), b).col(0);
  L().solveInPlace(ka);
  L().solveInPlace(wb);
  cov -= ka.dot(wb);
  if (gradient_a) {
    LT().solveInPlace(wb);  // now K^-1 k(X, b)
    for (int i = 0; i < t_; ++i)
      kernel_->AccumulateGradientA(a, X_.col(i), -s2 * wb(i), *gradient_a);
  }
  return s2 * cov;
}

Eigen::MatrixXd GaussianProcess::Covariance(const Eigen::MatrixXd& Xs) const {
  if (Xs.rows() != input_dim_)
    Fail("points have dimension " + std::to_string(Xs.rows()) +
         ", expected input_dim = " + std::to_string(input_dim_));
  for (Eigen::Index j = 0; j < Xs.cols(); ++j) CheckPoint(Xs.col(j), "points column");
  Eigen::MatrixXd C = kernel_->Gram(Xs);
  if (t_ > 0) {
    Eigen::MatrixXd V = kernel_->Cross(X(), Xs);
    LowerTriangularSolveInPlace(L_.topLeftCorner(t_, t_), V);
    C.noalias() -= V.transpose() * V;
  }
  return (scale_ * scale_) * C;
}

Eigen::MatrixXd GaussianProcess::CrossCovariance(const Eigen::MatrixXd& A,
                                                 const Eigen::MatrixXd& B) const {
  for (const Eigen::MatrixXd* points : {&A, &B}) {
    if (points->rows() != input_dim_)
      Fail("points have dimension " + std::to_string(points->rows()) +
           ", expected input_dim = " + std::to_string(input_dim_));
    for (Eigen::Index j = 0; j < points->cols(); ++j) CheckPoint(points->col(j), "points column");
  }
  Eigen::MatrixXd C = kernel_->Cross(A, B);
  // An empty A or B: nothing to solve (Eigen's triangular solve binds a reference to the first
  // coefficient even of an empty right-hand side).
  if (t_ > 0 && A.cols() > 0 && B.cols() > 0) {
    Eigen::MatrixXd VA = kernel_->Cross(X(), A);
    Eigen::MatrixXd VB = kernel_->Cross(X(), B);
    LowerTriangularSolveInPlace(L_.topLeftCorner(t_, t_), VA);
    LowerTriangularSolveInPlace(L_.topLeftCorner(t_, t_), VB);
    C.noalias() -= VA.transpose() * VB;
  }
  return (scale_ * scale_) * C;
}

Eigen::MatrixXd GaussianProcess::SampleJoint(const Eigen::MatrixXd& Xs, int num_samples,
                                             Rng& rng) const {
  if (num_samples < 0) Fail("num_samples = " + std::to_string(num_samples) + " must be >= 0");
  Eigen::VectorXd means;
  Predict(Xs, &means, nullptr);
  const JitteredCholesky chol = FactorizeWithJitter(Covariance(Xs), 1e-2);
  if (!chol.ok)
    throw std::runtime_error("GaussianProcess::SampleJoint: posterior covariance not factorizable");
  Eigen::MatrixXd samples =
      chol.lower * StandardNormalMatrix(static_cast<int>(Xs.cols()), num_samples, rng);
  samples.colwise() += means;
  return samples;
}

// ---- Information ------------------------------------------------------------------------------

double GaussianProcess::InformationGain() const {
  if (t_ == 0) return 0.0;
  // Each pivot L_ii^2 = noise + sigma_{i-1}^2(x_i): the gain is sum log L_ii - t/2 log noise.
  // Zero noise makes the gain infinite; the floor keeps it finite and large.
  const double noise = std::max(NoisePlusJitter(), 1e-12);
  return L_.diagonal().head(t_).array().log().sum() - 0.5 * t_ * std::log(noise);
}

Eigen::VectorXd GaussianProcess::SequentialVariances() const {
  const Eigen::ArrayXd pivots = L_.diagonal().head(t_).array();
  return (pivots.square() - NoisePlusJitter()).max(0.0).matrix();
}

double GaussianProcess::LogMarginalLikelihood() const {
  if (t_ == 0) return 0.0;
  const Eigen::VectorXd z = ForwardStandardizedOutputs();
  return -0.5 * z.squaredNorm() - L_.diagonal().head(t_).array().log().sum() - 0.5 * t_ * kLog2Pi;
}

}  // namespace gpbandit
