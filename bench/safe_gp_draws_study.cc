// SafeOpt's guarantee on its own setting (examples/problems/gp_draw_problem.h): reward and
// constraint drawn from a known GP on a 20 x 20 grid, noise sd 0.05, one safe seed. Over
// --draws draws of --rounds rounds each, per model and beta: the fraction of runs that evaluated
// any unsafe point (Sui et al.: at most delta with the true kernel and beta_t), the unsafe
// evaluations in all, the final safe set's coverage of the true safe set, the recommendation's
// reward gap to the best safe reward and whether it was truly safe.
//
//   safe_gp_draws_study [--draws 200] [--rounds 50] [--delta 0.05]
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/flags.h"
#include "examples/problems/gp_draw_problem.h"
#include "examples/problems/gp_draw_run.h"

int main(int argc, char** argv) {
  namespace po = gpbandit::bench::po;
  int draws = 200, rounds = 50;
  double delta = 0.05;
  po::options_description flags("flags");
  flags.add_options()("draws", po::value(&draws), "GP draws (runs) per row")(
      "rounds", po::value(&rounds), "rounds per run")("delta", po::value(&delta),
                                                      "safe-opt's delta for Sui et al.'s beta_t");
  gpbandit::bench::ParseFlags(argc, argv, flags);
  gpbandit::bench::RequireAtLeastOne(draws, "draws");
  struct Row {
    const char* name;
    bool known;
    double delta, beta;
  };
  const Row rows[] = {{"true kernel and noise, beta_t (delta)", true, delta, 0},
                      {"true kernel and noise, beta 3", true, 0, 3},
                      {"true kernel and noise, beta 2", true, 0, 2},
                      {"defaults (fitted, calibrated), beta_t (delta)", false, delta, 0},
                      {"defaults (fitted, calibrated), beta 3 (the default)", false, 0, 3},
                      {"defaults (fitted, calibrated), beta 2", false, 0, 2}};
  std::printf(
      "| model, beta | runs with an unsafe evaluation | unsafe evaluations | coverage, "
      "mean | recommendation's gap to the best safe reward, mean | recommendation safe "
      "|\n|---|---|---|---|---|---|\n");
  for (const Row& row : rows) {
    int unsafe_runs = 0, unsafe = 0, safe_recommendations = 0;
    double coverage = 0, gap = 0;
    for (int d = 1; d <= draws; ++d) {
      const auto problem = gpbandit::problems::DrawGpProblem(static_cast<std::uint64_t>(d));
      gpbandit::problems::GpDrawRunSettings s;
      s.rounds = rounds;
      s.known_hyperparameters = row.known;
      s.delta = row.delta;
      s.beta = row.beta;
      s.seed = static_cast<std::uint64_t>(d);
      const auto r = gpbandit::problems::RunGpDraw(problem, s);
      unsafe_runs += r.unsafe_evaluations > 0;
      unsafe += r.unsafe_evaluations;
      coverage += r.coverage;
      gap += r.best_safe_reward - r.recommended_reward;
      safe_recommendations += r.recommendation_safe;
    }
    std::printf("| %s | %d/%d (%.3f; delta %.3g) | %d | %.3f | %.3f | %d/%d |\n", row.name,
                unsafe_runs, draws, static_cast<double>(unsafe_runs) / draws, delta, unsafe,
                coverage / draws, gap / draws, safe_recommendations, draws);
    std::fflush(stdout);
  }
  return 0;
}
