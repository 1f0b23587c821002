// A pagmo problem's fitness as outcomes (pagmo/problem_outcomes.h): the declared objectives and
// constraints, the |h| of equalities, and the strategy evolve runs.
#include "pagmo/problem_outcomes.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <pagmo/problem.hpp>
#include <pagmo/problems/hock_schittkowsky_71.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <pagmo/problems/zdt.hpp>
#include <stdexcept>
#include <string>

namespace gpbandit_test {

// Two objectives, two equalities and one inequality on [0, 1]^2 (the values do not matter here).
struct TwoTwoOne {
  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    return {x[0], x[1], x[0] - x[1], x[0] + x[1] - 1, x[0] - 0.5};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {{0, 0}, {1, 1}};
  }
  pagmo::vector_double::size_type get_nobj() const { return 2; }
  pagmo::vector_double::size_type get_nec() const { return 2; }
  pagmo::vector_double::size_type get_nic() const { return 1; }
};

}  // namespace gpbandit_test

namespace gpbandit {
namespace {

using gpbandit_test::TwoTwoOne;
using ::testing::HasSubstr;

TEST(ProblemOutcomesTest, DeclaresObjectivesThenEqualitiesThenInequalities) {
  pagmo::problem prob{TwoTwoOne{}};
  prob.set_c_tol({1e-3, 2e-3, 0.25});
  OutcomeOptions given;
  given.objectives = {{"cost", false}};  // replaced by the problem's
  given.constraints = {{"limit", ConstraintSense::kGreaterEqual, 3.0}};
  given.reference_point = {2.0, 3.0};
  given.feasibility_confidence = 0.9;
  given.scalarization = ScalarizationRule::kLinear;
  const OutcomeOptions o = pagmo_outcomes::ProblemOutcomes(prob, given);
  ASSERT_EQ(o.objectives.size(), 2u);
  EXPECT_EQ(o.objectives[0].name, "f0");
  EXPECT_EQ(o.objectives[1].name, "f1");
  EXPECT_TRUE(o.objectives[0].minimize);
  EXPECT_TRUE(o.objectives[1].minimize);
  ASSERT_EQ(o.constraints.size(), 3u);
  const char* names[] = {"eq0", "eq1", "ineq0"};
  const double bounds[] = {1e-3, 2e-3, 0.25};
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(o.constraints[i].name, names[i]);
    EXPECT_EQ(o.constraints[i].sense, ConstraintSense::kLessEqual);
    EXPECT_EQ(o.constraints[i].bound, bounds[i]);
  }
  EXPECT_EQ(o.reference_point, (std::vector<double>{2.0, 3.0}));
  EXPECT_EQ(o.feasibility_confidence, 0.9);
  EXPECT_EQ(o.scalarization, ScalarizationRule::kLinear);
  EXPECT_EQ(o.num_outcomes(), 5);
}

TEST(ProblemOutcomesTest, PagmoProblems) {
  const OutcomeOptions zdt = pagmo_outcomes::ProblemOutcomes(pagmo::problem{pagmo::zdt{1, 5}}, {});
  EXPECT_EQ(zdt.num_objectives(), 2);
  EXPECT_EQ(zdt.num_constraints(), 0);
  // Hock-Schittkowsky 71: one equality, one inequality, pagmo's default tolerance 0.
  const OutcomeOptions hs =
      pagmo_outcomes::ProblemOutcomes(pagmo::problem{pagmo::hock_schittkowsky_71{}}, {});
  EXPECT_EQ(hs.num_objectives(), 1);
  ASSERT_EQ(hs.num_constraints(), 2);
  EXPECT_EQ(hs.constraints[0].name, "eq0");
  EXPECT_EQ(hs.constraints[1].name, "ineq0");
  EXPECT_EQ(hs.constraints[1].bound, 0.0);
  EXPECT_TRUE(pagmo_outcomes::HasOutcomes(pagmo::problem{pagmo::zdt{1, 5}}));
  EXPECT_TRUE(pagmo_outcomes::HasOutcomes(pagmo::problem{pagmo::hock_schittkowsky_71{}}));
  EXPECT_FALSE(pagmo_outcomes::HasOutcomes(pagmo::problem{pagmo::rosenbrock{2}}));
}

TEST(ProblemOutcomesTest, EqualitiesAreToldAsTheirAbsoluteValue) {
  const pagmo::problem prob{TwoTwoOne{}};
  const double fitness[] = {0.5, -2.0, -0.25, 0.125, -3.0};
  const Eigen::VectorXd o = pagmo_outcomes::FitnessOutcomes(prob, fitness);
  ASSERT_EQ(o.size(), 5);
  // Objectives and the inequality as they are (signs kept), equalities as |h|.
  EXPECT_EQ(o(0), 0.5);
  EXPECT_EQ(o(1), -2.0);
  EXPECT_EQ(o(2), 0.25);
  EXPECT_EQ(o(3), 0.125);
  EXPECT_EQ(o(4), -3.0);
}

TEST(ProblemOutcomesTest, RefusesANonFiniteTolerance) {
  pagmo::problem prob{TwoTwoOne{}};
  prob.set_c_tol({0.0, HUGE_VAL, 0.0});
  try {
    pagmo_outcomes::ProblemOutcomes(prob, {});
    ADD_FAILURE() << "expected a rejection";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("c_tol[1]"));
    EXPECT_THAT(e.what(), HasSubstr("inf"));
  }
}

TEST(ProblemOutcomesTest, IndexStrategiesGiveWayToEhviOrLogEi) {
  const pagmo::problem several{pagmo::zdt{1, 5}};
  const pagmo::problem constrained{pagmo::hock_schittkowsky_71{}};
  for (const std::string index : {"gp-ucb", "cgp-ucb", "igp-ucb", "tv-gp-ucb", "r-gp-ucb"}) {
    EXPECT_TRUE(pagmo_outcomes::IsIndexStrategy(index)) << index;
    EXPECT_EQ(pagmo_outcomes::OutcomeStrategy(index, several), "ehvi") << index;
    EXPECT_EQ(pagmo_outcomes::OutcomeStrategy(index, constrained), "log-ei") << index;
  }
  for (const std::string other : {"gp-ts", "ei", "log-ei", "pi", "ehvi", "mean", "safe-opt"}) {
    EXPECT_FALSE(pagmo_outcomes::IsIndexStrategy(other)) << other;
    EXPECT_EQ(pagmo_outcomes::OutcomeStrategy(other, several), other);
    EXPECT_EQ(pagmo_outcomes::OutcomeStrategy(other, constrained), other);
  }
}

}  // namespace
}  // namespace gpbandit
