// The kernels over (x, fidelity): closed forms of tiny cases, positive semi-definiteness,
// gradients in x and in the log-params against finite differences, the fast paths against the
// pairwise definitions, exact features, the log-param round trip, and refused input.
#include "gpbandit/kernel/fidelity_kernels.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <chrono>
#include <cmath>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

// Inputs: x in coordinates 0 and 1, the fidelity in coordinate 2.
constexpr int kDim = 3;
constexpr int kFidelityDim = 2;

std::vector<std::unique_ptr<Kernel>> TwoParts(std::unique_ptr<Kernel> a,
                                              std::unique_ptr<Kernel> b) {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(a));
  parts.push_back(std::move(b));
  return parts;
}

std::unique_ptr<Kernel> Icm3() {
  Eigen::MatrixXd L(3, 2);
  L << 0.9, -0.2,  //
      0.7, 0.4,    //
      -0.3, 0.8;
  return std::make_unique<CoregionalizationKernel>(
      MakeMatern52({0, 1}, true, 1.2, 0.6), kFidelityDim, L, Eigen::Vector3d(0.1, 0.2, 0.05));
}

std::unique_ptr<Kernel> Ar3() {
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(MakeSquaredExponential({0, 1}, true, 1.5, 0.5));
  parts.push_back(MakeMatern32({0, 1}, false, 0.3, 0.3));
  parts.push_back(MakeSquaredExponential({0}, true, 0.1, 0.2));
  return std::make_unique<AutoregressiveKernel>(std::move(parts), kFidelityDim,
                                                std::vector<double>{0.8, -1.3});
}

struct Case {
  std::string name;
  int num_fidelities;
  std::function<std::unique_ptr<Kernel>()> make;
};

std::vector<Case> Cases() {
  return {{"icm3", 3, Icm3},
          {"icm2_rank1", 2,
           [] {
             return std::make_unique<CoregionalizationKernel>(MakeSquaredExponential({0, 1}),
                                                              kFidelityDim, 2, 1);
           }},
          {"ar3", 3, Ar3},
          {"ar2", 2, [] {
             return std::make_unique<AutoregressiveKernel>(
                 TwoParts(MakeMatern52({0, 1}, true, 1.0, 0.4), MakeSquaredExponential({0, 1})),
                 kFidelityDim, std::vector<double>{0.6});
           }}};
}

// n points with x uniform in [0, 1]^2 and a uniform fidelity index.
Eigen::MatrixXd Points(int n, int num_fidelities, Rng& rng) {
  Eigen::MatrixXd X = testing::UniformPoints(kDim, n, 0.0, 1.0, rng);
  std::uniform_int_distribution<int> fidelity(0, num_fidelities - 1);
  for (int j = 0; j < n; ++j) X(kFidelityDim, j) = fidelity(rng);
  return X;
}

Eigen::Vector3d P(double x0, double x1, int fidelity) { return Eigen::Vector3d(x0, x1, fidelity); }

TEST(FidelityKernelsTest, IcmMatrixOfATinyCaseByHand) {
  // B = L L^T + diag(kappa) with L = (0.6, 0.8)^T, kappa = (0.1, 0.2):
  // B = [[0.46, 0.48], [0.48, 0.84]]; k_x = SE(variance 1, lengthscale 0.5) on coordinate 0.
  Eigen::MatrixXd L(2, 1);
  L << 0.6, 0.8;
  CoregionalizationKernel k(MakeSquaredExponential({0}, true, 1.0, 0.5), 1, L,
                            Eigen::Vector2d(0.1, 0.2));
  EXPECT_EQ(k.Describe(), "icm(fidelity_dim=1; fidelities=2; rank=1; " +
                              MakeSquaredExponential({0}, true, 1.0, 0.5)->Describe() + ")");
  Eigen::MatrixXd X(2, 3);
  X << 0.1, 0.4, 0.4,  //
      0.0, 1.0, 0.0;
  const double e = std::exp(-0.09 / (2 * 0.25));  // SE at distance 0.3
  Eigen::Matrix3d expected;
  expected << 0.46, 0.48 * e, 0.46 * e,  //
      0.48 * e, 0.84, 0.48,              //
      0.46 * e, 0.48, 0.46;
  EXPECT_TRUE(k.Gram(X).isApprox(expected, 1e-14)) << k.Gram(X);
  EXPECT_NEAR(k.Value(X.col(0), X.col(1)), 0.48 * e, 1e-15);
}

TEST(FidelityKernelsTest, AutoregressiveMatrixOfATinyCaseByHand) {
  // f_1 = rho f_0 + g_1, rho = 0.7, k_0 = SE(1.5, 0.5), k_1 = SE(0.3, 0.2), on coordinate 0.
  AutoregressiveKernel k(TwoParts(MakeSquaredExponential({0}, true, 1.5, 0.5),
                                  MakeSquaredExponential({0}, true, 0.3, 0.2)),
                         1, {0.7});
  const double d2 = 0.09;
  const double k0 = 1.5 * std::exp(-d2 / (2 * 0.25));
  const double k1 = 0.3 * std::exp(-d2 / (2 * 0.04));
  const Eigen::Vector2d a0(0.1, 0.0), a1(0.1, 1.0), b0(0.4, 0.0), b1(0.4, 1.0);
  EXPECT_NEAR(k.Value(a0, b0), k0, 1e-15);
  EXPECT_NEAR(k.Value(a0, b1), 0.7 * k0, 1e-15);
  EXPECT_NEAR(k.Value(a1, b0), 0.7 * k0, 1e-15);
  EXPECT_NEAR(k.Value(a1, b1), 0.49 * k0 + k1, 1e-15);
  EXPECT_NEAR(k.Value(a1, a1), 0.49 * 1.5 + 0.3, 1e-15);
}

TEST(FidelityKernelsTest, AutoregressiveChainOfThreeByHand) {
  // f_1 = r1 f_0 + g_1, f_2 = r2 f_1 + g_2: cov(f_0, f_2) = r1 r2 k_0,
  // cov(f_1, f_2) = r1^2 r2 k_0 + r2 k_1, var(f_2) = r1^2 r2^2 k_0 + r2^2 k_1 + k_2.
  const double r1 = 0.8, r2 = -1.3;
  std::unique_ptr<Kernel> k = Ar3();
  const auto& ar = static_cast<const AutoregressiveKernel&>(*k);
  const Eigen::Vector3d a(0.2, 0.7, 0), b(0.5, 0.1, 0);
  const double k0 = ar.part(0).Value(a, b), k1 = ar.part(1).Value(a, b);
  const double k2 = ar.part(2).Value(a, b);
  auto at = [](Eigen::Vector3d p, int f) {
    p(kFidelityDim) = f;
    return p;
  };
  EXPECT_NEAR(k->Value(at(a, 0), at(b, 2)), r1 * r2 * k0, 1e-14);
  EXPECT_NEAR(k->Value(at(a, 1), at(b, 2)), r1 * r1 * r2 * k0 + r2 * k1, 1e-14);
  EXPECT_NEAR(k->Value(at(a, 2), at(b, 2)), r1 * r1 * r2 * r2 * k0 + r2 * r2 * k1 + k2, 1e-14);
  EXPECT_NEAR(k->Value(at(a, 2), at(b, 1)), r1 * r1 * r2 * k0 + r2 * k1, 1e-14);
  EXPECT_NEAR(k->Value(at(a, 1), at(b, 1)), r1 * r1 * k0 + k1, 1e-14);
}

TEST(FidelityKernelsTest, PriorCovarianceAndCorrelationOfTheAutoregressiveModel) {
  AutoregressiveKernel k(TwoParts(MakeSquaredExponential({0}, true, 2.0, 0.5),
                                  MakeSquaredExponential({0}, true, 0.5, 0.2)),
                         1, {0.5});
  const Eigen::MatrixXd C = FidelityPriorCovariance(k, Eigen::Vector2d(0.3, 1.0), 1, 2);
  Eigen::Matrix2d expected;
  expected << 2.0, 1.0,  //
      1.0, 0.25 * 2.0 + 0.5;
  EXPECT_TRUE(C.isApprox(expected, 1e-14)) << C;
  ExpectInvalid([&] { FidelityPriorCovariance(k, Eigen::Vector2d(0.3, 1.0), 2, 2); },
                "fidelity_dim = 2");
}

