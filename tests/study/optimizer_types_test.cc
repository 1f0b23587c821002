#include "gpbandit/study/optimizer_types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace gpbandit {
namespace {

TEST(Observation, AnAcceptedObservationIsInTheModel) {
  Observation o;
  EXPECT_TRUE(o.accepted);
  EXPECT_TRUE(std::isnan(o.imputed));
  EXPECT_TRUE(o.in_model());
}

TEST(Observation, AFailureIsInTheModelOnlyWithAnImputedReward) {
  Observation skipped;
  skipped.accepted = false;
  skipped.y = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(skipped.in_model());

  Observation imputed = skipped;
  imputed.imputed = -3.5;
  EXPECT_TRUE(imputed.in_model());
  // An imputed value of zero or of the worst infinity still counts: only NaN means none.
  imputed.imputed = 0.0;
  EXPECT_TRUE(imputed.in_model());
  imputed.imputed = -std::numeric_limits<double>::infinity();
  EXPECT_TRUE(imputed.in_model());
}

TEST(Observation, DefaultsAreAnEmptyObservationOfRoundZero) {
  const Observation o;
  EXPECT_EQ(o.x.size(), 0);
  EXPECT_EQ(o.z.size(), 0);
  EXPECT_EQ(o.constraints.size(), 0);
  EXPECT_EQ(o.y, 0.0);
  EXPECT_EQ(o.round, 0);
}

TEST(PendingPoint, ALeaseNeverEndsAndNoTrialIsNumberedByDefault) {
  const PendingPoint p;
  EXPECT_TRUE(std::isinf(p.lease_until));
  EXPECT_GT(p.lease_until, 0.0);
  EXPECT_EQ(p.trial, -1);
  EXPECT_EQ(p.round, 0);
  EXPECT_TRUE(p.worker.empty());
}

TEST(RoundReport, AReportOfDesignPointsOnlyHasNoFigure) {
  const RoundReport r;
  EXPECT_TRUE(std::isnan(r.figure));
  EXPECT_TRUE(r.figure_name.empty());
  EXPECT_EQ(r.t, 0);
  EXPECT_EQ(r.num_design_points, 0);
  EXPECT_FALSE(r.fitted);
  EXPECT_TRUE(r.acquisition_values.empty());
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.choices_outside_lock, 0);
  EXPECT_FALSE(r.chosen_under_lock);
}

TEST(RecommendationAndPrediction, StartAtZero) {
  const Recommendation best;
  EXPECT_EQ(best.posterior_mean, 0.0);
  EXPECT_EQ(best.observed_reward, 0.0);
  EXPECT_EQ(best.x.size(), 0);
  const Prediction p;
  EXPECT_EQ(p.mean, 0.0);
  EXPECT_EQ(p.stddev, 0.0);
}

}  // namespace
}  // namespace gpbandit
