#include "gpbandit/pagmo/pagmo_algorithm.h"

#include <omp.h>
#include <pthread.h>

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <mutex>
#include <pagmo/exceptions.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/types.hpp>
#include <sstream>
#include <stdexcept>
#include <utility>

#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/space/parameter_space.h"
#include "gpbandit/study/log_header.h"
#include "pagmo/problem_outcomes.h"

namespace gpbandit {
namespace {

// libgomp's thread pool does not survive fork(): a child that enters a parallel region can
// hang. Children (pagmo's fork islands) therefore run OpenMP on one thread; results do not
// depend on the thread count, so this changes nothing but speed. Buffered output is flushed
// before the fork so that the child does not print it a second time.
std::atomic<bool> in_fork_child{false};

void FlushBeforeFork() {
  std::cout.flush();
  std::fflush(stdout);
}
void SingleThreadedChild() {
  omp_set_num_threads(1);
  in_fork_child = true;  // also overrides an explicit OptimizerOptions::num_threads
}

void InstallForkHandlers() {
  static std::once_flag once;
  std::call_once(once, [] { pthread_atfork(&FlushBeforeFork, nullptr, &SingleThreadedChild); });
}

std::uint64_t EvolveSeed(unsigned seed, unsigned long long evolve) {
  return (static_cast<std::uint64_t>(seed) << 32) ^ static_cast<std::uint64_t>(evolve);
}

}  // namespace

BanditAlgorithm::BanditAlgorithm(const std::string& strategy, unsigned rounds, unsigned batch_size,
                                 unsigned seed, const StrategyParams& strategy_options,
                                 const OptimizerOptions& options)
    : strategy_(strategy), rounds_(rounds), batch_size_(batch_size), seed_(seed) {
  if (batch_size == 0)
    pagmo_throw(std::invalid_argument, "The batch size must be >= 1, while a value of 0 was given");
  if (!options.outcomes.objectives.empty() || !options.outcomes.constraints.empty())
    pagmo_throw(std::invalid_argument,
                "Invalid options: outcomes.objectives and outcomes.constraints must be empty: a "
                "pagmo problem's fitness declares them (set only outcomes.reference_point, "
                "feasibility_confidence and scalarization)");
  // The reference point has one entry per objective of the problem, which evolve checks.
  OptimizerOptions checked = options;
  checked.outcomes.reference_point.clear();
  std::string error;
  if (!checked.IsValid(&error)) pagmo_throw(std::invalid_argument, "Invalid options: " + error);
  // Validates the name and the strategy options now rather than at the first evolve.
  if (StrategyRegistry::Default().Create(strategy, strategy_options)->num_constraints() > 0)
    pagmo_throw(std::invalid_argument,
                "Strategy '" + strategy +
                    "' models measured constraint signals, which a pagmo problem does not "
                    "report; give it a threshold on the reward only");
  // Stored settings are valid options: a reference point comes with as many stand-in objectives
  // (evolve replaces them by the problem's, optimizer_options leaves them out).
  OptimizerOptions stored = options;
  for (std::size_t i = 0; i < options.outcomes.reference_point.size(); ++i)
    stored.outcomes.objectives.push_back({"f" + std::to_string(i), /*minimize=*/true});
  settings_ = FormatSettings(
      strategy, StrategyRegistry::Default().ResolveOptions(strategy, strategy_options), stored);
  InstallForkHandlers();
}

void BanditAlgorithm::set_seed(unsigned seed) {
  seed_ = seed;
  evolves_ = 0;
}

StrategyParams BanditAlgorithm::strategy_options() const {
  std::string name;
  StrategyParams s;
  OptimizerOptions o;
  ParseSettings(settings_, &name, &s, &o);
  return s;
}

OptimizerOptions BanditAlgorithm::optimizer_options() const {
  std::string name;
  StrategyParams s;
  OptimizerOptions o;
  ParseSettings(settings_, &name, &s, &o);
  o.outcomes.objectives.clear();  // the stand-ins of a given reference point
  return o;
}

std::string BanditAlgorithm::get_name() const {
  return "gpbandit: Gaussian-process bandit (" + strategy_ + ")";
}

std::string BanditAlgorithm::get_extra_info() const {
  std::ostringstream s;
  s << "\tStrategy: " << strategy_ << "\n\tStrategy options: " << strategy_options().json()
    << "\n\tRounds: " << rounds_ << "\n\tBatch size: " << batch_size_ << "\n\tSeed: " << seed_
    << "\n\tVerbosity: " << verbosity_ << "\n";
  return s.str();
}

void BanditAlgorithm::CheckEvolvable(const pagmo::population& pop) const {
  const pagmo::problem& prob = pop.get_problem();
  const auto bounds = prob.get_bounds();
  for (decltype(bounds.first.size()) i = 0; i < bounds.first.size(); ++i) {
    if (!std::isfinite(bounds.first[i]) || !std::isfinite(bounds.second[i])) {
      pagmo_throw(std::invalid_argument, "Non-finite bounds detected in " + prob.get_name() +
                                             " instance at index " + std::to_string(i) + ": [" +
                                             std::to_string(bounds.first[i]) + ", " +
                                             std::to_string(bounds.second[i]) + "]. " + get_name() +
                                             " needs a finite box");
    }
  }
  if (pop.size() == 0u) {
    pagmo_throw(std::invalid_argument,
                get_name() + " needs at least 1 individual in the population, 0 detected");
  }
  // The constraints' tolerances are the outcomes' bounds: a non-finite one is refused here.
  if (pagmo_outcomes::HasOutcomes(prob)) pagmo_outcomes::ProblemOutcomes(prob, OutcomeOptions());
}

std::string BanditAlgorithm::strategy_for(const pagmo::problem& prob) const {
  if (!pagmo_outcomes::HasOutcomes(prob)) return strategy_;
  return pagmo_outcomes::OutcomeStrategy(strategy_, prob);
}

pagmo::vector_double BanditAlgorithm::Evaluate(const pagmo::problem& prob,
                                               const Eigen::MatrixXd& X) const {
  if (batch_size_ == 1u) return prob.fitness(pagmo::vector_double(X.data(), X.data() + X.rows()));
  // Column-major storage puts the points one after another, as pagmo's bfe expects.
  return bfe_(prob, pagmo::vector_double(X.data(), X.data() + X.size()));
}

void BanditAlgorithm::LogProgress(unsigned round, const pagmo::problem& prob, double best,
                                  const Optimizer& optimizer, unsigned* printed,
                                  const std::string& best_name) const {
  const double figure = optimizer.figure();
  if (*printed % 50u == 0u) {
    std::cout << std::setw(7) << "Round:" << std::setw(10) << "Fevals:" << std::setw(16)
              << (best_name + ":") << std::setw(16) << (optimizer.figure_name() + ":")
              << std::setw(8) << "N:" << '\n';
  }
  std::cout << std::setw(7) << round << std::setw(10) << prob.get_fevals() << std::setw(16) << best
            << std::setw(16) << figure << std::setw(8) << optimizer.num_accepted() << std::endl;
  ++*printed;
  log_.emplace_back(round, prob.get_fevals(), best, figure,
                    static_cast<unsigned>(optimizer.num_accepted()));
}

namespace {

// The problem's box, as a parameter space when it has an integer part: the first nx - nix
// variables are reals x0, x1, ..., the last nix integers (pagmo's integer bounds are integral),
// so that every point the optimizer hands out keeps them integral.
Domain ProblemDomain(const pagmo::problem& prob) {
  const auto bounds = prob.get_bounds();
  const auto dim = static_cast<Eigen::Index>(bounds.first.size());
  const Eigen::Map<const Eigen::VectorXd> lower(bounds.first.data(), dim),
      upper(bounds.second.data(), dim);
  if (prob.get_nix() == 0u) return Domain::Box(lower, upper);
  const auto first_integer = dim - static_cast<Eigen::Index>(prob.get_nix());
  std::vector<Parameter> parameters;
  for (Eigen::Index i = 0; i < dim; ++i) {
    const std::string name = "x" + std::to_string(i);
    if (i < first_integer) {
      parameters.push_back(Parameter::Real(name, lower(i), upper(i)));
    } else {
      parameters.push_back(Parameter::Integer(name, static_cast<long long>(lower(i)),
                                              static_cast<long long>(upper(i))));
    }
  }
  return Domain::Space(ParameterSpace(std::move(parameters)));
}

// The population's evaluated individuals are the initial data, except those outside the box
// (a user's individuals are not data about the box) or with a non-finite fitness.
void TellPopulation(const pagmo::population& pop, const Domain& domain, Optimizer* optimizer) {
  const auto& xs = pop.get_x();
  const auto& fs = pop.get_f();
  for (decltype(pop.size()) i = 0; i < pop.size(); ++i) {
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(xs[i].data(), static_cast<Eigen::Index>(xs[i].size()));
    const double cost = fs[i][0];
    if (!std::isfinite(cost)) continue;
    try {
      domain.CheckAction(x, "x");
    } catch (const std::invalid_argument&) {
      continue;
    }
    optimizer->Tell(x, cost);
  }
}

}  // namespace

pagmo::population BanditAlgorithm::evolve(pagmo::population pop) const {
  CheckEvolvable(pop);
  log_.clear();
  if (rounds_ == 0u) return pop;
  const pagmo::problem& prob = pop.get_problem();
  std::string name;
  StrategyParams strategy_options;
  OptimizerOptions options;
  ParseSettings(settings_, &name, &strategy_options, &options);
  options.seed = EvolveSeed(seed_, evolves_++);
  // pagmo minimizes fitness: the optimizer is told costs (exactly the negated-reward run).
  options.sense = ObjectiveSense::kMinimize;
  // Islands of an archipelago would all append to one file, each with its own seed.
  options.log_path.clear();
  if (in_fork_child) options.num_threads = 1;
  if (pagmo_outcomes::HasOutcomes(prob)) return EvolveOutcomes(std::move(pop), std::move(options));
  // One objective, no constraints: the optimizer's single-objective Tell.
  options.outcomes = OutcomeOptions();
  const auto dim = static_cast<Eigen::Index>(prob.get_nx());
  const Domain domain = ProblemDomain(prob);
  Optimizer optimizer(domain, nullptr, strategy_, strategy_options, options);
  TellPopulation(pop, domain, &optimizer);

  double best = std::numeric_limits<double>::infinity();
  for (const auto& f : pop.get_f()) best = std::min(best, f[0]);
  unsigned printed = 0;
  for (unsigned round = 1; round <= rounds_; ++round) {
    const Eigen::MatrixXd X = optimizer.AskBatch(static_cast<int>(batch_size_));
    const pagmo::vector_double fitnesses = Evaluate(prob, X);
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const double f = fitnesses[static_cast<std::size_t>(j)];
      optimizer.Tell(X.col(j), f);
      pop.push_back(pagmo::vector_double(X.col(j).data(), X.col(j).data() + dim),
                    pagmo::vector_double{f});
      if (std::isfinite(f)) best = std::min(best, f);
    }
    if (verbosity_ > 0u && (round % verbosity_ == 0u || round == rounds_))
      LogProgress(round, prob, best, optimizer, &printed);
  }
  return pop;
}

