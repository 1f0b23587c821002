#include "gpbandit/maximizer/mixed_maximizer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <mutex>
#include <vector>

#include "numerics/thread_policy.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using Function = std::function<double(const Eigen::VectorXd&, Eigen::VectorXd*)>;

// An acquisition that records every point it is evaluated at.
class RecordingAcquisition : public ContinuousAcquisition {
 public:
  explicit RecordingAcquisition(Function f) : f_(std::move(f)) {}
  double Evaluate(const ConstVectorRef& x, Eigen::VectorXd* gradient) const override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      points_.push_back(x);
    }
    return f_(x, gradient);
  }
  const std::vector<Eigen::VectorXd>& points() const { return points_; }

 private:
  Function f_;
  mutable std::mutex mutex_;
  mutable std::vector<Eigen::VectorXd> points_;
};

// The test space: x0 continuous in [0, 1]; x1 an integer of 21 levels on a log scale
// (level l at ln(1 + l) / ln 21); x2 a context fixed at 0.25; x3 a category of 3 labels.
struct TestSpace {
  Eigen::VectorXd lower = Eigen::Vector4d(0.0, 0.0, 0.25, 0.0);
  Eigen::VectorXd upper = Eigen::Vector4d(1.0, 1.0, 0.25, 2.0);
  std::vector<DiscreteCoordinate> discrete;
  TestSpace() {
    DiscreteCoordinate integer;
    integer.dim = 1;
    integer.num_levels = 21;
    integer.ordered = true;
    integer.value_of_level = [](long long l) {
      return std::log(1.0 + static_cast<double>(l)) / std::log(21.0);
    };
    DiscreteCoordinate category;
    category.dim = 3;
    category.num_levels = 3;
    category.ordered = false;
    category.value_of_level = [](long long l) { return static_cast<double>(l); };
    discrete = {integer, category};
  }
  // Legal: the integer at a level, the category a label, the context fixed, inside the box.
  void ExpectLegal(const Eigen::VectorXd& x) const {
    ASSERT_EQ(x.size(), 4);
    EXPECT_TRUE(x(0) >= 0.0 && x(0) <= 1.0) << x.transpose();
    EXPECT_EQ(x(1), discrete[0].value_of_level(NearestLevel(discrete[0], x(1)))) << x.transpose();
    EXPECT_EQ(x(2), 0.25) << x.transpose();
    EXPECT_TRUE(x(3) == 0.0 || x(3) == 1.0 || x(3) == 2.0) << x.transpose();
  }
};

// Each label has its own peak in x0 and its own height; the integer's best level is 6
// (ln 7 / ln 21 = 0.639 is the level nearest 0.64 on the model's scale).
double Peaks(const Eigen::VectorXd& x, Eigen::VectorXd* gradient) {
  const double centre[3] = {0.2, 0.7, 0.45}, height[3] = {0.3, 0.5, 0.1};
  const int label = static_cast<int>(x(3));
  const double value = height[label] - std::pow(x(0) - centre[label], 2) -
                       2.0 * std::pow(x(1) - 0.64, 2) + 0.1 * x(2);
  if (gradient != nullptr) {
    gradient->setZero(4);
    (*gradient)(0) = -2.0 * (x(0) - centre[label]);
    (*gradient)(1) = -4.0 * (x(1) - 0.64);
    (*gradient)(2) = 0.1;
  }
  return value;
}

MixedMaximizerOptions TestOptions() {
  MixedMaximizerOptions options;
  options.box.num_raw_samples = 64;
  options.box.num_starts = 3;
  return options;
}

TEST(MixedMaximizerTest, LocalSearchFindsTheBestCombinationAndEvaluatesOnlyLegalPoints) {
  const TestSpace space;
  const RecordingAcquisition acquisition(&Peaks);
  MixedMaximizerOptions options = TestOptions();
  options.integer_search = IntegerSearch::kLocalSearch;
  Rng rng(testing::TestSeed(5));
  const MixedMaximizerResult result = MaximizeOverMixed(
      acquisition, space.lower, space.upper, space.discrete, Eigen::MatrixXd(4, 0), options, rng);
  space.ExpectLegal(result.x);
  EXPECT_NEAR(result.x(0), 0.7, 1e-4);
  EXPECT_EQ(result.x(1), std::log(7.0) / std::log(21.0));
  EXPECT_EQ(result.x(3), 1.0);
  EXPECT_DOUBLE_EQ(result.value, Peaks(result.x, nullptr));
  EXPECT_GT(result.starts_run, 0);
  EXPECT_EQ(result.num_evaluations, static_cast<int>(acquisition.points().size()));
  for (const Eigen::VectorXd& x : acquisition.points()) space.ExpectLegal(x);
}

TEST(MixedMaximizerTest, TheRelaxedSearchesReturnTheBestLegalPoint) {
  const TestSpace space;
  for (const IntegerSearch search :
       {IntegerSearch::kRelaxThenSearch, IntegerSearch::kRelaxAndRound}) {
    SCOPED_TRACE(IntegerSearchName(search));
    const RecordingAcquisition acquisition(&Peaks);
    MixedMaximizerOptions options = TestOptions();
    options.integer_search = search;
    Rng rng(testing::TestSeed(6));
    const MixedMaximizerResult result = MaximizeOverMixed(
        acquisition, space.lower, space.upper, space.discrete, Eigen::MatrixXd(4, 0), options, rng);
    space.ExpectLegal(result.x);
    EXPECT_EQ(result.x(3), 1.0);
    EXPECT_EQ(result.x(1), std::log(7.0) / std::log(21.0));
    EXPECT_NEAR(result.x(0), 0.7, 1e-4);
    // Their climbs did evaluate relaxed integers, which the local search alone never does.
    bool relaxed = false;
    for (const Eigen::VectorXd& x : acquisition.points())
      relaxed = relaxed ||
                x(1) != space.discrete[0].value_of_level(NearestLevel(space.discrete[0], x(1)));
    EXPECT_TRUE(relaxed);
  }
}

