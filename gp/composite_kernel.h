// Sum and product of kernels, each part acting on its own coordinates:
//   sum:     k(a, b) = sum_j k_j(a, b)       (Krause & Ong 2011, k_S (+) k_Z)
//   product: k(a, b) = prod_j k_j(a, b)      (Krause & Ong 2011, k_S (x) k_Z)
// e.g. an SE kernel on the action coordinates times an index kernel on the context coordinate.
// Sums and products of kernels are kernels (Rasmussen & Williams 2006, sec. 4.2.4). Parts may
// themselves be composites. Log-params are the parts' log-params concatenated in order; their
// names are prefixed "sum[j]." / "product[j].".
// The batch forms combine the parts' batch forms (elementwise sum or product), so a part's
// vectorized Cross/Gram is used; the product's contracted gradient contracts part j with
// W .* (elementwise product of the other parts' Gram matrices).
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_GP_COMPOSITE_KERNEL_H_
#define GPBANDIT_GP_COMPOSITE_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/gp/kernel.h"

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

 private:
  // "sum" or "product".
  std::string Name() const;
  // prod_{i != j} values[i], without dividing (a part may be exactly 0).
  static double ProductOfOthers(const std::vector<double>& values, std::size_t j);

  CompositeOperation operation_;
  std::vector<std::unique_ptr<Kernel>> parts_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_GP_COMPOSITE_KERNEL_H_
