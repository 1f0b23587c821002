#include "gpbandit/maximizer/finite_bandit_loop.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>

#include "gpbandit/maximizer/candidate_posterior.h"
#include "gpbandit/maximizer/finite_argmax.h"

namespace gpbandit {
namespace {

void Check(bool ok, const std::string& message) {
  if (!ok) throw std::invalid_argument(message);
}

}  // namespace

FiniteBanditPlayer::FiniteBanditPlayer(Strategy& strategy, FiniteSetPosterior& posterior,
                                       int action_dim)
    : strategy_(strategy),
      posterior_(posterior),
      action_dim_(action_dim),
      observed_(static_cast<std::size_t>(posterior.size()), 0),
      best_observed_(-std::numeric_limits<double>::infinity()) {
  Check(action_dim >= 1, "action_dim = " + std::to_string(action_dim) + ": must be >= 1");
}

int FiniteBanditPlayer::Choose(const Eigen::Array<bool, Eigen::Dynamic, 1>& allowed, Rng& rng,
                               int threads) {
  const int n = posterior_.size();
  Check(allowed.size() == 0 || allowed.size() == n,
        "allowed: " + std::to_string(allowed.size()) + " entries != N = " + std::to_string(n));
  RoundState state;
  state.t = posterior_.num_observations() + 1;
  state.action_dim = action_dim_;
  state.num_candidates = allowed.size() == 0 ? n : static_cast<int>(allowed.count());
  state.information_gain = posterior_.InformationGain();
  state.noise_variance = posterior_.noise_variance();
  for (int i : observed_list_) state.incumbent = std::max(state.incumbent, posterior_.mean()(i));
  state.best_observed = best_observed_;
  strategy_.BeginRound(state);
  const FiniteSetCandidatePosterior view(posterior_);
  const Eigen::VectorXd scores = strategy_.ScoreCandidates(view, rng);
  return allowed.size() == 0 ? FiniteArgmax(scores, threads)
                             : FiniteArgmaxMasked(scores, allowed, threads);
}

void FiniteBanditPlayer::Observe(int index, double y) {
  posterior_.Observe(index, y);
  best_observed_ = std::max(best_observed_, y);
  if (!observed_[static_cast<std::size_t>(index)]) {
    observed_[static_cast<std::size_t>(index)] = 1;
    observed_list_.push_back(index);
  }
}

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
  FiniteBanditPlayer player(strategy, posterior, problem.action_dim);
  std::normal_distribution<double> noise(0.0, 1.0);
  Eigen::Array<bool, Eigen::Dynamic, 1> allowed = Eigen::Array<bool, Eigen::Dynamic, 1>::Ones(n);
  const Eigen::Array<bool, Eigen::Dynamic, 1> no_mask;
  for (int t = 1; t <= horizon; ++t) {
    const int g = problem.context_of_round.empty() ? 0 : problem.context_of_round[t - 1];
    const int column = num_contexts == 1 ? 0 : g;
    if (!problem.candidate_context.empty())
      for (int i = 0; i < n; ++i) allowed(i) = problem.candidate_context[i] == g;
    const int chosen = player.Choose(problem.candidate_context.empty() ? no_mask : allowed, rng);
    double best = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i)
      if (allowed(i)) best = std::max(best, problem.rewards(i, column));
    run.played.push_back(chosen);
    run.regret(t - 1) = best - problem.rewards(chosen, column);
    player.Observe(chosen, problem.rewards(chosen, column) + problem.noise_sd * noise(rng));
  }
  return run;
}

}  // namespace gpbandit
