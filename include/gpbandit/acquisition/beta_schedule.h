// Exploration schedules of the UCB family and of GP-TS.
//
// GP-UCB (Srinivas, Krause, Kakade & Seeger, ICML 2010, Theorems 1-3), played as
// mu + sqrt(beta_t) sigma:
//   finite D:              beta_t = 2 log(|D| t^2 pi^2 / (6 delta))
//   compact D in [0,r]^d:  beta_t = 2 log(t^2 2 pi^2 / (3 delta))
//                                   + 2 d log(t^2 d b r sqrt(log(4 d a / delta)))
//   RKHS, ||f||_k <= B:    beta_t = 2 B^2 + 300 gamma_t log^3(t / delta)
// Their experiments divide beta_t by 5 (scale = 0.2). A practical schedule of the same
// O(d log t) order (Kandasamy, Schneider & Poczos, ICML 2015, with c = 0.2; gp_ucb.h's default
// on continuous domains, with c = 0.05 and d optionally capped):
//   dim-log:               beta_t = c min(d, d_max) log(2 t), c = 0.05
// Noise: the theorems assume N(0, sigma^2)
// noise (finite, compact) or noise bounded by sigma (RKHS); the model's noise_variance is that
// sigma^2.
//
// IGP-UCB (Chowdhury & Gopalan, ICML 2017, Theorem 2), played as mu + beta_t sigma (no sqrt):
//   beta_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(1 / delta))),
// with R-sub-Gaussian noise and the model's regularizer lambda = 1 + eta, eta = 2 / T.
// GP-TS (same paper, Theorem 4): v_t = B + R sqrt(2 (gamma_{t-1} + 1 + ln(2 / delta))); f_t is
// drawn from GP(mu_{t-1}, v_t^2 k_{t-1}).
//
// All functions are pure and thread-safe. Invalid input (t < 1, non-positive delta, ...) throws
// std::invalid_argument naming the field and the value; a non-finite result is never returned.
#ifndef GPBANDIT_ACQUISITION_BETA_SCHEDULE_H_
#define GPBANDIT_ACQUISITION_BETA_SCHEDULE_H_

#include <string>

namespace gpbandit {

enum class BetaScheduleKind {
  kAuto,      // kFinite on a finite candidate set, kDimLog on a continuous domain
  kFinite,    // Theorem 1
  kCompact,   // Theorem 2
  kRkhs,      // Theorem 3
  kConstant,  // beta_t = constant_beta for every t
  kDimLog,    // beta_t = dim_log_coefficient * min(d, dim_log_max_dim) log(2 t) (Kandasamy et al.)
};

// "auto", "finite", "compact", "rkhs", "constant", "dim-log" (and the reverse; throws on an
// unknown name).
std::string BetaScheduleKindName(BetaScheduleKind kind);
BetaScheduleKind ParseBetaScheduleKind(const std::string& name);

struct BetaScheduleOptions {
  // Which schedule. Default kAuto.
  BetaScheduleKind kind = BetaScheduleKind::kAuto;
  // Failure probability delta of the confidence bound. (0, 1). Default 0.1 (the papers' value).
  double delta = 0.1;
  // Compact case: the derivative bound P(sup |df/dx_j| > L) <= a exp(-(L/b)^2). a > 0, b > 0.
  // Defaults 1, 1.
  double a = 1.0;
  double b = 1.0;
  // Compact case: the domain is [0, r]^d. > 0. Default 1 (the optimizer's unit cube).
  double r = 1.0;
  // RKHS case: the bound B on ||f||_k. >= 0. Default 1.
  double rkhs_bound = 1.0;
  // Constant case: beta. > 0. Default 4 (mu + 2 sigma).
  double constant_beta = 4.0;
  // kDimLog: the coefficient c of beta_t = c d log(2 t). > 0. Default 0.05 (Kandasamy et al.
  // used 0.2; why 0.05: gp_ucb.h).
  double dim_log_coefficient = 0.05;
  // kDimLog: the largest d the schedule counts, beta_t = c min(d, dim_log_max_dim) log(2 t);
  // 0 = every dimension. >= 0. Default 0.
  int dim_log_max_dim = 0;
  // Multiplies every schedule's beta_t (Srinivas et al. use 1/5 in their experiments). > 0.
  // Default 1.
  double scale = 1.0;

  bool IsValid(std::string* error) const;
};

// The three cases of Srinivas et al. Theorem 1, unscaled. t >= 1.
double BetaFinite(int t, int num_candidates, double delta);
double BetaCompact(int t, int dim, double a, double b, double r, double delta);
double BetaRkhs(int t, double rkhs_bound, double gamma, double delta);
// c d log(2 t), unscaled. t >= 1, dim >= 1, coefficient > 0.
double BetaDimLog(int t, int dim, double coefficient);

// scale * the schedule chosen by options at round t (num_candidates = 0 on a continuous domain;
// dim = number of action coordinates; gamma = information gain used by kRkhs). Throws
// std::invalid_argument for invalid options, or kFinite with num_candidates < 1, or a result
// that is not finite and positive.
double ComputeBeta(const BetaScheduleOptions& options, int t, int num_candidates, int dim,
                   double gamma);

// IGP-UCB's beta_t and GP-TS's v_t (Chowdhury & Gopalan). rkhs_bound B >= 0, noise_bound R >= 0,
// gamma >= 0, delta in (0, 1).
double IgpUcbBeta(double rkhs_bound, double noise_bound, double gamma, double delta);
double GpTsScale(double rkhs_bound, double noise_bound, double gamma, double delta);
// IGP-UCB's regularizer lambda = 1 + 2 / T (the model's noise variance in the paper). T >= 1.
double IgpUcbLambda(int horizon);

}  // namespace gpbandit

#endif  // GPBANDIT_ACQUISITION_BETA_SCHEDULE_H_
