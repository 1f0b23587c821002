// The Optimizer on parameter spaces: every registered strategy on every kind of parameter
// (log-scaled reals, integers, log-scaled integers, categoricals, fixed, all of them together,
// and with named mixed contexts) hands out only legal points, or is refused when built with a
// message naming why (safe-opt on integers and categories); named ask/tell; the log records
// named values and a resumed study continues exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/space/parameter_spec.h"
#include "gpbandit/space/space_transform.h"
#include "gpbandit/study/log_header.h"
#include "gpbandit/study/observation_log.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/optimizer/strategy_cells.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

struct SpaceCase {
  std::string name;
  std::vector<std::string> actions;   // parameter specs
  std::vector<std::string> contexts;  // empty: no context
};

std::vector<SpaceCase> SpaceCases() {
  return {
      {"log-real", {"kp=log:0.1:100", "ki=real:-1:1"}, {}},
      {"integer", {"taps=int:1:12", "ki=real:-1:1"}, {}},
      {"integer-log", {"size=int-log:1:4096", "ki=real:-1:1"}, {}},
      {"categorical", {"mode=cat:pid,lead-lag,bang-bang", "ki=real:-1:1"}, {}},
      {"discrete-only", {"taps=int:1:4", "mode=cat:a,b"}, {}},
      {"mixed",
       {"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag", "rate=int:250:250"},
       {}},
      {"mixed-context",
       {"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag"},
       {"terrain=cat:grass,sand,gravel", "payload=real:0:2"}},
  };
}

Domain SpaceDomain(const SpaceCase& c) {
  Domain d = Domain::Space(ParseParameterSpecs(c.actions));
  return c.contexts.empty() ? d : d.WithContext(ParseParameterSpecs(c.contexts));
}

// A reward over any space: a bowl in the model coordinates of the reals and integers (centred
// at 0.3, shifted by the context's model coordinates), a bonus per label of each categorical.
double SpaceReward(const Domain& d, const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const SpaceTransform& t = *d.action_transform();
  const Eigen::VectorXd u = t.ToModel(x);
  const double shift = d.context_transform() ? 0.1 * d.context_transform()->ToModel(z).sum() : 0.0;
  double reward = 0.0;
  for (int i = 0; i < u.size(); ++i) {
    if (t.space().parameter(i).kind == ParameterKind::kCategorical) {
      reward += 0.2 * std::cos(3.0 * u(i));
    } else {
      reward -= std::pow(u(i) - 0.3 - shift, 2);
    }
  }
  return reward;
}

OptimizerOptions SpaceOptions() {
  OptimizerOptions o = testing::CheapOptions(3);
  o.initial_design_size = 3;
  o.maximizer_raw_samples = 32;
  o.maximizer_iterations = 10;
  o.fit.max_iterations = 20;
  o.fit.num_restarts = 0;
  o.refit.every = 3;
  return o;
}

// Context of round r: the space's FromUniform of a fixed sequence.
Eigen::VectorXd ContextOf(const Domain& d, int round) {
  if (d.context_transform() == nullptr) return Eigen::VectorXd();
  Eigen::VectorXd s(d.context_dim());
  for (int i = 0; i < s.size(); ++i) s(i) = std::fmod(0.37 * (round + 1) + 0.21 * i, 1.0);
  return d.context_transform()->FromUniform(s);
}

bool HasDiscrete(const Domain& d) { return d.action_space()->has_discrete(); }

TEST(OptimizerSpaceTest, EveryStrategyHandsOutOnlyLegalPointsOrIsRefused) {
  constexpr int kRounds = 12;
  int ran = 0, refused = 0;
  for (const std::string& strategy : StrategyRegistry::Default().Names()) {
    for (const SpaceCase& c : SpaceCases()) {
      const Domain d = SpaceDomain(c);
      const std::string cell = strategy + " x " + c.name;
      SCOPED_TRACE(cell);
      const Eigen::VectorXd seed =
          d.action_transform()->FromUniform(Eigen::VectorXd::Constant(d.action_dim(), 0.5));
      std::unique_ptr<Optimizer> opt;
      try {
        opt = std::make_unique<Optimizer>(d, nullptr, strategy,
                                          testing::CellParams(strategy, -10.0, seed),
                                          testing::CellOptions(strategy, SpaceOptions()));
      } catch (const std::invalid_argument& e) {
        ASSERT_TRUE(strategy == "safe-opt" && HasDiscrete(d)) << "refused: " << e.what();
        EXPECT_NE(std::string(e.what()).find("explores a box or a finite set"), std::string::npos)
            << e.what();
        ++refused;
        continue;
      }
      ASSERT_FALSE(strategy == "safe-opt" && HasDiscrete(d)) << "built, but should be refused";
      for (int round = 0; round < kRounds; ++round) {
        const Eigen::VectorXd z = ContextOf(d, round);
        const Eigen::MatrixXd X = opt->AskBatch(round % 4 == 3 ? 2 : 1, z);
        for (Eigen::Index j = 0; j < X.cols(); ++j) {
          d.CheckAction(X.col(j), cell + " round " + std::to_string(round));  // legal
          opt->Tell(X.col(j), z, SpaceReward(d, X.col(j), z));
        }
      }
      const Recommendation best = opt->Best(ContextOf(d, kRounds));
      d.CheckAction(best.x, cell + " Best(context)");
      ++ran;
    }
  }
  std::cout << "[ spaces   ] " << ran << " strategy x space cells ran, " << refused << " refused\n";
  EXPECT_GT(refused, 0);
}

