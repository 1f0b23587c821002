// Speed of one suggestion: build the round's acquisition from the posterior and maximize it
// (what one Optimizer::Ask does after its refit, if any).
//
// Every case: a GP with t = 200 observations of Hartmann-6 at uniform points of the unit cube,
// default BoxMaximizerOptions (512 Latin-hypercube points, 8 L-BFGS starts, at most 100
// iterations each), the three best observations as extra starts. Args: t, threads (OpenMP
// threads of the maximizer).
//   BM_SuggestContinuous6D         GP-UCB, Matern-5/2 ARD over 6 dims, 6-D box.
//   BM_SuggestContinuous6DGpTs     the same with a GP-TS pathwise sample (1024 features).
//   BM_SuggestContextual           CGP-UCB, the Optimizer's default contextual kernel
//                                  (Matern-5/2 ARD over 4 action dims times Matern-5/2 ARD over
//                                  2 context dims), the 4 actions free, the context fixed.
//   BM_SuggestContextualPlainKernel the same domain and strategy with the plain 6-D Matern-5/2
//                                  (isolates the kernel's cost from the domain's).
//   BM_SuggestContextualGpTs       GP-TS with the default contextual kernel on the same domain.
// BM_FiniteRound: one round of the finite-set loop (score N candidates, argmax, O(N^2)
// posterior update).
//
// Timing (median of 5, same run):
//   acquisition_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// Instruction counts of exactly one suggestion on one thread (repeatable on a busy machine):
//   valgrind --tool=callgrind --collect-atstart=no --toggle-collect='*SuggestOnce*'
//     acquisition_bench --benchmark_filter='BM_SuggestContextual/200/1$' --benchmark_min_time=0
#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <numeric>
#include <vector>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/acquisition/cgp_ucb.h"
#include "gpbandit/acquisition/gp_ts.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/kernel/kernel_factory.h"
#include "gpbandit/maximizer/box_maximizer.h"
#include "gpbandit/maximizer/candidate_posterior.h"
#include "gpbandit/maximizer/finite_argmax.h"

