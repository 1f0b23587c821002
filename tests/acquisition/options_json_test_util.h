// Helpers of the strategies' JSON-options tests: bit-exact comparison, extreme doubles, and the
// round trip OptionsJson -> Create.
#ifndef GPBANDIT_TESTS_ACQUISITION_OPTIONS_JSON_TEST_UTIL_H_
#define GPBANDIT_TESTS_ACQUISITION_OPTIONS_JSON_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <memory>
#include <string>

#include "gpbandit/acquisition/improvement_strategy.h"
#include "gpbandit/acquisition/information_gain_bound.h"
#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/acquisition/strategy_params.h"

namespace gpbandit {
namespace testing {

// Every bit equal (so 0.0 and -0.0 differ, and so would two NaNs of different payloads).
inline bool SameBits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

// Doubles whose decimal form is long or at the edge of the format.
inline constexpr double kLargest = std::numeric_limits<double>::max();
inline constexpr double kSmallestNormal = std::numeric_limits<double>::min();
inline constexpr double kSmallestSubnormal = std::numeric_limits<double>::denorm_min();
inline const double kThird = 1.0 / 3.0;
inline const double kPointThree = 0.1 + 0.2;  // 0.30000000000000004
inline const double kAfterOne = std::nextafter(1.0, 2.0);

// Every field of the gamma options equal, doubles bit for bit.
inline void ExpectSameGamma(const GammaOptions& a, const GammaOptions& b) {
  EXPECT_EQ(a.source, b.source);
  EXPECT_EQ(a.dim, b.dim);
  EXPECT_TRUE(SameBits(a.nu, b.nu));
  EXPECT_TRUE(SameBits(a.scale, b.scale));
}

// B, R, delta and gamma equal (IGP-UCB's and GP-TS's options).
template <typename Options>
void ExpectSameBoundFields(const Options& a, const Options& b) {
  EXPECT_TRUE(SameBits(a.rkhs_bound, b.rkhs_bound));
  EXPECT_TRUE(SameBits(a.noise_bound, b.noise_bound));
  EXPECT_TRUE(SameBits(a.min_noise_bound, b.min_noise_bound));
  EXPECT_TRUE(SameBits(a.delta, b.delta));
  ExpectSameGamma(a.gamma, b.gamma);
}

// S rebuilt by its registry factory from its own OptionsJson(); fails the test if the factory
// returns another type.
template <typename S>
std::unique_ptr<S> RebuiltFromJson(const S& strategy) {
  std::unique_ptr<Strategy> back = S::Create(StrategyParams(strategy.OptionsJson()));
  S* typed = dynamic_cast<S*>(back.get());
  EXPECT_NE(typed, nullptr) << strategy.name() << ": Create returned another type";
  if (typed == nullptr) return nullptr;
  back.release();
  return std::unique_ptr<S>(typed);
}

// S (EI, LogEI or PI) keeps every bit of xi and its incumbent rule through OptionsJson ->
// Create, and those are its only keys.
template <typename S>
void ExpectXiSurvivesJson() {
  for (double xi : {0.0, -0.0, kSmallestSubnormal, kThird, kLargest}) {
    ImprovementOptions o;
    o.xi = xi;
    o.relative_xi = xi == 0.0 ? kPointThree : xi;
    o.relative_xi_per_dim = xi == 0.0 ? kThird : xi;
    o.incumbent_rule = xi > 0.0 ? IncumbentRule::kBestObserved : IncumbentRule::kPosteriorMean;
    const S s(o);
    const auto back = RebuiltFromJson(s);
    ASSERT_NE(back, nullptr);
    EXPECT_TRUE(SameBits(back->options().xi, xi)) << s.OptionsJson();
    EXPECT_TRUE(SameBits(back->options().relative_xi, o.relative_xi)) << s.OptionsJson();
    EXPECT_TRUE(SameBits(back->options().relative_xi_per_dim, o.relative_xi_per_dim))
        << s.OptionsJson();
    EXPECT_EQ(back->options().incumbent_rule, o.incumbent_rule) << s.OptionsJson();
    EXPECT_EQ(
        StrategyParams(s.OptionsJson()).keys(),
        (std::vector<std::string>{"incumbent_rule", "relative_xi", "relative_xi_per_dim", "xi"}));
  }
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_ACQUISITION_OPTIONS_JSON_TEST_UTIL_H_
