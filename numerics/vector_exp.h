// The elementwise exponential exp(scale x_i) of a vector, the stationary kernels' profiles' one
// expensive step. Bit for bit what Eigen's (scale * x).exp() gives when assigned to out (in
// this build's instruction set), on every CPU: with AVX2 four values per instruction
// (numerics/vector_exp_avx2.h), otherwise Eigen's own loop. Studies and their logs therefore do
// not depend on which path runs.
// Thread safety: a pure function of its arguments.
#ifndef GPBANDIT_NUMERICS_VECTOR_EXP_H_
#define GPBANDIT_NUMERICS_VECTOR_EXP_H_

#include <Eigen/Core>

namespace gpbandit {

// out[i] = exp(scale * x[i]) for i in [0, n); out may be x.
void ExpOfScaledInto(double scale, const double* x, Eigen::Index n, double* out);

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_VECTOR_EXP_H_
