// Constant kernel k(a, b) = s2: a constant offset of the latent function with prior variance
// s2 (Rasmussen & Williams 2006, sec. 4.2.2). Reads no coordinate (MinInputDim() == 0); its
// gradient in a is 0. Log-params [log s2] (kind: signal variance). Usually summed with another
// kernel. Features: the exact one-feature map phi(x) = sqrt(s2). (Its spectral measure, a point
// mass at 0, is not offered: in a product the exact feature multiplies the other parts'
// features without adding randomness.)
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_CONSTANT_KERNEL_H_
#define GPBANDIT_KERNEL_CONSTANT_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class ConstantKernel : public Kernel {
 public:
  // variance: finite and > 0, else std::invalid_argument.
  explicit ConstantKernel(double variance = 1.0);

  double variance() const;

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

 private:
  double log_variance_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_CONSTANT_KERNEL_H_
