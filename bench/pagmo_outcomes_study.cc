// gpbandit on pagmo's multi-objective and constrained problems, through the pagmo adapter
// (pagmo/pagmo_algorithm.h) with its defaults, against pagmo's own algorithms and uniform random
// search at a budget of 100 evaluations: the same 12-point population per seed
// (pagmo::population{problem, 12, seed}), then 88 evaluations by each method.
//
// Problems. Several objectives: pagmo's zdt{1, 6}, zdt{2, 6}, zdt{3, 6} (6-D) and
// dtlz{2, 5, 2} (DTLZ2, 5-D, 2 objectives). One objective under inequality constraints:
// pagmo's cec2006{24} (g24, 2-D, 2 constraints, f* = -5.508013), cec2006{4} (g04, 5-D, 6
// constraints, f* = -30665.539), and two whose feasible regions are small (Liang et al. 2006:
// about 0.86% and 0.0066% of the box), cec2006{8} (g08, 2-D, 2 constraints, f* = -0.0958250)
// and cec2006{6} (g06, 2-D, 2 constraints, f* = -6961.814); feasible when every g <= 0 (c_tol
// 0, pagmo's default). f* is the fitness at the problem's best_known().
//
// Reported for several objectives: the hypervolume gap 1 - HV / HV_max of every point evaluated
// among the first 100 (the 12 of the population included: an archive, the same for every
// method), with respect to BoTorch's reference points ([11, 11] for ZDT, [1.1, 1.1] for DTLZ2).
// HV is pagmo::hypervolume of the points that dominate the reference; HV_max is computed here
// independently, by a sweep over 200001 points of the known analytic front (ZDT1: f1 = 1 -
// sqrt(f0); ZDT2: f1 = 1 - f0^2; ZDT3: f1 = 1 - sqrt(f0) - f0 sin(10 pi f0), its non-dominated
// part; DTLZ2: the quarter circle f0^2 + f1^2 = 1), which is printed beside the closed forms
// where they exist (ZDT1 121 - 1/3, ZDT2 121 - 2/3, DTLZ2 1.21 - pi/4). For the constrained
// problems: the best feasible value among the first 100 evaluations, how many seeds found a
// feasible point, and the evaluation (1-based, population included) of the first feasible one.
// Medians over the seeds, with the spread as the 25th-75th percentiles.
//
// Methods. gpbandit: any registered strategy by name, at its defaults (the adapter replaces
// index strategies by its default for such problems) but non_finite_rewards = impute-worst (g08
// is 0/0 where x0 = 0, on the edge of its box), and "<strategy>+ref": the same with the
// reference point above given as OptimizerOptions::outcomes.reference_point instead of inferred
// (several objectives only). pagmo, at its defaults
// except: nsga2 and moead 8 generations of the 12 individuals (96 evaluations; evaluations past
// the 100th are not counted), moead with 5 neighbours (its default 20 exceeds the population),
// gaco 8 generations with a 12-solution archive (ker = 12, its default 63 exceeds the
// population), ihs 88 iterations (pagmo's ihs handles constraints and several objectives
// itself), ihs-penalty: ihs on pagmo::unconstrain{problem, "kuri"} (Kuri's penalty), random:
// 88 uniform points. Methods that do not apply to a problem (gaco, ihs-penalty with several
// objectives; nsga2, moead with one) print "-".
//
// Usage: pagmo_outcomes_study [--problems zdt1,zdt2,zdt3,dtlz2,g24,g04,g08,g06]
//          [--methods ehvi,nsga2,moead,ihs,random,log-ei,gaco,ihs-penalty] [--seeds 0-9]
//          [--jobs 1] [--threads 1]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <pagmo/algorithm.hpp>
#include <pagmo/algorithms/gaco.hpp>
#include <pagmo/algorithms/ihs.hpp>
#include <pagmo/algorithms/moead.hpp>
#include <pagmo/algorithms/nsga2.hpp>
#include <pagmo/population.hpp>
#include <pagmo/problem.hpp>
#include <pagmo/problems/cec2006.hpp>
#include <pagmo/problems/dtlz.hpp>
#include <pagmo/problems/unconstrain.hpp>
#include <pagmo/problems/zdt.hpp>
#include <pagmo/utils/hypervolume.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpbandit/optimizer/strategy_registry.h"
#include "gpbandit/pagmo/pagmo_algorithm.h"
#include "pagmo_references.h"
#include "run_table.h"

