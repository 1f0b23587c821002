#include "gpbandit/gp/finite_set_posterior.h"

#include <Eigen/Eigenvalues>
#include <cmath>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "numerics/cholesky.h"

namespace gpbandit {
FiniteSetPosterior::FiniteSetPosterior(const Kernel& kernel, const Eigen::MatrixXd& candidates,
                                       double noise_variance, double prior_mean)
    : prior_mean_(prior_mean), noise_variance_(noise_variance) {
  if (candidates.cols() == 0)
    throw std::invalid_argument("FiniteSetPosterior: candidates is empty (0 columns)");
  if (!std::isfinite(noise_variance) || noise_variance <= 0.0)
    throw std::invalid_argument("FiniteSetPosterior: noise_variance = " +
                                FormatDouble(noise_variance) + " must be finite and > 0");
  if (!std::isfinite(prior_mean))
    throw std::invalid_argument("FiniteSetPosterior: prior_mean = " + FormatDouble(prior_mean) +
                                " is not finite");
  for (Eigen::Index j = 0; j < candidates.cols(); ++j)
    kernel.ValidatePoint(candidates.col(j), "candidates column " + std::to_string(j));
  covariance_ = kernel.Gram(candidates);
  mean_ = Eigen::VectorXd::Constant(candidates.cols(), prior_mean);
  ones_response_ = Eigen::VectorXd::Zero(candidates.cols());
}

Eigen::VectorXd FiniteSetPosterior::MeanUnderPriorMean(double c) const {
  if (!std::isfinite(c))
    throw std::invalid_argument("FiniteSetPosterior::MeanUnderPriorMean: c = " + FormatDouble(c) +
                                " is not finite");
  if (c == prior_mean_) return mean_;
  return mean_ + (c - prior_mean_) * (Eigen::VectorXd::Ones(size()) - ones_response_);
}

Eigen::VectorXd FiniteSetPosterior::variances() const {
  return covariance_.diagonal().cwiseMax(0.0);
}

void FiniteSetPosterior::Observe(int index, double y) {
  if (index < 0 || index >= size())
    throw std::invalid_argument("FiniteSetPosterior::Observe: index = " + std::to_string(index) +
                                " is outside [0, " + std::to_string(size()) + ")");
  if (!std::isfinite(y))
    throw std::invalid_argument("FiniteSetPosterior::Observe: y = " + FormatDouble(y) +
                                " is not finite");
  // Roundoff can drive a diagonal entry slightly negative; the clamp keeps the denominator at
  // least lambda, so the update stays finite and the covariance shrinks monotonically.
  const double variance = std::max(covariance_(index, index), 0.0);
  const double denominator = noise_variance_ + variance;
  // With s = Sigma(:, i) / sqrt(denominator), the update is Sigma -= s s^T: entry (a, b) and
  // (b, a) get the same product s_a s_b, so the matrix stays exactly symmetric.
  const Eigen::VectorXd s = covariance_.col(index) / std::sqrt(denominator);
  mean_ += s * ((y - mean_(index)) / std::sqrt(denominator));
  ones_response_ += s * ((1.0 - ones_response_(index)) / std::sqrt(denominator));
  covariance_.noalias() -= s * s.transpose();
  information_gain_ += 0.5 * std::log1p(variance / noise_variance_);
  ++t_;
}

void FiniteSetPosterior::ScaleOutputs(int exponent) {
  // The mean is a sum of products of outputs (minus means) with covariance terms: a power of two
  // passes through every operation exactly.
  mean_ = mean_.unaryExpr([exponent](double m) { return std::ldexp(m, exponent); });
  prior_mean_ = std::ldexp(prior_mean_, exponent);
}

Eigen::MatrixXd FiniteSetPosterior::SampleJoint(int num_samples, double scale, Rng& rng) const {
  Eigen::MatrixXd samples = SampleDeviations(num_samples, scale, rng);
  samples.colwise() += mean_;
  return samples;
}

Eigen::MatrixXd FiniteSetPosterior::SampleDeviations(int num_samples, double scale,
                                                     Rng& rng) const {
  if (num_samples < 0)
    throw std::invalid_argument("FiniteSetPosterior::SampleJoint: num_samples = " +
                                std::to_string(num_samples) + " must be >= 0");
  if (!std::isfinite(scale) || scale < 0.0)
    throw std::invalid_argument("FiniteSetPosterior::SampleJoint: scale = " + FormatDouble(scale) +
                                " must be finite and >= 0");
  // The posterior covariance loses rank as points are observed many times; the jitter ladder
  // makes it factorizable at the cost of a variance error of at most max_relative_jitter.
  const JitteredCholesky chol = FactorizeWithJitter(covariance_, 1e-6);
  Eigen::MatrixXd factor;
  if (chol.ok) {
    factor = chol.lower;
  } else {
    // Fall back to a symmetric square root with negative eigenvalues (roundoff) set to zero.
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(covariance_);
    factor = eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).cwiseSqrt().asDiagonal();
  }
  return scale * (factor * StandardNormalMatrix(size(), num_samples, rng));
}

}  // namespace gpbandit