ParameterSpace MixedController() {
  return ParseParameterSpecs({"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag"});
}

TEST(OptimizerSpaceTest, AskAndTellByNameWithTheRightTypes) {
  Optimizer opt(Domain::Space(MixedController()), nullptr, "ei", SpaceOptions());
  for (int i = 0; i < 6; ++i) {
    const NamedValues p = opt.AskNamed();
    ASSERT_EQ(p.size(), 3u);
    const double kp = std::get<double>(p.at("kp"));
    const long long taps = std::get<long long>(p.at("taps"));
    const std::string mode = std::get<std::string>(p.at("mode"));
    EXPECT_TRUE(kp >= 0.1 && kp <= 100 && taps >= 1 && taps <= 12);
    EXPECT_TRUE(mode == "pid" || mode == "lead-lag");
    opt.TellNamed(p, -std::pow(std::log10(kp) - 0.5, 2) - 0.01 * taps + (mode == "pid"));
  }
  EXPECT_EQ(opt.num_accepted(), 6);
  EXPECT_TRUE(opt.pending_points().empty());  // each tell released its pending point
  const std::vector<NamedValues> batch = opt.AskBatchNamed(3);
  EXPECT_EQ(batch.size(), 3u);
  const NamedValues best = opt.domain().action_space()->ToNamed(opt.Best().x);
  EXPECT_EQ(best.size(), 3u);
}

// A space without a varying real is a finite decision set: GP-UCB takes Srinivas et al.'s
// finite-set beta_t (Theorem 1) over its legal points, as on a finite set, instead of the box
// schedule (whose small bonus never tried the third label of three: one real coordinate).
TEST(OptimizerSpaceTest, FiniteSpacesTakeTheFiniteSetBeta) {
  const ParameterSpace labels({Parameter::Categorical("mode", {"a", "b", "c"})});
  EXPECT_EQ(Domain::Space(labels).num_decision_points(), 3);
  const ParameterSpace mixed({Parameter::Integer("taps", 1, 12),
                              Parameter::Categorical("mode", {"a", "b"}),
                              Parameter::Real("kp", 0.5, 0.5)});  // fixed reals do not count
  EXPECT_EQ(Domain::Space(mixed).num_decision_points(), 24);
  EXPECT_EQ(Domain::Space(MixedController()).num_decision_points(), 0);  // kp varies
  const ParameterSpace huge(
      {Parameter::Integer("i", 0, 1LL << 40), Parameter::Integer("j", 0, 1LL << 40)});
  EXPECT_EQ(Domain::Space(huge).num_decision_points(), std::numeric_limits<int>::max());

  OptimizerOptions options = SpaceOptions();
  options.initial_design_size = 2;  // the model must choose the third label
  Optimizer opt(Domain::Space(labels), nullptr, "gp-ucb", options);
  std::set<std::string> tried;
  for (int i = 0; i < 6; ++i) {
    const NamedValues p = opt.AskNamed();
    const std::string mode = std::get<std::string>(p.at("mode"));
    tried.insert(mode);
    opt.TellNamed(p, mode == "a" ? -1.0 : mode == "b" ? 0.0 : -2.0);
  }
  EXPECT_EQ(tried.size(), 3u);
  // beta_t = 2 log(|D| t^2 pi^2 / (6 delta)), |D| = 3 (acquisition/beta_schedule.h).
  const double t = opt.last_round_report().t;
  const double delta = GpUcbOptions().beta.delta;
  EXPECT_NEAR(opt.figure(), 2.0 * std::log(3.0 * t * t * M_PI * M_PI / (6.0 * delta)), 1e-9);
}