namespace gpbandit {
namespace {

constexpr unsigned kPopulation = 12;
constexpr unsigned kBudget = 100;
constexpr unsigned kGenerations = 8;  // of 12 individuals: 96 >= 88 evaluations
constexpr double kPi = 3.14159265358979323846;

using Settings = bench::StudyFlags;

Settings ParseArgs(int argc, char** argv) {
  Settings defaults;
  defaults.problems = bench::SplitList("zdt1,zdt2,zdt3,dtlz2,g24,g04,g08,g06");
  defaults.names = bench::SplitList("ehvi,nsga2,moead,ihs,random,log-ei,gaco,ihs-penalty");
  defaults.seeds = bench::ParseSeeds("0-9");
  return bench::ParseStudyFlags(argc, argv, defaults, "methods");
}

// Every fitness among the first kBudget evaluations, shared by the copies of a Recorded.
struct Tally {
  unsigned evaluations = 0;
  std::vector<pagmo::vector_double> fitnesses;
};

// A pagmo UDP that forwards to `inner` (objectives and constraints) and records its evaluations.
struct Recorded {
  pagmo::problem inner;
  std::shared_ptr<Tally> tally = std::make_shared<Tally>();

  pagmo::vector_double fitness(const pagmo::vector_double& x) const {
    pagmo::vector_double f = inner.fitness(x);
    if (tally->evaluations++ < kBudget) tally->fitnesses.push_back(f);
    return f;
  }
  std::pair<pagmo::vector_double, pagmo::vector_double> get_bounds() const {
    return inner.get_bounds();
  }
  pagmo::vector_double::size_type get_nobj() const { return inner.get_nobj(); }
  pagmo::vector_double::size_type get_nec() const { return inner.get_nec(); }
  pagmo::vector_double::size_type get_nic() const { return inner.get_nic(); }
  std::string get_name() const { return inner.get_name(); }
};

pagmo::problem MakeProblem(const std::string& name) {
  if (name == "zdt1") return pagmo::problem{pagmo::zdt{1, 6}};
  if (name == "zdt2") return pagmo::problem{pagmo::zdt{2, 6}};
  if (name == "zdt3") return pagmo::problem{pagmo::zdt{3, 6}};
  if (name == "dtlz2") return pagmo::problem{pagmo::dtlz{2, 5, 2}};
  if (name == "g24") return pagmo::problem{pagmo::cec2006{24}};
  if (name == "g04") return pagmo::problem{pagmo::cec2006{4}};
  if (name == "g06") return pagmo::problem{pagmo::cec2006{6}};
  if (name == "g08") return pagmo::problem{pagmo::cec2006{8}};
  throw std::invalid_argument("unknown problem " + name);
}

bool SeveralObjectives(const std::string& problem) { return problem.rfind('g', 0) != 0; }

// BoTorch's reference points: [11, 11] for ZDT, [1.1, 1.1] for DTLZ2.
pagmo::vector_double Reference(const std::string& problem) {
  return problem == "dtlz2" ? pagmo::vector_double{1.1, 1.1} : pagmo::vector_double{11, 11};
}

// The 2-D hypervolume of a dense sample of the analytic front, by a sweep in f0 (minimization,
// every point inside the reference box): the points sorted by f0, each adds the strip between
// its f0 and the next non-dominated f0, of height r1 - (the lowest f1 so far).
double SweptFrontHypervolume(const std::string& problem) {
  constexpr int kPoints = 200001;
  std::vector<std::pair<double, double>> front;
  for (int i = 0; i < kPoints; ++i) {
    const double t = static_cast<double>(i) / (kPoints - 1);
    if (problem == "zdt1") front.emplace_back(t, 1 - std::sqrt(t));
    if (problem == "zdt2") front.emplace_back(t, 1 - t * t);
    if (problem == "zdt3") front.emplace_back(t, 1 - std::sqrt(t) - t * std::sin(10 * kPi * t));
    if (problem == "dtlz2") front.emplace_back(std::cos(t * kPi / 2), std::sin(t * kPi / 2));
  }
  const pagmo::vector_double r = Reference(problem);
  std::sort(front.begin(), front.end());
  double volume = 0, lowest = r[1];
  for (std::size_t i = 0; i < front.size(); ++i) {
    lowest = std::min(lowest, front[i].second);
    const double next = i + 1 < front.size() ? front[i + 1].first : r[0];
    volume += (next - front[i].first) * (r[1] - lowest);
  }
  return volume;
}

double HypervolumeMax(const std::string& problem) {
  static std::map<std::string, double> cache;
  auto it = cache.find(problem);
  if (it == cache.end()) it = cache.emplace(problem, SweptFrontHypervolume(problem)).first;
  return it->second;
}

// Runs `method` from `pop`, whose problem records `inner` (false when the method does not apply).
bool Evolve(const std::string& method, const pagmo::problem& inner, bool several,
            const pagmo::vector_double& reference, unsigned seed, pagmo::population* pop) {
  const unsigned rounds = kBudget - kPopulation;
  if (method == "random") {
    *pop = bench::RandomSearch(*pop, rounds, seed);
  } else if (method == "nsga2" || method == "moead") {
    if (!several) return false;
    if (method == "nsga2") {
      *pop = pagmo::algorithm{pagmo::nsga2{kGenerations, 0.95, 10., 0.01, 50., seed}}.evolve(*pop);
    } else {
      *pop = pagmo::algorithm{pagmo::moead{kGenerations, "grid", "tchebycheff", 5u, 1.0, 0.5, 20.,
                                           0.9, 2u, true, seed}}
                 .evolve(*pop);
    }
  } else if (method == "ihs") {
    *pop = pagmo::algorithm{pagmo::ihs{rounds, 0.85, 0.35, 0.99, 1e-5, 1., seed}}.evolve(*pop);
  } else if (method == "gaco") {
    if (several) return false;
    *pop = pagmo::algorithm{pagmo::gaco{kGenerations, kPopulation, 1.0, 0., 0.01, 1u, 7u, 100000u,
                                        100000u, 0., false, seed}}
               .evolve(*pop);
  } else if (method == "ihs-penalty") {
    if (several) return false;
    // The same individuals with their penalized fitness computed on the unrecorded problem
    // (the population's 12 evaluations are already counted), then ihs on the penalty.
    const pagmo::problem penalty{pagmo::unconstrain{inner, "kuri"}};
    pagmo::population penalized{pagmo::unconstrain{pop->get_problem(), "kuri"}};
    for (const auto& x : pop->get_x()) penalized.push_back(x, penalty.fitness(x));
    pagmo::algorithm{pagmo::ihs{rounds, 0.85, 0.35, 0.99, 1e-5, 1., seed}}.evolve(penalized);
  } else {
    // "<strategy>+ref": the study's reference point given to the optimizer (several objectives).
    const bool given = method.size() > 4 && method.substr(method.size() - 4) == "+ref";
    if (given && !several) return false;
    const std::string strategy = given ? method.substr(0, method.size() - 4) : method;
    if (!StrategyRegistry::Default().Contains(strategy))
      throw std::invalid_argument("unknown method " + method);
    OptimizerOptions options;
    // g08 is 0/0 where x0 = 0, on its box's edge: such a point is told the worst value so far.
    options.non_finite_rewards = NonFiniteRewardPolicy::kImputeWorst;
    if (given) options.outcomes.reference_point = reference;
    *pop = pagmo::algorithm{BanditAlgorithm{strategy, rounds, 1, seed, StrategyParams(), options}}
               .evolve(*pop);
  }
  return true;
}

// One run: "problem method seed value first_feasible seconds", value the hypervolume gap or
// the best feasible value (inf when none), first_feasible 0 when none; "problem method seed -"
// for a method that does not apply.
std::string Run(const std::string& problem, const std::string& method, unsigned seed,
                const Settings& s) {
  omp_set_num_threads(s.threads);
  const bool several = SeveralObjectives(problem);
  const pagmo::problem inner = MakeProblem(problem);
  Recorded recorded{inner};
  const std::shared_ptr<Tally> tally = recorded.tally;
  const auto start = std::chrono::steady_clock::now();
  pagmo::population pop{pagmo::problem{recorded}, kPopulation, seed};
  std::ostringstream line;
  line.precision(10);
  line << problem << " " << method << " " << seed << " ";
  if (!Evolve(method, inner, several, Reference(problem), seed, &pop)) return line.str() + "-";
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double value = std::numeric_limits<double>::infinity();
  unsigned first_feasible = 0;
  if (several) {
    const pagmo::vector_double r = Reference(problem);
    std::vector<pagmo::vector_double> inside;
    for (const auto& f : tally->fitnesses)
      if (f[0] < r[0] && f[1] < r[1]) inside.push_back({f[0], f[1]});
    const double hv = inside.empty() ? 0.0 : pagmo::hypervolume(inside).compute(r);
    value = 1 - hv / HypervolumeMax(problem);
  } else {
    for (std::size_t i = 0; i < tally->fitnesses.size(); ++i) {
      const pagmo::vector_double& f = tally->fitnesses[i];
      if (!inner.feasibility_f(f)) continue;
      if (first_feasible == 0) first_feasible = static_cast<unsigned>(i + 1);
      value = std::min(value, f[0]);
    }
  }
  line << value << " " << first_feasible << " " << seconds;
  return line.str();
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const std::size_t below = static_cast<std::size_t>(std::floor(at));
  const std::size_t above = std::min(below + 1, v.size() - 1);
  if (std::isinf(v[below]) || std::isinf(v[above])) return v[at - below < 0.5 ? below : above];
  return v[below] + (at - static_cast<double>(below)) * (v[above] - v[below]);
}

double BestKnown(const std::string& problem) {
  const pagmo::problem prob = MakeProblem(problem);
  return prob.fitness(prob.extract<pagmo::cec2006>()->best_known())[0];
}

void PrintTables(const Settings& s, const std::vector<std::string>& lines) {
  std::printf(
      "| problem | HV_max (sweep) | closed form | method | median gap | [25%%, 75%%] | "
      "median s |\n|---|---|---|---|---|---|---|\n");
  std::string constrained;
  std::size_t next = 0;
  for (const std::string& problem : s.problems) {
    const bool several = SeveralObjectives(problem);
    for (const std::string& method : s.names) {
      std::vector<double> values, firsts, seconds;
      bool applies = true;
      for (std::size_t k = 0; k < s.seeds.size(); ++k, ++next) {
        std::istringstream in(lines[next]);
        std::string p, m, value;
        unsigned seed;
        in >> p >> m >> seed >> value;
        if (value == "-") {
          applies = false;
          continue;
        }
        double first, secs;
        in >> first >> secs;
        values.push_back(std::stod(value));
        if (first > 0) firsts.push_back(first);
        seconds.push_back(secs);
      }
      if (!applies) continue;
      char row[512];
      if (several) {
        const double closed = problem == "zdt1"    ? 121 - 1.0 / 3
                              : problem == "zdt2"  ? 121 - 2.0 / 3
                              : problem == "dtlz2" ? 1.21 - kPi / 4
                                                   : std::nan("");
        std::snprintf(row, sizeof row, "| %s | %.6g | %.6g | %s | %.4g | [%.4g, %.4g] | %.3g |\n",
                      problem.c_str(), HypervolumeMax(problem), closed, method.c_str(),
                      bench::Median(values), Quantile(values, 0.25), Quantile(values, 0.75),
                      bench::Median(seconds));
        std::printf("%s", row);
      } else {
        std::snprintf(
            row, sizeof row, "| %s | %.7g | %s | %.6g | [%.6g, %.6g] | %zu/%zu | %.3g | %.3g |\n",
            problem.c_str(), BestKnown(problem), method.c_str(), bench::Median(values),
            Quantile(values, 0.25), Quantile(values, 0.75), firsts.size(), values.size(),
            firsts.empty() ? std::nan("") : bench::Median(firsts), bench::Median(seconds));
        constrained += row;
      }
    }
  }
  if (!constrained.empty()) {
    std::printf(
        "\n| problem | f* | method | median best feasible | [25%%, 75%%] | seeds feasible | "
        "median first feasible evaluation | median s |\n|---|---|---|---|---|---|---|---|"
        "\n%s",
        constrained.c_str());
  }
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  return bench::RunStudyMain(
      "pagmo_outcomes_study", [&] { return ParseArgs(argc, argv); },
      [](const Settings& s, const std::string& problem, const std::string& name, unsigned seed) {
        return Run(problem, name, seed, s);
      },
      PrintTables);
}
