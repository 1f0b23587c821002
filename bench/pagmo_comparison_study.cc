// gpbandit's strategies, through the pagmo adapter (pagmo/pagmo_algorithm.h) with their
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
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/ackley.hpp>
#include <pagmo/problems/griewank.hpp>
#include <pagmo/problems/rastrigin.hpp>
#include <pagmo/problems/rosenbrock.hpp>
#include <pagmo/problems/schwefel.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/strategy_registry.h"
#include "pagmo_references.h"
#include "run_table.h"

namespace gpbandit {
namespace {

using bench::kBudget;
using bench::kPopulation;

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
    pop = bench::RandomSearch(pop, kBudget - kPopulation, seed);
  } else {
    OptimizerOptions options;
    options.maximizer_raw_sample_design = s.raw_sample_design;
    pop = bench::MakeReferenceAlgorithm(method, dim, seed, method, StrategyParams(), options)
              .evolve(pop);
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
      for (const std::string& a : bench::PopulationAlgorithms()) {
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
