// The kernel of one explicit basis function: k(a, b) = s2 phi(a) phi(b), the covariance of
// g(u) = beta phi(u) with beta ~ N(0, s2). Added to another kernel it is the GP with the explicit
// basis function phi whose coefficient is integrated out (Rasmussen & Williams 2006, sec. 2.7,
// eqs. 2.39-2.42 with b = 0, B = s2): the posterior fits beta phi(u) plus a GP residual. With
// phi a user's simulator, centred and scaled (model/prior_mean_feature.h), it is the prior mean
// a m(x) + b of limbo's FunctionARD (Cully et al. 2015) with a's prior variance s2 fitted by the
// marginal likelihood and b left to the output standardization.
//
// Units: phi takes the model input u (the unit cube, the kernel's full input dimension) and
// returns a dimensionless value. Log-params [log s2] (kind: signal variance).
// Cost: every batch hook (Cross, Diagonal, Gram, CrossWithPoint, the contractions) calls phi
// once per point, never once per pair; the gradient in a calls ScalarFeature::Gradient once;
// Value(x, x) calls phi once. And phi at the observations is called once per observation, not
// once per acquisition evaluation: each thread keeps phi at the last set of points it was given
// as the observations (X of Gram, GramAndParts, CrossWithPoint and the contractions, A of
// Cross), for this feature, and computes only the columns that are new (those after the
// leading columns equal, bit for bit, to the kept points). With phi a user's simulator
// (model/prior_mean_feature.h) that is most of a round's calls. The values are the ones phi
// returns, so every result is the same, to the last bit, as without the memo.
// Features: the exact one-feature map sqrt(s2) phi(u) (GP-TS sample paths).
// Thread safety: const members are safe to call concurrently when the feature's are (the
// Optimizer's maximizer calls them from several OpenMP threads): the memo above is per thread.
#ifndef GPBANDIT_KERNEL_FEATURE_KERNEL_H_
#define GPBANDIT_KERNEL_FEATURE_KERNEL_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

// One scalar basis function phi(u) of the model input u and its gradient.
// Contract: Value and Gradient are safe to call concurrently and return finite values for every
// u the kernel is given (they may throw std::invalid_argument otherwise; the Optimizer's models
// validate the user's values there, model/prior_mean_feature.h).
class ScalarFeature {
 public:
  virtual ~ScalarFeature() = default;
  // phi(u); u has the kernel's full input dimension.
  virtual double Value(const ConstVectorRef& u) const = 0;
  // grad += scale * d phi(u) / du (grad has the size of u).
  virtual void AccumulateGradient(const ConstVectorRef& u, double scale, VectorRef grad) const = 0;
  // A short name for Describe(), e.g. "prior_mean('sim')".
  virtual std::string Describe() const = 0;
};

class FeatureKernel : public Kernel {
 public:
  // feature: not null; variance s2: finite and > 0; min_input_dim: the input dimension phi
  // reads (>= 0). Else std::invalid_argument naming the argument.
  FeatureKernel(std::shared_ptr<const ScalarFeature> feature, int min_input_dim,
                double variance = 1.0);

  double variance() const;
  const ScalarFeature& feature() const { return *feature_; }

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
  // cache->values = s2 phi(x) phi(X_j); cache->slopes keeps phi(X_j) for the gradient.
  void CrossWithPoint(const ConstVectorRef& x, const Eigen::MatrixXd& X, bool for_gradient,
                      KernelPointCache* cache) const override;
  // grad += c_scale s2 (sum_j c_j phi(X_j)) d phi(x) / dx.
  void AccumulateWeightedGradientA(const ConstVectorRef& x, const Eigen::MatrixXd& X,
                                   const KernelPointCache& cache, const Eigen::VectorXd& c,
                                   double c_scale, VectorRef grad) const override;
  bool HasFeatures() const override { return true; }
  std::unique_ptr<KernelFeatures> DrawFeatures(int num_features, Rng& rng) const override;

 private:
  // phi at every column of X.
  Eigen::VectorXd FeatureValues(const Eigen::MatrixXd& X) const;
  // The same from this thread's memo (above), which it updates to X; valid until this thread's
  // next call.
  const Eigen::VectorXd& KeptFeatureValues(const Eigen::MatrixXd& X) const;
  // phi at `points`, for the feature whose owner `feature` shares.
  struct FeatureValueMemo {
    std::weak_ptr<const ScalarFeature> feature;
    Eigen::MatrixXd points;
    Eigen::VectorXd values;
  };

  std::shared_ptr<const ScalarFeature> feature_;
  int min_input_dim_;
  double log_variance_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_FEATURE_KERNEL_H_
