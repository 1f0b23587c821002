#include "gpbandit/pagmo/pagmo_algorithm.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <boost/archive/binary_iarchive.hpp>
#include <boost/archive/binary_oarchive.hpp>
#include <cmath>
#include <cstdint>
#include <pagmo/archipelago.hpp>
#include <pagmo/islands/fork_island.hpp>
#include <pagmo/islands/thread_island.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <sstream>
#include <stdexcept>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/pagmo/pagmo_test_options.h"
#include "tests/test_util.h"

// User problems live outside anonymous namespaces: fork islands serialize them by name.
namespace gpbandit_test {

// A user problem: a shifted sphere in 3-D whose minimum 0 is at (0.2, -0.4, 0.6).
struct ShiftedSphere {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    const double c[3] = {0.2, -0.4, 0.6};
    double s = 0;
    for (int i = 0; i < 3; ++i) s += (x[i] - c[i]) * (x[i] - c[i]);
    return {s};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-1, -1, -1}, {1, 1, 1}};
  }
  std::string get_name() const { return "shifted sphere"; }
  template <typename Archive>
  void serialize(Archive&, unsigned) {}
};

struct InfiniteBounds {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const { return {x[0] * x[0]}; }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{-HUGE_VAL}, {1}};
  }
};

}  // namespace gpbandit_test

PAGMO_S11N_PROBLEM_EXPORT(gpbandit_test::ShiftedSphere)

