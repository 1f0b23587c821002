// safe-opt in a study with fidelities (docs/fidelities.md, "Safety across fidelities"): the
// safety signals' joint models, the target's safe set grown from a simulator's data, no unsafe
// target evaluation counted against the true signal (with a faithful, a useless and a misleading
// simulator), Best among the target's observations, resume, and refused tells.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <memory>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

const Domain& UnitLine() {
  static const Domain domain = Domain::Box(Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  return domain;
}

// A generated 1-D problem: a sum of Gaussian bumps on [0, 1] (widths 0.1-0.25), the seed at the
// grid's best point and the threshold 60% of the way from the maximum down to the minimum, so
// that the seed's safe interval is part of the line only.
struct SafeProblem {
  std::vector<double> centres, widths, heights;
  double seed = 0.5, threshold = 0.0;
  double operator()(double x) const {
    double f = 0.0;
    for (std::size_t k = 0; k < centres.size(); ++k)
      f += heights[k] * std::exp(-std::pow(x - centres[k], 2) / (2 * widths[k] * widths[k]));
    return f;
  }
};

constexpr int kGrid = 101;
double GridPoint(int i) { return static_cast<double>(i) / (kGrid - 1); }

SafeProblem MakeProblem(std::uint64_t seed) {
  Rng rng(seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);
  SafeProblem p;
  for (int k = 0; k < 5; ++k) {
    p.centres.push_back(unit(rng));
    p.widths.push_back(0.1 + 0.15 * unit(rng));
    p.heights.push_back(normal(rng));
  }
  double best = -1e300, worst = 1e300;
  for (int i = 0; i < kGrid; ++i) {
    const double f = p(GridPoint(i));
    if (f > best) {
      best = f;
      p.seed = GridPoint(i);
    }
    worst = std::min(worst, f);
  }
  p.threshold = best - 0.6 * (best - worst);
  return p;
}

// The grid points of the seed's connected safe interval (what safe-opt can reach).
int ReachableSize(const SafeProblem& p) {
  const int s = static_cast<int>(std::lround(p.seed * (kGrid - 1)));
  int lo = s, hi = s;
  while (lo > 0 && p(GridPoint(lo - 1)) >= p.threshold) --lo;
  while (hi + 1 < kGrid && p(GridPoint(hi + 1)) >= p.threshold) ++hi;
  return hi - lo + 1;
}

// The grid points the optimizer certifies safe at the target; *wrong counts those among them
// that are unsafe at the target.
int CertifiedSize(const Optimizer& opt, const SafeProblem& p, int* wrong = nullptr) {
  int n = 0;
  for (int i = 0; i < kGrid; ++i) {
    const bool certified =
        opt.SafetyMargin(Eigen::VectorXd::Constant(1, GridPoint(i)), Eigen::VectorXd()) >= 0.0;
    n += certified;
    if (wrong != nullptr && certified && p(GridPoint(i)) < p.threshold) ++*wrong;
  }
  return n;
}

// The joint model of the runs below (the study's default unless a test sets it).
FidelityModel g_model = FidelityModel::kAutoregressive;

OptimizerOptions FidelitySafeOptions(std::uint64_t seed, bool fidelities) {
  OptimizerOptions o = testing::CheapOptions(seed);
  if (fidelities) o.fidelities.levels = {{"sim", 1.0}, {"robot", 10.0}};
  o.fidelities.model = g_model;
  return o;
}

// SafeOpt's own rule (expanders and maximizers): the one that grows the safe set.
StrategyParams FidelitySafeParams(const SafeProblem& p) {
  return StrategyParams()
      .With("threshold", p.threshold)
      .WithText("rule", "safeopt")
      .WithText("seeds", "[[" + std::to_string(p.seed) + "]]");
}

// The simulators: the target's signal itself; one unrelated to it (a mirrored, shifted copy);
// one that calls everything safe, and as good as the seed, beyond the seed's level (a plateau at
// the seed's value wherever the target is below it).
enum class Simulator { kFaithful, kUseless, kMisleading };

double Simulated(const SafeProblem& p, Simulator s, double x) {
  switch (s) {
    case Simulator::kFaithful:
      return p(x);
    case Simulator::kUseless:
      return p(1.0 - x) + 0.3;
    case Simulator::kMisleading:
      return std::max(p(x), p(p.seed));
  }
  return 0.0;
}

struct Run {
  int target_evaluations = 0;  // until the certified set reached the goal (or the budget)
  int unsafe_target = 0;       // target evaluations below the true threshold
  int wrongly_certified = 0;   // the most grid points certified safe that are not, at any step
  bool reached = false;
  // The study refused to go on: a lower fidelity measured the only seed unsafe (the ask round
  // audits every fidelity's measurements of the seeds).
  bool refused = false;
};

// Drives safe-opt until the target's certified safe set covers `goal` of the reachable interval
// or `budget` target evaluations (or 4 budget tells) were made; with a simulator, every ask's
// fidelity is the optimizer's.
Run DriveSafe(const SafeProblem& p, std::uint64_t seed, bool with_simulator, Simulator sim,
              double goal, int budget) {
  Optimizer opt(UnitLine(), nullptr, "safe-opt", FidelitySafeParams(p),
                FidelitySafeOptions(seed, with_simulator));
  const int want = static_cast<int>(std::ceil(goal * ReachableSize(p)));
  Run run;
  for (int t = 0; t < 4 * budget && run.target_evaluations < budget; ++t) {
    Eigen::VectorXd x;
    int fidelity = 1;
    if (with_simulator) {
      FidelityPoint point;
      try {
        point = opt.AskFidelity();
      } catch (const std::runtime_error& e) {
        EXPECT_NE(std::string(e.what()).find("no safe seed left"), std::string::npos) << e.what();
        run.refused = true;
        break;
      }
      x = point.x;
      fidelity = point.fidelity;
    } else {
      x = opt.Ask();
    }
    if (fidelity == 1) {
      ++run.target_evaluations;
      run.unsafe_target += p(x(0)) < p.threshold;
    }
    const double y = fidelity == 1 ? p(x(0)) : Simulated(p, sim, x(0));
    if (with_simulator)
      opt.TellFidelity(x, Eigen::VectorXd(), y, fidelity);
    else
      opt.Tell(x, y);
    int wrong = 0;
    const int certified = CertifiedSize(opt, p, &wrong);
    run.wrongly_certified = std::max(run.wrongly_certified, wrong);
    if (certified >= want) {
      run.reached = true;
      break;
    }
  }
  return run;
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

// 10 problems; GPBANDIT_SAFE_FIDELITY_PROBLEMS=N measures on N (docs/fidelities.md).
int NumProblems() {
  const char* n = std::getenv("GPBANDIT_SAFE_FIDELITY_PROBLEMS");
  return n != nullptr && std::atoi(n) > 0 ? std::atoi(n) : 10;
}
constexpr double kGoal = 0.8;
constexpr int kBudget = 30;

// Target evaluations per problem with and without the simulator, and the unsafe ones.
void Compare(Simulator sim, const std::string& name, std::vector<double>* with,
             std::vector<double>* without, int* unsafe_with, int* unsafe_without,
             int* refused = nullptr, int* wrong = nullptr) {
  for (int k = 0; k < NumProblems(); ++k) {
    const SafeProblem p = MakeProblem(1000 + static_cast<std::uint64_t>(k));
    const Run a = DriveSafe(p, 7 + k, true, sim, kGoal, kBudget);
    const Run b = DriveSafe(p, 7 + k, false, sim, kGoal, kBudget);
    with->push_back(a.reached ? a.target_evaluations : kBudget);
    without->push_back(b.reached ? b.target_evaluations : kBudget);
    *unsafe_with += a.unsafe_target;
    *unsafe_without += b.unsafe_target;
    if (refused != nullptr) *refused += a.refused;
    if (wrong != nullptr) *wrong += a.wrongly_certified;
    if (wrong != nullptr && a.wrongly_certified + b.wrongly_certified > 0)
      std::cout << "[ measured ] " << name << " problem " << k << ": grid points wrongly certified "
                << a.wrongly_certified << " with the simulator, " << b.wrongly_certified
                << " without\n";
    std::cout << "[ measured ] " << name << " problem " << k << ": target evaluations to "
              << kGoal * 100 << "% of the reachable safe interval " << a.target_evaluations
              << (a.reached ? "" : "+") << " with the simulator, " << b.target_evaluations
              << (b.reached ? "" : "+") << " without; unsafe target evaluations " << a.unsafe_target
              << " / " << b.unsafe_target << "\n";
  }
  std::cout << "[ measured ] " << name << ": target evaluations median (quartiles) "
            << Quantile(*with, 0.5) << " (" << Quantile(*with, 0.25) << ", "
            << Quantile(*with, 0.75) << ") with the simulator, " << Quantile(*without, 0.5) << " ("
            << Quantile(*without, 0.25) << ", " << Quantile(*without, 0.75)
            << ") without; unsafe target evaluations " << *unsafe_with << " / " << *unsafe_without
            << "\n";
}

TEST(SafeFidelity, AFaithfulSimulatorGrowsTheTargetsSafeSetWithFewerTargetEvaluations) {
  std::vector<double> with, without;
  int unsafe_with = 0, unsafe_without = 0;
  Compare(Simulator::kFaithful, "faithful", &with, &without, &unsafe_with, &unsafe_without);
  // Paired over the problems: how much the simulator saves depends on how often the study's
  // fidelity rule sends a point there (a rule of the reward's model), so the test asks for fewer
  // target evaluations in total and in more problems than not, and a median no larger.
  int fewer = 0, more = 0;
  double total_with = 0, total_without = 0;
  for (std::size_t k = 0; k < with.size(); ++k) {
    fewer += with[k] < without[k];
    more += with[k] > without[k];
    total_with += with[k];
    total_without += without[k];
  }
  std::cout << "[ measured ] faithful: fewer target evaluations in " << fewer
            << " problems, more in " << more << "; " << total_with << " in all against "
            << total_without << "\n";
  EXPECT_GT(fewer, more);
  EXPECT_LT(total_with, total_without);
  EXPECT_LE(Quantile(with, 0.5), Quantile(without, 0.5));
  EXPECT_EQ(unsafe_with, 0);
  EXPECT_EQ(unsafe_without, 0);
}

// The ICM's joint models: the same safety, the speed-up measured.
TEST(SafeFidelity, TheIcmKeepsEveryTargetEvaluationSafe) {
  g_model = FidelityModel::kIcm;
  for (const Simulator sim : {Simulator::kFaithful, Simulator::kMisleading}) {
    std::vector<double> with, without;
    int unsafe_with = 0, unsafe_without = 0, refused = 0, wrong = 0;
    Compare(sim, sim == Simulator::kFaithful ? "icm faithful" : "icm misleading", &with, &without,
            &unsafe_with, &unsafe_without, &refused, &wrong);
    std::cout << "[ measured ] grid points wrongly certified safe: " << wrong << "\n";
    EXPECT_EQ(unsafe_with, 0);
    EXPECT_EQ(wrong, 0);
  }
  g_model = FidelityModel::kAutoregressive;
}

TEST(SafeFidelity, UselessOrMisleadingSimulatorsCauseNoUnsafeTargetEvaluation) {
  for (const Simulator sim : {Simulator::kUseless, Simulator::kMisleading}) {
    std::vector<double> with, without;
    int unsafe_with = 0, unsafe_without = 0, refused = 0, wrong = 0;
    Compare(sim, sim == Simulator::kUseless ? "useless" : "misleading", &with, &without,
            &unsafe_with, &unsafe_without, &refused, &wrong);
    std::cout << "[ measured ] " << refused << " of " << NumProblems()
              << " runs refused; grid points wrongly certified safe (the most at any step, "
                 "summed over the runs): "
              << wrong << "\n";
    EXPECT_EQ(unsafe_with, 0);
    EXPECT_EQ(unsafe_without, 0);
  }
}
// ---- A constraint signal, resume, refused input --------------------------------------------

// The bowl of tests/optimizer/safe_opt_optimizer_test.cc as a constraint: g(x) = 0.25 - (x -
// 0.5)^2 >= 0 on [0, 1]; the simulator's g is off by 0.02 (x - 0.5).
double FidelityConstraint(double x, int fidelity) {
  return 0.25 - std::pow(x - 0.5, 2) + (fidelity == 0 ? 0.02 * (x - 0.5) : 0.0);
}
double FidelityReward(double x, int fidelity) {
  return std::sin(6 * x) + (fidelity == 0 ? 0.1 * x : 0.0);
}

StrategyParams FidelityConstrainedParams() {
  return StrategyParams()
      .WithText("constraint_thresholds", "[0.1]")
      .WithText("seeds", "[[0.5]]")
      .WithText("rule", "safeopt");
}

struct SafeStep {
  Eigen::VectorXd x;
  int fidelity;
};

// n asks, each told through Tell with its constraint signal (the pending point's fidelity).
std::vector<SafeStep> DriveConstrained(Optimizer* opt, int n) {
  std::vector<SafeStep> steps;
  for (int i = 0; i < n; ++i) {
    const FidelityPoint p = opt->AskFidelity();
    opt->Tell(p.x, Eigen::VectorXd(), FidelityReward(p.x(0), p.fidelity),
              Eigen::VectorXd::Constant(1, FidelityConstraint(p.x(0), p.fidelity)));
    steps.push_back({p.x, p.fidelity});
  }
  return steps;
}

TEST(SafeFidelity, AConstraintSignalAcrossFidelitiesResumesBitIdentically) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  OptimizerOptions o = FidelitySafeOptions(3, true);
  o.log_path = testing::TempLogPath("safe_fidelity_whole");
  Optimizer whole(UnitLine(), nullptr, "safe-opt", FidelityConstrainedParams(), o);
  const std::vector<SafeStep> all = DriveConstrained(&whole, 20);
  o.log_path = testing::TempLogPath("safe_fidelity_split");
  std::vector<SafeStep> split;
  {
    Optimizer first(UnitLine(), nullptr, "safe-opt", FidelityConstrainedParams(), o);
    split = DriveConstrained(&first, 10);
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(o.log_path);
  const std::vector<SafeStep> rest = DriveConstrained(resumed.get(), 10);
  split.insert(split.end(), rest.begin(), rest.end());
  int sims = 0, unsafe_target = 0;
  for (std::size_t i = 0; i < all.size(); ++i) {
    EXPECT_EQ(all[i].x, split[i].x) << "step " << i;
    EXPECT_EQ(all[i].fidelity, split[i].fidelity) << "step " << i;
    sims += all[i].fidelity == 0;
    unsafe_target += all[i].fidelity == 1 && FidelityConstraint(all[i].x(0), 1) < 0.1;
  }
  EXPECT_EQ(whole.Fingerprint(), resumed->Fingerprint());
  EXPECT_GT(sims, 0);
  EXPECT_EQ(unsafe_target, 0);
  // Best is a target observation measured safe.
  const Recommendation best = whole.Best();
  bool at_target = false;
  for (const SafeStep& s : all) at_target |= s.fidelity == 1 && s.x == best.x;
  EXPECT_TRUE(at_target);
  EXPECT_GE(FidelityConstraint(best.x(0), 1), 0.1);
  // The constraint's prediction is the target's: near the measured values there.
  const Prediction g = whole.PredictConstraint(0, best.x, Eigen::VectorXd());
  EXPECT_NEAR(g.mean, FidelityConstraint(best.x(0), 1), 0.02);
}

// A finite set of candidates and a context: the seeds, the candidates and the box at the target
// (their fidelity coordinate), every target evaluation safe against the true constraint.
TEST(SafeFidelity, FiniteSetsAndContextsChooseAtTheTarget) {
  Eigen::MatrixXd candidates(1, 21);
  for (int c = 0; c < 21; ++c) candidates(0, c) = c / 20.0;
  const Domain finite = Domain::FiniteSet(candidates);
  const Domain contextual =
      UnitLine().WithContext(1, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Ones(1));
  for (const Domain* domain : {&finite, &contextual}) {
    Optimizer opt(*domain, nullptr, "safe-opt", FidelityConstrainedParams(),
                  FidelitySafeOptions(6, true));
    int sims = 0, unsafe_target = 0;
    for (int i = 0; i < 16; ++i) {
      const Eigen::VectorXd z = domain->context_dim() > 0
                                    ? Eigen::VectorXd::Constant(1, (i % 4) / 3.0)
                                    : Eigen::VectorXd();
      const FidelityPoint p = opt.AskFidelity(z);
      const double shift = z.size() > 0 ? 0.05 * z(0) : 0.0;
      const double g = FidelityConstraint(p.x(0), p.fidelity) - shift;
      sims += p.fidelity == 0;
      unsafe_target += p.fidelity == 1 && FidelityConstraint(p.x(0), 1) - shift < 0.1;
      opt.Tell(p.x, z, FidelityReward(p.x(0), p.fidelity), Eigen::VectorXd::Constant(1, g));
    }
    EXPECT_GT(sims, 0);
    EXPECT_EQ(unsafe_target, 0);
    EXPECT_NO_THROW(opt.Best());
  }
}

TEST(SafeFidelity, BadTellsAreRefusedWithTheStudyUnchanged) {
  OptimizerOptions o = FidelitySafeOptions(4, true);
  o.log_path = testing::TempLogPath("safe_fidelity_refused");
  Optimizer opt(UnitLine(), nullptr, "safe-opt", FidelityConstrainedParams(), o);
  DriveConstrained(&opt, 4);
  const FidelityPoint p = opt.AskFidelity();
  const std::string fingerprint = opt.Fingerprint();
  const std::string log = testing::ReadFile(o.log_path);
  const Eigen::VectorXd none;
  ExpectInvalid([&] { opt.Tell(p.x, none, 0.5, Eigen::VectorXd::Constant(2, 0.2)); },
                "constraints has 2 values, but strategy 'safe-opt' models 1");
  ExpectInvalid([&] { opt.TellFidelity(p.x, none, 0.5, 2); }, "fidelity");
  ExpectInvalid([&] { opt.TellFidelity(p.x, none, 0.5, -1); }, "fidelity");
  ExpectInvalid([&] { opt.TellFidelity(p.x, none, 0.5, std::string("moon")); }, "moon");
  EXPECT_EQ(opt.Fingerprint(), fingerprint);
  EXPECT_EQ(testing::ReadFile(o.log_path), log);
  // The released point is still pending and is told as usual.
  opt.Tell(p.x, none, FidelityReward(p.x(0), p.fidelity),
           Eigen::VectorXd::Constant(1, FidelityConstraint(p.x(0), p.fidelity)));
  EXPECT_NE(opt.Fingerprint(), fingerprint);
}

TEST(SafeFidelity, SafetySignalsInTheCallersUnitsAreRefusedWithFidelities) {
  ExpectInvalid(
      [&] {
        Optimizer opt(UnitLine(), nullptr, "safe-opt",
                      FidelityConstrainedParams().WithText("calibrated", "false"), [] {
                        OptimizerOptions o = FidelitySafeOptions(1, true);
                        o.gp.standardize_outputs = false;
                        return o;
                      }());
      },
      "calibrated = false");
}

}  // namespace
}  // namespace gpbandit
