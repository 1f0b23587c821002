// Random features of a kernel's prior: functions phi_1..phi_m of the input with
//   E[phi(a) . phi(b)] = k(a, b)
// (the expectation over the random draw of the features; an exact feature map has no
// randomness). Then g(x) = w . phi(x), w ~ N(0, I_m), is a function whose covariance is k in
// expectation: the prior draw of a GP-TS sample path on a box (acquisition/gp_ts.h, Wilson et
// al., ICML 2020), with error O(1 / sqrt(m)) per pair of points for random features.
// Kernels draw them through Kernel::DrawFeatures (kernel.h) from the building blocks below.
//
// Building blocks, with the argument that each is unbiased:
// - Spectral (random Fourier) features of a stationary kernel k(a, b) = s2 rho(a - b)
//   (Rahimi & Recht 2007): phi_j(x) = sqrt(2 s2 / m) cos(omega_j . x + b_j), omega_j drawn from
//   the normalized spectral measure (SpectralSample), b_j ~ U(0, 2 pi). Over b_j,
//   E[2 cos(u + b) cos(v + b)] = cos(u - v), so E[phi_j(a) phi_j(b)] = s2 E[cos(omega . (a - b))]
//   / m = k(a, b) / m by Bochner's theorem.
// - Spectral measures combine (SpectralSample): a product of independent stationary kernels is
//   stationary, with s2 the product and rho the product, whose spectral measure is the
//   convolution of the parts' measures: omega = sum of independent draws of the parts (on
//   disjoint dims, simply the parts' frequencies side by side). A sum s2_1 rho_1 + s2_2 rho_2
//   has the mixture measure: each frequency from part j with probability s2_j / sum s2.
// - Concatenated features (sum kernels): [phi_1; phi_2; ...] with independent draws; the dot
//   product is the sum of the parts' dot products, whose expectations are the k_j.
// - Product features (product kernels, parts drawn independently), psi_i = C prod_j
//   phi^j_{I_j(i)}:
//   * when the parts' sizes multiply to at most the requested m, the Kronecker product (I_j the
//     digits of i, C = 1): psi(a) . psi(b) = prod_j phi^j(a) . phi^j(b), whose expectation is
//     prod_j k_j by independence (exact if every part is exact);
//   * otherwise m entries: for each part, an independent random index map I_j — a uniform
//     permutation when the part has exactly m features, else m indices drawn uniformly with
//     replacement from its M_j features — and C = m^{(k-1)/2} prod_j sqrt(M_j / m). For any
//     fixed u, v: E[u_{I_j(i)} v_{I_j(i)}] = (u . v) / M_j for every i, so
//     E[sum_i psi_i(a) psi_i(b)] = m^{k-1} sum_i prod_j (M_j / m) (phi^j(a) . phi^j(b)) / M_j
//     = prod_j phi^j(a) . phi^j(b), again prod_j k_j in expectation.
//
// Thread safety: a KernelFeatures object is immutable after construction; its const members
// may be called concurrently.
#ifndef GPBANDIT_KERNEL_KERNEL_FEATURES_H_
#define GPBANDIT_KERNEL_KERNEL_FEATURES_H_

#include <Eigen/Core>
#include <memory>
#include <vector>

#include "gpbandit/numerics/random.h"

namespace gpbandit {

// m frequencies drawn from the normalized spectral measure of a stationary kernel
// k(a, b) = variance * rho(a - b) (rho(0) = 1), acting on the coordinates `dims`.
struct SpectralSample {
  double variance = 1.0;
  std::vector<int> dims;        // distinct, in any order
  Eigen::MatrixXd frequencies;  // dims.size() x m, in radians per input unit
  int size() const { return static_cast<int>(frequencies.cols()); }
};

class KernelFeatures {
 public:
  virtual ~KernelFeatures() = default;
  // The number of features m.
  virtual int size() const = 0;
  // phi(x) into *values (resized to size()). x has the full input dimension.
  virtual void Evaluate(const Eigen::Ref<const Eigen::VectorXd>& x,
                        Eigen::VectorXd* values) const = 0;
  // grad += sum_i weights(i) d phi_i(x) / dx (grad has the full input dimension; weights has
  // size() entries).
  virtual void AccumulateWeightedGradient(const Eigen::Ref<const Eigen::VectorXd>& x,
                                          const Eigen::VectorXd& weights,
                                          Eigen::Ref<Eigen::VectorXd> grad) const = 0;
};

// Random Fourier features of a spectral sample (its size() features); draws the phases from
// rng. Throws std::invalid_argument for a sample without frequencies or a negative variance.
std::unique_ptr<KernelFeatures> MakeSpectralFeatures(SpectralSample sample, Rng& rng);
// [phi_1; phi_2; ...] (sum kernels). Throws std::invalid_argument for no parts or a null part.
std::unique_ptr<KernelFeatures> MakeConcatenatedFeatures(
    std::vector<std::unique_ptr<KernelFeatures>> parts);
// The product construction above (product kernels), of num_features >= 1 features unless the
// Kronecker product is at most that size. Draws the index maps from rng. Throws
// std::invalid_argument for no parts, a null part or num_features < 1.
std::unique_ptr<KernelFeatures> MakeProductFeatures(
    std::vector<std::unique_ptr<KernelFeatures>> parts, int num_features, Rng& rng);

// The spectral sample of a product of independent stationary kernels from one sample of each
// (all of the same size): variances multiplied, frequencies added on the union of the dims.
SpectralSample MultiplySpectra(const std::vector<SpectralSample>& parts);
// The spectral sample of a sum from one sample of each part (all of the same size): frequency
// i is part j's frequency i with probability variance_j / sum of variances (one uniform draw
// per frequency from rng); variance = the sum.
SpectralSample MixSpectra(const std::vector<SpectralSample>& parts, Rng& rng);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_KERNEL_FEATURES_H_
