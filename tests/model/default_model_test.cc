#include "model/default_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/kernel/categorical_kernel.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/space/parameter_space.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::Vec;

// Matern-5/2 of unit variance at scaled distance r: (1 + sqrt5 r + 5 r^2 / 3) exp(-sqrt5 r).
double Matern52(double r) {
  const double s = std::sqrt(5.0) * r;
  return (1.0 + s + s * s / 3.0) * std::exp(-s);
}

// GP-UCB that declares safe seeds, as a safe strategy does.
class SeededUcb : public GpUcb {
 public:
  Eigen::MatrixXd safe_seeds() const override { return Eigen::MatrixXd::Constant(1, 1, 0.5); }
};

TEST(DefaultKernelPriors, GivesEachKindItsDocumentedPrior) {
  const std::vector<ParamKind> kinds = {ParamKind::kSignalVariance, ParamKind::kLengthscale,
                                        CategoryLengthscaleKind(), ParamKind::kOther};
  const std::vector<LogNormalPrior> priors = DefaultKernelPriors(kinds, true);
  ASSERT_EQ(priors.size(), 4u);
  EXPECT_EQ(priors[0].mean_log, 0.0);  // log(s2) ~ N(0, 1.5^2)
  EXPECT_EQ(priors[0].stddev_log, 1.5);
  EXPECT_DOUBLE_EQ(priors[1].mean_log, std::log(0.3));  // log(l) ~ N(log 0.3, 1)
  EXPECT_EQ(priors[1].stddev_log, 1.0);
  EXPECT_EQ(priors[2].mean_log, 0.0);  // log(l) ~ N(log 1, 1)
  EXPECT_EQ(priors[2].stddev_log, 1.0);
  EXPECT_TRUE(std::isinf(priors[3].stddev_log));  // none
}

TEST(DefaultKernelPriors, PutsNoPriorOnTheSignalVarianceOfRawOutputs) {
  const std::vector<LogNormalPrior> priors =
      DefaultKernelPriors({ParamKind::kSignalVariance, ParamKind::kLengthscale}, false);
  ASSERT_EQ(priors.size(), 2u);
  EXPECT_TRUE(std::isinf(priors[0].stddev_log));
  EXPECT_EQ(priors[1].stddev_log, 1.0);
  EXPECT_TRUE(DefaultKernelPriors({}, true).empty());
}

TEST(DefaultKernel, IsAnArdMatern52OnABox) {
  const Domain box = Domain::Box(Vec({0, 0}), Vec({1, 1}));
  const std::unique_ptr<Kernel> k = DefaultKernel(box, 0.5);
  EXPECT_DOUBLE_EQ(k->Value(Vec({0.2, 0.2}), Vec({0.2, 0.2})), 1.0);
  // Scaled distance sqrt((0.3 / 0.5)^2 + (0.4 / 0.5)^2) = 1.
  EXPECT_NEAR(k->Value(Vec({0.0, 0.0}), Vec({0.3, 0.4})), Matern52(1.0), 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.0, 0.0}), Vec({0.25, 0.0})), Matern52(0.5), 1e-12);
  // ARD: one lengthscale per coordinate, each starting at 0.5 (plus the signal variance).
  const std::vector<ParamKind> kinds = k->ParamKinds();
  const Eigen::VectorXd params = k->GetLogParams();
  int lengthscales = 0;
  for (std::size_t j = 0; j < kinds.size(); ++j) {
    if (kinds[j] == ParamKind::kLengthscale) {
      ++lengthscales;
      EXPECT_DOUBLE_EQ(params(static_cast<Eigen::Index>(j)), std::log(0.5));
    }
  }
  EXPECT_EQ(lengthscales, 2);
}

TEST(DefaultKernel, MultipliesByAKernelOverTheContexts) {
  const Domain domain = Domain::Box(Vec({0}), Vec({1})).WithContext(1);
  const std::unique_ptr<Kernel> k = DefaultKernel(domain, 1.0);
  EXPECT_NEAR(k->Value(Vec({0.0, 0.0}), Vec({0.5, 2.0})), Matern52(0.5) * Matern52(2.0), 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.3, 1.0}), Vec({0.3, 0.0})), Matern52(1.0), 1e-12);
}

