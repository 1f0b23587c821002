// Earlier studies as sources (gpbandit/optimizer/source_study.h): the loader's refusals, the
// copied records and the header, resume, what a study's answers leave out, and what a related
// and an unrelated earlier study are worth on generated problems.
#include "gpbandit/optimizer/source_study.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/acquisition/fidelity_rule.h"
#include "gpbandit/kernel/fidelity_kernels.h"
#include "gpbandit/kernel/stationary_kernel.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

const Domain& Square() {
  static const Domain domain = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1));
  return domain;
}

OptimizerOptions QuietSource(std::uint64_t seed) {
  OptimizerOptions o;
  o.seed = seed;
  o.sync_log = false;
  o.num_threads = 1;
  return o;
}

// A sum of `bumps` Gaussian bumps on the unit square, drawn from `seed`.
class SourceBumps {
 public:
  explicit SourceBumps(std::uint64_t seed, int bumps = 6) {
    Rng rng(seed);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    std::normal_distribution<double> normal(0.0, 1.0);
    for (int k = 0; k < bumps; ++k) {
      centres_.push_back(Eigen::Vector2d(unit(rng), unit(rng)));
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

// The maximum over the unit square: a 101 x 101 grid polished by coordinate search.
double SquareMaximum(const std::function<double(const Eigen::VectorXd&)>& f) {
  Eigen::VectorXd best_x(2), x(2);
  double best = -HUGE_VAL;
  for (int i = 0; i <= 100; ++i)
    for (int j = 0; j <= 100; ++j) {
      x << i / 100.0, j / 100.0;
      const double v = f(x);
      if (v > best) best = v, best_x = x;
    }
  for (double step = 0.005; step > 1e-7; step /= 2.0) {
    bool moved = true;
    while (moved) {
      moved = false;
      for (int d = 0; d < 2; ++d)
        for (const double s : {-step, step}) {
          x = best_x;
          x(d) = std::clamp(x(d) + s, 0.0, 1.0);
          const double v = f(x);
          if (v > best) best = v, best_x = x, moved = true;
        }
    }
  }
  return best;
}

// A finished study of f in a log: `n` uniform random points told (the log's header and tells),
// then one failed tell, which the loader must leave out.
std::string WriteOldStudy(const std::string& name,
                          const std::function<double(const Eigen::VectorXd&)>& f, int n,
                          std::uint64_t seed, const Domain& domain = Square()) {
  OptimizerOptions o = QuietSource(seed);
  o.log_path = testing::TempLogPath(name);
  o.non_finite_rewards = NonFiniteRewardPolicy::kSkip;
  Optimizer old(domain, nullptr, "gp-ucb", o);
  Rng rng(seed + 7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < n; ++i) {
    Eigen::VectorXd x(domain.action_dim());
    for (Eigen::Index d = 0; d < x.size(); ++d) x(d) = unit(rng);
    old.Tell(x, f(x));
  }
  old.Tell(Eigen::VectorXd::Constant(domain.action_dim(), 0.5), std::nan(""));
  return o.log_path;
}

bool FileExists(const std::string& path) { return std::ifstream(path).good(); }

// ---- The loader ---------------------------------------------------------------------------

TEST(SourceStudy, ReadsTheAcceptedTellsOfAFinishedStudy) {
  const SourceBumps f(1);
  const std::string log = WriteOldStudy("source_read", f, 12, 1);
  const FidelitySpec s = ReadSourceStudy(log, Square(), ObjectiveSense::kMaximize, "old");
  EXPECT_EQ(s.name, "old");
  EXPECT_TRUE(s.source);
  EXPECT_EQ(s.cost, 0.0);
  ASSERT_EQ(s.observations.size(), 12u);  // the failed tell left out
  for (const SourcePoint& p : s.observations) EXPECT_EQ(p.y, f(p.x));
}

// Through a storage: the same observations as from the log's path; an empty study refused.
TEST(SourceStudy, ReadsAStudyOfAStorage) {
  const SourceBumps f(11);
  const std::string log = WriteOldStudy("source_storage", f, 9, 11);
  const std::unique_ptr<StudyStorage> storage = OpenStudyStorage(log, "");
  const FidelitySpec a = ReadSourceStudy(*storage, Square(), ObjectiveSense::kMaximize, "old");
  const FidelitySpec b = ReadSourceStudy(log, Square(), ObjectiveSense::kMaximize, "old");
  ASSERT_EQ(a.observations.size(), 9u);
  ASSERT_EQ(a.observations.size(), b.observations.size());
  for (std::size_t i = 0; i < a.observations.size(); ++i) {
    EXPECT_EQ(a.observations[i].x, b.observations[i].x);
    EXPECT_EQ(a.observations[i].y, b.observations[i].y);
  }
  const std::string empty = testing::TempLogPath("source_storage_empty");
  const std::unique_ptr<StudyStorage> none = OpenStudyStorage(empty, "");
  ExpectInvalid([&] { ReadSourceStudy(*none, Square(), ObjectiveSense::kMaximize, "old"); },
                "no such study");
}

TEST(SourceStudy, RefusesAMissingFileAMalformedLogAndAnotherDomain) {
  const std::string missing = testing::TempLogPath("source_missing");
  ExpectInvalid([&] { ReadSourceStudy(missing, Square(), ObjectiveSense::kMaximize, "old"); },
                "source 'old' (" + missing + "): no such file");
  EXPECT_FALSE(FileExists(missing));

  const std::string malformed = testing::TempLogPath("source_malformed");
  {
    std::ofstream out(malformed);
    out << "{\"type\": \"tell\", \"x\": [0.5]}\nnot json\n";
  }
  ExpectInvalid([&] { ReadSourceStudy(malformed, Square(), ObjectiveSense::kMaximize, "old"); },
                malformed);

  const std::string log = WriteOldStudy("source_domain", SourceBumps(2), 5, 2);
  const Domain wider = Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 2));
  ExpectInvalid([&] { ReadSourceStudy(log, wider, ObjectiveSense::kMaximize, "old"); }, "domain");
  ExpectInvalid([&] { ReadSourceStudy(log, Square(), ObjectiveSense::kMinimize, "old"); },
                "maximizes");
}

// A failed load leaves the new study unmade: no file written.
TEST(SourceStudy, AFailedLoadWritesNoNewStudy) {
  OptimizerOptions o = QuietSource(3);
  o.log_path = testing::TempLogPath("source_new_unmade");
  const std::string missing = testing::TempLogPath("source_missing2");
  EXPECT_THROW(
      {
        AddSources(&o, {ReadSourceStudy(missing, Square(), o.sense, "old")});
        Optimizer opt(Square(), nullptr, "gp-ucb", o);
      },
      std::invalid_argument);
  EXPECT_FALSE(FileExists(o.log_path));
}

TEST(SourceStudy, ValidationNamesTheSourceRules) {
  FidelityOptions f;
  std::string error;
  f.levels = {{"old", 0.0, true}, {"target", 1.0}};
  EXPECT_TRUE(f.IsValid(&error)) << error;
  f.levels = {{"old", 1.0, true}, {"target", 1.0}};
  EXPECT_FALSE(f.IsValid(&error));
  EXPECT_NE(error.find("levels[0].cost = 1: a source"), std::string::npos) << error;
  f.levels = {{"sim", 1.0}, {"old", 0.0, true}, {"target", 10.0}};
  EXPECT_FALSE(f.IsValid(&error));
  EXPECT_NE(error.find("source after an evaluable level"), std::string::npos) << error;
  f.levels = {{"old", 0.0, true}, {"older", 0.0, true}};
  EXPECT_FALSE(f.IsValid(&error));
  EXPECT_NE(error.find("every level is a source"), std::string::npos) << error;
  f.levels = {{"old", 0.0, true}, {"older", 0.0, true}, {"sim", 1.0}, {"target", 5.0}};
  EXPECT_TRUE(f.IsValid(&error)) << error;
}

// ---- In a study ---------------------------------------------------------------------------

TEST(SourceStudy, TheSourceIsCopiedIntoTheLogAndLeftOutOfTheStudysAnswers) {
  const SourceBumps f(4);
  const std::string old = WriteOldStudy("source_old4", f, 20, 4);
  OptimizerOptions o = QuietSource(4);
  o.log_path = testing::TempLogPath("source_new4");
  AddSources(&o, {ReadSourceStudy(old, Square(), o.sense, "old")});
  ASSERT_EQ(o.fidelities.num_fidelities(), 2);
  EXPECT_EQ(o.fidelities.model, FidelityModel::kIcm);  // sources alone: the ICM by default
  Optimizer opt(Square(), nullptr, "gp-ucb", o);
  EXPECT_EQ(opt.observations().size(), 20u);
  EXPECT_EQ(opt.CostSpent(), 0.0);
  EXPECT_THROW(opt.Best(), std::exception);  // nothing at the target yet
  // Nothing is evaluated at the source, and trials count from 0.
  long trial = -1;
  const Eigen::VectorXd x = opt.Ask(Eigen::VectorXd(), &trial);
  EXPECT_EQ(trial, 0);
  ASSERT_EQ(opt.pending_points().size(), 1u);
  EXPECT_EQ(opt.pending_points()[0].fidelity, 1);
  ExpectInvalid([&] { opt.TellFidelity(x, Eigen::VectorXd(), 1.0, "old"); }, "is a source");
  opt.TellTrial(trial, x, Eigen::VectorXd(), 0.25);
  EXPECT_EQ(opt.CostSpent(), 1.0);
  EXPECT_EQ(opt.Best().x, x);  // the only target point, although the source has better ones
  // The log: a header marking the source, 20 tells at level 0 before any pending point.
  const LogContents contents = ReadLog(o.log_path);
  EXPECT_NE(contents.records[0].json.find("\"source\":true"), std::string::npos);
  int copied = 0;
  for (const LogRecord& r : contents.records)
    if (r.type == LogRecordType::kTell && r.fidelity == 0) ++copied;
  EXPECT_EQ(copied, 20);
  // Resumed, from its own log alone: the old one removed.
  std::remove(old.c_str());
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(o.log_path);
  EXPECT_EQ(resumed->Fingerprint(), opt.Fingerprint());
  EXPECT_EQ(resumed->observations().size(), 21u);
  EXPECT_EQ(resumed->CostSpent(), 1.0);
}

TEST(SourceStudy, ASourceWithTooFewObservationsIsRefusedBeforeAnythingIsWritten) {
  OptimizerOptions o = QuietSource(5);
  o.log_path = testing::TempLogPath("source_few");
  FidelitySpec s{"old", 0.0, true, {{Eigen::Vector2d(0.5, 0.5), Eigen::VectorXd(), 1.0}}};
  AddSources(&o, {s});
  ExpectInvalid([&] { Optimizer opt(Square(), nullptr, "gp-ucb", o); },
                "('old') is a source with 1 observations");
}

// A resumed study with a source asks what the uninterrupted one asks.
TEST(SourceStudy, ResumesBitIdentically) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const SourceBumps f(6);
  auto old_f = [&](const Eigen::VectorXd& x) { return 0.8 * f(x) + 0.3; };
  const std::string old = WriteOldStudy("source_old6", old_f, 30, 6);
  OptimizerOptions o = QuietSource(6);
  AddSources(&o, {ReadSourceStudy(old, Square(), o.sense, "old")});
  o.log_path = testing::TempLogPath("source_whole");
  Optimizer whole(Square(), nullptr, "gp-ucb", o);
  std::vector<Eigen::VectorXd> all;
  for (int i = 0; i < 12; ++i) {
    all.push_back(whole.Ask());
    whole.Tell(all.back(), f(all.back()));
  }
  o.log_path = testing::TempLogPath("source_split");
  std::vector<Eigen::VectorXd> split;
  {
    Optimizer first(Square(), nullptr, "gp-ucb", o);
    for (int i = 0; i < 6; ++i) {
      split.push_back(first.Ask());
      first.Tell(split.back(), f(split.back()));
    }
  }
  const std::unique_ptr<Optimizer> resumed = Optimizer::Resume(o.log_path);
  for (int i = 0; i < 6; ++i) {
    split.push_back(resumed->Ask());
    resumed->Tell(split.back(), f(split.back()));
  }
  for (std::size_t i = 0; i < all.size(); ++i) EXPECT_EQ(all[i], split[i]) << "step " << i;
  EXPECT_EQ(whole.Fingerprint(), resumed->Fingerprint());
}

