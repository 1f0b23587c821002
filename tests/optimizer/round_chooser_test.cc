// The contract of optimizer/round_chooser.h that every chooser keeps (box, finite set, mixed,
// safe on a box and on a finite set): Choose returns a legal action of the domain, the same one
// for the same random stream, records a finite set's candidate in call->chosen_candidate and
// nothing otherwise, consults the strategy, and reports an acquisition value (NaN when the
// chooser has none).
#include "optimizer/round_chooser.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <ostream>
#include <string>

#include "gpbandit/space/parameter_spec.h"
#include "tests/optimizer/chooser_test_util.h"

namespace gpbandit {
namespace {

using testing::ChooserBench;

struct ChooserCase {
  std::string name;
  std::function<Domain()> domain;
  // The chooser for the bench, after the case has set the strategy's answers.
  std::function<std::unique_ptr<RoundChooser>(ChooserBench*)> make;
  bool has_value;  // whether the chooser reports an acquisition value
};

// GoogleTest names a case by its name rather than by its bytes.
void PrintTo(const ChooserCase& c, std::ostream* os) { *os << c.name; }

Eigen::MatrixXd FourCandidates() {
  Eigen::MatrixXd c(2, 4);
  c << 0.0, 1.0, 2.0, 4.0,  //
      3.0, 1.0, 0.0, 2.0;
  return c;
}

ChooserCase BoxCase() {
  return {"box", [] { return Domain::Box(Eigen::Vector2d(-1, 10), Eigen::Vector2d(3, 20)); },
          [](ChooserBench* b) {
            b->strategy.acquisition = testing::Bowl(Eigen::Vector2d(0.3, 0.6));
            return MakeBoxChooser();
          },
          true};
}

ChooserCase FiniteSetCase() {
  return {"finite_set", [] { return Domain::FiniteSet(FourCandidates()); },
          [](ChooserBench* b) {
            b->strategy.scores = Eigen::Vector4d(0.1, 0.9, 0.4, 0.2);
            return MakeFiniteSetChooser();
          },
          true};
}

ChooserCase MixedCase() {
  return {"mixed",
          [] {
            return Domain::Space(ParseParameterSpecs({"n=int:1:5", "mode=cat:a,b", "r=0:1"}));
          },
          [](ChooserBench* b) {
            b->strategy.acquisition = testing::Bowl(Eigen::Vector3d(0.5, 1.0, 0.3));
            return MakeMixedChooser();
          },
          true};
}

ChooserCase SafeBoxCase() {
  return {"safe_box", [] { return Domain::Box(Eigen::Vector2d(-1, 10), Eigen::Vector2d(3, 20)); },
          [](ChooserBench* b) {
            b->strategy.safe_choice = Eigen::Vector2d(0.25, 0.5);
            return MakeSafeChooser(Eigen::Vector2d(0.0, 15.0), Eigen::Vector2d(0.25, 0.5));
          },
          false};
}

ChooserCase SafeFiniteSetCase() {
  return {"safe_finite_set", [] { return Domain::FiniteSet(FourCandidates()); },
          [](ChooserBench* b) {
            b->strategy.safe_choice = b->round.unit_candidates.col(3);
            return MakeSafeChooser(Eigen::Vector2d(1.0, 1.0), Eigen::Vector2d(0.25, 1.0 / 3.0));
          },
          false};
}

class RoundChooserContract : public ::testing::TestWithParam<ChooserCase> {};

TEST_P(RoundChooserContract, ReturnsALegalActionAndConsultsTheStrategy) {
  ChooserBench b(GetParam().domain());
  const std::unique_ptr<RoundChooser> chooser = GetParam().make(&b);
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(9);
  const Eigen::VectorXd x = chooser->Choose(b.Inputs(), 0, rng, &call, &value);
  ASSERT_EQ(x.size(), b.domain.action_dim());
  EXPECT_NO_THROW(b.domain.CheckAction(x, "chosen"));
  EXPECT_EQ(b.strategy.calls, 1);
  EXPECT_EQ(std::isfinite(value), GetParam().has_value) << "value " << value;
}

TEST_P(RoundChooserContract, RecordsACandidateExactlyOnAFiniteSet) {
  ChooserBench b(GetParam().domain());
  const std::unique_ptr<RoundChooser> chooser = GetParam().make(&b);
  AskCall call = b.Call(1);
  double value = std::nan("");
  Rng rng(9);
  const Eigen::VectorXd x = chooser->Choose(b.Inputs(), 0, rng, &call, &value);
  if (b.domain.kind() != DomainKind::kFiniteSet) {
    EXPECT_TRUE(call.chosen_candidate.empty());
    return;
  }
  ASSERT_EQ(call.chosen_candidate.size(), 1u);
  EXPECT_EQ(x, Eigen::VectorXd(b.domain.candidates().col(call.chosen_candidate[0])));
}

TEST_P(RoundChooserContract, TheSameStreamGivesTheSameAction) {
  ChooserBench b(GetParam().domain());
  const std::unique_ptr<RoundChooser> chooser = GetParam().make(&b);
  AskCall first = b.Call(1), second = b.Call(1);
  double value = std::nan("");
  Rng rng1(9), rng2(9);
  EXPECT_EQ(chooser->Choose(b.Inputs(), 0, rng1, &first, &value),
            chooser->Choose(b.Inputs(), 0, rng2, &second, &value));
  EXPECT_EQ(first.chosen_candidate, second.chosen_candidate);
}

INSTANTIATE_TEST_SUITE_P(Choosers, RoundChooserContract,
                         ::testing::Values(BoxCase(), FiniteSetCase(), MixedCase(), SafeBoxCase(),
                                           SafeFiniteSetCase()),
                         [](const ::testing::TestParamInfo<ChooserCase>& info) {
                           return info.param.name;
                         });

}  // namespace
}  // namespace gpbandit
