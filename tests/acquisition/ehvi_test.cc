#include "gpbandit/acquisition/ehvi.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <iostream>
#include <vector>

#include "gpbandit/acquisition/log_expected_improvement.h"
#include "numerics/math.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectGradientNear;
using testing::ExpectInvalid;

Eigen::MatrixXd Front2D() {
  Eigen::MatrixXd front(2, 4);
  front << 0.2, 0.5, 0.7, 0.9,  //
      0.95, 0.8, 0.5, 0.1;
  return front;
}

Eigen::MatrixXd Front3D() {
  Eigen::MatrixXd front(3, 6);
  front << 0.9, 0.1, 0.2, 0.6, 0.5, 0.3,  //
      0.1, 0.8, 0.3, 0.6, 0.2, 0.7,       //
      0.2, 0.3, 0.9, 0.1, 0.7, 0.6;
  return front;
}

// The hypervolume improvement of y over a 2-D front, written out independently of
// hypervolume.cc: the area of [r, y] minus the staircase of the front clipped at y.
double BruteImprovement2D(const Eigen::MatrixXd& front, const Eigen::Vector2d& r, double y0,
                          double y1) {
  if (y0 <= r(0) || y1 <= r(1)) return 0.0;
  std::vector<std::pair<double, double>> clipped;
  for (Eigen::Index j = 0; j < front.cols(); ++j)
    clipped.emplace_back(std::min(front(0, j), y0), std::min(front(1, j), y1));
  std::sort(clipped.rbegin(), clipped.rend());
  double dominated = 0.0, top = r(1);
  for (const auto& [a, b] : clipped) {
    if (b > top) {
      dominated += (a - r(0)) * (b - top);
      top = b;
    }
  }
  return (y0 - r(0)) * (y1 - r(1)) - dominated;
}

// Quadrature nodes and weights (density included) for E[g(Y)], Y ~ N(mean, sigma^2), over
// mean +- 8 sigma: composite Simpson on each panel between consecutive breakpoints (the kinks
// of the hypervolume improvement), so that the integrand is smooth on every panel.
void SimpsonRule(double mean, double sigma, std::vector<double> kinks, std::vector<double>* nodes,
                 std::vector<double>* weights) {
  const double lo = mean - 8.0 * sigma, hi = mean + 8.0 * sigma;
  kinks.push_back(lo);
  kinks.push_back(hi);
  std::sort(kinks.begin(), kinks.end());
  for (size_t p = 0; p + 1 < kinks.size(); ++p) {
    const double a = std::max(lo, kinks[p]), b = std::min(hi, kinks[p + 1]);
    if (!(b > a)) continue;
    const int n = 2 * static_cast<int>(std::ceil((b - a) / (0.02 * sigma)));  // even
    const double h = (b - a) / n;
    for (int k = 0; k <= n; ++k) {
      const double y = a + k * h, t = (y - mean) / sigma;
      const double simpson = (k == 0 || k == n) ? 1.0 : (k % 2 == 1 ? 4.0 : 2.0);
      nodes->push_back(y);
      weights->push_back(simpson * h / 3.0 * std::exp(-0.5 * t * t) /
                         (std::sqrt(2.0 * kPi) * sigma));
    }
  }
}

double BruteForceEhvi2D(const Eigen::MatrixXd& front, const Eigen::Vector2d& r,
                        const Eigen::Vector2d& mean, const Eigen::Vector2d& sigma) {
  std::vector<double> node0, node1, weight0, weight1;
  std::vector<double> kinks0{r(0)}, kinks1{r(1)};
  for (Eigen::Index j = 0; j < front.cols(); ++j) {
    kinks0.push_back(front(0, j));
    kinks1.push_back(front(1, j));
  }
  SimpsonRule(mean(0), sigma(0), kinks0, &node0, &weight0);
  SimpsonRule(mean(1), sigma(1), kinks1, &node1, &weight1);
  double sum = 0.0;
  for (size_t a = 0; a < node0.size(); ++a)
    for (size_t b = 0; b < node1.size(); ++b)
      sum += weight0[a] * weight1[b] * BruteImprovement2D(front, r, node0[a], node1[b]);
  return sum;
}