TEST(OptimizerSpaceTest, BadNamedCallsAreRefusedAndChangeNothing) {
  Optimizer opt(Domain::Space(MixedController()), nullptr, "gp-ucb", SpaceOptions());
  opt.TellNamed(opt.AskNamed(), 1.0);
  const std::string before = opt.Fingerprint();
  testing::ExpectInvalid(
      [&] {
        opt.TellNamed({{"kp", 1.0}, {"taps", 13LL}, {"mode", std::string("pid")}}, 0.0);
      },
      "x['taps'] = 13 is outside [1, 12]");
  testing::ExpectInvalid(
      [&] {
        opt.TellNamed({{"kp", 1.0}, {"taps", 3LL}, {"mode", std::string("p")}}, 0.0);
      },
      "x['mode'] = 'p' is not one of its labels");
  testing::ExpectInvalid(
      [&] {
        opt.AskNamed({{"terrain", std::string("sand")}});
      },
      "the domain has no contexts");
  testing::ExpectInvalid([&] { opt.Tell(Eigen::Vector3d(1.0, 2.5, 0.0), 0.0); },
                         "x[1] ('taps') = 2.5 is not an integer");
  EXPECT_EQ(opt.Fingerprint(), before);
  Optimizer box(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb",
                SpaceOptions());
  EXPECT_THROW(box.AskNamed(), std::logic_error);
}

TEST(OptimizerSpaceTest, NamedContextsAreTakenByName) {
  const Domain d =
      Domain::Space(MixedController()).WithContext(ParseParameterSpecs({"terrain=cat:grass,sand"}));
  Optimizer opt(d, nullptr, "cgp-ucb", SpaceOptions());
  for (const std::string terrain : {"grass", "sand", "grass", "sand", "sand"}) {
    const NamedValues context = {{"terrain", terrain}};
    const NamedValues p = opt.AskNamed(context);
    opt.TellNamed(p, context, terrain == "sand" ? 1.0 : std::get<double>(p.at("kp")));
  }
  EXPECT_EQ(opt.observations().back().z, Eigen::VectorXd::Constant(1, 1.0));
  testing::ExpectInvalid(
      [&] {
        opt.AskNamed({{"terrain", std::string("mud")}});
      },
      "context['terrain'] = 'mud' is not one of its labels");
  testing::ExpectInvalid([&] { opt.AskNamed(); }, "context['terrain'] is missing");
}

TEST(OptimizerSpaceTest, TheDefaultKernelTreatsCategoriesAsExchangeable) {
  Optimizer opt(Domain::Space(MixedController()), nullptr, "ei", SpaceOptions());
  EXPECT_EQ(opt.model().kernel().Describe(),
            "product(matern52(dims=0,1; ard), categorical(dims=2; sizes=2; ard))");
  const Domain reals = Domain::Space(ParseParameterSpecs({"kp=log:0.1:100", "ki=-1:1"}));
  Optimizer box_like(reals, nullptr, "ei", SpaceOptions());
  EXPECT_EQ(box_like.model().kernel().Describe(), "matern52(dims=0,1; ard)");
}

TEST(OptimizerSpaceTest, TheLogRecordsNamedValuesAndTheSpace) {
  const std::string path = testing::TempLogPath("space_records");
  OptimizerOptions o = SpaceOptions();
  o.log_path = path;
  const Domain d =
      Domain::Space(MixedController()).WithContext(ParseParameterSpecs({"terrain=cat:grass,sand"}));
  {
    Optimizer opt(d, nullptr, "ei", o);
    const Eigen::VectorXd z = Eigen::VectorXd::Constant(1, 1.0);
    const Eigen::VectorXd x = opt.Ask(z);
    opt.Tell(x, z, 0.5);
  }
  const LogContents log = ReadLog(path);
  ASSERT_EQ(log.records.size(), 3u);
  const std::string header = log.records[0].json;
  EXPECT_NE(header.find("\"version\":" + std::to_string(kLogFormatVersion)), std::string::npos)
      << header;
  EXPECT_NE(header.find("\"kind\":\"space\""), std::string::npos) << header;
  EXPECT_NE(header.find("\"labels\":[\"pid\",\"lead-lag\"]"), std::string::npos) << header;
  EXPECT_NE(header.find("\"context_parameters\""), std::string::npos) << header;
  for (int r : {1, 2}) {
    const LogRecord& record = log.records[static_cast<std::size_t>(r)];
    const nlohmann::json j = nlohmann::json::parse(record.json);
    const NamedValues named = d.action_space()->ToNamed(record.x);
    EXPECT_EQ(j.at("params").at("kp").get<double>(), std::get<double>(named.at("kp")));
    EXPECT_EQ(j.at("params").at("taps").get<long long>(), std::get<long long>(named.at("taps")));
    EXPECT_TRUE(j.at("params").at("taps").is_number_integer()) << record.json;
    EXPECT_EQ(j.at("params").at("mode").get<std::string>(),
              std::get<std::string>(named.at("mode")));
    EXPECT_EQ(j.at("context_params").at("terrain").get<std::string>(), "sand");
  }
  std::remove(path.c_str());
}