namespace gpbandit {
namespace {

using gpbandit_test::InfiniteBounds;
using gpbandit_test::ShiftedSphere;
using ::testing::HasSubstr;

using testing::PagmoCheapOptions;

BanditAlgorithm MakeAlgorithm(unsigned rounds, unsigned batch = 1, unsigned seed = 42,
                              const std::string& strategy = "gp-ucb") {
  return BanditAlgorithm(strategy, rounds, batch, seed, StrategyParams(), PagmoCheapOptions());
}

double Champion(const pagmo::population& pop) { return pop.champion_f()[0]; }

double InitialBest(const pagmo::population& pop, std::size_t n) {
  double best = HUGE_VAL;
  for (std::size_t i = 0; i < n; ++i) best = std::min(best, pop.get_f()[i][0]);
  return best;
}

TEST(BanditAlgorithmTest, ImprovesRosenbrockUsingThePopulationAsData) {
  pagmo::problem prob{pagmo::rosenbrock{2}};
  pagmo::population pop{prob, 5, 7};
  pagmo::algorithm algo{MakeAlgorithm(20)};
  EXPECT_EQ(algo.get_thread_safety(), pagmo::thread_safety::basic);
  const auto out = algo.evolve(pop);
  EXPECT_EQ(out.size(), 25u);
  // 5 evaluations for the population, one per round: none wasted on a fresh design.
  EXPECT_EQ(out.get_problem().get_fevals(), 25u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(out.get_x()[i], pop.get_x()[i]);
  // pagmo's rosenbrock box is [-5, 10]^2, where random points score in the thousands.
  EXPECT_LT(Champion(out), InitialBest(pop, 5));
  EXPECT_LT(Champion(out), 100.0);
}

TEST(BanditAlgorithmTest, SolvesAUserProblemWithEveryStrategy) {
  for (const std::string strategy : {"gp-ucb", "igp-ucb", "gp-ts", "ei", "pi", "mean"}) {
    pagmo::problem prob{ShiftedSphere{}};
    pagmo::population pop{prob, 4, 3};
    pagmo::algorithm algo{MakeAlgorithm(16, 1, 5, strategy)};
    const auto out = algo.evolve(pop);
    EXPECT_EQ(out.size(), 20u) << strategy;
    EXPECT_LT(Champion(out), InitialBest(pop, 4)) << strategy;
    if (strategy == "gp-ucb" || strategy == "ei") {
      EXPECT_LT(Champion(out), 0.25) << strategy;
    }
  }
}

// safe-opt in pagmo: the population holds the safe seed alone, the threshold is on the reward
// -f (f <= 1 here), and no individual it adds breaks it; measured constraint signals are
// refused (a pagmo problem does not report them).
TEST(BanditAlgorithmTest, SafeOptKeepsTheFitnessUnderTheBound) {
  pagmo::problem prob{ShiftedSphere{}};
  pagmo::population pop{prob};
  pop.push_back({0.0, 0.0, 0.0});  // f = 0.56
  const OptimizerOptions options = PagmoCheapOptions();
  const StrategyParams params =
      StrategyParams().With("threshold", 1.0).WithText("seeds", "[[0, 0, 0]]");  // fitness <= 1
  pagmo::algorithm algo{BanditAlgorithm("safe-opt", 15, 1, 3, params, options)};
  const auto out = algo.evolve(pop);
  ASSERT_EQ(out.size(), 16u);
  for (std::size_t i = 0; i < out.size(); ++i) EXPECT_LE(out.get_f()[i][0], 1.0) << i;
  EXPECT_LT(Champion(out), 0.56);
  EXPECT_THROW(BanditAlgorithm("safe-opt", 3, 1, 3, params.WithText("constraint_thresholds", "[0]"),
                               options),
               std::invalid_argument);
}

TEST(BanditAlgorithmTest, SameSeedSameLogAndPopulation) {
  pagmo::problem prob{pagmo::rosenbrock{3}};
  pagmo::population pop{prob, 4, 11};
  BanditAlgorithm a = MakeAlgorithm(12, 1, 99);
  BanditAlgorithm b = MakeAlgorithm(12, 1, 99);
  a.set_verbosity(1);
  b.set_verbosity(1);
  const auto pa = a.evolve(pop);
  const auto pb = b.evolve(pop);
  EXPECT_EQ(pa.get_x(), pb.get_x());
  EXPECT_EQ(pa.get_f(), pb.get_f());
  ASSERT_EQ(a.get_log().size(), 12u);
  EXPECT_EQ(a.get_log(), b.get_log());
  EXPECT_EQ(std::get<1>(a.get_log().back()), 16u);  // fevals
  EXPECT_EQ(std::get<2>(a.get_log().back()), Champion(pa));
  // A different seed gives a different run; set_seed restores the sequence.
  BanditAlgorithm c = MakeAlgorithm(12, 1, 100);
  EXPECT_NE(c.evolve(pop).get_x(), pa.get_x());
  a.set_seed(99);
  EXPECT_EQ(a.evolve(pop).get_x(), pa.get_x());
  // A second evolve continues the seed sequence rather than repeating it.
  EXPECT_NE(a.evolve(pop).get_x(), pa.get_x());
}

// A single-objective unconstrained problem is the plain Optimizer run on its box, told costs:
// evolve's population is, bit for bit, the one of that loop seeded as evolve 0 of seed 42 is.
TEST(BanditAlgorithmTest, OneObjectiveIsThePlainOptimizerRun) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  pagmo::problem prob{ShiftedSphere{}};
  const pagmo::population pop{prob, 4, 13};
  const auto out = MakeAlgorithm(10, 1, 42, "ei").evolve(pop);
  OptimizerOptions options = PagmoCheapOptions();
  options.seed = std::uint64_t{42} << 32;  // (seed, evolve 0)
  options.sense = ObjectiveSense::kMinimize;
  Optimizer direct(Domain::Box(-Eigen::Vector3d::Ones(), Eigen::Vector3d::Ones()), nullptr, "ei",
                   StrategyParams(), options);
  for (std::size_t i = 0; i < pop.size(); ++i)
    direct.Tell(Eigen::Map<const Eigen::Vector3d>(pop.get_x()[i].data()), pop.get_f()[i][0]);
  pagmo::problem reference{ShiftedSphere{}};
  ASSERT_EQ(out.size(), 14u);
  for (std::size_t i = 4; i < out.size(); ++i) {
    const Eigen::VectorXd x = direct.AskBatch(1).col(0);  // as evolve asks
    const pagmo::vector_double xv(x.data(), x.data() + 3);
    EXPECT_EQ(out.get_x()[i], xv) << i;
    direct.Tell(x, reference.fitness(xv)[0]);
  }
}

TEST(BanditAlgorithmTest, BatchEvaluationThroughBfeCountsFevals) {
  pagmo::problem prob{ShiftedSphere{}};
  pagmo::population pop{prob, 4, 5};
  BanditAlgorithm algo = MakeAlgorithm(5, 3);
  const auto out = algo.evolve(pop);
  EXPECT_EQ(out.size(), 19u);
  EXPECT_EQ(out.get_problem().get_fevals(), 19u);
  // Every stored fitness is the problem's value at its x. The reference goes through a
  // pagmo::problem like the bfe's evaluations did: a direct call to the inlined UDP may round
  // differently in the last bit (FMA contraction and vectorization under -march=native).
  pagmo::problem reference{ShiftedSphere{}};
  for (std::size_t i = 0; i < out.size(); ++i)
    EXPECT_EQ(out.get_f()[i][0], reference.fitness(out.get_x()[i])[0]);
  // Each batch holds distinct points.
  for (std::size_t r = 0; r < 5; ++r)
    for (std::size_t i = 0; i < 3; ++i)
      for (std::size_t j = 0; j < i; ++j)
        EXPECT_NE(out.get_x()[4 + 3 * r + i], out.get_x()[4 + 3 * r + j]);
}

void ExpectRejected(const pagmo::problem& prob, std::size_t pop_size, const std::string& text) {
  pagmo::population pop{prob};
  for (std::size_t i = 0; i < pop_size; ++i)
    pop.push_back(pagmo::vector_double(prob.get_nx(), 0.5));
  try {
    MakeAlgorithm(3).evolve(pop);
    ADD_FAILURE() << "expected a rejection containing '" << text << "'";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr(text));
  }
}

// Several objectives and constraints are accepted (tests/pagmo/pagmo_outcomes_test.cc).
TEST(BanditAlgorithmTest, RejectsWhatItCannotHandle) {
  ExpectRejected(pagmo::problem{InfiniteBounds{}}, 4, "Non-finite bounds detected");
  ExpectRejected(pagmo::problem{pagmo::rosenbrock{2}}, 0, "needs at least 1 individual");
  EXPECT_THROW(BanditAlgorithm("no-such-strategy"), std::invalid_argument);
  EXPECT_THROW(BanditAlgorithm("gp-ucb", 3, 0), std::invalid_argument);
}

TEST(BanditAlgorithmTest, Getters) {
  BanditAlgorithm a("ei", 7, 2, 5);
  a.set_verbosity(3);
  EXPECT_THAT(a.get_name(), HasSubstr("ei"));
  EXPECT_THAT(a.get_extra_info(), HasSubstr("Rounds: 7"));
  EXPECT_THAT(a.get_extra_info(), HasSubstr("Batch size: 2"));
  EXPECT_EQ(a.get_seed(), 5u);
  EXPECT_EQ(a.get_verbosity(), 3u);
  EXPECT_EQ(a.rounds(), 7u);
  EXPECT_EQ(a.batch_size(), 2u);
  // Zero rounds: the population comes back unchanged.
  pagmo::population pop{pagmo::problem{ShiftedSphere{}}, 3, 2};
  const auto out = BanditAlgorithm("gp-ucb", 0).evolve(pop);
  EXPECT_EQ(out.get_x(), pop.get_x());
}

TEST(BanditAlgorithmTest, SerializationRoundTrip) {
  const StrategyParams s = StrategyParams().With("beta_scale", 0.2);
  OptimizerOptions o = PagmoCheapOptions();
  o.initial_design_size = 3;
  pagmo::algorithm algo{BanditAlgorithm("gp-ucb", 6, 1, 17, s, o)};
  algo.set_verbosity(2);
  pagmo::population pop{pagmo::problem{ShiftedSphere{}}, 3, 2};
  const auto first = algo.evolve(pop);  // fills the log and advances the seed sequence
  std::stringstream ss;
  {
    boost::archive::binary_oarchive oa(ss);
    oa << algo;
  }
  pagmo::algorithm restored{BanditAlgorithm("mean", 1, 1, 0)};
  {
    boost::archive::binary_iarchive ia(ss);
    ia >> restored;
  }
  EXPECT_EQ(restored.get_name(), algo.get_name());
  EXPECT_EQ(restored.get_extra_info(), algo.get_extra_info());
  const auto* a = algo.extract<BanditAlgorithm>();
  const auto* r = restored.extract<BanditAlgorithm>();
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->get_log(), a->get_log());
  EXPECT_EQ(r->strategy_options().at("beta_scale"), 0.2);
  EXPECT_EQ(r->optimizer_options().initial_design_size, 3);
  // Both continue identically.
  EXPECT_EQ(restored.evolve(pop).get_x(), algo.evolve(pop).get_x());
}

