// safe-opt on the plant family of examples/problems/safe_plants.h, every limit in each of the
// plant's unit conventions: per plant and convention over --seeds runs of --episodes episodes
// (examples/problems/safe_tuning_run.h), the episodes that broke a limit (per 100, median and
// worst), the coverage of the truly safe gains by the final safe set and its false positives,
// the recommendation's true reward as the fraction of the gap from the seed to the best safe
// grid gains it closes (median, worst) and whether it is truly safe, where the gap is lost (the
// gap the best truly safe gains of the models' safe set, and of the evaluated actions inside it,
// would close: median / worst), and the time of an ask after the counted episodes. The rover with
// payloads is judged at payloads 0, 2 and 4 kg, every plant with a context at its range's ends
// and middle: a row over the three, then one per context. With --runs each run's line also
// gives its largest noise-free excess over a limit, as a fraction of the limit ("excess"; < 0
// when every episode was safe: the closest approach), and a "truth" line per plant and context
// its brute-force figures.
//
//   safe_plant_study [--plants rover,heater,motor,rover-payload] [--seeds 10]
//                    (also heater-door, motor-load: the contextual plants the defaults are
//                    chosen on)
//                    [--episodes 100] [--grid 21] [--options '{"beta": 2}'] [--runs]
//                    [--conventions 1,3] (1-based indices into the plant's conventions)
#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "examples/problems/safe_plants.h"
#include "examples/problems/safe_tuning_run.h"

namespace gpbandit {
namespace {

using problems::PlantTruth;
using problems::SafePlant;

std::unique_ptr<SafePlant> PlantNamed(const std::string& name) {
  if (name == "rover") return problems::MakeRoverPlant(false);
  if (name == "rover-payload") return problems::MakeRoverPlant(true);
  if (name == "heater") return problems::MakeHeaterPlant();
  if (name == "motor") return problems::MakeMotorPlant();
  if (name == "heater-door") return problems::MakeHeaterPlant(true);
  if (name == "motor-load") return problems::MakeMotorPlant(true);
  throw std::invalid_argument("--plants: unknown plant '" + name +
                              "' (rover, rover-payload, heater, motor, heater-door, motor-load)");
}

std::vector<PlantTruth> Truths(const SafePlant& plant, int grid) {
  std::vector<Eigen::VectorXd> contexts = {Eigen::VectorXd()};
  if (plant.context_dim() > 0)  // the context's lower end, middle and upper end
    contexts = {plant.context_lower(), (plant.context_lower() + plant.context_upper()) / 2.0,
                plant.context_upper()};
  std::vector<PlantTruth> truths;
  for (const Eigen::VectorXd& z : contexts) truths.push_back({z, EvaluateGrid(plant, z, grid)});
  return truths;
}

// A context as the rows name it: "4 kg" (one coordinate).
std::string ContextText(const SafePlant& plant, const Eigen::VectorXd& z) {
  char text[32];
  std::snprintf(text, sizeof text, "%g ", z(0));
  return text + plant.context_unit();
}

double Quantile(std::vector<double> v, double q) {
  std::sort(v.begin(), v.end());
  const double pos = q * (static_cast<double>(v.size()) - 1.0);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, v.size() - 1);
  return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
}

struct Summary {
  std::vector<double> unsafe_per_100, coverage, false_safe, gap, set_best, evaluated_best, ms;
  int recommendations = 0, safe_recommendations = 0;
};

void PrintRun(const SafePlant& plant, const problems::UnitConvention& c, int seed,
              const problems::SafeTuningResult& r) {
  for (const problems::ContextOutcome& o : r.outcomes) {
    std::printf(
        "run | %s | %s | %d | z=%s | unsafe %d | excess %.3g | cov %.3f | false %.4f | "
        "reward %.4f | gap %.3f | set best %.3f | evaluated best %.3f | safe %d | %.1f ms | x =",
        plant.name().c_str(), c.name.c_str(), seed,
        o.context.size() ? std::to_string(o.context(0)).c_str() : "-", r.unsafe_episodes,
        r.worst_excess, o.coverage, o.false_safe, o.reward, o.gap_closed, o.safe_set_best,
        o.evaluated_best, o.safe, r.ask_milliseconds);
    for (Eigen::Index i = 0; i < o.recommended.size(); ++i) std::printf(" %.5g", o.recommended(i));
    std::printf("\n");
  }
  std::fflush(stdout);
}

// The brute-force figures of a plant at one context: its unsafe share of the grid, the seed's
// reward and the best safe grid reward with its gains (docs/benchmarks.md, "The plants, by
// brute force").
void PrintTruth(const SafePlant& plant, const PlantTruth& truth) {
  const problems::PlantGrid& g = truth.grid;
  std::printf("truth | %s | z=%s | unsafe %.1f%% | seed's reward %.4f | best safe %.4f at",
              plant.name().c_str(),
              truth.context.size() ? std::to_string(truth.context(0)).c_str() : "-",
              100.0 * g.unsafe_fraction, plant.Simulate(plant.seed(), truth.context).reward,
              g.best_safe_reward);
  for (Eigen::Index i = 0; g.best_safe >= 0 && i < g.gains.rows(); ++i)
    std::printf(" %.5g", g.gains(i, g.best_safe));
  std::printf(" | best without the limits %.4f\n", g.reward.maxCoeff());
}

void Add(const problems::ContextOutcome& o, Summary* s) {
  s->coverage.push_back(o.coverage);
  s->false_safe.push_back(o.false_safe);
  s->gap.push_back(o.gap_closed);
  s->set_best.push_back(o.safe_set_best);
  s->evaluated_best.push_back(o.evaluated_best);
  ++s->recommendations;
  s->safe_recommendations += o.safe;
}

double Worst(const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); }

