#include "acquisition/option_checks.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "gpbandit/acquisition/information_gain_bound.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace internal {
namespace {

using testing::kInf;
using testing::kNaN;

// The fields BoundFieldsAreValid reads (IGP-UCB's and GP-TS's options carry them), valid as
// built.
struct BoundOptions {
  double rkhs_bound = 1.0;
  double noise_bound = 0.1;
  double min_noise_bound = 0.0;
  double delta = 0.05;
  GammaOptions gamma;
};

std::string BoundError(const BoundOptions& o) {
  std::string error;
  if (BoundFieldsAreValid(o, &error)) return "";
  EXPECT_FALSE(BoundFieldsAreValid(o, nullptr));
  return error;
}

// Options whose IsValid fails with a fixed message when `bad`.
struct Checked {
  bool bad = false;
  bool IsValid(std::string* error) const {
    if (bad && error != nullptr) *error = "beta.delta = 2: must be in (0, 1)";
    return !bad;
  }
};

TEST(FieldValue, PrintsIntegersAndTextAsTheyAre) {
  EXPECT_EQ(FieldValue("restart_window", 0), "restart_window = 0");
  EXPECT_EQ(FieldValue("reset_period", -12L), "reset_period = -12");
  EXPECT_EQ(FieldValue("restart", std::string("sometimes")), "restart = sometimes");
}

TEST(FieldValue, PrintsDoublesInTheirShortestRoundTripForm) {
  EXPECT_EQ(FieldValue("delta", 0.1), "delta = 0.1");
  EXPECT_EQ(FieldValue("delta", 1.0 / 3.0), "delta = 0.3333333333333333");
  EXPECT_EQ(FieldValue("xi", -2.0), "xi = -2");
  EXPECT_EQ(FieldValue("xi", 1e-300), "xi = 1e-300");
  EXPECT_EQ(FieldValue("xi", kInf), "xi = inf");
  EXPECT_EQ(FieldValue("xi", kNaN), "xi = nan");
}

TEST(Fail, SetsTheMessageAndReturnsFalse) {
  std::string error;
  EXPECT_FALSE(Fail(&error, "epsilon", 1.5, "must be in (0, 1)"));
  EXPECT_EQ(error, "epsilon = 1.5: must be in (0, 1)");
  EXPECT_FALSE(Fail(nullptr, "epsilon", 1.5, "must be in (0, 1)"));  // no message wanted
}

TEST(BoundFieldsAreValid, AcceptsValidFieldsAndTheEdgesOfTheirRanges) {
  EXPECT_EQ(BoundError(BoundOptions()), "");
  BoundOptions edges;
  edges.rkhs_bound = 0.0;
  edges.noise_bound = -1.0;  // only finiteness is required of R
  edges.min_noise_bound = 0.0;
  edges.delta = 1e-12;
  EXPECT_EQ(BoundError(edges), "");
  edges.delta = std::nextafter(1.0, 0.0);
  EXPECT_EQ(BoundError(edges), "");
}

TEST(BoundFieldsAreValid, NamesTheBadFieldAndItsValue) {
  BoundOptions o;
  o.rkhs_bound = -0.5;
  EXPECT_EQ(BoundError(o), "rkhs_bound = -0.5: must be finite and >= 0");
  o.rkhs_bound = kInf;
  EXPECT_EQ(BoundError(o), "rkhs_bound = inf: must be finite and >= 0");
  o.rkhs_bound = kNaN;
  EXPECT_EQ(BoundError(o), "rkhs_bound = nan: must be finite and >= 0");

  o = BoundOptions();
  o.noise_bound = kNaN;
  EXPECT_EQ(BoundError(o), "noise_bound = nan: must be finite");
  o.noise_bound = -kInf;
  EXPECT_EQ(BoundError(o), "noise_bound = -inf: must be finite");

  o = BoundOptions();
  o.min_noise_bound = -1e-3;
  EXPECT_EQ(BoundError(o), "min_noise_bound = -0.001: must be finite and >= 0");

  o = BoundOptions();
  o.delta = 0.0;
  EXPECT_EQ(BoundError(o), "delta = 0: must be in (0, 1)");
  o.delta = 1.0;
  EXPECT_EQ(BoundError(o), "delta = 1: must be in (0, 1)");
  o.delta = kNaN;
  EXPECT_EQ(BoundError(o), "delta = nan: must be in (0, 1)");
}

TEST(BoundFieldsAreValid, ChecksTheGammaOptionsLast) {
  BoundOptions o;
  o.gamma.nu = 0.0;
  EXPECT_EQ(BoundError(o), "gamma.nu = 0: must be finite and > 0");
  o.gamma = GammaOptions();
  o.gamma.dim = -1;
  EXPECT_EQ(BoundError(o), "gamma.dim = -1: must be >= 0");
  o.delta = 2.0;  // the first bad field is the one named
  EXPECT_EQ(BoundError(o), "delta = 2: must be in (0, 1)");
}

TEST(ThrowIfInvalid, ThrowsInvalidArgumentNamingWhoAndTheError) {
  EXPECT_NO_THROW(ThrowIfInvalid(Checked(), "GpUcb"));
  Checked bad;
  bad.bad = true;
  try {
    ThrowIfInvalid(bad, "GpUcb");
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "GpUcb: beta.delta = 2: must be in (0, 1)");
  }
}

}  // namespace
}  // namespace internal
}  // namespace gpbandit
