#include "model/prior_mean_feature.h"

#include <cmath>
#include <cstring>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace {

const char kPriorMeanField[] = "OptimizerOptions.prior_mean_function";

std::string ShownVector(const Eigen::VectorXd& v) {
  std::ostringstream out;
  out.precision(17);
  out << "[";
  for (Eigen::Index i = 0; i < v.size(); ++i) out << (i ? ", " : "") << v(i);
  out << "]";
  return out.str();
}

// The first n primes, the Halton sequence's bases.
std::vector<int> FirstPrimes(int n) {
  std::vector<int> primes;
  for (int candidate = 2; static_cast<int>(primes.size()) < n; ++candidate) {
    bool prime = true;
    for (int p : primes)
      if (candidate % p == 0) prime = false;
    if (prime) primes.push_back(candidate);
  }
  return primes;
}

// The radical inverse of index in base `base` (Halton 1960).
double RadicalInverse(int index, int base) {
  double result = 0.0, fraction = 1.0 / base;
  for (; index > 0; index /= base, fraction /= base) result += fraction * (index % base);
  return result;
}

// Everything a prior mean cannot go with yet, before any call of m.
void CheckPriorMeanSupport(const PriorMeanFunction& f, const Domain& domain,
                           const Strategy& strategy, const OptimizerOptions& options) {
  const std::string with = std::string(kPriorMeanField) + " ('" + f.name + "') ";
  if (!f.active())
    throw std::invalid_argument(with +
                                "has no function: the study was created with a prior mean "
                                "function of that name; give it again (value is empty)");
  if (f.name.empty())
    throw std::invalid_argument(std::string(kPriorMeanField) +
                                ".name is empty: a function needs a name for the study's header");
  if (domain.kind() != DomainKind::kBox)
    throw std::invalid_argument(with + "needs a box domain, not " + domain.Describe());
  if (domain.context_dim() > 0 && (domain.context_transform() || !domain.has_context_bounds()))
    throw std::invalid_argument(with +
                                "needs bounded box contexts (its centring set lies in "
                                "the box), not " +
                                domain.Describe());
  if (options.outcomes.active())
    throw std::invalid_argument(with + "does not go with OptimizerOptions.outcomes yet");
  if (options.fidelities.active())
    throw std::invalid_argument(with + "does not go with OptimizerOptions.fidelities yet");
  if (strategy.safe_seeds().cols() > 0 || strategy.num_constraints() > 0 ||
      !strategy.safety_signals().empty())
    throw std::invalid_argument(with + "does not go with strategy '" + strategy.name() +
                                "', which models safety or constraint signals, yet");
  if (strategy.time_model().kind != TimeModelKind::kNone)
    throw std::invalid_argument(with + "does not go with strategy '" + strategy.name() +
                                "', which models a drifting objective over the rounds, yet");
}

// The box [action; context] of a supported domain: lower and width in original units.
void BoxOf(const Domain& domain, Eigen::VectorXd* lower, Eigen::VectorXd* width) {
  lower->resize(domain.input_dim());
  width->resize(domain.input_dim());
  lower->head(domain.action_dim()) = domain.lower();
  width->head(domain.action_dim()) = domain.upper() - domain.lower();
  if (domain.context_dim() > 0) {
    lower->tail(domain.context_dim()) = domain.context_lower();
    width->tail(domain.context_dim()) = domain.context_upper() - domain.context_lower();
  }
}

}  // namespace

std::atomic<std::uint64_t> PriorMeanFeature::next_id_{0};

PriorMeanFeature::PriorMeanFeature(PriorMeanFunction function, const Domain& domain, double mean,
                                   double stddev)
    : function_(std::move(function)),
      action_dim_(domain.action_dim()),
      mean_(mean),
      stddev_(stddev),
      id_(next_id_.fetch_add(1) + 1) {
  if (!function_.active()) throw std::invalid_argument("PriorMeanFeature: the function is empty");
  if (!std::isfinite(mean) || !(stddev > 0.0) || !std::isfinite(stddev))
    throw std::invalid_argument("PriorMeanFeature: mean " + std::to_string(mean) + ", stddev " +
                                std::to_string(stddev) + ": expected finite, stddev > 0");
  BoxOf(domain, &lower_, &width_);
}

double PriorMeanFeature::RawValue(const ConstVectorRef& u) const {
  const Eigen::VectorXd point = lower_ + u.head(lower_.size()).cwiseProduct(width_);
  const Eigen::VectorXd x = point.head(action_dim_);
  const Eigen::VectorXd z = point.tail(point.size() - action_dim_);
  const double m = function_.value(x, z);
  if (!std::isfinite(m)) {
    std::ostringstream out;
    out << kPriorMeanField << " '" << function_.name << "' returned " << m
        << " at x = " << ShownVector(x) << (z.size() ? ", z = " + ShownVector(z) : "")
        << "; it must be finite everywhere in the box";
    throw std::invalid_argument(out.str());
  }
  return m;
}

