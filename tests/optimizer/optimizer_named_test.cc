// The Optimizer's calls with named values (optimizer/optimizer_named.cc): the conversions
// through the domain's parameter spaces around the vector calls, and the refusals when the
// domain is no space or the context is not named the way the domain's contexts are.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/space/parameter_spec.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

ParameterSpace Controller() {
  return ParseParameterSpecs({"kp=log:0.1:100", "taps=int:1:12", "mode=cat:pid,lead-lag"});
}

OptimizerOptions NamedOptions() {
  OptimizerOptions o = testing::CheapOptions();
  o.initial_design_size = 2;
  return o;
}

TEST(OptimizerNamed, TellNamedRecordsTheSpacesVector) {
  Optimizer opt(Domain::Space(Controller()), nullptr, "gp-ucb", NamedOptions());
  opt.TellNamed({{"kp", 3.5}, {"taps", 4LL}, {"mode", std::string("lead-lag")}}, 2.0);
  ASSERT_EQ(opt.observations().size(), 1u);
  EXPECT_EQ(opt.observations()[0].x, Eigen::Vector3d(3.5, 4.0, 1.0));  // the label's index
  EXPECT_EQ(opt.observations()[0].y, 2.0);
  EXPECT_EQ(opt.observations()[0].z.size(), 0);
}

TEST(OptimizerNamed, AskNamedNamesThePendingPoint) {
  Optimizer opt(Domain::Space(Controller()), nullptr, "gp-ucb", NamedOptions());
  const NamedValues p = opt.AskNamed();
  ASSERT_EQ(p.size(), 3u);
  const Eigen::MatrixXd pending = opt.pending_actions();
  ASSERT_EQ(pending.cols(), 1);
  EXPECT_EQ(std::get<double>(p.at("kp")), pending(0, 0));
  EXPECT_EQ(static_cast<double>(std::get<long long>(p.at("taps"))), pending(1, 0));
  EXPECT_EQ(std::get<std::string>(p.at("mode")), pending(2, 0) == 0.0 ? "pid" : "lead-lag");
  // Told back by name, the point is released.
  opt.TellNamed(p, 1.0);
  EXPECT_EQ(opt.pending_actions().cols(), 0);
}

TEST(OptimizerNamed, AskBatchNamedNamesEveryPointInOrder) {
  Optimizer opt(Domain::Space(Controller()), nullptr, "gp-ucb", NamedOptions());
  const std::vector<NamedValues> batch = opt.AskBatchNamed(3);
  ASSERT_EQ(batch.size(), 3u);
  const Eigen::MatrixXd pending = opt.pending_actions();
  for (int j = 0; j < 3; ++j)
    EXPECT_EQ(Controller().ToVector(batch[static_cast<std::size_t>(j)], "x"),
              Eigen::VectorXd(pending.col(j)))
        << "point " << j;
}

TEST(OptimizerNamed, NamedContextsAreTheirSpacesVectors) {
  const Domain d =
      Domain::Space(Controller())
          .WithContext(ParseParameterSpecs({"terrain=cat:grass,sand,gravel", "load=0:2"}));
  Optimizer opt(d, nullptr, "cgp-ucb", NamedOptions());
  const NamedValues context = {{"terrain", std::string("gravel")}, {"load", 1.5}};
  opt.TellNamed({{"kp", 1.0}, {"taps", 2LL}, {"mode", std::string("pid")}}, context, 0.5);
  EXPECT_EQ(opt.observations()[0].z, Eigen::Vector2d(2.0, 1.5));
  opt.AskNamed(context);
  EXPECT_EQ(Eigen::VectorXd(opt.pending_contexts().col(0)), Eigen::Vector2d(2.0, 1.5));
}

TEST(OptimizerNamed, ADomainThatIsNoSpaceIsALogicError) {
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb",
                NamedOptions());
  const std::string expected =
      " needs a domain built from a ParameterSpace (Domain::Space), not box(d=2)";
  for (const std::string call : {"AskNamed", "AskBatchNamed", "TellNamed"}) {
    try {
      if (call == "AskNamed") opt.AskNamed();
      if (call == "AskBatchNamed") opt.AskBatchNamed(2);
      if (call == "TellNamed") opt.TellNamed({{"x0", 0.5}}, 1.0);
      ADD_FAILURE() << call << ": expected std::logic_error";
    } catch (const std::logic_error& e) {
      EXPECT_EQ(std::string(e.what()), call + expected);
    }
  }
  EXPECT_EQ(opt.rounds(), 0);
  EXPECT_TRUE(opt.observations().empty());
}

TEST(OptimizerNamed, AContextGivenToADomainWithoutContextsIsRefused) {
  Optimizer opt(Domain::Space(Controller()), nullptr, "gp-ucb", NamedOptions());
  const std::string before = opt.Fingerprint();
  testing::ExpectInvalid(
      [&] {
        opt.AskNamed({{"terrain", std::string("sand")}});
      },
      "context: given, but the domain has no contexts");
  testing::ExpectInvalid(
      [&] {
        opt.TellNamed({{"kp", 1.0}, {"taps", 2LL}, {"mode", std::string("pid")}},
                      {{"terrain", std::string("sand")}}, 1.0);
      },
      "context: given, but the domain has no contexts");
  EXPECT_EQ(opt.Fingerprint(), before);
}

TEST(OptimizerNamed, ANamedContextForVectorContextsIsRefused) {
  const Domain d = Domain::Space(Controller()).WithContext(1);
  Optimizer opt(d, nullptr, "cgp-ucb", NamedOptions());
  const std::string before = opt.Fingerprint();
  testing::ExpectInvalid(
      [&] {
        opt.AskBatchNamed(2, {{"load", 1.0}});
      },
      "context: named, but the domain's contexts are not a ParameterSpace; use the vector calls");
  EXPECT_EQ(opt.Fingerprint(), before);
}

TEST(OptimizerNamed, ABadNamedValueIsRefusedNamingItAndChangesNothing) {
  Optimizer opt(Domain::Space(Controller()), nullptr, "gp-ucb", NamedOptions());
  const std::string before = opt.Fingerprint();
  testing::ExpectInvalid(
      [&] {
        opt.TellNamed({{"kp", 1000.0}, {"taps", 2LL}, {"mode", std::string("pid")}}, 1.0);
      },
      "x['kp'] = 1000");
  testing::ExpectInvalid(
      [&] {
        opt.TellNamed({{"kp", 1.0}, {"mode", std::string("pid")}}, 1.0);
      },
      "x['taps'] is missing");
  EXPECT_EQ(opt.Fingerprint(), before);
}

}  // namespace
}  // namespace gpbandit
