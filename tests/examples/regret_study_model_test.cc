// The model `gpbandit run --fit` plays on box problems: the Optimizer's own default model, the
// one a library user gets, unless a kernel is asked for. Checked round by round against an
// Optimizer built as a library user builds it, and by the symptom the difference caused: a fit
// without the default lengthscale prior switches coordinates off (lengthscales at their upper
// bound), and GP-TS sample paths, nearly linear along them, peak on Hartmann-6's faces.
#include <gtest/gtest.h>

#include <memory>
#include <sstream>
#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "examples/studies/regret_study.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/examples/regret_rows.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace examples {
namespace {

// GP-TS with --fit on Hartmann-6, one trial of `rounds` rounds, one thread.
RegretStudyOptions FittedHartmann6(int rounds, int trials) {
  RegretStudyOptions o;
  o.problem = "hartmann6";
  o.strategies = {"gp-ts"};
  o.fit = true;
  o.T = rounds;
  o.trials = trials;
  o.threads = 1;
  o.seed = gpbandit::testing::TestSeed(1);
  return o;
}

// The points an Optimizer with `kernel` (nullptr: its default model) and otherwise default
// options plays on Hartmann-6 in trial 0 of a study with seed `seed` (the study seeds trial i's
// Optimizer by (seed, i, 1), regret_study.cc).
std::vector<Eigen::VectorXd> LibraryPoints(std::unique_ptr<Kernel> kernel, std::uint64_t seed,
                                           int rounds) {
  const problems::SyntheticFunction f = problems::MakeSyntheticFunction("hartmann6");
  OptimizerOptions options;
  options.seed = DerivedSeed({seed, 0, 1});
  options.sync_log = false;
  options.num_threads = 1;
  Optimizer opt(Domain::Box(f.lower, f.upper), std::move(kernel), "gp-ts", options);
  std::vector<Eigen::VectorXd> points;
  for (int t = 0; t < rounds; ++t) {
    points.push_back(opt.Ask());
    opt.Tell(points.back(), f.reward(points.back()));
  }
  return points;
}

// 20 rounds: the d + 1 = 7 points of the initial design, fits and 13 model-driven rounds.
TEST(RegretStudyModelTest, FittedBoxProblemsPlayTheOptimizersDefaultModel) {
  const RegretStudyOptions o = FittedHartmann6(20, 1);
  ASSERT_TRUE(o.optimizer_default_model);
  const std::vector<RegretRow> rows = Rows(o);
  const std::vector<Eigen::VectorXd> library = LibraryPoints(nullptr, o.seed, o.T);
  ASSERT_EQ(rows.size(), library.size());
  for (std::size_t t = 0; t < rows.size(); ++t) EXPECT_EQ(rows[t].x, library[t]) << "t = " << t;
}

TEST(RegretStudyModelTest, AKernelAskedForIsPlayedAsGiven) {
  RegretStudyOptions o = FittedHartmann6(20, 1);
  o.optimizer_default_model = false;
  o.kernel = "matern52";
  o.lengthscale = 0.2;
  const std::vector<RegretRow> rows = Rows(o);
  const std::vector<Eigen::VectorXd> library =
      LibraryPoints(MakeKernel("matern52", FirstDims(6), true, 1.0, 0.2), o.seed, o.T);
  const std::vector<Eigen::VectorXd> by_default = LibraryPoints(nullptr, o.seed, o.T);
  ASSERT_EQ(rows.size(), library.size());
  int differ = 0;
  for (std::size_t t = 0; t < rows.size(); ++t) {
    EXPECT_EQ(rows[t].x, library[t]) << "t = " << t;
    differ += rows[t].x != by_default[t];
  }
  EXPECT_GT(differ, 0) << "the two models should choose differently";
}

// The share of rounds whose point lies within 1e-6 of one of the box's faces [0, 1]^6 (the
// optimum and the next local maxima of Hartmann-6 are interior). Seed 1, trials 0-2: 206 of
// 300 with the command's Matern-5/2 from lengthscale 0.2 fitted without priors, 26 of 300 with
// the default model.
TEST(RegretStudyModelTest, GpTsOnHartmann6StaysOffTheFaces) {
  const RegretStudyOptions o = FittedHartmann6(100, 3);
  int on_faces = 0;
  const std::vector<RegretRow> rows = Rows(o);
  for (const RegretRow& row : rows)
    on_faces += (row.x.array() <= 1e-6).any() || (row.x.array() >= 1.0 - 1e-6).any();
  EXPECT_LT(on_faces, 0.2 * static_cast<double>(rows.size()));
}

}  // namespace
}  // namespace examples
}  // namespace gpbandit