TEST(ExpectedHypervolumeImprovementTest, OneObjectiveIsExpectedImprovement) {
  const ExpectedHypervolumeImprovement ehvi(Eigen::MatrixXd::Zero(1, 1),
                                            Eigen::VectorXd::Constant(1, -1.0));
  const Eigen::VectorXd mean = Eigen::VectorXd::Constant(1, -0.5);
  const Eigen::VectorXd sigma = Eigen::VectorXd::Ones(1);
  // EI(mu = -0.5, sigma = 1, best = 0) = phi(0.5) - 0.5 Phi(-0.5) (40-digit value).
  EXPECT_NEAR(ehvi.Value(mean, sigma, nullptr, nullptr), 0.1977965574013060, 1e-15);
  EXPECT_NEAR(std::exp(ehvi.Log(mean, sigma, nullptr, nullptr)), 0.1977965574013060, 1e-15);
}

TEST(ExpectedHypervolumeImprovementTest, TwoObjectivesMatchBruteForceIntegral) {
  const Eigen::Vector2d r(0.0, 0.0);
  const ExpectedHypervolumeImprovement ehvi(Front2D(), r);
  const Eigen::Vector2d cases[][2] = {{{0.6, 0.6}, {0.1, 0.2}},
                                      {{0.3, 0.9}, {0.3, 0.05}},
                                      {{1.0, 1.0}, {0.5, 0.5}},
                                      {{0.1, 0.1}, {0.2, 0.3}}};
  double worst = 0.0;
  for (const auto& c : cases) {
    const double exact = ehvi.Value(c[0], c[1], nullptr, nullptr);
    const double brute = BruteForceEhvi2D(Front2D(), r, c[0], c[1]);
    EXPECT_NEAR(exact, brute, 2e-8 * brute) << "mean " << c[0].transpose();
    worst = std::max(worst, std::abs(exact - brute) / brute);
  }
  std::cout << "[ accuracy ] 2-D EHVI vs Simpson between the kinks: largest relative difference "
            << worst << std::endl;
}

TEST(ExpectedHypervolumeImprovementTest, ThreeObjectivesMatchMonteCarlo) {
  const Eigen::Vector3d r(0.0, 0.0, 0.0);
  const ExpectedHypervolumeImprovement ehvi(Front3D(), r);
  const Eigen::Vector3d mean(0.5, 0.5, 0.5), sigma(0.2, 0.3, 0.25);
  Rng rng(testing::TestSeed(2019));
  const int draws = 200000;
  double sum = 0.0, sum_squares = 0.0;
  for (int s = 0; s < draws; ++s) {
    const Eigen::VectorXd y = mean + sigma.cwiseProduct(StandardNormalVector(3, rng));
    const double improvement = HypervolumeImprovement(y, Front3D(), r);
    sum += improvement;
    sum_squares += improvement * improvement;
  }
  const double estimate = sum / draws;
  const double standard_error =
      std::sqrt((sum_squares / draws - estimate * estimate) / (draws - 1));
  const double exact = ehvi.Value(mean, sigma, nullptr, nullptr);
  std::cout << "[ accuracy ] 3-D EHVI " << exact << " vs Monte-Carlo " << estimate << " +- "
            << standard_error << " (" << draws << " draws)" << std::endl;
  EXPECT_NEAR(exact, estimate, 4.0 * standard_error);
}

TEST(ExpectedHypervolumeImprovementTest, LogIsLogOfValueWhereValueIsRepresentable) {
  Rng rng(testing::TestSeed(17));
  const ExpectedHypervolumeImprovement ehvi2(Front2D(), Eigen::Vector2d::Zero());
  const ExpectedHypervolumeImprovement ehvi3(Front3D(), Eigen::Vector3d::Zero());
  for (int trial = 0; trial < 50; ++trial) {
    const ExpectedHypervolumeImprovement& ehvi = trial % 2 ? ehvi3 : ehvi2;
    const int k = ehvi.objectives();
    const Eigen::VectorXd mean = testing::UniformPoints(k, 1, -0.3, 1.2, rng).col(0);
    const Eigen::VectorXd sigma = testing::UniformPoints(k, 1, 0.05, 0.5, rng).col(0);
    const double value = ehvi.Value(mean, sigma, nullptr, nullptr);
    ASSERT_GT(value, 0.0);
    EXPECT_NEAR(ehvi.Log(mean, sigma, nullptr, nullptr), std::log(value),
                1e-10 * std::max(1.0, std::abs(std::log(value))))
        << "mean " << mean.transpose();
  }
}

