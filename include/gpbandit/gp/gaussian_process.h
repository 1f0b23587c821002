// Exact Gaussian-process regression with an incrementally updated Cholesky factor.
//
// Model: y_i = f(x_i) + eps_i, f ~ GP(m, k), eps_i ~ N(0, noise_variance). With output
// standardization (the default) the model is fitted to y_std = (y - offset) / scale, where
// offset and scale are the mean and standard deviation of the observed y (scale = 1 when fewer
// than two observations or when all y are equal, as scikit-learn and BoTorch do; the offset is
// the generalized-least-squares mean instead under options.prior_mean); kernel and
// noise hyperparameters then refer to standardized units, and every prediction is returned in
// the original units. Without standardization, offset = 0 and scale = 1 (prior mean 0, the
// papers' setting).
//
// Output scales (docs/design.md, "Faults": huge or tiny rewards): with standardization, any finite
// y is accepted; offset, scale, the standardized outputs, the weights, the means and the log
// marginal likelihood stay finite and accurate whatever the magnitude (up to the largest
// double) and whatever the spread: every spread the doubles can represent, down to one unit in
// the last place of the mean, is used as the scale. The weights are computed from
// L^-1 (y - reference) / unit with a reference near the mean and a power-of-two unit near the
// scale, refreshed (O(t^2)) when the outputs drift, so tiny spreads on a large mean lose no
// accuracy to cancellation. Variances and covariances in original units are scale^2 times the
// standardized ones and therefore overflow beyond scale ~1e154 and underflow below ~1e-154:
// callers that face such rewards scale them by a power of two first (the Optimizer does,
// optimizer.h). Without standardization the outputs are used as given.
//
// Costs (t observations): AddObservation O(t^2) (one new row of the Cholesky factor, then
// two triangular solves for the weights, which depend on the standardization); changing
// hyperparameters or a failed pivot refactorizes, O(t^3); mean O(t), variance O(t^2) per point;
// Predict() on m points uses one multi-right-hand-side triangular solve.
//
// Conditioning: K + (noise + jitter) I is factorized. The jitter starts at 0 and climbs a ladder
// (1e-10, 1e-9, ... times the mean kernel diagonal, up to max_relative_jitter) only when a
// factorization fails; an incremental append whose new pivot is not safely positive falls back
// to a full refactorization. jitter() reports the absolute jitter in use.
//
// Thread safety: const member functions may be called concurrently; mutation needs exclusive
// access. Inputs are in whatever units the caller uses (the optimizer maps boxes to the unit
// cube before they reach the model).
// Determinism: no random numbers but those SampleJoint draws from the caller's rng; results
// do not depend on the number of threads.
#ifndef GPBANDIT_GP_GAUSSIAN_PROCESS_H_
#define GPBANDIT_GP_GAUSSIAN_PROCESS_H_

#include <Eigen/Core>
#include <memory>
#include <string>

#include "gpbandit/gp/prior_mean_estimate.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

struct GaussianProcessOptions {
  // Noise variance of observations (standardized units when standardize_outputs). >= 0; a zero
  // noise is legal (interpolation) and relies on the jitter ladder. Default 1e-4.
  double noise_variance = 1e-4;
  // Standardize outputs (see above). Default true; the papers' known-prior experiments turn it
  // off.
  bool standardize_outputs = true;
  // With standardize_outputs, the offset's estimate (above). Default kSampleMean. Costs O(t)
  // per observation beyond the sample mean's (C^-1 1 is kept with the factor).
  PriorMeanEstimate prior_mean = PriorMeanEstimate::kSampleMean;
  // Largest jitter tried, relative to the mean of the kernel diagonal. (0, 1]. Default 1e-2.
  double max_relative_jitter = 1e-2;

  // True if every field is in range; otherwise false and *error says which field and value.
  bool IsValid(std::string* error) const;
};

class GaussianProcess {
 public:
  // input_dim >= kernel->MinInputDim(). Throws std::invalid_argument on a null kernel, a bad
  // input_dim or invalid options.
  GaussianProcess(std::unique_ptr<Kernel> kernel, int input_dim,
                  const GaussianProcessOptions& options = GaussianProcessOptions());
  GaussianProcess(const GaussianProcess& other);
  GaussianProcess& operator=(const GaussianProcess& other);
  GaussianProcess(GaussianProcess&&) noexcept;
  GaussianProcess& operator=(GaussianProcess&&) noexcept;
  ~GaussianProcess();

