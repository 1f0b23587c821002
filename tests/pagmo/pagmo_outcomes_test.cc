// The pagmo adapter on problems with several objectives or constraints (nobj > 1, nec, nic):
// end to end on a constrained quadratic with a known constrained optimum, an equality met
// within its tolerance, and ZDT1 with the hypervolume strategy against random search of the
// same size; every strategy accepted; refused input; same seed, same population.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <pagmo/algorithm.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/zdt.hpp>
#include <pagmo/utils/hypervolume.hpp>
#include <pagmo/utils/multi_objective.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/pagmo/pagmo_algorithm.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/optimizer/strategy_cells.h"
#include "tests/pagmo/pagmo_test_options.h"

// User problems live outside anonymous namespaces (pagmo serializes them by name).
namespace gpbandit_test {

// min (x0 - 1)^2 + (x1 - 1)^2 s.t. g = x0 + x1 - 1 <= 0 on [-2, 2]^2. The unconstrained minimum
// (1, 1) is infeasible; the constrained one is the projection of (1, 1) on x0 + x1 = 1:
// (0.5, 0.5), f = 0.5.
struct ConstrainedQuadratic {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    return {(x[0] - 1) * (x[0] - 1) + (x[1] - 1) * (x[1] - 1), x[0] + x[1] - 1};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-2, -2}, {2, 2}};
  }
  pagmo::vector_double::size_type get_nic() const { return 1; }
  std::string get_name() const { return "constrained quadratic"; }
};

// min x0^2 + x1^2 s.t. h = x0 + x1 - 1 = 0 on [-2, 2]^2: the optimum is (0.5, 0.5), f = 0.5;
// within a tolerance |h| <= t it is ((1 - t) / 2, (1 - t) / 2), f = (1 - t)^2 / 2.
struct EqualityCircle {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    return {x[0] * x[0] + x[1] * x[1], x[0] + x[1] - 1};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-2, -2}, {2, 2}};
  }
  pagmo::vector_double::size_type get_nec() const { return 1; }
};

// Two objectives (distances to (0, 0) and (1, 1), squared) and one inequality x0 <= 0.8, on
// [0, 1]^2.
struct TwoObjectivesOneConstraint {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    return {x[0] * x[0] + x[1] * x[1], (x[0] - 1) * (x[0] - 1) + (x[1] - 1) * (x[1] - 1),
            x[0] - 0.8};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{0, 0}, {1, 1}};
  }
  pagmo::vector_double::size_type get_nobj() const { return 2; }
  pagmo::vector_double::size_type get_nic() const { return 1; }
};

// Two objectives on an unbounded box.
struct UnboundedTwoObjectives {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const { return {x[0], -x[0]}; }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{0}, {HUGE_VAL}};
  }
  pagmo::vector_double::size_type get_nobj() const { return 2; }
};

}  // namespace gpbandit_test

