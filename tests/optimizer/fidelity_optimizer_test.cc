// Studies with fidelities through the Optimizer (optimizer.h, "Fidelities"): options in the
// header, asks and tells at a fidelity, refused input, resume, the useless simulator learned as
// such, and the cost a good simulator saves on generated problems.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_domains.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

using testing::UnitSquare;

FidelityOptions SimAndRobot(double sim_cost = 1.0, double robot_cost = 10.0) {
  FidelityOptions f;
  f.levels = {{"sim", sim_cost}, {"robot", robot_cost}};
  return f;
}

OptimizerOptions Quiet(std::uint64_t seed, const FidelityOptions& fidelities = SimAndRobot()) {
  OptimizerOptions o;
  o.seed = seed;
  o.sync_log = false;
  o.num_threads = 1;
  o.fidelities = fidelities;
  return o;
}

// A smooth random function on the unit cube of `dim` dimensions: a sum of `bumps` Gaussian
// bumps with random centres, widths in [0.1, 0.3] and standard-normal heights, drawn from
// `seed`.
class RandomBumps {
 public:
  explicit RandomBumps(std::uint64_t seed, int dim = 2, int bumps = 6) {
    Rng rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (int k = 0; k < bumps; ++k) {
      Eigen::VectorXd c(dim);
      for (int d = 0; d < dim; ++d) c(d) = unit(rng);
      centres_.push_back(c);
      widths_.push_back(0.1 + 0.2 * unit(rng));
      heights_.push_back(normal(rng));
    }
  }
  double operator()(const Eigen::VectorXd& x) const {
    double f = 0.0;
    for (std::size_t k = 0; k < centres_.size(); ++k)
      f += heights_[k] *
           std::exp(-(x - centres_[k]).squaredNorm() / (2.0 * widths_[k] * widths_[k]));
    return f;
  }

 private:
  std::vector<Eigen::VectorXd> centres_;
  std::vector<double> widths_, heights_;
};

// The maximum of f over the unit cube of `dim` dimensions: the best of a grid of 21 points a
// side, polished by coordinate search.
double CubeMaximum(const std::function<double(const Eigen::VectorXd&)>& f, int dim) {
  const int side = 21;
  long cells = 1;
  for (int d = 0; d < dim; ++d) cells *= side;
  Eigen::VectorXd best_x(dim), x(dim);
  double best = -HUGE_VAL;
  for (long c = 0; c < cells; ++c) {
    long rest = c;
    for (int d = 0; d < dim; ++d) {
      x(d) = static_cast<double>(rest % side) / (side - 1);
      rest /= side;
    }
    const double v = f(x);
    if (v > best) {
      best = v;
      best_x = x;
    }
  }
  for (double step = 0.025; step > 1e-6; step /= 2.0) {
    bool moved = true;
    while (moved) {
      moved = false;
      for (int d = 0; d < dim; ++d)
        for (const double s : {-step, step}) {
          x = best_x;
          x(d) = std::clamp(x(d) + s, 0.0, 1.0);
          const double v = f(x);
          if (v > best) {
            best = v;
            best_x = x;
            moved = true;
          }
        }
    }
  }
  return best;
}

// ---- Options ------------------------------------------------------------------------------

TEST(FidelityOptimizer, OptionsRoundTripThroughTheLogHeaderAndResume) {
  const std::string log = testing::TempLogPath("fidelity_header");
  OptimizerOptions o = Quiet(3);
  o.fidelities.levels = {{"coarse", 0.5}, {"fine", 2.0}, {"robot", 40.0}};
  o.fidelities.model = FidelityModel::kIcm;
  o.fidelities.rule = FidelityRule::kThreshold;
  o.fidelities.min_correlation = -0.25;
  o.fidelities.fit_function_tolerance = 1e-8;
  o.log_path = log;
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
    const Eigen::VectorXd x = opt.Ask();
    opt.TellFidelity(x, Eigen::VectorXd(), 1.0, "fine");
  }
  const LogContents contents = ReadLog(log);
  ASSERT_FALSE(contents.records.empty());
  EXPECT_NE(contents.records[0].json.find("\"fidelities\""), std::string::npos);
  const LogHeader header = ParseLogHeader(contents.records[0].json);
  const FidelityOptions& read = header.options.fidelities;
  ASSERT_EQ(read.levels.size(), 3u);
  EXPECT_EQ(read.levels[0].name, "coarse");
  EXPECT_EQ(read.levels[0].cost, 0.5);
  EXPECT_EQ(read.levels[1].name, "fine");
  EXPECT_EQ(read.levels[1].cost, 2.0);
  EXPECT_EQ(read.levels[2].name, "robot");
  EXPECT_EQ(read.levels[2].cost, 40.0);
  EXPECT_EQ(read.model, FidelityModel::kIcm);
  EXPECT_EQ(read.rule, FidelityRule::kThreshold);
  EXPECT_EQ(read.min_correlation, -0.25);
  EXPECT_EQ(read.fit_function_tolerance, 1e-8);
  // The tell record carries its fidelity; a resumed study counts its cost.
  EXPECT_EQ(contents.records.back().type, LogRecordType::kTell);
  EXPECT_EQ(contents.records.back().fidelity, 1);
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(log);
  EXPECT_EQ(resumed->options().fidelities.num_fidelities(), 3);
  EXPECT_EQ(resumed->observations().at(0).fidelity, 1);
  EXPECT_EQ(resumed->CostSpent(), 2.0);
}

