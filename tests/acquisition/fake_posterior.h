// A CandidatePosterior with given means and variances, for strategy tests that need no GP (as
// BoTorch tests check closed forms against a fake posterior). SampleJoint is not supported:
// tests of sampling use the real posteriors.
#ifndef GPBANDIT_TESTS_ACQUISITION_FAKE_POSTERIOR_H_
#define GPBANDIT_TESTS_ACQUISITION_FAKE_POSTERIOR_H_

#include <Eigen/Core>
#include <stdexcept>

#include "gpbandit/acquisition/strategy.h"

namespace gpbandit {
namespace testing {

class FakePosterior : public CandidatePosterior {
 public:
  FakePosterior(Eigen::VectorXd means, Eigen::VectorXd variances)
      : means_(std::move(means)), variances_(std::move(variances)) {}
  int size() const override { return static_cast<int>(means_.size()); }
  const Eigen::VectorXd& means() const override { return means_; }
  const Eigen::VectorXd& variances() const override { return variances_; }
  Eigen::MatrixXd SampleJoint(int, double, Rng&) const override {
    throw std::logic_error("FakePosterior cannot sample");
  }

 private:
  Eigen::VectorXd means_, variances_;
};

inline RoundState MakeRound(int t, int num_candidates, double incumbent = 0.0,
                            double information_gain = 0.0) {
  RoundState state;
  state.t = t;
  state.action_dim = 1;
  state.num_candidates = num_candidates;
  state.incumbent = incumbent;
  state.information_gain = information_gain;
  state.noise_variance = 0.01;
  return state;
}

}  // namespace testing
}  // namespace gpbandit

#endif  // GPBANDIT_TESTS_ACQUISITION_FAKE_POSTERIOR_H_
