// Kernels over (x, fidelity): one GP over a cheap simulator and an expensive target.
//
// A point holds, besides the coordinates of x, one coordinate `fidelity_dim` with an integer
// fidelity index i in [0, F): 0 is the cheapest source, F - 1 the target (the robot). Both
// kernels below are linear models of coregionalization,
//
//   k((x, i), (x', j)) = sum_l C_l(i, j) k_l(x, x'),
//
// with F x F positive semi-definite coefficient matrices C_l fitted with the parts' own
// hyperparameters by the marginal likelihood (hyperparams/fit.h) like any other kernel: they
// implement every hook of kernel.h from their parts' hooks (values, gradients in x and in the
// log-params, the one-point and Gram fast paths, random features).
//
// - CoregionalizationKernel, the intrinsic coregionalization model (ICM; Bonilla, Chai &
//   Williams 2008; Swersky, Snoek & Adams 2013, multi-task BO): one part k_x and
//   C = B = L L^T + diag(kappa), L an F x rank matrix, kappa > 0 (so B is positive definite).
// - AutoregressiveKernel, Kennedy & O'Hagan 2000 (Marco et al. 2017, "Virtual vs. Real", the
//   simulator + error kernel): f_0 = g_0, f_i = rho_i f_{i-1} + g_i for i = 1..F-1, the g_l
//   independent GPs with kernels k_l (k_0 the simulator's, k_l the error of level l). Then
//   C_l(i, j) = a_l(i) a_l(j) with a_l(i) = prod_{m=l+1..i} rho_m for i >= l, else 0; for F = 2,
//   k = k_0 (rho if one point is at the target, rho^2 if both) + [i = j = 1] k_1.
//
// Log-params: the parts' log-params in order, then the mixing parameters. The entries of L and
// the rho_m may be negative and are stored AS THEY ARE, not as logs; they are of the kind
// FidelityFactorKind() (below), whose registered range [e^-5, e^5] makes the fit's default
// bounds on them [-5, 5] and its random starts uniform in [-1, 1] (the fit bounds the log-param
// it is given; a report that prints exp(log-param) misreads these). kappa is stored as log kappa
// (kind signal_variance). The gradient in a log-param is the derivative in what is stored.
// Identifiability: with the ICM, the part's signal variance and the scale of B only meet as a
// product (a flat direction of the likelihood, harmless to L-BFGS); give k_x a fixed variance
// (bounds) when the fitted values themselves matter.
//
// Contract: the parts must not read the fidelity coordinate (their gradient would then land on
// it); the gradient in x at the fidelity coordinate is 0 (k is piecewise constant in it).
// ValidatePoint rejects a fidelity that is not an integer in [0, F), naming the field, the
// coordinate and the value; Value and the batch forms assume validated points (they round and
// clamp the index, never fail).
// Features: phi(x, i) = [G_l(i, c) phi_l(x)]_{l, c} with C_l = G_l G_l^T (ICM:
// G = [L, diag(sqrt(kappa))]; autoregressive: G_l = a_l), the phi_l the parts' own features
// drawn independently: E[phi(a) . phi(b)] = sum_l C_l(i, j) k_l. Its size is
// sum_l cols(G_l) times the parts' sizes.
// Cost: a Gram matrix of n points is the parts' Gram matrices plus O(L n^2); the mixing
// gradients reduce W .* K_l to F x F blocks once, O(L n^2).
// Thread safety: const members are safe to call concurrently (kernel.h).
#ifndef GPBANDIT_KERNEL_FIDELITY_KERNELS_H_
#define GPBANDIT_KERNEL_FIDELITY_KERNELS_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// The kind of the signed mixing parameters (L's entries, rho): "fidelity_factor",
// dimensionless, free under caution; range [e^-5, e^5], starts [e^-1, e^1] (see above).
ParamKind FidelityFactorKind();

// The common part of both models: sum_l C_l(i, j) k_l(x, x').
class FidelityKernel : public Kernel {
 public:
  FidelityKernel(const FidelityKernel& other);