// Without fidelities the header's key holds none, and a header without the key (older logs)
// reads as none.
TEST(FidelityOptimizer, AStudyWithoutFidelitiesHasNoneInItsHeader) {
  const std::string log = testing::TempLogPath("fidelity_none");
  OptimizerOptions o = Quiet(1, FidelityOptions());
  o.log_path = log;
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
    opt.Tell(opt.Ask(), 0.5);
    EXPECT_EQ(opt.CostSpent(), 1.0);
  }
  std::string header = ReadLog(log).records.at(0).json;
  EXPECT_FALSE(ParseLogHeader(header).options.fidelities.active());
  const std::size_t at = header.find("\"fidelities\":");
  ASSERT_NE(at, std::string::npos);
  const std::size_t end = header.find('}', at);
  header.erase(at, end + 2 - at);  // the object and its comma
  EXPECT_EQ(header.find("fidelities"), std::string::npos);
  EXPECT_FALSE(ParseLogHeader(header).options.fidelities.active());
}

TEST(FidelityOptimizer, RefusesBadOptionsNamingTheFieldAndValue) {
  auto build = [](const FidelityOptions& f) {
    return [f] { Optimizer opt(UnitSquare(), nullptr, "gp-ucb", Quiet(1, f)); };
  };
  FidelityOptions f = SimAndRobot();
  f.levels = {{"robot", 10.0}};
  ExpectInvalid(build(f), "fidelities.levels has 1 entry");
  f = SimAndRobot(10.0, 10.0);
  ExpectInvalid(build(f), "fidelities.levels[1].cost = 10 is not above levels[0].cost = 10");
  f = SimAndRobot(0.0, 10.0);
  ExpectInvalid(build(f), "fidelities.levels[0].cost = 0");
  f = SimAndRobot(1.0, std::numeric_limits<double>::infinity());
  ExpectInvalid(build(f), "fidelities.levels[1].cost = inf");
  f = SimAndRobot();
  f.levels[1].name = "sim";
  ExpectInvalid(build(f), "fidelities.levels[1].name = 'sim' is declared twice");
  f = SimAndRobot();
  f.levels[0].name = "my sim";
  ExpectInvalid(build(f), "fidelities.levels[0].name = 'my sim'");
  f = SimAndRobot();
  f.min_correlation = 1.5;
  ExpectInvalid(build(f), "fidelities.min_correlation = 1.5");
  f = SimAndRobot();
  f.fit_function_tolerance = 0.0;
  ExpectInvalid(build(f), "fidelities.fit_function_tolerance = 0: must be > 0");
  f.fit_function_tolerance = std::nan("");
  ExpectInvalid(build(f), "fidelities.fit_function_tolerance = nan");
}

// A header written before fit_function_tolerance existed resumes with fit.function_tolerance
// alone, as it ran.
TEST(FidelityOptimizer, AHeaderWithoutTheFitToleranceReadsAsInfinity) {
  const std::string log = testing::TempLogPath("fidelity_fit_tolerance");
  OptimizerOptions o = Quiet(1);
  o.log_path = log;
  {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
    opt.TellFidelity(opt.Ask(), Eigen::VectorXd(), 0.5, "sim");
  }
  std::string header = ReadLog(log).records.at(0).json;
  EXPECT_EQ(ParseLogHeader(header).options.fidelities.fit_function_tolerance, 1e-6);
  const std::string field = "\"fit_function_tolerance\":1e-06,";
  const std::size_t at = header.find(field);
  ASSERT_NE(at, std::string::npos) << header;
  header.erase(at, field.size());
  EXPECT_EQ(ParseLogHeader(header).options.fidelities.fit_function_tolerance, HUGE_VAL);
}