TEST(BanditAlgorithmTest, ArchipelagoOfThreadIslands) {
  pagmo::archipelago archi;
  for (unsigned i = 0; i < 3; ++i) {
    archi.push_back(pagmo::thread_island{}, MakeAlgorithm(6, 1, 10 + i),
                    pagmo::problem{ShiftedSphere{}}, 4u, 100u + i);
  }
  archi.evolve(2);
  archi.wait_check();
  for (const auto& isl : archi) {
    const auto pop = isl.get_population();
    EXPECT_GE(pop.size(), 16u);
    EXPECT_LT(Champion(pop), 0.5);
  }
}

TEST(BanditAlgorithmTest, ArchipelagoOfForkIslands) {
  pagmo::archipelago archi;
  for (unsigned i = 0; i < 2; ++i) {
    archi.push_back(pagmo::fork_island{}, MakeAlgorithm(6, 1, 20 + i),
                    pagmo::problem{ShiftedSphere{}}, 4u, 200u + i);
  }
  archi.evolve(1);
  archi.wait_check();
  for (const auto& isl : archi) {
    const auto pop = isl.get_population();
    EXPECT_EQ(pop.size(), 10u);
    EXPECT_LT(Champion(pop), 0.5);
  }
  // The same work in this process gives the same populations: the child computed exactly what
  // the parent would (single-threaded OpenMP changes nothing but speed). Not in native builds,
  // where the last bits depend on which thread's buffers did the work.
  pagmo::population local{pagmo::problem{ShiftedSphere{}}, 4u, 200u};
  const auto parent_x = MakeAlgorithm(6, 1, 20).evolve(local).get_x();
  if (testing::kBitReproducibleBuild) {
    EXPECT_EQ(parent_x, archi[0].get_population().get_x());
  }
}

}  // namespace
}  // namespace gpbandit
