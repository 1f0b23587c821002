// Exchangeable (Hamming-distance) kernel over categorical coordinates, each holding a label's
// index c in [0, N_k):
//   k(a, b) = s2 exp(-sum_k [a_k != b_k] / l_k)          (ARD: one l_k per coordinate)
// Any two distinct labels of a coordinate are equally correlated, exp(-1 / l_k): the labels
// have no order and no geometry, only "same" or "different". This is the exponentiated overlap
// kernel of Ru, Alvi, Nguyen, Osborne & Roberts (CoCaBO, ICML 2020, whose overlap kernel is
// its additive form) as Wan et al. (CASMOPOLITAN, ICML 2021) and BoTorch's CategoricalKernel
// use it; multiplied by a stationary kernel over the other coordinates, it is the default
// model of a parameter space with categories (chosen over the one-hot embedding by measurement:
// docs/benchmarks.md, "Mixed spaces").
// Log-params [log s2, log l_1, ..., log l_m] (m = |dims| with ARD, else 1); kinds [signal
// variance, category lengthscale...] (CategoryLengthscaleKind below: the fit bounds it as a
// lengthscale, the default model gives it a prior of its own). Positive definite: per coordinate,
// the N_k x N_k matrix (1 - r) I + r 1 1^T with r = exp(-1 / l_k) in (0, 1) is, and products of PSD
// kernels are. Features: exact. Per coordinate phi_k(c) = rows of a factor of that matrix
// (index_kernel.h), combined by the product construction of kernel_features.h (Kronecker when the
// sizes multiply to at most the requested number); scaled by sqrt(s2). Inputs: ValidatePoint
// rejects a coordinate that is not an integer in [0, N_k); Value and the batch forms compare
// coordinates for equality and never fail. The gradient in the inputs is 0 (k is piecewise constant
// in them). Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_CATEGORICAL_KERNEL_H_
#define GPBANDIT_KERNEL_CATEGORICAL_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// The kind of the category lengthscales, "category_lengthscale" (param_kind.h), registered on
// first use: bounded and started like a lengthscale (kDefaultLengthscaleRange), dimensionless (a
// label change has no width in the problem's units), and only shrinking under a safe strategy's
// caution (a shorter one claims less about the labels not tried).
ParamKind CategoryLengthscaleKind();

class CategoricalKernel : public Kernel {
 public:
  // dims: the categorical coordinates (non-empty, distinct, >= 0); sizes: N_k >= 1 labels of
  // each, one per dim. variance, lengthscale: finite and > 0. Throws std::invalid_argument
  // naming the field otherwise.
  CategoricalKernel(std::vector<int> dims, std::vector<int> sizes, bool ard = true,
                    double variance = 1.0, double lengthscale = 1.0);

  const std::vector<int>& dims() const { return dims_; }
  const std::vector<int>& sizes() const { return sizes_; }
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
  void ValidatePoint(const ConstVectorRef& x, const std::string& field) const override;
  Eigen::MatrixXd Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const override;
  Eigen::VectorXd Diagonal(const Eigen::MatrixXd& X) const override;
  bool HasFeatures() const override { return true; }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 private:
  std::vector<int> InputDims() const override { return dims_; }
  // sum_k [a_k != b_k] / l_k.
  double Distance(const ConstVectorRef& a, const ConstVectorRef& b) const;
  // 1 / l for entry k of dims_.
  double InverseLengthscale(std::size_t k) const;

  std::vector<int> dims_;
  std::vector<int> sizes_;
  bool ard_;
  Eigen::VectorXd log_params_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_CATEGORICAL_KERNEL_H_
