#include "bench/problem_family.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace bench {
namespace {

Eigen::VectorXd UniformPoint(const GeneratedProblem& p, Rng& rng) {
  Eigen::VectorXd x(p.dim);
  for (int i = 0; i < p.dim; ++i)
    x(i) = std::uniform_real_distribution<double>(p.lower(i), p.upper(i))(rng);
  return x;
}

std::vector<std::string> AllFamilyNames() {
  std::vector<std::string> names = FamilyProblemNames(FamilyHalf::kTuning);
  for (const std::string& n : FamilyProblemNames(FamilyHalf::kHeldOut)) names.push_back(n);
  return names;
}

TEST(ProblemFamilyTest, HalvesAreDisjointAndCoverEveryKindInLowAndHighDimensions) {
  for (FamilyHalf half : {FamilyHalf::kTuning, FamilyHalf::kHeldOut}) {
    const std::vector<std::string> names = FamilyProblemNames(half);
    ASSERT_EQ(names.size(), 2 * FamilyKinds().size());
    for (std::size_t k = 0; k < FamilyKinds().size(); ++k) {
      const GeneratedProblem low = MakeFamilyProblem(names[2 * k]);
      const GeneratedProblem high = MakeFamilyProblem(names[2 * k + 1]);
      EXPECT_EQ(low.kind, FamilyKinds()[k]);
      EXPECT_EQ(high.kind, FamilyKinds()[k]);
      EXPECT_GE(low.dim, 2);
      EXPECT_LE(low.dim, 5);
      EXPECT_GE(high.dim, 6);
      EXPECT_LE(high.dim, 10);
    }
    for (const std::string& name : names) EXPECT_EQ(HalfOf(name), half) << name;
  }
  const std::vector<std::string> all = AllFamilyNames();
  EXPECT_EQ(std::set<std::string>(all.begin(), all.end()).size(), all.size());
}

TEST(ProblemFamilyTest, TheSameNameGivesTheSameFunction) {
  Rng rng = SeededRng({7});
  for (const std::string& name : AllFamilyNames()) {
    const GeneratedProblem a = MakeFamilyProblem(name), b = MakeFamilyProblem(name);
    const Eigen::VectorXd x = UniformPoint(a, rng);
    EXPECT_EQ(a.value(x), b.value(x)) << name;
    EXPECT_EQ(a.noise_sd, b.noise_sd) << name;
  }
}

// The known minimum is attained at argmin, inside the box, and no uniform point is below it.
TEST(ProblemFamilyTest, KnownMinimaAreAttainedAndNeverUndercut) {
  Rng rng = SeededRng({11});
  for (const std::string& name : AllFamilyNames()) {
    const GeneratedProblem p = MakeFamilyProblem(name);
    if (std::isnan(p.min_value)) {
      EXPECT_EQ(p.argmin.size(), 0) << name;
      continue;
    }
    ASSERT_EQ(p.argmin.size(), p.dim) << name;
    EXPECT_TRUE((p.argmin.array() >= p.lower.array()).all() &&
                (p.argmin.array() <= p.upper.array()).all())
        << name;
    EXPECT_NEAR(p.value(p.argmin), p.min_value, 1e-9 * (1.0 + std::abs(p.min_value))) << name;
    for (int k = 0; k < 2000; ++k)
      ASSERT_GE(p.value(UniformPoint(p, rng)), p.min_value - 1e-9) << name;
  }
}

// Face and corner problems: the minimizer has bound coordinates (all of them for corner), and
// small steps into the box from it never decrease f (it is a constrained minimum).
TEST(ProblemFamilyTest, BoundaryKindsHaveTheirMinimumOnTheBoundary) {
  Rng rng = SeededRng({13});
  for (const std::string& name : AllFamilyNames()) {
    const GeneratedProblem p = MakeFamilyProblem(name);
    const bool corner = p.kind.rfind("corner", 0) == 0, face = p.kind == "face";
    if (!corner && !face) continue;
    int on_bound = 0;
    for (int i = 0; i < p.dim; ++i) on_bound += p.argmin(i) == 0.0 || p.argmin(i) == 1.0;
    EXPECT_GE(on_bound, 1) << name;
    if (corner) {
      EXPECT_EQ(on_bound, p.dim) << name;
    }
    for (int k = 0; k < 200; ++k) {
      const Eigen::VectorXd step = (UniformPoint(p, rng) - p.argmin) * 1e-3;
      EXPECT_GE(p.value(p.argmin + step), p.min_value) << name;
    }
  }
}

TEST(ProblemFamilyTest, OnlyNoisyKindsHaveNoise) {
  for (const std::string& name : AllFamilyNames()) {
    const GeneratedProblem p = MakeFamilyProblem(name);
    const bool noisy = p.kind.find("-noisy") != std::string::npos;
    if (noisy) {
      EXPECT_GT(p.noise_sd, 0.0) << name;
    } else {
      EXPECT_EQ(p.noise_sd, 0.0) << name;
    }
  }
}

// A GP sample path has the prior's spread: its values over the box have a standard deviation of
// order 1 (the kernel's signal variance).
TEST(ProblemFamilyTest, GpSamplePathsHaveUnitScale) {
  Rng rng = SeededRng({17});
  for (const std::string& name : AllFamilyNames()) {
    const GeneratedProblem p = MakeFamilyProblem(name);
    if (p.kind.rfind("gp-", 0) != 0) continue;
    double sum = 0, squares = 0;
    const int n = 2000;
    for (int k = 0; k < n; ++k) {
      const double v = p.value(UniformPoint(p, rng));
      sum += v;
      squares += v * v;
    }
    const double sd = std::sqrt(squares / n - (sum / n) * (sum / n));
    EXPECT_GT(sd, 0.4) << name;
    EXPECT_LT(sd, 2.0) << name;
  }
}

TEST(ProblemFamilyTest, BadNamesAreRefusedNamingThem) {
  for (const char* bad : {"ackley", "ackley-3d", "nope-3d-1", "ackley-0d-1", "ackley-21d-1",
                          "ackley-3x-1", "ackley-3d-x", "-3d-1"}) {
    try {
      MakeFamilyProblem(bad);
      ADD_FAILURE() << bad;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(std::string("'") + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_THROW(ParseFamilyHalf("test"), std::invalid_argument);
  EXPECT_EQ(ParseFamilyHalf("tuning"), FamilyHalf::kTuning);
  EXPECT_EQ(ParseFamilyHalf("heldout"), FamilyHalf::kHeldOut);
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit
