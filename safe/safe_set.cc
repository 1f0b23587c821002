#include "gpbandit/safe/safe_set.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

#include "acquisition/option_checks.h"

namespace gpbandit {
namespace {

// The safe points are tested as expanders in blocks (one cross-covariance each, whose cost
// includes whitening the targets again): the first of this many, so that an early stop costs
// one small block, each next one twice as large, so that a long search whitens the targets
// only log2(|S| / 16) times.
constexpr std::size_t kFirstExpanderBlock = 16;
// Optimistic values closer than this (in the objective's prior standard deviations) are a tie.
constexpr double kTie = 1e-9;

bool IsSafetySignal(const SafeSignal& s) { return !std::isnan(s.threshold); }

void CheckSignals(const std::vector<SafeSignal>& signals, double beta) {
  if (signals.empty()) throw std::invalid_argument("signals: empty (signal 0 is the objective)");
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const std::string at = "signals[" + std::to_string(i) + "]";
    if (signals[i].gp == nullptr) throw std::invalid_argument(at + ".gp: null");
    if (!(signals[i].width_scale > 0.0) || !std::isfinite(signals[i].width_scale))
      throw std::invalid_argument(
          internal::FieldValue(at + ".width_scale", signals[i].width_scale) +
          ": must be finite and > 0");
    if (std::isinf(signals[i].threshold))
      throw std::invalid_argument(internal::FieldValue(at + ".threshold", signals[i].threshold) +
                                  ": must be finite (or NaN for no threshold)");
    if (std::isnan(signals[i].max_mean)) throw std::invalid_argument(at + ".max_mean is NaN");
  }
  if (!(beta > 0.0) || !std::isfinite(beta))
    throw std::invalid_argument(internal::FieldValue("beta", beta) + ": must be finite and > 0");
}

// The unsafe columns that could enter S after one more observation: u_i >= h_i for every
// safety signal (the updated lower bound never exceeds the current upper bound: by
// Cauchy-Schwarz the mean moves by at most beta sigma(x') and the variance only shrinks).
std::vector<int> ReachableUnsafe(const std::vector<SafeSignal>& signals, const SafeBounds& bounds,
                                 const std::vector<bool>& safe) {
  std::vector<int> reachable;
  for (int j = 0; j < static_cast<int>(safe.size()); ++j) {
    if (safe[static_cast<std::size_t>(j)]) continue;
    bool possible = true;
    for (std::size_t i = 0; i < signals.size() && possible; ++i)
      if (IsSafetySignal(signals[i]))
        possible = bounds.upper(static_cast<Eigen::Index>(i), j) >= signals[i].threshold;
    if (possible) reachable.push_back(j);
  }
  return reachable;
}

Eigen::MatrixXd Columns(const Eigen::MatrixXd& X, const std::vector<int>& index) {
  Eigen::MatrixXd out(X.rows(), static_cast<Eigen::Index>(index.size()));
  for (std::size_t k = 0; k < index.size(); ++k)
    out.col(static_cast<Eigen::Index>(k)) = X.col(index[k]);
  return out;
}

// For each of the points `candidates` (columns of X), whether observing u_i there for every
// safety signal lifts every l_i at some column of `targets` to h_i. The rank-one update of a
// GP posterior by an observation y at x with noise variance r:
//   mu'(x') = mu(x') + k(x, x') (y - mu(x)) / (sigma^2(x) + r),
//   sigma'^2(x') = sigma^2(x') - k(x, x')^2 / (sigma^2(x) + r),
// k the posterior covariance; with y = u(x) = mu(x) + beta sigma(x).
std::vector<bool> ExpanderFlags(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                                const SafeBounds& bounds, const std::vector<int>& candidates,
                                const std::vector<int>& targets, double beta) {
  const Eigen::Index n = static_cast<Eigen::Index>(candidates.size());
  const Eigen::Index m = static_cast<Eigen::Index>(targets.size());
  if (m == 0) return std::vector<bool>(candidates.size(), false);
  const Eigen::MatrixXd A = Columns(X, candidates), B = Columns(X, targets);
  // all_safe(a, b): after observing at candidate a, target b clears every threshold.
  Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic> all_safe =
      Eigen::Array<bool, Eigen::Dynamic, Eigen::Dynamic>::Constant(n, m, true);
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const SafeSignal& s = signals[i];
    if (!IsSafetySignal(s)) continue;
    const GaussianProcess& gp = *s.gp;
    const double noise =
        (gp.noise_variance() + gp.jitter()) * gp.output_scale() * gp.output_scale();
    const Eigen::MatrixXd cov = gp.CrossCovariance(A, B);  // n x m
    const auto row = static_cast<Eigen::Index>(i);
    // An uncapped signal's mean and sigma as the midpoint and half-width of its bounds (the
    // arithmetic of log format <= 4, which resumed studies reproduce bit for bit).
    const bool capped = std::isfinite(s.max_mean);
    auto mean_at = [&](int j) {
      return capped ? bounds.mean(row, j) : 0.5 * (bounds.upper(row, j) + bounds.lower(row, j));
    };
    auto sigma_at = [&](int j) {
      return capped ? bounds.stddev(row, j)
                    : 0.5 * (bounds.upper(row, j) - bounds.lower(row, j)) / beta;
    };
    for (Eigen::Index a = 0; a < n; ++a) {
      const int ja = candidates[static_cast<std::size_t>(a)];
      const double sigma_a = sigma_at(ja);
      const double denominator = sigma_a * sigma_a + noise;
      if (!(denominator > 0.0)) {
        all_safe.row(a).setConstant(false);
        continue;
      }
      // The optimistic observation u_i(a) raises the cap on the mean.
      const double cap = std::max(s.max_mean, mean_at(ja) + beta * sigma_a);
      for (Eigen::Index b = 0; b < m; ++b) {
        if (!all_safe(a, b)) continue;
        const int jb = targets[static_cast<std::size_t>(b)];
        const double sigma_b = sigma_at(jb);
        const double c = cov(a, b);
        const double new_mean = mean_at(jb) + c * beta * sigma_a / denominator;
        const double new_variance = std::max(sigma_b * sigma_b - c * c / denominator, 0.0);
        all_safe(a, b) = std::min(new_mean, cap) - beta * std::sqrt(new_variance) >= s.threshold;
      }
    }
  }
  std::vector<bool> flags(candidates.size());
  for (Eigen::Index a = 0; a < n; ++a) flags[static_cast<std::size_t>(a)] = all_safe.row(a).any();
  return flags;
}

}  // namespace

