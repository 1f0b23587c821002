// Several outcomes through the Optimizer (optimizer.h, "Several outcomes"): constrained and
// multi-objective studies end to end, refused input, resume, and answers checked against
// independent computations from the told values.
#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

OptimizerOptions QuietOutcomes(std::uint64_t seed) {
  OptimizerOptions o;
  o.seed = seed;
  o.sync_log = false;
  o.num_threads = 1;
  return o;
}

// max f = -(x0 - 0.8)^2 - (x1 - 0.8)^2 subject to g = x0 + x1 <= 1: the optimum is (0.5, 0.5),
// f = -0.18, on the constraint's boundary; the unconstrained one is infeasible.
double ConstrainedF(const Eigen::VectorXd& x) {
  return -std::pow(x(0) - 0.8, 2) - std::pow(x(1) - 0.8, 2);
}
double ConstrainedG(const Eigen::VectorXd& x) { return x(0) + x(1); }

OutcomeOptions OneConstraint() {
  OutcomeOptions o;
  o.objectives = {{"f", false}};
  o.constraints = {{"g", ConstraintSense::kLessEqual, 1.0}};
  return o;
}

Recommendation RunConstrained(const std::string& strategy, std::uint64_t seed, int evaluations) {
  OptimizerOptions o = QuietOutcomes(seed);
  o.outcomes = OneConstraint();
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, strategy, o);
  for (int i = 0; i < evaluations; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector2d(ConstrainedF(x), ConstrainedG(x)));
  }
  return opt.Best();
}

class ConstrainedStrategies : public ::testing::TestWithParam<std::string> {};

// Every kind of strategy (improvement, index, draws) ends feasible and near the constrained
// optimum in 30 evaluations, on each of five seeds.
TEST_P(ConstrainedStrategies, RecommendFeasiblePointsNearTheConstrainedOptimum) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    const Recommendation best = RunConstrained(GetParam(), seed, 30);
    EXPECT_LE(ConstrainedG(best.x), 1.0 + 1e-9) << "seed " << seed;
    EXPECT_GT(ConstrainedF(best.x), -0.18 - 0.03) << "seed " << seed << " x " << best.x.transpose();
  }
}

INSTANTIATE_TEST_SUITE_P(Outcomes, ConstrainedStrategies,
                         ::testing::Values("log-ei", "ei", "pi", "gp-ucb", "gp-ts", "ehvi"));

// A feasible region of 0.8% of the box after a design of 3 points: the rounds search for
// feasibility and find it on each of five seeds; Best refuses until then.
TEST(OutcomesOptimizer, SearchesForFeasibilityAndBestRefusesUntilItIsFound) {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    OptimizerOptions o = QuietOutcomes(seed);
    o.outcomes.objectives = {{"f", false}};
    o.outcomes.constraints = {{"distance", ConstraintSense::kLessEqual, 0.05}};
    o.initial_design_size = 3;  // the model must find the region, not the design
    Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "log-ei", o);
    auto distance = [](const Eigen::VectorXd& x) {
      return (x - Eigen::Vector2d(0.85, 0.2)).norm();
    };
    int first_feasible = -1;
    for (int i = 0; i < 40 && first_feasible < 0; ++i) {
      const Eigen::VectorXd x = opt.Ask();
      if (i == 0) {
        EXPECT_THROW(opt.Best(), std::logic_error);
      }
      opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector2d(-x(0), distance(x)));
      if (distance(x) <= 0.05) first_feasible = i + 1;
    }
    EXPECT_GT(first_feasible, 0) << "no feasible point in 40 evaluations, seed " << seed;
    std::cout << "seed " << seed << ": first feasible point at evaluation " << first_feasible
              << std::endl;
  }
}

// ZDT1 in 3-D, both minimized: f1 = x0, f2 = g (1 - sqrt(x0 / g)), g = 1 + 9 mean(x1, x2).
Eigen::Vector2d Zdt1(const Eigen::VectorXd& x) {
  const double g = 1.0 + 9.0 * (x(1) + x(2)) / 2.0;
  return Eigen::Vector2d(x(0), g * (1.0 - std::sqrt(x(0) / g)));
}

