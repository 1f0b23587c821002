#include "gpbandit/maximizer/box_maximizer.h"

#include <ceres/first_order_function.h>
#include <ceres/gradient_problem.h>
#include <ceres/gradient_problem_solver.h>

#include <algorithm>
#include <boost/random/sobol.hpp>
#include <cmath>
#include <exception>
#include <limits>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "acquisition/option_checks.h"
#include "gpbandit/numerics/format.h"
#include "maximizer/scoring.h"
#include "numerics/math.h"
#include "numerics/parallel_for.h"
#include "numerics/thread_policy.h"

namespace gpbandit {
namespace {

using internal::Fail;
using internal::FieldValue;

// Starts are pushed this far (in u) from the faces: at u = 0 or 1 the map's derivative is 0 and
// L-BFGS would not move.
constexpr double kInteriorMargin = 1e-6;
using scoring::Better;
using scoring::kNaN;
using scoring::kScoreBlock;

// The free coordinates of the box and the map between u (free coordinates only, unbounded) and
// x (full dimension): x_i = lo_i + (hi_i - lo_i)(1 - cos(pi u_i)) / 2 (numerics/math.h's cosine map
// with period 1).
struct BoxMap {
  Eigen::VectorXd lower, upper;
  std::vector<int> free;

  Eigen::VectorXd ToX(const double* u) const {
    Eigen::VectorXd x;
    ToX(u, &x);
    return x;
  }
  // Into *x, without allocating when x already has the box's dimension.
  void ToX(const double* u, Eigen::VectorXd* x) const {
    *x = lower;
    for (size_t k = 0; k < free.size(); ++k) {
      const int i = free[k];
      (*x)(i) = std::clamp(CosineMapToInterval(u[k], lower(i), upper(i), 1.0), lower(i), upper(i));
    }
  }
  Eigen::VectorXd ToU(const Eigen::VectorXd& x) const {
    Eigen::VectorXd u(free.size());
    for (size_t k = 0; k < free.size(); ++k) {
      const int i = free[k];
      u(k) = std::clamp(CosineMapInverse(x(i), lower(i), upper(i), 1.0), kInteriorMargin,
                        1.0 - kInteriorMargin);
    }
    return u;
  }
  Eigen::VectorXd Clamp(Eigen::VectorXd x) const { return x.cwiseMax(lower).cwiseMin(upper); }
};

// -acquisition in u-space for Ceres (which minimizes). Returns false on a non-finite value or
// gradient (Ceres then backtracks) and on an exception (stored, rethrown after the parallel
// region; no exception may cross Ceres).
class NegatedAcquisition : public ceres::FirstOrderFunction {
 public:
  NegatedAcquisition(const ContinuousAcquisition& acquisition, const BoxMap& map,
                     std::exception_ptr* error, int* evaluations)
      : acquisition_(acquisition), map_(map), error_(error), evaluations_(evaluations) {}

  bool Evaluate(const double* u, double* cost, double* gradient) const override {
    try {
      ++*evaluations_;
      Eigen::VectorXd& x = x_;
      Eigen::VectorXd& grad_x = grad_x_;
      map_.ToX(u, &x);
      const double value = acquisition_.Evaluate(x, gradient != nullptr ? &grad_x : nullptr);
      if (!std::isfinite(value)) return false;
      *cost = -value;
      if (gradient != nullptr) {
        if (grad_x.size() != x.size()) return false;
        for (size_t k = 0; k < map_.free.size(); ++k) {
          const int i = map_.free[k];
          const double dx_du = CosineMapDerivative(u[k], map_.lower(i), map_.upper(i), 1.0);
          gradient[k] = -grad_x(i) * dx_du;
          if (!std::isfinite(gradient[k])) return false;
        }
      }
      return true;
    } catch (...) {
      if (!*error_) *error_ = std::current_exception();
      return false;
    }
  }
  int NumParameters() const override { return static_cast<int>(map_.free.size()); }