  int fidelity_dim() const { return fidelity_dim_; }
  int num_fidelities() const { return num_fidelities_; }
  int num_parts() const { return static_cast<int>(parts_.size()); }
  const Kernel& part(int l) const { return *parts_.at(l); }
  // The coefficient matrices C_l at the current log-params, one F x F matrix per part.
  virtual std::vector<Eigen::MatrixXd> Coefficients() const = 0;

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
  void ValidatePoint(const ConstVectorRef& x, const std::string& field) const override;
  Eigen::MatrixXd Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const override;
  Eigen::VectorXd Diagonal(const Eigen::MatrixXd& X) const override;
  Eigen::MatrixXd Gram(const Eigen::MatrixXd& X) const override;
  Eigen::VectorXd ContractGradientLogParams(const Eigen::MatrixXd& X,
                                            const Eigen::MatrixXd& W) const override;
  void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                      KernelPointCache* cache) const override;
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const KernelPointCache& cache, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const override;
  void GramAndParts(const Eigen::MatrixXd& X, Eigen::MatrixXd* gram, KernelGramCache* cache,
                    int num_threads = 1) const override;
  Eigen::VectorXd ContractGradientLogParamsFromParts(const Eigen::MatrixXd& X,
                                                     const Eigen::MatrixXd& W,
                                                     const Eigen::MatrixXd& gram,
                                                     const KernelGramCache& cache,
                                                     int num_threads = 1) const override;
  bool HasFeatures() const override;
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 protected:
  // fidelity_dim >= 0, num_fidelities >= 1, parts non-empty without nullptr; `who` names the
  // subclass in messages.
  FidelityKernel(const std::string& who, int fidelity_dim, int num_fidelities,
                 std::vector<std::unique_ptr<Kernel>>&& parts);

  // The mixing parameters, as stored (see above), their names and kinds.
  virtual Eigen::VectorXd MixingParams() const = 0;
  // Takes already checked (finite) values.
  virtual void SetMixingParams(const ConstVectorRef& params) = 0;
  virtual std::vector<std::string> MixingNames() const = 0;
  virtual std::vector<ParamKind> MixingKinds() const = 0;
  // d C_l / d p for each mixing parameter p: result[p][l] is F x F.
  virtual std::vector<std::vector<Eigen::MatrixXd>> CoefficientGradients() const = 0;
  // G_l with C_l = G_l G_l^T, one per part.
  virtual std::vector<Eigen::MatrixXd> CoefficientFactors() const = 0;
  std::vector<int> InputDims() const override;

  // The fidelity index of coordinate value v, rounded and clamped into [0, F).
  int Fidelity(double v) const;

 private:
  int NumMixingParams() const { return static_cast<int>(MixingParams().size()); }
  std::vector<int> Fidelities(const Eigen::MatrixXd& X, const char* field) const;
  // out(r, c) = C(fa[r], fb[c]).
  static Eigen::MatrixXd Expand(const Eigen::MatrixXd& C, const std::vector<int>& fa,
                                const std::vector<int>& fb);

  int fidelity_dim_;
  int num_fidelities_;
  std::vector<std::unique_ptr<Kernel>> parts_;
};

// The ICM: k = B(i, j) k_x(x, x'), B = L L^T + diag(kappa).
// Log-params [k_x..., L(0,0), L(1,0), ..., L(F-1, rank-1) (column by column), log kappa_0..].
class CoregionalizationKernel : public FidelityKernel {
 public:
  // Initial B: L with every entry sqrt(0.9 / rank) and kappa = 0.1 (B has unit diagonal and
  // correlation 0.9 between every pair: "the sources are related" until the data say
  // otherwise). rank in [1, F]. Throws std::invalid_argument naming the field otherwise.
  CoregionalizationKernel(std::unique_ptr<Kernel> base, int fidelity_dim, int num_fidelities,
                          int rank = 1);
  // Explicit initial L (F x rank, finite, rank >= 1) and kappa (F entries, finite, > 0).
  CoregionalizationKernel(std::unique_ptr<Kernel> base, int fidelity_dim,
                          const Eigen::MatrixXd& factor, const Eigen::VectorXd& kappa);