class FidelityKernelCaseTest : public ::testing::TestWithParam<Case> {};

TEST_P(FidelityKernelCaseTest, GramMatricesArePositiveSemiDefinite) {
  Rng rng(testing::TestSeed(11));
  const std::unique_ptr<Kernel> k = GetParam().make();
  std::normal_distribution<double> normal(0.0, 1.0);
  for (int trial = 0; trial < 20; ++trial) {
    Eigen::VectorXd theta = k->GetLogParams();
    for (Eigen::Index i = 0; i < theta.size(); ++i) theta(i) += 0.5 * normal(rng);
    k->SetLogParams(theta);
    const Eigen::MatrixXd K = k->Gram(Points(40, GetParam().num_fidelities, rng));
    const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(K).eigenvalues();
    EXPECT_GE(eig.minCoeff(), -1e-10 * eig.maxCoeff()) << "trial " << trial;
    EXPECT_TRUE(K.isApprox(K.transpose(), 1e-14));
  }
}

TEST_P(FidelityKernelCaseTest, GradientsInLogParamsMatchFiniteDifferences) {
  Rng rng(testing::TestSeed(12));
  const std::unique_ptr<Kernel> k = GetParam().make();
  const Eigen::MatrixXd X = Points(6, GetParam().num_fidelities, rng);
  const Eigen::VectorXd theta = k->GetLogParams();
  for (int i = 0; i < X.cols(); ++i) {
    for (int j = 0; j < X.cols(); ++j) {
      Eigen::VectorXd grad(k->NumParams());
      k->GradientLogParams(X.col(i), X.col(j), grad);
      const std::unique_ptr<Kernel> probe = k->Clone();
      ExpectGradientNear(
          [&](const Eigen::VectorXd& t) {
            probe->SetLogParams(t);
            return probe->Value(X.col(i), X.col(j));
          },
          theta, grad, 1e-5, 1e-8, GetParam().name);
    }
  }
}

TEST_P(FidelityKernelCaseTest, GradientsInXMatchFiniteDifferencesAndVanishInTheFidelity) {
  Rng rng(testing::TestSeed(13));
  const std::unique_ptr<Kernel> k = GetParam().make();
  const Eigen::MatrixXd X = Points(6, GetParam().num_fidelities, rng);
  for (int i = 0; i < X.cols(); ++i) {
    for (int j = 0; j < X.cols(); ++j) {
      if (i == j) continue;
      Eigen::VectorXd grad = Eigen::VectorXd::Zero(kDim);
      k->AccumulateGradientA(X.col(i), X.col(j), 2.0, grad);
      EXPECT_EQ(grad(kFidelityDim), 0.0);
      const Eigen::VectorXd x = X.col(i).head(2);
      ExpectGradientNear(
          [&](const Eigen::VectorXd& v) {
            Eigen::Vector3d a = X.col(i);
            a.head(2) = v;
            return 2.0 * k->Value(a, X.col(j));
          },
          x, grad.head(2), 1e-5, 1e-8, GetParam().name);
    }
  }
}

