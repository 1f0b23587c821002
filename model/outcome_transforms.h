// The chain from the values a caller tells to the outputs the model is fitted to, one invertible
// step at a time (as BoTorch composes its outcome transforms): first the objective sense (a cost
// to minimize becomes the reward -cost), then the reward unit (a power of two, 2^k, that keeps
// huge or tiny rewards within the range where the model's variances neither overflow nor
// underflow; optimizer.h, "Units"), then the model's own output standardization
// (GaussianProcess: offset and scale that move with every observation, kept inside the model
// because they are part of its incremental state). Every step is exact in floating point
// (negation, multiplication by a power of two), so a told value survives the round trip bit for
// bit and a resumed run holds the same model. Internal to model/.
#ifndef GPBANDIT_MODEL_OUTCOME_TRANSFORMS_H_
#define GPBANDIT_MODEL_OUTCOME_TRANSFORMS_H_

#include <memory>
#include <vector>

#include "gpbandit/study/optimizer_options.h"

namespace gpbandit {

// One step of the chain. Forward maps a value toward the model; the Untransform members map
// a model-side mean or standard deviation back toward the caller.
class OutcomeTransform {
 public:
  virtual ~OutcomeTransform() = default;
  virtual double Forward(double value) const = 0;
  virtual double UntransformMean(double mean) const = 0;
  virtual double UntransformStddev(double stddev) const = 0;
};

// The objective sense: the identity when maximizing, negation when minimizing.
class SenseTransform : public OutcomeTransform {
 public:
  explicit SenseTransform(ObjectiveSense sense)
      : sign_(sense == ObjectiveSense::kMinimize ? -1 : 1) {}
  double Forward(double value) const override { return sign_ * value; }
  double UntransformMean(double mean) const override { return sign_ * mean; }
  double UntransformStddev(double stddev) const override { return stddev; }
  double sign() const { return sign_; }

 private:
  double sign_;
};

// Division by 2^exponent. The exponent is 0 while the largest reward magnitude lies within
// [2^-256, 2^256) (about 1e-77 to 1e77), and otherwise a multiple of 128 that brings it within
// 2^128 of 1 (ExponentFor).
class PowerOfTwoUnit : public OutcomeTransform {
 public:
  double Forward(double value) const override;
  double UntransformMean(double mean) const override;
  double UntransformStddev(double stddev) const override;
  int exponent() const { return exponent_; }
  void set_exponent(int exponent) { exponent_ = exponent; }
  // The exponent for rewards whose largest magnitude is `largest`.
  static int ExponentFor(double largest);

 private:
  int exponent_ = 0;
};

// The sense, then the reward unit.
class OutcomeChain {
 public:
  explicit OutcomeChain(ObjectiveSense sense) : sense_(sense) {}
  // A told value in the model's sense (a reward to maximize), and back.
  double ToReward(double told) const { return sense_.Forward(told); }
  double FromReward(double reward) const { return sense_.UntransformMean(reward); }
  // A reward in model outputs (before the model's standardization).
  double RewardToModel(double reward) const { return unit_.Forward(reward); }
  // A posterior mean or standard deviation of the model back in the caller's units.
  double MeanToTold(double model_mean) const;
  double StddevToTold(double model_stddev) const;
  const SenseTransform& sense() const { return sense_; }
  PowerOfTwoUnit& unit() { return unit_; }
  const PowerOfTwoUnit& unit() const { return unit_; }

 private:
  SenseTransform sense_;
  PowerOfTwoUnit unit_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_MODEL_OUTCOME_TRANSFORMS_H_