 private:
  const ContinuousAcquisition& acquisition_;
  const BoxMap& map_;
  std::exception_ptr* error_;
  int* evaluations_;
  // Work vectors reused across evaluations (one function per start, one thread per start).
  mutable Eigen::VectorXd x_, grad_x_;
};

struct StartOutcome {
  Eigen::VectorXd x;
  double value = kNaN;
  int evaluations = 0;
  std::exception_ptr error;
};

StartOutcome RunStart(const ContinuousAcquisition& acquisition, const BoxMap& map,
                      const Eigen::VectorXd& start,
                      const ceres::GradientProblemSolver::Options& solver) {
  StartOutcome outcome;
  Eigen::VectorXd u = map.ToU(start);
  // Ceres takes ownership of the function.
  ceres::GradientProblem problem(
      new NegatedAcquisition(acquisition, map, &outcome.error, &outcome.evaluations));
  ceres::GradientProblemSolver::Summary summary;
  ceres::Solve(solver, problem, u.data(), &summary);
  if (outcome.error) return outcome;
  // A failed solve may still have moved to a better finite point; the value is re-evaluated at
  // the clamped x, which is what the caller gets.
  outcome.x = map.ToX(u.data());
  try {
    ++outcome.evaluations;
    outcome.value = acquisition.Evaluate(outcome.x, nullptr);
  } catch (...) {
    outcome.error = std::current_exception();
  }
  return outcome;
}

}  // namespace

bool BoxMaximizerOptions::IsValid(std::string* error) const {
  if (num_raw_samples < 1) return Fail(error, "num_raw_samples", num_raw_samples, "must be >= 1");
  if (num_starts < 1) return Fail(error, "num_starts", num_starts, "must be >= 1");
  if (num_threads < 0) return Fail(error, "num_threads", num_threads, "must be >= 0");
  if (max_iterations < 0) return Fail(error, "max_iterations", max_iterations, "must be >= 0");
  if (!(function_tolerance >= 0.0))
    return Fail(error, "function_tolerance", function_tolerance, "must be >= 0");
  return true;
}

std::string BoxMaximizerResult::BriefReport() const {
  std::ostringstream out;
  out << "value " << FormatDouble(value) << ", starts run " << starts_run << ", failed "
      << starts_failed << ", evaluations " << num_evaluations
      << (from_raw_sample ? ", from a raw sample" : "");
  return out.str();
}

Eigen::MatrixXd LatinHypercube(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, int n,
                               Rng& rng) {
  const int dim = static_cast<int>(lower.size());
  Eigen::MatrixXd points(dim, n);
  std::uniform_real_distribution<double> uniform(0.0, 1.0);
  std::vector<int> strata(n);
  for (int i = 0; i < dim; ++i) {
    std::iota(strata.begin(), strata.end(), 0);
    // Fisher-Yates with our own index draws: std::shuffle's algorithm is implementation-defined,
    // and a seed must give the same design everywhere.
    for (int j = n - 1; j > 0; --j) {
      const int k = static_cast<int>(uniform(rng) * (j + 1));
      std::swap(strata[j], strata[std::min(k, j)]);
    }
    for (int j = 0; j < n; ++j) {
      const double s = (strata[j] + uniform(rng)) / n;
      points(i, j) = std::min(upper(i), lower(i) + (upper(i) - lower(i)) * s);
    }
  }
  return points;
}

Eigen::MatrixXd ScrambledSobol(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, int n,
                               Rng& rng) {
  std::vector<int> free;
  for (int i = 0; i < lower.size(); ++i)
    if (lower(i) < upper(i)) free.push_back(i);
  Eigen::MatrixXd points = lower.replicate(1, n);
  if (free.empty() || n == 0) return points;
  constexpr std::size_t kMaxDimension = boost::random::default_sobol_table::max_dimension;
  if (free.size() > kMaxDimension)
    throw std::invalid_argument(FieldValue("free coordinates", free.size()) +
                                ": the Sobol table stops at " + std::to_string(kMaxDimension));
  std::vector<std::uint64_t> shift(free.size());
  for (std::uint64_t& mask : shift) mask = rng();
  boost::random::sobol sequence(free.size());
  for (int j = 0; j < n; ++j) {
    for (std::size_t k = 0; k < free.size(); ++k) {
      // Boost's engine starts at the sequence's second point; the first is the origin, and
      // without it the first 2^m points would not form a net.
      const std::uint64_t point = j == 0 ? 0 : static_cast<std::uint64_t>(sequence());
      const std::uint64_t bits = point ^ shift[k];
      // The top 53 bits as a double in [0, 1).
      const double s = static_cast<double>(bits >> 11) * 0x1.0p-53;
      const int i = free[k];
      points(i, j) = std::min(upper(i), lower(i) + (upper(i) - lower(i)) * s);
    }
  }
  return points;
}

namespace {

// The free coordinates of a checked box (throws std::invalid_argument naming the field).
BoxMap CheckedBox(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                  const Eigen::MatrixXd& extra_starts) {
  const int dim = static_cast<int>(lower.size());
  if (dim < 1) throw std::invalid_argument("lower: empty box (dimension 0)");
  if (upper.size() != dim)
    throw std::invalid_argument("upper: size " + std::to_string(upper.size()) + " != lower size " +
                                std::to_string(dim));
  if (extra_starts.cols() > 0 && extra_starts.rows() != dim)
    throw std::invalid_argument("extra_starts: " + std::to_string(extra_starts.rows()) +
                                " rows != box dimension " + std::to_string(dim));
  BoxMap map{lower, upper, {}};
  for (int i = 0; i < dim; ++i) {
    if (!std::isfinite(lower(i)) || !std::isfinite(upper(i)))
      throw std::invalid_argument(FieldValue("lower[" + std::to_string(i) + "]", lower(i)) + ", " +
                                  FieldValue("upper[" + std::to_string(i) + "]", upper(i)) +
                                  ": bounds must be finite");
    if (lower(i) > upper(i))
      throw std::invalid_argument(FieldValue("lower[" + std::to_string(i) + "]", lower(i)) + " > " +
                                  FieldValue("upper[" + std::to_string(i) + "]", upper(i)));
    if (lower(i) < upper(i)) map.free.push_back(i);
  }
  return map;
}

// The extra starts (non-finite coordinates moved to the middle, clamped into the box), then
// the raw samples.
Eigen::MatrixXd Candidates(const BoxMap& map, const Eigen::MatrixXd& extra_starts,
                           const Eigen::MatrixXd& raw) {
  const int num_extra = static_cast<int>(extra_starts.cols());
  Eigen::MatrixXd candidates(map.lower.size(), num_extra + raw.cols());
  for (int j = 0; j < num_extra; ++j) {
    Eigen::VectorXd x = extra_starts.col(j);
    for (Eigen::Index i = 0; i < x.size(); ++i)
      if (!std::isfinite(x(i))) x(i) = 0.5 * (map.lower(i) + map.upper(i));
    candidates.col(j) = map.Clamp(x);
  }
  candidates.rightCols(raw.cols()) = raw;
  return candidates;
}

// Scores every candidate in blocks (EvaluateMany batches the linear algebra) whose sizes depend
// on the number of candidates only, so that every value, to the last bit, is the same with any
// thread count: an even number of near-equal blocks of at most kScoreBlock points. The first
// block runs alone and is timed; its cost per point sizes the rest for the thread policy.
std::vector<double> ScoreCandidates(const ContinuousAcquisition& acquisition,
                                    const Eigen::MatrixXd& candidates, int requested_threads) {
  const int n = static_cast<int>(candidates.cols());
  std::vector<double> scores(n, kNaN);
  const int num_blocks = 2 * ((n + 2 * kScoreBlock - 1) / (2 * kScoreBlock));
  std::vector<std::exception_ptr> errors(num_blocks);
  auto block_begin = [&](int b) { return static_cast<int>(static_cast<long>(n) * b / num_blocks); };
  auto score_block = [&](int b) {
    try {
      const int first = block_begin(b), size = block_begin(b + 1) - first;
      if (size == 0) return;
      const Eigen::VectorXd block = acquisition.EvaluateMany(candidates.middleCols(first, size));
      if (block.size() != size)
        throw std::logic_error("EvaluateMany returned " + std::to_string(block.size()) +
                               " values for " + std::to_string(size) + " points");
      for (int j = 0; j < size; ++j) scores[first + j] = block(j);
    } catch (...) {
      errors[b] = std::current_exception();
    }
  };
  // CPU time (numerics/thread_policy.h): the work itself, without other processes' time slices.
  const WorkSampleTimer first_block(requested_threads);
  score_block(0);
  const double seconds_per_point = first_block.Seconds() / std::max(1, block_begin(1));
  const int threads = ThreadsForWork(requested_threads, seconds_per_point * (n - block_begin(1)));
  ForEachIndex(threads, 1, num_blocks, score_block);
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return scores;
}

// Every extra start, then raw samples by decreasing value (ties: lower index) up to
// num_starts in all; raw samples with non-finite values are never starts.
std::vector<int> ChooseStarts(const std::vector<double>& values, int num_extra, int num_starts) {
  const int num_raw = static_cast<int>(values.size()) - num_extra;
  std::vector<int> order(num_raw);
  std::iota(order.begin(), order.end(), num_extra);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return Better(values[a], values[b]) || (std::isfinite(values[a]) && !std::isfinite(values[b]));
  });
  std::vector<int> starts;
  for (int j = 0; j < num_extra; ++j) starts.push_back(j);
  for (int j : order) {
    if (static_cast<int>(starts.size()) >= std::max(num_starts, num_extra)) break;
    if (std::isfinite(values[j])) starts.push_back(j);
  }
  return starts;
}

