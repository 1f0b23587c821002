// The safe demo's plant and reference (examples/demos/safe_demo.h).
#include "examples/demos/safe_demo.h"

#include <gtest/gtest.h>

#include <Eigen/Core>

#include "examples/problems/pendulum_plant.h"

namespace gpbandit {
namespace {

// Without control, gravity wins: the arm falls, so its peak error is (just past) the fall angle,
// above every admissible limit. The declared seed is safe; the reference counts at least the
// uncontrolled column kp = 0 (9 of the 81 grid points) as unsafe.
TEST(SafeDemoTest, UncontrolledArmFallsAndTheSeedIsSafe) {
  examples::SafeDemoOptions o;
  o.grid_points = 9;
  const problems::PendulumPlant plant(o.plant);
  const examples::SafeEpisode fallen =
      examples::RunSafeEpisode(plant, Eigen::Vector2d(0, 0), o.payload);
  EXPECT_GE(fallen.peak_error, o.plant.fall_angle);
  const examples::SafeReference ref = examples::ComputeSafeReference(o);
  EXPECT_GE(ref.unsafe_fraction, 9.0 / 81.0);
  EXPECT_LT(ref.unsafe_fraction, 1.0);
  const examples::SafeEpisode seed = examples::RunSafeEpisode(plant, ref.seed_gains, o.payload);
  EXPECT_LE(seed.peak_error, o.peak_error_limit);
  EXPECT_GE(seed.peak_error, o.plant.initial_angle);  // it starts there
  EXPECT_LE(seed.reward, ref.best_safe_reward);
}

}  // namespace
}  // namespace gpbandit