// Interrupting a mixed study at any round and resuming it from its log gives the same log,
// byte for byte, as the uninterrupted run.
TEST(OptimizerSpaceTest, AResumedMixedStudyContinuesExactly) {
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  const SpaceCase c = SpaceCases().back();  // mixed actions and named mixed contexts
  const Domain d = SpaceDomain(c);
  constexpr int kRounds = 12;
  for (const IntegerSearch search : {IntegerSearch::kRelaxThenSearch, IntegerSearch::kLocalSearch,
                                     IntegerSearch::kRelaxAndRound}) {
    OptimizerOptions o = SpaceOptions();
    o.maximizer_integer_search = search;
    auto run = [&](const std::string& path, int stop_after) {
      o.log_path = path;
      auto opt = std::make_unique<Optimizer>(d, nullptr, "ei", StrategyParams(), o);
      for (int i = 0; i < kRounds; ++i) {
        if (i == stop_after) {
          opt.reset();  // "crash"
          opt = Optimizer::Resume(path);
        }
        const Eigen::VectorXd z = ContextOf(d, i);
        const Eigen::VectorXd x = opt->Ask(z);
        opt->Tell(x, z, SpaceReward(d, x, z));
      }
      return opt->Fingerprint();
    };
    const std::string reference_path = testing::TempLogPath("space_resume_ref");
    const std::string reference = run(reference_path, -1);
    const std::string reference_log = testing::ReadLogWithoutLeases(reference_path);
    for (int stop : {2, 7}) {
      const std::string path = testing::TempLogPath("space_resume_" + std::to_string(stop));
      EXPECT_EQ(run(path, stop), reference) << IntegerSearchName(search) << " " << stop;
      EXPECT_EQ(testing::ReadLogWithoutLeases(path), reference_log)
          << IntegerSearchName(search) << " " << stop;
      std::remove(path.c_str());
    }
    std::remove(reference_path.c_str());
  }
}

// Right after the initial design, the label probes (OptimizerOptions::label_probes) hand out an
// observed point with the categorical moved to each of its other labels, one per ask; without
// them no ask is such a move until the model chooses one.
TEST(OptimizerSpaceTest, LabelProbesTryEveryLabelAtAnObservedPoint) {
  const Domain d = Domain::Space(
      ParseParameterSpecs({"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag,bang-bang"}));
  auto cost = [](const Eigen::VectorXd& x) {
    return std::pow(std::log10(x(0)) - 0.5, 2) + 0.02 * std::pow(x(1) - 5, 2) +
           (x(2) == 1 ? 0.0 : 0.5);
  };
  OptimizerOptions o = SpaceOptions();
  o.sense = ObjectiveSense::kMinimize;
  ASSERT_TRUE(o.label_probes);  // the default
  Optimizer opt(d, nullptr, "gp-ucb", StrategyParams(), o);
  std::vector<Eigen::VectorXd> told;
  for (int i = 0; i < o.initial_design_size; ++i) {
    told.push_back(opt.Ask());
    opt.Tell(told.back(), cost(told.back()));
  }
  std::set<double> probed;
  for (int i = 0; i < 2; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    // Equal to an earlier point but for the label.
    bool moved_label_only = false;
    for (const Eigen::VectorXd& e : told)
      moved_label_only = moved_label_only || (x.head(2).isApprox(e.head(2), 1e-12) && x(2) != e(2));
    EXPECT_TRUE(moved_label_only) << "ask " << i << ": " << x.transpose();
    probed.insert(x(2));
    told.push_back(x);
    opt.Tell(x, cost(x));
  }
  EXPECT_EQ(probed.size(), 2u);  // two different labels, neither the probed point's own
  // Every label is paired now: the next ask is the acquisition's, not a probe of the same point.
  const Eigen::VectorXd next = opt.Ask();
  for (const Eigen::VectorXd& e : told) EXPECT_FALSE(next == e) << next.transpose();
}

TEST(OptimizerSpaceTest, ASpaceStudyRefusesAnotherSpace) {
  const std::string path = testing::TempLogPath("space_mismatch");
  OptimizerOptions o = SpaceOptions();
  o.log_path = path;
  {
    Optimizer(Domain::Space(MixedController()), nullptr, "ei", o)
        .Tell(Eigen::Vector3d(1, 2, 0), 1.0);
  }
  const Domain other =
      Domain::Space(ParseParameterSpecs({"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,pd"}));
  EXPECT_THROW(Optimizer(other, nullptr, "ei", o), std::runtime_error);
  EXPECT_EQ(Optimizer::Resume(path)->domain(), Domain::Space(MixedController()));
  std::remove(path.c_str());
}

}  // namespace
}  // namespace gpbandit