// Each start's L-BFGS settings: Ceres' defaults but for the limits the options set.
ceres::GradientProblemSolver::Options SolverOptions(const BoxMaximizerOptions& options) {
  ceres::GradientProblemSolver::Options solver;
  solver.max_num_iterations = options.max_iterations;
  solver.function_tolerance = options.function_tolerance;
  solver.logging_type = ceres::SILENT;
  solver.minimizer_progress_to_stdout = false;
  return solver;
}

std::vector<StartOutcome> RunStarts(const ContinuousAcquisition& acquisition, const BoxMap& map,
                                    const Eigen::MatrixXd& candidates,
                                    const std::vector<int>& starts,
                                    const BoxMaximizerOptions& options) {
  const int num_starts = static_cast<int>(starts.size());
  std::vector<StartOutcome> outcomes(num_starts);
  if (num_starts == 0) return outcomes;
  const ceres::GradientProblemSolver::Options solver = SolverOptions(options);
  // The first start runs alone on this thread and is timed: its time, times the starts left,
  // is the work the thread policy weighs. An L-BFGS start stops long before its iteration limit
  // (about 15 evaluations at the defaults, not 4 x 50), so an estimate from the limit made two
  // sub-millisecond starts a parallel region whose spinning workers cost more CPU than the
  // region saved (docs/threads.md). Running it alone also keeps glog's lazy set-up inside
  // Ceres, which is not thread-safe, out of any parallel region (numerics/thread_policy.h).
  const WorkSampleTimer first_start_time(options.num_threads);
  const auto first_start = [&] {
    outcomes[0] = RunStart(acquisition, map, candidates.col(starts[0]), solver);
  };
  if (!RunAsFirstSolve(first_start)) first_start();
  const int threads =
      ThreadsForWork(options.num_threads, first_start_time.Seconds() * (num_starts - 1));
  ForEachIndex(threads, 1, num_starts, [&](int s) {
    outcomes[s] = RunStart(acquisition, map, candidates.col(starts[s]), solver);
  });
  for (const StartOutcome& o : outcomes)
    if (o.error) std::rethrow_exception(o.error);
  return outcomes;
}

