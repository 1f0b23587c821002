#include "gpbandit/maximizer/mixed_maximizer.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <sstream>
#include <stdexcept>

#include "acquisition/option_checks.h"
#include "gpbandit/numerics/format.h"
#include "maximizer/scoring.h"
#include "numerics/parallel_for.h"
#include "numerics/thread_policy.h"

namespace gpbandit {
namespace {

using internal::Fail;
using internal::FieldValue;
using scoring::Better;
using scoring::kNaN;
using scoring::kScoreBlock;

// An unordered coordinate with more levels is searched over this many of them per sweep (an
// evenly strided subset that shifts from sweep to sweep), so that a long list of labels does
// not make every sweep as long as the list.
constexpr long long kMaxUnorderedMoves = 64;

// A legal point, its discrete levels (one per DiscreteCoordinate) and its value.
struct Point {
  Eigen::VectorXd x;
  std::vector<long long> levels;
  double value = kNaN;
};

// What every start shares: the problem, checked.
struct MixedProblem {
  const ContinuousAcquisition& acquisition;
  Eigen::VectorXd lower, upper;
  const std::vector<DiscreteCoordinate>& discrete;
  std::vector<int> continuous;  // free coordinates that are not discrete
  const MixedMaximizerOptions& options;
  // Whether the climbs relax the integers, and whether the local search moves them.
  bool relax() const { return options.integer_search != IntegerSearch::kLocalSearch; }
  bool search_integers() const { return options.integer_search != IntegerSearch::kRelaxAndRound; }
};

// The level of an unordered coordinate whose value is nearest v (a linear scan).
long long NearestUnorderedLevel(const DiscreteCoordinate& c, double v) {
  long long best = 0;
  double best_distance = std::numeric_limits<double>::infinity();
  for (long long l = 0; l < c.num_levels; ++l) {
    const double distance = std::abs(c.value_of_level(l) - v);
    if (distance < best_distance) {
      best_distance = distance;
      best = l;
    }
  }
  return best;
}

long long NearestAnyLevel(const DiscreteCoordinate& c, double v) {
  return c.ordered ? NearestLevel(c, v) : NearestUnorderedLevel(c, v);
}

void SetLevel(const DiscreteCoordinate& c, long long level, std::size_t k, Point* p) {
  p->levels[k] = level;
  p->x(c.dim) = c.value_of_level(level);
}

// x with every discrete coordinate at its nearest level (non-finite coordinates at the
// middle, everything clamped into the box).
Point NearestLegal(const MixedProblem& m, Eigen::VectorXd x) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x(i))) x(i) = 0.5 * (m.lower(i) + m.upper(i));
  Point p{x.cwiseMax(m.lower).cwiseMin(m.upper), std::vector<long long>(m.discrete.size()), kNaN};
  for (std::size_t k = 0; k < m.discrete.size(); ++k)
    SetLevel(m.discrete[k], NearestAnyLevel(m.discrete[k], p.x(m.discrete[k].dim)), k, &p);
  return p;
}

// A raw point of the Latin hypercube moved to levels: ordered coordinates to the nearest
// level, unordered ones to level floor(s L) of their position s in the box.
Point RawLegal(const MixedProblem& m, const Eigen::VectorXd& x) {
  Point p{x, std::vector<long long>(m.discrete.size()), kNaN};
  for (std::size_t k = 0; k < m.discrete.size(); ++k) {
    const DiscreteCoordinate& c = m.discrete[k];
    if (c.ordered) {
      SetLevel(c, NearestLevel(c, x(c.dim)), k, &p);
      continue;
    }
    const double s = (x(c.dim) - m.lower(c.dim)) / (m.upper(c.dim) - m.lower(c.dim));
    const auto level = static_cast<long long>(std::floor(s * static_cast<double>(c.num_levels)));
    SetLevel(c, std::clamp<long long>(level, 0, c.num_levels - 1), k, &p);
  }
  return p;
}

// Values of the points, through EvaluateMany in blocks of kScoreBlock.
void Score(const MixedProblem& m, std::vector<Point>* points, int* evaluations) {
  const auto n = static_cast<Eigen::Index>(points->size());
  for (Eigen::Index first = 0; first < n; first += kScoreBlock) {
    const Eigen::Index size = std::min<Eigen::Index>(kScoreBlock, n - first);
    Eigen::MatrixXd block(m.lower.size(), size);
    for (Eigen::Index j = 0; j < size; ++j) block.col(j) = (*points)[first + j].x;
    const Eigen::VectorXd values = m.acquisition.EvaluateMany(block);
    if (values.size() != size)
      throw std::logic_error("EvaluateMany returned " + std::to_string(values.size()) +
                             " values for " + std::to_string(size) + " points");
    for (Eigen::Index j = 0; j < size; ++j) (*points)[first + j].value = values(j);
  }
  *evaluations += static_cast<int>(n);
}

