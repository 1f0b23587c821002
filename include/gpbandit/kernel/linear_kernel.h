// Linear (dot-product) kernel over a subset of the input coordinates:
//   k(a, b) = s2 * sum_{k} a_{dims[k]} b_{dims[k]} / l_k^2      (ARD, one l_k per dim)
//   k(a, b) = s2 * sum_{k} a_{dims[k]} b_{dims[k]} / l^2        (shared lengthscale)
// (Rasmussen & Williams 2006, eq. 4.20 with Sigma_p = s2 diag(l)^-2.) A GP with this kernel is
// Bayesian linear regression through the origin; as a context kernel it gives LinUCB-like
// models (Krause & Ong 2011). Log-params [log s2, log l_1, ..., log l_m]. s2 and a shared l
// are not separately identifiable (only s2 / l^2 matters); the fit keeps them apart through
// priors or bounds.
// Not stationary: the gradient in a is s2 b / l^2 even for a == b (b held fixed).
// Kinds: [signal variance, lengthscale...]. Features: the exact map
// phi_k(x) = sqrt(s2) x_{dims[k]} / l_k (|dims| features).
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_LINEAR_KERNEL_H_
#define GPBANDIT_KERNEL_LINEAR_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class LinearKernel : public Kernel {
 public:
  // dims: non-empty, distinct, >= 0. variance, lengthscale: finite and > 0. Throws
  // std::invalid_argument otherwise.
  LinearKernel(std::vector<int> dims, bool ard = true, double variance = 1.0,
               double lengthscale = 1.0);

  const std::vector<int>& dims() const { return dims_; }
  bool ard() const { return ard_; }

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
  Eigen::MatrixXd Gram(const Eigen::MatrixXd& X) const override;
  Eigen::VectorXd ContractGradientLogParams(const Eigen::MatrixXd& X,
                                            const Eigen::MatrixXd& W) const override;
  bool HasFeatures() const override { return true; }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 protected:
  std::vector<int> InputDims() const override;

 private:
  // Recomputes weights_ from log_params_.
  void UpdateWeights();
  // Rows dims_ of X (|dims| x n), checking that X has enough rows.
  Eigen::MatrixXd Rows(const Eigen::MatrixXd& X, const char* field) const;

  std::vector<int> dims_;
  bool ard_;
  Eigen::VectorXd log_params_;
  // s2 / l_k^2, the weight of coordinate dims_[k]; derived from log_params_ whenever they change
  // (never lazily, so const calls stay thread-safe).
  Eigen::VectorXd weights_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_LINEAR_KERNEL_H_
