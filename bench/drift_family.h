// A generated family of drifting objectives for the forgetting strategies (tv-gp-ucb,
// r-gp-ucb; bench/drift_family_study.cc), split like bench/problem_family.h: even instance
// seeds are the tuning half, odd ones the held-out half, two instances of each kind per half
// (one in 1-2 dimensions, one in 2-3). Every problem lives on [0, 1]^d for 150 episodes, is a
// reward to maximize, and is observed with Gaussian noise of standard deviation 0.05 (the
// functions have unit prior variance).
//
// Every f_t is a GP sample path of a squared-exponential kernel (lengthscales log-uniform in
// [0.2, 0.5]) through 256 random Fourier features, f_t(x) = w_t . phi(x), and the kinds differ
// in how the weights w_t move (each keeps w_t ~ N(0, I) marginally, so f_t is always a draw
// from the same prior):
// - markov-slow, markov-fast: Bogunovic, Scarlett & Cevher's model (AISTATS 2016),
//   w_{t+1} = sqrt(1 - eps) w_t + sqrt(eps) n_t, n_t ~ N(0, I), eps = 0.002 and 0.01;
// - ramp: w_t = cos(a_t) u + sin(a_t) v, a_t rising linearly from 0 to pi/2 between episodes
//   s and e and constant before and after (a plant that changes, then settles: the drift-demo's
//   shape), s uniform in 30..70 and e - s in 30..60 per instance;
// - jump: w_t = u before episode s and v from it on (an abrupt change), s uniform in 50..100.
// (Change points drawn per instance, so that no epoch length of r-gp-ucb lines up with all.)
//
// Regret of episode t: max_x f_t(x) - f_t(x_t), the maximum taken over a fixed set of candidate
// points (a 512-point grid in 1-D, 4096 uniform points otherwise) and the point played. The
// episode's range max_x f_t - min_x f_t (over the same points; 0.5-5 for these paths, smallest for
// flat 1-D ones) is the scale that bench/drift_family_study.cc measures harmful episodes against.
// Names: "<kind>-<d>d-<seed>".
#ifndef GPBANDIT_BENCH_DRIFT_FAMILY_H_
#define GPBANDIT_BENCH_DRIFT_FAMILY_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "bench/problem_family.h"

namespace gpbandit {
namespace bench {

class DriftingProblem {
 public:
  // Throws std::invalid_argument for a name that is not "<known kind>-<d>d-<seed>" with
  // 1 <= d <= 5.
  explicit DriftingProblem(const std::string& name);

  const std::string& name() const { return name_; }
  const std::string& kind() const { return kind_; }
  int dim() const { return dim_; }
  int episodes() const { return static_cast<int>(weights_.cols()); }
  double noise_sd() const { return 0.05; }
  // f_t(x), 0 <= t < episodes(), x in [0, 1]^d.
  double Value(int t, const Eigen::VectorXd& x) const;
  // max over the candidate points of f_t.
  double EpisodeMax(int t) const;
  // min over the candidate points of f_t.
  double EpisodeMin(int t) const;
  // f_t changes only for change_start() <= t < change_end() (ramp), at t = change_start() =
  // change_end() (jump), or all along (0 and episodes(), markov).
  int change_start() const { return change_start_; }
  int change_end() const { return change_end_; }

 private:
  Eigen::VectorXd Features(const Eigen::VectorXd& x) const;

  std::string name_, kind_;
  int dim_ = 0;
  Eigen::MatrixXd omega_;        // features x d, rows scaled by the inverse lengthscales
  Eigen::VectorXd phases_;       // features
  Eigen::MatrixXd weights_;      // features x episodes: w_t
  Eigen::VectorXd episode_max_;  // episodes
  Eigen::VectorXd episode_min_;  // episodes
  int change_start_ = 0, change_end_ = 0;
};

// The drift family's kinds and the problems of one half.
const std::vector<std::string>& DriftKinds();
std::vector<std::string> DriftProblemNames(FamilyHalf half);

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_DRIFT_FAMILY_H_
