// The check of an ask chosen outside the study's lock (optimizer/ask_check.h) on a GP without
// output standardization and a kernel of unit variance, where hallucinating a point p at its
// mean shrinks the variance at u to the closed form v(u) - c(u, p)^2 / (v(p) + noise + jitter):
// points others handed out meanwhile are refused exactly when the slot's standard deviation
// loses more than 5% of the prior's, a point equal to the slot always; tells of points in
// progress are feedback, tells of others' points are new points; expired leases, releases and
// refits as the header says; a strict check refuses any arrival.
#include "optimizer/ask_check.h"

#include <gtest/gtest.h>

#include <cmath>

#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

constexpr double kNow = 1000.0;
constexpr double kTolerance = 0.05;

class AskCheckTest : public ::testing::Test {
 protected:
  void SetUp() override {
    GaussianProcessOptions options;
    options.standardize_outputs = false;
    options.noise_variance = 1e-2;
    gp_ = std::make_unique<GaussianProcess>(MakeMatern52({0}, false, 1.0, 0.1), 1, options);
    for (double x : {0.1, 0.35, 0.8}) gp_->AddObservation(Vec(x), std::sin(6 * x));
    call_.round = 7;
    call_.chosen = Eigen::MatrixXd::Constant(1, 1, kSlot);
    call_.design_index = {-1};
  }

  static Eigen::VectorXd Vec(double x) { return Eigen::VectorXd::Constant(1, x); }

  // The check of the slot at kSlot, chosen with `in_progress` pending (already hallucinated).
  AskCheck Check(const std::vector<PendingPoint>& in_progress = {}, bool strict = false) {
    auto posterior = std::make_unique<AskPosterior>(*gp_);
    for (const PendingPoint& p : in_progress)
      if (p.lease_until > kNow) posterior->Hallucinate(p.x, -1);  // as MakeAskPosterior does
    AskCheck::Inputs inputs;
    inputs.model_input = [](const Eigen::VectorXd& x, const Eigen::VectorXd&, long) { return x; };
    return AskCheck(call_, std::move(posterior), in_progress, kNow, kTolerance, strict, inputs);
  }

  static LogRecord Pending(double x, double lease_until = kNow + 60) {
    LogRecord r;
    r.type = LogRecordType::kPending;
    r.x = Vec(x);
    r.round = 7;
    r.lease_until = lease_until;
    return r;
  }
  static LogRecord Tell(double x) {
    LogRecord r;
    r.type = LogRecordType::kTell;
    r.x = Vec(x);
    r.y = 0.5;
    return r;
  }
  static LogRecord OfType(LogRecordType type, double x = 0) {
    LogRecord r;
    r.type = type;
    r.x = Vec(x);
    return r;
  }

  // What the slot's standard deviation loses when p is observed with the model's noise, as a
  // share of its prior standard deviation (the kernel's, 1 here):
  // sqrt(v(slot)) - sqrt(v(slot) - c^2 / (v(p) + noise + jitter)).
  double Shrink(double p) const {
    const double c = gp_->Covariance(Vec(kSlot), Vec(p));
    const double after = gp_->Variance(Vec(kSlot)) -
                         c * c / (gp_->Variance(Vec(p)) + gp_->noise_variance() + gp_->jitter());
    return std::sqrt(gp_->Variance(Vec(kSlot))) - std::sqrt(after);
  }

  static constexpr double kSlot = 0.6;
  std::unique_ptr<GaussianProcess> gp_;
  AskCall call_;
};

TEST_F(AskCheckTest, NothingArrivedKeepsThePoints) {
  AskCheck check = Check();
  check.Examine({});
  EXPECT_TRUE(check.keeps_points());
  EXPECT_FALSE(check.others_refitted());
}

// Points handed out meanwhile at a range of distances: kept exactly when the closed-form shrink
// is at most 5% (the distances are chosen to fall on both sides of it, away from the edge).
TEST_F(AskCheckTest, APointHandedOutMeanwhileIsKeptWhenItBarelyShrinksTheSlotsStdDev) {
  int kept = 0, refused = 0;
  for (double p : {0.0, 0.2, 0.3, 0.45, 0.5, 0.55, 0.65, 0.7, 0.75, 0.95, 1.0}) {
    const double shrink = Shrink(p);
    if (std::abs(shrink - kTolerance) < 1e-3) continue;
    AskCheck check = Check();
    check.Examine({Pending(p)});
    EXPECT_EQ(check.keeps_points(), shrink <= kTolerance)
        << "p = " << p << ", shrink " << shrink << ": " << check.reason();
    (check.keeps_points() ? kept : refused)++;
  }
  EXPECT_GT(kept, 2);
  EXPECT_GT(refused, 2);
}

// The tolerance's ends: 0 refuses any point that bears on the slot at all, 1 only an equal one.
TEST_F(AskCheckTest, ToleranceZeroRefusesAnyBearingOneOnlyEquality) {
  auto check = [&](double tolerance, double p) {
    auto posterior = std::make_unique<AskPosterior>(*gp_);
    AskCheck::Inputs inputs;
    inputs.model_input = [](const Eigen::VectorXd& x, const Eigen::VectorXd&, long) { return x; };
    AskCheck c(call_, std::move(posterior), {}, kNow, tolerance, false, inputs);
    c.Examine({Pending(p)});
    return c.keeps_points();
  };
  ASSERT_GT(Shrink(0.5), 1e-3);
  ASSERT_GT(Shrink(0.59), 0.5);
  EXPECT_FALSE(check(0.0, 0.5));
  EXPECT_TRUE(check(1.0, 0.59));
  EXPECT_FALSE(check(1.0, kSlot));
}