TEST(FidelityOptimizer, RefusesWhatItDoesNotSupportYetNamingTheOption) {
  OptimizerOptions o = Quiet(1);
  o.outcomes.objectives = {{"f", false}, {"g", true}};
  ExpectInvalid(
      [&] { Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o); },
      "OptimizerOptions.fidelities (2 levels) does not go with OptimizerOptions.outcomes");
  for (const std::string strategy : {"tv-gp-ucb", "r-gp-ucb"})
    ExpectInvalid([&] { Optimizer opt(UnitSquare(), nullptr, strategy, Quiet(1)); },
                  "does not go with strategy '" + strategy + "'");
  // safe-opt's calibrated safety models go with fidelities (safe_fidelity_test.cc); the models
  // in the caller's units do not.
  const StrategyParams safe = StrategyParams()
                                  .With("threshold", 0.0)
                                  .WithText("seeds", "[[0.5, 0.5]]")
                                  .WithText("calibrated", "false");
  ExpectInvalid([&] { Optimizer opt(UnitSquare(), nullptr, "safe-opt", safe, Quiet(1)); },
                "does not go with strategy 'safe-opt' with calibrated = false");
}

// ---- Asks and tells -----------------------------------------------------------------------

TEST(FidelityOptimizer, AsksReturnAValidFidelityAndTheDesignIsAtTheTarget) {
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", Quiet(2));
  const RandomBumps f(11);
  std::vector<RoundReport> reports;
  opt.SetRoundCallback([&](const RoundReport& r) { reports.push_back(r); });
  for (int i = 0; i < 12; ++i) {
    const FidelityPoint p = opt.AskFidelity();
    ASSERT_GE(p.fidelity, 0);
    ASSERT_LT(p.fidelity, 2);
    EXPECT_EQ(p.fidelity_name, p.fidelity == 0 ? "sim" : "robot");
    ASSERT_EQ(reports.back().fidelities, std::vector<int>{p.fidelity});
    EXPECT_EQ(reports.back().fidelity_names, std::vector<std::string>{p.fidelity_name});
    if (reports.back().num_design_points > 0) {
      EXPECT_EQ(p.fidelity, 1) << "design point " << i;
    }
    EXPECT_EQ(opt.pending_points().back().fidelity, p.fidelity);
    opt.TellFidelity(p.x, Eigen::VectorXd(), f(p.x), p.fidelity_name);
    EXPECT_EQ(opt.observations().back().fidelity, p.fidelity);
  }
  EXPECT_TRUE(opt.pending_points().empty());
  double cost = 0.0;
  for (const Observation& o : opt.observations()) cost += o.fidelity == 0 ? 1.0 : 10.0;
  EXPECT_EQ(opt.CostSpent(), cost);
  // A plain tell takes the pending point's fidelity; a batch has one per point.
  const Eigen::MatrixXd batch = opt.AskBatch(3);
  ASSERT_EQ(reports.back().fidelities.size(), 3u);
  const int first = opt.pending_points().front().fidelity;
  opt.Tell(batch.col(0), f(batch.col(0)));
  EXPECT_EQ(opt.observations().back().fidelity, first);
  // Best and Predict answer at the target; Best among target observations.
  const Recommendation best = opt.Best();
  bool at_target = false;
  for (const Observation& o : opt.observations())
    at_target = at_target || (o.fidelity == 1 && o.x == best.x);
  EXPECT_TRUE(at_target);
  EXPECT_EQ(opt.Predict(best.x).mean, opt.PredictFidelity(best.x, Eigen::VectorXd(), 1).mean);
}

