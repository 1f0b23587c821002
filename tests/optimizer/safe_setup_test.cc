// The checks a safe strategy passes when an Optimizer is built (optimizer/safe_setup.h): the
// constraints need seeds, the options must suit a safe strategy, the space must have no
// integers or categories, every seed must be an action of the domain (a candidate of a finite
// set); and the seeds' unit-cube actions it returns.
#include "optimizer/safe_setup.h"

#include <gtest/gtest.h>

#include <vector>

#include "gpbandit/space/parameter_spec.h"
#include "tests/optimizer/chooser_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

// A strategy that declares what the test says: seeds (original units, one per column),
// constraint signals, safety signals and whether they are modelled in their own units.
class Declared : public testing::ScriptedStrategy {
 public:
  Eigen::MatrixXd seeds;
  int constraints = 0;
  std::vector<SafetySignal> signals;
  bool calibrated = true;

  Eigen::MatrixXd safe_seeds() const override { return seeds; }
  int num_constraints() const override { return constraints; }
  std::vector<SafetySignal> safety_signals() const override { return signals; }
  bool calibrated_safety_models() const override { return calibrated; }
};

Domain SetupBox() { return Domain::Box(Eigen::Vector2d(0.1, -2.0), Eigen::Vector2d(0.7, 2.0)); }

// Options a safe strategy accepts: outputs in their own units, no space-filling design.
OptimizerOptions SetupSafeOptions() {
  OptimizerOptions o = testing::CheapOptions();
  o.gp.standardize_outputs = false;
  o.initial_design_size = -1;
  return o;
}

Declared WithSeeds(const Eigen::MatrixXd& seeds) {
  Declared s;
  s.seeds = seeds;
  return s;
}

Eigen::MatrixXd TwoSeeds() {
  Eigen::MatrixXd s(2, 2);
  s << 0.3, 0.7,  //
      0.5, -2.0;
  return s;
}

TEST(CheckSafeSetup, AStrategyWithoutSeedsPassesWithNothingToReturn) {
  const Declared plain;
  OptimizerOptions options = testing::CheapOptions();
  options.initial_design_size = 5;  // fine without seeds
  EXPECT_EQ(CheckSafeSetup(plain, SetupBox(), options).size(), 0);
}

TEST(CheckSafeSetup, ReturnsTheSeedsUnitCubeActions) {
  const Eigen::MatrixXd unit =
      CheckSafeSetup(WithSeeds(TwoSeeds()), SetupBox(), SetupSafeOptions());
  ASSERT_EQ(unit.rows(), 2);
  ASSERT_EQ(unit.cols(), 2);
  EXPECT_NEAR(unit(0, 0), (0.3 - 0.1) / 0.6, 1e-15);
  EXPECT_NEAR(unit(1, 0), (0.5 + 2.0) / 4.0, 1e-15);
  EXPECT_EQ(unit(0, 1), 1.0);  // the upper bound
  EXPECT_EQ(unit(1, 1), 0.0);  // the lower bound
}

TEST(CheckSafeSetup, ContextsAreNotPartOfTheSeeds) {
  const Domain d =
      SetupBox().WithContext(1, Eigen::VectorXd::Constant(1, 5), Eigen::VectorXd::Constant(1, 9));
  const Eigen::MatrixXd unit = CheckSafeSetup(WithSeeds(TwoSeeds()), d, SetupSafeOptions());
  EXPECT_EQ(unit.rows(), 2);
  EXPECT_NEAR(unit(0, 0), (0.3 - 0.1) / 0.6, 1e-15);
}

TEST(CheckSafeSetup, RefusesANegativeNumberOfConstraints) {
  Declared s = WithSeeds(TwoSeeds());
  s.constraints = -1;
  ExpectInvalid([&] { CheckSafeSetup(s, SetupBox(), SetupSafeOptions()); },
                "strategy 'scripted': num_constraints() = -1, must be >= 0");
}

TEST(CheckSafeSetup, RefusesConstraintsWithoutSeeds) {
  Declared s;
  s.constraints = 2;
  ExpectInvalid([&] { CheckSafeSetup(s, SetupBox(), SetupSafeOptions()); },
                "strategy 'scripted' models constraint signals but declares no safe seeds");
}

