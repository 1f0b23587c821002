#include "model/model_inputs.h"

#include <gtest/gtest.h>

#include "gpbandit/space/parameter_space.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::Vec;

void ExpectVec(const Eigen::VectorXd& actual, const Eigen::VectorXd& expected) {
  ASSERT_EQ(actual.size(), expected.size());
  for (Eigen::Index i = 0; i < actual.size(); ++i)
    EXPECT_DOUBLE_EQ(actual(i), expected(i)) << "entry " << i;
}

// ModelInputs keeps a reference to its domain, so each test keeps the domain in a variable.
TEST(ModelInputs, WithoutATimeModelAnInputIsTheUnitCubeImage) {
  const Domain box = Domain::Box(Vec({0, -2}), Vec({10, 2}));
  const ModelInputs inputs(box, false);
  EXPECT_FALSE(inputs.has_time());
  EXPECT_EQ(inputs.dim(), 2);
  // (5 - 0) / 10 = 0.5, (1 + 2) / 4 = 0.75; the round is ignored.
  ExpectVec(inputs.Input(Vec({5, 1}), Eigen::VectorXd(), 7), Vec({0.5, 0.75}));
}

TEST(ModelInputs, UnderATimeModelTheRoundIsAppendedInRounds) {
  const Domain box = Domain::Box(Vec({0, -2}), Vec({10, 2}));
  const ModelInputs inputs(box, true);
  EXPECT_TRUE(inputs.has_time());
  EXPECT_EQ(inputs.dim(), 3);
  ExpectVec(inputs.Input(Vec({10, -2}), Eigen::VectorXd(), 7), Vec({1.0, 0.0, 7.0}));
  ExpectVec(inputs.Input(Vec({5, 1}), Eigen::VectorXd(), 0), Vec({0.5, 0.75, 0.0}));
}

TEST(ModelInputs, WithRoundAppendsTheRoundToEveryColumn) {
  const Domain box = Domain::Box(Vec({0}), Vec({1}));
  Eigen::MatrixXd unit(1, 3);
  unit << 0.1, 0.5, 0.9;
  const Eigen::MatrixXd timed = ModelInputs(box, true).WithRound(unit, 4);
  ASSERT_EQ(timed.rows(), 2);
  ASSERT_EQ(timed.cols(), 3);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(timed(0, c), unit(0, c));
    EXPECT_EQ(timed(1, c), 4.0);
  }
  const Eigen::MatrixXd untimed = ModelInputs(box, false).WithRound(unit, 4);
  EXPECT_EQ(untimed, unit);
}

TEST(ModelInputs, TheSearchBoxHoldsTheContextAndTheRoundFixed) {
  const Domain domain = Domain::Box(Vec({0, 3}), Vec({4, 3})).WithContext(1, Vec({0}), Vec({10}));
  const ModelInputs inputs(domain, true);
  ASSERT_EQ(inputs.dim(), 4);
  // The fixed second action coordinate has no width in the cube.
  ExpectVec(inputs.UnitUpper(), Vec({1, 0}));
  Eigen::VectorXd lower, upper;
  inputs.SearchBox(Vec({5}), 6, &lower, &upper);
  ExpectVec(lower, Vec({0, 0, 0.5, 6}));
  ExpectVec(upper, Vec({1, 0, 0.5, 6}));
}

TEST(ModelInputs, TheSearchBoxOfABoxIsTheActionCube) {
  const Domain box = Domain::Box(Vec({-1, -1}), Vec({1, 1}));
  const ModelInputs inputs(box, false);
  Eigen::VectorXd lower, upper;
  inputs.SearchBox(Eigen::VectorXd(), 3, &lower, &upper);
  ExpectVec(lower, Vec({0, 0}));
  ExpectVec(upper, Vec({1, 1}));
}

TEST(ModelInputs, CandidateInputsMapEveryCandidateAtTheRound) {
  Eigen::MatrixXd candidates(1, 3);
  candidates << 0, 2, 4;  // bounding box [0, 4]
  const Domain set = Domain::FiniteSet(candidates);
  const ModelInputs inputs(set, true);
  const Eigen::MatrixXd m = inputs.CandidateInputs(Eigen::VectorXd(), 9);
  ASSERT_EQ(m.rows(), 2);
  ASSERT_EQ(m.cols(), 3);
  EXPECT_DOUBLE_EQ(m(0, 0), 0.0);
  EXPECT_DOUBLE_EQ(m(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(m(0, 2), 1.0);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(m(1, c), 9.0);
}

TEST(ModelInputs, AProbeHoldsTheFirstLabelOnCategoricals) {
  const ParameterSpace space({Parameter::Real("x", 0, 1),
                              Parameter::Categorical("mode", {"a", "b"}),
                              Parameter::Integer("n", 1, 5)});
  ExpectVec(ModelInputs(Domain::Space(space), false).Probe(0.25), Vec({0.25, 0, 0.25}));
  ExpectVec(ModelInputs(Domain::Box(Vec({0}), Vec({1})), true).Probe(0.5), Vec({0.5, 0.5}));
}

TEST(ModelInputs, DiscreteCoordinatesAreTheSpacesIntegersAndCategoricals) {
  EXPECT_TRUE(ModelInputs(Domain::Box(Vec({0}), Vec({1})), false).DiscreteCoordinates().empty());
  const ParameterSpace space({Parameter::Real("x", 0, 1), Parameter::Integer("n", 1, 5),
                              Parameter::Categorical("mode", {"a", "b", "c"})});
  const Domain domain = Domain::Space(space);  // outlives the levels' functions
  const std::vector<DiscreteCoordinate> discrete = ModelInputs(domain, false).DiscreteCoordinates();
  ASSERT_EQ(discrete.size(), 2u);
  EXPECT_EQ(discrete[0].dim, 1);
  EXPECT_EQ(discrete[0].num_levels, 5);
  EXPECT_TRUE(discrete[0].ordered);
  EXPECT_DOUBLE_EQ(discrete[0].value_of_level(0), 0.0);  // n = 1
  EXPECT_DOUBLE_EQ(discrete[0].value_of_level(4), 1.0);  // n = 5
  EXPECT_DOUBLE_EQ(discrete[0].value_of_level(2), 0.5);  // n = 3
  EXPECT_EQ(discrete[1].dim, 2);
  EXPECT_EQ(discrete[1].num_levels, 3);
  EXPECT_FALSE(discrete[1].ordered);
}

}  // namespace
}  // namespace gpbandit
