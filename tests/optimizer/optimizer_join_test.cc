// An Optimizer built with its own settings on an existing study: it joins only a study whose
// header records the same settings, field by field, and otherwise refuses naming the field;
// a file that is not a study is refused and left untouched; an unwritable log fails when the
// optimizer is built.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using ::testing::HasSubstr;
using testing::ReadFile;
using testing::TempLogPath;

using testing::UnitSquare;

// The settings an optimizer is built from, one field of which each case below changes.
struct Settings {
  Domain domain = UnitSquare();
  std::string strategy = "gp-ucb";
  StrategyParams strategy_options;
  OptimizerOptions options = CheapOptions(3);
  std::function<std::unique_ptr<Kernel>()> kernel = [] { return nullptr; };
};

std::unique_ptr<Optimizer> Build(const Settings& s, const std::string& path) {
  OptimizerOptions options = s.options;
  options.log_path = path;
  return std::make_unique<Optimizer>(s.domain, s.kernel(), s.strategy, s.strategy_options, options);
}

struct Mismatch {
  std::string field;  // what the message must name
  std::function<void(Settings*)> change;
};

// The Python constructor used to join a log written under another sense (best() then returned
// the worst point and the replay read costs as rewards), other strategy options or another
// design size; only domain, strategy, seed and kernel were compared.
TEST(OptimizerJoinTest, AStudyWrittenWithOtherSettingsIsRefusedNamingTheField) {
  const std::string path = TempLogPath("join_mismatch");
  {
    const std::unique_ptr<Optimizer> first = Build(Settings(), path);
    for (int i = 0; i < 4; ++i) {
      const Eigen::VectorXd x = first->Ask();
      first->Tell(x, -x.squaredNorm());
    }
  }
  const std::string logged = ReadFile(path);
  const std::vector<Mismatch> cases = {
      {"options.sense", [](Settings* s) { s->options.sense = ObjectiveSense::kMinimize; }},
      {"strategy_options.beta_scale",
       [](Settings* s) { s->strategy_options = StrategyParams(R"({"beta_scale": 0.2})"); }},
      {"options.initial_design_size", [](Settings* s) { s->options.initial_design_size = 7; }},
      {"options.seed", [](Settings* s) { s->options.seed = 4; }},
      {"strategy", [](Settings* s) { s->strategy = "ei"; }},
      {"domain.upper",
       [](Settings* s) { s->domain = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 2)); }},
      {"kernel.", [](Settings* s) { s->kernel = [] {
                                      return MakeKernel("se", {0, 1});
                                    }; }},
      {"options.fit.num_restarts", [](Settings* s) { s->options.fit.num_restarts = 4; }},
      {"options.refit.every", [](Settings* s) { s->options.refit.every = 9; }},
      {"options.gp.noise_variance", [](Settings* s) { s->options.gp.noise_variance = 0.5; }},
      {"options.non_finite_rewards",
       [](Settings* s) { s->options.non_finite_rewards = NonFiniteRewardPolicy::kSkip; }},
      {"options.maximizer_raw_samples", [](Settings* s) { s->options.maximizer_raw_samples = 8; }},
  };
  for (const Mismatch& m : cases) {
    Settings s;
    m.change(&s);
    try {
      Build(s, path);
      ADD_FAILURE() << "joined a study with another " << m.field;
    } catch (const std::runtime_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("written with " + m.field)) << e.what();
      EXPECT_THAT(e.what(), HasSubstr(path)) << e.what();
    }
    EXPECT_EQ(ReadFile(path), logged) << m.field;
  }
  // Per-process settings may differ; the same settings join, and Resume takes the study's.
  Settings same;
  same.options.num_threads = 2;
  same.options.sync_log = true;
  EXPECT_EQ(Build(same, path)->num_accepted(), 4);
  EXPECT_EQ(Optimizer::Resume(path)->options().sense, ObjectiveSense::kMaximize);
  std::remove(path.c_str());
}

// `gpbandit.Optimizer(domain, log="note.txt")` on a one-line text file used to warn "dropping a
// torn last line" and write the study over the user's file.
TEST(OptimizerJoinTest, AFileThatIsNotAStudyIsRefusedAndLeftAlone) {
  const std::string path = TempLogPath("notes");
  for (const std::string& text : {std::string("my notes"), std::string("my notes\n")}) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    ::testing::internal::CaptureStderr();
    try {
      Build(Settings(), path);
      ADD_FAILURE() << "built an optimizer on " << text;
    } catch (const std::runtime_error& e) {
      EXPECT_THAT(e.what(), HasSubstr("not a gpbandit study"));
    }
    EXPECT_THROW(Optimizer::Resume(path), std::runtime_error);
    EXPECT_EQ(::testing::internal::GetCapturedStderr(), "");
    EXPECT_EQ(ReadFile(path), text);
  }
  std::remove(path.c_str());
}

// An unwritable log used to fail only at the first Ask, after the caller had set up its run.
TEST(OptimizerJoinTest, AnUnwritableLogFailsWhenTheOptimizerIsBuilt) {
  for (const std::string& path :
       {std::string("/nonexistent-gpbandit-dir/runs.jsonl"), std::string("/tmp")}) {
    try {
      Build(Settings(), path);
      ADD_FAILURE() << path;
    } catch (const std::exception& e) {  // runtime_error, or invalid_argument for a directory
      EXPECT_THAT(e.what(), HasSubstr(path));
    }
  }
}

// A study closed and joined again in one process (a script or notebook that builds the
// optimizer again), with another optimizer of the process alive on another study: the refit
// that fell due at the last tell is made, so the asks and the fit records are those of one
// uninterrupted optimizer. The claim was made under this process's own default name, and no
// other optimizer of this process has this study open.
TEST(OptimizerJoinTest, AStudyJoinedAgainInOneProcessRefitsAsOneOptimizer) {
  const auto f = [](const Eigen::VectorXd& x) { return -(x.array() - 0.3).square().sum(); };
  const auto fits = [](const std::string& path) {
    const std::string text = ReadFile(path);
    int n = 0;
    for (std::size_t at = text.find("\"type\":\"fit\""); at != std::string::npos;
         at = text.find("\"type\":\"fit\"", at + 1))
      ++n;
    return n;
  };
  const std::string whole = TempLogPath("join_again_whole"), parts = TempLogPath("join_again");
  const std::unique_ptr<Optimizer> uninterrupted = Build(Settings(), whole);
  std::vector<Eigen::VectorXd> expected, got;
  for (int i = 0; i < 16; ++i) {
    expected.push_back(uninterrupted->Ask());
    uninterrupted->Tell(expected.back(), f(expected.back()));
  }
  for (int part = 0; part < 2; ++part) {
    const std::unique_ptr<Optimizer> opt = Build(Settings(), parts);
    for (int i = 0; i < 8; ++i) {
      got.push_back(opt->Ask());
      opt->Tell(got.back(), f(got.back()));
    }
  }
  ASSERT_EQ(got.size(), expected.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "ask " << i;
  EXPECT_GT(fits(whole), 0);
  EXPECT_EQ(fits(parts), fits(whole));
  std::remove(whole.c_str());
  std::remove(parts.c_str());
}

}  // namespace
}  // namespace gpbandit
