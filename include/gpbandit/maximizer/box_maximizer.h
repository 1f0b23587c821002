// Maximizes a ContinuousAcquisition over a box [lower, upper] by multi-start L-BFGS (Ceres
// GradientProblemSolver) with analytic gradients.
//
// Algorithm:
// 1. A seeded Latin-hypercube (or scrambled Sobol) sample of num_raw_samples points in the box
//    is scored, together
//    with extra_starts (e.g. the best observed points), clamped into the box, in blocks of at
//    most 32 points through ContinuousAcquisition::EvaluateMany.
// 2. Starts: every extra start plus the best raw samples, num_starts in all (ties by index).
// 3. Each start climbs in u-space, x = lo + (hi - lo)(1 - cos(pi u)) / 2, which is smooth and
//    unconstrained and reaches the faces (and corners) of the box as stationary points
//    (dx/du = 0 there); starts are moved strictly inside the box first (u in [1e-6, 1 - 1e-6])
//    so the gradient is not zero at the start. One Ceres problem per start, all under OpenMP,
//    except the process's very first solve, which runs on the calling thread (glog's lazy
//    initialization is not thread-safe). The thread counts of the scoring and of the starts come
//    from the thread policy (numerics/thread_policy.h), from the cost per point measured on the
//    first block of raw samples (scored alone): small work and a busy machine run on one thread.
// 4. A start whose acquisition returns a non-finite value (or whose solve ends in failure) is
//    discarded: Evaluate returns false and Ceres backtracks; a start is counted as failed only
//    when nothing finite comes out of it. The best finite point among the L-BFGS results and
//    the raw samples wins (ties: lowest start index, L-BFGS results before raw samples). If
//    every evaluation was non-finite the call still succeeds: it returns the first start
//    (the first extra start, else the first raw sample) with value = NaN, from_raw_sample set.
// 5. The result is clamped exactly into [lower, upper].
//
// Coordinates with lower == upper are FIXED: they are never moved (this is how a context is
// held fixed while the actions move). Determinism: all random numbers are drawn before the
// parallel region and every start is independent, so a given rng state gives the same result
// with any thread count. An exception thrown by the acquisition is caught inside the parallel
// region and rethrown (the first, by start index) after it.
#ifndef GPBANDIT_MAXIMIZER_BOX_MAXIMIZER_H_
#define GPBANDIT_MAXIMIZER_BOX_MAXIMIZER_H_

#include <Eigen/Core>
#include <string>

#include "gpbandit/acquisition/strategy.h"
#include "gpbandit/maximizer/raw_sample_design.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {

struct BoxMaximizerOptions {
  // Each start's L-BFGS (Ceres' GradientProblemSolver, otherwise with Ceres' defaults: Wolfe line
  // search, gradient tolerance 1e-10, parameter tolerance 1e-8, silent): at most max_iterations
  // iterations (>= 0; default 100), stopping when the relative change of the acquisition falls
  // below function_tolerance (>= 0; default 1e-10).
  int max_iterations = 100;
  double function_tolerance = 1e-10;
  // Points scored before any L-BFGS. >= 1. Default 512.
  int num_raw_samples = 512;
  // Their design (raw_sample_design.h). Default kLatinHypercube (why: docs/benchmarks.md,
  // "Why the defaults are what they are").
  RawSampleDesign raw_sample_design = RawSampleDesign::kLatinHypercube;
  // L-BFGS starts in all (extra starts first, then the best raw samples). >= 1. Default 8.
  int num_starts = 8;
  // OpenMP threads over the starts and raw samples, at most; 0 = the OpenMP default; the thread
  // policy (numerics/thread_policy.h) may use fewer. >= 0. Default 0.
  int num_threads = 0;

  bool IsValid(std::string* error) const;
};

struct BoxMaximizerResult {
  Eigen::VectorXd x;             // the argmax found, inside [lower, upper] exactly
  double value = 0.0;            // the acquisition at x
  int starts_run = 0;            // L-BFGS starts attempted
  int starts_failed = 0;         // starts discarded (non-finite value or solver failure)
  bool from_raw_sample = false;  // true if no L-BFGS start beat the best raw sample
  int num_evaluations = 0;       // acquisition evaluations in all

  std::string BriefReport() const;
};

// lower, upper: the box (dim), finite, lower <= upper. extra_starts: dim x k (k >= 0), any
// values (clamped into the box). Throws std::invalid_argument (field, value) on bad input or
// invalid options.
BoxMaximizerResult MaximizeOverBox(const ContinuousAcquisition& acquisition,
                                   const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                                   const Eigen::MatrixXd& extra_starts,
                                   const BoxMaximizerOptions& options, Rng& rng);

// Step 3 alone: one L-BFGS climb from `start` (dim; clamped into the box, non-finite
// coordinates moved to the middle), with options' iteration limits and no raw samples, on the
// calling thread (the caller passes the process's first Ceres solve through RunAsFirstSolve,
// numerics/thread_policy.h, before climbing from several threads). The result is the climb's end
// clamped into the box, or the start itself when the climb ends lower or non-finite (value NaN
// when the start's value is not finite either); starts_run is 1. Coordinates with lower == upper
// stay fixed: the mixed maximizer (mixed_maximizer.h) climbs the continuous coordinates with the
// discrete ones held so. Throws std::invalid_argument for a bad box, start or options.
BoxMaximizerResult ClimbInBox(const ContinuousAcquisition& acquisition,
                              const Eigen::VectorXd& lower, const Eigen::VectorXd& upper,
                              const Eigen::VectorXd& start, const BoxMaximizerOptions& options);

// n points of a Latin-hypercube design in [lower, upper] (dim x n; fixed coordinates at lower).
Eigen::MatrixXd LatinHypercube(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, int n,
                               Rng& rng);

// The first n points of the Sobol sequence (Boost.Random's sobol, Joe & Kuo's direction
// numbers) over the free coordinates of [lower, upper] (lower < upper), randomized by a digital
// shift: every coordinate's 64 bits are XORed with one random mask per coordinate (drawn from
// rng), which keeps the sequence's (t, s)-net balance and makes each point uniform on the box.
// dim x n; fixed coordinates at lower. Throws std::invalid_argument when more than 3667
// coordinates are free (the table's limit).
Eigen::MatrixXd ScrambledSobol(const Eigen::VectorXd& lower, const Eigen::VectorXd& upper, int n,
                               Rng& rng);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_BOX_MAXIMIZER_H_
