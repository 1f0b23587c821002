#include "pagmo/problem_outcomes.h"

#include <cmath>
#include <pagmo/exceptions.hpp>
#include <stdexcept>
#include <vector>

namespace gpbandit {
namespace pagmo_outcomes {

bool HasOutcomes(const pagmo::problem& prob) { return prob.get_nobj() > 1u || prob.get_nc() > 0u; }

OutcomeOptions ProblemOutcomes(const pagmo::problem& prob, const OutcomeOptions& given) {
  OutcomeOptions outcomes = given;
  outcomes.objectives.clear();
  outcomes.constraints.clear();
  for (decltype(prob.get_nobj()) i = 0; i < prob.get_nobj(); ++i)
    outcomes.objectives.push_back({"f" + std::to_string(i), /*minimize=*/true});
  const std::vector<double> c_tol = prob.get_c_tol();
  const auto nec = prob.get_nec();
  for (decltype(c_tol.size()) i = 0; i < c_tol.size(); ++i) {
    if (!std::isfinite(c_tol[i])) {
      pagmo_throw(std::invalid_argument,
                  "Non-finite constraint tolerance detected in " + prob.get_name() +
                      " instance: c_tol[" + std::to_string(i) + "] = " + std::to_string(c_tol[i]) +
                      "; gpbandit needs a finite bound for every constraint");
    }
    const bool equality = i < nec;
    const std::string name = equality ? "eq" + std::to_string(i) : "ineq" + std::to_string(i - nec);
    outcomes.constraints.push_back({name, ConstraintSense::kLessEqual, c_tol[i]});
  }
  return outcomes;
}

Eigen::VectorXd FitnessOutcomes(const pagmo::problem& prob, const double* fitness) {
  const auto nf = static_cast<Eigen::Index>(prob.get_nf());
  const auto first_equality = static_cast<Eigen::Index>(prob.get_nobj());
  const auto end_equality = first_equality + static_cast<Eigen::Index>(prob.get_nec());
  Eigen::VectorXd outcomes(nf);
  for (Eigen::Index i = 0; i < nf; ++i) {
    const bool equality = i >= first_equality && i < end_equality;
    outcomes(i) = equality ? std::abs(fitness[i]) : fitness[i];
  }
  return outcomes;
}

bool IsIndexStrategy(const std::string& strategy) {
  return strategy == "gp-ucb" || strategy == "cgp-ucb" || strategy == "igp-ucb" ||
         strategy == "tv-gp-ucb" || strategy == "r-gp-ucb";
}

std::string OutcomeStrategy(const std::string& strategy, const pagmo::problem& prob) {
  if (!IsIndexStrategy(strategy)) return strategy;
  return prob.get_nobj() > 1u ? "ehvi" : "log-ei";
}

}  // namespace pagmo_outcomes
}  // namespace gpbandit
