// Whether an optimizer may join a study (optimizer/study_header_match.h): the first field of
// the header that differs is named with both values; per-process settings may differ; a logged
// strategy's options are compared with its registered defaults filled in.
#include "optimizer/study_header_match.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "tests/optimizer/replica_test_util.h"

namespace gpbandit {
namespace {

using internal::CheckJoinableHeader;
using ::testing::HasSubstr;

LogHeader Header(const Domain& domain = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1))) {
  return testing::MakeReplica(domain, "gp-ucb")->MakeHeader();
}

// The message CheckJoinableHeader throws, or "" when it accepts.
std::string Refusal(const LogHeader& logged, const LogHeader& mine) {
  try {
    CheckJoinableHeader(logged, mine, "the study s.jsonl");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(CheckJoinableHeader, AcceptsTheSameSettings) { EXPECT_EQ(Refusal(Header(), Header()), ""); }

TEST(CheckJoinableHeader, NamesTheFieldAndBothValues) {
  LogHeader logged = Header();
  logged.options.seed = 2;
  EXPECT_EQ(Refusal(logged, Header()),
            "the study s.jsonl: it was written with options.seed = 2, not 1 as here (resume or "
            "open the study instead to take every setting from it)");
}

TEST(CheckJoinableHeader, ASenseReadTheOtherWayIsRefused) {
  LogHeader logged = Header();
  logged.options.sense = ObjectiveSense::kMinimize;
  EXPECT_THAT(Refusal(logged, Header()),
              HasSubstr("options.sense = \"minimize\", not \"maximize\""));
}

TEST(CheckJoinableHeader, PerProcessSettingsMayDiffer) {
  LogHeader logged = Header();
  logged.options.num_threads = 7;
  logged.options.sync_log = !logged.options.sync_log;
  EXPECT_EQ(Refusal(logged, Header()), "");
}

TEST(CheckJoinableHeader, TheDomainAndTheDesignMustMatch) {
  const LogHeader other_box = Header(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 2)));
  EXPECT_THAT(Refusal(other_box, Header()),
              HasSubstr("with domain.upper = [1.0,2.0], not [1.0,1.0]"));
  LogHeader design = Header();
  design.options.initial_design_size = 9;
  EXPECT_THAT(Refusal(design, Header()), HasSubstr("options.initial_design_size = 9"));
}

TEST(CheckJoinableHeader, ALoggedStrategyMissingLaterOptionsTakesTheirDefaults) {
  LogHeader logged = Header();
  logged.strategy_options = StrategyParams();  // an older log: no option written
  EXPECT_EQ(Refusal(logged, Header()), "");
}

TEST(CheckJoinableHeader, AStrategyOptionThatDiffersIsNamed) {
  LogHeader logged = Header();
  logged.strategy_options = StrategyParams().With("beta_scale", 0.5);
  EXPECT_THAT(Refusal(logged, Header()), HasSubstr("strategy_options.beta_scale = 0.5, not "));
}

TEST(CheckJoinableHeader, AnOptionTheStrategyDoesNotKnowIsADifference) {
  LogHeader logged = Header();
  logged.strategy_options = StrategyParams().With("no_such_option", 1.0);
  EXPECT_THAT(Refusal(logged, Header()),
              HasSubstr("strategy_options.no_such_option = 1.0, not (absent)"));
}

TEST(CheckJoinableHeader, ALongValueIsCutShort) {
  Eigen::MatrixXd a = Eigen::MatrixXd::Zero(1, 200), b = a;
  for (int j = 0; j < 200; ++j) a(0, j) = b(0, j) = 0.001 * j + 0.123456789;
  b(0, 199) = 5.0;
  const std::string message = Refusal(Header(Domain::FiniteSet(a)), Header(Domain::FiniteSet(b)));
  EXPECT_THAT(message, HasSubstr("domain."));
  EXPECT_THAT(message, HasSubstr("..."));
  EXPECT_LT(message.size(), 500u);
}

}  // namespace
}  // namespace gpbandit
