// A pagmo problem's fitness as gpbandit outcomes (study/outcome_options.h), for problems with
// several objectives (nobj > 1) or constraints (nec + nic > 0).
//
// pagmo's fitness is [f_0 .. f_{nobj-1}, h_0 .. h_{nec-1}, g_0 .. g_{nic-1}]: objectives, all
// minimized; equality constraints, met when |h_i| <= c_tol[i]; inequality constraints, met when
// g_i <= c_tol[nec + i] (problem::get_c_tol, pagmo's feasibility_f). As outcomes, in that order:
// objectives "f0".."f{nobj-1}" (minimize), then constraints "eq0".."eq{nec-1}" on |h_i| <=
// c_tol[i], then "ineq0".."ineq{nic-1}" on g_i <= c_tol[nec + i]. An equality is modelled
// through |h|, one outcome and one GP: the Optimizer's constraints have independent GPs, so
// the pair h <= tol, -h <= tol would have two GPs of one function and a probability of
// feasibility that multiplies their marginals as if they were independent (about 1/4 where the
// posterior of h is wide around 0, where the band's true probability is near 0). The price of
// |h| is its kink at h = 0, which a smooth kernel rounds off.
//
// Thread safety: free functions without shared state.
#ifndef GPBANDIT_PAGMO_PROBLEM_OUTCOMES_H_
#define GPBANDIT_PAGMO_PROBLEM_OUTCOMES_H_

#include <Eigen/Core>
#include <pagmo/problem.hpp>
#include <pagmo/types.hpp>
#include <string>

#include "gpbandit/study/outcome_options.h"

namespace gpbandit {
namespace pagmo_outcomes {

// True when the problem has several objectives or any constraint (nobj > 1 or nc > 0): evolve
// then tells outcomes. False: the one objective of the single-objective path.
bool HasOutcomes(const pagmo::problem& prob);

// The outcome declaration above. The reference point, feasibility confidence and scalarization
// are those of `given`; its objectives and constraints are replaced by the problem's. Throws
// std::invalid_argument (pagmo-style) for a non-finite c_tol entry, naming it.
OutcomeOptions ProblemOutcomes(const pagmo::problem& prob, const OutcomeOptions& given);

// The outcomes of one fitness vector (prob.get_nf() values at `fitness`), in the order of
// ProblemOutcomes: the objectives and inequalities as they are, each equality as |h|.
Eigen::VectorXd FitnessOutcomes(const pagmo::problem& prob, const double* fitness);

// The index strategies of the registry: a UCB index mu + b sigma (gp-ucb, cgp-ucb, igp-ucb,
// tv-gp-ucb, r-gp-ucb).
bool IsIndexStrategy(const std::string& strategy);

// The strategy evolve runs on a problem with outcomes: "ehvi" (several objectives) or "log-ei"
// (one constrained objective) when `strategy` is an index strategy; otherwise `strategy`.
std::string OutcomeStrategy(const std::string& strategy, const pagmo::problem& prob);

}  // namespace pagmo_outcomes
}  // namespace gpbandit

#endif  // GPBANDIT_PAGMO_PROBLEM_OUTCOMES_H_
