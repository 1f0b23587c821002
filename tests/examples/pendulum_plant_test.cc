// The demo's plant: physically sensible closed-loop behaviour, so that the demo's numbers mean
// something.
#include "examples/problems/pendulum_plant.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "tests/test_util.h"

namespace gpbandit {
namespace problems {
namespace {

TEST(PendulumPlantTest, NoControlFallsAndGoodGainsHoldItUp) {
  const PendulumPlant plant;
  PendulumTrajectory open_loop, closed_loop;
  const double fall = plant.Reward(0.0, 0.0, 0.5, &open_loop);
  const double hold = plant.Reward(12.0, 2.0, 0.5, &closed_loop);
  EXPECT_TRUE(open_loop.fell);
  EXPECT_FALSE(closed_loop.fell);
  EXPECT_LT(std::abs(closed_loop.angle.back()), 0.02);  // settled near upright
  EXPECT_GT(hold, fall + 0.5);
}

TEST(PendulumPlantTest, GravityMakesOpenLoopAngleGrow) {
  // Without torque and friction theta'' = (g / l_eff) sin(theta) > 0: the angle must grow.
  PendulumOptions options;
  options.friction = 0;
  const PendulumPlant plant(options);
  PendulumTrajectory trajectory;
  plant.Reward(0.0, 0.0, 1.0, &trajectory);
  for (size_t i = 1; i < trajectory.angle.size(); ++i)
    EXPECT_GE(trajectory.angle[i], trajectory.angle[i - 1]) << "step " << i;
}

TEST(PendulumPlantTest, TorqueIsSaturated) {
  const PendulumPlant plant;
  PendulumTrajectory trajectory;
  plant.Reward(60.0, 6.0, 1.2, &trajectory);
  for (double u : trajectory.torque) EXPECT_LE(std::abs(u), plant.options().max_torque);
}

TEST(PendulumPlantTest, BestGainsDependOnThePayload) {
  // The premise of the demo: what is best for a light payload is poor for a heavy one and
  // vice versa, so a context-free tuner must compromise.
  const PendulumPlant plant;
  const BruteForceResult light = BruteForceBestGains(plant, 0.1, 21);
  const BruteForceResult heavy = BruteForceBestGains(plant, 1.2, 21);
  EXPECT_LT(light.gains(0), heavy.gains(0));  // the heavy payload wants a stiffer loop
  EXPECT_GT(light.reward, plant.Reward(heavy.gains(0), heavy.gains(1), 0.1) + 0.05);
  EXPECT_GT(heavy.reward, plant.Reward(light.gains(0), light.gains(1), 1.2));
  EXPECT_EQ(light.evaluations, 2 * 21 * 21);
  // Brute force is at least as good as every point of its own coarse grid.
  for (double kp : {0.0, 15.0, 30.0, 45.0, 60.0})
    for (double kd : {0.0, 1.5, 3.0, 4.5, 6.0}) EXPECT_GE(light.reward, plant.Reward(kp, kd, 0.1));
}

TEST(PendulumPlantTest, NoiseHasTheConfiguredSpread) {
  PendulumOptions options;
  options.reward_noise = 0.05;
  const PendulumPlant plant(options);
  Rng rng(gpbandit::testing::TestSeed(11));
  const double clean = plant.Reward(10.0, 2.0, 0.5);
  const int n = 4000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const double d = plant.NoisyReward(10.0, 2.0, 0.5, rng) - clean;
    sum += d;
    sum2 += d * d;
  }
  const double mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(mean, 0.0, 5 * 0.05 / std::sqrt(n));
  EXPECT_NEAR(sd, 0.05, 0.005);
}

TEST(PendulumPlantTest, RejectsBadOptionsAndInputs) {
  PendulumOptions options;
  options.max_torque = 0;
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_NE(error.find("max_torque"), std::string::npos) << error;
  EXPECT_THROW(PendulumPlant{options}, std::invalid_argument);
  options = PendulumOptions();
  options.initial_angle = 2.0;  // beyond the fall angle
  EXPECT_FALSE(options.IsValid(&error));
  const PendulumPlant plant;
  EXPECT_THROW(plant.Reward(NAN, 1.0, 0.5), std::invalid_argument);
  EXPECT_THROW(plant.Reward(1.0, 1.0, -0.1), std::invalid_argument);
  EXPECT_THROW(BruteForceBestGains(plant, 0.5, 1), std::invalid_argument);
}

}  // namespace
}  // namespace problems
}  // namespace gpbandit