TEST(FidelityOptimizer, RefusesBadTellsLeavingTheStudyUnchanged) {
  const std::string log = testing::TempLogPath("fidelity_bad_tells");
  OptimizerOptions o = Quiet(4);
  o.log_path = log;
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
  const Eigen::VectorXd x = opt.Ask();
  const std::string before = opt.Fingerprint();
  const std::size_t records = ReadLog(log).records.size();
  ExpectInvalid([&] { opt.TellFidelity(x, Eigen::VectorXd(), 1.0, 2); },
                "fidelity = 2: expected a fidelity index in [0, 2) (sim, robot)");
  ExpectInvalid([&] { opt.TellFidelity(x, Eigen::VectorXd(), 1.0, -1); }, "fidelity = -1");
  ExpectInvalid([&] { opt.TellFidelity(x, Eigen::VectorXd(), 1.0, "plant"); },
                "fidelity = 'plant' is not one of the study's (sim, robot)");
  ExpectInvalid([&] { opt.TellTrialFidelity(0, x, Eigen::VectorXd(), 1.0, 5); }, "fidelity = 5");
  ExpectInvalid([&] { opt.PredictFidelity(x, Eigen::VectorXd(), 3); }, "fidelity = 3");
  EXPECT_EQ(opt.Fingerprint(), before);
  EXPECT_EQ(ReadLog(log).records.size(), records);

  Optimizer plain(UnitSquare(), nullptr, "gp-ucb", Quiet(4, FidelityOptions()));
  const Eigen::VectorXd y = plain.Ask();
  const std::string plain_before = plain.Fingerprint();
  ExpectInvalid([&] { plain.TellFidelity(y, Eigen::VectorXd(), 1.0, 0); },
                "fidelity = 0: the study declares no fidelities");
  ExpectInvalid([&] { plain.TellFidelity(y, Eigen::VectorXd(), 1.0, "sim"); },
                "fidelity = 'sim': the study declares no fidelities");
  EXPECT_EQ(plain.Fingerprint(), plain_before);
  EXPECT_THROW(plain.AskFidelity(), std::logic_error);
  EXPECT_EQ(plain.Fingerprint(), plain_before);
}

// ---- Resume -------------------------------------------------------------------------------

struct Step {
  Eigen::VectorXd x;
  int fidelity;
};

// n asks and tells of RandomBumps(5) at the simulator and bumps + 0.1 RandomBumps(6) at the
// robot.
std::vector<Step> Drive(Optimizer* opt, int n) {
  const RandomBumps sim(5), error(6);
  std::vector<Step> steps;
  for (int i = 0; i < n; ++i) {
    const FidelityPoint p = opt->AskFidelity();
    const double y = sim(p.x) + (p.fidelity == 1 ? 0.1 * error(p.x) : 0.0);
    opt->TellFidelity(p.x, Eigen::VectorXd(), y, p.fidelity);
    steps.push_back({p.x, p.fidelity});
  }
  return steps;
}

void ResumesBitIdentically(FidelityModel model, FidelityRule rule) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  OptimizerOptions o = Quiet(8);
  o.fidelities.model = model;
  o.fidelities.rule = rule;
  o.log_path = testing::TempLogPath("fidelity_whole");
  Optimizer whole(UnitSquare(), nullptr, "gp-ucb", o);
  const std::vector<Step> all = Drive(&whole, 24);
  o.log_path = testing::TempLogPath("fidelity_split");
  std::vector<Step> split;
  {
    Optimizer first(UnitSquare(), nullptr, "gp-ucb", o);
    split = Drive(&first, 12);
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(o.log_path);
  const std::vector<Step> rest = Drive(resumed.get(), 12);
  split.insert(split.end(), rest.begin(), rest.end());
  int sims = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].x, split[i].x) << "step " << i;
    EXPECT_EQ(all[i].fidelity, split[i].fidelity) << "step " << i;
    sims += all[i].fidelity == 0 ? 1 : 0;
  }
  EXPECT_EQ(whole.Fingerprint(), resumed->Fingerprint());
  EXPECT_EQ(whole.CostSpent(), resumed->CostSpent());
  std::cout << "[ measured ] " << FidelityModelName(model) << "/" << FidelityRuleName(rule) << ": "
            << sims << " of 24 evaluations at the simulator\n";
}

TEST(FidelityOptimizer, ResumesBitIdenticallyAutoregressiveInformation) {
  ResumesBitIdentically(FidelityModel::kAutoregressive, FidelityRule::kInformation);
}

TEST(FidelityOptimizer, ResumesBitIdenticallyIcmThreshold) {
  ResumesBitIdentically(FidelityModel::kIcm, FidelityRule::kThreshold);
}