// The hypervolume of minimized 2-D points below reference r, computed here by sweeping.
double Hypervolume2dMin(std::vector<Eigen::Vector2d> points, const Eigen::Vector2d& r) {
  std::sort(points.begin(), points.end(),
            [](const Eigen::Vector2d& a, const Eigen::Vector2d& b) { return a(0) < b(0); });
  double volume = 0.0, best_f2 = r(1);
  for (const Eigen::Vector2d& p : points) {
    if (p(0) >= r(0) || p(1) >= best_f2) continue;
    volume += (r(0) - p(0)) * (best_f2 - p(1));
    best_f2 = p(1);
  }
  return volume;
}

OptimizerOptions TwoObjectives(std::uint64_t seed) {
  OptimizerOptions o = QuietOutcomes(seed);
  o.outcomes.objectives = {{"f1", true}, {"f2", true}};
  o.outcomes.reference_point = {1.1, 11.0};
  return o;
}

// EHVI and the Chebyshev scalarization of GP-UCB both cover more of ZDT1's front in 30
// evaluations than 30 uniform points do, on each of five seeds; the Optimizer's Hypervolume
// agrees with the sweep over its front's told values.
TEST(OutcomesOptimizer, TwoObjectivesBeatUniformPointsOnZdt1) {
  for (const std::string strategy : {"ehvi", "gp-ucb"}) {
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      Optimizer opt(Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()), nullptr,
                    strategy, TwoObjectives(seed));
      std::vector<Eigen::Vector2d> told, uniform;
      Rng rng(seed);
      const Eigen::MatrixXd U = testing::UniformPoints(3, 30, 0.0, 1.0, rng);
      for (int i = 0; i < 30; ++i) {
        const Eigen::VectorXd x = opt.Ask();
        told.push_back(Zdt1(x));
        uniform.push_back(Zdt1(U.col(i)));
        opt.TellOutcomes(x, Eigen::VectorXd(), told.back());
      }
      const Eigen::Vector2d r(1.1, 11.0);
      const double ours = Hypervolume2dMin(told, r);
      EXPECT_GT(ours, Hypervolume2dMin(uniform, r)) << strategy << " seed " << seed;
      std::vector<Eigen::Vector2d> front_told;
      for (const ParetoPoint& p : opt.ParetoFront()) front_told.push_back(p.outcomes.head(2));
      EXPECT_NEAR(opt.Hypervolume(), Hypervolume2dMin(front_told, r), 1e-9 * ours);
      EXPECT_THROW(opt.Best(), std::logic_error);
    }
  }
}

// The front is the set of observed points whose posterior means no other observed point's
// dominate (both minimized), checked here pair by pair; every point carries its told outcomes.
TEST(OutcomesOptimizer, ParetoFrontIsNonDominatedInPosteriorMean) {
  Optimizer opt(Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()), nullptr, "ehvi",
                TwoObjectives(7));
  for (int i = 0; i < 20; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.TellOutcomes(x, Eigen::VectorXd(), Zdt1(x));
  }
  const std::vector<ParetoPoint> front = opt.ParetoFront();
  ASSERT_GE(front.size(), 2u);
  for (const ParetoPoint& a : front) {
    EXPECT_EQ(a.outcomes, Zdt1(a.x));
    EXPECT_EQ(a.probability_feasible, 1.0);
    for (int i = 0; i < 2; ++i)
      EXPECT_NEAR(a.means(i), opt.PredictOutcome(i, a.x).mean, 1e-9 * (1 + std::abs(a.means(i))));
    for (const ParetoPoint& b : front) {
      const bool dominates =
          (b.means.array() <= a.means.array()).all() && (b.means.array() < a.means.array()).any();
      EXPECT_FALSE(dominates) << b.x.transpose() << " dominates " << a.x.transpose();
    }
  }
  // Every observed point left out is dominated by one of the front's, in posterior mean.
  for (const Observation& o : opt.observations()) {
    Eigen::Vector2d mean(opt.PredictOutcome(0, o.x).mean, opt.PredictOutcome(1, o.x).mean);
    bool on_front = false, dominated = false;
    for (const ParetoPoint& p : front) {
      on_front = on_front || p.x == o.x;
      dominated = dominated || ((p.means.array() <= mean.array()).all() &&
                                (p.means.array() < mean.array()).any());
    }
    EXPECT_TRUE(on_front || dominated) << o.x.transpose();
  }
}