TEST(MixedMaximizerTest, ExtraStartsAreMovedToLevelsAndClimbed) {
  const TestSpace space;
  const RecordingAcquisition acquisition(&Peaks);
  MixedMaximizerOptions options = TestOptions();
  options.box.num_raw_samples = 1;
  options.box.num_starts = 1;
  options.enumerate_up_to = 0;
  options.integer_search = IntegerSearch::kLocalSearch;  // every evaluation legal, checked below
  // A start off the levels and outside the box, on the best label: it must end at the peak.
  Eigen::MatrixXd starts(4, 1);
  starts << 0.9, 0.3333, 7.0, 1.2;
  Rng rng(7);
  const MixedMaximizerResult result = MaximizeOverMixed(acquisition, space.lower, space.upper,
                                                        space.discrete, starts, options, rng);
  space.ExpectLegal(result.x);
  EXPECT_EQ(result.x(3), 1.0);
  EXPECT_NEAR(result.x(0), 0.7, 1e-4);
  for (const Eigen::VectorXd& x : acquisition.points()) space.ExpectLegal(x);
}

TEST(MixedMaximizerTest, ALongIntegerIsCrossedByTheLocalSearch) {
  // One integer of 10^9 levels (linear), no continuous coordinate: the peak at level 123456789.
  DiscreteCoordinate integer;
  integer.dim = 0;
  integer.num_levels = 1000000000;
  integer.value_of_level = [](long long l) { return static_cast<double>(l) * 1e-9; };
  const RecordingAcquisition acquisition(
      [](const Eigen::VectorXd& x, Eigen::VectorXd*) { return -std::abs(x(0) - 0.123456789); });
  MixedMaximizerOptions options = TestOptions();
  options.max_sweeps = 64;
  Rng rng(8);
  const MixedMaximizerResult result =
      MaximizeOverMixed(acquisition, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1), {integer},
                        Eigen::MatrixXd(1, 0), options, rng);
  EXPECT_EQ(result.x(0), 123456789 * 1e-9);
}

TEST(MixedMaximizerTest, TheResultDoesNotDependOnTheThreadCount) {
  const TestSpace space;
  const RecordingAcquisition acquisition(&Peaks);
  MixedMaximizerOptions options = TestOptions();
  options.box.num_starts = 6;
  std::vector<Eigen::VectorXd> results;
  for (int threads : {1, 2}) {
    const ScopedParallelismForTesting parallel;
    options.box.num_threads = threads;
    Rng rng(9);
    results.push_back(MaximizeOverMixed(acquisition, space.lower, space.upper, space.discrete,
                                        Eigen::MatrixXd(4, 0), options, rng)
                          .x);
  }
  EXPECT_EQ(results[0], results[1]);
}

TEST(MixedMaximizerTest, NearestLevelBisectsAndBreaksTiesLow) {
  DiscreteCoordinate c;
  c.num_levels = 5;
  c.value_of_level = [](long long l) { return 0.25 * static_cast<double>(l); };
  EXPECT_EQ(NearestLevel(c, -3.0), 0);
  EXPECT_EQ(NearestLevel(c, 0.3), 1);
  EXPECT_EQ(NearestLevel(c, 0.375), 1);  // halfway: the lower level
  EXPECT_EQ(NearestLevel(c, 0.38), 2);
  EXPECT_EQ(NearestLevel(c, 0.9), 4);
  EXPECT_EQ(NearestLevel(c, 7.0), 4);
}

TEST(MixedMaximizerTest, RejectsBadCoordinatesAndOptions) {
  const TestSpace space;
  const RecordingAcquisition acquisition(&Peaks);
  Rng rng(10);
  auto run = [&](std::vector<DiscreteCoordinate> discrete, MixedMaximizerOptions options) {
    MaximizeOverMixed(acquisition, space.lower, space.upper, discrete, Eigen::MatrixXd(4, 0),
                      options, rng);
  };
  std::vector<DiscreteCoordinate> fixed = space.discrete;
  fixed[0].dim = 2;  // the fixed context
  testing::ExpectInvalid([&] { run(fixed, TestOptions()); }, "discrete[0].dim = 2");
  std::vector<DiscreteCoordinate> twice = space.discrete;
  twice[1].dim = 1;
  testing::ExpectInvalid([&] { run(twice, TestOptions()); }, "listed twice");
  std::vector<DiscreteCoordinate> outside = space.discrete;
  outside[1].num_levels = 4;  // label 3 lies beyond the box's upper bound 2
  testing::ExpectInvalid([&] { run(outside, TestOptions()); }, "outside the box");
  MixedMaximizerOptions bad = TestOptions();
  bad.max_sweeps = 0;
  testing::ExpectInvalid([&] { run(space.discrete, bad); }, "max_sweeps = 0");
  bad = TestOptions();
  bad.box.num_starts = 0;
  testing::ExpectInvalid([&] { run(space.discrete, bad); }, "box.num_starts = 0");
}

}  // namespace
}  // namespace gpbandit