TEST(DefaultKernel, UsesTheExchangeableKernelOverCategoricals) {
  const ParameterSpace space(
      {Parameter::Real("x", 0.0, 1.0), Parameter::Categorical("mode", {"a", "b", "c"})});
  const std::unique_ptr<Kernel> k = DefaultKernel(Domain::Space(space), 1.0);
  // Two distinct labels correlate by exp(-1 / l); their distance in index does not matter.
  EXPECT_NEAR(k->Value(Vec({0.2, 0.0}), Vec({0.2, 1.0})), std::exp(-1.0), 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.2, 0.0}), Vec({0.2, 2.0})), std::exp(-1.0), 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.0, 1.0}), Vec({0.5, 1.0})), Matern52(0.5), 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.0, 1.0}), Vec({0.5, 2.0})), Matern52(0.5) * std::exp(-1.0), 1e-12);
}

TEST(DefaultLengthscale, IsTheCubesWidthOrForSafeStrategiesThePriorsMedian) {
  EXPECT_EQ(DefaultLengthscale(GpUcb()), 1.0);
  EXPECT_EQ(DefaultLengthscale(SeededUcb()), 0.3);
}

std::unique_ptr<Kernel> Spatial() { return MakeMatern52({0}, true, 1.0, 1.0); }

TEST(WithTimeKernel, KeepsTheKernelOfAStationaryObjective) {
  std::unique_ptr<Kernel> spatial = Spatial();
  const Kernel* before = spatial.get();
  const std::unique_ptr<Kernel> k = WithTimeKernel(std::move(spatial), TimeModel(), 1);
  EXPECT_EQ(k.get(), before);
}

TEST(WithTimeKernel, ForgettingMultipliesByOneMinusEpsilonToHalfTheRoundGap) {
  TimeModel time;
  time.kind = TimeModelKind::kForgetting;
  time.epsilon = 0.19;
  const std::unique_ptr<Kernel> k = WithTimeKernel(Spatial(), time, 1);
  // (1 - 0.19)^{|3 - 1| / 2} = 0.81.
  EXPECT_NEAR(k->Value(Vec({0.4, 1}), Vec({0.4, 3})), 0.81, 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.4, 7}), Vec({0.4, 3})), 0.81 * 0.81, 1e-12);
  EXPECT_NEAR(k->Value(Vec({0.0, 2}), Vec({0.5, 3})), Matern52(0.5) * 0.9, 1e-12);
}

TEST(WithTimeKernel, EpochsForgetEverythingAtMultiplesOfTheirLength) {
  TimeModel time;
  time.kind = TimeModelKind::kEpochs;
  time.epoch_length = 5;
  const std::unique_ptr<Kernel> k = WithTimeKernel(Spatial(), time, 1);
  EXPECT_EQ(k->Value(Vec({0.4, 0}), Vec({0.4, 4})), 1.0);
  EXPECT_EQ(k->Value(Vec({0.4, 4}), Vec({0.4, 5})), 0.0);
  EXPECT_EQ(k->Value(Vec({0.4, 5}), Vec({0.4, 9})), 1.0);
}

TEST(WithTimeKernel, RestartsBeginEpochsAtTheGivenRounds) {
  TimeModel time;
  time.kind = TimeModelKind::kRestarts;
  auto starts = std::make_shared<const std::vector<long>>(std::vector<long>{0, 3, 10});
  const std::unique_ptr<Kernel> k = WithTimeKernel(Spatial(), time, 1, starts);
  EXPECT_EQ(k->Value(Vec({0.4, 0}), Vec({0.4, 2})), 1.0);
  EXPECT_EQ(k->Value(Vec({0.4, 2}), Vec({0.4, 3})), 0.0);
  EXPECT_EQ(k->Value(Vec({0.4, 3}), Vec({0.4, 9})), 1.0);
  EXPECT_EQ(k->Value(Vec({0.4, 9}), Vec({0.4, 10})), 0.0);
  EXPECT_EQ(k->Value(Vec({0.4, 10}), Vec({0.4, 50})), 1.0);
}

}  // namespace
}  // namespace gpbandit