TEST_F(AskCheckTest, ThePointItselfIsAlwaysRefused) {
  // With a large noise, hallucinating the slot itself barely shrinks its variance; equality
  // alone refuses it (no point is handed out twice while pending).
  GaussianProcessOptions noisy;
  noisy.standardize_outputs = false;
  noisy.noise_variance = 1e3;
  gp_ = std::make_unique<GaussianProcess>(MakeMatern52({0}, false, 1.0, 0.1), 1, noisy);
  AskCheck check = Check();
  check.Examine({Pending(kSlot)});
  EXPECT_FALSE(check.keeps_points());
  AskCheck told = Check();
  told.Examine({Tell(kSlot)});
  EXPECT_FALSE(told.keeps_points());
}

TEST_F(AskCheckTest, TellsOfPointsInProgressAreFeedbackTellsOfOthersAreNewPoints) {
  const double near = 0.57;  // shrinks the slot's standard deviation by far more than 5%
  ASSERT_GT(Shrink(near), 0.2);
  const std::vector<PendingPoint> in_progress = {{Vec(near), {}, 6, "w", kNow + 60}};
  AskCheck feedback = Check(in_progress);
  feedback.Examine({Tell(near)});
  EXPECT_TRUE(feedback.keeps_points()) << feedback.reason();
  AskCheck unknown = Check();
  unknown.Examine({Tell(near)});
  EXPECT_FALSE(unknown.keeps_points());
  // A pending point whose lease had ended was not hallucinated: its tell is a new point.
  const std::vector<PendingPoint> expired = {{Vec(near), {}, 6, "w", kNow - 1}};
  AskCheck late = Check(expired);
  late.Examine({Tell(near)});
  EXPECT_FALSE(late.keeps_points());
  // A point released meanwhile was still in the posterior the ask chose from: its tell (or a
  // point handed out there again) is feedback too.
  AskCheck released = Check(in_progress);
  released.Examine({OfType(LogRecordType::kRelease, near), Tell(near)});
  EXPECT_TRUE(released.keeps_points()) << released.reason();
  AskCheck cleared = Check(in_progress);
  cleared.Examine({OfType(LogRecordType::kClearPending), Tell(near)});
  EXPECT_TRUE(cleared.keeps_points()) << cleared.reason();
}

TEST_F(AskCheckTest, PointsWhoseLeaseEndedAreNotInProgress) {
  AskCheck check = Check();
  check.Examine({Pending(0.57, /*lease_until=*/kNow)});
  EXPECT_TRUE(check.keeps_points()) << check.reason();
}

TEST_F(AskCheckTest, ManyFarPointsAddUp) {
  // Each alone shrinks the slot's standard deviation by less than 5%, together by more: the
  // check hallucinates them all before it decides.
  std::vector<double> far;
  for (double p = 0.0; p <= 1.0; p += 0.01)
    if (Shrink(p) > 0.01 && Shrink(p) < kTolerance - 1e-3) far.push_back(p);
  ASSERT_GE(far.size(), 4u);
  std::vector<LogRecord> arrived;
  for (double p : far) arrived.push_back(Pending(p));
  AskCheck check = Check();
  check.Examine(arrived);
  auto expected = std::make_unique<GaussianProcess>(*gp_);
  for (double p : far) expected->AddObservation(Vec(p), expected->Mean(Vec(p)));
  const double shrink =
      std::sqrt(gp_->Variance(Vec(kSlot))) - std::sqrt(expected->Variance(Vec(kSlot)));
  ASSERT_GT(shrink, kTolerance + 1e-3);
  EXPECT_FALSE(check.keeps_points());
}

TEST_F(AskCheckTest, OthersRefitsAreNotedAndAStrictCheckRefusesAnyArrival) {
  AskCheck check = Check();
  check.Examine({OfType(LogRecordType::kFit)});
  EXPECT_TRUE(check.keeps_points());
  EXPECT_TRUE(check.others_refitted());
  for (const LogRecord& r : {Pending(0.0), Tell(1.0), OfType(LogRecordType::kFit)}) {
    AskCheck strict = Check({}, /*strict=*/true);
    strict.Examine({r});
    EXPECT_FALSE(strict.keeps_points());
  }
  AskCheck released = Check({}, /*strict=*/true);
  released.Examine({OfType(LogRecordType::kRelease, 0.3)});
  EXPECT_TRUE(released.keeps_points());
}

TEST_F(AskCheckTest, DesignSlotsAreRefusedOnlyForAnEqualPoint) {
  call_.design_index = {3};
  AskCheck check(call_, nullptr, {}, kNow, kTolerance, false,
                 {[](const Eigen::VectorXd& x, const Eigen::VectorXd&, long) { return x; }});
  check.Examine({Pending(0.59)});
  EXPECT_TRUE(check.keeps_points());
  check.Examine({Pending(kSlot)});
  EXPECT_FALSE(check.keeps_points());
}

TEST_F(AskCheckTest, AReplicaReadAgainRefuses) {
  AskCheck check = Check();
  check.Invalidate("read again");
  EXPECT_FALSE(check.keeps_points());
  EXPECT_EQ(check.reason(), "read again");
}

}  // namespace
}  // namespace gpbandit