// The inferred reference point: the worst told value of each objective (no constraints: every
// point is feasible), moved out by 10% of the told range.
TEST(OutcomesOptimizer, InfersTheReferencePointFromTheToldValues) {
  OptimizerOptions o = TwoObjectives(2);
  o.outcomes.reference_point.clear();
  Optimizer opt(Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()), nullptr, "ehvi", o);
  for (int i = 0; i < 12; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.TellOutcomes(x, Eigen::VectorXd(), Zdt1(x));
  }
  Eigen::Vector2d worst(-HUGE_VAL, -HUGE_VAL), best(HUGE_VAL, HUGE_VAL);
  for (const Observation& told : opt.observations()) {
    const Eigen::Vector2d f(told.y, told.constraints(0));
    worst = worst.cwiseMax(f);
    best = best.cwiseMin(f);
  }
  const Eigen::VectorXd r = opt.ReferencePoint();
  ASSERT_EQ(r.size(), 2);
  for (int i = 0; i < 2; ++i) EXPECT_NEAR(r(i), worst(i) + 0.1 * (worst(i) - best(i)), 1e-12);
}

// A batch under several outcomes holds distinct points, each chosen by the acquisition (a repeat
// would have been replaced by a uniform point, whose value is far below the others').
TEST(OutcomesOptimizer, BatchesSpreadOverEveryOutcomesModel) {
  OptimizerOptions o = TwoObjectives(9);
  o.outcomes.constraints = {{"g", ConstraintSense::kLessEqual, 1.2}};
  Optimizer opt(Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()), nullptr, "ehvi", o);
  for (int i = 0; i < 10; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    const Eigen::Vector2d f = Zdt1(x);
    opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector3d(f(0), f(1), x.sum()));
  }
  const Eigen::MatrixXd batch = opt.AskBatch(3);
  const RoundReport report = opt.last_round_report();
  ASSERT_EQ(report.acquisition_values.size(), 3u);
  for (int a = 0; a < 3; ++a) {
    EXPECT_TRUE(std::isfinite(report.acquisition_values[static_cast<std::size_t>(a)]));
    for (int b = a + 1; b < 3; ++b) EXPECT_GT((batch.col(a) - batch.col(b)).norm(), 1e-3);
  }
}

// A wrong number of outcomes, an unknown or missing name, and a NaN under the default policy are
// refused, and nothing changes.
TEST(OutcomesOptimizer, RefusedInputChangesNothing) {
  OptimizerOptions o = QuietOutcomes(4);
  o.outcomes = OneConstraint();
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "log-ei", o);
  const Eigen::VectorXd x = opt.Ask();
  opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector2d(ConstrainedF(x), ConstrainedG(x)));
  const std::string before = opt.Fingerprint();
  ExpectInvalid([&] { opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector3d(1, 2, 3)); },
                "3 values, but the study has 2 outcomes (f, g)");
  ExpectInvalid([&] { opt.OutcomeVector({{"f", 1.0}, {"h", 2.0}}); }, "outcome 'h' is not one");
  ExpectInvalid([&] { opt.OutcomeVector({{"f", 1.0}}); }, "outcome 'g' is missing");
  EXPECT_THROW(opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector2d(1.0, std::nan(""))),
               std::invalid_argument);
  EXPECT_EQ(opt.Fingerprint(), before);
  EXPECT_EQ(opt.OutcomeVector({{"g", 2.0}, {"f", 1.0}}), Eigen::Vector2d(1.0, 2.0));
}

