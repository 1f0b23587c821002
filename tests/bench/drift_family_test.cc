#include "bench/drift_family.h"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <stdexcept>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace bench {
namespace {

Eigen::VectorXd UnitPoint(int dim, Rng& rng) {
  Eigen::VectorXd x(dim);
  for (int i = 0; i < dim; ++i) x(i) = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
  return x;
}

std::vector<std::string> AllDriftNames() {
  std::vector<std::string> names = DriftProblemNames(FamilyHalf::kTuning);
  for (const std::string& n : DriftProblemNames(FamilyHalf::kHeldOut)) names.push_back(n);
  return names;
}

TEST(DriftFamilyTest, HalvesAreDisjointWithEveryKindInOneToThreeDimensions) {
  for (FamilyHalf half : {FamilyHalf::kTuning, FamilyHalf::kHeldOut}) {
    const std::vector<std::string> names = DriftProblemNames(half);
    ASSERT_EQ(names.size(), 2 * DriftKinds().size());
    for (std::size_t k = 0; k < names.size(); ++k) {
      const DriftingProblem p(names[k]);
      EXPECT_EQ(p.kind(), DriftKinds()[k / 2]);
      EXPECT_GE(p.dim(), k % 2 == 0 ? 1 : 2);
      EXPECT_LE(p.dim(), k % 2 == 0 ? 2 : 3);
      EXPECT_EQ(p.episodes(), 150);
      EXPECT_EQ(HalfOf(names[k]), half);
    }
  }
  const std::vector<std::string> all = AllDriftNames();
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

// The minimum over the same candidates: below every value of a few points that are candidates
// (the 1-D grid's ends) and a range of the size the study's harm level assumes (unit-variance
// paths: several standard deviations).
TEST(DriftFamilyTest, EpisodeMinimaBoundTheRangeFromBelow) {
  for (const std::string& name : AllDriftNames()) {
    const DriftingProblem p(name);
    for (int t : {0, 75, 149}) {
      const double range = p.EpisodeMax(t) - p.EpisodeMin(t);
      EXPECT_GT(range, 0.2) << name << " t " << t;
      EXPECT_LT(range, 12.0) << name << " t " << t;
      if (p.dim() != 1) continue;
      for (double x : {0.0, 1.0})
        EXPECT_GE(p.Value(t, Eigen::VectorXd::Constant(1, x)), p.EpisodeMin(t) - 1e-12);
    }
  }
}

// The episode maximum is taken over a fixed candidate set: almost no uniform point exceeds it.
TEST(DriftFamilyTest, EpisodeMaximaAreRarelyExceeded) {
  Rng rng = SeededRng({3});
  for (const std::string& name : AllDriftNames()) {
    const DriftingProblem p(name);
    int above = 0, n = 0;
    for (int t = 0; t < p.episodes(); t += 10)
      for (int k = 0; k < 100; ++k, ++n)
        above += p.Value(t, UnitPoint(p.dim(), rng)) > p.EpisodeMax(t);
    EXPECT_LE(above, n / 100) << name;
  }
}

// Ramps and jumps change only between their change points, drawn per instance within the
// documented ranges.
TEST(DriftFamilyTest, RampsAndJumpsChangeOnlyWhenTheySay) {
  Rng rng = SeededRng({5});
  for (const std::string& name : AllDriftNames()) {
    const DriftingProblem p(name);
    const Eigen::VectorXd x = UnitPoint(p.dim(), rng);
    const int start = p.change_start(), end = p.change_end();
    if (p.kind() == "ramp") {
      EXPECT_GE(start, 30) << name;
      EXPECT_LE(start, 70) << name;
      EXPECT_GE(end - start, 30) << name;
      EXPECT_LE(end - start, 60) << name;
      EXPECT_EQ(p.Value(0, x), p.Value(start, x)) << name;
      EXPECT_EQ(p.Value(end, x), p.Value(149, x)) << name;
      EXPECT_NE(p.Value(start, x), p.Value((start + end) / 2, x)) << name;
    } else if (p.kind() == "jump") {
      EXPECT_EQ(start, end) << name;
      EXPECT_GE(start, 50) << name;
      EXPECT_LE(start, 100) << name;
      EXPECT_EQ(p.Value(0, x), p.Value(start - 1, x)) << name;
      EXPECT_EQ(p.Value(start, x), p.Value(149, x)) << name;
      EXPECT_NE(p.Value(start - 1, x), p.Value(start, x)) << name;
    } else {
      EXPECT_EQ(start, 0) << name;
      EXPECT_EQ(end, 150) << name;
    }
  }
}

// Bogunovic et al.'s model keeps the prior and correlates f_t and f_{t+s} by (1 - eps)^{s/2}:
// over 100 episodes 0.998^50 = 0.905 (markov-slow) and 0.99^50 = 0.605 (markov-fast). One
// draw's empirical correlation over the box scatters widely and is biased (a smooth draw has few
// effective degrees of freedom), so the moments are pooled over 40 instances: sum f_0 f_100 /
// sqrt(sum f_0^2 sum f_100^2) (both have mean 0 under the prior).
TEST(DriftFamilyTest, MarkovDriftDecorrelatesAtItsRate) {
  Rng rng = SeededRng({7});
  for (const std::string kind : {"markov-slow", "markov-fast"}) {
    double ab = 0.0, aa = 0.0, bb = 0.0;
    for (int seed = 0; seed < 40; ++seed) {
      const DriftingProblem p(kind + "-1d-" + std::to_string(seed));
      for (int k = 0; k < 200; ++k) {
        const Eigen::VectorXd x = UnitPoint(1, rng);
        const double a = p.Value(0, x), b = p.Value(100, x);
        ab += a * b;
        aa += a * a;
        bb += b * b;
      }
    }
    const double expected = std::pow(kind == std::string("markov-slow") ? 0.998 : 0.99, 50);
    EXPECT_NEAR(ab / std::sqrt(aa * bb), expected, 0.1) << kind;
  }
}

TEST(DriftFamilyTest, BadNamesAndEpisodesAreRefused) {
  EXPECT_THROW(DriftingProblem("ramp-6d-1"), std::invalid_argument);
  EXPECT_THROW(DriftingProblem("ackley-2d-1"), std::invalid_argument);
  const DriftingProblem p("ramp-1d-9");
  EXPECT_THROW(p.Value(150, Eigen::VectorXd::Zero(1)), std::invalid_argument);
  EXPECT_THROW(p.Value(-1, Eigen::VectorXd::Zero(1)), std::invalid_argument);
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit
