// The round chooser of a parameter space with integers or categoricals
// (optimizer/mixed_chooser.cc): the strategy's acquisition climbed by the mixed maximizer so
// that every point is legal, a repeat replaced by a uniform legal point; and
// MaximizeOverInputs, the argmax it shares with the safe recommendation.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "gpbandit/space/parameter_space.h"
#include "gpbandit/space/parameter_spec.h"
#include "gpbandit/space/space_transform.h"
#include "optimizer/round_chooser.h"
#include "tests/optimizer/chooser_test_util.h"

namespace gpbandit {
namespace {

using testing::Bowl;
using testing::ChooserBench;
using testing::FunctionAcquisition;
using testing::Linear;

// An integer 1..5, a categorical of three labels and a real in [0, 1]: model coordinates are
// (n - 1) / 4, the label's index and r.
Domain Mixed() {
  return Domain::Space(ParseParameterSpecs({"n=int:1:5", "mode=cat:a,b,c", "r=0:1"}));
}

TEST(MixedChooser, AnIncreasingAcquisitionTakesEveryParametersLargestValue) {
  ChooserBench b(Mixed());
  ASSERT_EQ(b.round.discrete.size(), 2u);
  b.strategy.acquisition = Linear(Eigen::Vector3d(1.0, 1.0, 1.0));
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(2);
  const Eigen::VectorXd x = MakeMixedChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x, Eigen::Vector3d(5.0, 2.0, 1.0));
  EXPECT_NEAR(value, 1.0 + 2.0 + 1.0, 1e-9);
  EXPECT_EQ(b.strategy.last_gp, &b.posterior.gp());
}

TEST(MixedChooser, ClimbsTheRealsAndPicksTheBestLevels) {
  ChooserBench b(Mixed());
  // Peak at n = 3 (model 0.5), label b (index 1), r = 0.3.
  b.strategy.acquisition = Bowl(Eigen::Vector3d(0.5, 1.0, 0.3));
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(2);
  const Eigen::VectorXd x = MakeMixedChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_EQ(x(0), 3.0);
  EXPECT_EQ(x(1), 1.0);
  EXPECT_NEAR(x(2), 0.3, 1e-3);
  EXPECT_NO_THROW(b.domain.CheckAction(x, "x"));
}

TEST(MixedChooser, ARepeatIsReplacedByAUniformLegalPoint) {
  ChooserBench b(Mixed());
  b.strategy.acquisition = Linear(Eigen::Vector3d(1.0, 1.0, 1.0));
  b.AddPending(Eigen::Vector3d(5.0, 2.0, 1.0));  // where the maximizer ends
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(2);
  const Eigen::VectorXd x = MakeMixedChooser()->Choose(b.Inputs(), 0, rng, &call, &value);
  EXPECT_NE(x, Eigen::Vector3d(5.0, 2.0, 1.0));
  EXPECT_NO_THROW(b.domain.CheckAction(x, "x"));  // integral n, a label's index
  EXPECT_EQ(x, b.domain.action_transform()->FromUniform(FallbackUniforms(b.Inputs(), call, 0)));
  // The value is the acquisition's at the replacement: (n - 1) / 4 + index + r.
  EXPECT_NEAR(value, (x(0) - 1.0) / 4.0 + x(1) + x(2), 1e-12);
}

TEST(MaximizeOverInputs, WithoutDiscreteCoordinatesIsTheBoxMaximizer) {
  const FunctionAcquisition bowl(Bowl(Eigen::Vector2d(0.4, 0.7)));
  Rng rng(3);
  double value = std::nan("");
  const Eigen::VectorXd x =
      MaximizeOverInputs(bowl, Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 1.0), {},
                         Eigen::MatrixXd(2, 0), internal::MaximizerOptions(testing::CheapOptions()),
                         IntegerSearch::kLocalSearch, rng, &value);
  EXPECT_NEAR(x(0), 0.4, 1e-3);
  EXPECT_NEAR(x(1), 0.7, 1e-3);
  EXPECT_NEAR(value, 0.0, 1e-6);
}

TEST(MaximizeOverInputs, ADiscreteCoordinateTakesOnlyItsLevels) {
  // Coordinate 0 has five levels 0, 0.25, ..., 1; the bowl peaks between two of them, at 0.6,
  // nearer 0.5: the best level is 0.5, and the value -(0.6 - 0.5)^2 = -0.01.
  DiscreteCoordinate levels;
  levels.dim = 0;
  levels.num_levels = 5;
  levels.ordered = true;
  levels.value_of_level = [](long long l) { return 0.25 * static_cast<double>(l); };
  const FunctionAcquisition bowl(Bowl(Eigen::Vector2d(0.6, 0.2)));
  Rng rng(3);
  double value = std::nan("");
  const Eigen::VectorXd x =
      MaximizeOverInputs(bowl, Eigen::Vector2d(0.0, 0.0), Eigen::Vector2d(1.0, 1.0), {levels},
                         Eigen::MatrixXd(2, 0), internal::MaximizerOptions(testing::CheapOptions()),
                         IntegerSearch::kLocalSearch, rng, &value);
  EXPECT_EQ(x(0), 0.5);
  EXPECT_NEAR(x(1), 0.2, 1e-3);
  EXPECT_NEAR(value, -0.01, 1e-6);
}

}  // namespace
}  // namespace gpbandit