namespace {

// As TellPopulation, with every entry of the fitness as an outcome: individuals with a
// non-finite entry anywhere are left out like those outside the box.
void TellPopulationOutcomes(const pagmo::population& pop, const Domain& domain,
                            Optimizer* optimizer) {
  const pagmo::problem& prob = pop.get_problem();
  const auto& xs = pop.get_x();
  const auto& fs = pop.get_f();
  for (decltype(pop.size()) i = 0; i < pop.size(); ++i) {
    const Eigen::VectorXd x =
        Eigen::Map<const Eigen::VectorXd>(xs[i].data(), static_cast<Eigen::Index>(xs[i].size()));
    const Eigen::VectorXd outcomes = pagmo_outcomes::FitnessOutcomes(prob, fs[i].data());
    if (!outcomes.allFinite()) continue;
    try {
      domain.CheckAction(x, "x");
    } catch (const std::invalid_argument&) {
      continue;
    }
    optimizer->TellOutcomes(x, Eigen::VectorXd(), outcomes);
  }
}

// The best objective among the feasible finite fitnesses (pagmo's feasibility_f), +inf if none.
double BestFeasible(const pagmo::problem& prob, const pagmo::vector_double& f, double best) {
  if (std::isfinite(f[0]) && f[0] < best && prob.feasibility_f(f)) return f[0];
  return best;
}

}  // namespace

