// The kernels gpbandit ships, each in a typical configuration, and composites of them (sum,
// product, disjoint and overlapping dims, nested): the cases every kernel property test runs
// over (kernel_test.cc, kernel_hooks_test.cc).
#ifndef GPBANDIT_TESTS_KERNEL_KERNEL_CASES_H_
#define GPBANDIT_TESTS_KERNEL_KERNEL_CASES_H_

#include <Eigen/Core>
#include <cmath>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "gpbandit/kernel/feature_kernel.h"
#include "gpbandit/kernel/kernel.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace testing {

// phi(u) = sin(u_0) + 0.5 tanh(u_1) - 0.2 (bounded, so that huge inputs give finite values), with
// its gradient: a basis function for FeatureKernel.
class SineFeature : public ScalarFeature {
 public:
  double Value(const ConstVectorRef& u) const override {
    return std::sin(u(0)) + 0.5 * std::tanh(u(1)) - 0.2;
  }
  void AccumulateGradient(const ConstVectorRef& u, double scale, VectorRef grad) const override {
    grad(0) += scale * std::cos(u(0));
    grad(1) += scale * 0.5 * (1.0 - std::tanh(u(1)) * std::tanh(u(1)));
  }
  std::string Describe() const override { return "sine"; }
};

inline std::unique_ptr<Kernel> MakeSineFeatureKernel(double variance) {
  return std::make_unique<FeatureKernel>(std::make_shared<SineFeature>(), 2, variance);
}

// A fixed 4 x 4 symmetric positive definite inter-item covariance.
inline Eigen::MatrixXd ItemCovariance() {
  Eigen::MatrixXd B(4, 4);
  B << 1.0, 0.2, -0.5, 0.3,  //
      0.4, 1.1, 0.1, -0.2,   //
      -0.3, 0.6, 0.9, 0.5,   //
      0.2, -0.1, 0.7, 1.2;
  return B * B.transpose() / 4.0 + 0.05 * Eigen::MatrixXd::Identity(4, 4);
}

struct KernelCase {
  std::string name;
  int dim;                      // full input dimension of the test points
  std::vector<int> index_dims;  // coordinates that hold item indices in [0, 4)
  std::function<std::unique_ptr<Kernel>()> make;
};

inline void PrintTo(const KernelCase& c, std::ostream* os) { *os << c.name; }

inline std::vector<std::unique_ptr<Kernel>> Parts(std::unique_ptr<Kernel> a,
                                                  std::unique_ptr<Kernel> b) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(a));
  parts.push_back(std::move(b));
  return parts;
}