  int input_dim() const { return input_dim_; }
  int num_observations() const { return t_; }
  const Kernel& kernel() const { return *kernel_; }
  const GaussianProcessOptions& options() const { return options_; }

  // ---- Data -------------------------------------------------------------------------------
  // Appends (x, y): O(t^2). Throws std::invalid_argument for a wrong size, a non-finite x or y,
  // or a point the kernel rejects; the model is then unchanged.
  void AddObservation(const ConstVectorRef& x, double y);
  // Appends many (X: input_dim x n, y: n) and refactorizes once. All-or-nothing.
  void AddObservations(const Eigen::MatrixXd& X, const Eigen::VectorXd& y);
  // Drops the last `count` observations (0 <= count <= t): O(t^2). Used to undo hallucinated
  // observations of pending points.
  void RemoveLastObservations(int count);
  void Clear();

  // Observed inputs (input_dim x t) and outputs (t, original units).
  Eigen::MatrixXd inputs() const;
  Eigen::VectorXd outputs() const;
  // The outputs as the model sees them: (y - output_offset()) / output_scale().
  Eigen::VectorXd standardized_outputs() const;
  // Multiplies every output by 2^exponent, exactly (barring overflow or underflow of an
  // output): with standardization the standardized outputs, weights and hyperparameters are
  // unchanged bit for bit, and predictions scale by 2^exponent (variances by 4^exponent). O(t).
  void ScaleOutputs(int exponent);
  double output_offset() const { return offset_; }
  double output_scale() const { return scale_; }

  // ---- Hyperparameters ----------------------------------------------------------------------
  // Replaces the kernel log-params and the noise variance, then refactorizes (O(t^3)).
  // Throws std::invalid_argument (wrong size, non-finite, negative noise); unchanged on throw.
  void SetHyperparameters(const ConstVectorRef& kernel_log_params, double noise_variance);
  Eigen::VectorXd kernel_log_params() const { return kernel_->GetLogParams(); }
  double noise_variance() const { return noise_variance_; }
  // The jitter added to the diagonal beyond the noise (absolute, standardized units).
  double jitter() const { return jitter_; }

