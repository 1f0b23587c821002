// gpbandit's strategies, through the pagmo adapter (plugin/pagmo_algorithm.h) with their
// defaults only, against pagmo's own algorithms and uniform random search, at a budget of 100
// evaluations: the same 10-point population per seed (pagmo::population{problem, 10, seed}),
// then 90 evaluations by each method. Problems: pagmo's rosenbrock (2-D and 5-D), ackley,
// griewank, rastrigin and schwefel (5-D); pagmo minimizes, the adapter negates.
//
// The pagmo algorithms get 90 evaluations: cmaes, sade, pso and de run 9 generations of their
// 10 individuals (cmaes with force_bounds); simulated_annealing n_T_adj = 9, n_range_adj = 1 and
// bin_size = 90 / (9 d) rounded down (it spends n_T_adj * n_range_adj * bin_size * d);
// compass_search max_fevals = 90; random search draws 90 uniform points. Each problem is wrapped
// in a recorder that keeps the best fitness of its first 100 evaluations (the 10 of the
// population included), so a method can never use more than the budget, and one that stops
// early (tolerances) keeps what it found.
//
// Reported: the median best fitness over the seeds per problem and method, and the two
// checks: how many problems each gpbandit strategy's median beats random search's, and on how
// many problems it beats the median of every pagmo population algorithm (cmaes, sade, pso, de).
//
// Usage: pagmo_comparison_study [--problems rosenbrock2,rosenbrock5,ackley,griewank,rastrigin,
//          schwefel] [--methods gp-ucb,igp-ucb,gp-ts,ei,log-ei,pi,mean,variance,cmaes,sade,pso,
//          de,simulated_annealing,compass_search,random] [--seeds 0-9] [--threads 1] [--jobs 1]
//          [--raw-sample-design latin-hypercube]
// (--raw-sample-design sets OptimizerOptions::maximizer_raw_sample_design of the gpbandit runs,
// the one setting that is not a default when given.)
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/cmaes.hpp>
#include <pagmo/algorithms/compass_search.hpp>
#include <pagmo/algorithms/de.hpp>
#include <pagmo/algorithms/pso.hpp>
#include <pagmo/algorithms/sade.hpp>
#include <pagmo/algorithms/simulated_annealing.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/ackley.hpp>
#include <pagmo/problems/griewank.hpp>
#include <pagmo/problems/rastrigin.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <pagmo/problems/schwefel.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/plugin/pagmo_algorithm.h"
#include "gpbandit/plugin/strategy_registry.h"
#include "run_table.h"

