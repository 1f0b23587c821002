// The reference methods of the pagmo studies (pagmo_comparison_study, pagmo_heldout_study) at a
// budget of 100 evaluations: a 10-point population (pagmo::population{problem, 10, seed}), then
// 90 evaluations by one of
// - pagmo's cmaes, sade, pso and de: 9 generations of the 10 individuals (cmaes with
//   force_bounds);
// - simulated_annealing: n_T_adj = 9, n_range_adj = 1 and bin_size = 90 / (9 d) rounded down
//   (it spends n_T_adj * n_range_adj * bin_size * d);
// - compass_search: max_fevals = 90;
// - random: 90 uniform points of the box;
// - a gpbandit strategy through the pagmo adapter, BanditAlgorithm{name, 90, 1, seed, params,
//   options}.
// Includes pagmo: bench programs only.
#ifndef GPBANDIT_BENCH_PAGMO_REFERENCES_H_
#define GPBANDIT_BENCH_PAGMO_REFERENCES_H_

#include <algorithm>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/algorithms/compass_search.hpp>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/pso.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/algorithms/simulated_annealing.hpp>
#include <pagmo/population.hpp>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/pagmo/pagmo_algorithm.h"

namespace gpbandit {
namespace bench {

constexpr unsigned kPopulation = 10;
constexpr unsigned kBudget = 100;
// The population algorithms of the issues' checks.
inline const std::vector<std::string>& PopulationAlgorithms() {
  static const std::vector<std::string> names = {"cmaes", "sade", "pso", "de"};
  return names;
}

// pop plus `evaluations` uniform points of the problem's box.
inline pagmo::population RandomSearch(pagmo::population pop, unsigned evaluations, unsigned seed) {
  const auto bounds = pop.get_problem().get_bounds();
  std::mt19937_64 rng(seed);
  for (unsigned i = 0; i < evaluations; ++i) {
    pagmo::vector_double x(bounds.first.size());
    for (std::size_t j = 0; j < x.size(); ++j)
      x[j] = std::uniform_real_distribution<double>(bounds.first[j], bounds.second[j])(rng);
    pop.push_back(x);
  }
  return pop;
}

// True for the pagmo algorithms this header builds.
inline bool IsPagmoReference(const std::string& method) {
  return method == "cmaes" || method == "sade" || method == "pso" || method == "de" ||
         method == "simulated_annealing" || method == "compass_search";
}

// One of the pagmo algorithms above, or else the gpbandit strategy `method` with `params` and
// `options` (throws std::invalid_argument for a name that is neither).
inline pagmo::algorithm MakeReferenceAlgorithm(const std::string& method, unsigned dim,
                                               unsigned seed, const std::string& strategy,
                                               const StrategyParams& params,
                                               const OptimizerOptions& options) {
  const unsigned generations = (kBudget - kPopulation) / kPopulation;
  if (method == "cmaes")
    return pagmo::algorithm{
        pagmo::cmaes{generations, -1, -1, -1, -1, 0.5, 1e-6, 1e-6, false, true, seed}};
  if (method == "sade")
    return pagmo::algorithm{pagmo::sade{generations, 2u, 1u, 1e-6, 1e-6, false, seed}};
  if (method == "pso")
    return pagmo::algorithm{
        pagmo::pso{generations, 0.7298, 2.05, 2.05, 0.5, 5u, 2u, 4u, false, seed}};
  if (method == "de")
    return pagmo::algorithm{pagmo::de{generations, 0.8, 0.9, 2u, 1e-6, 1e-6, seed}};
  if (method == "simulated_annealing") {
    const unsigned bin_size = std::max(1u, (kBudget - kPopulation) / (9u * dim));
    return pagmo::algorithm{pagmo::simulated_annealing{10., .1, 9u, 1u, bin_size, 1., seed}};
  }
  if (method == "compass_search")
    return pagmo::algorithm{pagmo::compass_search{kBudget - kPopulation, .1, .01, .5}};
  if (!StrategyRegistry::Default().Contains(strategy))
    throw std::invalid_argument("unknown method " + method);
  return pagmo::algorithm{
      BanditAlgorithm{strategy, kBudget - kPopulation, 1, seed, params, options}};
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_PAGMO_REFERENCES_H_