// Every single-coordinate move of the local search from p (sweep: the sweep's number, which
// shifts the subset of a long unordered list).
std::vector<Point> Moves(const MixedProblem& m, const Point& p, int sweep) {
  std::vector<Point> moves;
  for (std::size_t k = 0; k < m.discrete.size(); ++k) {
    const DiscreteCoordinate& c = m.discrete[k];
    if (c.ordered && !m.search_integers()) continue;
    std::vector<long long> targets;
    const long long l = p.levels[k], n = c.num_levels;
    if (c.ordered) {
      for (long long step = 1; step < n; step *= 2) {
        if (l + step < n) targets.push_back(l + step);
        if (l - step >= 0) targets.push_back(l - step);
      }
    } else {
      const long long count = std::min(n - 1, kMaxUnorderedMoves);
      const long long stride = count > 0 ? std::max(1LL, (n - 1) / count) : 1;
      for (long long j = 0; j < count; ++j) targets.push_back((l + 1 + sweep + j * stride) % n);
    }
    for (long long target : targets) {
      if (target == l) continue;
      Point q = p;
      SetLevel(c, target, k, &q);
      moves.push_back(std::move(q));
    }
  }
  return moves;
}

// Best-improvement local search over the discrete levels; true if p moved.
bool LocalSearch(const MixedProblem& m, Point* p, int* evaluations) {
  bool moved = false;
  for (int sweep = 0; sweep < m.options.max_sweeps; ++sweep) {
    std::vector<Point> moves = Moves(m, *p, sweep);
    if (moves.empty()) break;
    Score(m, &moves, evaluations);
    const Point* best = nullptr;
    for (const Point& q : moves)
      if (Better(q.value, best != nullptr ? best->value : p->value)) best = &q;
    if (best == nullptr) break;
    *p = *best;
    moved = true;
  }
  return moved;
}

// L-BFGS over the continuous coordinates (and, relaxed, the ordered ones) from p, the other
// discrete coordinates held; true if p gained.
bool ClimbContinuous(const MixedProblem& m, Point* p, int* evaluations) {
  Eigen::VectorXd lower = m.lower, upper = m.upper;
  bool any_free = !m.continuous.empty();
  for (const DiscreteCoordinate& c : m.discrete) {
    if (m.relax() && c.ordered && c.num_levels > 1) {
      any_free = true;
      continue;
    }
    lower(c.dim) = upper(c.dim) = p->x(c.dim);
  }
  if (!any_free) return false;
  const BoxMaximizerResult climbed = ClimbInBox(m.acquisition, lower, upper, p->x, m.options.box);
  *evaluations += climbed.num_evaluations;
  Point q = m.relax() ? NearestLegal(m, climbed.x) : Point{climbed.x, p->levels, climbed.value};
  if (m.relax()) {
    std::vector<Point> rounded{q};
    Score(m, &rounded, evaluations);
    q = rounded[0];
  }
  if (!Better(q.value, p->value)) return false;
  *p = std::move(q);
  return true;
}

struct Climbed {
  Point point;
  int evaluations = 0;
  std::exception_ptr error;
};

Climbed ClimbStart(const MixedProblem& m, const Point& start) {
  Climbed out{start, 0, nullptr};
  try {
    for (int a = 0; a < m.options.max_alternations; ++a) {
      // A search that moves nothing leaves the continuous coordinates where the climb left them.
      ClimbContinuous(m, &out.point, &out.evaluations);
      if (!LocalSearch(m, &out.point, &out.evaluations)) break;
    }
  } catch (...) {
    out.error = std::current_exception();
  }
  return out;
}

// The mixed-radix index of p's levels, or -1 when the combinations are not enumerated.
long long Combination(const MixedProblem& m, const Point& p, long long combinations) {
  if (combinations < 0) return -1;
  long long index = 0;
  for (std::size_t k = 0; k < m.discrete.size(); ++k)
    index = index * m.discrete[k].num_levels + p.levels[k];
  return index;
}

// The number of combinations of levels when at most options.enumerate_up_to, else -1.
long long EnumeratedCombinations(const MixedProblem& m) {
  long long product = 1;
  for (const DiscreteCoordinate& c : m.discrete) {
    if (c.num_levels > m.options.enumerate_up_to / product) return -1;
    product *= c.num_levels;
  }
  return m.discrete.empty() || product > m.options.enumerate_up_to ? -1 : product;
}

// The point of combination `index` with the continuous coordinates of `base`.
Point CombinationPoint(const MixedProblem& m, const Point& base, long long index) {
  Point p = base;
  for (std::size_t k = m.discrete.size(); k-- > 0;) {
    SetLevel(m.discrete[k], index % m.discrete[k].num_levels, k, &p);
    index /= m.discrete[k].num_levels;
  }
  p.value = kNaN;
  return p;
}