namespace gpbandit {
namespace {

constexpr unsigned kPopulation = 10;
constexpr unsigned kBudget = 100;
const std::vector<std::string> kPopulationAlgorithms = {"cmaes", "sade", "pso", "de"};

using Settings = bench::StudyFlags;

Settings ParseArgs(int argc, char** argv) {
  Settings defaults;
  defaults.problems =
      bench::SplitList("rosenbrock2,rosenbrock5,ackley,griewank,rastrigin,schwefel");
  defaults.names = bench::SplitList(
      "gp-ucb,igp-ucb,gp-ts,ei,log-ei,pi,mean,variance,cmaes,sade,pso,de,simulated_annealing,"
      "compass_search,random");
  defaults.seeds = bench::ParseSeeds("0-9");
  defaults.raw_sample_design = OptimizerOptions().maximizer_raw_sample_design;
  return bench::ParseStudyFlags(argc, argv, defaults, "methods");
}

// The best fitness among the first kBudget evaluations, shared by the copies of a Recorded.
struct Tally {
  unsigned evaluations = 0;
  double best = std::numeric_limits<double>::infinity();
};

// A pagmo UDP that forwards to `inner` and records every evaluation in the tally.
struct Recorded {
  pagmo::problem inner;
  std::shared_ptr<Tally> tally = std::make_shared<Tally>();

  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    pagmo::vector_double f = inner.fitness(x);
    if (tally->evaluations++ < kBudget && f[0] < tally->best) tally->best = f[0];
    return f;
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return inner.get_bounds();
  }
  std::string get_name() const { return inner.get_name(); }
};

pagmo::problem MakeProblem(const std::string& name) {
  if (name == "rosenbrock2") return pagmo::problem{pagmo::rosenbrock{2}};
  if (name == "rosenbrock5") return pagmo::problem{pagmo::rosenbrock{5}};
  if (name == "ackley") return pagmo::problem{pagmo::ackley{5}};
  if (name == "griewank") return pagmo::problem{pagmo::griewank{5}};
  if (name == "rastrigin") return pagmo::problem{pagmo::rastrigin{5}};
  if (name == "schwefel") return pagmo::problem{pagmo::schwefel{5}};
  throw std::invalid_argument("unknown problem " + name);
}

pagmo::population RandomSearch(pagmo::population pop, unsigned evaluations, unsigned seed) {
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

pagmo::algorithm MakePagmoAlgorithm(const std::string& method, unsigned dim, unsigned seed,
                                    RawSampleDesign raw_sample_design) {
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
  if (!StrategyRegistry::Default().Contains(method))
    throw std::invalid_argument("unknown method " + method);
  OptimizerOptions options;
  options.maximizer_raw_sample_design = raw_sample_design;
  return pagmo::algorithm{
      BanditAlgorithm{method, kBudget - kPopulation, 1, seed, StrategyParams(), options}};
}

// One run: "problem method seed best evaluations seconds".
std::string Run(const std::string& problem, const std::string& method, unsigned seed,
                const Settings& s) {
  omp_set_num_threads(s.threads);
  Recorded recorded{MakeProblem(problem)};
  const std::shared_ptr<Tally> tally = recorded.tally;
  const auto start = std::chrono::steady_clock::now();
  pagmo::population pop{pagmo::problem{recorded}, kPopulation, seed};
  const unsigned dim = static_cast<unsigned>(pop.get_problem().get_nx());
  if (method == "random") {
    pop = RandomSearch(pop, kBudget - kPopulation, seed);
  } else {
    pop = MakePagmoAlgorithm(method, dim, seed, s.raw_sample_design).evolve(pop);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(8);
  line << problem << " " << method << " " << seed << " " << tally->best << " " << tally->evaluations
       << " " << seconds;
  return line.str();
}

using Medians = std::vector<std::vector<double>>;  // [problem][method]

Medians PrintTable(const Settings& s, const std::vector<std::string>& lines) {
  Medians medians(s.problems.size(), std::vector<double>(s.names.size()));
  std::printf("| problem |");
  for (const std::string& m : s.names) std::printf(" %s |", m.c_str());
  std::printf("\n|---|");
  for (std::size_t m = 0; m < s.names.size(); ++m) std::printf("---|");
  std::printf("\n");
  std::size_t next = 0;
  for (std::size_t p = 0; p < s.problems.size(); ++p) {
    std::printf("| %s |", s.problems[p].c_str());
    for (std::size_t m = 0; m < s.names.size(); ++m) {
      std::vector<double> best;
      for (std::size_t k = 0; k < s.seeds.size(); ++k, ++next) {
        std::istringstream in(lines[next]);
        std::string problem, method;
        unsigned seed;
        double value;
        in >> problem >> method >> seed >> value;
        best.push_back(value);
      }
      medians[p][m] = bench::Median(best);
      std::printf(" %.3g |", medians[p][m]);
    }
    std::printf("\n");
  }
  return medians;
}

int IndexOf(const std::vector<std::string>& names, const std::string& name) {
  const auto it = std::find(names.begin(), names.end(), name);
  return it == names.end() ? -1 : static_cast<int>(it - names.begin());
}

void PrintChecks(const Settings& s, const Medians& medians) {
  const int random = IndexOf(s.names, "random");
  std::printf(
      "\n| gpbandit strategy | beats random search on | beats every population "
      "algorithm present on |\n|---|---|---|\n");
  for (std::size_t m = 0; m < s.names.size(); ++m) {
    if (!StrategyRegistry::Default().Contains(s.names[m])) continue;
    int beats_random = 0, beats_population = 0;
    for (std::size_t p = 0; p < s.problems.size(); ++p) {
      if (random >= 0 && medians[p][m] < medians[p][static_cast<std::size_t>(random)])
        ++beats_random;
      bool all = true;
      for (const std::string& a : kPopulationAlgorithms) {
        const int j = IndexOf(s.names, a);
        if (j >= 0 && !(medians[p][m] < medians[p][static_cast<std::size_t>(j)])) all = false;
      }
      beats_population += all;
    }
    std::printf("| %s | %d/%zu | %d/%zu |\n", s.names[m].c_str(), beats_random, s.problems.size(),
                beats_population, s.problems.size());
  }
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  return bench::RunStudyMain(
      "pagmo_comparison_study", [&] { return ParseArgs(argc, argv); },
      [](const Settings& s, const std::string& problem, const std::string& name, unsigned seed) {
        return Run(problem, name, seed, s);
      },
      [](const Settings& s, const std::vector<std::string>& lines) {
        PrintChecks(s, PrintTable(s, lines));
      });
}
