// Every registered strategy through pagmo (BanditAlgorithm: the Optimizer on the problem's box
// with its default kernel), one point per round and batches through the bfe: each evolve runs
// to the end and every new individual lies in the bounds with a finite fitness.
#include <gtest/gtest.h>

#include <cmath>
#include <pagmo/algorithm.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <string>

#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/pagmo/pagmo_algorithm.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/optimizer/strategy_cells.h"

namespace gpbandit {
namespace {

OptimizerOptions TinyOptions() {
  OptimizerOptions o = testing::CheapOptions();
  o.maximizer_raw_samples = 32;
  o.maximizer_starts = 1;
  o.maximizer_iterations = 10;
  o.fit.max_iterations = 20;
  o.fit.num_restarts = 0;
  return o;
}

TEST(PagmoCombinationTest, EveryStrategyEvolvesInsideTheBounds) {
  const pagmo::problem problem{pagmo::rosenbrock{2}};
  const auto bounds = problem.get_bounds();
  constexpr unsigned kRounds = 6, kInitial = 3;
  for (const std::string& strategy : StrategyRegistry::Default().Names()) {
    for (unsigned batch : {1u, 2u}) {
      SCOPED_TRACE(strategy + ", batch " + std::to_string(batch));
      pagmo::algorithm algorithm{
          BanditAlgorithm(strategy, kRounds, batch, 17,
                          // Fitness on the box stays below 1e6: every point may become safe.
                          testing::CellParams(strategy, 1e6, Eigen::Vector2d(0.0, 0.0)),
                          testing::CellOptions(strategy, TinyOptions()))};
      pagmo::population population{problem, kInitial, 3};
      population = algorithm.evolve(population);
      ASSERT_EQ(population.size(), kInitial + kRounds * batch);
      for (std::size_t i = kInitial; i < population.size(); ++i) {
        const pagmo::vector_double& x = population.get_x()[i];
        for (std::size_t k = 0; k < x.size(); ++k) {
          EXPECT_GE(x[k], bounds.first[k]);
          EXPECT_LE(x[k], bounds.second[k]);
        }
        EXPECT_TRUE(std::isfinite(population.get_f()[i][0]));
      }
    }
  }
}

}  // namespace
}  // namespace gpbandit
