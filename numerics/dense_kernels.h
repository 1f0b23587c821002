// The hot dense kernels of the models: the Cholesky factorization (every refactorization, every
// likelihood evaluation of a fit), the inverse from it (every fit's gradient) and the triangular
// solves with many right-hand sides (the posterior at a block of points: the maximizers' raw
// samples) and with one (the acquisition's every evaluation). Built with OpenBLAS
// (GPBANDIT_WITH_OPENBLAS, the default when Debian's libopenblas-dev is found), they run OpenBLAS's
// LAPACK dpotrf and dpotri and its dtrsm, whose kernels OpenBLAS chooses at run time for the CPU it
// finds (AVX2, AVX-512, ...), so a portable build is not held to SSE2; otherwise Eigen's.
//
// Determinism: OpenBLAS runs single-threaded (the first call sets openblas_set_num_threads(1)
// for the process: its threaded factorization blocks the work by the thread count, and gpbandit
// parallelizes above the BLAS), and its kernels do not depend on heap addresses, so equal inputs
// give equal bits on one machine: a run resumed from its log holds the same models. Another CPU
// may choose other kernels and differ in the last bits.
// Thread safety: may be called concurrently on distinct matrices.
#ifndef GPBANDIT_NUMERICS_DENSE_KERNELS_H_
#define GPBANDIT_NUMERICS_DENSE_KERNELS_H_

#include <Eigen/Core>
#include <string>

namespace gpbandit {

// Overwrites the lower triangle of the symmetric n x n matrix A (only the lower triangle is
// read) with its Cholesky factor L, A = L L^T; the strict upper triangle is left as it was.
// Returns false when A is not numerically positive definite (A's lower triangle is then
// partly overwritten).
bool CholeskyLowerInPlace(Eigen::Ref<Eigen::MatrixXd> A);

// Solves L X = B for X, in place of B: L is n x n lower-triangular (only its lower triangle is
// read), B is n x m. On a CPU with AVX2 and FMA and n <= 1600, numerics/vector_solve_avx2.h's
// kernel (each column gets the bits LowerSolveVectorInPlace gives it alone; 0.53-0.65x dtrsm's
// time at n = 50-200 and 32 columns); otherwise, with OpenBLAS and m >= 2, dtrsm; otherwise
// Eigen's.
void LowerTriangularSolveInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                                 Eigen::Ref<Eigen::MatrixXd> B);

// Solves L x = b for x, in place of b (L as above; one right-hand side): on a CPU with AVX2 and
// FMA numerics/vector_solve_avx2.h's kernel, about 2x Eigen's portable solve at n = 25-400
// (OpenBLAS's vector solve is no faster than Eigen's below n ~ 400: docs/benchmarks.md);
// otherwise Eigen's vector solve.
void LowerSolveVectorInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                             Eigen::Ref<Eigen::VectorXd> b);

// Solves L^T x = b for x, in place of b (L as above; the vector's back substitution of a
// Cholesky solve): on a CPU with AVX2 and FMA numerics/vector_solve_avx2.h's kernel, otherwise
// Eigen's.
void LowerTransposeSolveInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                                Eigen::Ref<Eigen::VectorXd> b);

// With OpenBLAS: overwrites the lower triangle of L, the Cholesky factor of A = L L^T, with the
// lower triangle of A^-1 (the strict upper triangle is left as it was) and returns true: L^-1 by
// numerics/vector_solve_avx2.h's block solve of the identity on a CPU with AVX2 and FMA and
// n <= 1600 (0.37-0.47x dtrtri's time at n = 50-400), else LAPACK's dtrtri, then L^-T L^-1 by
// LAPACK's dlauum (together LAPACK's dpotri). Without it (or in a
// ScopedPortableDenseKernelsForTesting) returns false and leaves L as it was: the caller inverts
// with Eigen.
bool CholeskyInverseLowerInPlace(Eigen::Ref<Eigen::MatrixXd> L);

// "openblas <core>" (the kernels OpenBLAS chose for this CPU, e.g. "openblas Haswell") or
// "eigen" (a build without OpenBLAS), followed by " + avx2-fma vector solves" on a CPU that runs
// them; "eigen" alone while a ScopedPortableDenseKernelsForTesting lives.
std::string DenseKernelsDescription();

// While one lives, every function above runs Eigen's (LLT, triangular solves) on every CPU:
// compiled code with no run-time dispatch, so the same bits on every CPU the binary runs on. For
// the tests that compare with results recorded on another machine
// (tests/optimizer/log_format_v*_test.cc). Scopes nest. Thread safety: construct and destroy it
// while no other thread factorizes (the switch is atomic, but a fit that sees it change midway
// mixes kernels).
class ScopedPortableDenseKernelsForTesting {
 public:
  ScopedPortableDenseKernelsForTesting();
  ~ScopedPortableDenseKernelsForTesting();
  ScopedPortableDenseKernelsForTesting(const ScopedPortableDenseKernelsForTesting&) = delete;
  ScopedPortableDenseKernelsForTesting& operator=(const ScopedPortableDenseKernelsForTesting&) =
      delete;
};

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_DENSE_KERNELS_H_
