// Kernels over the round index: how a drifting objective forgets (Bogunovic, Scarlett & Cevher,
// "Time-Varying Gaussian Process Bandit Optimization", AISTATS 2016).
//
// Their model: f_1 = g_1, f_{t+1} = sqrt(1 - eps) f_t + sqrt(eps) g_{t+1}, the g_i independent
// GP(0, k) draws. Then Cov(f_t(x), f_t'(x')) = k(x, x') (1 - eps)^{|t - t'| / 2}: the spatial
// kernel times the forgetting kernel below, over one input coordinate that holds the round
// (in rounds, not in the unit cube). The Optimizer appends that coordinate itself when its
// strategy asks for a time model (acquisition/time_model.h).
//
// - ForgettingKernel: k_time(t, t') = (1 - eps)^{|t - t'| / 2} = exp(-|t - t'| / l), l =
//   -2 / log(1 - eps): TV-GP-UCB's kernel, an Ornstein-Uhlenbeck (Matern-1/2) kernel in time with
//   unit variance. eps is fixed, or fitted as one log-param log(eps) of kind kOther; eps must
//   stay in (0, 1), so the fit's bounds on it must lie below log(1) = 0 (the Optimizer sets them).
// - EpochKernel: k_time(t, t') = 1 if floor(t / N) = floor(t' / N), else 0: R-GP-UCB's reset every
//   N rounds expressed as a kernel. A GP with this factor is, at a point of the current epoch,
//   exactly the GP of that epoch's observations alone (every covariance with earlier epochs is
//   0, so the posterior mean and variance do not see them). No log-params.
// - RestartKernel: k_time(t, t') = 1 if t and t' lie in the same epoch, else 0, the epochs
//   beginning at the rounds of a sorted list (the first epoch at round 0): the epoch kernel
//   with epochs of any length, which R-GP-UCB's data-driven restarts use. The list is shared,
//   not copied, by every clone of the kernel (the model's copies for fits and asks) and is
//   appended to by its owner (the Optimizer: model/restart_monitor.h) only with rounds past
//   every observation the models hold, so no covariance between held observations changes.
//   No log-params.
//
// Gradients in the time coordinate: d/dt of |t - t'| is sign(t - t') (0 at t = t'); the epoch
// kernel is piecewise constant (gradient 0). The Optimizer holds the time coordinate fixed
// while it maximizes, so neither gradient steers a maximizer.
//
// Thread safety: const members may run concurrently.
#ifndef GPBANDIT_KERNEL_TIME_KERNELS_H_
#define GPBANDIT_KERNEL_TIME_KERNELS_H_

#include <memory>
#include <string>
#include <vector>

#include "gpbandit/kernel/kernel.h"

namespace gpbandit {

class ForgettingKernel : public Kernel {
 public:
  // time_dim >= 0: the input coordinate that holds the round. epsilon in (0, 1). fit_epsilon:
  // whether log(epsilon) is a log-param (else the kernel has none). Throws
  // std::invalid_argument naming the field and value.
  ForgettingKernel(int time_dim, double epsilon, bool fit_epsilon);

  double epsilon() const { return epsilon_; }

  std::unique_ptr<Kernel> Clone() const override;
  std::string Describe() const override;
  int MinInputDim() const override { return time_dim_ + 1; }
  int NumParams() const override { return fit_epsilon_ ? 1 : 0; }
  Eigen::VectorXd GetLogParams() const override;
  // Throws std::invalid_argument unless the entry is finite and < 0 (epsilon < 1).
  void SetLogParams(const ConstVectorRef& log_params) override;
  std::vector<std::string> ParamNames() const override;
  std::vector<ParamKind> ParamKinds() const override;
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override;
  void AccumulateGradientA(const ConstVectorRef& a, const ConstVectorRef& b, double scale,
                           VectorRef grad) const override;
  void GradientLogParams(const ConstVectorRef& a, const ConstVectorRef& b,
                         VectorRef grad) const override;

 protected:
  std::vector<int> InputDims() const override { return {time_dim_}; }

 private:
  int time_dim_;
  double epsilon_;
  double log_epsilon_;  // the log-param, as set
  bool fit_epsilon_;
};

// k_time(t, t') = 1 if Epoch(t) = Epoch(t'), else 0: what the epoch kernels below share (no
// log-params; piecewise constant in t, gradient 0). Subclasses say what an epoch is.
class SameEpochKernel : public Kernel {
 public:
  // The epoch of round t.
  virtual long Epoch(double t) const = 0;

  int MinInputDim() const override { return time_dim_ + 1; }
  int NumParams() const override { return 0; }
  Eigen::VectorXd GetLogParams() const override { return Eigen::VectorXd(); }
  void SetLogParams(const ConstVectorRef& log_params) override;
  std::vector<std::string> ParamNames() const override { return {}; }
  std::vector<ParamKind> ParamKinds() const override { return {}; }
  double Value(const ConstVectorRef& a, const ConstVectorRef& b) const override;
  void AccumulateGradientA(const ConstVectorRef&, const ConstVectorRef&, double,
                           VectorRef) const override {}
  void GradientLogParams(const ConstVectorRef&, const ConstVectorRef&, VectorRef) const override {}

 protected:
  // who: the class's name, for messages. Throws std::invalid_argument unless time_dim >= 0.
  SameEpochKernel(const char* who, int time_dim);
  int time_dim() const { return time_dim_; }
  std::vector<int> InputDims() const override { return {time_dim_}; }

 private:
  const char* who_;
  int time_dim_;
};

class EpochKernel : public SameEpochKernel {
 public:
  // time_dim >= 0; epoch_length N >= 1 rounds. Throws std::invalid_argument naming the field.
  EpochKernel(int time_dim, long epoch_length);

  long epoch_length() const { return epoch_length_; }
  // floor(t / N).
  long Epoch(double t) const override;

  std::unique_ptr<Kernel> Clone() const override;
  std::string Describe() const override;

 private:
  long epoch_length_;
};

class RestartKernel : public SameEpochKernel {
 public:
  // time_dim >= 0; epoch_starts: the rounds at which epochs after the first begin, ascending,
  // owned by the caller and read at every evaluation (not null). Throws std::invalid_argument
  // naming the field.
  RestartKernel(int time_dim, std::shared_ptr<const std::vector<long>> epoch_starts);

  // The number of epoch starts <= t.
  long Epoch(double t) const override;

  std::unique_ptr<Kernel> Clone() const override;
  // Independent of the starts, which change as the model learns (the log header records it).
  std::string Describe() const override;

 private:
  std::shared_ptr<const std::vector<long>> epoch_starts_;
};

}  // namespace gpbandit

#endif  // GPBANDIT_KERNEL_TIME_KERNELS_H_