// Pending points keep their fidelities through a resume, and the next ask (which hallucinates
// them at those fidelities) is the same.
TEST(FidelityOptimizer, ResumeKeepsThePendingPointsFidelities) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  OptimizerOptions o = Quiet(9);
  o.log_path = testing::TempLogPath("fidelity_pending");
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
  Drive(&opt, 10);
  const Eigen::MatrixXd batch = opt.AskBatch(4);
  opt.Tell(batch.col(1), RandomBumps(5)(batch.col(1)));
  // From a copy of the log: on the log itself the two would share one study.
  const std::string copy = testing::TempLogPath("fidelity_pending_copy");
  {
    std::ifstream in(o.log_path, std::ios::binary);
    std::ofstream out(copy, std::ios::binary);
    out << in.rdbuf();
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(copy);
  EXPECT_EQ(resumed->Fingerprint(), opt.Fingerprint());
  ASSERT_EQ(resumed->pending_points().size(), 3u);
  for (std::size_t j = 0; j < 3; ++j)
    EXPECT_EQ(resumed->pending_points()[j].fidelity, opt.pending_points()[j].fidelity);
  const FidelityPoint a = opt.AskFidelity(), b = resumed->AskFidelity();
  EXPECT_EQ(a.x, b.x);
  EXPECT_EQ(a.fidelity, b.fidelity);
}

// ---- What the simulator is worth ----------------------------------------------------------

// A simulator that is an independent random function: the model fits it as unrelated, and
// the study behaves like target-only optimization: of the last 20 of 50 asks, at most 3 on
// each of 20 problems and at most 5% in all evaluate at the simulator.
TEST(FidelityOptimizer, LearnsThatAUselessSimulatorIsUseless) {
  int all_late_sims = 0;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", Quiet(seed));
    const RandomBumps target(100 + seed), sim(200 + seed);
    int sims = 0, late_sims = 0;
    for (int i = 0; i < 50; ++i) {
      const FidelityPoint p = opt.AskFidelity();
      sims += p.fidelity == 0 ? 1 : 0;
      late_sims += p.fidelity == 0 && i >= 30 ? 1 : 0;
      opt.TellFidelity(p.x, Eigen::VectorXd(), p.fidelity == 0 ? sim(p.x) : target(p.x),
                       p.fidelity);
    }
    EXPECT_LE(late_sims, 3) << "seed " << seed;
    all_late_sims += late_sims;
    std::cout << "[ measured ] seed " << seed << ": " << sims << " of 50 at the useless simulator, "
              << late_sims << " of the last 20\n";
  }
  EXPECT_LE(all_late_sims, 20);
}

// WorkerOptions::fidelity: every point this process hands out is evaluated there, the initial
// design's too; a fidelity the study does not have, or one in a study without fidelities, is
// refused naming the field and value.
TEST(FidelityOptimizer, AWorkersFidelityHoldsForEveryAsk) {
  OptimizerOptions o = Quiet(4);
  o.worker.fidelity = "sim";
  Optimizer opt(UnitSquare(), nullptr, "gp-ucb", o);
  const RandomBumps target(41);
  for (int i = 0; i < 8; ++i) {
    const FidelityPoint p = opt.AskFidelity();
    EXPECT_EQ(p.fidelity, 0) << i;
    EXPECT_EQ(p.fidelity_name, "sim") << i;
    opt.TellFidelity(p.x, Eigen::VectorXd(), target(p.x), p.fidelity);
  }
  o.worker.fidelity = "lab";
  ExpectInvalid([&] { Optimizer(UnitSquare(), nullptr, "gp-ucb", o); },
                "worker.fidelity 'lab' is not a fidelity the study declares");
  OptimizerOptions plain = Quiet(4, FidelityOptions());
  plain.worker.fidelity = "sim";
  ExpectInvalid([&] { Optimizer(UnitSquare(), nullptr, "gp-ucb", plain); },
                "worker.fidelity 'sim'");
}

