#include "gpbandit/acquisition/finite_bandit_loop.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "gpbandit/acquisition/candidate_posterior.h"
#include "gpbandit/acquisition/finite_argmax.h"

namespace gpbandit {
namespace {

void Check(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

FiniteBanditRun RunFiniteBandit(Strategy& strategy, FiniteSetPosterior& posterior,
                                const FiniteBanditProblem& problem, int horizon, Rng& rng) {
  const int n = static_cast<int>(problem.rewards.rows());
  const int num_contexts = static_cast<int>(problem.rewards.cols());
  Check(horizon >= 1, "horizon = " + std::to_string(horizon) + ": must be >= 1");
  Check(n == posterior.size(), "rewards: " + std::to_string(n) + " rows != posterior size " +
                                   std::to_string(posterior.size()));
  Check(num_contexts >= 1, "rewards: no column");
  Check(problem.rewards.allFinite(), "rewards: non-finite entry");
  Check(problem.noise_sd >= 0.0 && std::isfinite(problem.noise_sd),
        "noise_sd = " + std::to_string(problem.noise_sd) + ": must be finite and >= 0");
  Check(problem.context_of_round.empty() ||
            static_cast<int>(problem.context_of_round.size()) >= horizon,
        "context_of_round: " + std::to_string(problem.context_of_round.size()) +
            " entries < horizon " + std::to_string(horizon));
  for (int g : problem.context_of_round)
    Check(g >= 0 && (num_contexts == 1 || g < num_contexts),
          "context_of_round: context " + std::to_string(g) + " outside [0, " +
              std::to_string(num_contexts) + ")");
  Check(
      problem.candidate_context.empty() || static_cast<int>(problem.candidate_context.size()) == n,
      "candidate_context: " + std::to_string(problem.candidate_context.size()) +
          " entries != N = " + std::to_string(n));

  FiniteBanditRun run;
  run.played.reserve(horizon);
  run.regret.resize(horizon);
  std::vector<char> observed(n, 0);
  std::vector<int> observed_list;
  double best_observed = -std::numeric_limits<double>::infinity();
  std::normal_distribution<double> noise(0.0, 1.0);
  Eigen::Array<bool, Eigen::Dynamic, 1> allowed = Eigen::Array<bool, Eigen::Dynamic, 1>::Ones(n);
  for (int t = 1; t <= horizon; ++t) {
    const int g = problem.context_of_round.empty() ? 0 : problem.context_of_round[t - 1];
    const int column = num_contexts == 1 ? 0 : g;
    if (!problem.candidate_context.empty())
      for (int i = 0; i < n; ++i) allowed(i) = problem.candidate_context[i] == g;

    RoundState state;
    state.t = t;
    state.action_dim = problem.action_dim;
    state.num_candidates = n;
    state.information_gain = posterior.InformationGain();
    state.noise_variance = posterior.noise_variance();
    state.incumbent = -std::numeric_limits<double>::infinity();
    for (int i : observed_list) state.incumbent = std::max(state.incumbent, posterior.mean()(i));
    state.best_observed = best_observed;
    strategy.BeginRound(state);

    const FiniteSetCandidatePosterior view(posterior);
    const Eigen::VectorXd scores = strategy.ScoreCandidates(view, rng);
    const int chosen = problem.candidate_context.empty() ? FiniteArgmax(scores)
                                                         : FiniteArgmaxMasked(scores, allowed);
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
      if (allowed(i)) best = std::max(best, problem.rewards(i, column));
    run.played.push_back(chosen);
    run.regret(t - 1) = best - problem.rewards(chosen, column);

    const double y = problem.rewards(chosen, column) + problem.noise_sd * noise(rng);
    posterior.Observe(chosen, y);
    best_observed = std::max(best_observed, y);
    if (!observed[chosen]) {
      observed[chosen] = 1;
      observed_list.push_back(chosen);
    }
  }
  return run;
}

}  // namespace gpbandit