// Step 2 of the header: the starts among the scored candidates (extra starts first).
std::vector<Point> ChooseStarts(const MixedProblem& m, const std::vector<Point>& candidates,
                                int num_extra, int* evaluations) {
  std::vector<int> order(candidates.size() - static_cast<std::size_t>(num_extra));
  std::iota(order.begin(), order.end(), num_extra);
  std::stable_sort(order.begin(), order.end(),
                   [&](int a, int b) { return Better(candidates[a].value, candidates[b].value); });
  std::vector<Point> starts(candidates.begin(), candidates.begin() + num_extra);
  std::set<std::vector<double>> seen;
  auto key = [](const Point& p) {
    return std::vector<double>(p.x.data(), p.x.data() + p.x.size());
  };
  for (const Point& p : starts) seen.insert(key(p));
  for (int j : order) {
    if (static_cast<int>(starts.size()) >= std::max(m.options.box.num_starts, num_extra)) break;
    if (std::isfinite(candidates[j].value) && seen.insert(key(candidates[j])).second)
      starts.push_back(candidates[j]);
  }
  const long long combinations = EnumeratedCombinations(m);
  if (combinations < 0 || order.empty()) return starts;
  std::vector<int> best_of(static_cast<std::size_t>(combinations), -1);
  for (int j : order) {
    const auto c = static_cast<std::size_t>(Combination(m, candidates[j], combinations));
    if (best_of[c] < 0) best_of[c] = j;
  }
  std::vector<Point> missing;
  for (long long c = 0; c < combinations; ++c) {
    const int j = best_of[static_cast<std::size_t>(c)];
    const Point p = j >= 0 ? candidates[j] : CombinationPoint(m, candidates[order[0]], c);
    if (seen.insert(key(p)).second) (j >= 0 ? starts : missing).push_back(p);
  }
  Score(m, &missing, evaluations);
  starts.insert(starts.end(), missing.begin(), missing.end());
  return starts;
}

void CheckDiscrete(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                   const std::vector<DiscreteCoordinate>& discrete) {
  std::set<int> dims;
  for (std::size_t k = 0; k < discrete.size(); ++k) {
    const DiscreteCoordinate& c = discrete[k];
    const std::string at = "discrete[" + std::to_string(k) + "]";
    if (c.dim < 0 || c.dim >= lower.size() || lower(c.dim) == upper(c.dim))
      throw std::invalid_argument(FieldValue(at + ".dim", c.dim) +
                                  ": not a free coordinate of the box");
    if (!dims.insert(c.dim).second)
      throw std::invalid_argument(FieldValue(at + ".dim", c.dim) + ": listed twice");
    if (c.num_levels < 1)
      throw std::invalid_argument(FieldValue(at + ".num_levels", c.num_levels) + ": must be >= 1");
    if (!c.value_of_level) throw std::invalid_argument(at + ".value_of_level is empty");
    for (long long l : {0LL, c.num_levels - 1}) {
      const double v = c.value_of_level(l);
      if (!(v >= lower(c.dim) && v <= upper(c.dim)))
        throw std::invalid_argument(FieldValue(at + " level " + std::to_string(l), v) +
                                    ": outside the box's bounds on coordinate " +
                                    std::to_string(c.dim));
    }
  }
}

MixedProblem CheckedProblem(const ContinuousAcquisition& acquisition, const Eigen::VectorXd& lower,
                            const Eigen::VectorXd& upper,
                            const std::vector<DiscreteCoordinate>& discrete,
                            const Eigen::MatrixXd& extra_starts,
                            const MixedMaximizerOptions& options) {
  internal::ThrowIfInvalid(options, "MixedMaximizerOptions");
  if (lower.size() < 1) throw std::invalid_argument("lower: empty box (dimension 0)");
  if (upper.size() != lower.size())
    throw std::invalid_argument("upper: size " + std::to_string(upper.size()) + " != lower size " +
                                std::to_string(lower.size()));
  if (extra_starts.cols() > 0 && extra_starts.rows() != lower.size())
    throw std::invalid_argument("extra_starts: " + std::to_string(extra_starts.rows()) +
                                " rows != box dimension " + std::to_string(lower.size()));
  for (Eigen::Index i = 0; i < lower.size(); ++i)
    if (!std::isfinite(lower(i)) || !std::isfinite(upper(i)) || lower(i) > upper(i))
      throw std::invalid_argument(FieldValue("lower[" + std::to_string(i) + "]", lower(i)) + ", " +
                                  FieldValue("upper[" + std::to_string(i) + "]", upper(i)) +
                                  ": bounds must be finite with lower <= upper");
  CheckDiscrete(lower, upper, discrete);
  MixedProblem m{acquisition, lower, upper, discrete, {}, options};
  std::vector<bool> is_discrete(static_cast<std::size_t>(lower.size()), false);
  for (const DiscreteCoordinate& c : discrete) is_discrete[static_cast<std::size_t>(c.dim)] = true;
  for (int i = 0; i < lower.size(); ++i)
    if (lower(i) < upper(i) && !is_discrete[static_cast<std::size_t>(i)]) m.continuous.push_back(i);
  return m;
}