// A simulator equal to the negated target is evaluated at its probes only, and once a refit has
// seen it, the model is decoupled from it (model/fidelity_gate.h): the fitted rho is exactly 0.
// Over 30 seeds under four of OpenBLAS's kernel sets (OPENBLAS_CORETYPE = Prescott, Sandybridge,
// Haswell, SkylakeX: the last bits of every fit differ), 26-28 seeds ended decoupled and 7-10 of
// the 450 late asks went to the simulator; over 10 seeds the decoupled count ranged over 7-9, too
// close to any bound to hold on every CPU.
TEST(FidelityOptimizer, ANegatedSimulatorIsDecoupledFromTheTarget) {
  int all_late_sims = 0, decoupled = 0;
  for (std::uint64_t seed = 1; seed <= 30; ++seed) {
    Optimizer opt(UnitSquare(), nullptr, "gp-ucb", Quiet(seed));
    const RandomBumps target(300 + seed);
    int late_sims = 0;
    for (int i = 0; i < 30; ++i) {
      const FidelityPoint p = opt.AskFidelity();
      late_sims += p.fidelity == 0 && i >= 15 ? 1 : 0;
      opt.TellFidelity(p.x, Eigen::VectorXd(), p.fidelity == 0 ? -target(p.x) : target(p.x),
                       p.fidelity);
    }
    const Eigen::VectorXd params = opt.last_fit_report().kernel_log_params;
    ASSERT_GT(params.size(), 0) << "seed " << seed;
    const double rho = params(params.size() - 1);
    decoupled += rho == 0.0 ? 1 : 0;
    all_late_sims += late_sims;
    std::cout << "[ measured ] seed " << seed << ": " << late_sims
              << " of the last 15 at the negated simulator, last fitted rho " << rho << "\n";
  }
  EXPECT_LE(all_late_sims, 18);
  EXPECT_GE(decoupled, 24);
}

// The cost at which the target's regret of Best() first falls to `goal`, within `budget`
// (twice the budget when never reached), on problem `seed`: the target is a RandomBumps of 10
// bumps in 3 dimensions plus 0.2 times another, the simulator the first alone at cost 1
// against the target's 10.
double CostToRegret(std::uint64_t seed, bool with_simulator, double goal, double budget) {
  const int dim = 3;
  const RandomBumps sim(1000 + seed, dim, 10), error(2000 + seed, dim, 10);
  auto target = [&](const Eigen::VectorXd& x) { return sim(x) + 0.2 * error(x); };
  const double best_value = CubeMaximum(target, dim);
  OptimizerOptions o = Quiet(seed, with_simulator ? SimAndRobot(1.0, 10.0) : FidelityOptions());
  const Domain domain = Domain::Box(Eigen::VectorXd::Zero(dim), Eigen::VectorXd::Ones(dim));
  Optimizer opt(domain, nullptr, "gp-ucb", o);
  double cost = 0.0;
  while (cost < budget) {
    Eigen::VectorXd x;
    int fidelity = 1;
    if (with_simulator) {
      const FidelityPoint p = opt.AskFidelity();
      x = p.x;
      fidelity = p.fidelity;
      opt.TellFidelity(x, Eigen::VectorXd(), fidelity == 0 ? sim(x) : target(x), fidelity);
    } else {
      x = opt.Ask();
      opt.Tell(x, target(x));
    }
    cost += fidelity == 0 ? 1.0 : 10.0;
    if (best_value - target(opt.Best().x) <= goal) return cost;
  }
  return 2.0 * budget;
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Target = simulator + 0.2 x an independent smooth error, the simulator 10 times cheaper:
// reaching a regret of 0.05 at the target costs the study with the simulator clearly less than
// target-only gp-ucb over 20 generated problems: a median cost below 0.8 times target-only's
// (problems neither solves within the budget count as twice the budget for both), and more
// problems solved cheaper than dearer.
TEST(FidelityOptimizer, AGoodSimulatorReachesTheTargetsRegretForLessCost) {
  const double goal = 0.05, budget = 800.0;
  std::vector<double> with, without;
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    with.push_back(CostToRegret(seed, true, goal, budget));
    without.push_back(CostToRegret(seed, false, goal, budget));
    std::cout << "[ measured ] seed " << seed << ": cost to regret " << goal << " with simulator "
              << with.back() << ", target only " << without.back() << "\n";
  }
  int cheaper = 0, dearer = 0;
  for (std::size_t i = 0; i < with.size(); ++i) {
    cheaper += with[i] < without[i] ? 1 : 0;
    dearer += with[i] > without[i] ? 1 : 0;
  }
  std::cout << "[ measured ] median " << Median(with) << " vs " << Median(without)
            << "; cheaper on " << cheaper << ", dearer on " << dearer << "\n";
  EXPECT_LT(Median(with), 0.8 * Median(without));
  EXPECT_GT(cheaper, dearer);
}

}  // namespace
}  // namespace gpbandit
