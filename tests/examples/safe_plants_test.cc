// The plant family of safe tuning (examples/problems/safe_plants.h, gp_draw_problem.h): each
// plant's limits cut its gain box and bind at the best safe gains, its seed is safe, every unit
// convention writes the same limits, the measurement noise is what the plant states; a short
// tuning run and a GP draw run end safe.
#include "examples/problems/safe_plants.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <random>
#include <vector>

#include "examples/problems/gp_draw_problem.h"
#include "examples/problems/gp_draw_run.h"
#include "examples/problems/safe_tuning_run.h"

namespace gpbandit {
namespace problems {
namespace {

std::vector<std::unique_ptr<SafePlant>> Plants() {
  std::vector<std::unique_ptr<SafePlant>> plants;
  plants.push_back(MakeRoverPlant(false));
  plants.push_back(MakeHeaterPlant());
  plants.push_back(MakeMotorPlant());
  return plants;
}

// A large part of each gain box is unsafe, the seed is not, and the limit binds: the best gains
// of the grid break it, the best safe gains sit within 5% of it.
TEST(SafePlantsTest, LimitsCutTheBoxAndBindAtTheBestSafeGains) {
  for (const auto& plant : Plants()) {
    const PlantGrid grid = EvaluateGrid(*plant, Eigen::VectorXd(), 11);
    EXPECT_GT(grid.unsafe_fraction, 0.3) << plant->name();
    EXPECT_LT(grid.unsafe_fraction, 0.75) << plant->name();
    EXPECT_TRUE(plant->Safe(plant->Simulate(plant->seed(), Eigen::VectorXd()))) << plant->name();
    ASSERT_GE(grid.best_safe, 0);
    EXPECT_GT(grid.reward.maxCoeff(), grid.best_safe_reward) << plant->name();
    const PlantEpisode best = plant->Simulate(grid.gains.col(grid.best_safe), Eigen::VectorXd());
    bool on_a_limit = false;
    for (Eigen::Index i = 0; i < best.limited.size(); ++i)
      on_a_limit = on_a_limit || best.limited(i) >= 0.95 * plant->limits()(i);
    EXPECT_TRUE(on_a_limit) << plant->name();
    EXPECT_GT(grid.best_safe_reward, plant->Simulate(plant->seed(), Eigen::VectorXd()).reward);
  }
}

// A heavier payload breaks the rover's limits over more of the box; the seed is safe at every
// payload.
TEST(SafePlantsTest, TheRoversSafeSetShrinksWithItsPayload) {
  const auto rover = MakeRoverPlant(true);
  ASSERT_EQ(rover->context_dim(), 1);
  double previous = 0;
  for (double payload : {0.0, 2.0, 4.0}) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, payload);
    const PlantGrid grid = EvaluateGrid(*rover, z, 9);
    EXPECT_GT(grid.unsafe_fraction, previous) << payload;
    previous = grid.unsafe_fraction;
    EXPECT_TRUE(rover->Safe(rover->Simulate(rover->seed(), z))) << payload;
  }
  EXPECT_THROW(rover->Simulate(rover->seed(), Eigen::VectorXd()), std::invalid_argument);
}

// The heater with door losses and the motor with loads: at the context the plant without one
// runs at (door loss 0.15, load 0.05 N m) the same episode; their limits cut more of the box at
// the context's upper end; the seed stays well inside the limit at every context (at least 2 K
// below the heater's, 20% below the motor's).
TEST(SafePlantsTest, TheContextualHeaterAndMotorExtendTheirPlants) {
  struct Case {
    std::unique_ptr<SafePlant> plain, contextual;
    double fixed_context, seed_limit;
  };
  std::vector<Case> cases;
  cases.push_back({MakeHeaterPlant(), MakeHeaterPlant(true), 0.15, 203.5 - 2.0});
  cases.push_back({MakeMotorPlant(), MakeMotorPlant(true), 0.05, 0.8 * 12.0});
  for (const Case& c : cases) {
    const SafePlant& plant = *c.contextual;
    ASSERT_EQ(plant.context_dim(), 1) << plant.name();
    const Eigen::VectorXd fixed = Eigen::VectorXd::Constant(1, c.fixed_context);
    const Eigen::VectorXd x = 0.5 * (plant.lower() + plant.upper());
    const PlantEpisode a = plant.Simulate(x, fixed), b = c.plain->Simulate(x, Eigen::VectorXd());
    EXPECT_EQ(a.reward, b.reward) << plant.name();
    EXPECT_EQ(a.limited, b.limited) << plant.name();
    const Eigen::VectorXd lo = plant.context_lower(), hi = plant.context_upper();
    const int points = plant.lower().size() == 2 ? 21 : 9;
    EXPECT_GT(EvaluateGrid(plant, hi, points).unsafe_fraction,
              EvaluateGrid(plant, lo, points).unsafe_fraction)
        << plant.name();
    for (double w : {0.0, 0.25, 0.5, 0.75, 1.0}) {
      const Eigen::VectorXd z = lo + w * (hi - lo);
      EXPECT_LE(plant.Simulate(plant.seed(), z).limited(0), c.seed_limit)
          << plant.name() << " at " << z(0);
    }
    EXPECT_THROW(plant.Simulate(plant.seed(), Eigen::VectorXd()), std::invalid_argument);
  }
}

// Every convention writes each limit so that g >= h exactly when q <= L, at least three per
// plant, and the reward converts back.
TEST(SafePlantsTest, ConventionsWriteTheSameLimits) {
  for (const auto& plant : Plants()) {
    const std::vector<UnitConvention> conventions = plant->conventions();
    EXPECT_GE(conventions.size(), 3u) << plant->name();
    for (const UnitConvention& c : conventions) {
      const std::vector<double> h = ToldThresholds(c, plant->limits());
      for (double f : {0.5, 0.999, 1.001, 2.0}) {
        PlantEpisode e;
        e.reward = -1.25;
        e.limited = f * plant->limits();
        const Eigen::VectorXd g = ToldSignals(c, e);
        for (Eigen::Index i = 0; i < g.size(); ++i)
          EXPECT_EQ(g(i) >= h[static_cast<std::size_t>(i)], f <= 1.0)
              << plant->name() << " " << c.name << " factor " << f;
        EXPECT_NEAR(RewardFromTold(c, ToldReward(c, e)), -1.25, 1e-12);
      }
    }
  }
}

TEST(SafePlantsTest, MeasurementsCarryThePlantsNoise) {
  const auto heater = MakeHeaterPlant();
  const PlantEpisode truth = heater->Simulate(heater->seed(), Eigen::VectorXd());
  Rng rng(3);
  double sum = 0, sum2 = 0;
  const int n = 2000;
  for (int k = 0; k < n; ++k) {
    const double d =
        heater->Measure(heater->seed(), Eigen::VectorXd(), rng).limited(0) - truth.limited(0);
    sum += d;
    sum2 += d * d;
  }
  EXPECT_NEAR(sum / n, 0.0, 0.02);
  EXPECT_NEAR(std::sqrt(sum2 / n), heater->noise_stddev()(1), 0.02);
}

// A short run in two conventions: no unsafe episode, the same recommendation, truly safe.
TEST(SafePlantsTest, AShortTuningRunStaysSafeInEveryConvention) {
  const auto heater = MakeHeaterPlant();
  const std::vector<PlantTruth> truths = {
      {Eigen::VectorXd(), EvaluateGrid(*heater, Eigen::VectorXd(), 9)}};
  SafeTuningSettings settings;
  settings.episodes = 15;
  settings.timed_asks = 1;
  const std::vector<UnitConvention> conventions = heater->conventions();
  const SafeTuningResult celsius = RunSafeTuning(*heater, conventions[0], truths, settings);
  const SafeTuningResult fahrenheit = RunSafeTuning(*heater, conventions[1], truths, settings);
  EXPECT_EQ(celsius.unsafe_episodes, 0);
  ASSERT_EQ(celsius.outcomes.size(), 1u);
  EXPECT_TRUE(celsius.outcomes[0].safe);
  EXPECT_GT(celsius.outcomes[0].gap_closed, 0.0);
  EXPECT_LT((celsius.outcomes[0].recommended - fahrenheit.outcomes[0].recommended).norm(), 1e-9);
  EXPECT_GT(celsius.ask_milliseconds, 0.0);
}

// Where the gap is lost, with a payload: the recommendation at a payload is among the evaluated
// actions inside the safe set there (or the seed), so it closes no more of the gap than the
// best of them; the seed (0) bounds both diagnostics from below.
TEST(SafePlantsTest, TheRecommendationClosesNoMoreThanTheBestEvaluatedActionInTheSafeSet) {
  const auto rover = MakeRoverPlant(true);
  std::vector<PlantTruth> truths;
  for (double kg : {0.0, 4.0}) {
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, kg);
    truths.push_back({z, EvaluateGrid(*rover, z, 5)});
  }
  SafeTuningSettings settings;
  settings.episodes = 15;
  settings.timed_asks = 0;
  const SafeTuningResult r = RunSafeTuning(*rover, rover->conventions()[0], truths, settings);
  ASSERT_EQ(r.outcomes.size(), 2u);
  bool moved = false;
  for (const ContextOutcome& o : r.outcomes) {
    EXPECT_TRUE(o.safe);
    EXPECT_GE(o.evaluated_best, 0.0);
    EXPECT_GE(o.safe_set_best, 0.0);
    EXPECT_LE(o.gap_closed, o.evaluated_best + 1e-12) << "payload " << o.context(0);
    moved = moved || o.evaluated_best > 0.0;
  }
  EXPECT_TRUE(moved) << "no evaluated action beat the seed: the check above is vacuous";
}

// The GP draws: deterministic for a draw, a safe seed, different draws differ; a run with the
// true model and Sui et al.'s beta_t evaluates nothing unsafe.
TEST(GpDrawProblemTest, DrawsAreReproducibleWithASafeSeed) {
  const GpDrawProblem a = DrawGpProblem(4), b = DrawGpProblem(4), c = DrawGpProblem(5);
  EXPECT_EQ(a.constraint, b.constraint);
  EXPECT_EQ(a.seed_index, b.seed_index);
  EXPECT_NE(a.constraint, c.constraint);
  ASSERT_EQ(a.points.cols(), 400);
  EXPECT_GE(a.constraint(a.seed_index), a.options.threshold);
  GpDrawRunSettings settings;
  settings.rounds = 15;
  const GpDrawRunResult r = RunGpDraw(a, settings);
  EXPECT_EQ(r.unsafe_evaluations, 0);
  EXPECT_TRUE(r.recommendation_safe);
  EXPECT_GT(r.coverage, 0.0);
  GpDrawOptions bad;
  bad.points_per_axis = 1;
  EXPECT_THROW(DrawGpProblem(1, bad), std::invalid_argument);
}

}  // namespace
}  // namespace problems
}  // namespace gpbandit
