// The simulated building: the structure the sensor studies rely on.
#include "examples/problems/sensor_network.h"

#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>

namespace gpbandit {
namespace problems {
namespace {

SensorNetworkOptions SmallOptions() {
  SensorNetworkOptions o;
  o.days = 3;
  o.samples_per_hour = 2;
  return o;
}

TEST(SensorNetworkTest, ShapesAndDeterminism) {
  const SensorNetworkOptions o = SmallOptions();
  const SensorNetworkData a = SimulateSensorNetwork(o), b = SimulateSensorNetwork(o);
  EXPECT_EQ(a.readings.rows(), 46);
  EXPECT_EQ(a.readings.cols(), 3 * 24 * 2);
  EXPECT_EQ(a.readings, b.readings);
  SensorNetworkOptions other = o;
  other.seed = 2;
  EXPECT_NE(SimulateSensorNetwork(other).readings, a.readings);
  // Indoor temperatures, not garbage.
  EXPECT_GT(a.readings.minCoeff(), 10.0);
  EXPECT_LT(a.readings.maxCoeff(), 40.0);
}

TEST(SensorNetworkTest, HottestSensorMovesWithTheSun) {
  // East sensors peak in the morning, west ones in the afternoon: the argmax sensor at 9 h and
  // at 16.5 h must lie on different sides of the building, on average over the days.
  SensorNetworkOptions o = SmallOptions();
  o.reading_noise = 0.0;
  const SensorNetworkData data = SimulateSensorNetwork(o);
  double morning_x = 0, afternoon_x = 0;
  for (int d = 0; d < o.days; ++d) {
    Eigen::Index morning, afternoon;
    data.readings.col(d * 48 + 18).maxCoeff(&morning);    // 9:00
    data.readings.col(d * 48 + 33).maxCoeff(&afternoon);  // 16:30
    morning_x += data.positions(0, morning);
    afternoon_x += data.positions(0, afternoon);
  }
  EXPECT_GT(morning_x / o.days, o.width / 2);
  EXPECT_LT(afternoon_x / o.days, o.width / 2);
}

TEST(SensorNetworkTest, StudyKernelIsAnEmpiricalCovariance) {
  const SensorNetworkData data = SimulateSensorNetwork(SmallOptions());
  double mean = 0;
  const io::FiniteProblem p = MakeSensorStudy(data, 4, &mean);
  const int train = 2 * static_cast<int>(data.readings.cols()) / 3;
  ASSERT_EQ(p.kernel_matrix.rows(), 46);
  EXPECT_TRUE(p.kernel_matrix.isApprox(p.kernel_matrix.transpose()));
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(p.kernel_matrix);
  EXPECT_GT(eig.eigenvalues().minCoeff(), -1e-9 * eig.eigenvalues().maxCoeff());
  // Entry (0, 1) recomputed by hand from the training readings.
  const Eigen::VectorXd a = data.readings.row(0).head(train), b = data.readings.row(1).head(train);
  const double cov = ((a.array() - a.mean()) * (b.array() - b.mean())).sum() / (train - 1);
  EXPECT_NEAR(p.kernel_matrix(0, 1), cov, 1e-9 * std::abs(cov) + 1e-12);
  // Functions: later snapshots minus the training mean.
  EXPECT_NEAR(p.functions(5, 0), data.readings(5, train) - mean, 1e-12);
  EXPECT_NEAR(p.functions(5, 1), data.readings(5, train + 4) - mean, 1e-12);
}

TEST(SensorNetworkTest, ContextualStudyHasOneCandidatePerSensorAndHour) {
  const SensorNetworkData data = SimulateSensorNetwork(SmallOptions());
  double mean = 0;
  const io::FiniteProblem p = MakeContextualSensorStudy(data, &mean);
  EXPECT_EQ(p.size(), 46 * 24);
  EXPECT_EQ(p.context_dim, 1);
  EXPECT_EQ(p.contexts.cols(), 24);
  EXPECT_EQ(p.CandidatesWithContext(Eigen::VectorXd::Constant(1, 13.0)).size(), 46u);
  // Candidate (sensor 3, hour 13) on the last day is that day's 13:00 reading.
  const int last_day = 2;
  EXPECT_NEAR(p.functions(13 * 46 + 3, p.functions.cols() - 1),
              data.readings(3, last_day * 48 + 26) - mean, 1e-12);
}

}  // namespace
}  // namespace problems
}  // namespace gpbandit