void ExpectGradients(const ExpectedHypervolumeImprovement& ehvi, const Eigen::VectorXd& mean,
                     const Eigen::VectorXd& sigma, bool log) {
  auto f = [&](const Eigen::VectorXd& m, const Eigen::VectorXd& s) {
    return log ? ehvi.Log(m, s, nullptr, nullptr) : ehvi.Value(m, s, nullptr, nullptr);
  };
  Eigen::VectorXd d_mean, d_sigma;
  if (log)
    ehvi.Log(mean, sigma, &d_mean, &d_sigma);
  else
    ehvi.Value(mean, sigma, &d_mean, &d_sigma);
  const std::string what = std::string(log ? "log" : "plain") + " at " + std::to_string(mean(0)) +
                           " " + std::to_string(sigma(0));
  ExpectGradientNear([&](const Eigen::VectorXd& m) { return f(m, sigma); }, mean, d_mean, 1e-5,
                     1e-8, what + " d_mean");
  ExpectGradientNear([&](const Eigen::VectorXd& s) { return f(mean, s); }, sigma, d_sigma, 1e-5,
                     1e-8, what + " d_sigma");
}

TEST(ExpectedHypervolumeImprovementTest, GradientsMatchFiniteDifferences) {
  const ExpectedHypervolumeImprovement ehvi2(Front2D(), Eigen::Vector2d::Zero());
  const ExpectedHypervolumeImprovement ehvi3(Front3D(), Eigen::Vector3d::Zero());
  for (bool log : {false, true}) {
    ExpectGradients(ehvi2, Eigen::Vector2d(0.6, 0.6), Eigen::Vector2d(0.1, 0.2), log);
    ExpectGradients(ehvi2, Eigen::Vector2d(-0.3, 1.2), Eigen::Vector2d(0.4, 0.05), log);
    ExpectGradients(ehvi3, Eigen::Vector3d(0.5, 0.4, 0.6), Eigen::Vector3d(0.2, 0.1, 0.3), log);
    ExpectGradients(ehvi3, Eigen::Vector3d(1.1, -0.2, 0.3), Eigen::Vector3d(0.05, 0.3, 0.2), log);
  }
  // Far below the front, where only the log form has a gradient.
  ExpectGradients(ehvi2, Eigen::Vector2d(-4.0, -3.0), Eigen::Vector2d(0.1, 0.1), true);
  ExpectGradients(ehvi3, Eigen::Vector3d(-3.0, -3.0, -2.0), Eigen::Vector3d(0.1, 0.1, 0.1), true);
}

