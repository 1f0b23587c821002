#include "model/outcome_transforms.h"

#include <cmath>

namespace gpbandit {

double PowerOfTwoUnit::Forward(double value) const { return std::ldexp(value, -exponent_); }
double PowerOfTwoUnit::UntransformMean(double mean) const { return std::ldexp(mean, exponent_); }
double PowerOfTwoUnit::UntransformStddev(double stddev) const {
  return std::ldexp(stddev, exponent_);
}

int PowerOfTwoUnit::ExponentFor(double largest) {
  constexpr int kBand = 256, kStep = 128;
  if (!(largest > 0.0)) return 0;
  const int exponent = std::ilogb(largest);  // largest in [2^exponent, 2^(exponent + 1))
  if (exponent >= -kBand && exponent < kBand) return 0;
  return kStep * (exponent / kStep);  // toward zero
}

double OutcomeChain::MeanToTold(double model_mean) const {
  return sense_.UntransformMean(unit_.UntransformMean(model_mean));
}

double OutcomeChain::StddevToTold(double model_stddev) const {
  return sense_.UntransformStddev(unit_.UntransformStddev(model_stddev));
}

}  // namespace gpbandit
