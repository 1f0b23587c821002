// gpbandit as a pagmo2 user-defined algorithm: any registered strategy, by name.
//
//   pagmo::problem prob{pagmo::rosenbrock{2}};
//   pagmo::population pop{prob, 5, 42};
//   pagmo::algorithm algo{gpbandit::BanditAlgorithm{"igp-ucb", 30}};
//   pagmo::algorithm tuned{gpbandit::BanditAlgorithm{
//       "gp-ucb", 30, 1, 42, gpbandit::StrategyParams(R"({"beta_scale": 0.2})")}};
//   pop = algo.evolve(pop);
//
// evolve(pop): the population's evaluated individuals are the initial data (no evaluation
// wasted; individuals outside the bounds or with a non-finite fitness are left out of the
// model), then `rounds` rounds each ask the Optimizer (optimizer.h) for one point, or for
// batch_size points evaluated through pagmo's bfe, call the problem's fitness (counted in
// get_fevals), tell the fitness to an optimizer set to ObjectiveSense::kMinimize (pagmo
// minimizes; whatever sense the options give is overridden), and append the
// new individuals to the population, which is returned (it grows by rounds * batch_size).
//
// A non-finite fitness follows options.non_finite_rewards: evolve throws (the default), or the
// individual is kept in the population but left out of the model (kSkip), or enters the model
// with the worst reward so far, which keeps later rounds away from it (kImputeWorst).
//
// Seeding: evolve number k (0-based, since construction or set_seed) runs an Optimizer seeded by
// (seed, k), so two algorithms with the same seed give identical populations and logs.
//
// Mixed-integer problems (get_nix() > 0): the last nix variables are integers of the
// optimizer's parameter space (parameter_space.h), searched over their levels by the mixed
// maximizer, so every individual evolve adds keeps them integral; the population's individuals
// with non-integral values there are left out of the model like those outside the bounds.
//
// Several objectives and constraints (nobj > 1, nec > 0 or nic > 0): the fitness
// [f_0 .. f_{nobj-1}, h_0 .. h_{nec-1}, g_0 .. g_{nic-1}] is told as outcomes
// (OptimizerOptions::outcomes, study/outcome_options.h; Optimizer::TellOutcomes): objectives
// "f0".."f{nobj-1}", all minimized; for each equality i a constraint "eq{i}" on |h_i| <=
// c_tol[i] (the equality is modelled through |h|: one GP per equality; its kink at h = 0 is
// rounded off by a smooth kernel, so a narrow band takes more rounds to find: |h| <= 0.05 took
// about 40 rounds on a 2-D test problem, |h| <= 0.02 about 60); for each inequality i a
// constraint "ineq{i}" g_i <= c_tol[nec + i] (problem::get_c_tol, so "feasible" means what
// pagmo's feasibility_f and compare_fc mean). pagmo's default c_tol is 0, which a continuous
// search meets for an equality with probability 0: give such problems a tolerance
// (problem::set_c_tol). Of options.outcomes, the reference point (one entry per objective, in
// fitness units: an upper limit; empty: inferred, outcome_options.h), the feasibility confidence
// and the scalarization are used; its objectives and constraints must be left empty (the
// constructor refuses them: the problem declares them). A reference point of your own, when you
// know one, counts only the part of the front you care about (docs/outcomes.md compares the
// two on pagmo's problems). An individual with a non-finite entry anywhere in its fitness is a
// failed evaluation (options.non_finite_rewards, as above).
//
// The strategy on such problems (strategy_for): an index strategy (gp-ucb, the default, and
// cgp-ucb, igp-ucb, tv-gp-ucb, r-gp-ucb) is replaced by "ehvi" (log expected hypervolume
// improvement) for nobj > 1 and by "log-ei" (constrained log EI) for one constrained objective,
// with their default options (the given strategy options are then not used); every other
// registered strategy runs as given (gp-ts under a random Chebyshev scalarization for several
// objectives, SCBO's rule for constraints; ei, pi weighted by the probability of feasibility),
// except safe-opt, whose safety signals the Optimizer does not combine with declared outcomes
// (evolve passes on its std::invalid_argument).
// docs/outcomes.md, "Measured: pagmo's problems", has the measurements behind the choice.
//
// The returned population is the input with the evaluated individuals appended, as for one
// objective, so pagmo's own ranking applies to it: for one constrained objective, champion_x
// and champion_f are the best individual by pagmo::compare_fc (feasible first; an infeasible
// champion when nothing feasible was found); for several objectives pagmo has no champion
// (champion_x and champion_f throw, pagmo's behaviour for every multi-objective population):
// use pagmo::non_dominated_front_2d, pagmo::fast_non_dominated_sorting or
// pagmo::hypervolume(pop) on it (pagmo refuses hypervolume(pop) for a constrained problem:
// there, pagmo::hypervolume of the feasible individuals' objectives). Single-objective
// unconstrained problems take exactly the path above, unchanged.
//
// Rejected, with pagmo-style messages (std::invalid_argument): non-finite bounds, a non-finite
// c_tol entry, an empty population. thread_safety::basic. Fork
// islands: libgomp is not fork-safe, so a child of fork() is switched to one OpenMP thread
// (pthread_atfork handler registered by the constructor), and std::cout is flushed before a
// fork so that buffered output is not printed twice.
//
// This header includes pagmo; include it only where pagmo is used.
#ifndef GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_
#define GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_

