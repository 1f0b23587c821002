// The papers' pure-exploration baseline (uncertainty sampling): score = sigma^2_{t-1}(x), whose
// argmax is that of sigma. Registered as "variance".
//
// Thread safety and determinism: as every Strategy (strategy.h).
#ifndef GPBANDIT_ACQUISITION_VARIANCE_ONLY_H_
#define GPBANDIT_ACQUISITION_VARIANCE_ONLY_H_

#include <memory>
#include <string>

#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {

class VarianceOnly : public IndexStrategy {
 public:
  // The registry's factory. No options: throws std::invalid_argument for any key in params.
  static std::unique_ptr<Strategy> Create(const StrategyParams& params);

  std::string name() const override { return "variance"; }
  void BeginRound(const RoundState& state) override;
  double figure() const override { return 0.0; }
  std::string figure_name() const override { return "none"; }
  bool reads_sequential_variances() const override { return false; }
  double Score(double mean, double variance, double* d_mean, double* d_variance) const override;
  std::unique_ptr<Strategy> Clone() const override;
};

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_VARIANCE_ONLY_H_