Eigen::VectorXd ScaledWidths(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                             const SafeBounds& bounds, double beta) {
  Eigen::VectorXd widths = Eigen::VectorXd::Zero(X.cols());
  for (std::size_t i = 0; i < signals.size(); ++i) {
    const SafeSignal& s = signals[i];
    Eigen::VectorXd sd;
    if (s.gp_for_widths != nullptr) {
      Eigen::VectorXd means, variances;
      s.gp_for_widths->Predict(X, &means, &variances);
      sd = variances.cwiseMax(0.0).cwiseSqrt();
    } else {
      sd = bounds.stddev.row(static_cast<Eigen::Index>(i)).transpose();
    }
    widths = widths.cwiseMax((2.0 * beta / s.width_scale) * sd);
  }
  return widths;
}

void AppendPoints(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& more, double beta,
                  Eigen::MatrixXd* X, SafeBounds* bounds) {
  const SafeBounds extra = ComputeSafeBounds(signals, more, beta);
  auto append = [](Eigen::MatrixXd* a, const Eigen::MatrixXd& b) {
    const Eigen::Index n = a->cols();
    a->conservativeResize(Eigen::NoChange, n + b.cols());
    a->rightCols(b.cols()) = b;
  };
  append(X, more);
  append(&bounds->mean, extra.mean);
  append(&bounds->stddev, extra.stddev);
  append(&bounds->lower, extra.lower);
  append(&bounds->upper, extra.upper);
}

Eigen::VectorXd OptimisticObjective(const std::vector<SafeSignal>& signals,
                                    const Eigen::MatrixXd& X, const SafeBounds& bounds,
                                    double beta) {
  CheckSignals(signals, beta);
  Eigen::VectorXd sd = bounds.stddev.row(0).transpose();
  if (signals[0].gp_for_widths != nullptr && signals[0].gp_for_widths != signals[0].gp) {
    Eigen::VectorXd means, variances;
    signals[0].gp_for_widths->Predict(X, &means, &variances);
    sd = variances.cwiseMax(0.0).cwiseSqrt();
  }
  return bounds.mean.row(0).transpose() + beta * sd;
}

SafeChoice ChooseOptimistic(const std::vector<SafeSignal>& signals, const SafeBounds& bounds,
                            const Eigen::VectorXd& optimistic,
                            const std::vector<bool>& declared_safe) {
  const std::vector<bool> safe = SafeMask(signals, bounds, declared_safe);
  SafeChoice choice;
  double best = -std::numeric_limits<double>::infinity();
  for (int j = 0; j < static_cast<int>(safe.size()); ++j) {
    if (!safe[static_cast<std::size_t>(j)]) continue;
    ++choice.safe_set_size;
    best = std::max(best, optimistic(j));
  }
  // The first point within kTie of the best (in the objective's prior standard deviations), so
  // that round-off (a signal told in other units) does not decide between near-equal points.
  const double tie = kTie * signals[0].width_scale;
  for (int j = 0; j < static_cast<int>(safe.size()) && choice.index < 0; ++j)
    if (safe[static_cast<std::size_t>(j)] && optimistic(j) >= best - tie) choice.index = j;
  choice.maximizer = choice.index >= 0;
  return choice;
}

