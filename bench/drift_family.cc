#include "bench/drift_family.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>

#include "gpbandit/numerics/random.h"
#include "numerics/math.h"

namespace gpbandit {
namespace bench {
namespace {

constexpr int kFeatures = 256;
constexpr int kEpisodes = 150;

// w_0 ~ N(0, I); w_{t+1} = sqrt(1 - eps) w_t + sqrt(eps) n_t.
Eigen::MatrixXd MarkovWeights(double eps, Rng& rng) {
  Eigen::MatrixXd w(kFeatures, kEpisodes);
  w.col(0) = StandardNormalVector(kFeatures, rng);
  for (int t = 1; t < kEpisodes; ++t)
    w.col(t) =
        std::sqrt(1.0 - eps) * w.col(t - 1) + std::sqrt(eps) * StandardNormalVector(kFeatures, rng);
  return w;
}

// w_t = cos(a_t) u + sin(a_t) v, a_t = 0 before episode `start`, pi/2 from `end` on, linear in
// between (a jump when start == end).
Eigen::MatrixXd SwitchingWeights(int start, int end, Rng& rng) {
  const Eigen::VectorXd u = StandardNormalVector(kFeatures, rng);
  const Eigen::VectorXd v = StandardNormalVector(kFeatures, rng);
  Eigen::MatrixXd w(kFeatures, kEpisodes);
  for (int t = 0; t < kEpisodes; ++t) {
    const double s = t >= end    ? 1.0
                     : t < start ? 0.0
                                 : static_cast<double>(t - start) / (end - start);
    const double a = 0.5 * kPi * s;
    w.col(t) = std::cos(a) * u + std::sin(a) * v;
  }
  return w;
}

Eigen::MatrixXd CandidatePoints(int dim, Rng& rng) {
  if (dim == 1) return Eigen::RowVectorXd::LinSpaced(512, 0.0, 1.0);
  Eigen::MatrixXd points(dim, 4096);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int j = 0; j < points.cols(); ++j)
    for (int i = 0; i < dim; ++i) points(i, j) = unit(rng);
  return points;
}

}  // namespace

const std::vector<std::string>& DriftKinds() {
  static const std::vector<std::string> kinds = {"markov-slow", "markov-fast", "ramp", "jump"};
  return kinds;
}

std::vector<std::string> DriftProblemNames(FamilyHalf half) {
  return HalfNames(DriftKinds(), half, 1, 2, 2, 3);
}

DriftingProblem::DriftingProblem(const std::string& name) : name_(name) {
  const ProblemName parsed = ParseProblemName(name, DriftKinds(), 5);
  kind_ = parsed.kind;
  dim_ = parsed.dim;
  const auto kind_index = std::find(DriftKinds().begin(), DriftKinds().end(), kind_);
  Rng rng =
      SeededRng({parsed.seed, static_cast<std::uint64_t>(dim_),
                 static_cast<std::uint64_t>(kind_index - DriftKinds().begin()), 0x6472696674ULL});
  Eigen::VectorXd inverse_lengthscales(dim_);
  std::uniform_real_distribution<double> log_lengthscale(std::log(0.2), std::log(0.5));
  for (int i = 0; i < dim_; ++i) inverse_lengthscales(i) = std::exp(-log_lengthscale(rng));
  omega_ = StandardNormalMatrix(kFeatures, dim_, rng) * inverse_lengthscales.asDiagonal();
  phases_.resize(kFeatures);
  std::uniform_real_distribution<double> phase(0.0, 2.0 * kPi);
  for (int j = 0; j < kFeatures; ++j) phases_(j) = phase(rng);
  if (kind_ == "markov-slow" || kind_ == "markov-fast") {
    weights_ = MarkovWeights(kind_ == "markov-slow" ? 0.002 : 0.01, rng);
    change_start_ = 0;
    change_end_ = kEpisodes;
  } else {
    if (kind_ == "ramp") {
      change_start_ = std::uniform_int_distribution<int>(30, 70)(rng);
      change_end_ = change_start_ + std::uniform_int_distribution<int>(30, 60)(rng);
    } else {
      change_start_ = change_end_ = std::uniform_int_distribution<int>(50, 100)(rng);
    }
    weights_ = SwitchingWeights(change_start_, change_end_, rng);
  }
  const Eigen::MatrixXd candidates = CandidatePoints(dim_, rng);
  Eigen::MatrixXd phi(kFeatures, candidates.cols());
  for (int j = 0; j < candidates.cols(); ++j) phi.col(j) = Features(candidates.col(j));
  // values(c, t) = f_t at candidate c.
  const Eigen::MatrixXd values = phi.transpose() * weights_;
  episode_max_ = values.colwise().maxCoeff().transpose();
  episode_min_ = values.colwise().minCoeff().transpose();
}

Eigen::VectorXd DriftingProblem::Features(const Eigen::VectorXd& x) const {
  return std::sqrt(2.0 / kFeatures) * ((omega_ * x) + phases_).array().cos().matrix();
}

double DriftingProblem::Value(int t, const Eigen::VectorXd& x) const {
  if (t < 0 || t >= episodes())
    throw std::invalid_argument("DriftingProblem::Value: episode " + std::to_string(t) +
                                " outside [0, " + std::to_string(episodes()) + ")");
  return weights_.col(t).dot(Features(x));
}

double DriftingProblem::EpisodeMax(int t) const { return episode_max_(t); }

double DriftingProblem::EpisodeMin(int t) const { return episode_min_(t); }

}  // namespace bench
}  // namespace gpbandit
