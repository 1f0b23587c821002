// The simulator as a prior mean (OptimizerOptions::prior_mean_function): simple regret against
// evaluations of GP-UCB with the default model, alone and with a simulator function as prior
// mean, on Branin and Hartmann-3 with a biased simulator (perturbed coefficients, a shifted
// optimum, a wrong scale), a negated one, a misplaced one (the target mirrored: its optimum
// elsewhere) and an unrelated one. Prints median and quartiles over
// the seeds at a few evaluation counts (docs/fidelities.md, "The simulator as a prior mean").
//   prior_mean_study [seeds = 10] [evaluations = 30]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

using Function = std::function<double(const Eigen::VectorXd&)>;
using problems::Branin;
using problems::Hartmann3;

struct Problem {
  std::string name;
  Eigen::VectorXd lower, upper;
  Function reward;  // to maximize
  double max_reward;
  std::vector<std::pair<std::string, Function>> simulators;  // empty function: none
};

// Branin with b, c, t perturbed by 20 %, its argument shifted by (0.6, -0.8) and scaled by 0.5.
double BiasedBranin(const Eigen::VectorXd& x) {
  const double pi = 3.14159265358979323846;
  const double b = 1.2 * 5.1 / (4 * pi * pi), c = 0.8 * 5.0 / pi, t = 1.2 / (8 * pi);
  const double x0 = x(0) + 0.6, x1 = x(1) - 0.8;
  const double u = x1 - b * x0 * x0 + c * x0 - 6.0;
  return -0.5 * (u * u + 10.0 * (1 - t) * std::cos(x0) + 10.0);
}

// Hartmann-3 with its centres moved by 0.08 and its weights changed, times 3.
double BiasedHartmann3(const Eigen::VectorXd& x) {
  const double alpha[4] = {1.2, 1.0, 3.3, 2.8};
  const double A[4][3] = {{3, 10, 30}, {0.1, 10, 35}, {3, 10, 30}, {0.1, 10, 35}};
  const double P[4][3] = {{0.3689, 0.1170, 0.2673},
                          {0.4699, 0.4387, 0.7470},
                          {0.1091, 0.8732, 0.5547},
                          {0.0381, 0.5743, 0.8828}};
  double sum = 0;
  for (int i = 0; i < 4; ++i) {
    double inner = 0;
    for (int j = 0; j < 3; ++j) {
      const double d = x(j) - P[i][j] - 0.08;
      inner += A[i][j] * d * d;
    }
    sum += alpha[i] * std::exp(-inner);
  }
  return 3.0 * sum;
}

std::vector<Problem> Problems() {
  Problem branin{"branin",
                 Eigen::Vector2d(-5, 0),
                 Eigen::Vector2d(10, 15),
                 [](const Eigen::VectorXd& x) { return -Branin(x); },
                 -0.397887,
                 {}};
  branin.simulators = {{"none", Function()},
                       {"biased", BiasedBranin},
                       {"negated", [](const Eigen::VectorXd& x) { return Branin(x); }},
                       {"misplaced",
                        [](const Eigen::VectorXd& x) {
                          const Eigen::Vector2d moved(x(0) - 4.0, 15.0 - x(1));
                          return -Branin(moved);
                        }},
                       {"unrelated", [](const Eigen::VectorXd& x) {
                          return std::sin(0.9 * x(0)) * std::cos(0.7 * x(1));
                        }}};
  Problem hartmann{"hartmann3",
                   Eigen::Vector3d::Zero(),
                   Eigen::Vector3d::Ones(),
                   [](const Eigen::VectorXd& x) { return -Hartmann3(x); },
                   3.86278,
                   {}};
  hartmann.simulators = {{"none", Function()},
                         {"biased", BiasedHartmann3},
                         {"negated", [](const Eigen::VectorXd& x) { return Hartmann3(x); }},
                         {"misplaced",
                          [](const Eigen::VectorXd& x) {
                            return -Hartmann3(Eigen::VectorXd(Eigen::Vector3d::Ones() - x));
                          }},
                         {"unrelated", [](const Eigen::VectorXd& x) {
                            return std::sin(7.0 * x(0)) * std::cos(5.0 * x(1)) + x(2);
                          }}};
  return {branin, hartmann};
}

// The best-so-far simple regret after each evaluation.
std::vector<double> Run(const Problem& p, const Function& sim, const std::string& name,
                        std::uint64_t seed, int evaluations) {
  OptimizerOptions options;
  options.seed = seed;
  options.num_threads = 1;
  if (sim) {
    options.prior_mean_function.name = name;
    options.prior_mean_function.value = [sim](const Eigen::VectorXd& x, const Eigen::VectorXd&) {
      return sim(x);
    };
  }
  Optimizer opt(Domain::Box(p.lower, p.upper), nullptr, "gp-ucb", options);
  std::vector<double> regret;
  double best = -HUGE_VAL;
  for (int i = 0; i < evaluations; ++i) {
    const Eigen::VectorXd x = opt.Ask();
    const double y = p.reward(x);
    best = std::max(best, y);
    opt.Tell(x, y);
    regret.push_back(p.max_reward - best);
  }
  return regret;
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * (v.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - lo) * (v[hi] - v[lo]);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 10;
  const int evaluations = argc > 2 ? std::atoi(argv[2]) : 30;
  std::vector<int> report;
  for (int t : {5, 10, 20, 30, 50})
    if (t <= evaluations) report.push_back(t);
  std::printf("| problem | prior mean |");
  for (int t : report) std::printf(" t = %d |", t);
  std::printf("\n|---|---|");
  for (std::size_t i = 0; i < report.size(); ++i) std::printf("---|");
  std::printf("\n");
  for (const Problem& p : Problems()) {
    for (const auto& [name, sim] : p.simulators) {
      std::vector<std::vector<double>> runs;
      for (int s = 1; s <= seeds; ++s) runs.push_back(Run(p, sim, name, s, evaluations));
      std::printf("| %s | %s |", p.name.c_str(), name.c_str());
      for (int t : report) {
        std::vector<double> at;
        for (const auto& r : runs) at.push_back(r[t - 1]);
        std::printf(" %.3g [%.3g, %.3g] |", Quantile(at, 0.5), Quantile(at, 0.25),
                    Quantile(at, 0.75));
      }
      std::printf("\n");
      std::fflush(stdout);
    }
  }
  return 0;
}