SafeBounds ComputeSafeBounds(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                             double beta) {
  CheckSignals(signals, beta);
  SafeBounds bounds;
  const auto rows = static_cast<Eigen::Index>(signals.size());
  bounds.mean.resize(rows, X.cols());
  bounds.stddev.resize(rows, X.cols());
  bounds.lower.resize(rows, X.cols());
  bounds.upper.resize(rows, X.cols());
  for (Eigen::Index i = 0; i < rows; ++i) {
    Eigen::VectorXd means, variances;
    signals[static_cast<std::size_t>(i)].gp->Predict(X, &means, &variances);
    const Eigen::VectorXd sd = variances.cwiseMax(0.0).cwiseSqrt();
    const Eigen::VectorXd half = beta * sd;
    bounds.mean.row(i) = means.transpose();
    bounds.stddev.row(i) = sd.transpose();
    bounds.lower.row(i) =
        (means.cwiseMin(signals[static_cast<std::size_t>(i)].max_mean) - half).transpose();
    bounds.upper.row(i) = (means + half).transpose();
  }
  return bounds;
}

std::vector<bool> SafeMask(const std::vector<SafeSignal>& signals, const SafeBounds& bounds,
                           const std::vector<bool>& declared_safe) {
  const Eigen::Index n = bounds.lower.cols();
  if (!declared_safe.empty() && static_cast<Eigen::Index>(declared_safe.size()) != n)
    throw std::invalid_argument("declared_safe has " + std::to_string(declared_safe.size()) +
                                " entries for " + std::to_string(n) + " points");
  std::vector<bool> safe(static_cast<std::size_t>(n), true);
  for (Eigen::Index j = 0; j < n; ++j) {
    if (!declared_safe.empty() && declared_safe[static_cast<std::size_t>(j)]) continue;
    for (std::size_t i = 0; i < signals.size(); ++i)
      if (IsSafetySignal(signals[i]) &&
          !(bounds.lower(static_cast<Eigen::Index>(i), j) >= signals[i].threshold))
        safe[static_cast<std::size_t>(j)] = false;
  }
  return safe;
}

bool IsExpander(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                const SafeBounds& bounds, const std::vector<bool>& safe, int j, double beta) {
  CheckSignals(signals, beta);
  return ExpanderFlags(signals, X, bounds, {j}, ReachableUnsafe(signals, bounds, safe), beta)[0];
}

SafeChoice ChooseSafePoint(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                           const std::vector<bool>& declared_safe, double beta) {
  const SafeBounds bounds = ComputeSafeBounds(signals, X, beta);
  return ChooseAmong(signals, X, bounds, ScaledWidths(signals, X, bounds, beta), declared_safe,
                     beta);
}

SafeChoice ChooseAmong(const std::vector<SafeSignal>& signals, const Eigen::MatrixXd& X,
                       const SafeBounds& bounds, const Eigen::VectorXd& widths,
                       const std::vector<bool>& declared_safe, double beta) {
  CheckSignals(signals, beta);
  const std::vector<bool> safe = SafeMask(signals, bounds, declared_safe);
  SafeChoice choice;
  std::vector<int> safe_index;
  for (int j = 0; j < static_cast<int>(safe.size()); ++j)
    if (safe[static_cast<std::size_t>(j)]) safe_index.push_back(j);
  choice.safe_set_size = static_cast<int>(safe_index.size());
  if (safe_index.empty()) return choice;
  double best_lower = -std::numeric_limits<double>::infinity();
  for (int j : safe_index) best_lower = std::max(best_lower, bounds.lower(0, j));

  // Widest first; ties by index, so the choice does not depend on the sort's implementation.
  std::stable_sort(safe_index.begin(), safe_index.end(),
                   [&](int a, int b) { return widths(a) > widths(b); });
  const std::vector<int> reachable = ReachableUnsafe(signals, bounds, safe);
  std::size_t block_size = kFirstExpanderBlock;
  for (std::size_t start = 0; start < safe_index.size(); start += block_size, block_size *= 2) {
    const std::size_t end = std::min(safe_index.size(), start + block_size);
    // The block's points up to its first maximizer: beyond it none can win.
    std::vector<int> block;
    int maximizer = -1;
    for (std::size_t k = start; k < end && maximizer < 0; ++k) {
      const int j = safe_index[k];
      if (bounds.upper(0, j) >= best_lower)
        maximizer = j;
      else
        block.push_back(j);
    }
    const std::vector<bool> flags = ExpanderFlags(signals, X, bounds, block, reachable, beta);
    for (std::size_t k = 0; k < block.size(); ++k) {
      if (!flags[k]) continue;
      choice.index = block[k];
      choice.expander = true;
      break;
    }
    if (choice.index < 0 && maximizer >= 0) {
      choice.index = maximizer;
      choice.maximizer = true;
    }
    if (choice.index >= 0) break;
  }
  // M is never empty (the argmax of l_0 over S is in it), so the loop has chosen.
  choice.width = widths(choice.index);
  return choice;
}

}  // namespace gpbandit
