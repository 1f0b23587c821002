#include "bench/mixed_family.h"

#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "gpbandit/numerics/random.h"
#include "gpbandit/space/space_transform.h"

namespace gpbandit {
namespace bench {
namespace {

TEST(MixedFamilyTest, HalvesHoldEvenAndOddSeedsAndNamesRebuildTheSameProblem) {
  EXPECT_EQ(MixedProblemNames(FamilyHalf::kTuning, 2),
            (std::vector<std::string>{"mixed-0", "mixed-2"}));
  EXPECT_EQ(MixedProblemNames(FamilyHalf::kHeldOut, 2),
            (std::vector<std::string>{"mixed-1", "mixed-3"}));
  const MixedProblem a = MakeMixedProblem("mixed-7"), b = MakeMixedProblem("mixed-7");
  EXPECT_EQ(a.Space(), b.Space());
  EXPECT_EQ(a.min_value, b.min_value);
  for (const char* bad : {"mixed-", "mixed-x", "mixed-3a", "levy-3"})
    EXPECT_THROW(MakeMixedProblem(bad), std::invalid_argument) << bad;
}

// Every problem has 1-2 categoricals of 2-6 labels; no random legal point is below f*, and f*
// is reached at the best labels with the reals at their centres and the integers at their
// best levels (found by enumerating the levels).
TEST(MixedFamilyTest, TheMinimumIsExactAndNoPointBeatsIt) {
  Rng rng = SeededRng({11});
  std::uniform_real_distribution<double> u01(0.0, 1.0);
  for (int seed = 0; seed < 12; ++seed) {
    const MixedProblem p = MakeMixedProblem("mixed-" + std::to_string(seed));
    ASSERT_GE(p.categorical_index.size(), 1u);
    ASSERT_LE(p.categorical_index.size(), 2u);
    for (const std::vector<double>& o : p.offset) {
      EXPECT_GE(o.size(), 2u);
      EXPECT_LE(o.size(), 6u);
    }
    const SpaceTransform t(p.Space());
    for (int j = 0; j < 500; ++j) {
      Eigen::VectorXd s(t.dim());
      for (int i = 0; i < s.size(); ++i) s(i) = u01(rng);
      EXPECT_GE(p.Value(t.FromUniform(s)), p.min_value - 1e-12) << p.name;
    }
    // The best point: reals at their centres (no shift at the drawn labels), integers searched.
    Eigen::VectorXd x(t.dim());
    for (std::size_t k = 0; k < p.categorical_index.size(); ++k)
      x(p.categorical_index[k]) = p.best_label[k];
    for (int i = 0; i < t.dim(); ++i) {
      const Parameter& q = p.parameters[static_cast<std::size_t>(i)];
      if (q.kind == ParameterKind::kReal) x(i) = t.FromModel(i, p.centre[i]);
    }
    for (int i = 0; i < t.dim(); ++i) {
      const Parameter& q = p.parameters[static_cast<std::size_t>(i)];
      if (q.kind != ParameterKind::kInteger) continue;
      double best = q.lower, best_f = HUGE_VAL;
      for (double v = q.lower; v <= q.upper; v += 1.0) {
        x(i) = v;
        if (p.Value(x) < best_f) best_f = p.Value(x), best = v;
      }
      x(i) = best;
    }
    if (p.best_label == p.drawn_best) {
      EXPECT_NEAR(p.Value(x), p.min_value, 1e-9) << p.name;
    }
    EXPECT_TRUE(p.HasBestLabels(x));
  }
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit
