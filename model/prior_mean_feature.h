// The user's prior mean function (study/prior_mean_function.h) as a basis function of the
// model input, and the study kernel that carries it. Internal to model/.
#ifndef GPBANDIT_MODEL_PRIOR_MEAN_FEATURE_H_
#define GPBANDIT_MODEL_PRIOR_MEAN_FEATURE_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/kernel/feature_kernel.h"
#include "gpbandit/space/domain.h"
#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// phi(u) = (m(x(u), z(u)) - mean) / stddev, where (x, z) are the original units of the model
// input u of a box domain (with bounded box contexts): x_i = lower_i + u_i (upper_i - lower_i),
// unclamped so that finite differences at the faces stay central. Gradient: the function's own,
// chained through the box's widths, or central differences with step kFiniteDifferenceStep in
// the unit cube. Every value of m is checked: a NaN or inf throws std::invalid_argument naming
// the function, the value and (x, z). The gradient at the point of the last call is kept per
// thread and reused (an acquisition evaluation asks for it up to three times), so that central
// differences cost 2 d calls of m per new point. Thread safe when m is.
class PriorMeanFeature : public ScalarFeature {
 public:
  static constexpr double kFiniteDifferenceStep = 1e-5;

  // function.active(); mean finite, stddev finite and > 0; domain a supported box.
  PriorMeanFeature(PriorMeanFunction function, const Domain& domain, double mean, double stddev);

  double Value(const ConstVectorRef& u) const override;
  void AccumulateGradient(const ConstVectorRef& u, double scale, VectorRef grad) const override;
  std::string Describe() const override;

  // m at the original units of u, checked finite.
  double RawValue(const ConstVectorRef& u) const;

 private:
  // Per coordinate of u: m's gradient (the function's own, original units) or, with central
  // differences, m(u + h e_i) - m(u - h e_i); 0 where the box is flat. Kept per thread for the
  // last u (above); valid until this thread's next call.
  const Eigen::VectorXd& RawSlopes(const ConstVectorRef& u) const;

  static std::atomic<std::uint64_t> next_id_;
  PriorMeanFunction function_;
  Eigen::VectorXd lower_, width_;  // [action; context] box in original units
  int action_dim_;
  double mean_, stddev_;
  std::uint64_t id_;  // distinct for every feature made in this process
};

// m's mean and (population) standard deviation over the first PriorMeanFunction::
// kCentringPoints points of the Halton sequence in the domain's unit cube (mapped to original
// units): fixed, so that the same function gives the same constants on every resume.
void CentringConstants(const PriorMeanFunction& function, const Domain& domain, double* mean,
                       double* stddev);

// The study's kernel with the prior mean's basis kernel added, s2 starting at 1:
// kernel + FeatureKernel(phi). Fills options->prior_mean_function's mean and stddev. Returns
// the kernel unchanged when no prior mean is declared. Throws std::invalid_argument naming
// OptimizerOptions.prior_mean_function for a combination it does not support (see
// prior_mean_function.h), a name without a function (a log resumed without it), a function
// without a name, a constant or non-finite function over the centring set.
std::unique_ptr<Kernel> WithPriorMean(std::unique_ptr<Kernel> kernel, const Domain& domain,
                                      const Strategy& strategy, OptimizerOptions* options);

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_PRIOR_MEAN_FEATURE_H_
