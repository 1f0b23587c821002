#include "gpbandit/maximizer/finite_argmax.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "numerics/thread_policy.h"

namespace gpbandit {
namespace {

struct Best {
  double value = 0.0;
  int index = -1;  // -1: nothing seen yet
};

// The ordering every thread and the final merge apply: a non-NaN value beats "nothing", a larger
// value beats a smaller one, and equal values go to the lower index. It is associative and
// commutative, which is why the result cannot depend on how the range is split.
void Merge(const Best& candidate, Best* best) {
  if (candidate.index < 0) return;
  if (best->index < 0 || candidate.value > best->value ||
      (candidate.value == best->value && candidate.index < best->index)) {
    *best = candidate;
  }
}

Best ScanRange(const Eigen::VectorXd& scores, const Eigen::Array<bool, Eigen::Dynamic, 1>* allowed,
               int begin, int end) {
  Best best;
  for (int i = begin; i < end; ++i) {
    const double v = scores(i);
    if (std::isnan(v) || (allowed != nullptr && !(*allowed)(i))) continue;
    Merge(Best{v, i}, &best);
  }
  return best;
}

int Argmax(const Eigen::VectorXd& scores, const Eigen::Array<bool, Eigen::Dynamic, 1>* allowed,
           int num_threads) {
  const int n = static_cast<int>(scores.size());
  if (n == 0) throw std::invalid_argument("scores: empty (no candidates to choose from)");
  if (num_threads < 0)
    throw std::invalid_argument("num_threads = " + std::to_string(num_threads) + ": must be >= 0");
  // A scan costs about a nanosecond per score: the thread policy runs it serially below
  // millions of candidates.
  constexpr double kSecondsPerScore = 1e-9;
  const int threads = ThreadsForWork(num_threads, kSecondsPerScore * n);
  Best best;
  if (threads == 1) {
    best = ScanRange(scores, allowed, 0, n);
  } else {
    // Chunks fixed by n, taken dynamically: a worker that loses its core to another process
    // does not hold up the others; Merge makes the result independent of who scans what.
    constexpr int kChunks = 64;
    const int chunks = std::min(n, kChunks);
    std::vector<Best> partial(chunks);
#pragma omp parallel for num_threads(threads) schedule(dynamic)
    for (int c = 0; c < chunks; ++c) {
      const int begin = static_cast<int>(static_cast<long long>(n) * c / chunks);
      const int end = static_cast<int>(static_cast<long long>(n) * (c + 1) / chunks);
      partial[c] = ScanRange(scores, allowed, begin, end);
    }
    for (const Best& p : partial) Merge(p, &best);
  }
  if (best.index < 0)
    throw std::invalid_argument("scores: all " + std::to_string(n) +
                                (allowed != nullptr ? " allowed" : "") +
                                " entries are NaN (or none is allowed); no argmax");
  return best.index;
}

}  // namespace

int FiniteArgmax(const Eigen::VectorXd& scores, int num_threads) {
  return Argmax(scores, nullptr, num_threads);
}

int FiniteArgmaxMasked(const Eigen::VectorXd& scores,
                       const Eigen::Array<bool, Eigen::Dynamic, 1>& allowed, int num_threads) {
  if (allowed.size() != scores.size())
    throw std::invalid_argument("allowed: size " + std::to_string(allowed.size()) +
                                " != scores size " + std::to_string(scores.size()));
  return Argmax(scores, &allowed, num_threads);
}

}  // namespace gpbandit