double PriorMeanFeature::Value(const ConstVectorRef& u) const {
  return (RawValue(u) - mean_) / stddev_;
}

void PriorMeanFeature::AccumulateGradient(const ConstVectorRef& u, double scale,
                                          VectorRef grad) const {
  const Eigen::Index n = lower_.size();
  const Eigen::VectorXd& slopes = RawSlopes(u);
  if (function_.gradient) {
    grad.head(n) += (scale / stddev_) * slopes.cwiseProduct(width_);
    return;
  }
  const double h = kFiniteDifferenceStep;
  for (Eigen::Index i = 0; i < n; ++i)
    if (width_(i) > 0.0) grad(i) += scale * slopes(i) / (2.0 * h * stddev_);
}

// One acquisition evaluation asks for the gradient at the same u up to three times (the prior
// variance's and the mean's and variance's contractions, kernel/feature_kernel.h); with central
// differences each costs 2 d calls of m. The memo is per thread, keyed by this feature's id
// (an address may be reused by a later feature) and u's bits.
const Eigen::VectorXd& PriorMeanFeature::RawSlopes(const ConstVectorRef& u) const {
  thread_local std::uint64_t memo_id = 0;
  thread_local Eigen::VectorXd memo_u, memo_slopes;
  const Eigen::Index n = lower_.size();
  if (memo_id == id_ && memo_u.size() == u.size() &&
      std::memcmp(memo_u.data(), u.data(), sizeof(double) * static_cast<std::size_t>(u.size())) ==
          0)
    return memo_slopes;
  Eigen::VectorXd slopes = Eigen::VectorXd::Zero(n);
  if (function_.gradient) {
    const Eigen::VectorXd point = lower_ + u.head(n).cwiseProduct(width_);
    slopes = function_.gradient(point.head(action_dim_), point.tail(n - action_dim_));
    if (slopes.size() != n || !slopes.allFinite())
      throw std::invalid_argument(std::string(kPriorMeanField) + " '" + function_.name +
                                  "': gradient returned " + ShownVector(slopes) + " at " +
                                  ShownVector(point) + ", expected " + std::to_string(n) +
                                  " finite values");
  } else {
    // Central differences in the unit cube: m's units are the caller's, but the cube's are
    // the same for every coordinate, so one step fits all.
    Eigen::VectorXd probe = u;
    for (Eigen::Index i = 0; i < n; ++i) {
      if (!(width_(i) > 0.0)) continue;
      const double h = kFiniteDifferenceStep;
      probe(i) = u(i) + h;
      const double up = RawValue(probe);
      probe(i) = u(i) - h;
      const double down = RawValue(probe);
      probe(i) = u(i);
      slopes(i) = up - down;
    }
  }
  memo_id = id_;
  memo_u = u;
  memo_slopes = std::move(slopes);
  return memo_slopes;
}

std::string PriorMeanFeature::Describe() const { return "prior_mean('" + function_.name + "')"; }

void CentringConstants(const PriorMeanFunction& function, const Domain& domain, double* mean,
                       double* stddev) {
  Eigen::VectorXd lower, width;
  BoxOf(domain, &lower, &width);
  const int d = domain.input_dim();
  const std::vector<int> bases = FirstPrimes(d);
  const PriorMeanFeature raw(function, domain, 0.0, 1.0);
  Eigen::VectorXd values(PriorMeanFunction::kCentringPoints);
  Eigen::VectorXd u(d);
  for (int k = 0; k < values.size(); ++k) {
    // Index k + 1: the sequence's point 0 is the cube's corner.
    for (int i = 0; i < d; ++i) u(i) = RadicalInverse(k + 1, bases[i]);
    values(k) = raw.RawValue(u);
  }
  *mean = values.mean();
  *stddev = std::sqrt((values.array() - *mean).square().mean());
}

std::unique_ptr<Kernel> WithPriorMean(std::unique_ptr<Kernel> kernel, const Domain& domain,
                                      const Strategy& strategy, OptimizerOptions* options) {
  PriorMeanFunction& f = options->prior_mean_function;
  if (!f.declared()) return kernel;
  CheckPriorMeanSupport(f, domain, strategy, *options);
  CentringConstants(f, domain, &f.mean, &f.stddev);
  if (!(f.stddev > 1e-12 * std::max(1.0, std::abs(f.mean))))
    throw std::invalid_argument(std::string(kPriorMeanField) + " '" + f.name +
                                "' is constant over the box (" + std::to_string(f.mean) +
                                "): a constant prior mean is the output standardization's");
  auto feature = std::make_shared<PriorMeanFeature>(f, domain, f.mean, f.stddev);
  std::vector<std::unique_ptr<Kernel>> parts;
  parts.push_back(std::move(kernel));
  parts.push_back(std::make_unique<FeatureKernel>(std::move(feature), domain.input_dim()));
  return MakeSum(std::move(parts));
}

}  // namespace gpbandit
