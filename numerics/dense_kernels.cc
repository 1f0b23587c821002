#include "numerics/dense_kernels.h"

#include <Eigen/Cholesky>
#include <atomic>
#include <mutex>

#ifdef GPBANDIT_HAVE_OPENBLAS
extern "C" {
// LAPACK (Fortran calling convention) and OpenBLAS's own controls, all in libopenblas.
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void openblas_set_num_threads(int num_threads);
char* openblas_get_corename(void);
}
#endif

namespace gpbandit {
namespace {

#ifdef GPBANDIT_HAVE_OPENBLAS
void SingleThreadedBlas() {
  static std::once_flag once;
  std::call_once(once, [] { openblas_set_num_threads(1); });
}
#endif

// How many ScopedPortableDenseKernelsForTesting live.
std::atomic<int> portable_scopes{0};

}  // namespace

bool CholeskyLowerInPlace(Eigen::Ref<Eigen::MatrixXd> A) {
  const Eigen::Index n = A.rows();
  if (n == 0) return true;
#ifdef GPBANDIT_HAVE_OPENBLAS
  if (portable_scopes.load(std::memory_order_relaxed) == 0 && n <= 2147483647 / n &&
      A.outerStride() <= 2147483647) {
    SingleThreadedBlas();
    const int size = static_cast<int>(n), stride = static_cast<int>(A.outerStride());
    int info = 0;
    const char lower = 'L';
    dpotrf_(&lower, &size, A.data(), &stride, &info);
    return info == 0;
  }
#endif
  Eigen::LLT<Eigen::Ref<Eigen::MatrixXd>> llt(A);
  return llt.info() == Eigen::Success;
}

std::string DenseKernelsDescription() {
#ifdef GPBANDIT_HAVE_OPENBLAS
  if (portable_scopes.load(std::memory_order_relaxed) > 0) return "eigen";
  return std::string("openblas ") + openblas_get_corename();
#else
  return "eigen";
#endif
}

ScopedPortableDenseKernelsForTesting::ScopedPortableDenseKernelsForTesting() {
  portable_scopes.fetch_add(1);
}

ScopedPortableDenseKernelsForTesting::~ScopedPortableDenseKernelsForTesting() {
  portable_scopes.fetch_sub(1);
}

}  // namespace gpbandit
