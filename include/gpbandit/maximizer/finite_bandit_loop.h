// A simulated bandit on a finite candidate set with known mean rewards: the loop the regret
// studies (and users who want to compare strategies on their own problems) run. Each round:
// BeginRound, score every candidate from the O(N^2)-per-round FiniteSetPosterior (Chowdhury &
// Gopalan appendix F), play the argmax among the candidates allowed this round, observe the mean
// reward plus N(0, noise_sd^2) noise, update the posterior. Cost per round O(N^2) (plus O(N^3)
// for GP-TS's joint sample), independent of t.
//
// Contexts (Krause & Ong): the environment reveals context g_t = context_of_round[t - 1]; the
// mean reward of candidate i is rewards(i, g_t) (column 0 when rewards has one column). With
// candidate_context set, candidate i may be played only when candidate_context[i] == g_t (CGP-UCB
// over joint (action, context) candidates); otherwise every candidate is allowed (a learner that
// ignores the context). Regret r_t = max over allowed i of rewards(i, g_t) - rewards(x_t, g_t): the
// contextual regret.
//
// One round of it is FiniteBanditPlayer, which `gpbandit run` (examples/studies/regret_study.cc)
// uses too, so the studies of bench/ and of the command line play the same rounds.
// RoundState: t = the posterior's observations + 1, action_dim, num_candidates = the number of
// candidates allowed this round (|D| of the finite-set beta_t: the actions available under
// this round's context), information_gain = the posterior's, incumbent = the highest posterior
// mean among the candidates played so far (-infinity before any), best_observed = the highest
// reward observed, noise_variance = the posterior's lambda. Deterministic for a given rng
// state.
#ifndef GPBANDIT_MAXIMIZER_FINITE_BANDIT_LOOP_H_
#define GPBANDIT_MAXIMIZER_FINITE_BANDIT_LOOP_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/gp/finite_set_posterior.h"

namespace gpbandit {

struct FiniteBanditProblem {
  // N x G mean rewards: candidate i under context g. A single column (G = 1) is used whatever
  // the context (no contexts, or joint (action, context) candidates that carry their own
  // reward). Finite.
  Eigen::MatrixXd rewards;
  // The context of each round (T entries in [0, G)); empty = context 0 in every round.
  std::vector<int> context_of_round;
  // Per candidate, the only context in which it may be played (N entries); empty = always.
  std::vector<int> candidate_context;
  // Standard deviation of the observation noise. >= 0.
  double noise_sd = 0.0;
  // Number of action coordinates reported to the strategy (compact beta_t). >= 1.
  int action_dim = 1;
};

struct FiniteBanditRun {
  std::vector<int> played;  // T candidate indices
  Eigen::VectorXd regret;   // T instantaneous (contextual) regrets, >= 0
  double CumulativeRegret() const { return regret.sum(); }
};

// One player of the simulated bandit: a strategy over a FiniteSetPosterior, both updated in
// place (they must outlive the player). Not thread-safe.
class FiniteBanditPlayer {
 public:
  FiniteBanditPlayer(Strategy& strategy, FiniteSetPosterior& posterior, int action_dim);
  // BeginRound with the state above, then the argmax of the strategy's scores among the
  // allowed candidates (allowed: N entries, at least one true; empty = all). May draw from
  // rng (GP-TS). threads: of the argmax (0 = the OpenMP default).
  int Choose(const Eigen::Array<bool, Eigen::Dynamic, 1>& allowed, Rng& rng, int threads = 0);
  // Observes reward y at candidate `index` (usually the one just chosen).
  void Observe(int index, double y);

 private:
  Strategy& strategy_;
  FiniteSetPosterior& posterior_;
  int action_dim_;
  std::vector<char> observed_;
  std::vector<int> observed_list_;
  double best_observed_;
};

// Runs `horizon` rounds (>= 1; with context_of_round set, at most its size). The posterior must
// be over the same N candidates and is updated in place (pass a fresh one per run). Throws
// std::invalid_argument for inconsistent sizes or values.
FiniteBanditRun RunFiniteBandit(Strategy& strategy, FiniteSetPosterior& posterior,
                                const FiniteBanditProblem& problem, int horizon, Rng& rng);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_FINITE_BANDIT_LOOP_H_
