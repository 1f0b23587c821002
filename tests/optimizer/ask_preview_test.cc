// Optimizer::PreviewAskBatch: the points the next ask hands out, computed without recording
// anything. Each preview is compared with the ask made right after it (by the same optimizer and
// by one resumed from the same log), and the log's bytes and the optimizer's fingerprint are
// compared before and after it.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::CheapOptions;
using testing::ReadFile;
using testing::TempLogPath;

double Bump(const Eigen::VectorXd& x) {
  return -(x - Eigen::VectorXd::Constant(x.size(), 0.3)).squaredNorm();
}

using testing::UnitSquare;

// Design rounds, then model rounds that refit (the default schedule refits after every tell
// below 20 observations) with a pending point hallucinated: every preview is the ask that
// follows, and changes neither the log nor the optimizer.
TEST(AskPreviewTest, ThePreviewIsTheNextAskAndChangesNothing) {
  OptimizerOptions options = CheapOptions(7);
  options.initial_design_size = 3;
  options.log_path = TempLogPath("ask_preview");
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
  int design_previews = 0, refitting_previews = 0;
  for (int i = 0; i < 10; ++i) {
    // Every third round a point stays pending before the next ask (GP-BUCB hallucinates it).
    if (i % 3 == 2) opt.Ask();
    const std::string log_before = ReadFile(options.log_path);
    const std::string fingerprint = opt.Fingerprint();
    const long rounds = opt.rounds();
    const std::size_t pending = opt.pending_points().size();
    const double figure = opt.figure();
    RoundReport report;
    const Eigen::VectorXd preview = opt.PreviewAsk(Eigen::VectorXd(), &report);
    EXPECT_EQ(ReadFile(options.log_path), log_before) << "round " << i;
    EXPECT_EQ(opt.Fingerprint(), fingerprint) << "round " << i;
    EXPECT_EQ(opt.rounds(), rounds);
    EXPECT_EQ(opt.pending_points().size(), pending);
    EXPECT_TRUE(std::isnan(figure) ? std::isnan(opt.figure()) : opt.figure() == figure);
    EXPECT_EQ(report.round, rounds);
    design_previews += report.num_design_points;
    refitting_previews += report.fitted ? 1 : 0;
    // A second preview is the same: the first left nothing behind.
    EXPECT_EQ(opt.PreviewAsk(), preview) << "round " << i;

    // A worker resuming the log now gets the same point first.
    if (i >= 4) {
      const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(options.log_path);
      EXPECT_EQ(resumed->PreviewAsk(), preview) << "round " << i;
    }
    const Eigen::VectorXd asked = opt.Ask();
    ASSERT_EQ(asked, preview) << "round " << i;
    EXPECT_EQ(opt.last_round_report().fitted, report.fitted) << "round " << i;
    opt.Tell(asked, Bump(asked));
  }
  // The design's three points: the previews of rounds 0 and 1, and the extra ask before the
  // preview at i = 2 (which is the model's).
  EXPECT_EQ(design_previews, 2);
  EXPECT_GE(refitting_previews, 5);
}

// A batch preview is the batch the next AskBatch hands out, its report's values included.
TEST(AskPreviewTest, ABatchPreviewIsTheNextBatch) {
  OptimizerOptions options = CheapOptions(3);
  options.initial_design_size = 4;
  Optimizer opt(UnitSquare(), nullptr, "ei", StrategyParams(), options);
  for (int i = 0; i < 5; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, Bump(x));
  }
  RoundReport report;
  const Eigen::MatrixXd preview = opt.PreviewAskBatch(3, Eigen::VectorXd(), &report);
  ASSERT_EQ(preview.cols(), 3);
  const Eigen::MatrixXd asked = opt.AskBatch(3);
  EXPECT_EQ(asked, preview);
  ASSERT_EQ(report.acquisition_values.size(), 3u);
  EXPECT_EQ(report.acquisition_values, opt.last_round_report().acquisition_values);
  EXPECT_EQ(report.num_design_points, 0);
}

// A bad request is refused before anything is computed, and leaves the optimizer as it was.
TEST(AskPreviewTest, ABadRequestIsRefused) {
  OptimizerOptions options = CheapOptions(1);
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", StrategyParams(), options);
  const std::string fingerprint = opt.Fingerprint();
  EXPECT_THROW(opt.PreviewAskBatch(0), std::invalid_argument);
  EXPECT_THROW(opt.PreviewAsk(Eigen::VectorXd::Zero(1)), std::invalid_argument);
  EXPECT_EQ(opt.Fingerprint(), fingerprint);
}

}  // namespace
}  // namespace gpbandit
