// A loop over independent indices that enters an OpenMP region only when it runs on more than
// one thread.
//
// Why: a `#pragma omp parallel` region costs libgomp about half a microsecond to start and end
// even for a team of one (with `num_threads(1)` or a false `if` clause it still builds the team
// and wakes its pool through a futex system call). A one-thread Bayesian-optimization round
// opens two such regions in the acquisition maximizer and one or two per likelihood evaluation
// of a fit, so that a 200-round run made about 600 of those system calls (docs/benchmarks.md).
//
// Only for sources compiled with OpenMP (the libraries link OpenMP::OpenMP_CXX privately).
#ifndef GPBANDIT_NUMERICS_PARALLEL_FOR_H_
#define GPBANDIT_NUMERICS_PARALLEL_FOR_H_

namespace gpbandit {

// Calls body(i) once for every i in [begin, end). threads <= 1: in increasing order on the calling
// thread, outside any OpenMP region. threads > 1: on a team of that many OpenMP threads, chunks
// of `chunk` (>= 1) consecutive indices handed out as threads free up (schedule(dynamic)), so a
// worker that loses its core to another process does not hold up the rest.
// Thread safety: with threads > 1 body runs concurrently for distinct indices; what it writes
// must be disjoint, and results that must not depend on the thread count must not depend on the
// order either. Exceptions must not leave body (OpenMP cannot carry them out of a region).
template <typename Index, typename Body>
void ForEachIndex(int threads, Index begin, Index end, const Body& body, int chunk = 1) {
  if (threads <= 1) {
    for (Index i = begin; i < end; ++i) body(i);
    return;
  }
#pragma omp parallel for num_threads(threads) schedule(dynamic, chunk)
  for (Index i = begin; i < end; ++i) body(i);
}

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_PARALLEL_FOR_H_