TEST_P(FidelityKernelCaseTest, BatchFormsAndFastPathsMatchThePairwiseDefinitions) {
  Rng rng(testing::TestSeed(14));
  const std::unique_ptr<Kernel> k = GetParam().make();
  const Eigen::MatrixXd X = Points(9, GetParam().num_fidelities, rng);
  const Eigen::MatrixXd Y = Points(4, GetParam().num_fidelities, rng);
  Eigen::MatrixXd W = Eigen::MatrixXd::Random(9, 9);
  W = (W + W.transpose()).eval();

  Eigen::MatrixXd pairwise(9, 4);
  for (int i = 0; i < 9; ++i)
    for (int j = 0; j < 4; ++j) pairwise(i, j) = k->Value(X.col(i), Y.col(j));
  EXPECT_TRUE(k->Cross(X, Y).isApprox(pairwise, 1e-13));
  const Eigen::MatrixXd K = k->Gram(X);
  Eigen::VectorXd contracted = Eigen::VectorXd::Zero(k->NumParams());
  Eigen::VectorXd g(k->NumParams());
  for (int i = 0; i < 9; ++i) {
    EXPECT_NEAR(k->Diagonal(X)(i), k->Value(X.col(i), X.col(i)), 1e-13);
    for (int j = 0; j < 9; ++j) {
      EXPECT_NEAR(K(i, j), k->Value(X.col(i), X.col(j)), 1e-13);
      k->GradientLogParams(X.col(i), X.col(j), g);
      contracted += W(i, j) * g;
    }
  }
  EXPECT_TRUE(k->ContractGradientLogParams(X, W).isApprox(contracted, 1e-11));

  Eigen::MatrixXd gram;
  KernelGramCache gram_cache;
  k->GramAndParts(X, &gram, &gram_cache, 2);
  EXPECT_TRUE(gram.isApprox(K, 1e-14));
  gram.diagonal().array() += 0.3;  // the caller's noise must not reach the gradient
  EXPECT_TRUE(
      k->ContractGradientLogParamsFromParts(X, W, gram, gram_cache, 2).isApprox(contracted, 1e-11));

  // One point against many, and the weighted gradient in that point.
  KernelPointCache point_cache;
  const Eigen::VectorXd c = Eigen::VectorXd::Random(9);
  for (int p = 0; p < 4; ++p) {
    k->CrossWithPoint(Y.col(p), X, true, &point_cache);
    EXPECT_TRUE(point_cache.values.isApprox(pairwise.col(p), 1e-13));
    Eigen::VectorXd fast = Eigen::VectorXd::Zero(kDim), slow = Eigen::VectorXd::Zero(kDim);
    k->AccumulateWeightedGradientA(Y.col(p), X, point_cache, c, 0.5, fast);
    for (int j = 0; j < 9; ++j) k->AccumulateGradientA(Y.col(p), X.col(j), 0.5 * c(j), slow);
    EXPECT_TRUE(fast.isApprox(slow, 1e-12)) << fast.transpose() << " vs " << slow.transpose();
  }
}

// With the coupling parameters at 0, no level below the target covaries with the target, while
// the target's own variance stays positive; other kernels have no coupling parameters.
TEST_P(FidelityKernelCaseTest, CouplingParamsAtZeroDecoupleTheTarget) {
  std::unique_ptr<Kernel> kernel = GetParam().make();
  const int levels = GetParam().num_fidelities, target = levels - 1;
  const std::vector<int> coupling = TargetCouplingParams(*kernel);
  const int expected = dynamic_cast<AutoregressiveKernel*>(kernel.get()) != nullptr
                           ? levels - 1
                           : (levels - 1) * dynamic_cast<CoregionalizationKernel&>(*kernel).rank();
  ASSERT_EQ(static_cast<int>(coupling.size()), expected);
  Eigen::VectorXd params = kernel->GetLogParams();
  const std::vector<std::string> names = kernel->ParamNames();
  for (const int i : coupling) {
    EXPECT_EQ(kernel->ParamKinds()[static_cast<std::size_t>(i)], FidelityFactorKind()) << names[i];
    params(i) = 0.0;
  }
  kernel->SetLogParams(params);
  for (int i = 0; i < target; ++i) {
    EXPECT_EQ(kernel->Value(P(0.2, 0.7, i), P(0.4, 0.1, target)), 0.0) << i;
    EXPECT_EQ(kernel->Value(P(0.3, 0.3, target), P(0.3, 0.3, i)), 0.0) << i;
  }
  EXPECT_GT(kernel->Value(P(0.3, 0.3, target), P(0.3, 0.3, target)), 0.0);
  EXPECT_TRUE(TargetCouplingParams(*MakeSquaredExponential({0, 1})).empty());
}

