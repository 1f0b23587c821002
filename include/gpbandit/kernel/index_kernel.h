// Index kernel k(a, b) = s * M(i(a), i(b)), where coordinate `dim` of a point holds an integer
// item index i in [0, N) and M is a fixed N x N symmetric positive semi-definite matrix: an
// empirical covariance over sensors, or an inter-task covariance over a finite set of contexts
// (Krause & Ong 2011, sec. 5; Srinivas et al. 2010, sec. 5). M = I gives independent items.
// Log-params [log s] (kind: signal variance); M is not fitted.
// Features: the exact map phi(x) = sqrt(s) F_{i(x), .} with M = F F^T (F from the eigenvectors
// of M scaled by the square roots of its positive eigenvalues; rank(M) features).
// Inputs: ValidatePoint rejects an index that is not an integer in [0, N); Value and the batch
// forms assume validated points (they round and clamp the coordinate and never fail).
// The gradient in a is 0 (k is piecewise constant in the index).
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_INDEX_KERNEL_H_
#define GPBANDIT_KERNEL_INDEX_KERNEL_H_

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class IndexKernel : public Kernel {
 public:
  // dim >= 0; covariance non-empty, square, finite, symmetric (|M - M^T| <= 1e-9 max |M|) and
  // PSD (smallest eigenvalue >= -1e-9 * largest); scale finite and > 0. Throws
  // std::invalid_argument otherwise. M is stored symmetrized.
  IndexKernel(int dim, const Eigen::MatrixXd& covariance, double scale = 1.0);

  int dim() const { return dim_; }
  const Eigen::MatrixXd& covariance() const { return covariance_; }
  int num_items() const { return static_cast<int>(covariance_.rows()); }
  double scale() const;

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
  bool HasFeatures() const override { return true; }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 private:
  // The item index held by coordinate value v, rounded and clamped into [0, N).
  int Item(double v) const;
  // Item(X(dim_, j)) for every column, checking that X has enough rows.
  std::vector<int> Items(const Eigen::MatrixXd& X, const char* field) const;

  int dim_;
  Eigen::MatrixXd covariance_;
  Eigen::MatrixXd factor_;  // N x rank(M), factor_ factor_^T = M
  double log_scale_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_INDEX_KERNEL_H_
