#include "study/options_json_legacy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/study/log_header.h"

namespace gpbandit {
namespace internal {
namespace {

using nlohmann::json;

// What the current writer writes for `strategy` with `strategy_options`.
json CurrentHeader(const std::string& strategy, const json& strategy_options) {
  LogHeader h;
  h.strategy = strategy;
  h.strategy_options = StrategyParams(strategy_options.dump());
  h.kernel_description = "k";
  h.kernel_log_params = Eigen::VectorXd::Zero(2);
  return json::parse(FormatLogHeader(h));
}

// `header` as version `version` without the field at `path` of `object` (its key in the header).
json Without(json header, int version, const char* object, const char* path) {
  const json::json_pointer pointer(path);
  header["version"] = version;
  header[object][pointer.parent_pointer()].erase(pointer.back());
  return header;
}

// The header read back and written again: what the resumed study records.
json Resumed(const json& header) {
  return json::parse(FormatLogHeader(ParseLogHeader(header.dump())));
}

std::string StrategyOf(const LegacyValue& row) {
  return row.scope == LegacyScope::kStrategy ? row.strategy : "safe-opt";
}

// Every row takes effect: a header of its last version without the field reads with the
// row's value, and so do older ones; a later header of the optimizer's options without it is
// refused, naming it, and a later strategy header keeps the strategy's default (nothing
// filled in).
TEST(OptionsJsonLegacyTest, EveryRowFillsInItsValueUpToItsVersionOnly) {
  for (const LegacyValue& row : LegacyValues()) {
    SCOPED_TRACE(std::string(row.path) + " through " + std::to_string(row.absent_through));
    const json::json_pointer pointer(row.path);
    if (row.scope == LegacyScope::kOptimizer) {
      // A user strategy's options: the same in every version ("extra" in version 1's).
      const json current = CurrentHeader("user-ucb", {{"extra", json::object()}});
      for (int version : {row.absent_through, 1}) {
        const json back = Resumed(Without(current, version, "options", row.path));
        EXPECT_EQ(back.at("options").at(pointer), row.value) << "version " << version;
      }
      if (row.absent_through == kLogFormatVersion) continue;
      const json later = Without(current, row.absent_through + 1, "options", row.path);
      try {
        ParseLogHeader(later.dump());
        ADD_FAILURE() << "read without " << row.path;
      } catch (const std::runtime_error& e) {
        EXPECT_THAT(e.what(), ::testing::HasSubstr(pointer.back() + " is missing"));
      }
      continue;
    }
    // Strategy rows: the field absent from the options as given.
    json given = {{"seeds", json::array({json::array({0.5})})}};
    if (row.scope == LegacyScope::kStrategy) given = json::object();
    const json current = CurrentHeader(StrategyOf(row), given);
    json old = current;
    old["version"] = row.absent_through;
    json options = Resumed(old).at("strategy_options");
    if (row.scope == LegacyScope::kStrategy) {
      EXPECT_EQ(options.at(pointer), row.value);
    } else {
      ASSERT_EQ(options.at("signal_models").size(), 1u) << options;  // the reward's
      EXPECT_EQ(options.at("signal_models")[0].at(pointer), row.value);
    }
    if (row.absent_through == kLogFormatVersion) continue;
    json later = current;
    later["version"] = row.absent_through + 1;
    options = Resumed(later).at("strategy_options");
    EXPECT_FALSE(options.contains(pointer)) << options;
    if (row.scope == LegacyScope::kSafeOptSignalModels) {
      for (const json& model : options.value("signal_models", json::array()))
        EXPECT_FALSE(model.contains(pointer)) << options;
    }
  }
}

// A later row may read what an earlier one filled in (safe-opt's "calibrated"): the rows come
// in the order of their versions, each within the versions this code reads.
TEST(OptionsJsonLegacyTest, RowsAreInTheOrderOfTheirVersions) {
  int last = 1;
  for (const LegacyValue& row : LegacyValues()) {
    EXPECT_GE(row.absent_through, last) << row.path;
    EXPECT_LE(row.absent_through, kLogFormatVersion) << row.path;
    EXPECT_EQ(row.scope == LegacyScope::kStrategy, std::string(row.strategy) != "") << row.path;
    last = row.absent_through;
  }
}

// The paths of the leaves of an object (an array or an empty object is a leaf).
void Leaves(const json& j, const std::string& prefix, std::set<std::string>* out) {
  if (!j.is_object() || j.empty()) {
    out->insert(prefix);
    return;
  }
  for (const auto& item : j.items()) Leaves(item.value(), prefix + "/" + item.key(), out);
}

// True if a row of the optimizer's options fills in `leaf` for headers of `version`.
bool Covered(const std::string& leaf, int version) {
  for (const LegacyValue& row : LegacyValues()) {
    const std::string path = row.path;
    if (row.scope == LegacyScope::kOptimizer && row.absent_through >= version &&
        (leaf == path || leaf.rfind(path + "/", 0) == 0))
      return true;
  }
  return false;
}

json FixtureHeader(const std::string& name) {
  const std::string here = __FILE__;
  std::ifstream in(here.substr(0, here.find_last_of('/')) + "/../optimizer/fixtures/" + name +
                   ".jsonl");
  std::string line;
  if (!std::getline(in, line)) throw std::runtime_error("no fixture " + name);
  return json::parse(line);
}

// The headers that the code of versions 1 and 4 wrote (tests/optimizer/fixtures, whose
// continuations log_format_v1_test and log_format_v4_test check): every field of the
// optimizer's options that the current writer writes and such a header lacks has a row for
// its version, so it resumes with what it ran with.
TEST(OptionsJsonLegacyTest, TheTableCoversEveryFieldOldWritersLacked) {
  std::set<std::string> current;
  Leaves(CurrentHeader("gp-ucb", json::object()).at("options"), "", &current);
  int lacked = 0;
  for (const char* name : {"v1_box_gp_ucb", "v1_context_ei", "v1_user_strategy",
                           "v4_safe_constraint_context", "v4_safe_reward_threshold"}) {
    const json old = FixtureHeader(name);
    const int version = old.at("version").get<int>();
    for (const std::string& leaf : current) {
      if (old.at("options").contains(json::json_pointer(leaf))) continue;
      ++lacked;
      EXPECT_TRUE(Covered(leaf, version)) << name << " lacks " << leaf;
    }
    EXPECT_NO_THROW(ParseLogHeader(old.dump())) << name;
  }
  EXPECT_GT(lacked, 10);  // the fixtures do lack fields: the check checks something
}

// The fields the version-9 writer wrote when the table was made. A field the writer gains
// since is either a row (absent_through kLogFormatVersion: older headers resume with the
// behaviour they had) or comes with a new format version, which updates this list.
TEST(OptionsJsonLegacyTest, EveryFieldAddedSinceVersion9HasARow) {
  static const char* const kVersion9[] = {"/seed",
                                          "/initial_design_size",
                                          "/refit/enabled",
                                          "/refit/every_while_small",
                                          "/refit/small_until",
                                          "/refit/every",
                                          "/fit/num_restarts",
                                          "/fit/max_iterations",
                                          "/fit/function_tolerance",
                                          "/fit/gradient_tolerance",
                                          "/fit/parameter_tolerance",
                                          "/fit/max_seconds",
                                          "/fit/fit_noise",
                                          "/fit/min_noise_variance",
                                          "/fit/max_noise_variance",
                                          "/fit/min_lengthscale",
                                          "/fit/max_lengthscale",
                                          "/fit/min_period",
                                          "/fit/max_period",
                                          "/fit/min_signal_variance",
                                          "/fit/max_signal_variance",
                                          "/fit/start_min_lengthscale",
                                          "/fit/start_max_lengthscale",
                                          "/fit/start_min_period",
                                          "/fit/start_max_period",
                                          "/fit/start_min_signal_variance",
                                          "/fit/start_max_signal_variance",
                                          "/fit/start_min_noise_variance",
                                          "/fit/start_max_noise_variance",
                                          "/fit/kind_ranges",
                                          "/fit/lower_log_bounds",
                                          "/fit/upper_log_bounds",
                                          "/fit/kernel_priors",
                                          "/fit/noise_prior/mean_log",
                                          "/fit/noise_prior/stddev_log",
                                          "/fit_restarts_until",
                                          "/fit_max_observations",
                                          "/local_model/exact_until",
                                          "/local_model/size",
                                          "/local_model/regions",
                                          "/local_model/anchor",
                                          "/local_model/trust_box_scale",
                                          "/gp/noise_variance",
                                          "/gp/standardize_outputs",
                                          "/gp/max_relative_jitter",
                                          "/non_finite_rewards",
                                          "/sense",
                                          "/maximizer_raw_samples",
                                          "/maximizer_starts",
                                          "/maximizer_observed_starts",
                                          "/maximizer_iterations",
                                          "/maximizer_function_tolerance",
                                          "/maximizer_raw_sample_design",
                                          "/maximizer_integer_search",
                                          "/num_threads",
                                          "/finite_set_rank_one_updates",
                                          "/sync_log"};
  const std::set<std::string> version9(std::begin(kVersion9), std::end(kVersion9));
  std::set<std::string> current;
  Leaves(CurrentHeader("gp-ucb", json::object()).at("options"), "", &current);
  for (const std::string& leaf : current) {
    if (version9.count(leaf)) continue;
    EXPECT_TRUE(Covered(leaf, 9)) << leaf << " is written but has no row for version 9";
  }
  for (const std::string& leaf : version9) EXPECT_TRUE(current.count(leaf)) << leaf;
}

}  // namespace
}  // namespace internal
}  // namespace gpbandit