TEST_P(FidelityKernelCaseTest, LogParamsRoundTripIntoAFreshKernel) {
  const std::unique_ptr<Kernel> k = GetParam().make();
  Eigen::VectorXd theta = k->GetLogParams();
  theta += Eigen::VectorXd::LinSpaced(theta.size(), -0.4, 0.3);
  k->SetLogParams(theta);
  const std::unique_ptr<Kernel> fresh = GetParam().make();
  EXPECT_EQ(fresh->Describe(), k->Describe());
  fresh->SetLogParams(k->GetLogParams());
  EXPECT_EQ(fresh->GetLogParams(), theta);
  Rng rng(15);
  const Eigen::MatrixXd X = Points(12, GetParam().num_fidelities, rng);
  EXPECT_EQ(fresh->Gram(X), k->Gram(X));
  EXPECT_EQ(k->Clone()->Gram(X), k->Gram(X));
  EXPECT_EQ(k->ParamNames().size(), static_cast<std::size_t>(k->NumParams()));
  EXPECT_EQ(k->ParamKinds().size(), static_cast<std::size_t>(k->NumParams()));
  // A refused vector changes nothing.
  ExpectInvalid([&] { k->SetLogParams(Eigen::VectorXd::Zero(k->NumParams() + 1)); }, "size");
  Eigen::VectorXd bad = theta;
  bad(bad.size() - 1) = std::nan("");
  EXPECT_THROW(k->SetLogParams(bad), std::invalid_argument);
  EXPECT_EQ(k->GetLogParams(), theta);
}

TEST_P(FidelityKernelCaseTest, FeaturesOfExactPartsReproduceTheKernel) {
  // With linear parts (an exact feature map) the fidelity features are exact too.
  const Case& c = GetParam();
  std::unique_ptr<Kernel> k;
  if (c.name.rfind("icm", 0) == 0) {
    k = std::make_unique<CoregionalizationKernel>(MakeLinear({0, 1}, true, 1.3, 0.7), kFidelityDim,
                                                  c.num_fidelities, 2);
    Eigen::VectorXd theta = k->GetLogParams();
    theta += Eigen::VectorXd::LinSpaced(theta.size(), -0.5, 0.5);
    k->SetLogParams(theta);
  } else {
    std::vector<std::unique_ptr<Kernel>> parts;
    for (int l = 0; l < c.num_fidelities; ++l)
      parts.push_back(MakeLinear({0, 1}, true, 1.0 + l, 0.8));
    k = std::make_unique<AutoregressiveKernel>(std::move(parts), kFidelityDim,
                                               std::vector<double>(c.num_fidelities - 1, -0.7));
  }
  ASSERT_TRUE(k->HasFeatures());
  Rng rng(16);
  const std::unique_ptr<KernelFeatures> phi = k->DrawFeatures(10, rng);
  const Eigen::MatrixXd X = Points(6, c.num_fidelities, rng);
  Eigen::VectorXd pa, pb;
  for (int i = 0; i < 6; ++i) {
    phi->Evaluate(X.col(i), &pa);
    ASSERT_EQ(pa.size(), phi->size());
    for (int j = 0; j < 6; ++j) {
      phi->Evaluate(X.col(j), &pb);
      EXPECT_NEAR(pa.dot(pb), k->Value(X.col(i), X.col(j)), 1e-12);
    }
    const Eigen::VectorXd w = Eigen::VectorXd::LinSpaced(phi->size(), -1.0, 2.0);
    Eigen::VectorXd grad = Eigen::VectorXd::Zero(kDim);
    phi->AccumulateWeightedGradient(X.col(i), w, grad);
    ExpectGradientNear(
        [&](const Eigen::VectorXd& v) {
          Eigen::Vector3d a = X.col(i);
          a.head(2) = v;
          Eigen::VectorXd values;
          phi->Evaluate(a, &values);
          return w.dot(values);
        },
        X.col(i).head(2), grad.head(2), 1e-6, 1e-8, c.name);
  }
}

TEST_P(FidelityKernelCaseTest, AFidelityOutOfRangeIsRefusedNamingFieldAndValue) {
  const std::unique_ptr<Kernel> k = GetParam().make();
  const int F = GetParam().num_fidelities;
  k->ValidatePoint(P(0.2, 0.3, F - 1), "x");
  ExpectInvalid([&] { k->ValidatePoint(P(0.2, 0.3, F), "x"); },
                "x[2] = " + std::to_string(F) + " is not a fidelity index");
  ExpectInvalid([&] { k->ValidatePoint(P(0.2, 0.3, -1), "x"); }, "x[2] = -1");
  ExpectInvalid([&] { k->ValidatePoint(Eigen::Vector3d(0.2, 0.3, 0.5), "x"); }, "x[2] = 0.5");
  ExpectInvalid([&] { k->ValidatePoint(Eigen::Vector3d(0.2, std::nan(""), 0.0), "x"); }, "x[1]");
  ExpectInvalid([&] { k->ValidatePoint(Eigen::Vector2d(0.2, 0.3), "x"); }, "x has size 2");
}

