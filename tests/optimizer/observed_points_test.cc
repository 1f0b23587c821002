// The model's view of the told observations (optimizer/observed_points.h): which of them have a
// posterior mean and which model row it is, and the best of them as the maximizer's starts.
#include "optimizer/observed_points.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::kNaN;

Observation Told(double x, bool accepted = true, double imputed = kNaN) {
  Observation o;
  o.x = Eigen::VectorXd::Constant(1, x);
  o.y = accepted ? x : kNaN;
  o.accepted = accepted;
  o.imputed = imputed;
  return o;
}

// Accepted, failed and skipped, failed and imputed (a model row, but no incumbent), accepted.
std::vector<Observation> MixedObservations() {
  return {Told(0.1), Told(0.2, false), Told(0.3, false, -4.0), Told(0.4)};
}

TEST(ObservedMeans, AreTheAcceptedObservationsRowsInOrder) {
  std::vector<int> index = {7};  // cleared first
  const Eigen::VectorXd means =
      ObservedMeans(MixedObservations(), Eigen::Vector3d(1.0, 5.0, 2.0), &index);
  EXPECT_EQ(index, (std::vector<int>{0, 3}));
  EXPECT_EQ(means, Eigen::Vector2d(1.0, 2.0));  // rows 0 and 2: row 1 is the imputed failure
}

TEST(ObservedMeans, LeaveOutTheRowsTheModelDoesNotPredictAt) {
  std::vector<int> index;
  const Eigen::VectorXd means =
      ObservedMeans(MixedObservations(), Eigen::Vector3d(kNaN, 5.0, 2.0), &index);
  EXPECT_EQ(index, std::vector<int>{3});
  EXPECT_EQ(means, Eigen::VectorXd::Constant(1, 2.0));
}

TEST(ObservedMeans, AreEmptyWithoutAcceptedObservations) {
  std::vector<int> index;
  EXPECT_EQ(ObservedMeans({}, Eigen::VectorXd(), &index).size(), 0);
  EXPECT_TRUE(index.empty());
  EXPECT_EQ(ObservedMeans({Told(0.2, false)}, Eigen::VectorXd(), &index).size(), 0);
}

TEST(ObservedMeans, AModelWithFewerRowsThanObservationsIsABug) {
  std::vector<int> index;
  try {
    ObservedMeans(MixedObservations(), Eigen::VectorXd::Constant(1, 1.0), &index);
    ADD_FAILURE() << "expected std::logic_error";
  } catch (const std::logic_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "the model holds 1 observations, fewer than the ones told to it");
  }
}

Domain Line() { return Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 10.0)); }

std::vector<Observation> FourOnTheLine() { return {Told(1.0), Told(2.0), Told(3.0), Told(4.0)}; }

TEST(BestStarts, AreTheHighestMeansFirstTiesToTheLowerIndex) {
  const Eigen::Vector4d means(0.5, 2.0, 2.0, 1.0);
  const std::vector<int> index = {0, 1, 2, 3};
  const Eigen::MatrixXd two = BestStarts(Line(), FourOnTheLine(), means, index, {}, 2);
  ASSERT_EQ(two.rows(), 1);
  ASSERT_EQ(two.cols(), 2);
  EXPECT_NEAR(two(0, 0), 0.2, 1e-15);  // x = 2 on [0, 10]
  EXPECT_NEAR(two(0, 1), 0.3, 1e-15);
  const Eigen::MatrixXd all = BestStarts(Line(), FourOnTheLine(), means, index, {}, 10);
  ASSERT_EQ(all.cols(), 4);  // at most the observations there are
  EXPECT_NEAR(all(0, 2), 0.4, 1e-15);
  EXPECT_NEAR(all(0, 3), 0.1, 1e-15);
  EXPECT_EQ(BestStarts(Line(), FourOnTheLine(), means, index, {}, 0).cols(), 0);
}

TEST(BestStarts, FollowTheIndexIntoTheObservations) {
  // Means of observations 3 and 1 only (as ObservedMeans gives when the others have none).
  const Eigen::MatrixXd starts =
      BestStarts(Line(), FourOnTheLine(), Eigen::Vector2d(-1.0, 3.0), {3, 1}, {}, 1);
  ASSERT_EQ(starts.cols(), 1);
  EXPECT_NEAR(starts(0, 0), 0.2, 1e-15);  // observation 1, x = 2
}

TEST(BestStarts, TakeThisRoundsContext) {
  const Domain d = Line().WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, 4));
  Observation o = Told(5.0);
  o.z = Eigen::VectorXd::Constant(1, 1.0);  // unit 0.25, another round's context
  const Eigen::MatrixXd starts = BestStarts(d, {o}, Eigen::VectorXd::Constant(1, 0.0), {0},
                                            Eigen::VectorXd::Constant(1, 0.75), 1);
  ASSERT_EQ(starts.rows(), 2);
  EXPECT_NEAR(starts(0, 0), 0.5, 1e-15);
  EXPECT_EQ(starts(1, 0), 0.75);
}

}  // namespace
}  // namespace gpbandit