// The best finite L-BFGS result unless a raw candidate beats it; nothing finite anywhere:
// the first candidate, value NaN (documented).
void PickBest(const std::vector<StartOutcome>& outcomes, const Eigen::MatrixXd& candidates,
              const std::vector<double>& values, BoxMaximizerResult* result) {
  int best_raw = -1;
  for (int j = 0; j < static_cast<int>(values.size()); ++j)
    if (Better(values[j], best_raw < 0 ? kNaN : values[best_raw])) best_raw = j;
  result->starts_run = static_cast<int>(outcomes.size());
  int best_start = -1;
  for (int s = 0; s < static_cast<int>(outcomes.size()); ++s) {
    result->num_evaluations += outcomes[s].evaluations;
    if (!std::isfinite(outcomes[s].value)) {
      ++result->starts_failed;
      continue;
    }
    if (Better(outcomes[s].value, best_start < 0 ? kNaN : outcomes[best_start].value))
      best_start = s;
  }
  const double raw_value = best_raw < 0 ? kNaN : values[best_raw];
  if (best_start >= 0 && !(raw_value > outcomes[best_start].value)) {
    result->x = outcomes[best_start].x;
    result->value = outcomes[best_start].value;
  } else if (best_raw >= 0) {
    result->x = candidates.col(best_raw);
    result->value = raw_value;
    result->from_raw_sample = true;
  } else {
    result->x = candidates.col(0);
    result->value = kNaN;
    result->from_raw_sample = true;
  }
}

}  // namespace

