// Random scalarizations of several objectives (all maximized) into one (Paria, Kandasamy &
// Póczos, UAI 2019, "A flexible framework for multi-objective Bayesian optimization using
// random scalarizations"): each round draws weights lambda and optimizes s_lambda of the
// objectives' upper confidence bounds (UCB) or of one Thompson draw (TS), which carries their
// Bayes regret bounds over the weight distribution.
//
// Normalization (stated once, used by every function here): objective i is mapped to
//   yhat_i = (y_i - lower_i) / (upper_i - lower_i),
// so that weights compare objectives of different units. ObjectiveNormalization::FromObservations
// takes lower and upper as the observed minimum and maximum of each objective (an objective
// observed constant gets upper = lower + 1); a caller may set them from known ranges instead.
// Values outside [lower, upper] map outside [0, 1] and are not clipped.
//
// Scalarizations, for weights lambda >= 0:
//   linear:     s(y) = sum_i lambda_i yhat_i,
//   Chebyshev:  s(y) = min_i lambda_i yhat_i   (Paria et al. eq. 2, with the ideal-point offset
//               z = lower: maximizing it for every lambda recovers the whole Pareto front, also
//               its non-convex parts, which linear scalarizations miss).
// The gradient of Chebyshev's is that of its minimizing term (lowest index among ties): a
// subgradient where two terms tie.
//
// Weights: kSimplex draws lambda uniformly from the simplex {lambda >= 0, sum lambda = 1}
// (normalized independent Exp(1) draws: Dirichlet(1, ..., 1)), as Paria et al.'s experiments;
// kSphere uniformly from the positive part of the unit sphere (normalized |N(0, I)| draws), under
// which Chebyshev scalarizations relate to the hypervolume (Golovin & Zhang, ICML 2020).
//
// Units: yhat and s are dimensionless; mean and sigma are in the objectives' units.
// Contract: sizes match, every entry finite, weights >= 0, upper > lower; otherwise
// std::invalid_argument naming the field, the entry and its value.
// Thread-safety: free functions without shared state; SampleScalarizationWeights draws from the
// caller's generator, which must not be shared. The same seed gives the same weights.
#ifndef GPBANDIT_ACQUISITION_SCALARIZATION_H_
#define GPBANDIT_ACQUISITION_SCALARIZATION_H_

#include <Eigen/Core>

#include "gpbandit/numerics/random.h"

namespace gpbandit {

enum class WeightDistribution { kSimplex, kSphere };
enum class Scalarization { kLinear, kChebyshev };

// objectives x count: one weight vector per column. objectives >= 1, count >= 0.
Eigen::MatrixXd SampleScalarizationWeights(
    int objectives, int count, Rng& rng,
    WeightDistribution distribution = WeightDistribution::kSimplex);

struct ObjectiveNormalization {
  Eigen::VectorXd lower, upper;  // k entries each, upper > lower

  // From observed values (k x n, n >= 1): the per-objective minimum and maximum.
  static ObjectiveNormalization FromObservations(const Eigen::MatrixXd& values);
};

// s(y) for one outcome vector y (k entries); *d_y (if non-null) = ds/dy, resized to k.
double Scalarize(Scalarization kind, const Eigen::VectorXd& weights,
                 const ObjectiveNormalization& normalization, const Eigen::VectorXd& y,
                 Eigen::VectorXd* d_y);

// s applied to each column of values (k x n): e.g. n candidates' Thompson draws.
Eigen::VectorXd ScalarizeColumns(Scalarization kind, const Eigen::VectorXd& weights,
                                 const ObjectiveNormalization& normalization,
                                 const Eigen::MatrixXd& values);

// s(mean + sqrt_beta * sigma): the scalarized UCB of Paria et al. (Algorithm 1), sqrt_beta >= 0
// the index strategy's beta_t^(1/2); the gradients (if non-null) are resized to k.
double ScalarizedUpperConfidenceBound(Scalarization kind, const Eigen::VectorXd& weights,
                                      const ObjectiveNormalization& normalization,
                                      const Eigen::VectorXd& mean, const Eigen::VectorXd& sigma,
                                      double sqrt_beta, Eigen::VectorXd* d_mean,
                                      Eigen::VectorXd* d_sigma);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_SCALARIZATION_H_