inline std::vector<KernelCase> AllCases() {
  return {
      {"se_ard", 3, {}, [] { return MakeSquaredExponential(FirstDims(3), true, 1.7, 0.9); }},
      {"se_shared", 3, {}, [] { return MakeSquaredExponential(FirstDims(3), false, 0.6, 1.2); }},
      {"se_sparse_dims",
       5,
       {},
       [] {
         return MakeSquaredExponential({1, 3}, true, 1.0, 0.8);
       }},
      {"matern12_ard", 3, {}, [] { return MakeMatern12(FirstDims(3), true, 1.3, 1.1); }},
      {"matern12_shared", 2, {}, [] { return MakeMatern12(FirstDims(2), false, 0.9, 0.7); }},
      {"matern32_ard", 3, {}, [] { return MakeMatern32(FirstDims(3), true, 2.0, 0.9); }},
      {"matern32_shared", 2, {}, [] { return MakeMatern32(FirstDims(2), false, 1.0, 1.0); }},
      {"matern52_ard", 3, {}, [] { return MakeMatern52(FirstDims(3), true, 0.8, 1.0); }},
      {"matern52_shared", 2, {}, [] { return MakeMatern52(FirstDims(2), false, 1.5, 0.6); }},
      {"periodic_ard",
       3,
       {},
       [] {
         return MakePeriodic({0, 2}, true, 1.2, 0.8, 0.7);
       }},
      {"periodic_shared", 2, {}, [] { return MakePeriodic(FirstDims(2), false, 0.9, 1.1, 1.3); }},
      {"linear_ard", 3, {}, [] { return MakeLinear(FirstDims(3), true, 1.2, 0.9); }},
      {"linear_shared",
       3,
       {},
       [] {
         return MakeLinear({0, 2}, false, 0.7, 1.3);
       }},
      {"constant", 2, {}, [] { return MakeConstant(1.4); }},
      {"index", 3, {2}, [] { return MakeIndexKernel(2, ItemCovariance(), 1.3); }},
      {"categorical",
       3,
       {1, 2},
       [] {
         return MakeCategorical({1, 2}, {4, 5}, true, 1.2, 0.7);
       }},
      {"categorical_shared",
       3,
       {0, 2},
       [] {
         return MakeCategorical({0, 2}, {4, 4}, false, 0.8, 1.3);
       }},
      {"product_real_categorical",
       3,
       {2},
       [] {
         return MakeProduct(Parts(MakeMatern52({0, 1}), MakeCategorical({2}, {4}, true, 0.9)));
       }},
      {"one_hot",
       3,
       {1},
       [] {
         return MakeOneHot(MakeMatern52(FirstDims(6), true, 1.1, 0.8), {0, 2}, {1}, {4});
       }},
      {"sum_disjoint",
       3,
       {},
       [] {
         return MakeSum(Parts(MakeSquaredExponential({0, 1}), MakeLinear({2}, true, 0.5)));
       }},
      {"product_disjoint",
       3,
       {},
       [] {
         return MakeProduct(Parts(MakeMatern52({0, 1}), MakeMatern32({2}, true, 1.3)));
       }},
      {"product_action_context",
       3,
       {2},
       [] {
         return MakeProduct(
             Parts(MakeSquaredExponential({0, 1}), MakeIndexKernel(2, ItemCovariance())));
       }},
      {"product_action_periodic_context",
       3,
       {},
       [] {
         return MakeProduct(Parts(MakeMatern52({0, 1}), MakePeriodic({2}, true, 1.0, 0.9)));
       }},
      {"sum_periodic_linear",
       2,
       {},
       [] { return MakeSum(Parts(MakePeriodic({0}, true, 0.8, 1.2, 0.6), MakeLinear({1}))); }},
      {"feature", 2, {}, [] { return MakeSineFeatureKernel(0.7); }},
      {"sum_matern_feature",
       3,
       {},
       [] {
         return MakeSum(
             Parts(MakeMatern52(FirstDims(3), true, 1.1, 0.8), MakeSineFeatureKernel(1.3)));
       }},
      {"sum_overlapping",
       2,
       {},
       [] { return MakeSum(Parts(MakeMatern12(FirstDims(2)), MakeSquaredExponential({1}))); }},
      {"nested",
       4,
       {3},
       [] {
         std::vector<std::unique_ptr<Kernel>> three;
         three.push_back(MakeSum(Parts(MakeSquaredExponential({0}), MakeConstant(0.3))));
         three.push_back(MakeProduct(Parts(MakeLinear({1}), MakeMatern32({2}, false))));
         three.push_back(MakeIndexKernel(3, ItemCovariance(), 0.8));
         return MakeProduct(std::move(three));
       }},
  };
}

// Random test points for a case: uniform in [-1.5, 1.5], item indices uniform in {0..3}.
inline Eigen::MatrixXd RandomPoints(const KernelCase& c, int n, Rng& rng) {
  Eigen::MatrixXd X = UniformPoints(c.dim, n, -1.5, 1.5, rng);
  std::uniform_int_distribution<int> item(0, 3);
  for (int d : c.index_dims)
    for (int j = 0; j < n; ++j) X(d, j) = item(rng);
  return X;
}

// The case's kernel with its log-params moved by random offsets, so that ARD lengthscales
// differ from each other and from 1.
inline std::unique_ptr<Kernel> MakePerturbed(const KernelCase& c, Rng& rng) {
  std::unique_ptr<Kernel> kernel = c.make();
  std::uniform_real_distribution<double> shift(-0.3, 0.3);
  Eigen::VectorXd params = kernel->GetLogParams();
  for (int i = 0; i < params.size(); ++i) params(i) += shift(rng);
  kernel->SetLogParams(params);
  return kernel;
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_KERNEL_KERNEL_CASES_H_