pagmo::population BanditAlgorithm::EvolveOutcomes(pagmo::population pop,
                                                  OptimizerOptions options) const {
  const pagmo::problem& prob = pop.get_problem();
  options.outcomes = pagmo_outcomes::ProblemOutcomes(prob, options.outcomes);
  const std::string strategy = strategy_for(prob);
  StrategyParams strategy_options;
  if (strategy == strategy_) {
    std::string name;
    OptimizerOptions ignored;
    ParseSettings(settings_, &name, &strategy_options, &ignored);
  }
  const auto dim = static_cast<Eigen::Index>(prob.get_nx());
  const auto nf = static_cast<std::size_t>(prob.get_nf());
  const bool several = prob.get_nobj() > 1u;
  const Domain domain = ProblemDomain(prob);
  Optimizer optimizer(domain, nullptr, strategy, strategy_options, options);
  TellPopulationOutcomes(pop, domain, &optimizer);

  double best = std::numeric_limits<double>::infinity();
  if (!several)
    for (const auto& f : pop.get_f()) best = BestFeasible(prob, f, best);
  unsigned printed = 0;
  for (unsigned round = 1; round <= rounds_; ++round) {
    const Eigen::MatrixXd X = optimizer.AskBatch(static_cast<int>(batch_size_));
    const pagmo::vector_double fitnesses = Evaluate(prob, X);
    for (Eigen::Index j = 0; j < X.cols(); ++j) {
      const auto first = fitnesses.begin() + static_cast<std::ptrdiff_t>(nf) * j;
      pagmo::vector_double f(first, first + static_cast<std::ptrdiff_t>(nf));
      optimizer.TellOutcomes(X.col(j), Eigen::VectorXd(),
                             pagmo_outcomes::FitnessOutcomes(prob, f.data()));
      if (!several) best = BestFeasible(prob, f, best);
      pop.push_back(pagmo::vector_double(X.col(j).data(), X.col(j).data() + dim), std::move(f));
    }
    if (verbosity_ > 0u && (round % verbosity_ == 0u || round == rounds_)) {
      if (several) {
        LogProgress(round, prob, optimizer.Hypervolume(), optimizer, &printed, "Hypervolume");
      } else {
        LogProgress(round, prob, best, optimizer, &printed);
      }
    }
  }
  return pop;
}

}  // namespace gpbandit

PAGMO_S11N_ALGORITHM_IMPLEMENT(gpbandit::BanditAlgorithm)
