// The controller-tuning example (examples/problems/pid_loop.h, gpbandit pid-tradeoff): the plant's
// discretization against the closed-form step response, the outcomes' sums against their
// definitions, and the command's front against the plant re-run at the printed gains.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "examples/problems/pid_loop.h"
#include "tests/cli/cli_fixture.h"

namespace gpbandit {
namespace {

using problems::PidLoop;
using problems::PidLoopOptions;
using problems::PidOutcomes;
using problems::PidTrajectory;
using ::testing::HasSubstr;

// A huge kp against a small command limit saturates the actuator for the whole response (y stays
// below the setpoint), so the plant sees a constant step of max_command, delayed by the dead
// time: y(t) = u K (1 - (T1 e^(-t'/T1) - T2 e^(-t'/T2)) / (T1 - T2)) with t' = t - L, exact at
// the samples.
// Each refused field is named as the loop's own (in a unity build of the examples, the
// pendulum's "PendulumOptions." message once answered for it).
TEST(PidLoopTest, ARefusedFieldIsNamedWithItsValueAndRule) {
  problems::PidLoopOptions o;
  o.lag2 = o.lag1;
  std::string error;
  EXPECT_FALSE(o.IsValid(&error));
  EXPECT_EQ(error, "lag2 = 1 must be different from lag1");
  o = problems::PidLoopOptions();
  o.gain = -2.5;
  EXPECT_FALSE(o.IsValid(&error));
  EXPECT_EQ(error, "gain = -2.5 must be > 0");
  EXPECT_TRUE(problems::PidLoopOptions().IsValid(&error));
}

TEST(PidLoopTest, SaturatedStepResponseIsTheClosedForm) {
  PidLoopOptions o;
  o.max_command = 0.5;
  const PidLoop loop(o);
  PidTrajectory trajectory;
  const PidOutcomes out = loop.StepResponse(1000.0, 0.0, 0.0, &trajectory);
  const int delay = static_cast<int>(std::lround(o.dead_time / o.sample_time));
  for (std::size_t k = 0; k < trajectory.time.size(); ++k) {
    EXPECT_EQ(trajectory.command[k], 0.5) << k;
    const double t = (static_cast<double>(k) - delay) * o.sample_time;
    const double expected =
        t <= 0 ? 0.0
               : 0.5 * o.gain *
                     (1 - (o.lag1 * std::exp(-t / o.lag1) - o.lag2 * std::exp(-t / o.lag2)) /
                              (o.lag1 - o.lag2));
    EXPECT_NEAR(trajectory.output[k], expected, 1e-12) << "k = " << k;
  }
  EXPECT_EQ(out.effort, 0.5);  // one jump from 0 to the limit
  EXPECT_EQ(out.overshoot, 0.0);
}

// No control: y = 0, so ITAE = sum_k t_k dt = dt^2 n (n - 1) / 2 and nothing moves.
TEST(PidLoopTest, ZeroGainsGiveTheOpenLoopSums) {
  const PidLoopOptions o;
  const PidOutcomes out = PidLoop(o).StepResponse(0, 0, 0);
  const double n = std::round(o.duration / o.sample_time);
  EXPECT_NEAR(out.itae, o.sample_time * o.sample_time * n * (n - 1) / 2, 1e-9);
  EXPECT_EQ(out.effort, 0.0);
  EXPECT_EQ(out.overshoot, 0.0);
}

// Proportional control settles at K kp / (1 + K kp); integral action removes the offset.
TEST(PidLoopTest, SteadyStatesOfPAndPiControl) {
  PidLoopOptions o;
  o.duration = 40;
  PidTrajectory p, pi;
  PidLoop(o).StepResponse(1.0, 0.0, 0.0, &p);
  EXPECT_NEAR(p.output.back(), 0.5, 1e-6);
  PidLoop(o).StepResponse(1.0, 0.5, 0.1, &pi);
  EXPECT_NEAR(pi.output.back(), 1.0, 1e-4);
  o.lag2 = o.lag1;
  EXPECT_THROW(PidLoop{o}, std::invalid_argument);
}

std::vector<std::vector<double>> Block(const std::string& data, int index) {
  std::vector<std::vector<double>> rows;
  std::stringstream in(data);
  std::string line;
  int block = 0, blanks = 0;
  while (std::getline(in, line)) {
    if (line.empty()) {
      if (++blanks == 2) ++block;
      continue;
    }
    blanks = 0;
    if (line[0] == '#' || block != index) continue;
    std::stringstream cells(line);
    std::vector<double> row;
    double v;
    while (cells >> v) row.push_back(v);
    rows.push_back(row);
  }
  return rows;
}

// The command prints the front and writes it for gnuplot; every front point's outcomes are the
// plant's at its gains, and within the overshoot limit.
TEST_F(CliTest, PidTradeoffPrintsAFrontOfFeasibleGains) {
  const Result r = Run("pid-tradeoff --evaluations 16 --out front.dat");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("Pareto front after 16 step responses"));
  EXPECT_THAT(r.out, HasSubstr("hypervolume"));
  const std::string data = ReadAll(dir_ + "/front.dat");
  const auto all = Block(data, 0);
  const auto front = Block(data, 1);
  EXPECT_EQ(all.size(), 16u);
  ASSERT_FALSE(front.empty()) << r.out;
  const PidLoop loop;
  for (const auto& row : front) {
    ASSERT_EQ(row.size(), 6u);
    const PidOutcomes o = loop.StepResponse(row[0], row[1], row[2]);
    EXPECT_NEAR(o.itae, row[3], 1e-12 * (1 + o.itae));
    EXPECT_NEAR(o.effort, row[4], 1e-12 * (1 + o.effort));
    EXPECT_NEAR(o.overshoot, row[5], 1e-12);
    EXPECT_LE(row[5], 0.1);
  }
  EXPECT_EQ(Run("pid-tradeoff --evaluations 1").status, 2);
}

}  // namespace
}  // namespace gpbandit
