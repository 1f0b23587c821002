// The pagmo adapter on mixed-integer problems (get_nix() > 0): every individual evolve adds keeps
// its last nix variables integral and inside the bounds, and the optimizer finds the integer
// optimum of a problem that has one.
#include <gtest/gtest.h>

#include <cmath>
#include <pagmo/algorithm.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/minlp_rastrigin.hpp>

#include "gpbandit/pagmo/pagmo_algorithm.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/pagmo/pagmo_test_options.h"

// User problems live outside anonymous namespaces (pagmo serializes them by name).
namespace gpbandit_test {

// (x - 0.3)^2 + (n - 3)^2 / 10 + |m - 7| / 10 with x in [-1, 1] real and n, m in [0, 10]
// integers (nix = 2): the minimum 0 is at (0.3, 3, 7).
struct MixedIntegerBowl {
  pagmo::vector_double fitness(const pagmo::vector_double& v) const {
    return {(v[0] - 0.3) * (v[0] - 0.3) + (v[1] - 3) * (v[1] - 3) / 10 + std::abs(v[2] - 7) / 10};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-1, 0, 0}, {1, 10, 10}};
  }
  pagmo::vector_double::size_type get_nix() const { return 2; }
  std::string get_name() const { return "mixed-integer bowl"; }
};

}  // namespace gpbandit_test

namespace gpbandit {
namespace {

using testing::PagmoCheapOptions;

void ExpectIntegral(const pagmo::population& pop) {
  const pagmo::problem& prob = pop.get_problem();
  const auto bounds = prob.get_bounds();
  const std::size_t first_integer = prob.get_nx() - prob.get_nix();
  for (const auto& x : pop.get_x())
    for (std::size_t i = 0; i < x.size(); ++i) {
      EXPECT_TRUE(x[i] >= bounds.first[i] && x[i] <= bounds.second[i]) << i << ": " << x[i];
      if (i >= first_integer) {
        EXPECT_EQ(x[i], std::round(x[i])) << i << ": " << x[i];
      }
    }
}

TEST(BanditAlgorithmIntegerTest, FindsTheIntegerOptimumKeepingIntegersIntegral) {
  pagmo::problem prob{gpbandit_test::MixedIntegerBowl{}};
  pagmo::population pop{prob, 3, 7};
  for (const std::string strategy : {"ei", "gp-ucb", "gp-ts"}) {
    SCOPED_TRACE(strategy);
    const pagmo::population out =
        BanditAlgorithm(strategy, 25, 1, 11, StrategyParams(), PagmoCheapOptions()).evolve(pop);
    EXPECT_EQ(out.size(), 28u);
    ExpectIntegral(out);
    const auto best = out.get_x()[out.best_idx()];
    EXPECT_EQ(best[1], 3.0);
    EXPECT_EQ(best[2], 7.0);
    EXPECT_NEAR(best[0], 0.3, 0.1);
  }
}

TEST(BanditAlgorithmIntegerTest, PagmosMinlpRastriginInBatches) {
  pagmo::problem prob{pagmo::minlp_rastrigin{2, 2}};
  pagmo::population pop{prob, 4, 3};
  const double initial_best = pop.champion_f()[0];
  const pagmo::population out =
      BanditAlgorithm("ei", 6, 3, 5, StrategyParams(), PagmoCheapOptions()).evolve(pop);
  EXPECT_EQ(out.size(), 22u);
  ExpectIntegral(out);
  EXPECT_LE(out.champion_f()[0], initial_best);
}

// A user's individual with a non-integral integer is no data about the problem's domain: evolve
// leaves it out (the optimizer would refuse it) and goes on.
TEST(BanditAlgorithmIntegerTest, APopulationWithANonIntegralIndividualEvolves) {
  pagmo::problem prob{gpbandit_test::MixedIntegerBowl{}};
  pagmo::population pop{prob};
  pop.push_back({0.0, 2.5, 7.0});
  pop.push_back({0.5, 3.0, 6.0});
  const pagmo::population out =
      BanditAlgorithm("ei", 4, 1, 2, StrategyParams(), PagmoCheapOptions()).evolve(pop);
  EXPECT_EQ(out.size(), 6u);
  for (std::size_t i = 2; i < out.size(); ++i)
    EXPECT_EQ(out.get_x()[i][1], std::round(out.get_x()[i][1]));
}

}  // namespace
}  // namespace gpbandit
