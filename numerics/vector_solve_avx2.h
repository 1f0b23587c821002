// Triangular solves in AVX2 and FMA instructions, for the acquisition's inner loop (two solves
// with one right-hand side per evaluation with the factor L of the GP's kernel matrix: v = L^-1 k
// for the variance, L^-T v for its gradient) and the raw samples' scoring (L^-1 k(X, X*), one
// column per point). Compiled for these instructions function by
// function (GCC's target attribute), so the rest of the binary stays portable; callers check
// numerics/cpu_features.h's Avx2FmaAvailable() first (numerics/dense_kernels.h does). On other
// architectures than x86-64 Avx2FmaAvailable() is false and the solves throw std::logic_error.
//
// L is column-major, lower-triangular, n x n in a buffer of column stride ld >= n; only its lower
// triangle is read. Both solves go four columns at a time: the forward one subtracts four columns
// at once from the rest of x (column-oriented: L's columns are contiguous), the backward one forms
// four dot products of L's columns with the solved part of x at once. Every element's sum is taken
// in an order fixed by n alone (not by addresses), so equal inputs give equal bits; the order
// differs from Eigen's, so results agree with Eigen's to rounding, not bit for bit.
// Thread safety: pure functions of their arguments.
#ifndef GPBANDIT_NUMERICS_VECTOR_SOLVE_AVX2_H_
#define GPBANDIT_NUMERICS_VECTOR_SOLVE_AVX2_H_

namespace gpbandit {
namespace internal {

// Overwrites x (n values) with L^-1 x.
void ForwardSolveAvx2(long n, const double* L, long ld, double* x);

// Overwrites x (n values) with L^-T x.
void BackwardSolveAvx2(long n, const double* L, long ld, double* x);

// Overwrites the n x m column-major B (column stride ldb >= n) with L^-1 B: ForwardSolveAvx2 on
// each column, four columns per pass over L (the last m mod 4 one at a time), with
// ForwardSolveAvx2's operations on every element, so every column has the bits ForwardSolveAvx2
// gives it alone.
void ForwardSolveColumnsAvx2(long n, const double* L, long ld, long m, double* B, long ldb);

}  // namespace internal
}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_VECTOR_SOLVE_AVX2_H_
