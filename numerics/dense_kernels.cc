#include "numerics/dense_kernels.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <atomic>
#include <initializer_list>
#include <stdexcept>
#include <string>

#include "numerics/cpu_features.h"
#include "numerics/vector_solve_avx2.h"

#ifdef GPBANDIT_HAVE_OPENBLAS
#include <dlfcn.h>

#include <cstring>

extern "C" {
// OpenBLAS's own controls (only OpenBLAS defines them).
void openblas_set_num_threads(int num_threads);
char* openblas_get_corename(void);
}
#endif

namespace gpbandit {
namespace {

#ifdef GPBANDIT_HAVE_OPENBLAS
// LAPACK and BLAS (Fortran calling convention), as OpenBLAS defines them.
using Potrf = void (*)(const char* uplo, const int* n, double* a, const int* lda, int* info);
using Trsm = void (*)(const char* side, const char* uplo, const char* transa, const char* diag,
                      const int* m, const int* n, const double* alpha, const double* a,
                      const int* lda, double* b, const int* ldb);

struct OpenBlas {
  Potrf potrf = nullptr, potri = nullptr, lauum = nullptr;  // dlauum_: potrf's signature
  Trsm trsm = nullptr;
};

template <typename Function>
Function Lookup(void* library, const char* name) {
  void* address = library != nullptr ? dlsym(library, name) : nullptr;
  if (address == nullptr)
    throw std::runtime_error(std::string("OpenBLAS: no symbol ") + name + " in the library");
  Function function = nullptr;
  std::memcpy(&function, &address, sizeof function);
  return function;
}

// Joins OpenBLAS's worker threads, when its build has them: a threaded OpenBLAS starts one per
// core when it is loaded, and each spins for about 0.1 s of CPU before it sleeps (measured: a
// 200-round study's first run in a process took 2x its wall time in CPU). Once the thread count
// is 1 nothing restarts them.
void StopWorkerThreads(void* library) {
  void* address = library != nullptr ? dlsym(library, "blas_thread_shutdown_") : nullptr;
  if (address == nullptr) return;
  int (*shutdown)() = nullptr;
  std::memcpy(&shutdown, &address, sizeof shutdown);
  shutdown();
}

// OpenBLAS's own dpotrf, dpotri, dlauum and dtrsm, taken from the library that defines
// openblas_get_corename, with OpenBLAS set to one thread and its workers stopped. Looked up there
// rather than linked by name: a process also holds other BLAS libraries (Debian's Ceres links
// ATLAS's libf77blas), and the dynamic linker binds a BLAS name such as dtrsm_ to whichever was
// loaded first.
const OpenBlas& TheOpenBlas() {
  static const OpenBlas blas = [] {
    openblas_set_num_threads(1);
    Dl_info info{};
    void* library = nullptr;
    if (dladdr(reinterpret_cast<void*>(&openblas_get_corename), &info) != 0)
      library = dlopen(info.dli_fname, RTLD_LAZY | RTLD_NOLOAD);
    StopWorkerThreads(library);
    OpenBlas found;
    found.potrf = Lookup<Potrf>(library, "dpotrf_");
    found.potri = Lookup<Potrf>(library, "dpotri_");
    found.lauum = Lookup<Potrf>(library, "dlauum_");
    found.trsm = Lookup<Trsm>(library, "dtrsm_");
    return found;
  }();
  return blas;
}
#endif

// The largest factor the block solve gives to numerics/vector_solve_avx2.h's kernel: at 32
// right-hand sides it took 0.53-0.65x OpenBLAS's dtrsm's time at n = 50-200, 0.74x at 400 and
// 0.87-0.98x at 800-1600 (bench/triangular_solve_bench, docs/benchmarks.md); beyond, OpenBLAS's
// cache blocking is expected to win.
constexpr Eigen::Index kMaxAvx2BlockSolveSize = 1600;

// How many ScopedPortableDenseKernelsForTesting live.
std::atomic<int> portable_scopes{0};

// Whether OpenBLAS takes a call on these sizes: a build with it, no portable scope, and every
// size, stride and element count within LAPACK's int.
bool UseBlas(std::initializer_list<Eigen::Index> sizes) {
#ifdef GPBANDIT_HAVE_OPENBLAS
  if (portable_scopes.load(std::memory_order_relaxed) > 0) return false;
  for (const Eigen::Index size : sizes)
    if (size > 2147483647) return false;
  return true;
#else
  (void)sizes;
  return false;
#endif
}

// Runs one of numerics/vector_solve_avx2.h's kernels on L and b and returns true when there is
// no portable scope and the CPU has AVX2 and FMA; otherwise returns false (the caller runs
// Eigen's solve).
bool SolvedWithAvx2(void (*kernel)(long, const double*, long, double*),
                    const Eigen::Ref<const Eigen::MatrixXd>& L, Eigen::Ref<Eigen::VectorXd> b) {
  if (portable_scopes.load(std::memory_order_relaxed) > 0 || !internal::Avx2FmaAvailable())
    return false;
  kernel(L.rows(), L.data(), L.outerStride(), b.data());
  return true;
}

#ifdef GPBANDIT_HAVE_OPENBLAS
// L's lower triangle <- L^-1 (L lower-triangular, its strict upper triangle left as it was),
// with numerics/vector_solve_avx2.h's block solve: the columns j .. j + 3 of L^-1 are zero above
// row j, so each group of four solves L[j:, j:] against the identity's rows j on, n^3 / 6
// multiply-adds in all.
void InvertLowerWithAvx2(Eigen::Ref<Eigen::MatrixXd> L) {
  const long n = L.rows();
  thread_local Eigen::MatrixXd inverse;
  inverse.resize(n, n);
  for (long j = 0; j < n; j += 4) {
    const long columns = std::min(4L, n - j);
    auto block = inverse.block(j, j, n - j, columns);
    block.setZero();
    block.topRows(columns).diagonal().setOnes();
    internal::ForwardSolveColumnsAvx2(n - j, &L(j, j), L.outerStride(), columns, block.data(),
                                      inverse.outerStride());
  }
  L.triangularView<Eigen::Lower>() = inverse.triangularView<Eigen::Lower>();
}

// Whether OpenBLAS takes the square matrix A.
bool UseBlasOn(const Eigen::Ref<Eigen::MatrixXd>& A) {
  return A.rows() > 0 && UseBlas({A.rows(), A.outerStride(), A.rows() * A.outerStride()});
}

// Runs a LAPACK routine of dpotrf's signature on A's lower triangle; true when its info is 0.
bool RunOnLower(Potrf routine, Eigen::Ref<Eigen::MatrixXd> A) {
  const int size = static_cast<int>(A.rows()), stride = static_cast<int>(A.outerStride());
  int info = 0;
  const char lower = 'L';
  routine(&lower, &size, A.data(), &stride, &info);
  return info == 0;
}
#endif

}  // namespace

bool CholeskyLowerInPlace(Eigen::Ref<Eigen::MatrixXd> A) {
  const Eigen::Index n = A.rows();
  if (n == 0) return true;
#ifdef GPBANDIT_HAVE_OPENBLAS
  if (UseBlasOn(A)) return RunOnLower(TheOpenBlas().potrf, A);
#endif
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A);
  return llt.info() == Eigen::Success;
}

void LowerTriangularSolveInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                                 Eigen::Ref<Eigen::MatrixXd> B) {
  const Eigen::Index n = L.rows(), m = B.cols();
  if (n == 0 || m == 0) return;
  if (n <= kMaxAvx2BlockSolveSize && portable_scopes.load(std::memory_order_relaxed) == 0 &&
      internal::Avx2FmaAvailable()) {
    internal::ForwardSolveColumnsAvx2(n, L.data(), L.outerStride(), m, B.data(), B.outerStride());
    return;
  }
#ifdef GPBANDIT_HAVE_OPENBLAS
  if (m >= 2 && UseBlas({n * L.outerStride(), m * B.outerStride()})) {
    const int rows = static_cast<int>(n), cols = static_cast<int>(m);
    const int lda = static_cast<int>(L.outerStride()), ldb = static_cast<int>(B.outerStride());
    const double one = 1.0;
    TheOpenBlas().trsm("L", "L", "N", "N", &rows, &cols, &one, L.data(), &lda, B.data(), &ldb);
    return;
  }
#endif
  L.triangularView<Eigen::Lower>().solveInPlace(B);
}

void LowerSolveVectorInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                             Eigen::Ref<Eigen::VectorXd> b) {
  if (!SolvedWithAvx2(internal::ForwardSolveAvx2, L, b))
    L.triangularView<Eigen::Lower>().solveInPlace(b);
}

void LowerTransposeSolveInPlace(const Eigen::Ref<const Eigen::MatrixXd>& L,
                                Eigen::Ref<Eigen::VectorXd> b) {
  if (!SolvedWithAvx2(internal::BackwardSolveAvx2, L, b))
    L.transpose().triangularView<Eigen::Upper>().solveInPlace(b);
}

bool CholeskyInverseLowerInPlace(Eigen::Ref<Eigen::MatrixXd> L) {
#ifdef GPBANDIT_HAVE_OPENBLAS
  // dpotri is dtrtri (L <- L^-1) then dlauum (L^-T L^-1 from it). OpenBLAS's dtrtri runs
  // matrix-vector products at these sizes; the AVX2 block solve of the identity took 0.37-0.47x
  // its time at n = 50-400. info > 0 only for a zero pivot, which a factor that
  // CholeskyLowerInPlace accepted has not.
  if (UseBlasOn(L) && L.rows() <= kMaxAvx2BlockSolveSize && internal::Avx2FmaAvailable()) {
    InvertLowerWithAvx2(L);
    return RunOnLower(TheOpenBlas().lauum, L);
  }
  if (UseBlasOn(L)) return RunOnLower(TheOpenBlas().potri, L);
#else
  (void)L;
#endif
  return false;
}

std::string DenseKernelsDescription() {
  if (portable_scopes.load(std::memory_order_relaxed) > 0) return "eigen";
#ifdef GPBANDIT_HAVE_OPENBLAS
  const std::string blas = std::string("openblas ") + openblas_get_corename();
#else
  const std::string blas = "eigen";
#endif
  return internal::Avx2FmaAvailable() ? blas + " + avx2-fma vector solves" : blas;
}

ScopedPortableDenseKernelsForTesting::ScopedPortableDenseKernelsForTesting() {
  portable_scopes.fetch_add(1);
}

ScopedPortableDenseKernelsForTesting::~ScopedPortableDenseKernelsForTesting() {
  portable_scopes.fetch_sub(1);
}

}  // namespace gpbandit
