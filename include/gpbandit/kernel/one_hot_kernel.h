// A kernel over a one-hot embedding of categorical coordinates:
//   k(a, b) = inner(E(a), E(b)),   E(x) = [x_{other_1}, ..., x_{other_p}, e(x_{cat_1}), ...]
// where e(c) is the unit vector of label c among N_k (a coordinate holding a label's index
// c in [0, N_k)), and `inner` any kernel over the embedding's p + sum_k N_k coordinates, e.g.
// a Matern-5/2 with ARD over all of them: then two labels differ by
// r^2 = 1 / l_{k,a}^2 + 1 / l_{k,b}^2 inside the same radial profile as the continuous
// distance. The one-hot treatment of categories of GPyOpt, Ax's early models and
// Garrido-Merchan & Hernandez-Lobato (2020, who round the relaxed one-hot at evaluation);
// gpbandit's default is the exchangeable kernel (categorical_kernel.h), chosen over this one by
// measurement (docs/benchmarks.md, "Mixed spaces").
// Log-params, kinds and names: the inner kernel's (names prefixed "one_hot."). Gradient in
// the inputs: the inner kernel's on the other coordinates, 0 on the categorical ones.
// Features: the inner kernel's, evaluated at E(x). No spectral measure over the original
// coordinates.
// Inputs: ValidatePoint rejects a categorical coordinate that is not an integer in [0, N_k)
// and checks E(x) with the inner kernel.
// Thread safety: const members are safe to call concurrently.
#ifndef GPBANDIT_KERNEL_ONE_HOT_KERNEL_H_
#define GPBANDIT_KERNEL_ONE_HOT_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class OneHotKernel : public Kernel {
 public:
  // other_dims: the coordinates copied first (distinct, >= 0, may be empty);
  // categorical_dims: the categorical coordinates (non-empty, distinct, none in other_dims),
  // sizes: N_k >= 1 per categorical coordinate; inner: non-null, MinInputDim() <=
  // embedding_dim(). Throws std::invalid_argument naming the field otherwise.
  OneHotKernel(std::unique_ptr<Kernel> inner, std::vector<int> other_dims,
               std::vector<int> categorical_dims, std::vector<int> sizes);
  OneHotKernel(const OneHotKernel& other);
  OneHotKernel& operator=(const OneHotKernel&) = delete;

  // p + sum_k N_k.
  int embedding_dim() const { return embedding_dim_; }
  // E(x) (embedding_dim()).
  Eigen::VectorXd Embed(const ConstVectorRef& x) const;
  const Kernel& inner() const { return *inner_; }

  std::unique_ptr<Kernel> Clone() const override;
  std::string Describe() const override;
  int MinInputDim() const override;
  int NumParams() const override { return inner_->NumParams(); }
  Eigen::VectorXd GetLogParams() const override { return inner_->GetLogParams(); }
  void SetLogParams(const ConstVectorRef& log_params) override;
  std::vector<std::string> ParamNames() const override;
  std::vector<ParamKind> ParamKinds() const override { return inner_->ParamKinds(); }
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override;
  void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                           VectorRef grad) const override;
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override;
  void ValidatePoint(const ConstVectorRef& x, const std::string& field) const override;
  Eigen::MatrixXd Cross(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B) const override;
  Eigen::VectorXd Diagonal(const Eigen::MatrixXd& X) const override;
  Eigen::VectorXd ContractGradientLogParams(const Eigen::MatrixXd& X,
                                            const Eigen::MatrixXd& W) const override;
  void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                      KernelPointCache* cache) const override;
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const KernelPointCache& cache, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const override;
  bool HasFeatures() const override { return inner_->HasFeatures(); }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 private:
  std::vector<int> InputDims() const override;
  // E of every column (embedding_dim() x n).
  Eigen::MatrixXd EmbedAll(const Eigen::MatrixXd& X) const;
  // grad(other_dims[i]) += embedded_grad(i).
  void AddOtherGradient(const Eigen::VectorXd& embedded_grad, VectorRef grad) const;

  std::unique_ptr<Kernel> inner_;
  std::vector<int> other_dims_, categorical_dims_, sizes_;
  int embedding_dim_ = 0;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_ONE_HOT_KERNEL_H_