#include <Eigen/Core>
#include <pagmo/algorithm.hpp>
#include <pagmo/bfe.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/s11n.hpp>
#include <pagmo/threading.hpp>
#include <string>
#include <tuple>
#include <vector>

#include "gpbandit/acquisition/strategy_params.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

class Optimizer;

class BanditAlgorithm {
 public:
  // One log line per `verbosity` rounds: round, fevals, best fitness so far (pagmo's sign; for
  // one constrained objective the best feasible one, +inf before any; for several objectives
  // the Optimizer's Hypervolume() of its front instead), the strategy's figure (beta_t, v_t, xi;
  // NaN in design rounds), number of observations in the model.
  using log_line_type = std::tuple<unsigned, unsigned long long, double, double, unsigned>;
  using log_type = std::vector<log_line_type>;

  // strategy: a registered name (StrategyRegistry::Default()); strategy_options: its
  // parameters over its defaults (keys in the strategy's header, e.g. acquisition/gp_ucb.h);
  // rounds >= 0; batch_size >= 1 (> 1 evaluates through the bfe); options.seed is ignored
  // (see `seed`), and so is options.log_path (the islands of an archipelago would share one
  // file). Throws std::invalid_argument for an unknown strategy, batch_size 0, invalid
  // strategy or optimizer options, or outcomes.objectives or outcomes.constraints declared
  // (the size of outcomes.reference_point is checked by evolve, against the problem).
  explicit BanditAlgorithm(const std::string& strategy = "gp-ucb", unsigned rounds = 10,
                           unsigned batch_size = 1, unsigned seed = pagmo::random_device::next(),
                           const StrategyParams& strategy_options = StrategyParams(),
                           const OptimizerOptions& options = OptimizerOptions());

  pagmo::population evolve(pagmo::population pop) const;

  // The strategy evolve runs on `prob`: strategy() for a single-objective unconstrained problem
  // and for strategies that are not index strategies; otherwise "ehvi" (nobj > 1) or "log-ei".
  std::string strategy_for(const pagmo::problem& prob) const;

  void set_seed(unsigned seed);
  unsigned get_seed() const { return seed_; }
  // 0: silent; n > 0: print and log a line every n rounds (a header every 50 lines).
  void set_verbosity(unsigned level) { verbosity_ = level; }
  unsigned get_verbosity() const { return verbosity_; }
  // The batch evaluator used when batch_size > 1. Default pagmo::bfe{} (default_bfe).
  void set_bfe(const pagmo::bfe& b) { bfe_ = b; }

  std::string get_name() const;
  std::string get_extra_info() const;
  // The log of the last evolve.
  const log_type& get_log() const { return log_; }
  pagmo::thread_safety get_thread_safety() const { return pagmo::thread_safety::basic; }

  const std::string& strategy() const { return strategy_; }
  unsigned rounds() const { return rounds_; }
  unsigned batch_size() const { return batch_size_; }
  // Every option of the strategy: its defaults with the given ones over them.
  StrategyParams strategy_options() const;
  OptimizerOptions optimizer_options() const;

  template <typename Archive>
  void serialize(Archive& ar, unsigned) {
    pagmo::detail::archive(ar, strategy_, rounds_, batch_size_, seed_, evolves_, verbosity_, log_,
                           settings_, bfe_);
  }

 private:
  // Throws (pagmo-style) for a problem or population evolve cannot work on.
  void CheckEvolvable(const pagmo::population& pop) const;
  // The fitnesses of the columns of X (one each, pagmo's sign), through the bfe if batched.
  pagmo::vector_double Evaluate(const pagmo::problem& prob, const Eigen::MatrixXd& X) const;
  // Prints and logs one progress line (a header every 50 lines; best_name heads the best column).
  void LogProgress(unsigned round, const pagmo::problem& prob, double best,
                   const Optimizer& optimizer, unsigned* printed,
                   const std::string& best_name = "Best") const;
  // The rounds of evolve for a problem with several objectives or constraints (options ready
  // but for the outcomes, which this sets).
  pagmo::population EvolveOutcomes(pagmo::population pop, OptimizerOptions options) const;

  std::string strategy_;
  unsigned rounds_;
  unsigned batch_size_;
  unsigned seed_;
  // Evolves run since construction or set_seed: evolve k seeds its optimizer with (seed, k).
  mutable unsigned long long evolves_ = 0;
  unsigned verbosity_ = 0;
  mutable log_type log_;
  // The strategy's options and OptimizerOptions as JSON (log_header.h, FormatSettings), which
  // keeps serialization to one string whatever fields the option structs grow.
  std::string settings_;
  pagmo::bfe bfe_;
};

}  // namespace gpbandit

PAGMO_S11N_ALGORITHM_EXPORT_KEY(gpbandit::BanditAlgorithm)

#endif  // GPBANDIT_PAGMO_PAGMO_ALGORITHM_H_