// Climbs every start: the first alone (the process's first Ceres solve may be among its
// climbs), the rest under OpenMP, sized by the first one's time.
std::vector<Climbed> ClimbStarts(const MixedProblem& m, const std::vector<Point>& starts) {
  std::vector<Climbed> climbed(starts.size());
  if (starts.empty()) return climbed;
  // CPU time: a preempted sample would read as far more work (numerics/thread_policy.h).
  const WorkSampleTimer first_climb(m.options.box.num_threads);
  if (!RunAsFirstSolve([&] { climbed[0] = ClimbStart(m, starts[0]); }))
    climbed[0] = ClimbStart(m, starts[0]);
  const double first_seconds = first_climb.Seconds();
  const int n = static_cast<int>(starts.size());
  const int threads = ThreadsForWork(m.options.box.num_threads, first_seconds * (n - 1));
  ForEachIndex(threads, 1, n, [&](int s) { climbed[s] = ClimbStart(m, starts[s]); });
  for (const Climbed& c : climbed)
    if (c.error) std::rethrow_exception(c.error);
  return climbed;
}

}  // namespace

bool MixedMaximizerOptions::IsValid(std::string* error) const {
  if (!box.IsValid(error)) {
    if (error != nullptr) *error = "box." + *error;
    return false;
  }
  if (max_alternations < 1)
    return Fail(error, "max_alternations", max_alternations, "must be >= 1");
  if (max_sweeps < 1) return Fail(error, "max_sweeps", max_sweeps, "must be >= 1");
  if (enumerate_up_to < 0) return Fail(error, "enumerate_up_to", enumerate_up_to, "must be >= 0");
  return true;
}

std::string MixedMaximizerResult::BriefReport() const {
  std::ostringstream out;
  out << "value " << FormatDouble(value) << ", starts run " << starts_run << ", evaluations "
      << num_evaluations;
  return out.str();
}

long long NearestLevel(const DiscreteCoordinate& c, double v) {
  long long lo = 0, hi = c.num_levels - 1;
  if (!(v > c.value_of_level(lo))) return lo;
  if (!(v < c.value_of_level(hi))) return hi;
  // Invariant: value(lo) < v < value(hi).
  while (hi - lo > 1) {
    const long long mid = lo + (hi - lo) / 2;
    if (c.value_of_level(mid) <= v) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return v - c.value_of_level(lo) <= c.value_of_level(hi) - v ? lo : hi;
}

MixedMaximizerResult MaximizeOverMixed(const ContinuousAcquisition& acquisition,
                                       const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                       const std::vector<DiscreteCoordinate>& discrete,
                                       const Eigen::MatrixXd& extra_starts,
                                       const MixedMaximizerOptions& options, Rng& rng) {
  const MixedProblem m = CheckedProblem(acquisition, lower, upper, discrete, extra_starts, options);
  // Every random number is drawn here, before any parallel region.
  const Eigen::MatrixXd raw = LatinHypercube(lower, upper, options.box.num_raw_samples, rng);
  std::vector<Point> candidates;
  for (Eigen::Index j = 0; j < extra_starts.cols(); ++j)
    candidates.push_back(NearestLegal(m, extra_starts.col(j)));
  for (Eigen::Index j = 0; j < raw.cols(); ++j) candidates.push_back(RawLegal(m, raw.col(j)));
  MixedMaximizerResult result;
  Score(m, &candidates, &result.num_evaluations);
  const std::vector<Point> starts =
      ChooseStarts(m, candidates, static_cast<int>(extra_starts.cols()), &result.num_evaluations);
  const std::vector<Climbed> climbed = ClimbStarts(m, starts);
  const Point* best = nullptr;
  for (const Climbed& c : climbed) {
    result.num_evaluations += c.evaluations;
    if (Better(c.point.value, best != nullptr ? best->value : kNaN)) best = &c.point;
  }
  for (const Point& p : candidates)
    if (Better(p.value, best != nullptr ? best->value : kNaN)) best = &p;
  result.starts_run = static_cast<int>(starts.size());
  result.x = best != nullptr ? best->x : candidates.front().x;
  result.value = best != nullptr ? best->value : kNaN;
  return result;
}

}  // namespace gpbandit
