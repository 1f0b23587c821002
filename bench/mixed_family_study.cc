// How the optimizer searches categoricals, on generated mixed problems nobody tuned for
// (bench/mixed_family.h): per variant, the category hit rate (runs whose best evaluated point
// holds every categorical's best label) and the final regret (best value evaluated minus f*).
// Each run minimizes one problem with an Optimizer on its parameter space (default options, one
// thread, seed derived from the run's seed, OptimizerOptions::sense minimize) and the method's
// strategy, for --calls evaluations.
//
// Variants (--variants, comma-separated):
//   old     label_probes = false, the default initial design (max(2, d + 1) points)
//   cover   label_probes = false, an initial design of max(d + 1, largest L) points, so that
//           its Latin hypercube holds every label of every categorical
//   probe   label_probes = true (the default), the default design
//   both    probe and cover
//
// Usage: mixed_family_study [--half tuning|heldout] [--problems 20] [--seeds 2]
//          [--calls 30] [--strategies gp-ucb,ei] [--variants old,cover,probe,both]
// Each run's line goes to stderr: "problem strategy variant seed hit regret label-tries seconds"
// (label-tries: evaluations holding every best label). Printed: per strategy and variant the hit
// rate, the median regret [quartiles] and the median label tries.
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "bench/mixed_family.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace {

struct RunResult {
  bool hit = false;
  double regret = 0.0;
  int label_tries = 0;
};

OptimizerOptions VariantOptions(const std::string& variant, const bench::MixedProblem& p,
                                unsigned seed) {
  if (variant != "old" && variant != "cover" && variant != "probe" && variant != "both")
    throw std::invalid_argument("--variants '" + variant + "': not old, cover, probe or both");
  OptimizerOptions o;
  o.seed = DerivedSeed({seed, 0x6d6978ULL});
  o.sync_log = false;
  o.num_threads = 1;
  o.sense = ObjectiveSense::kMinimize;
  o.label_probes = variant == "probe" || variant == "both";
  if (variant == "cover" || variant == "both")
    o.initial_design_size = std::max<int>(static_cast<int>(p.parameters.size()) + 1, p.MaxLabels());
  return o;
}

RunResult Run(const bench::MixedProblem& p, const std::string& strategy, const std::string& variant,
              unsigned seed, int calls) {
  Optimizer opt(Domain::Space(p.Space()), nullptr, strategy, StrategyParams(),
                VariantOptions(variant, p, seed));
  RunResult r;
  double best = HUGE_VAL;
  Eigen::VectorXd best_x;
  for (int t = 0; t < calls; ++t) {
    const Eigen::VectorXd x = opt.Ask();
    const double f = p.Value(x);
    opt.Tell(x, f);
    if (p.HasBestLabels(x)) ++r.label_tries;
    if (f < best) best = f, best_x = x;
  }
  r.hit = p.HasBestLabels(best_x);
  r.regret = best - p.min_value;
  return r;
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double at = q * static_cast<double>(v.size() - 1);
  const auto lo = static_cast<std::size_t>(at);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (at - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  using namespace gpbandit;
  namespace po = bench::po;
  po::options_description flags("mixed_family_study");
  flags.add_options()("half", po::value<std::string>()->default_value("heldout"), "tuning|heldout")(
      "problems", po::value<int>()->default_value(20), "problems of the half")(
      "seeds", po::value<int>()->default_value(2), "seeds per problem (0..n-1)")(
      "calls", po::value<int>()->default_value(30), "evaluations per run")(
      "strategies", po::value<std::string>()->default_value("gp-ucb,ei"), "strategies")(
      "variants", po::value<std::string>()->default_value("old,cover,probe,both"), "variants");
  const po::variables_map v = bench::ParseFlags(argc, argv, flags);
  omp_set_num_threads(1);
  const bench::FamilyHalf half = bench::ParseFamilyHalf(v["half"].as<std::string>());
  const std::vector<std::string> names = bench::MixedProblemNames(half, v["problems"].as<int>());
  const int seeds = v["seeds"].as<int>(), calls = v["calls"].as<int>();
  std::printf("%s half: %zu problems x %d seeds, %d evaluations per run\n\n",
              v["half"].as<std::string>().c_str(), names.size(), seeds, calls);
  std::printf(
      "| strategy | variant | hit rate | median regret [quartiles] | median best-label "
      "tries |\n|---|---|---|---|---|\n");
  for (const std::string& strategy : bench::SplitList(v["strategies"].as<std::string>())) {
    for (const std::string& variant : bench::SplitList(v["variants"].as<std::string>())) {
      std::vector<double> regrets, tries;
      int hits = 0;
      for (const std::string& name : names) {
        const bench::MixedProblem p = bench::MakeMixedProblem(name);
        for (int seed = 0; seed < seeds; ++seed) {
          const auto start = std::chrono::steady_clock::now();
          const RunResult r = Run(p, strategy, variant, static_cast<unsigned>(seed), calls);
          const double seconds =
              std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          std::fprintf(stderr, "%s %s %s %d %d %.6g %d %.2f\n", name.c_str(), strategy.c_str(),
                       variant.c_str(), seed, r.hit ? 1 : 0, r.regret, r.label_tries, seconds);
          hits += r.hit ? 1 : 0;
          regrets.push_back(r.regret);
          tries.push_back(r.label_tries);
        }
      }
      std::printf("| %s | %s | %d/%zu | %.3g [%.3g, %.3g] | %.1f |\n", strategy.c_str(),
                  variant.c_str(), hits, regrets.size(), Quantile(regrets, 0.5),
                  Quantile(regrets, 0.25), Quantile(regrets, 0.75), Quantile(tries, 0.5));
      std::fflush(stdout);
    }
  }
  return 0;
}
