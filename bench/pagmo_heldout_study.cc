// Defaults on problems nobody tuned for: gpbandit's strategies with their defaults, through the
// pagmo adapter, against pagmo's algorithms, uniform random search and NLopt's BOBYQA on the
// generated family of bench/problem_family.h, at a budget of 100 evaluations. Defaults are
// chosen on the tuning half (--half tuning) and reported on the held-out half (the default).
//
// Protocol: per problem and seed, the same 10-point population (pagmo::population{problem, 10,
// seed}), then 90 evaluations by each method (bench/pagmo_references.h); BOBYQA (NLopt's
// NLOPT_LN_BOBYQA, Powell 2009) starts from the population's best point and, when it stops
// before the budget, restarts from a uniform point while at least 2d + 2 evaluations remain. A
// recorder around the problem counts the evaluations and keeps, among the first 100, the one
// with the lowest observed value; a run's score is the noise-free value at that point (on the
// noisy kinds the observed values carry noise, drawn in evaluation order from the seed, so
// every method sees the same noise stream). The gap is the score minus the problem's minimum,
// or minus the lowest score of any run in the table where the minimum is not known (marked *).
//
// Printed: the median gap per problem and method; each method's mean rank; per gpbandit method,
// wins against random search, each pagmo population algorithm and BOBYQA (median wins, and
// significant wins and losses by the paired sign test over the seeds, study_results.h); the
// problems on which it beats all four population algorithms; and the pairwise table of the
// gpbandit methods and BOBYQA.
//
// Usage: pagmo_heldout_study [--half heldout|tuning] [--problems NAME,...] [--kinds KIND,...]
//          [--methods gp-ucb,igp-ucb,gp-ts,ei,log-ei,pi,mean,variance,cmaes,sade,pso,de,
//          simulated_annealing,compass_search,random,bobyqa] [--seeds 0-19] [--jobs 1]
//          [--threads 1] [--variants 'LABEL=STRATEGY:{json};...'] [--lines FILE,...]
// --variants adds gpbandit methods with options: LABEL runs STRATEGY with the JSON options (the
// keys "initial_design_size" and "initial_design_per_dim" set the Optimizer's initial design
// instead, bench/variants.h), and is run when listed in --methods. --lines prints the tables
// from the run lines of earlier runs (each run's line goes to stderr: "problem method seed score
// evaluations seconds") instead of running; lines of other problems, methods or seeds are
// ignored.
#include <nlopt.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <limits>
#include <map>
#include <memory>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench/problem_family.h"
#include "bench/study_results.h"
#include "bench/variants.h"
#include "pagmo_references.h"
#include "run_table.h"

namespace gpbandit {
namespace {

using bench::kBudget;
using bench::kPopulation;
using Settings = bench::StudyFlags;

using bench::Variants;

Settings ParseArgs(int argc, char** argv) {
  Settings defaults;
  defaults.names = bench::SplitList(
      "gp-ucb,igp-ucb,gp-ts,ei,log-ei,pi,mean,variance,cmaes,sade,pso,de,simulated_annealing,"
      "compass_search,random,bobyqa");
  defaults.seeds = bench::ParseSeeds("0-19");
  defaults.strings = {{"half", "heldout"}, {"kinds", ""}, {"variants", ""}, {"lines", ""}};
  Settings s = bench::ParseStudyFlags(argc, argv, defaults, "methods");
  bench::ParseVariants(s.strings.at("variants"));  // refused here rather than in every run
  for (const std::string& name : s.problems) bench::MakeFamilyProblem(name);  // checks the names
  if (s.problems.empty()) {
    const std::vector<std::string> kinds = bench::SplitList(s.strings.at("kinds"));
    for (const std::string& name :
         bench::FamilyProblemNames(bench::ParseFamilyHalf(s.strings.at("half")))) {
      const std::string kind = bench::MakeFamilyProblem(name).kind;
      if (kinds.empty() || std::find(kinds.begin(), kinds.end(), kind) != kinds.end())
        s.problems.push_back(name);
    }
  }
  return s;
}

// The first kBudget evaluations of one run: their count, the lowest observed value and the
// noise-free value at its point; the noise stream. Shared by the copies of a FamilyUdp.
struct Tally {
  unsigned evaluations = 0;
  double best_observed = std::numeric_limits<double>::infinity();
  double score = std::numeric_limits<double>::infinity();
  Rng noise;
};

// A generated problem as a pagmo UDP that records every evaluation in its tally.
struct FamilyUdp {
  std::shared_ptr<const bench::GeneratedProblem> problem;
  std::shared_ptr<Tally> tally;

  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    const double value = problem->value(Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()));
    double observed = value;
    if (problem->noise_sd > 0.0)
      observed += problem->noise_sd * std::normal_distribution<double>()(tally->noise);
    if (tally->evaluations++ < kBudget && observed < tally->best_observed) {
      tally->best_observed = observed;
      tally->score = value;
    }
    return {observed};
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return {pagmo::vector_double(problem->lower.data(), problem->lower.data() + problem->dim),
            pagmo::vector_double(problem->upper.data(), problem->upper.data() + problem->dim)};
  }
  std::string get_name() const { return problem->name; }
};

