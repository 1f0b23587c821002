// Sum and product of kernels, each part acting on its own coordinates:
//   sum:     k(a, b) = sum_j k_j(a, b)       (Krause & Ong 2011, k_S (+) k_Z)
//   product: k(a, b) = prod_j k_j(a, b)      (Krause & Ong 2011, k_S (x) k_Z)
// e.g. an SE kernel on the action coordinates times an index kernel on the context coordinate.
// Sums and products of kernels are kernels (Rasmussen & Williams 2006, sec. 4.2.4). Parts may
// themselves be composites. Log-params are the parts' log-params concatenated in order; their
// names are prefixed "sum[j]." / "product[j].".
// Log-param kinds are the parts' kinds in the same order.
//
// Every capability hook of kernel.h is implemented from the parts' own hooks, so that a
// composite of fast kernels is fast (a product of stationary kernels costs about as much as
// one stationary kernel of the same total dimension, plus one exponential per part):
// - Cross, Diagonal, Gram, GramAndParts, CrossWithPoint: the parts' results, added or
//   multiplied elementwise; the caches keep one entry per part (with the part's own values or
//   Gram matrix).
// - AccumulateWeightedGradientA: sum: every part with the weights c; product: part j with the
//   weights c .* prod_{i != j} k_i(x, X) (the product rule), from the cached values.
// - ContractGradientLogParams(FromParts): sum: every part with W; product: part j with
//   W .* prod_{i != j} K_i (d(prod_i K_i)/d theta_j = dK_j/d theta_j .* prod_{i != j} K_i).
// - Features (GP-TS): sum: the parts' features side by side (kernel_features.h). Product: when
//   every part has a spectral measure (stationary parts), one joint spectral sample (frequencies
//   of the parts added: the spectral measure of a product is the convolution of the parts');
//   otherwise the stationary parts' joint spectral features and each other part's features,
//   combined by the product construction of kernel_features.h (Kronecker when small enough,
//   else randomly indexed elementwise products, unbiased either way).
// - Spectral measure: product as above; sum: the mixture weighted by the parts' variances.
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_COMPOSITE_KERNEL_H_
#define GPBANDIT_KERNEL_COMPOSITE_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

enum class CompositeOperation { kSum, kProduct };

class CompositeKernel : public Kernel {
 public:
  // parts: non-empty, no nullptr (else std::invalid_argument). Takes ownership.
  CompositeKernel(CompositeOperation operation, std::vector<std::unique_ptr<Kernel>> parts);
  // Deep copy: every part is cloned.
  CompositeKernel(const CompositeKernel& other);
  CompositeKernel& operator=(const CompositeKernel&) = delete;

  CompositeOperation operation() const { return operation_; }
  int num_parts() const { return static_cast<int>(parts_.size()); }
  const Kernel& part(int j) const { return *parts_.at(j); }

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
  bool HasSpectralMeasure() const override;
  SpectralSample DrawSpectrum(int num_features, Rng& rng) const override;

 private:
  // "sum" or "product".
  std::string Name() const;
  // prod_{i != j} values[i], without dividing (a part may be exactly 0).
  static double ProductOfOthers(const std::vector<double>& values, std::size_t j);
  // The product's features when some part has no spectral measure (see above).
  std::unique_ptr<KernelFeatures> DrawProductFeatures(int num_features, Rng& rng) const;

  CompositeOperation operation_;
  std::vector<std::unique_ptr<Kernel>> parts_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_COMPOSITE_KERNEL_H_