namespace gpbandit {
namespace {

using gpbandit_test::ConstrainedQuadratic;
using gpbandit_test::EqualityCircle;
using gpbandit_test::TwoObjectivesOneConstraint;
using gpbandit_test::UnboundedTwoObjectives;
using ::testing::HasSubstr;

using testing::PagmoCheapOptions;

// The hypervolume of the individuals that dominate `reference` (pagmo's hypervolume).
double Hypervolume(const pagmo::population& pop, const pagmo::vector_double& reference) {
  std::vector<pagmo::vector_double> inside;
  for (const auto& f : pop.get_f()) {
    bool dominates = true;
    for (std::size_t i = 0; i < reference.size(); ++i) dominates = dominates && f[i] < reference[i];
    if (dominates) inside.push_back({f.begin(), f.begin() + reference.size()});
  }
  return inside.empty() ? 0.0 : pagmo::hypervolume(inside).compute(reference);
}

TEST(PagmoOutcomesTest, FindsTheConstrainedOptimumOfAQuadratic) {
  const pagmo::problem prob{ConstrainedQuadratic{}};
  const pagmo::population pop{prob, 6, 4};
  const BanditAlgorithm algo("gp-ucb", 30, 1, 8, StrategyParams(), PagmoCheapOptions());
  EXPECT_EQ(algo.strategy_for(prob), "log-ei");
  const pagmo::population out = pagmo::algorithm{algo}.evolve(pop);
  ASSERT_EQ(out.size(), 36u);
  EXPECT_EQ(out.get_problem().get_fevals(), 36u);
  // pagmo's champion (compare_fc: feasible first) is feasible and within 0.03 of the
  // constrained optimum 0.5 at (0.5, 0.5).
  const pagmo::vector_double f = out.champion_f(), x = out.champion_x();
  EXPECT_LE(f[1], 0.0);
  EXPECT_LT(f[0], 0.53);
  EXPECT_GE(f[0], 0.5 - 1e-12);  // nothing feasible is better than the optimum
  EXPECT_NEAR(x[0], 0.5, 0.15);
  EXPECT_NEAR(x[1], 0.5, 0.15);
}

// The equality is modelled through |h|, whose kink at h = 0 a smooth kernel rounds off: a band
// |h| <= 0.05 (2.5% of the box) is found in 40 rounds and its optimum approached in most runs (a
// band of 0.02 took about 60 on this problem). Over 11 seeds (populations and algorithms): every
// champion is feasible, the median is within 0.03 of the optimum and at least 7 are within 0.05
// (measured over 21 seeds: median 0.457, 18 within 0.05; the misses are feasible points farther
// from the origin).
TEST(PagmoOutcomesTest, MeetsAnEqualityWithinItsTolerance) {
  constexpr double kOptimum = 0.95 * 0.95 / 2;  // the least x0^2 + x1^2 with x0 + x1 >= 0.95
  std::vector<double> best;
  for (unsigned seed = 1; seed <= 11; ++seed) {
    pagmo::problem prob{EqualityCircle{}};
    prob.set_c_tol({0.05});
    const pagmo::population pop{prob, 6, seed};
    const pagmo::population out =
        BanditAlgorithm("gp-ucb", 40, 1, seed + 100, StrategyParams(), PagmoCheapOptions())
            .evolve(pop);
    const pagmo::vector_double f = out.champion_f();
    // Every point of the band scores at least the optimum: a lower champion is outside it.
    EXPECT_LE(std::abs(f[1]), 0.05) << "seed " << seed;
    EXPECT_GE(f[0], kOptimum - 1e-12) << "seed " << seed;
    best.push_back(f[0]);
  }
  std::sort(best.begin(), best.end());
  EXPECT_LT(best[5], kOptimum + 0.03);
  EXPECT_LT(best[6], kOptimum + 0.05);  // at least 7 of 11
}

TEST(PagmoOutcomesTest, EhviOnZdt1BeatsRandomSearchOfTheSameSize) {
  const pagmo::problem prob{pagmo::zdt{1, 5}};
  const pagmo::population pop{prob, 8, 3};
  const BanditAlgorithm algo("gp-ucb", 32, 1, 3, StrategyParams(), PagmoCheapOptions());
  EXPECT_EQ(algo.strategy_for(prob), "ehvi");
  const pagmo::population out = algo.evolve(pop);
  ASSERT_EQ(out.size(), 40u);
  // The same 8 individuals, then 32 more drawn uniformly by pagmo from the same seed.
  const pagmo::population random{prob, 40, 3};
  ASSERT_EQ(random.get_x()[7], pop.get_x()[7]);
  // BoTorch's ZDT reference point; ZDT1's front f1 = 1 - sqrt(f0) gives HV_max = 121 - 1/3.
  const pagmo::vector_double reference = {11, 11};
  const double hv_max = 121.0 - 1.0 / 3.0;
  const double gap = 1 - Hypervolume(out, reference) / hv_max;
  const double random_gap = 1 - Hypervolume(random, reference) / hv_max;
  // Measured: 0.090 against random search's 0.188 with the inferred reference point (the
  // given one does better: UsesTheGivenReferencePoint).
  EXPECT_GT(gap, 0.0);
  EXPECT_LT(gap, random_gap) << "gap " << gap << ", random search's " << random_gap;

  // pagmo's utilities work on the population; a champion is not defined for several objectives.
  EXPECT_FALSE(pagmo::non_dominated_front_2d(out.get_f()).empty());
  EXPECT_GT(pagmo::hypervolume(out).compute(reference), 0.0);
  EXPECT_THROW(out.champion_x(), std::invalid_argument);
}

// Every registered strategy but safe-opt, whose safety signals the Optimizer refuses to combine
// with declared outcomes (its message is passed on).
// The reference point given in the options (fitness units) is the one EHVI uses.
TEST(PagmoOutcomesTest, UsesTheGivenReferencePoint) {
  const pagmo::problem prob{pagmo::zdt{1, 5}};
  const pagmo::population pop{prob, 8, 3};
  OptimizerOptions options = PagmoCheapOptions();
  options.outcomes.reference_point = {11, 11};
  const BanditAlgorithm algo("ehvi", 32, 1, 3, StrategyParams(), options);
  EXPECT_EQ(algo.optimizer_options().outcomes.reference_point, (std::vector<double>{11, 11}));
  EXPECT_TRUE(algo.optimizer_options().outcomes.objectives.empty());
  const pagmo::population out = algo.evolve(pop);
  const pagmo::population random{prob, 40, 3};
  const double hv_max = 121.0 - 1.0 / 3.0;
  const double gap = 1 - Hypervolume(out, {11, 11}) / hv_max;
  const double random_gap = 1 - Hypervolume(random, {11, 11}) / hv_max;
  // Measured: 0.0008 against random search's 0.188.
  EXPECT_LT(gap, 0.05 * random_gap) << "gap " << gap << ", random search's " << random_gap;
}

TEST(PagmoOutcomesTest, EveryStrategyButSafeOptRunsOnOutcomes) {
  const pagmo::problem prob{TwoObjectivesOneConstraint{}};
  constexpr unsigned kRounds = 4, kInitial = 4;
  for (const std::string& strategy : StrategyRegistry::Default().Names()) {
    SCOPED_TRACE(strategy);
    const StrategyParams params = testing::CellParams(strategy, 1e6, Eigen::Vector2d(0.5, 0.5));
    const OptimizerOptions options = testing::CellOptions(strategy, PagmoCheapOptions());
    pagmo::population pop{prob, kInitial, 6};
    const BanditAlgorithm algo(strategy, kRounds, 1, 17, params, options);
    if (strategy == "safe-opt") {
      try {
        algo.evolve(pop);
        ADD_FAILURE() << "expected safe-opt to be refused";
      } catch (const std::invalid_argument& e) {
        EXPECT_THAT(e.what(), HasSubstr("outcomes"));
      }
      continue;
    }
    pop = algo.evolve(pop);
    ASSERT_EQ(pop.size(), kInitial + kRounds);
    for (std::size_t i = kInitial; i < pop.size(); ++i) {
      for (double v : pop.get_x()[i]) {
        EXPECT_GE(v, 0.0);
        EXPECT_LE(v, 1.0);
      }
      ASSERT_EQ(pop.get_f()[i].size(), 3u);
    }
  }
}

TEST(PagmoOutcomesTest, BatchesThroughTheBfeCarryEveryFitnessEntry) {
  const pagmo::problem prob{TwoObjectivesOneConstraint{}};
  const pagmo::population pop{prob, 4, 2};
  const pagmo::population out =
      BanditAlgorithm("ehvi", 3, 3, 11, StrategyParams(), PagmoCheapOptions()).evolve(pop);
  ASSERT_EQ(out.size(), 13u);
  EXPECT_EQ(out.get_problem().get_fevals(), 13u);
  const pagmo::problem reference{TwoObjectivesOneConstraint{}};
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out.get_f()[i], reference.fitness(out.get_x()[i])) << i;
}

TEST(PagmoOutcomesTest, SameSeedSamePopulation) {
  const pagmo::problem prob{TwoObjectivesOneConstraint{}};
  const pagmo::population pop{prob, 5, 12};
  BanditAlgorithm a("ehvi", 8, 1, 77, StrategyParams(), PagmoCheapOptions());
  BanditAlgorithm b("ehvi", 8, 1, 77, StrategyParams(), PagmoCheapOptions());
  a.set_verbosity(1);
  const pagmo::population pa = a.evolve(pop), pb = b.evolve(pop);
  EXPECT_EQ(pa.get_x(), pb.get_x());
  EXPECT_EQ(pa.get_f(), pb.get_f());
  // The log's "best" column holds the front's hypervolume for several objectives.
  ASSERT_EQ(a.get_log().size(), 8u);
  for (const auto& line : a.get_log()) EXPECT_GE(std::get<2>(line), 0.0);
  EXPECT_NE(
      BanditAlgorithm("ehvi", 8, 1, 78, StrategyParams(), PagmoCheapOptions()).evolve(pop).get_x(),
      pa.get_x());
}

void ExpectRejected(const pagmo::problem& prob, std::size_t pop_size, const std::string& text) {
  pagmo::population pop{prob};
  for (std::size_t i = 0; i < pop_size; ++i)
    pop.push_back(pagmo::vector_double(prob.get_nx(), 0.5));
  try {
    BanditAlgorithm("gp-ucb", 3, 1, 1, StrategyParams(), PagmoCheapOptions()).evolve(pop);
    ADD_FAILURE() << "expected a rejection containing '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr(text));
  }
}

TEST(PagmoOutcomesTest, RefusesWhatItCannotHandle) {
  ExpectRejected(pagmo::problem{UnboundedTwoObjectives{}}, 3,
                 "Non-finite bounds detected in " +
                     pagmo::problem{UnboundedTwoObjectives{}}.get_name() +
                     " instance at index 0: [0.000000, inf]");
  pagmo::problem tolerant{ConstrainedQuadratic{}};
  tolerant.set_c_tol({HUGE_VAL});
  ExpectRejected(tolerant, 3, "c_tol[0] = inf");
  ExpectRejected(pagmo::problem{TwoObjectivesOneConstraint{}}, 0, "needs at least 1 individual");
  // A reference point of the wrong size for the problem is refused by evolve, naming the field;
  // the problem's own objectives and constraints cannot be declared in the options.
  OptimizerOptions wrong = PagmoCheapOptions();
  wrong.outcomes.reference_point = {1.0, 2.0, 3.0};
  const BanditAlgorithm three("ehvi", 2, 1, 1, StrategyParams(), wrong);
  pagmo::population pop{pagmo::problem{TwoObjectivesOneConstraint{}}, 3, 1};
  try {
    three.evolve(pop);
    ADD_FAILURE() << "expected a rejection of the reference point";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("reference_point has 3 entries for 2 objectives"));
  }
  OptimizerOptions declared = PagmoCheapOptions();
  declared.outcomes.objectives = {{"cost", true}};
  try {
    BanditAlgorithm("ehvi", 2, 1, 1, StrategyParams(), declared);
    ADD_FAILURE() << "expected a rejection of declared objectives";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("outcomes.objectives and outcomes.constraints must be empty"));
  }
}

}  // namespace
}  // namespace gpbandit
