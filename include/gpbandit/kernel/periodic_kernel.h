// Periodic kernel (MacKay's exp-sine-squared; Rasmussen & Williams 2006, eq. 4.31), for
// contexts that repeat: time of day, day of week, season, an angle.
//   one dim:   k(a, b) = s2 exp(-2 sin^2(pi |a - b| / p) / l^2)
//   dims d_1..d_m (the product of one-dim periodic kernels with a common s2):
//              k(a, b) = s2 exp(-2 sum_k sin^2(pi (a - b)_{d_k} / p_k) / l_k^2)
// with ARD (a lengthscale l_k and a period p_k per dim) or shared (one l and one p for all).
// The period p > 0 is in input units (inside the Optimizer, the unit cube: a context box of
// [0, 24] hours has a daily period of 1); the lengthscale l > 0 is relative to the period (for
// l >> 1 the kernel is nearly constant; for small l and |a - b| << p it is an SE kernel of
// lengthscale p l / (2 pi)).
// Log-params [log s2, log l_1..log l_m, log p_1..log p_m] (ARD) or [log s2, log l, log p];
// kinds: signal variance, lengthscale(s), period(s).
//
// Random features: random Fourier features from its spectral measure, which is discrete:
// exp(-2 sin^2(pi tau / p) / l^2) = e^{-z} e^{z cos(2 pi tau / p)} with z = 1 / l^2, and
// e^{z cos t} = I_0(z) + 2 sum_{n >= 1} I_n(z) cos(n t) (the generating function of the modified
// Bessel functions I_n), so the frequency per dim is 2 pi n / p with n = 0 with probability
// e^{-z} I_0(z) and n = +-|n| with probability e^{-z} I_|n|(z) each. These weights are computed
// by Miller's backward recurrence normalized by sum = 1 (exact to rounding for z <= 1e8, i.e.
// l >= 1e-4; beyond, n is drawn from the rounded normal N(0, z), their limit).
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_PERIODIC_KERNEL_H_
#define GPBANDIT_KERNEL_PERIODIC_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class PeriodicKernel : public Kernel {
 public:
  // dims: non-empty, distinct, >= 0. variance, lengthscale, period: finite and > 0. Throws
  // std::invalid_argument otherwise.
  PeriodicKernel(std::vector<int> dims, bool ard = true, double variance = 1.0,
                 double lengthscale = 1.0, double period = 1.0);

  const std::vector<int>& dims() const { return dims_; }
  bool ard() const { return ard_; }
  double variance() const { return variance_; }
  // One per entry of dims (shared values repeated).
  const Eigen::VectorXd& periods() const { return periods_; }
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
  // values = k(x, X_j); slopes_by_dim(k, j) = 2 pi sin(2 u_kj) / (p_k l_k^2), so that
  // dk(x, X_j)/dx_{d_k} = -values_j slopes_by_dim(k, j).
  void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                      KernelPointCache* cache) const override;
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const KernelPointCache& cache, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const override;
  bool HasFeatures() const override { return true; }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;
  bool HasSpectralMeasure() const override { return true; }
  SpectralSample DrawSpectrum(int num_features, Rng& rng) const override;

 protected:
  std::vector<int> InputDims() const override { return dims_; }

 private:
  // The number of lengthscales (and of periods): |dims| with ARD, else 1.
  int NumScales() const;
  // E = 2 sum_k sin^2(pi (a - b)_{d_k} / p_k) / l_k^2, so that k(a, b) = s2 e^-E.
  double Exponent(const ConstVectorRef& a, const ConstVectorRef& b) const;
  // Throws std::invalid_argument naming `field` unless X has at least MinInputDim() rows.
  void CheckRows(const Eigen::MatrixXd& X, const char* field) const;
  // Recomputes variance_, inv_l2_, periods_ and slope_factors_ from log_params_.
  void UpdateDerived();

  std::vector<int> dims_;
  bool ard_;
  Eigen::VectorXd log_params_;
  // Derived from log_params_ whenever they change (never lazily: const calls stay thread-safe).
  double variance_ = 1.0;
  Eigen::VectorXd inv_l2_;         // 1 / l_k^2 per entry of dims_
  Eigen::VectorXd periods_;        // p_k per entry of dims_
  Eigen::VectorXd slope_factors_;  // 2 pi / (p_k l_k^2) per entry of dims_
};

// The probabilities of |n| = 0, 1, ..., N in the spectral measure of the one-dim periodic
// kernel with z = 1 / l^2 (see above): e^{-z} I_0(z), 2 e^{-z} I_n(z), ...; they sum to 1.
// N grows like 12 sqrt(z). z >= 0 and finite, at most 1e8.
std::vector<double> PeriodicSpectralWeights(double z);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_PERIODIC_KERNEL_H_