// ---- What a source is worth -----------------------------------------------------------------

double MedianOf(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

double QuartileOf(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(at);
  const double w = at - static_cast<double>(i);
  return i + 1 < v.size() ? (1.0 - w) * v[i] + w * v[i + 1] : v[i];
}

enum class SourceKind { kNone, kRelated, kUnrelated };

// The target's simple regret at Best() after each of `evaluations` target evaluations of
// gp-ucb on problem `seed` (a SourceBumps), with an earlier study of `points` random points of a
// related (0.7 f + 0.5 + 0.1 another SourceBumps: another scale, offset and a small change of the
// plant) or an unrelated (an independent SourceBumps) function, or none. *correlation: the fitted
// prior correlation of the source with the target at the centre after the last evaluation
// (NaN without a source), computed from the fitted log-params with the public kernels.
std::vector<double> Regrets(std::uint64_t seed, SourceKind kind, int evaluations, int points,
                            FidelityModel model, double* correlation) {
  const SourceBumps f(500 + seed), change(600 + seed), other(700 + seed);
  const double best = SquareMaximum(f);
  OptimizerOptions o = QuietSource(seed);
  if (kind != SourceKind::kNone) {
    auto old_f = [&](const Eigen::VectorXd& x) {
      return kind == SourceKind::kRelated ? 0.7 * f(x) + 0.5 + 0.1 * change(x) : other(x);
    };
    const std::string log =
        WriteOldStudy("source_worth_" + std::to_string(seed), old_f, points, seed + 1000);
    AddSources(&o, {ReadSourceStudy(log, Square(), o.sense, "old")});
    o.fidelities.model = model;
    std::remove(log.c_str());
  }
  const StationaryKernel base(StationaryFamily::kMatern52, {0, 1}, true, 1.0, 0.2);
  Optimizer opt(Square(), base.Clone(), "gp-ucb", o);
  std::vector<double> regrets;
  for (int i = 0; i < evaluations; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, f(x));
    regrets.push_back(best - f(opt.Best().x));
  }
  *correlation = std::nan("");
  if (kind != SourceKind::kNone) {
    std::unique_ptr<Kernel> joint;
    if (model == FidelityModel::kIcm) {
      joint = std::make_unique<CoregionalizationKernel>(base.Clone(), 2, 2);
    } else {
      std::vector<std::unique_ptr<Kernel>> parts;
      parts.push_back(base.Clone());
      parts.push_back(base.Clone());
      joint = std::make_unique<AutoregressiveKernel>(std::move(parts), 2);
    }
    const Eigen::VectorXd params = opt.last_fit_report().kernel_log_params;
    if (params.size() == joint->NumParams()) {
      joint->SetLogParams(params);
      const Eigen::Vector3d centre(0.5, 0.5, 1.0);
      *correlation = CorrelationWithTarget(FidelityPriorCovariance(*joint, centre, 2, 2))(0);
    }
  }
  return regrets;
}