// label: the plant's name, with the payload for a per-context row.
void PrintSummary(const std::string& label, const problems::UnitConvention& c, const Summary& s) {
  std::printf(
      "| %s | %s | %.1f | %.1f | %.3f | %.4f | %.3f | %.3f | %.3f / %.3f | %.3f / %.3f | %d/%d | "
      "%.1f |\n",
      label.c_str(), c.name.c_str(), Quantile(s.unsafe_per_100, 0.5),
      *std::max_element(s.unsafe_per_100.begin(), s.unsafe_per_100.end()),
      Quantile(s.coverage, 0.5), *std::max_element(s.false_safe.begin(), s.false_safe.end()),
      Quantile(s.gap, 0.5), Worst(s.gap), Quantile(s.set_best, 0.5), Worst(s.set_best),
      Quantile(s.evaluated_best, 0.5), Worst(s.evaluated_best), s.safe_recommendations,
      s.recommendations, Quantile(s.ms, 0.5));
  std::fflush(stdout);
}

}  // namespace
}  // namespace gpbandit

int main(int argc, char** argv) {
  namespace po = gpbandit::bench::po;
  std::string plants = "rover,heater,motor,rover-payload", options = "{}", conventions;
  int seeds = 10, episodes = 100, grid = 21, first_seed = 1;
  po::options_description flags("flags");
  flags.add_options()("plants", po::value(&plants), "plants to run")(
      "seeds", po::value(&seeds), "runs per plant and convention")(
      "first-seed", po::value(&first_seed), "the first run's seed (seeds first..first+N-1)")(
      "episodes", po::value(&episodes), "episodes per run")(
      "grid", po::value(&grid), "truth grid points per gain")("options", po::value(&options),
                                                              "safe-opt options as JSON")(
      "conventions", po::value(&conventions), "indices of the conventions to run (default all)")(
      "runs", "print every run")("raw-models",
                                 "the models of log format <= 4 (every signal in its told units)");
  const po::variables_map vm = gpbandit::bench::ParseFlags(argc, argv, flags);
  gpbandit::bench::RequireAtLeastOne(seeds, "seeds");
  gpbandit::problems::SafeTuningSettings settings;
  settings.episodes = episodes;
  settings.strategy_options = gpbandit::StrategyParams(options);
  settings.raw_models = vm.count("raw-models") > 0;
  std::printf(
      "| plant | convention | unsafe per 100, median | worst | coverage, median | false safe, "
      "worst | gap closed, median | worst | safe set's best, median / worst | evaluated best, "
      "median / worst | recommendation safe | ask ms at t=%d, median |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|\n",
      episodes + 1);
  for (const std::string& name : gpbandit::bench::SplitList(plants)) {
    const auto plant = gpbandit::PlantNamed(name);
    const auto truths = gpbandit::Truths(*plant, plant->lower().size() == 2 ? 41 : grid);
    if (vm.count("runs"))
      for (const auto& truth : truths) gpbandit::PrintTruth(*plant, truth);
    const auto all = plant->conventions();
    std::vector<int> chosen;
    for (std::size_t k = 0; k < all.size(); ++k) chosen.push_back(static_cast<int>(k));
    if (!conventions.empty()) {
      chosen.clear();
      for (int k : gpbandit::bench::ParsePositiveInts(conventions, "conventions"))
        chosen.push_back(k - 1);
    }
    for (int k : chosen) {
      const auto& convention = all.at(static_cast<std::size_t>(k));
      gpbandit::Summary s;
      std::vector<gpbandit::Summary> per_context(truths.size());
      for (int seed = first_seed; seed < first_seed + seeds; ++seed) {
        settings.seed = static_cast<std::uint64_t>(seed);
        const auto r = gpbandit::problems::RunSafeTuning(*plant, convention, truths, settings);
        if (vm.count("runs")) gpbandit::PrintRun(*plant, convention, seed, r);
        s.unsafe_per_100.push_back(100.0 * r.unsafe_episodes / episodes);
        s.ms.push_back(r.ask_milliseconds);
        for (std::size_t j = 0; j < r.outcomes.size(); ++j) {
          gpbandit::Add(r.outcomes[j], &s);
          gpbandit::Add(r.outcomes[j], &per_context[j]);
          per_context[j].unsafe_per_100.push_back(s.unsafe_per_100.back());
          per_context[j].ms.push_back(r.ask_milliseconds);
        }
      }
      gpbandit::PrintSummary(plant->name(), convention, s);
      for (std::size_t j = 0; plant->context_dim() > 0 && j < truths.size(); ++j)
        gpbandit::PrintSummary(
            plant->name() + " at " + gpbandit::ContextText(*plant, truths[j].context), convention,
            per_context[j]);
    }
  }
  return 0;
}