struct NloptCall {
  const pagmo::problem* problem;
  nlopt_opt opt;
  std::exception_ptr error;
};

double NloptObjective(unsigned n, const double* x, double* /*gradient*/, void* data) {
  NloptCall* call = static_cast<NloptCall*>(data);
  try {
    return call->problem->fitness(pagmo::vector_double(x, x + n))[0];
  } catch (...) {
    call->error = std::current_exception();
    nlopt_force_stop(call->opt);
    return HUGE_VAL;
  }
}

// BOBYQA from the population's best point, restarted from uniform points while at least
// 2d + 2 evaluations of the budget remain.
void RunBobyqa(const pagmo::population& pop, const Tally& tally, unsigned seed) {
  const pagmo::problem& problem = pop.get_problem();
  const auto bounds = problem.get_bounds();
  const unsigned n = static_cast<unsigned>(bounds.first.size());
  std::vector<double> x = pop.champion_x();
  std::mt19937_64 rng(seed);
  while (kBudget >= tally.evaluations + 2 * n + 2) {
    const unsigned before = tally.evaluations;
    NloptCall call{&problem, nlopt_create(NLOPT_LN_BOBYQA, n), nullptr};
    nlopt_set_lower_bounds(call.opt, bounds.first.data());
    nlopt_set_upper_bounds(call.opt, bounds.second.data());
    nlopt_set_min_objective(call.opt, NloptObjective, &call);
    nlopt_set_maxeval(call.opt, static_cast<int>(kBudget - tally.evaluations));
    double value = 0.0;
    const nlopt_result result = nlopt_optimize(call.opt, x.data(), &value);
    nlopt_destroy(call.opt);
    if (call.error) std::rethrow_exception(call.error);
    if (result < 0 && result != NLOPT_ROUNDOFF_LIMITED)
      throw std::runtime_error("bobyqa: nlopt_optimize returned " + std::to_string(result));
    if (tally.evaluations == before) break;
    for (unsigned j = 0; j < n; ++j)
      x[j] = std::uniform_real_distribution<double>(bounds.first[j], bounds.second[j])(rng);
  }
}

// One run: "problem method seed score evaluations seconds".
std::string Run(const std::string& problem_name, const std::string& method, unsigned seed,
                const Settings& s, const Variants& variants) {
  omp_set_num_threads(s.threads);
  auto problem =
      std::make_shared<const bench::GeneratedProblem>(bench::MakeFamilyProblem(problem_name));
  auto tally = std::make_shared<Tally>();
  tally->noise = SeededRng({seed, 0x6e6f697365ULL});
  const auto start = std::chrono::steady_clock::now();
  pagmo::population pop{pagmo::problem{FamilyUdp{problem, tally}}, kPopulation, seed};
  if (method == "random") {
    bench::RandomSearch(pop, kBudget - kPopulation, seed);
  } else if (method == "bobyqa") {
    RunBobyqa(pop, *tally, seed);
  } else {
    const bench::Variant v = bench::ResolveMethod(method, variants);
    OptimizerOptions options;
    options.maximizer_raw_sample_design = s.raw_sample_design;
    options.initial_design_size = v.InitialDesignSize(problem->dim);
    bench::MakeReferenceAlgorithm(method, static_cast<unsigned>(problem->dim), seed, v.strategy,
                                  v.params, options)
        .evolve(pop);
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::ostringstream line;
  line.precision(10);
  line << problem_name << " " << method << " " << seed << " " << tally->score << " "
       << tally->evaluations << " " << seconds;
  return line.str();
}

void PrintTables(const Settings& s, const Variants& variants, const bench::StudyResults& results) {
  const bench::StudyTable t = bench::MakeStudyTable(
      results, s.problems, s.names, s.seeds,
      [](const std::string& name) { return bench::MakeFamilyProblem(name).min_value; });
  std::printf("%zu problems x %zu seeds; median gap to the minimum (* : to the best run)\n\n",
              t.problems.size(), t.seeds.size());
  bench::PrintGapTable(t);
  bench::PrintMeanRanks(t);
  std::vector<std::string> gpbandit_methods, references = {"random"};
  for (const std::string& m : s.names)
    if (bench::IsGpbanditMethod(m, variants)) gpbandit_methods.push_back(m);
  for (const std::string& a : bench::PopulationAlgorithms()) references.push_back(a);
  references.push_back("bobyqa");
  bench::PrintChecks(t, gpbandit_methods, references, bench::PopulationAlgorithms());
  std::vector<std::string> pairwise = gpbandit_methods;
  pairwise.push_back("bobyqa");
  bench::PrintPairwise(t, pairwise);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  return bench::RunOrReadStudy(
      "pagmo_heldout_study", [&] { return ParseArgs(argc, argv); },
      [](const Settings& s, const std::string& problem, const std::string& method, unsigned seed) {
        return Run(problem, method, seed, s, bench::ParseVariants(s.strings.at("variants")));
      },
      [](const Settings& s, const bench::StudyResults& results) {
        PrintTables(s, bench::ParseVariants(s.strings.at("variants")), results);
      });
}
