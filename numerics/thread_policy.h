// How many OpenMP threads a parallel region of gpbandit runs on. The contract: on a busy machine
// more threads are never slower than one, and small work runs serially.
//
// Why a policy: libgomp's threads wait for the next region by spinning, and a region ends at a
// barrier. When another process keeps a core busy (a user's simulator beside the optimizer, a
// compiler), a worker that shares that core is preempted for a scheduler time slice (several
// milliseconds) at every region, and the whole team waits for it, so a Bayesian-optimization
// run made of thousands of sub-millisecond regions spends most of its time waiting
// (docs/threads.md; measured in docs/benchmarks.md, "Threads beside a busy core").
// OMP_WAIT_POLICY=passive helps, but libgomp reads it only when it is loaded, so a library cannot
// set it. So every parallel region of the library asks ThreadsForWork, which:
//   1. honours the caller's setting: requested = N > 0 means at most N threads; 0 means the
//      OpenMP default (omp_get_max_threads(), which OMP_NUM_THREADS and omp_set_num_threads
//      set; 1 in a pagmo fork island's child);
//   2. runs work estimated below kMinParallelSeconds serially (a region costs tens of
//      microseconds to start even on an idle machine, a time slice when a core is contended);
//   3. otherwise uses at most the CPUs that no other process is using right now: the CPUs
//      this process may run on (its affinity mask, and a cgroup v2 CPU quota if one is set)
//      minus the runnable tasks of other processes (Linux: /proc/loadavg's count of runnable
//      tasks, less this process's own running threads, read at most every
//      kLoadRefreshSeconds). Threads of this process are not counted as load: OpenMP's own
//      workers spin for a while after each region and would read as a busy machine. Without
//      /proc the machine is taken to be idle.
// Callers keep their results independent of the count (fixed splits of the work, partial
// results combined in a fixed order, dynamic scheduling of independent chunks so a slowed
// worker does not hold up the rest), so the policy changes how fast, never what.
//
// Thread safety: all functions may be called concurrently (the load reading is cached in
// atomics). Determinism: the count depends on timing and on the machine, by design; results
// of the library do not.
#ifndef GPBANDIT_NUMERICS_THREAD_POLICY_H_
#define GPBANDIT_NUMERICS_THREAD_POLICY_H_

#include <functional>

namespace gpbandit {

// Serial work below this runs on one thread: 3 ms. A likelihood gradient of about 300
// observations, or an acquisition maximization whose starts take that long together.
constexpr double kMinParallelSeconds = 3e-3;
// The rate ThreadsForFlops assumes to turn an operation count into time: 6e9 per second, what a
// likelihood gradient (about n^3 operations for n observations: factorization, inverse,
// products) runs at on one core of the reference machine without -march=native.
constexpr double kNominalFlopsPerSecond = 6e9;
// How long a reading of the machine's load is reused: 50 ms.
constexpr double kLoadRefreshSeconds = 0.05;

// The thread count for a region whose serial run would take about serial_seconds (>= 0).
// requested >= 0 as above; a negative value is treated as 0. Returns >= 1.
int ThreadsForWork(int requested, double serial_seconds);
// The same for work counted in floating-point operations (dense linear algebra counts).
int ThreadsForFlops(int requested, double flops);

// Whether ThreadsForWork(requested, s) can return more than 1 for some s: false when the caller
// asked for one thread or the OpenMP default is one. Callers that time a sample of their work
// only to size a parallel region skip the timing then (a CPU-clock reading is a system call).
bool MayRunParallel(int requested);

// The policy itself, without reading the machine: default_threads is the OpenMP default,
// idle_cpus what IdleCpus() returns. Returns >= 1.
int ChooseThreads(int requested, int default_threads, double serial_seconds, int idle_cpus);

// The calling thread's CPU time in seconds (CLOCK_THREAD_CPUTIME_ID; the wall clock where that
// clock is missing). Callers that time a sample of their work to size a parallel region use it:
// on a busy machine a wall-clock sample also counts the time slices other processes held the
// core, and a sub-millisecond sample preempted once reads as several milliseconds of work.
double ThreadCpuSeconds();

// The CPU time of a sample of work that sizes a parallel region: this thread's CPU seconds from
// construction to Seconds(), read only when MayRunParallel(requested) (else Seconds() is 0,
// which ThreadsForWork turns into one thread, as it would any time for that request).
class WorkSampleTimer {
 public:
  explicit WorkSampleTimer(int requested)
      : timed_(MayRunParallel(requested)), start_(timed_ ? ThreadCpuSeconds() : 0.0) {}
  double Seconds() const { return timed_ ? ThreadCpuSeconds() - start_ : 0.0; }

 private:
  bool timed_;
  double start_;
};

// CPUs available to this process that no other process's runnable task occupies right now
// (cached for kLoadRefreshSeconds). >= 1.
int IdleCpus();

// Ceres logs through glog, whose lazy set-up races when the first two solves of a process run at
// once. Every caller that may run Ceres solves concurrently (the hyperparameter fit, the
// acquisition maximizer's starts, optimizers in several threads) passes its first solve through
// here: RunAsFirstSolve calls `solve` on the calling thread and returns true while no solve of
// the process has passed through (concurrent callers wait until it has returned); afterwards it
// returns false without calling it. If `solve` throws, the exception propagates and the next
// call runs its solve as the first. (gp/ does not use Ceres; it only orders the callers.)
bool RunAsFirstSolve(const std::function<void()>& solve);

// For tests of thread-count independence: while an instance lives (in any thread),
// ThreadsForWork returns the requested count (or the OpenMP default) whatever the work and the
// load, so that the parallel code paths run on small inputs. Not for production code.
class ScopedParallelismForTesting {
 public:
  ScopedParallelismForTesting();
  ~ScopedParallelismForTesting();
  ScopedParallelismForTesting(const ScopedParallelismForTesting&) = delete;
  ScopedParallelismForTesting& operator=(const ScopedParallelismForTesting&) = delete;
};

}  // namespace gpbandit

#endif  // GPBANDIT_NUMERICS_THREAD_POLICY_H_