// Under kSkip a NaN in any outcome is a failed evaluation: counted, not modelled.
TEST(OutcomesOptimizer, ANaNInAnyOutcomeIsAFailedEvaluation) {
  OptimizerOptions o = QuietOutcomes(5);
  o.outcomes = OneConstraint();
  o.non_finite_rewards = NonFiniteRewardPolicy::kSkip;
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "log-ei", o);
  opt.TellOutcomes(Eigen::Vector2d(0.2, 0.2), Eigen::VectorXd(),
                   Eigen::Vector2d(-1.0, std::nan("")));
  EXPECT_EQ(opt.num_failed(), 1);
  EXPECT_EQ(opt.num_accepted(), 0);
  EXPECT_EQ(opt.constraint_model(0).num_observations(), 0);
}

// A study with outcomes resumes from its log to the same state, and its header keeps them.
TEST(OutcomesOptimizer, ResumesFromItsLog) {
  const std::string path = testing::TempLogPath("outcomes_resume");
  OptimizerOptions o = TwoObjectives(6);
  o.outcomes.constraints = {{"g", ConstraintSense::kGreaterEqual, 0.1}};
  o.log_path = path;
  std::string fingerprint;
  std::vector<ParetoPoint> front;
  {
    Optimizer opt(Domain::Box(Eigen::Vector3d::Zero(), Eigen::Vector3d::Ones()), nullptr, "ehvi",
                  o);
    for (int i = 0; i < 14; ++i) {
      const Eigen::VectorXd x = opt.Ask();
      const Eigen::Vector2d f = Zdt1(x);
      opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector3d(f(0), f(1), x(1)));
    }
    fingerprint = opt.Fingerprint();
    front = opt.ParetoFront();
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(path);
  EXPECT_EQ(resumed->Fingerprint(), fingerprint);
  EXPECT_EQ(resumed->options().outcomes.constraints.at(0).name, "g");
  EXPECT_EQ(resumed->options().outcomes.constraints.at(0).sense, ConstraintSense::kGreaterEqual);
  EXPECT_EQ(resumed->options().sense, ObjectiveSense::kMinimize);
  ASSERT_EQ(resumed->ParetoFront().size(), front.size());
  for (std::size_t i = 0; i < front.size(); ++i) {
    EXPECT_EQ(resumed->ParetoFront()[i].x, front[i].x);
    EXPECT_GE(front[i].outcomes(2), 0.1 - 0.05) << "a front point far outside g >= 0.1";
  }
}

// Declared outcomes do not go with a strategy's own constraint signals or a time model, and
// bad declarations are refused naming the field.
TEST(OutcomesOptimizer, RefusesWhatCannotWork) {
  const Domain box = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1));
  OptimizerOptions o = QuietOutcomes(1);
  o.outcomes = OneConstraint();
  ExpectInvalid([&] { Optimizer(box, nullptr, "tv-gp-ucb", o); }, "drifting");
  o.outcomes.constraints.push_back({"f", ConstraintSense::kLessEqual, 0.0});
  ExpectInvalid([&] { Optimizer(box, nullptr, "gp-ucb", o); }, "used twice");
  o.outcomes = OneConstraint();
  o.outcomes.constraints[0].bound = HUGE_VAL;
  ExpectInvalid([&] { Optimizer(box, nullptr, "gp-ucb", o); }, "constraints[0].bound");
  o.outcomes = OneConstraint();
  o.outcomes.reference_point = {1.0, 2.0};
  ExpectInvalid([&] { Optimizer(box, nullptr, "gp-ucb", o); }, "reference_point has 2 entries");
}

// The probability of feasibility is Phi(-m / s) of the constraint's own posterior.
TEST(OutcomesOptimizer, ProbabilityOfFeasibilityIsTheConstraintPosteriorsNormalCdf) {
  OptimizerOptions o = QuietOutcomes(8);
  o.outcomes = OneConstraint();
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "log-ei", o);
  for (int i = 0; i < 8; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.TellOutcomes(x, Eigen::VectorXd(), Eigen::Vector2d(ConstrainedF(x), ConstrainedG(x)));
  }
  const Eigen::Vector2d x(0.45, 0.6);
  const Prediction g = opt.PredictOutcome(1, x);
  const double expected = 0.5 * std::erfc((g.mean - 1.0) / g.stddev / std::sqrt(2.0));
  EXPECT_NEAR(opt.ProbabilityOfFeasibility(x), expected, 1e-9);
}

}  // namespace
}  // namespace gpbandit
