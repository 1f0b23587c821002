// Stationary kernels of r = || (a - b) / lengthscale || over the kernel's dims:
//   squared exponential  k = s2 exp(-r^2 / 2)
//   Matern nu = 1/2      k = s2 exp(-r)
//   Matern nu = 3/2      k = s2 (1 + sqrt(3) r) exp(-sqrt(3) r)
//   Matern nu = 5/2      k = s2 (1 + sqrt(5) r + 5 r^2 / 3) exp(-sqrt(5) r)
// (Rasmussen & Williams 2006, eqs. 4.9, 4.14, 4.17.) The signal variance s2 > 0 and the
// lengthscales > 0; ARD gives one lengthscale per dim, otherwise one shared lengthscale.
// Log-params: [log s2, log l_1, ..., log l_m] (m = |dims| with ARD, else 1).
// The gradient in a at r = 0 is taken as 0 (the kernels are even in a - b; Matern-1/2 is not
// differentiable there and 0 is its symmetric subgradient).
// Kinds: [signal variance, lengthscale...]. Random features: random Fourier features
// (kernel_features.h) from the spectral measure, N(0, I / l^2) for SE and, for Matern-nu, the
// multivariate Student-t with 2 nu degrees of freedom scaled by 1 / l, i.e. N(0, I / l^2)
// divided by sqrt(G), G ~ Gamma(nu, rate nu) (Rasmussen & Williams 2006, eq. 4.15).
#ifndef GPBANDIT_KERNEL_STATIONARY_KERNEL_H_
#define GPBANDIT_KERNEL_STATIONARY_KERNEL_H_

#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

enum class StationaryFamily { kSquaredExponential, kMatern12, kMatern32, kMatern52 };

class StationaryKernel : public Kernel {
 public:
  // dims: the coordinates the kernel reads (non-empty, distinct, >= 0).
  // Throws std::invalid_argument for bad dims or a non-positive / non-finite variance or
  // lengthscale.
  StationaryKernel(StationaryFamily family, std::vector<int> dims, bool ard = true,
                   double variance = 1.0, double lengthscale = 1.0);

  StationaryFamily family() const { return family_; }
  const std::vector<int>& dims() const { return dims_; }
  bool ard() const { return ard_; }
  double variance() const;
  // Size |dims| with ARD, else 1.
  Eigen::VectorXd lengthscales() const;

  std::unique_ptr<Kernel> Clone() const override;
  std::string Describe() const override;
  int MinInputDim() const override;
  int NumParams() const override;
  Eigen::VectorXd GetLogParams() const override;
  void SetLogParams(const ConstVectorRef& log_params) override;
  std::vector<std::string> ParamNames() const override;
  std::vector<ParamKind> ParamKinds() const override;
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override;
  void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                           VectorRef grad) const override;
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override;
  Eigen::MatrixXd Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const override;
  Eigen::VectorXd Diagonal(const Eigen::MatrixXd& X) const override;
  Eigen::VectorXd ContractGradientLogParams(const Eigen::MatrixXd& X,
                                            const Eigen::MatrixXd& W) const override;

  // Gram(X) into *gram and, in cache->squared_distances and cache->slopes, the squared
  // distances and slopes of every pair: one pass of exponentials serves both the likelihood
  // and its gradient. Reuses the storage of the given matrices when the size is unchanged (no
  // allocation, no page faults from one evaluation to the next). num_threads >= 1 OpenMP
  // threads share the columns; the result does not depend on it.
  void GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram, KernelGramCache* cache,
                    int num_threads = 1) const override;
  // From gram's strict lower triangle (the kernel's own diagonal, s2, is used) and the cache.
  // The sums run over a fixed split of the columns (kContractionChunks pieces of equal work,
  // added in order), shared by num_threads >= 1 threads: the result does not depend on it.
  Eigen::VectorXd ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                     const Eigen::MatrixXd& W,
                                                     const Eigen::MatrixXd& gram,
                                                     const KernelGramCache& cache,
                                                     int num_threads = 1) const override;
  static constexpr int kContractionChunks = 4;

  // ValuesAndSlopes below, into cache->values and cache->slopes.
  void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                      KernelPointCache* cache) const override;
  // The typed AccumulateWeightedGradientA below, from cache.slopes.
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const KernelPointCache& cache, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const override;

  bool HasFeatures() const override { return true; }
  // Random Fourier features of DrawSpectrum(num_features).
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;
  bool HasSpectralMeasure() const override { return true; }
  SpectralSample DrawSpectrum(int num_features, Rng& rng) const override;

  // The single-point predictions' fast path (CrossWithPoint): k(x, X_j) for every column j of
  // X into *values and, if slopes is non-null, the slopes h_j with
  // dk(x, X_j)/dx_i = -s2 h_j (x - X_j)_i / l_i^2 on the kernel's dims, sharing one
  // exponential per column. Direct differences (no centering or
  // norm expansion as in Cross), so a value may differ from Cross's in the last bits.
  void ValuesAndSlopes(const ConstVectorRef& x, const Eigen::MatrixXd& X, Eigen::VectorXd* values,
                       Eigen::VectorXd* slopes) const;
  // grad += c_scale sum_j c_j dk(x, X_j)/dx from the slopes of ValuesAndSlopes: O(|dims| n),
  // instead of n calls of AccumulateGradientA, each with its own distance and exponential.
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const Eigen::VectorXd& slopes, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const;

 private:
  std::vector<int> InputDims() const override;
  // "se", "matern12", ...: the prefix of Describe() and ParamNames().
  std::string Name() const;
  // r^2 = sum_k ((a - b)_{dims[k]} / l_k)^2, unclamped.
  double ScaledSquaredDistance(const ConstVectorRef& a, const ConstVectorRef& b) const;
  // Per entry of dims_, the midpoint of the range of that coordinate over the columns of X.
  Eigen::VectorXd Center(const Eigen::MatrixXd& X) const;
  // Rows dims_ of X minus center, divided by their lengthscales (|dims| x n).
  Eigen::MatrixXd Scaled(const Eigen::MatrixXd& X, const Eigen::VectorXd& center) const;
  // Squared scaled distances between the columns of A and B via norms and one matrix product,
  // clamped to [0, kMaxSquaredDistance]. When `same` (A is B): only the lower triangle is
  // filled (the rest is unspecified), with an exact zero diagonal.
  Eigen::MatrixXd SquaredDistances(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B,
                                   bool same) const;
  void SquaredDistancesInto(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, bool same,
                            Eigen::MatrixXd* out) const;

  // Recomputes variance_ and inv_lengthscales_ from log_params_.
  void UpdateDerived();

  StationaryFamily family_;
  std::vector<int> dims_;
  bool ard_;
  Eigen::VectorXd log_params_;
  // Derived from log_params_ whenever they change (never lazily, so const calls stay
  // thread-safe): saves the exps in every pairwise call.
  double variance_ = 1.0;
  Eigen::VectorXd inv_lengthscales_;  // one per entry of dims_, shared or not
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_STATIONARY_KERNEL_H_