  // ---- Predictions (original units; variances are of the latent f, without noise) ----------
  // Each throws std::invalid_argument for a wrong size. Variances are clamped at 0.
  double Mean(const ConstVectorRef& x) const;
  double Variance(const ConstVectorRef& x) const;
  // Mean and variance, with their gradients in x when the pointers are non-null (the variance
  // gradient is 0 where the variance was clamped, consistent with the value).
  void MeanAndVariance(const ConstVectorRef& x, double* mean, double* variance,
                       Eigen::VectorXd* mean_gradient = nullptr,
                       Eigen::VectorXd* variance_gradient = nullptr) const;
  // The posterior means at the observed inputs, in observation order (t entries): O(t), from
  // K alpha = y_std - (noise + jitter) alpha, instead of the O(t^2) kernel matrix of Predict.
  Eigen::VectorXd MeansAtObservations() const;
  // Batched: X is input_dim x m; means and variances get m entries.
  void Predict(const Eigen::MatrixXd& X, Eigen::VectorXd* means, Eigen::VectorXd* variances) const;
  // Posterior covariance of f between two points, with the gradient in a if non-null.
  double Covariance(const ConstVectorRef& a, const ConstVectorRef& b,
                    Eigen::VectorXd* gradient_a = nullptr) const;
  // Joint posterior covariance over the columns of X (m x m).
  Eigen::MatrixXd Covariance(const Eigen::MatrixXd& X) const;
  // Posterior covariance of f between the columns of A and those of B (|A| x |B|):
  // k(A, B) - k(A, X) (K + noise I)^-1 k(X, B), O(t^2 (|A| + |B|) + t |A| |B|).
  Eigen::MatrixXd CrossCovariance(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const;
  // Joint posterior samples of f at the columns of X: m x num_samples, one sample per column.
  Eigen::MatrixXd SampleJoint(const Eigen::MatrixXd& X, int num_samples, Rng& rng) const;

  // ---- Information ----------------------------------------------------------------------------
  // I(y; f) = 1/2 sum_i log(1 + sigma_{i-1}^2(x_i) / noise) = 1/2 log det(I + K / noise), with
  // noise = noise_variance + jitter. The gamma_t of the papers' beta_t schedules.
  double InformationGain() const;
  // sigma_{i-1}^2(x_i) for each observation i in order: the posterior variance of f at x_i given
  // the observations before it (standardized units), i.e. the Cholesky pivot L_ii^2 minus the
  // noise and jitter, clamped at 0. With it, the information gain at any other noise level
  // lambda follows in O(t) (a lower bound of 1/2 log det(I + K / lambda) when lambda exceeds
  // the model's noise; see acquisition/information_gain_bound.h).
  Eigen::VectorXd SequentialVariances() const;
  // (y_i - mu_{i-1}(x_i)) / sqrt(sigma_{i-1}^2(x_i) + noise + jitter) for each observation i in
  // order, mu_{i-1} and sigma_{i-1} the posterior given the observations before it under the
  // current hyperparameters and prior mean (standardized units, so unitless): L^-1 (y_std - m),
  // the whitened outputs, O(t). Independent N(0, 1) when the model is right.
  Eigen::VectorXd OneStepResiduals() const { return ForwardStandardizedOutputs(); }
  // log p(y_std | X, hyperparameters) of the standardized outputs.
  double LogMarginalLikelihood() const;

 private:
  void CheckPoint(const ConstVectorRef& x, const char* field) const;
  void Reserve(int capacity);
  // Full refactorization of K + (noise + jitter) I, climbing the jitter ladder. Throws
  // std::runtime_error (state then inconsistent: callers restore) if even the largest jitter fails.
  void Refactorize();
  // Refactorize() after observations were appended to the first old_t; if it throws, drops them,
  // restores old_jitter and the old factor, and rethrows (the GP is then as before the append).
  void RefactorizeOrRollBack(int old_t, double old_jitter);
  // Standardization and weights from the current factor: O(t^2).
  void UpdateWeights();
  // offset_ and scale_ from y_: O(t); the offset is the sample mean.
  void ComputeStandardization();
  // The GLS estimate of the constant mean (PriorMeanEstimate) from zy_ and z1_: O(t).
  double GeneralizedLeastSquaresMean() const;
  // True when zy_ should be recomputed around the current offset and scale.
  bool ReferenceIsStale() const;
  // reference_ = offset_, unit_ = a power of two near scale_, zy_ recomputed: O(t^2).
  void SetReference();
  // L^-1 y_std from zy_ and z1_: O(t).
  Eigen::VectorXd ForwardStandardizedOutputs() const;
  // offset_ + scale_ * z, without overflow in the product when the sum is representable.
  double Destandardize(double z) const;
  const Eigen::MatrixXd& X() const { return X_; }
  // The lower-triangular factor as a view of the top-left t x t block.
  auto L() const { return L_.topLeftCorner(t_, t_).triangularView<Eigen::Lower>(); }
  auto LT() const { return L_.topLeftCorner(t_, t_).transpose().triangularView<Eigen::Upper>(); }
  double NoisePlusJitter() const { return noise_variance_ + jitter_; }

  std::unique_ptr<Kernel> kernel_;
  int input_dim_;
  GaussianProcessOptions options_;
  double noise_variance_;
  double jitter_ = 0.0;
  int t_ = 0;
  Eigen::MatrixXd X_;  // input_dim x t (exact size: kernels take it by reference; O(t d) to grow)
  Eigen::VectorXd y_;  // t, original units
  // capacity x capacity, grown by doubling so that an append does not copy O(t^2) data each
  // time; the lower Cholesky factor is the top-left t x t block.
  Eigen::MatrixXd L_;
  // L^-1 (y - reference_) / unit_ and L^-1 1 (capacity). Forward substitution extends them by
  // one entry per append, so a change of standardization (offset, scale) costs one back
  // substitution, not two.
  Eigen::VectorXd zy_, z1_;
  Eigen::VectorXd alpha_;  // t: (K + (noise + jitter) I)^-1 y_std
  double offset_ = 0.0;
  double scale_ = 1.0;
  // The centre and the power-of-two unit of zy_ (0 and 1 without standardization).
  double reference_ = 0.0;
  double unit_ = 1.0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_GP_GAUSSIAN_PROCESS_H_