// A related earlier study of 40 points lowers the median regret after 5 and after 10 target
// evaluations over 10 generated problems, against plain gp-ucb.
TEST(SourceStudy, ARelatedSourceLowersTheRegretAtSmallBudgets) {
  std::vector<double> with5, with10, without5, without10;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    double rho = 0.0;
    const std::vector<double> w =
        Regrets(seed, SourceKind::kRelated, 10, 40, FidelityModel::kAutoregressive, &rho);
    const std::vector<double> n =
        Regrets(seed, SourceKind::kNone, 10, 40, FidelityModel::kAutoregressive, &rho);
    with5.push_back(w[4]);
    with10.push_back(w[9]);
    without5.push_back(n[4]);
    without10.push_back(n[9]);
  }
  std::cout << "[ measured ] median regret at 5 / 10: related source " << MedianOf(with5) << " / "
            << MedianOf(with10) << ", none " << MedianOf(without5) << " / " << MedianOf(without10)
            << "\n";
  EXPECT_LT(MedianOf(with5), MedianOf(without5));
  EXPECT_LT(MedianOf(with10), MedianOf(without10));
}

// An unrelated earlier study is fitted as such (median correlation with the target below 0.3,
// the gate's default) and costs little: after 20 target evaluations the median regret over 10
// problems is at most twice plain gp-ucb's plus 0.01 (after 10 it may cost more: the measured
// medians are in docs/fidelities.md).
TEST(SourceStudy, AnUnrelatedSourceIsLearnedAsSuch) {
  std::vector<double> correlations, with20, without20;
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    double corr = 0.0, unused = 0.0;
    const std::vector<double> w =
        Regrets(seed, SourceKind::kUnrelated, 20, 40, FidelityModel::kAutoregressive, &corr);
    const std::vector<double> n =
        Regrets(seed, SourceKind::kNone, 20, 40, FidelityModel::kAutoregressive, &unused);
    ASSERT_FALSE(std::isnan(corr)) << "seed " << seed;
    correlations.push_back(corr);
    with20.push_back(w[19]);
    without20.push_back(n[19]);
  }
  std::cout << "[ measured ] unrelated source: median fitted correlation " << MedianOf(correlations)
            << "; median regret at 20: " << MedianOf(with20) << " against " << MedianOf(without20)
            << " without\n";
  EXPECT_LT(MedianOf(correlations), 0.3);
  EXPECT_LE(MedianOf(with20), 2.0 * MedianOf(without20) + 0.01);
}