TEST(ExpectedHypervolumeImprovementTest, LogFormFiniteWherePlainFormUnderflows) {
  const ExpectedHypervolumeImprovement ehvi(Front2D(), Eigen::Vector2d::Zero());
  const Eigen::Vector2d sigma(0.01, 0.01);
  double previous = -std::numeric_limits<double>::infinity();
  for (double depth : {-0.6, -0.5, -0.4}) {  // 40 to 60 sigma below the reference
    const Eigen::Vector2d mean(depth, depth);
    EXPECT_EQ(ehvi.Value(mean, sigma, nullptr, nullptr), 0.0) << depth;
    Eigen::VectorXd d_mean;
    const double log_value = ehvi.Log(mean, sigma, &d_mean, nullptr);
    EXPECT_TRUE(std::isfinite(log_value)) << depth;
    EXPECT_GT(log_value, previous);  // closer is better
    EXPECT_GT(d_mean.minCoeff(), 0.0);
    previous = log_value;
  }
  // In one objective the log form is LogEI exactly, however deep.
  const ExpectedHypervolumeImprovement one(Eigen::MatrixXd::Zero(1, 1),
                                           Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_NEAR(
      one.Log(Eigen::VectorXd::Constant(1, -50.0), Eigen::VectorXd::Ones(1), nullptr, nullptr),
      LogExpectedImprovementValue(-50.0, 1.0, 0.0, nullptr, nullptr), 1e-12);
}

TEST(NoisyExpectedHypervolumeImprovementTest, NoiselessFrontGivesExpectedHypervolumeImprovement) {
  const Eigen::Vector2d r(0.0, 0.0), mean(0.6, 0.6), sigma(0.1, 0.2);
  Rng rng(testing::TestSeed(2021));
  const int draws = 20000;
  std::vector<Eigen::MatrixXd> observed(draws, Front2D());
  Eigen::MatrixXd candidate(2, draws);
  for (int s = 0; s < draws; ++s)
    candidate.col(s) = mean + sigma.cwiseProduct(StandardNormalVector(2, rng));
  const NoisyEhviEstimate estimate = NoisyExpectedHypervolumeImprovement(observed, candidate, r);
  const double exact =
      ExpectedHypervolumeImprovement(Front2D(), r).Value(mean, sigma, nullptr, nullptr);
  EXPECT_NEAR(estimate.value, exact, 4.0 * estimate.standard_error);
  EXPECT_DOUBLE_EQ(estimate.log_value, std::log(estimate.value));
}

TEST(NoisyExpectedHypervolumeImprovementTest, FourObjectivesDrawByDraw) {
  // Two draws of a 4-objective front of one point; the candidate improves in the first only.
  Eigen::MatrixXd first(4, 1), second(4, 1);
  first << 1, 1, 1, 1;
  second << 3, 3, 3, 3;
  const Eigen::MatrixXd candidate = Eigen::MatrixXd::Constant(4, 2, 2.0);
  const NoisyEhviEstimate estimate =
      NoisyExpectedHypervolumeImprovement({first, second}, candidate, Eigen::Vector4d::Zero());
  EXPECT_DOUBLE_EQ(estimate.value, (16.0 - 1.0) / 2.0);
  const NoisyEhviEstimate none =
      NoisyExpectedHypervolumeImprovement({second}, candidate.leftCols(1), Eigen::Vector4d::Zero());
  EXPECT_EQ(none.log_value, -std::numeric_limits<double>::infinity());
}

TEST(ExpectedHypervolumeImprovementTest, RefusesBadInput) {
  ExpectInvalid([] { ExpectedHypervolumeImprovement(Front2D(), Eigen::Vector2d(0.0, 0.5)); },
                "reference(1) = 0.5 is not dominated");
  const ExpectedHypervolumeImprovement ehvi(Front2D(), Eigen::Vector2d::Zero());
  ExpectInvalid(
      [&] { ehvi.Log(Eigen::Vector3d::Zero(), Eigen::Vector2d::Ones(), nullptr, nullptr); },
      "mean has 3 entries; expected 2");
  ExpectInvalid(
      [&] { ehvi.Value(Eigen::Vector2d(0, NAN), Eigen::Vector2d::Ones(), nullptr, nullptr); },
      "mean(1, 0) = nan");
  ExpectInvalid([&] { ehvi.Log(Eigen::Vector2d::Zero(), Eigen::Vector2d(1, 0), nullptr, nullptr); },
                "sigma(1) = 0 must be > 0");
  ExpectInvalid(
      [] {
        NoisyExpectedHypervolumeImprovement({}, Eigen::MatrixXd(2, 0), Eigen::Vector2d::Zero());
      },
      "observed_draws is empty");
  ExpectInvalid(
      [] {
        NoisyExpectedHypervolumeImprovement({Front2D()}, Eigen::MatrixXd(2, 2),
                                            Eigen::Vector2d::Zero());
      },
      "candidate_draws is 2 x 2; expected 2 x 1");
}

}  // namespace
}  // namespace gpbandit
