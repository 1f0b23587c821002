// Speed of one suggestion: build the round's acquisition from the posterior and maximize it.
//
// BM_SuggestContinuous6D: GP-UCB on a continuous 6-D box (unit cube), Matern-5/2 ARD GP with
// t = 200 observations of Hartmann-6, default BoxMaximizerOptions (512 Latin-hypercube points,
// 8 L-BFGS starts, at most 100 iterations each), 2 OpenMP threads. BM_SuggestContinuous6DGpTs:
// the same with a GP-TS pathwise sample (1024 Fourier features). BM_FiniteRound: one round of the
// finite-set loop (score 1000 candidates, argmax, O(N^2) posterior update).
// Run: acquisition_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <algorithm>
#include <numeric>
#include <vector>

#include <benchmark/benchmark.h>

#include <omp.h>

#include "gpbandit/acquisition/box_maximizer.h"
#include "gpbandit/acquisition/candidate_posterior.h"
#include "gpbandit/acquisition/finite_argmax.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/examples/problems/synthetic_functions.h"
#include "gpbandit/gp/kernel_factory.h"

namespace {

using gpbandit::Rng;

gpbandit::GaussianProcess MakeModel(int t) {
  const int dim = 6;
  gpbandit::GaussianProcess gp(gpbandit::MakeMatern52(gpbandit::FirstDims(dim), true, 1.0, 0.3),
                               dim);
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(dim, t);
  Eigen::VectorXd y(t);
  for (int j = 0; j < t; ++j) {
    for (int i = 0; i < dim; ++i) X(i, j) = u(rng);
    y(j) = -gpbandit::problems::Hartmann6(X.col(j));
  }
  gp.AddObservations(X, y);
  return gp;
}

void Suggest(benchmark::State& state, gpbandit::Strategy& strategy) {
  const int t = static_cast<int>(state.range(0));
  const gpbandit::GaussianProcess gp = MakeModel(t);
  gpbandit::RoundState round;
  round.t = t + 1;
  round.action_dim = 6;
  round.information_gain = gp.InformationGain();
  round.incumbent = gp.outputs().maxCoeff();
  strategy.BeginRound(round);
  gpbandit::BoxMaximizerOptions options;
  options.num_threads = 2;
  const Eigen::VectorXd lower = Eigen::VectorXd::Zero(6), upper = Eigen::VectorXd::Ones(6);
  // The three best observed points are extra starts (the optimizer passes its best
  // maximizer_observed_starts points; 1 by default).
  const Eigen::VectorXd y = gp.outputs();
  const Eigen::MatrixXd X = gp.inputs();
  std::vector<int> order(t);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 3, order.end(),
                    [&](int a, int b) { return y(a) > y(b); });
  Eigen::MatrixXd extra(6, 3);
  for (int k = 0; k < 3; ++k) extra.col(k) = X.col(order[k]);
  Rng rng(11);
  double value = 0.0;
  int evaluations = 0;
  for (auto _ : state) {
    const auto acquisition = strategy.MakeContinuous(gp, rng);
    const gpbandit::BoxMaximizerResult result =
        gpbandit::MaximizeOverBox(*acquisition, lower, upper, extra, options, rng);
    value = result.value;
    evaluations = result.num_evaluations;
    benchmark::DoNotOptimize(result.x.data());
  }
  state.counters["evaluations"] = evaluations;
  state.counters["value"] = value;
}

void BM_SuggestContinuous6D(benchmark::State& state) {
  gpbandit::GpUcb ucb;
  Suggest(state, ucb);
}
BENCHMARK(BM_SuggestContinuous6D)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_SuggestContinuous6DGpTs(benchmark::State& state) {
  gpbandit::GpTs ts;
  Suggest(state, ts);
}
BENCHMARK(BM_SuggestContinuous6DGpTs)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_FiniteRound(benchmark::State& state) {
  const int n = static_cast<int>(state.range(0));
  const Eigen::MatrixXd grid = Eigen::RowVectorXd::LinSpaced(n, 0.0, 1.0);
  const auto kernel = gpbandit::MakeSquaredExponential({0}, true, 1.0, 0.2);
  gpbandit::FiniteSetPosterior posterior(*kernel, grid, 0.025);
  gpbandit::GpUcbOptions options;
  options.beta.scale = 0.2;
  gpbandit::GpUcb ucb(options);
  Rng rng(3);
  std::normal_distribution<double> noise(0.0, 0.1);
  int t = 1;
  for (auto _ : state) {
    gpbandit::RoundState round;
    round.t = t++;
    round.num_candidates = n;
    ucb.BeginRound(round);
    const gpbandit::FiniteSetCandidatePosterior view(posterior);
    const int chosen = gpbandit::FiniteArgmax(ucb.ScoreCandidates(view, rng));
    posterior.Observe(chosen, std::sin(6.0 * grid(0, chosen)) + noise(rng));
  }
}
BENCHMARK(BM_FiniteRound)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
