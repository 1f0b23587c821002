// The exponential of a scaled vector, exp(scale x_i), in AVX2 instructions, with the bits of
// Eigen's own SSE2 exponential (Eigen 3.4's pexp_double: Cephes' rational approximation on
// [-ln 2 / 2, ln 2 / 2] and an exact power-of-two scaling): the same operations in the same
// order, four values per instruction instead of two, and no fused multiply-adds. Compiled for
// AVX2 function by function (GCC's target attribute), so the rest of the binary stays portable;
// callers check numerics/cpu_features.h's Avx2Available() first (numerics/vector_exp.h does). On
// other architectures than x86-64 Avx2Available() is false and the kernel throws
// std::logic_error.
// Thread safety: pure functions of their arguments.
#ifndef GPBANDIT_NUMERICS_VECTOR_EXP_AVX2_H_
#define GPBANDIT_NUMERICS_VECTOR_EXP_AVX2_H_

namespace gpbandit {
namespace internal {

// out[i] = exp(scale * x[i]) for i in [0, n), by Eigen's packet algorithm for every element
// (Eigen itself takes std::exp for elements outside its aligned packets: numerics/vector_exp.h
// does the same). out may be x.
void ExpOfScaledAvx2(long n, double scale, const double* x, double* out);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_VECTOR_EXP_AVX2_H_