BoxMaximizerResult ClimbInBox(const ContinuousAcquisition& acquisition,
                              const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                              const Eigen::VectorXd& start, const BoxMaximizerOptions& options) {
  internal::ThrowIfInvalid(options, "BoxMaximizerOptions");
  const BoxMap map = CheckedBox(lower, upper, start);
  const Eigen::VectorXd x0 = Candidates(map, start, Eigen::MatrixXd(lower.size(), 0)).col(0);
  BoxMaximizerResult result;
  result.x = x0;
  result.value = acquisition.Evaluate(x0, nullptr);
  result.num_evaluations = 1;
  result.from_raw_sample = true;
  if (map.free.empty()) return result;
  const StartOutcome outcome = RunStart(acquisition, map, x0, SolverOptions(options));
  if (outcome.error) std::rethrow_exception(outcome.error);
  result.starts_run = 1;
  result.num_evaluations += outcome.evaluations;
  if (Better(outcome.value, result.value) ||
      (std::isfinite(outcome.value) && outcome.value == result.value)) {
    result.x = map.Clamp(outcome.x);
    result.value = outcome.value;
    result.from_raw_sample = false;
  } else if (!std::isfinite(outcome.value)) {
    result.starts_failed = 1;
  }
  return result;
}

BoxMaximizerResult MaximizeOverBox(const ContinuousAcquisition& acquisition,
                                   const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                   const Eigen::MatrixXd& extra_starts,
                                   const BoxMaximizerOptions& options, Rng& rng) {
  internal::ThrowIfInvalid(options, "BoxMaximizerOptions");
  const BoxMap map = CheckedBox(lower, upper, extra_starts);
  // Every random number is drawn here, before any parallel region.
  const Eigen::MatrixXd raw = options.raw_sample_design == RawSampleDesign::kSobol
                                  ? ScrambledSobol(lower, upper, options.num_raw_samples, rng)
                                  : LatinHypercube(lower, upper, options.num_raw_samples, rng);
  const Eigen::MatrixXd candidates = Candidates(map, extra_starts, raw);
  const std::vector<double> scores = ScoreCandidates(acquisition, candidates, options.num_threads);

  BoxMaximizerResult result;
  result.num_evaluations = static_cast<int>(candidates.cols());
  if (map.free.empty()) {  // nothing moves: the box is a point
    result.x = lower;
    result.value = acquisition.Evaluate(lower, nullptr);
    result.from_raw_sample = true;
    ++result.num_evaluations;
    return result;
  }
  const std::vector<int> starts =
      ChooseStarts(scores, static_cast<int>(extra_starts.cols()), options.num_starts);
  const std::vector<StartOutcome> outcomes =
      RunStarts(acquisition, map, candidates, starts, options);
  PickBest(outcomes, candidates, scores, &result);
  result.x = map.Clamp(result.x);
  return result;
}

}  // namespace gpbandit