namespace {

using gpbandit::Rng;

constexpr int kDim = 6;
constexpr int kContextDim = 2;

enum class Model { kPlain, kContextProduct };

std::unique_ptr<gpbandit::Kernel> MakeKernel(Model model) {
  if (model == Model::kPlain)
    return gpbandit::MakeMatern52(gpbandit::FirstDims(kDim), true, 1.0, 0.3);
  std::vector<std::unique_ptr<gpbandit::Kernel>> parts;
  parts.push_back(gpbandit::MakeMatern52(gpbandit::FirstDims(kDim - kContextDim), true, 1.0, 0.3));
  parts.push_back(
      gpbandit::MakeMatern52(gpbandit::DimRange(kDim - kContextDim, kContextDim), true, 1.0, 0.3));
  return gpbandit::MakeProduct(std::move(parts));
}

gpbandit::GaussianProcess MakeModel(Model model, int t) {
  gpbandit::GaussianProcess gp(MakeKernel(model), kDim);
  Rng rng(7);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  Eigen::MatrixXd X(kDim, t);
  Eigen::VectorXd y(t);
  for (int j = 0; j < t; ++j) {
    for (int i = 0; i < kDim; ++i) X(i, j) = u(rng);
    y(j) = -gpbandit::problems::Hartmann6(X.col(j));
  }
  gp.AddObservations(X, y);
  return gp;
}

// One suggestion; a named function so that callgrind can collect exactly its cost.
__attribute__((noinline)) gpbandit::BoxMaximizerResult SuggestOnce(
    const gpbandit::Strategy& strategy, const gpbandit::GaussianProcess& gp,
    const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, const Eigen::MatrixXd& extra,
    const gpbandit::BoxMaximizerOptions& options, Rng& rng) {
  const auto acquisition = strategy.MakeContinuous(gp, rng);
  return gpbandit::MaximizeOverBox(*acquisition, lower, upper, extra, options, rng);
}

void Suggest(benchmark::State& state, gpbandit::Strategy& strategy, Model model,
             bool with_context) {
  const int t = static_cast<int>(state.range(0));
  const gpbandit::GaussianProcess gp = MakeModel(model, t);
  const int action_dim = with_context ? kDim - kContextDim : kDim;
  gpbandit::RoundState round;
  round.t = t + 1;
  round.action_dim = action_dim;
  round.information_gain = gp.InformationGain();
  round.incumbent = gp.outputs().maxCoeff();
  strategy.BeginRound(round);
  gpbandit::BoxMaximizerOptions options;
  options.num_threads = static_cast<int>(state.range(1));
  Eigen::VectorXd lower = Eigen::VectorXd::Zero(kDim), upper = Eigen::VectorXd::Ones(kDim);
  if (with_context) {
    // The context of the round, held fixed (lower == upper) as the Optimizer does.
    const double context[kContextDim] = {0.3, 0.7};
    for (int i = 0; i < kContextDim; ++i) {
      lower(action_dim + i) = context[i];
      upper(action_dim + i) = context[i];
    }
  }
  // The three best observed points are extra starts (under this round's context).
  const Eigen::VectorXd y = gp.outputs();
  const Eigen::MatrixXd X = gp.inputs();
  std::vector<int> order(t);
  std::iota(order.begin(), order.end(), 0);
  std::partial_sort(order.begin(), order.begin() + 3, order.end(),
                    [&](int a, int b) { return y(a) > y(b); });
  Eigen::MatrixXd extra(kDim, 3);
  for (int k = 0; k < 3; ++k) {
    extra.col(k) = X.col(order[k]);
    for (int i = action_dim; i < kDim; ++i) extra(i, k) = lower(i);
  }
  // One suggestion outside the measured function first: one-time costs (Ceres' and glog's first
  // solve, lazy symbol binding) stay out of callgrind's count.
  try {
    Rng warm_up(1);
    gpbandit::MaximizeOverBox(*strategy.MakeContinuous(gp, warm_up), lower, upper, extra, options,
                              warm_up);
  } catch (const std::exception& e) {
    state.SkipWithError(e.what());
    return;
  }
  Rng rng(11);
  double value = 0.0;
  int evaluations = 0;
  for (auto _ : state) {
    const gpbandit::BoxMaximizerResult result =
        SuggestOnce(strategy, gp, lower, upper, extra, options, rng);
    value = result.value;
    evaluations = result.num_evaluations;
    benchmark::DoNotOptimize(result.x.data());
  }
  state.counters["evaluations"] = evaluations;
  state.counters["value"] = value;
}

void BM_SuggestContinuous6D(benchmark::State& state) {
  gpbandit::GpUcb ucb;
  Suggest(state, ucb, Model::kPlain, false);
}

void BM_SuggestContinuous6DGpTs(benchmark::State& state) {
  gpbandit::GpTs ts;
  Suggest(state, ts, Model::kPlain, false);
}

void BM_SuggestContextual(benchmark::State& state) {
  gpbandit::CgpUcb ucb;
  Suggest(state, ucb, Model::kContextProduct, true);
}

void BM_SuggestContextualPlainKernel(benchmark::State& state) {
  gpbandit::CgpUcb ucb;
  Suggest(state, ucb, Model::kPlain, true);
}

void BM_SuggestContextualGpTs(benchmark::State& state) {
  gpbandit::GpTs ts;
  Suggest(state, ts, Model::kContextProduct, true);
}

#define GPBANDIT_SUGGEST_BENCHMARK(name) \
  BENCHMARK(name)                        \
      ->ArgNames({"t", "threads"})       \
      ->ArgsProduct({{200}, {1, 2}})     \
      ->Unit(benchmark::kMillisecond)    \
      ->UseRealTime()
GPBANDIT_SUGGEST_BENCHMARK(BM_SuggestContinuous6D);
GPBANDIT_SUGGEST_BENCHMARK(BM_SuggestContinuous6DGpTs);
GPBANDIT_SUGGEST_BENCHMARK(BM_SuggestContextual);
GPBANDIT_SUGGEST_BENCHMARK(BM_SuggestContextualPlainKernel);
GPBANDIT_SUGGEST_BENCHMARK(BM_SuggestContextualGpTs);

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
