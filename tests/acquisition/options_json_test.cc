// The rules every strategy's JSON options follow (acquisition/options_json.h), checked through
// the built-in strategies' factories: unknown keys, wrong types, enums by name, invalid values.
#include "acquisition/options_json.h"

#include <gtest/gtest.h>

#include <string>

#include "gpbandit/acquisition/expected_improvement.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/igp_ucb.h"
#include "gpbandit/acquisition/probability_of_improvement.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

void CreateGpUcb(const std::string& json) { GpUcb::Create(StrategyParams(json)); }
void CreateIgpUcb(const std::string& json) { IgpUcb::Create(StrategyParams(json)); }
void CreateGpTs(const std::string& json) { GpTs::Create(StrategyParams(json)); }
void CreateEi(const std::string& json) { ExpectedImprovement::Create(StrategyParams(json)); }
void CreatePi(const std::string& json) { ProbabilityOfImprovement::Create(StrategyParams(json)); }

TEST(OptionsJsonTest, UnknownKeyIsNamedWithTheValidOnes) {
  ExpectInvalid([] { CreateGpUcb(R"({"beta_scal": 0.2})"); },
                "gp-ucb options: unknown key 'beta_scal'; valid keys: beta_schedule, delta, a, b, "
                "r, rkhs_bound, constant_beta, dim_log_coefficient, dim_log_max_dim, beta_scale, "
                "gamma_source, gamma_dim, gamma_nu, gamma_scale");
  ExpectInvalid([] { CreateIgpUcb(R"({"beta_scale": 0.2})"); },
                "igp-ucb options: unknown key 'beta_scale'; valid keys: rkhs_bound, noise_bound, "
                "min_noise_bound");
  ExpectInvalid([] { CreateGpTs(R"({"ts_num_features": 64})"); },
                "gp-ts options: unknown key 'ts_num_features'");
  ExpectInvalid([] { CreateEi(R"({"delta": 0.1})"); },
                "ei options: unknown key 'delta'; valid keys: xi, relative_xi, "
                "relative_xi_per_dim, incumbent_rule");
  ExpectInvalid([] { CreatePi(R"({"Xi": 0.1})"); },
                "pi options: unknown key 'Xi'; valid keys: xi, relative_xi, relative_xi_per_dim, "
                "incumbent_rule");
}

TEST(OptionsJsonTest, WrongTypeNamesTheKeyAndTheValue) {
  ExpectInvalid([] { CreateGpUcb(R"({"delta": "0.1"})"); }, "delta = \"0.1\": expected a number");
  ExpectInvalid([] { CreateGpUcb(R"({"a": null})"); }, "a = null: expected a number");
  ExpectInvalid([] { CreateGpUcb(R"({"gamma_dim": 2.5})"); },
                "gamma_dim = 2.5: expected an integer in [-2147483648, 2147483647]");
  ExpectInvalid([] { CreateGpTs(R"({"num_features": 3000000000})"); },
                "num_features = 3000000000: expected an integer");
  ExpectInvalid([] { CreateGpTs(R"({"num_features": true})"); }, "num_features = true");
  ExpectInvalid([] { CreateEi(R"({"xi": [0.1]})"); }, "xi = [0.1]: expected a number");
  // An integer-valued number is an integer, whatever its spelling.
  EXPECT_EQ(StrategyParams(GpTs::Create(StrategyParams(R"({"num_features": 64.0})"))->OptionsJson())
                .at("num_features"),
            64.0);
}

TEST(OptionsJsonTest, EnumsAreReadByName) {
  ExpectInvalid(
      [] { CreateGpUcb(R"({"beta_schedule": "linear"})"); },
      "beta_schedule = \"linear\": expected one of auto, finite, compact, rkhs, constant");
  ExpectInvalid([] { CreateGpUcb(R"({"beta_schedule": 2})"); },
                "beta_schedule = 2: expected one of");
  ExpectInvalid([] { CreateIgpUcb(R"({"gamma_source": "se"})"); },
                "gamma_source = \"se\": expected one of information-gain, se-bound, matern-bound, "
                "linear-bound");
  const auto ucb = GpUcb::Create(StrategyParams(R"({"beta_schedule": "finite"})"));
  EXPECT_EQ(dynamic_cast<const GpUcb&>(*ucb).options().beta.kind, BetaScheduleKind::kFinite);
}

// Ranges are the options' IsValid's: the message names the field and the value.
TEST(OptionsJsonTest, InvalidValuesAreRejectedNamingTheField) {
  ExpectInvalid([] { CreateGpUcb(R"({"delta": 2})"); }, "delta = 2: must be in (0, 1)");
  ExpectInvalid([] { CreateGpUcb(R"({"gamma_nu": -1})"); }, "gamma.nu = -1");
  // A negative noise_bound means "from the model"; its floor must be >= 0.
  ExpectInvalid([] { CreateIgpUcb(R"({"min_noise_bound": -0.5})"); }, "min_noise_bound = -0.5");
  ExpectInvalid([] { CreateEi(R"({"incumbent_rule": "median"})"); },
                "incumbent_rule = \"median\": expected one of posterior-mean, best-observed");
  ExpectInvalid([] { CreateGpTs(R"({"num_features": 0})"); }, "num_features = 0: must be >= 1");
  ExpectInvalid([] { CreateEi(R"({"xi": -1})"); }, "xi = -1: must be finite and >= 0");
}

TEST(OptionsJsonTest, ParamsMustBeAnObject) {
  ExpectInvalid([] { StrategyParams("[1, 2]"); }, "must be a JSON object, got [1,2]");
  ExpectInvalid([] { StrategyParams("{\"xi\": }"); }, "not JSON");
}

}  // namespace
}  // namespace gpbandit