INSTANTIATE_TEST_SUITE_P(Both, FidelityKernelCaseTest, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return info.param.name;
                         });

TEST(FidelityKernelsTest, MixingParamsHaveTheirKindsAndNames) {
  const std::unique_ptr<Kernel> ar = Ar3();
  const std::vector<std::string> names = ar->ParamNames();
  const std::vector<ParamKind> kinds = ar->ParamKinds();
  EXPECT_EQ(names[names.size() - 2], "ar.rho[1]");
  EXPECT_EQ(names.back(), "ar.rho[2]");
  EXPECT_EQ(kinds.back(), FidelityFactorKind());
  EXPECT_EQ(FidelityFactorKind().name(), "fidelity_factor");
  EXPECT_NEAR(std::log(FidelityFactorKind().info().default_range.min), -5.0, 1e-12);
  EXPECT_EQ(ar->GetLogParams()(ar->NumParams() - 1), -1.3);  // stored as is, not as a log
  const std::unique_ptr<Kernel> icm = Icm3();
  const std::vector<std::string> icm_names = icm->ParamNames();
  EXPECT_EQ(icm_names.front(), "part[0]." + MakeMatern52({0, 1})->ParamNames().front());
  EXPECT_EQ(icm_names[icm_names.size() - 4], "icm.L[2,1]");
  EXPECT_EQ(icm_names.back(), "icm.log_kappa[2]");
  EXPECT_EQ(icm->ParamKinds().back(), ParamKind::kSignalVariance);
}

TEST(FidelityKernelsTest, BadConstructionIsRefusedNamingTheField) {
  ExpectInvalid([] { CoregionalizationKernel(MakeSquaredExponential({0}), 1, 2, 3); }, "rank = 3");
  ExpectInvalid([] { CoregionalizationKernel(MakeSquaredExponential({0}), -1, 2); },
                "fidelity_dim = -1");
  ExpectInvalid([] { CoregionalizationKernel(nullptr, 1, 2); }, "parts[0] is null");
  ExpectInvalid(
      [] {
        CoregionalizationKernel(MakeSquaredExponential({0}), 1, Eigen::MatrixXd::Ones(2, 1),
                                Eigen::Vector2d(0.1, -0.2));
      },
      "kappa[1]");
  ExpectInvalid(
      [] {
        AutoregressiveKernel(TwoParts(MakeSquaredExponential({0}), MakeSquaredExponential({0})), 1,
                             {0.5, 0.5});
      },
      "rho has 2 entries, expected 1");
  ExpectInvalid(
      [] {
        AutoregressiveKernel(TwoParts(MakeSquaredExponential({0}), MakeSquaredExponential({0})), 1,
                             {std::nan("")});
      },
      "rho[0] = nan");
  ExpectInvalid([] { AutoregressiveKernel({}, 1); }, "parts is empty");
}

TEST(FidelityKernelsTest, TimePerKernelMatrixAtThreeHundredPoints) {
  // Measured, not asserted beyond sanity: the time is reported in docs/fidelities.md.
  Rng rng(17);
  std::vector<Case> cases = Cases();
  // The baseline: one Matern 5/2 kernel over x alone.
  cases.push_back({"matern52_alone", 1, [] { return MakeMatern52({0, 1}, true, 1.2, 0.6); }});
  for (const Case& c : cases) {
    const std::unique_ptr<Kernel> k = c.make();
    const Eigen::MatrixXd X = Points(300, c.num_fidelities, rng);
    Eigen::MatrixXd gram;
    KernelGramCache cache;
    const int reps = 20;
    const auto start = std::chrono::steady_clock::now();
    for (int r = 0; r < reps; ++r) k->GramAndParts(X, &gram, &cache, 1);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count() /
        reps;
    std::cout << "[ timing   ] " << c.name << " GramAndParts n=300: " << ms << " ms" << std::endl;
    EXPECT_TRUE(gram.allFinite());
  }
}

}  // namespace
}  // namespace gpbandit