TEST(CheckSafeSetup, StandardizedOutputsNeedCalibratedSafetySignals) {
  OptimizerOptions standardized = SetupSafeOptions();
  standardized.gp.standardize_outputs = true;
  Declared s = WithSeeds(TwoSeeds());
  ExpectInvalid([&] { CheckSafeSetup(s, SetupBox(), standardized); },
                "OptimizerOptions.gp.standardize_outputs = true: strategy 'scripted'");
  s.signals = {SafetySignal{0.0, {}}};
  s.calibrated = false;
  ExpectInvalid([&] { CheckSafeSetup(s, SetupBox(), standardized); },
                "OptimizerOptions.gp.standardize_outputs = true");
  s.calibrated = true;
  EXPECT_EQ(CheckSafeSetup(s, SetupBox(), standardized).cols(), 2);
}

TEST(CheckSafeSetup, RefusesASpaceFillingDesign) {
  OptimizerOptions options = SetupSafeOptions();
  options.initial_design_size = 3;
  ExpectInvalid([&] { CheckSafeSetup(WithSeeds(TwoSeeds()), SetupBox(), options); },
                "OptimizerOptions.initial_design_size = 3: strategy 'scripted'");
  options.initial_design_size = 0;
  EXPECT_EQ(CheckSafeSetup(WithSeeds(TwoSeeds()), SetupBox(), options).cols(), 2);
}

TEST(CheckSafeSetup, RefusesIntegersAndCategoriesButNotFixedOnes) {
  const Eigen::MatrixXd seed = Eigen::Vector2d(2.0, 0.5);
  ExpectInvalid(
      [&] {
        CheckSafeSetup(WithSeeds(seed), Domain::Space(ParseParameterSpecs({"n=int:1:4", "r=0:1"})),
                       SetupSafeOptions());
      },
      "the parameter 'n' is an integer");
  ExpectInvalid(
      [&] {
        CheckSafeSetup(WithSeeds(Eigen::Vector2d(1.0, 0.5)),
                       Domain::Space(ParseParameterSpecs({"mode=cat:a,b", "r=0:1"})),
                       SetupSafeOptions());
      },
      "the parameter 'mode' is a categorical");
  const Domain fixed = Domain::Space(ParseParameterSpecs({"n=int:2:2", "r=0:1"}));
  EXPECT_EQ(CheckSafeSetup(WithSeeds(seed), fixed, SetupSafeOptions()).cols(), 1);
}

TEST(CheckSafeSetup, RefusesSeedsOfTheWrongSize) {
  ExpectInvalid(
      [&] {
        CheckSafeSetup(WithSeeds(Eigen::Vector3d(0.3, 0.5, 0.0)), SetupBox(), SetupSafeOptions());
      },
      "strategy 'scripted': its seeds have 3 coordinates, but the action dimension is 2");
}

TEST(CheckSafeSetup, RefusesASeedOutsideTheBoxNamingIt) {
  Eigen::MatrixXd seeds = TwoSeeds();
  seeds(1, 1) = 2.5;
  ExpectInvalid([&] { CheckSafeSetup(WithSeeds(seeds), SetupBox(), SetupSafeOptions()); },
                "strategy 'scripted' seeds[1]");
}

TEST(CheckSafeSetup, OnAFiniteSetEverySeedIsACandidate) {
  Eigen::MatrixXd candidates(2, 4);
  candidates << 0.0, 1.0, 2.0, 4.0,  //
      3.0, 1.0, 0.0, 2.0;
  const Domain d = Domain::FiniteSet(candidates);
  // Inside the candidates' bounding box, but no candidate.
  ExpectInvalid(
      [&] { CheckSafeSetup(WithSeeds(Eigen::Vector2d(1.0, 2.0)), d, SetupSafeOptions()); },
      "strategy 'scripted' seeds[0] is not one of the 4 candidates");
  const Eigen::MatrixXd unit =
      CheckSafeSetup(WithSeeds(Eigen::Vector2d(2.0, 0.0)), d, SetupSafeOptions());
  EXPECT_EQ(unit, Eigen::MatrixXd(Eigen::Vector2d(0.5, 0.0)));  // bounding box [0, 4] x [0, 3]
}

}  // namespace
}  // namespace gpbandit