  int rank() const { return static_cast<int>(factor_.cols()); }
  const Eigen::MatrixXd& factor() const { return factor_; }
  Eigen::VectorXd kappa() const;
  // B = L L^T + diag(kappa).
  Eigen::MatrixXd Coregionalization() const;

  std::unique_ptr<Kernel> Clone() const override;
  // "icm(fidelity_dim=2; fidelities=3; rank=1; <base>)".
  std::string Describe() const override;
  std::vector<Eigen::MatrixXd> Coefficients() const override;

 protected:
  Eigen::VectorXd MixingParams() const override;
  void SetMixingParams(const ConstVectorRef& params) override;
  std::vector<std::string> MixingNames() const override;
  std::vector<ParamKind> MixingKinds() const override;
  std::vector<std::vector<Eigen::MatrixXd>> CoefficientGradients() const override;
  std::vector<Eigen::MatrixXd> CoefficientFactors() const override;

 private:
  Eigen::MatrixXd factor_;     // L, F x rank
  Eigen::VectorXd log_kappa_;  // F
};

// The autoregressive chain f_i = rho_i f_{i-1} + g_i (Kennedy & O'Hagan 2000).
// Log-params [k_0..., k_1..., ..., k_{F-1}..., rho_1, ..., rho_{F-1}].
class AutoregressiveKernel : public FidelityKernel {
 public:
  // parts: F >= 1 kernels, parts[0] the cheapest source's, parts[l] the error of level l.
  // rho: F - 1 finite initial factors (empty: all 1, "the simulator is right up to an error").
  // Throws std::invalid_argument naming the field otherwise.
  AutoregressiveKernel(std::vector<std::unique_ptr<Kernel>> parts, int fidelity_dim,
                       std::vector<double> rho = {});

  // rho_1..rho_{F-1} (rho()[m - 1] relates level m to level m - 1).
  const std::vector<double>& rho() const { return rho_; }

  std::unique_ptr<Kernel> Clone() const override;
  // "autoregressive(fidelity_dim=1; fidelities=2; <k_0>, <k_1>)".
  std::string Describe() const override;
  std::vector<Eigen::MatrixXd> Coefficients() const override;

 protected:
  Eigen::VectorXd MixingParams() const override;
  void SetMixingParams(const ConstVectorRef& params) override;
  std::vector<std::string> MixingNames() const override;
  std::vector<ParamKind> MixingKinds() const override;
  std::vector<std::vector<Eigen::MatrixXd>> CoefficientGradients() const override;
  std::vector<Eigen::MatrixXd> CoefficientFactors() const override;

 private:
  // a_l(i) for every l (rows) and i (columns), with rho_skip (1-based; 0 = none) left out of
  // the products: the derivative of a_l(i) in rho_skip where it appears.
  Eigen::MatrixXd Loadings(int rho_skip) const;

  std::vector<double> rho_;
};

// The prior covariance of f_0(x), ..., f_{F-1}(x) under `kernel` at the x of point x (whose
// fidelity coordinate is overwritten): F x F, entry (i, j) = k((x, i), (x, j)). With the
// FidelityKernels above this is sum_l C_l k_l(x, x); any kernel over (x, fidelity) works.
// Throws std::invalid_argument (from ValidatePoint) for a point the kernel refuses.
Eigen::MatrixXd FidelityPriorCovariance(const Kernel& kernel, const ConstVectorRef& x,
                                        int fidelity_dim, int num_fidelities);

// The indices, in kernel.GetLogParams() order, of the mixing parameters that couple the levels
// below the target with the target: every rho_m of an AutoregressiveKernel (the chain passes
// through each), the entries L(m, c), m < F - 1, of a CoregionalizationKernel. With them 0,
// k((x, i), (x', F - 1)) = 0 for every i < F - 1: the target's posterior depends on the target's
// observations alone. Empty for any other kernel.
std::vector<int> TargetCouplingParams(const Kernel& kernel);

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_FIDELITY_KERNELS_H_
