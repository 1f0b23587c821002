#include "numerics/vector_solve_avx2.h"

#if defined(__x86_64__)
#include <immintrin.h>
#else
#include <stdexcept>
#endif

namespace gpbandit {
namespace internal {

#if defined(__x86_64__)
#define GPBANDIT_AVX2_FMA __attribute__((target("avx2,fma")))

namespace {

// The four columns j .. j + 3 of L.
struct FourColumns {
  const double *c0, *c1, *c2, *c3;
  FourColumns(const double* L, long ld, long j)
      : c0(L + j * ld), c1(c0 + ld), c2(c1 + ld), c3(c2 + ld) {}
};

// Forward substitution in the 4 x 4 diagonal block at j: x[j .. j + 3] from what is left of
// them once the columns before j were subtracted.
GPBANDIT_AVX2_FMA void SolveDiagonalBlock(const FourColumns& c, long j, double* x) {
  const double x0 = x[j] / c.c0[j];
  const double x1 = __builtin_fma(-c.c0[j + 1], x0, x[j + 1]) / c.c1[j + 1];
  double r2 = __builtin_fma(-c.c0[j + 2], x0, x[j + 2]);
  const double x2 = __builtin_fma(-c.c1[j + 2], x1, r2) / c.c2[j + 2];
  double r3 = __builtin_fma(-c.c0[j + 3], x0, x[j + 3]);
  r3 = __builtin_fma(-c.c1[j + 3], x1, r3);
  const double x3 = __builtin_fma(-c.c2[j + 3], x2, r3) / c.c3[j + 3];
  x[j] = x0;
  x[j + 1] = x1;
  x[j + 2] = x2;
  x[j + 3] = x3;
}

// x[i] -= L[i, j .. j + 3] x[j .. j + 3] for i in [begin, n), four rows per instruction.
GPBANDIT_AVX2_FMA void SubtractFourColumns(const FourColumns& c, long j, long begin, long n,
                                           double* x) {
  const double x0 = x[j], x1 = x[j + 1], x2 = x[j + 2], x3 = x[j + 3];
  const __m256d m0 = _mm256_set1_pd(-x0), m1 = _mm256_set1_pd(-x1);
  const __m256d m2 = _mm256_set1_pd(-x2), m3 = _mm256_set1_pd(-x3);
  long i = begin;
  for (; i + 4 <= n; i += 4) {
    __m256d r = _mm256_loadu_pd(x + i);
    r = _mm256_fmadd_pd(m0, _mm256_loadu_pd(c.c0 + i), r);
    r = _mm256_fmadd_pd(m1, _mm256_loadu_pd(c.c1 + i), r);
    r = _mm256_fmadd_pd(m2, _mm256_loadu_pd(c.c2 + i), r);
    r = _mm256_fmadd_pd(m3, _mm256_loadu_pd(c.c3 + i), r);
    _mm256_storeu_pd(x + i, r);
  }
  // The same operations, one row at a time.
  for (; i < n; ++i) {
    double r = __builtin_fma(-x0, c.c0[i], x[i]);
    r = __builtin_fma(-x1, c.c1[i], r);
    r = __builtin_fma(-x2, c.c2[i], r);
    x[i] = __builtin_fma(-x3, c.c3[i], r);
  }
}

GPBANDIT_AVX2_FMA double HorizontalSum(__m256d a) {
  const __m128d pair = _mm_add_pd(_mm256_castpd256_pd128(a), _mm256_extractf128_pd(a, 1));
  return _mm_cvtsd_f64(_mm_add_sd(pair, _mm_unpackhi_pd(pair, pair)));
}

// s[k] = sum over i in [begin, n) of L[i, j + k] x[i], k = 0 .. 3.
GPBANDIT_AVX2_FMA void FourDotProducts(const FourColumns& c, long begin, long n, const double* x,
                                       double s[4]) {
  __m256d a0 = _mm256_setzero_pd(), a1 = a0, a2 = a0, a3 = a0;
  long i = begin;
  for (; i + 4 <= n; i += 4) {
    const __m256d xi = _mm256_loadu_pd(x + i);
    a0 = _mm256_fmadd_pd(_mm256_loadu_pd(c.c0 + i), xi, a0);
    a1 = _mm256_fmadd_pd(_mm256_loadu_pd(c.c1 + i), xi, a1);
    a2 = _mm256_fmadd_pd(_mm256_loadu_pd(c.c2 + i), xi, a2);
    a3 = _mm256_fmadd_pd(_mm256_loadu_pd(c.c3 + i), xi, a3);
  }
  s[0] = HorizontalSum(a0);
  s[1] = HorizontalSum(a1);
  s[2] = HorizontalSum(a2);
  s[3] = HorizontalSum(a3);
  for (; i < n; ++i) {
    s[0] = __builtin_fma(c.c0[i], x[i], s[0]);
    s[1] = __builtin_fma(c.c1[i], x[i], s[1]);
    s[2] = __builtin_fma(c.c2[i], x[i], s[2]);
    s[3] = __builtin_fma(c.c3[i], x[i], s[3]);
  }
}

// Back substitution in the 4 x 4 diagonal block at j, given the dot products s of its columns
// with the part of x below it.
GPBANDIT_AVX2_FMA void BackSolveDiagonalBlock(const FourColumns& c, long j, const double s[4],
                                              double* x) {
  const double x3 = (x[j + 3] - s[3]) / c.c3[j + 3];
  const double x2 = (x[j + 2] - __builtin_fma(c.c2[j + 3], x3, s[2])) / c.c2[j + 2];
  const double r1 = __builtin_fma(c.c1[j + 2], x2, __builtin_fma(c.c1[j + 3], x3, s[1]));
  const double x1 = (x[j + 1] - r1) / c.c1[j + 1];
  double r0 = __builtin_fma(c.c0[j + 3], x3, s[0]);
  r0 = __builtin_fma(c.c0[j + 1], x1, __builtin_fma(c.c0[j + 2], x2, r0));
  x[j] = (x[j] - r0) / c.c0[j];
  x[j + 1] = x1;
  x[j + 2] = x2;
  x[j + 3] = x3;
}

// SubtractFourColumns on two right-hand sides x and y at once: each pass over rows i loads L's
// four columns once for both. Per element the operations are SubtractFourColumns' own.
GPBANDIT_AVX2_FMA void SubtractFourColumnsFromTwo(const FourColumns& c, long j, long begin, long n,
                                                  double* x, double* y) {
  const __m256d m0 = _mm256_set1_pd(-x[j]), m1 = _mm256_set1_pd(-x[j + 1]);
  const __m256d m2 = _mm256_set1_pd(-x[j + 2]), m3 = _mm256_set1_pd(-x[j + 3]);
  const __m256d w0 = _mm256_set1_pd(-y[j]), w1 = _mm256_set1_pd(-y[j + 1]);
  const __m256d w2 = _mm256_set1_pd(-y[j + 2]), w3 = _mm256_set1_pd(-y[j + 3]);
  long i = begin;
  for (; i + 4 <= n; i += 4) {
    const __m256d l0 = _mm256_loadu_pd(c.c0 + i), l1 = _mm256_loadu_pd(c.c1 + i);
    const __m256d l2 = _mm256_loadu_pd(c.c2 + i), l3 = _mm256_loadu_pd(c.c3 + i);
    __m256d r = _mm256_loadu_pd(x + i);
    __m256d q = _mm256_loadu_pd(y + i);
    r = _mm256_fmadd_pd(m0, l0, r);
    q = _mm256_fmadd_pd(w0, l0, q);
    r = _mm256_fmadd_pd(m1, l1, r);
    q = _mm256_fmadd_pd(w1, l1, q);
    r = _mm256_fmadd_pd(m2, l2, r);
    q = _mm256_fmadd_pd(w2, l2, q);
    r = _mm256_fmadd_pd(m3, l3, r);
    q = _mm256_fmadd_pd(w3, l3, q);
    _mm256_storeu_pd(x + i, r);
    _mm256_storeu_pd(y + i, q);
  }
  if (i < n) {
    SubtractFourColumns(c, j, i, n, x);
    SubtractFourColumns(c, j, i, n, y);
  }
}

// The last n mod 4 columns of a forward solve, one at a time, from column j on.
GPBANDIT_AVX2_FMA void ForwardSolveTail(long n, const double* L, long ld, long j, double* x) {
  for (; j < n; ++j) {
    const double* column = L + j * ld;
    x[j] /= column[j];
    for (long i = j + 1; i < n; ++i) x[i] = __builtin_fma(-x[j], column[i], x[i]);
  }
}

// ForwardSolveAvx2 on the four right-hand sides x, x + ldb, x + 2 ldb, x + 3 ldb: their four
// diagonal blocks are independent, so their divisions overlap instead of waiting on each other,
// and the four columns of L, once loaded for the first pair, are in the L1 cache for the second.
GPBANDIT_AVX2_FMA void ForwardSolveFourAvx2(long n, const double* L, long ld, double* x, long ldb) {
  double* y = x + ldb;
  double* z = y + ldb;
  double* w = z + ldb;
  long j = 0;
  for (; j + 4 <= n; j += 4) {
    const FourColumns c(L, ld, j);
    SolveDiagonalBlock(c, j, x);
    SolveDiagonalBlock(c, j, y);
    SolveDiagonalBlock(c, j, z);
    SolveDiagonalBlock(c, j, w);
    SubtractFourColumnsFromTwo(c, j, j + 4, n, x, y);
    SubtractFourColumnsFromTwo(c, j, j + 4, n, z, w);
  }
  ForwardSolveTail(n, L, ld, j, x);
  ForwardSolveTail(n, L, ld, j, y);
  ForwardSolveTail(n, L, ld, j, z);
  ForwardSolveTail(n, L, ld, j, w);
}

}  // namespace

GPBANDIT_AVX2_FMA void ForwardSolveAvx2(long n, const double* L, long ld, double* x) {
  long j = 0;
  for (; j + 4 <= n; j += 4) {
    const FourColumns c(L, ld, j);
    SolveDiagonalBlock(c, j, x);
    SubtractFourColumns(c, j, j + 4, n, x);
  }
  ForwardSolveTail(n, L, ld, j, x);
}

GPBANDIT_AVX2_FMA void ForwardSolveColumnsAvx2(long n, const double* L, long ld, long m, double* B,
                                               long ldb) {
  long r = 0;
  for (; r + 4 <= m; r += 4) ForwardSolveFourAvx2(n, L, ld, B + r * ldb, ldb);
  for (; r < m; ++r) ForwardSolveAvx2(n, L, ld, B + r * ldb);
}

GPBANDIT_AVX2_FMA void BackwardSolveAvx2(long n, const double* L, long ld, double* x) {
  // The last n mod 4 columns first, one at a time, then four at a time down to column 0.
  long j = n - 1;
  for (; j >= 0 && (j + 1) % 4 != 0; --j) {
    const double* column = L + j * ld;
    double s = 0.0;
    for (long i = j + 1; i < n; ++i) s = __builtin_fma(column[i], x[i], s);
    x[j] = (x[j] - s) / column[j];
  }
  for (; j >= 3; j -= 4) {
    const FourColumns c(L, ld, j - 3);
    double s[4];
    FourDotProducts(c, j + 1, n, x, s);
    BackSolveDiagonalBlock(c, j - 3, s, x);
  }
}

#else
// Other architectures have neither instruction set: the dispatch never calls the kernels.
void ForwardSolveAvx2(long, const double*, long, double*) {
  throw std::logic_error("ForwardSolveAvx2: no AVX2 on this architecture");
}

void BackwardSolveAvx2(long, const double*, long, double*) {
  throw std::logic_error("BackwardSolveAvx2: no AVX2 on this architecture");
}

void ForwardSolveColumnsAvx2(long, const double*, long, long, double*, long) {
  throw std::logic_error("ForwardSolveColumnsAvx2: no AVX2 on this architecture");
}
#endif

}  // namespace internal
}  // namespace gpbandit
