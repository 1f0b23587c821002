// The demo's bookkeeping: episodes, conditions and rewards agree with the plant.
#include "examples/demos/robot_demo.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <sstream>

#include "cli/io/csv.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace examples {
namespace {

TEST(RobotDemoTest, ShortRunIsConsistentWithThePlant) {
  RobotDemoOptions o;
  o.episodes = 14;
  o.brute_force_points = 9;
  o.seed = gpbandit::testing::TestSeed(4);
  std::ostringstream progress;
  const RobotDemoResult r = RunRobotDemo(o, progress);
  const problems::PendulumPlant plant(o.plant);
  ASSERT_EQ(r.episodes.size(), 14u);
  ASSERT_EQ(r.conditions.size(), 3u);
  int total = 0;
  for (const DemoCondition& c : r.conditions) total += c.episodes;
  EXPECT_EQ(total, 14);
  const Eigen::Vector2d lower = problems::PendulumGainLower(),
                        upper = problems::PendulumGainUpper();
  for (const DemoEpisode& e : r.episodes) {
    const double payload = o.payloads[e.condition];
    EXPECT_EQ(e.contextual_reward,
              plant.Reward(e.contextual_gains(0), e.contextual_gains(1), payload));
    EXPECT_EQ(e.plain_reward, plant.Reward(e.plain_gains(0), e.plain_gains(1), payload));
    // What the tuners were told is the reward plus the configured noise (6 sd never happens).
    EXPECT_LT(std::abs(e.contextual_observed - e.contextual_reward), 6 * o.plant.reward_noise);
    EXPECT_EQ(e.best_reward, r.conditions[e.condition].brute_force.reward);
    EXPECT_TRUE((e.contextual_gains.array() >= lower.array()).all());
    EXPECT_TRUE((e.contextual_gains.array() <= upper.array()).all());
  }
  // A recommendation is judged on the noise-free plant at its payload.
  for (const DemoCondition& c : r.conditions) {
    EXPECT_EQ(c.contextual_reward,
              plant.Reward(c.contextual_gains(0), c.contextual_gains(1), c.payload));
    EXPECT_EQ(c.plain_reward, plant.Reward(c.plain_gains(0), c.plain_gains(1), c.payload));
  }
  EXPECT_NE(progress.str().find("episode  10/14"), std::string::npos) << progress.str();

  std::ostringstream table;
  PrintDemoTable(r, table);
  EXPECT_NE(table.str().find("brute force"), std::string::npos);

  char pattern[] = "/tmp/gpbandit_demo_test_XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string path = std::string(pattern) + "/demo.csv";
  WriteDemoCsv(r, o, path);
  const io::CsvTable csv = io::ReadNumericCsv(path, true);
  EXPECT_EQ(csv.rows(), 14);
  EXPECT_EQ(csv.header[4], "cgp_ucb_reward");
  EXPECT_EQ(csv.values(3, 4), r.episodes[3].contextual_reward);
  std::system(("rm -rf '" + std::string(pattern) + "'").c_str());
}

TEST(RobotDemoTest, RejectsBadOptions) {
  RobotDemoOptions o;
  o.payloads.clear();
  std::ostringstream progress;
  EXPECT_THROW(RunRobotDemo(o, progress), std::invalid_argument);
  o = RobotDemoOptions();
  o.plant.duration = -1;
  std::string error;
  EXPECT_FALSE(o.IsValid(&error));
  EXPECT_NE(error.find("duration"), std::string::npos) << error;
}

}  // namespace
}  // namespace examples
}  // namespace gpbandit
