// The sim-to-robot example (examples/demos/sim_to_robot.h, gpbandit sim-to-robot): the cost
// accounting against the counted episodes, the budget, the recommendations at the robot, the
// regret re-computed from the plant, refused options, and the command's output.
#include "examples/demos/sim_to_robot.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>

#include "examples/problems/pendulum_plant.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using examples::SimToRobotOptions;
using examples::SimToRobotResult;
using examples::SimToRobotTrace;
using ::testing::HasSubstr;

SimToRobotOptions SmallRun() {
  SimToRobotOptions o;
  o.budget = 5.5;
  o.sim_cost = 0.1;
  o.runs = 2;
  return o;
}

// Each trace's cost after every tell is the counted episodes' cost, never above the budget;
// CostSpent() agrees with the count.
void ExpectCostsMatchTheEpisodes(const SimToRobotTrace& t, const SimToRobotOptions& o) {
  int sims = 0, robots = 0;
  ASSERT_EQ(t.cost.size(), t.fidelity.size());
  ASSERT_EQ(t.cost.size(), t.regret.size());
  for (std::size_t i = 0; i < t.cost.size(); ++i) {
    (t.fidelity[i] == 0 ? sims : robots) += 1;
    EXPECT_NEAR(t.cost[i], sims * o.sim_cost + robots, 1e-9) << i;
    EXPECT_LE(t.cost[i], o.budget + 1e-9) << i;
  }
  EXPECT_EQ(sims, t.sim_episodes);
  EXPECT_EQ(robots, t.robot_episodes);
  EXPECT_NEAR(t.cost_spent, sims * o.sim_cost + robots, 1e-9);
  // The study stops only when the next evaluation would not fit.
  EXPECT_GT(t.cost_spent + 1.0, o.budget - 1e-9);
}

TEST(SimToRobotTest, CostsStayWithinTheBudgetAndMatchTheEpisodes) {
  const SimToRobotOptions o = SmallRun();
  std::ostringstream progress;
  const SimToRobotResult r = examples::RunSimToRobot(o, progress);
  ASSERT_EQ(r.multi_fidelity.size(), 2u);
  ASSERT_EQ(r.robot_only.size(), 2u);
  for (int k = 0; k < 2; ++k) {
    ExpectCostsMatchTheEpisodes(r.multi_fidelity[k], o);
    ExpectCostsMatchTheEpisodes(r.robot_only[k], o);
    // Robot only: 5 whole episodes fit in 5.5.
    EXPECT_EQ(r.robot_only[k].robot_episodes, 5);
    EXPECT_EQ(r.robot_only[k].sim_episodes, 0);
  }
}

// Best() is at the robot: gains evaluated there, and the final regret is the robot's reward gap
// at them, re-computed from a plant of the same options; finite and not below the brute force
// by more than the brute force's grid can miss.
TEST(SimToRobotTest, RecommendationsAreAtTheRobotWithTheirRegret) {
  const SimToRobotOptions o = SmallRun();
  std::ostringstream progress;
  const SimToRobotResult r = examples::RunSimToRobot(o, progress);
  const problems::PendulumPlant robot(o.robot);
  for (const auto* runs : {&r.multi_fidelity, &r.robot_only}) {
    for (const SimToRobotTrace& t : *runs) {
      EXPECT_TRUE(t.best_at_robot);
      ASSERT_FALSE(t.regret.empty());
      ASSERT_TRUE(std::isfinite(t.regret.back()));
      const double reward = robot.Reward(t.best_gains(0), t.best_gains(1), o.payload_mass);
      EXPECT_NEAR(t.regret.back(), r.robot_best_reward - reward, 1e-12);
      EXPECT_GT(t.regret.back(), -1e-3);
      EXPECT_TRUE(std::isnan(examples::SimToRobotRegretAtCost(t, 0.5)));
      EXPECT_EQ(examples::SimToRobotRegretAtCost(t, o.budget), t.regret.back());
    }
  }
  // The simulator is wrong: its best gains are not the robot's best.
  EXPECT_GT(r.sim_best_on_robot_regret, 0.0);
  EXPECT_GT((r.sim_best - r.robot_best).norm(), 0.1);
}

TEST(SimToRobotTest, InvalidOptionsAreRefusedNamingTheFlag) {
  std::ostringstream progress;
  const auto refused = [&](SimToRobotOptions o, const std::string& flag) {
    try {
      examples::RunSimToRobot(o, progress);
      ADD_FAILURE() << flag << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_THAT(e.what(), HasSubstr(flag));
    }
  };
  SimToRobotOptions o = SmallRun();
  o.sim_cost = 1.0;
  refused(o, "--sim-cost");
  o = SmallRun();
  o.runs = 0;
  refused(o, "--runs");
  o = SmallRun();
  o.budget = 1.0;
  refused(o, "--budget");
  o = SmallRun();
  o.sim_mass_factor = std::nan("");
  refused(o, "--sim-mass-factor");
}

TEST_F(CliTest, SimToRobotPrintsRegretAgainstCost) {
  const Result r = Run("sim-to-robot --budget 3 --runs 1 --sim-cost 0.2 --out regret.dat");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("regret on the robot at Best(), median [quartiles] over 1 runs"));
  EXPECT_THAT(r.out, HasSubstr("\n3 | "));
  EXPECT_THAT(ReadAll(dir_ + "/regret.dat"), HasSubstr("# cost median"));
  EXPECT_EQ(Run("sim-to-robot --sim-cost 2").status, 2);
}

}  // namespace
}  // namespace gpbandit
