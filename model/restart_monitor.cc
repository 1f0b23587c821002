#include "model/restart_monitor.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "gpbandit/numerics/format.h"

namespace gpbandit {

RestartMonitor::RestartMonitor(int window, double threshold)
    : window_(window), threshold_(threshold) {
  if (window < 1)
    throw std::invalid_argument("restart_window = " + std::to_string(window) + ": must be >= 1");
  if (!(threshold > 0.0 && std::isfinite(threshold)))
    throw std::invalid_argument("restart_threshold = " + FormatDouble(threshold) +
                                ": must be finite and > 0");
}

long RestartMonitor::EpochStart(long round) const {
  const auto after = std::upper_bound(starts_->begin(), starts_->end(), round);
  return after == starts_->begin() ? 0 : *(after - 1);
}

double RestartMonitor::Residual(double y, double mean, double variance, double noise_variance) {
  return (y - mean) / std::sqrt(variance + noise_variance);
}

bool RestartMonitor::Observe(double z, long round) {
  largest_round_ = std::max(largest_round_, round);
  // A late tell of a point asked before the epoch began says nothing about the current model.
  if (!starts_->empty() && round < starts_->back()) return false;
  squares_.push_back(z * z);
  if (static_cast<int>(squares_.size()) > window_) squares_.pop_front();
  if (!(Statistic() > threshold_)) return false;
  starts_->push_back(largest_round_ + 1);
  squares_.clear();
  return true;
}

double RestartMonitor::Statistic() const {
  if (static_cast<int>(squares_.size()) < window_) return std::nan("");
  double sum = 0.0;
  for (double s : squares_) sum += s;
  return sum / window_;
}

}  // namespace gpbandit
