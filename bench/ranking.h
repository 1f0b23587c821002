// How the optimization studies compare methods: per problem, each method's results over the
// same seeds (lower is better: a best fitness, a gap, a regret). A method "beats" another on a
// problem when its median is lower; whether that difference means anything is the paired sign
// test over the seeds (run k of both methods share seed k: the same population, the same noise
// stream): wins and losses counted, ties left out, and the two-sided binomial p-value of the
// smaller count under p = 1/2 (Conover, Practical Nonparametric Statistics, 3rd ed., 3.4).
// Mean ranks: each problem ranks the methods by median (1 = lowest; tied medians share their
// mean rank), averaged over the problems.
#ifndef GPBANDIT_BENCH_RANKING_H_
#define GPBANDIT_BENCH_RANKING_H_

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpbandit {
namespace bench {

struct SignTest {
  int wins = 0;    // seeds where a < b
  int losses = 0;  // seeds where a > b
  int ties = 0;
  double p_value = 1.0;  // two-sided; 1 when there is no untied pair
};

// P(X <= min(wins, losses)) + P(X >= max(...)) for X ~ Binomial(wins + losses, 1/2), at most 1.
inline double TwoSidedSignTestP(int wins, int losses) {
  if (wins < 0 || losses < 0) throw std::invalid_argument("TwoSidedSignTestP: negative count");
  const int n = wins + losses, k = std::min(wins, losses);
  if (n == 0) return 1.0;
  // sum_{i <= k} C(n, i) / 2^n, in logs (n may reach a few thousand when seeds are pooled).
  double tail = 0.0;
  for (int i = 0; i <= k; ++i)
    tail += std::exp(std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) -
                     n * std::log(2.0));
  return std::min(1.0, 2.0 * tail);
}

// Values within this relative distance count as a tie (the same point found by both).
constexpr double kTieTolerance = 1e-12;

inline bool Tied(double a, double b) {
  return std::abs(a - b) <= kTieTolerance * std::max({1.0, std::abs(a), std::abs(b)});
}

// a better than b: lower and not tied.
inline bool Lower(double a, double b) { return a < b && !Tied(a, b); }

// The paired sign test of a against b (a[k] and b[k] from the same seed). Throws
// std::invalid_argument if the sizes differ.
inline SignTest PairedSignTest(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("PairedSignTest: " + std::to_string(a.size()) + " against " +
                                std::to_string(b.size()) + " values");
  SignTest t;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (Tied(a[k], b[k]))
      ++t.ties;
    else if (a[k] < b[k])
      ++t.wins;
    else
      ++t.losses;
  }
  t.p_value = TwoSidedSignTestP(t.wins, t.losses);
  return t;
}

inline double MedianOf(std::vector<double> v) {
  if (v.empty()) throw std::invalid_argument("MedianOf: no values");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Ranks of values (1 = lowest), tied values (Tied) sharing their mean rank.
inline std::vector<double> Ranks(const std::vector<double>& values) {
  std::vector<std::size_t> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t i, std::size_t j) { return values[i] < values[j]; });
  std::vector<double> ranks(values.size());
  for (std::size_t first = 0; first < order.size();) {
    std::size_t last = first;
    while (last + 1 < order.size() && Tied(values[order[last + 1]], values[order[first]])) ++last;
    const double mean_rank = 0.5 * static_cast<double>(first + last) + 1.0;
    for (std::size_t k = first; k <= last; ++k) ranks[order[k]] = mean_rank;
    first = last + 1;
  }
  return ranks;
}

// medians[problem][method] -> each method's rank averaged over the problems.
inline std::vector<double> MeanRanks(const std::vector<std::vector<double>>& medians) {
  if (medians.empty()) return {};
  std::vector<double> sum(medians.front().size(), 0.0);
  for (const std::vector<double>& row : medians) {
    const std::vector<double> r = Ranks(row);
    for (std::size_t m = 0; m < r.size(); ++m) sum[m] += r[m];
  }
  for (double& s : sum) s /= static_cast<double>(medians.size());
  return sum;
}

}  // namespace bench
}  // namespace gpbandit

#endif  // GPBANDIT_BENCH_RANKING_H_
