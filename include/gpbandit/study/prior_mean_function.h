// A user's function m(x, z) as the prior mean of the GP of a study's reward ("the simulator as
// prior mean"; docs/fidelities.md, "The simulator as a prior mean"), in the manner of limbo's
// FunctionARD mean (Cully et al. 2015, Nature 521): the reward model's prior mean is
// a m(x, z) + b with a fitted. The Optimizer adds the kernel of one explicit basis function,
// s2 phi(u) phi(u') (kernel/feature_kernel.h; Rasmussen & Williams 2006, sec. 2.7), to the
// study's kernel, where u is the model input (unit cube) of (x, z) and
//   phi(u) = (m(x, z) - mean) / stddev,
// mean and stddev being m's mean and standard deviation over a fixed, deterministic set of
// points of the box (the first kCentringPoints points of the Halton sequence in the unit cube,
// so that they are the same on every resume). s2 is a log-param of kind signal variance, fitted
// by the study's marginal-likelihood refits (default prior log(s2) ~ N(0, 1.5^2) like every
// signal variance of the default kernel): the coefficient beta ~ N(0, s2) of phi is integrated
// out (R&W eq. 2.42), its sign and size learnt from the data, so that a misleading m is turned
// down by the fit rather than followed. The offset b is the output standardization's mean.
//
// Units: x in the caller's (original) units, size action_dim; z the context in the caller's
// units (empty without contexts); m in any units: only its shape enters, through phi, and the
// fitted coefficient's sign is free, so m of the cost serves a minimize study as well.
// gradient (optional): d m / d x and d m / d z stacked, size action_dim + context_dim, original
// units; without it the Optimizer takes central finite differences in the unit cube (step 1e-5).
//
// Supported: box domains, without contexts or with bounded box contexts. Refused with
// std::invalid_argument naming OptimizerOptions.prior_mean_function: finite sets and parameter
// spaces, unbounded or parameter-space contexts, several outcomes, fidelities, safe or
// constrained strategies, time models.
//
// Contract: value (and gradient) are called concurrently from the maximizer's OpenMP threads,
// so they must be thread safe; they must return finite values (a NaN or inf is refused with
// std::invalid_argument naming the value and x, from the call that evaluated it). They must be
// deterministic: the log records `name`, mean and stddev; continuing the study needs a function
// of the same name whose mean and stddev over the fixed set agree to a relative 1e-9, else the
// Optimizer refuses (std::runtime_error, like every header mismatch, nothing written):
// "prior_mean_function 'sim' differs from the one the study was created with"; so does a study
// created without one and continued with one, or the reverse. Optimizer::Resume and Open take
// no function: continue such a study with the constructor, options.log_path and the function
// (Resume refuses with std::invalid_argument naming this field). Not on the command line (a
// callable is not a flag).
#ifndef GPBANDIT_STUDY_PRIOR_MEAN_FUNCTION_H_
#define GPBANDIT_STUDY_PRIOR_MEAN_FUNCTION_H_

#include <Eigen/Core>
#include <functional>
#include <limits>
#include <string>

namespace gpbandit {

struct PriorMeanFunction {
  // The size of the fixed centring set.
  static constexpr int kCentringPoints = 256;

  // The function's name, recorded in the study's header: non-empty when value is set.
  std::string name;
  // m(x, z); empty: no prior mean (the default).
  std::function<double(const Eigen::VectorXd& x, const Eigen::VectorXd& z)> value;
  // Optional [d m / d x; d m / d z] at (x, z), original units.
  std::function<Eigen::VectorXd(const Eigen::VectorXd& x, const Eigen::VectorXd& z)> gradient;
  // m's mean and standard deviation over the centring set: computed by the Optimizer when it is
  // built (any value given here is replaced), logged; NaN until then.
  double mean = std::numeric_limits<double>::quiet_NaN();
  double stddev = std::numeric_limits<double>::quiet_NaN();

  // True when a function is given.
  bool active() const { return static_cast<bool>(value); }
  // True when the study has a prior mean: a function, or (read from a log) only its name.
  bool declared() const { return active() || !name.empty(); }
};

}  // namespace gpbandit

#endif  // GPBANDIT_STUDY_PRIOR_MEAN_FUNCTION_H_