// The measurement behind the ICM as the default for sources alone (docs/fidelities.md,
// "Earlier studies as sources"): regret at 5, 10 and 20 target evaluations over 20 problems,
// median and quartiles, for a related and an unrelated source of 40 points under both models,
// and without a source; the ICM's medians at 10 and 20 evaluations are at most the
// autoregressive model's (or both below 1e-6), and a related source beats none at 5 and 10.
TEST(SourceStudy, TheIcmIsTheBetterModelForSourcesAlone) {
  struct Arm {
    const char* name;
    SourceKind kind;
    FidelityModel model;
  };
  const Arm arms[] = {
      {"none (gp-ucb)", SourceKind::kNone, FidelityModel::kAutoregressive},
      {"related, autoregressive", SourceKind::kRelated, FidelityModel::kAutoregressive},
      {"related, icm", SourceKind::kRelated, FidelityModel::kIcm},
      {"unrelated, autoregressive", SourceKind::kUnrelated, FidelityModel::kAutoregressive},
      {"unrelated, icm", SourceKind::kUnrelated, FidelityModel::kIcm}};
  std::vector<std::vector<double>> medians;  // per arm: at 5, 10, 20
  for (const Arm& arm : arms) {
    std::vector<double> r5, r10, r20, corr;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
      double c = 0.0;
      const std::vector<double> r = Regrets(seed, arm.kind, 20, 40, arm.model, &c);
      r5.push_back(r[4]);
      r10.push_back(r[9]);
      r20.push_back(r[19]);
      corr.push_back(c);
    }
    std::cout << "[ measured ] " << arm.name;
    for (const auto* v : {&r5, &r10, &r20})
      std::cout << " | " << MedianOf(*v) << " [" << QuartileOf(*v, 0.25) << ", "
                << QuartileOf(*v, 0.75) << "]";
    if (arm.kind != SourceKind::kNone) std::cout << " | corr " << MedianOf(corr);
    std::cout << "\n";
    medians.push_back({MedianOf(r5), MedianOf(r10), MedianOf(r20)});
  }
  // Below a regret of 1e-6 both models have found the optimum to six digits, and which is lower
  // depends on the last bits of the fits: the related source's medians at 20 evaluations were
  // 1.8e-8 to 5.4e-8 for both models under four of OpenBLAS's kernel sets (OPENBLAS_CORETYPE =
  // Prescott, Sandybridge, Haswell, SkylakeX), in either order. There the ICM must reach that
  // level too, not beat the other model's noise.
  constexpr double kSolved = 1e-6;
  for (const int at : {1, 2}) {
    EXPECT_LE(medians[2][at], std::max(medians[1][at], kSolved))
        << "related, evaluation index " << at;
    EXPECT_LE(medians[4][at], std::max(medians[3][at], kSolved))
        << "unrelated, evaluation index " << at;
  }
  EXPECT_LT(medians[2][0], medians[0][0]);
  EXPECT_LT(medians[2][1], medians[0][1]);
}

}  // namespace
}  // namespace gpbandit
