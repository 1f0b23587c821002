// The exhaustive argmax over a finite candidate set's scores, parallel with OpenMP.
//
// Rules: NaN never wins; ties go to the lowest index (so the answer does not depend on the
// number of threads); -infinity may win only if every non-NaN score is -infinity. Throws
// std::invalid_argument when scores is empty or every entry is NaN (a strategy that produced
// only NaN is a bug to surface, not to hide).
#ifndef GPBANDIT_MAXIMIZER_FINITE_ARGMAX_H_
#define GPBANDIT_MAXIMIZER_FINITE_ARGMAX_H_

#include <Eigen/Core>

namespace gpbandit {

// num_threads: 0 = the OpenMP default; >= 1 = at most that many. The thread policy
// (numerics/thread_policy.h) runs the scan serially below millions of scores or on a busy machine.
int FiniteArgmax(const Eigen::VectorXd& scores, int num_threads = 0);

// Same rules, restricted to the indices where allowed(i) is true (e.g. the candidates carrying
// this round's context). allowed has the size of scores. Throws if no allowed entry is non-NaN.
int FiniteArgmaxMasked(const Eigen::VectorXd& scores,
                       const Eigen::Array<bool, Eigen::Dynamic, 1>& allowed, int num_threads = 0);

}  // namespace gpbandit

#endif  // GPBANDIT_MAXIMIZER_FINITE_ARGMAX_H_
