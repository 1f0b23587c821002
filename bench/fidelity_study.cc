// Multi-fidelity studies (docs/fidelities.md, "In a study") against target-only ones at equal
// cost: the simple regret at the target, f_T* - f_T(Best().x) in the objective's units, after a
// total cost of k target evaluations (k = --checkpoints), median and quartiles over --seeds.
// Methods: "mf-gp-ucb" (gp-ucb with the problem's fidelities, the default information rule),
// "gp-ucb" and "ei" (target only, each evaluation at the target's cost). Every problem is
// maximized; problem "<name>-r<R>" has the cheapest fidelity at cost 1 and the target at R.
//
// Problems (all on [0, 1]^d):
//  - currin: the Currin exponential (Currin et al. 1991) as the target,
//      f_1(x) = (1 - exp(-1 / (2 x2))) (2300 x1^3 + 1900 x1^2 + 2092 x1 + 60)
//                                        / (100 x1^3 + 500 x1^2 + 4 x1 + 20),
//    and the low fidelity of Xiong, Qian & Wu 2013 used by Kandasamy et al. 2016 (MF-GP-UCB,
//    NeurIPS, appendix), the mean of f_1 at the four points (x1 +- 0.05, x2 + 0.05) and
//    (x1 +- 0.05, max(0, x2 - 0.05)). 2 fidelities; max f_1 = 13.7987 near (0.2167, 0).
//  - badcurrin: Kandasamy et al. 2016's BadCurrinExp: the low fidelity is -f_1.
//  - unrelatedcurrin: a useless low fidelity, 5 sin(7 x1 + 1) cos(5 x2 - 2), whose correlation
//    with f_1 over a 201 x 201 grid of the box is -0.006.
//  - hartmann3: Hartmann-3 (Dixon & Szego 1978) with 3 fidelities, Kandasamy et al. 2016's
//    construction (their MF-GP-UCB experiments):
//      f^(m)(x) = sum_i alpha_i^(m) exp(-sum_j A_ij (x_j - P_ij)^2), alpha = (1, 1.2, 3, 3.2),
//      alpha^(m) = alpha + (M - 1 - m) delta, delta = (0.01, -0.01, -0.1, 0.1),
//    for m = 0 .. M - 1 (the target m = M - 1 is the textbook function, max 3.86278); costs 1,
//    sqrt(R), R (theirs are 1, 10, 100: R = 100).
//  - hartmann3-uniform: the same with every alpha_i lowered by 0.1 per level below the target,
//    alpha^(m) = alpha - 0.1 (M - 1 - m): every bump lowered alike at the lower fidelities.
//  - augmented-hartmann6: BoTorch's AugmentedHartmann (botorch.test_functions.multi_fidelity):
//    Hartmann-6 (Dixon & Szego 1978) with alpha_1 lowered by 0.1 (1 - s) at fidelity s in
//    [0, 1]; here 3 fidelities s = 0, 0.5, 1 at costs 1, sqrt(R), R; max 3.32237 at s = 1.
//
// The cheapest evaluations are cheap enough that a multi-fidelity run may make many of them; a
// run stops at the budget (the largest checkpoint) or at --max-observations tells, whichever
// comes first; checkpoints beyond the stop are reported as missing ("cap" in the table).
//
// --min-correlation: FidelityOptions::min_correlation of the mf-gp-ucb runs (default: that
// field's default).
//
// --timing: the time of AskFidelity (gp-ucb, hartmann3 with 3 fidelities) after 300 tells
// (100 per fidelity at random points), the median of --timing-asks asks, each followed by its
// tell.
//
//   fidelity_study [--problems currin-r10,...] [--methods mf-gp-ucb,gp-ucb,ei] [--seeds 1-10]
//                  [--jobs 1] [--checkpoints 5,10,20,30] [--max-observations 300] [--timing yes]
//                  [--min-correlation X]
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/run_table.h"
#include "examples/problems/synthetic_functions.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace bench {
namespace {

double CurrinTarget(double x1, double x2) {
  const double factor = x2 <= 0.0 ? 1.0 : 1.0 - std::exp(-1.0 / (2.0 * x2));
  return factor * (2300 * x1 * x1 * x1 + 1900 * x1 * x1 + 2092 * x1 + 60) /
         (100 * x1 * x1 * x1 + 500 * x1 * x1 + 4 * x1 + 20);
}

double CurrinLow(double x1, double x2) {
  const double up = x2 + 0.05, down = std::max(0.0, x2 - 0.05);
  return 0.25 * (CurrinTarget(x1 + 0.05, up) + CurrinTarget(x1 + 0.05, down) +
                 CurrinTarget(x1 - 0.05, up) + CurrinTarget(x1 - 0.05, down));
}

// Hartmann-3 with the alphas alpha + levels_below_target * delta: Kandasamy et al. 2016's delta,
// or -0.1 in every term (`uniform`).
double ShiftedHartmann3(const Eigen::VectorXd& x, double levels_below_target, bool uniform) {
  static const double a[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
  static const double p[4][3] = {{0.3689, 0.1170, 0.2673},
                                 {0.4699, 0.4387, 0.7470},
                                 {0.1091, 0.8732, 0.5547},
                                 {0.0381, 0.5743, 0.8828}};
  static const double alpha[4] = {1.0, 1.2, 3.0, 3.2};
  static const double delta[4] = {0.01, -0.01, -0.1, 0.1};
  double f = 0.0;
  for (int i = 0; i < 4; ++i) {
    double e = 0.0;
    for (int j = 0; j < 3; ++j) e += a[i][j] * (x(j) - p[i][j]) * (x(j) - p[i][j]);
    f += (alpha[i] + levels_below_target * (uniform ? -0.1 : delta[i])) * std::exp(-e);
  }
  return f;
}

// Hartmann-6 (to maximize) with alpha_1 lowered by `shift`: the reward of
// examples/problems/synthetic_functions.h plus the first term's change.
double AugmentedHartmann6(const Eigen::VectorXd& x, double shift) {
  static const double a0[6] = {10, 3, 17, 3.5, 1.7, 8};
  static const double p0[6] = {0.1312, 0.1696, 0.5569, 0.0124, 0.8283, 0.5886};
  double e = 0.0;
  for (int j = 0; j < 6; ++j) e += a0[j] * (x(j) - p0[j]) * (x(j) - p0[j]);
  return -problems::Hartmann6(x) - shift * std::exp(-e);
}

struct FidelityProblem {
  int dim = 2;
  std::vector<double> costs;                             // increasing; the last is the target's
  std::function<double(const Eigen::VectorXd&, int)> f;  // f(x, fidelity)
  double max_target = 0.0;
};

// "<name>-r<R>" -> the problem; std::invalid_argument for anything else.
FidelityProblem MakeFidelityProblem(const std::string& spec) {
  const std::size_t dash = spec.rfind("-r");
  if (dash == std::string::npos) throw std::invalid_argument("problem '" + spec + "': no -r<R>");
  const std::string name = spec.substr(0, dash);
  const double ratio = std::stod(spec.substr(dash + 2));
  if (!(ratio > 1.0)) throw std::invalid_argument("problem '" + spec + "': R must be > 1");
  FidelityProblem p;
  if (name == "currin" || name == "badcurrin" || name == "unrelatedcurrin") {
    const bool bad = name == "badcurrin", unrelated = name == "unrelatedcurrin";
    p.dim = 2;
    p.costs = {1.0, ratio};
    p.f = [bad, unrelated](const Eigen::VectorXd& x, int m) {
      if (m == 1) return CurrinTarget(x(0), x(1));
      if (unrelated) return 5.0 * std::sin(7.0 * x(0) + 1.0) * std::cos(5.0 * x(1) - 2.0);
      return bad ? -CurrinTarget(x(0), x(1)) : CurrinLow(x(0), x(1));
    };
    // The maximum on the boundary x2 = 0 (the factor is 1 there and decreases in x2): a fine
    // search over x1.
    double best = -1e300;
    for (int k = 0; k <= 200000; ++k) best = std::max(best, CurrinTarget(k / 200000.0, 0.0));
    p.max_target = best;
  } else if (name == "hartmann3" || name == "hartmann3-uniform") {
    const bool uniform = name == "hartmann3-uniform";
    p.dim = 3;
    p.costs = {1.0, std::sqrt(ratio), ratio};
    p.f = [uniform](const Eigen::VectorXd& x, int m) {
      return ShiftedHartmann3(x, 2.0 - m, uniform);
    };
    p.max_target = 3.86278214782076;
  } else if (name == "augmented-hartmann6") {
    p.dim = 6;
    p.costs = {1.0, std::sqrt(ratio), ratio};
    p.f = [](const Eigen::VectorXd& x, int m) {
      return AugmentedHartmann6(x, 0.1 * (1.0 - 0.5 * m));
    };
    p.max_target = 3.32236801141551;
  } else {
    throw std::invalid_argument("problem '" + spec +
                                "': known are currin, badcurrin, unrelatedcurrin, hartmann3, "
                                "hartmann3-uniform, augmented-hartmann6");
  }
  return p;
}

FidelityOptions LevelsOf(const FidelityProblem& p) {
  FidelityOptions f;
  for (std::size_t m = 0; m < p.costs.size(); ++m)
    f.levels.push_back({"f" + std::to_string(m), p.costs[m]});
  return f;
}

std::vector<double> ParseNumbers(const std::string& text) {
  std::vector<double> v;
  for (const std::string& s : SplitList(text)) v.push_back(std::stod(s));
  return v;
}

// --min-correlation's number; its range is FidelityOptions::IsValid's to check.
double MinCorrelationFlag(const std::string& text) {
  std::size_t used = 0;
  double value = std::numeric_limits<double>::quiet_NaN();
  try {
    value = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size())
    throw std::invalid_argument("--min-correlation '" + text + "': not a number");
  return value;
}

// One run: "regret_1,...,regret_K<TAB>low evaluations<TAB>target evaluations<TAB>ms per ask".
std::string RunOne(const StudyFlags& s, const std::string& spec, const std::string& method,
                   unsigned seed) {
  const FidelityProblem p = MakeFidelityProblem(spec);
  const std::vector<double> checkpoints = ParseNumbers(s.strings.at("checkpoints"));
  const double target_cost = p.costs.back();
  const double budget = target_cost * checkpoints.back();
  const int max_observations = s.ints.at("max-observations");
  const bool multi = method == "mf-gp-ucb";
  if (!multi && method != "gp-ucb" && method != "ei")
    throw std::invalid_argument("method '" + method + "': known are mf-gp-ucb, gp-ucb, ei");
  OptimizerOptions o;
  o.seed = seed;
  o.sync_log = false;
  o.num_threads = s.threads;
  if (multi) {
    o.fidelities = LevelsOf(p);
    const std::string& min_correlation = s.strings.at("min-correlation");
    if (!min_correlation.empty())
      o.fidelities.min_correlation = MinCorrelationFlag(min_correlation);
  }
  const Domain domain = Domain::Box(Eigen::VectorXd::Zero(p.dim), Eigen::VectorXd::Ones(p.dim));
  Optimizer opt(domain, nullptr, multi ? "gp-ucb" : method, o);
  const int target = static_cast<int>(p.costs.size()) - 1;
  std::vector<double> regret(checkpoints.size(), std::numeric_limits<double>::quiet_NaN());
  double cost = 0.0, ask_seconds = 0.0;
  int low = 0, high = 0, n = 0;
  while (cost < budget && n < max_observations) {
    const auto start = std::chrono::steady_clock::now();
    Eigen::VectorXd x;
    int m = target;
    if (multi) {
      const FidelityPoint q = opt.AskFidelity();
      x = q.x;
      m = q.fidelity;
    } else {
      x = opt.Ask();
    }
    ask_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (cost + p.costs[static_cast<std::size_t>(m)] > budget) break;  // never above the budget
    if (multi)
      opt.TellFidelity(x, Eigen::VectorXd(), p.f(x, m), m);
    else
      opt.Tell(x, p.f(x, m));
    cost += p.costs[static_cast<std::size_t>(m)];
    ++n;
    (m == target ? high : low) += 1;
    const double r = p.max_target - p.f(opt.Best().x, target);
    for (std::size_t k = 0; k < checkpoints.size(); ++k)
      if (cost <= checkpoints[k] * target_cost) regret[k] = r;
  }
  // A checkpoint the run stopped before (observation cap) stays missing.
  if (cost < budget && n >= max_observations)
    for (std::size_t k = 0; k < checkpoints.size(); ++k)
      if (checkpoints[k] * target_cost > cost) regret[k] = std::numeric_limits<double>::quiet_NaN();
  std::ostringstream line;
  for (std::size_t k = 0; k < regret.size(); ++k) line << (k ? "," : "") << regret[k];
  line << "\t" << low << "\t" << high << "\t" << 1e3 * ask_seconds / std::max(1, n);
  return line.str();
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * static_cast<double>(v.size() - 1);
  const std::size_t i = static_cast<std::size_t>(pos);
  if (i + 1 >= v.size()) return v.back();
  return v[i] + (pos - static_cast<double>(i)) * (v[i + 1] - v[i]);
}

void PrintTables(const StudyFlags& s, const std::vector<std::string>& lines) {
  const std::vector<double> checkpoints = ParseNumbers(s.strings.at("checkpoints"));
  const std::size_t seeds = s.seeds.size(), methods = s.names.size();
  std::printf("simple regret at the target of Best(), median [quartiles] over %zu seeds\n", seeds);
  for (std::size_t pi = 0; pi < s.problems.size(); ++pi) {
    std::printf("\n%s\n\n| cost (target evaluations) |", s.problems[pi].c_str());
    for (const std::string& m : s.names) std::printf(" %s |", m.c_str());
    std::printf("\n|---|");
    for (std::size_t k = 0; k < methods; ++k) std::printf("---|");
    std::printf("\n");
    std::vector<std::vector<std::vector<double>>> values(methods);
    std::vector<std::vector<int>> missing(methods);
    std::vector<double> lows(methods), highs(methods), ms(methods);
    for (std::size_t mi = 0; mi < methods; ++mi) {
      values[mi].resize(checkpoints.size());
      missing[mi].assign(checkpoints.size(), 0);
      for (std::size_t si = 0; si < seeds; ++si) {
        std::istringstream in(lines[(pi * methods + mi) * seeds + si]);
        std::string regrets;
        double low = 0, high = 0, m = 0;
        in >> regrets >> low >> high >> m;
        lows[mi] += low / seeds;
        highs[mi] += high / seeds;
        ms[mi] += m / seeds;
        const std::vector<std::string> parts = SplitList(regrets);
        for (std::size_t k = 0; k < checkpoints.size(); ++k) {
          const double r = std::stod(parts[k]);
          if (std::isnan(r))
            ++missing[mi][k];
          else
            values[mi][k].push_back(r);
        }
      }
    }
    for (std::size_t k = 0; k < checkpoints.size(); ++k) {
      std::printf("| %g |", checkpoints[k]);
      for (std::size_t mi = 0; mi < methods; ++mi) {
        const std::vector<double>& v = values[mi][k];
        if (v.empty()) {
          std::printf(" cap (%d) |", missing[mi][k]);
          continue;
        }
        std::printf(" %.3g [%.3g, %.3g]", Median(v), Quantile(v, 0.25), Quantile(v, 0.75));
        if (missing[mi][k] > 0) std::printf(" (%d cap)", missing[mi][k]);
        std::printf(" |");
      }
      std::printf("\n");
    }
    std::printf("\nmean evaluations (lower fidelities / target), mean ms per ask:");
    for (std::size_t mi = 0; mi < methods; ++mi)
      std::printf(" %s %.1f / %.1f, %.0f ms;", s.names[mi].c_str(), lows[mi], highs[mi], ms[mi]);
    std::printf("\n");
  }
}

// The median time of AskFidelity after 300 tells on hartmann3 with 3 fidelities.
void TimeAsks(int asks, int threads) {
  const FidelityProblem p = MakeFidelityProblem("hartmann3-r100");
  OptimizerOptions o;
  o.seed = 1;
  o.sync_log = false;
  o.num_threads = threads;
  o.fidelities = LevelsOf(p);
  Optimizer opt(Domain::Box(Eigen::VectorXd::Zero(3), Eigen::VectorXd::Ones(3)), nullptr, "gp-ucb",
                o);
  Rng rng(7);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 300; ++i) {
    const Eigen::Vector3d x(unit(rng), unit(rng), unit(rng));
    opt.TellFidelity(x, Eigen::VectorXd(), p.f(x, i % 3), i % 3);
  }
  std::vector<double> ms;
  for (int i = 0; i < asks; ++i) {
    const auto start = std::chrono::steady_clock::now();
    const FidelityPoint q = opt.AskFidelity();
    ms.push_back(1e3 *
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    opt.TellFidelity(q.x, Eigen::VectorXd(), p.f(q.x, q.fidelity), q.fidelity);
  }
  std::printf(
      "AskFidelity at t = 300 (hartmann3, 3 fidelities, gp-ucb, %d threads): median %.1f "
      "ms, min %.1f, max %.1f over %d asks\n",
      threads, Median(ms), *std::min_element(ms.begin(), ms.end()),
      *std::max_element(ms.begin(), ms.end()), asks);
}

}  // namespace
}  // namespace bench
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit::bench;
  StudyFlags defaults;
  defaults.problems = {"currin-r10", "currin-r100", "hartmann3-r10", "badcurrin-r10"};
  defaults.names = {"mf-gp-ucb", "gp-ucb", "ei"};
  defaults.seeds = ParseSeeds("1-10");
  defaults.ints = {{"max-observations", 300}, {"timing-asks", 10}};
  defaults.strings = {{"checkpoints", "5,10,20,30"}, {"timing", "no"}, {"min-correlation", ""}};
  return ReportingErrors(argv[0], [&] {
    const StudyFlags s = ParseStudyFlags(argc, argv, defaults, "methods");
    if (s.strings.at("timing") == "yes") {
      TimeAsks(s.ints.at("timing-asks"), s.threads);
      return;
    }
    RunEveryCombination(
        s,
        [&](const std::string& problem, const std::string& method, unsigned seed) {
          return RunOne(s, problem, method, seed);
        },
        [&](const std::vector<std::string>& lines) { PrintTables(s, lines); });
  });
}
