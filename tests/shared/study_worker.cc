// A worker process for the shared-study tests and benchmark: joins a study, then asks, evaluates
// a cheap objective and tells, printing each acknowledged tell as it returns.
//
//   study_worker STORAGE STUDY ROUNDS UNTIL_TOLD LEASE_SECONDS [EVAL_MICROSECONDS]
//
// STUDY "-" for a file storage. Stops after ROUNDS tells of its own (0: no limit) or once the
// study holds UNTIL_TOLD tells (0: no limit). Prints, each line flushed:
//   TOLD <x1,...,xd> <y>        after Tell returned (the tell is durable)
//   FINGERPRINT <digest>        after its last tell: Optimizer::Fingerprint at that moment
// Exit status 0, or 1 with a message on stderr.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <thread>

#include "gpbandit/plugin/optimizer.h"

namespace {

// Smooth, cheap, one maximum inside the unit box.
double Objective(const Eigen::VectorXd& x) {
  double s = 0;
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    const double d = x(i) - 0.3 - 0.05 * static_cast<double>(i);
    s += d * d;
  }
  return -s + 0.1 * std::sin(7.0 * x.sum());
}

std::string Csv(const Eigen::VectorXd& v) {
  std::string out;
  char buffer[40];
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    std::snprintf(buffer, sizeof buffer, "%.17g", v(i));
    out += (i ? "," : "") + std::string(buffer);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 6) {
    std::cerr << "usage: study_worker STORAGE STUDY ROUNDS UNTIL_TOLD LEASE_SECONDS "
                 "[EVAL_MICROSECONDS]\n";
    return 2;
  }
  const std::string storage = argv[1], study = std::string(argv[2]) == "-" ? "" : argv[2];
  const long rounds = std::atol(argv[3]), until_told = std::atol(argv[4]);
  gpbandit::WorkerOptions worker;
  worker.pending_lease_seconds = std::atof(argv[5]);
  worker.reconnect_timeout_seconds = 60;
  const long eval_us = argc > 6 ? std::atol(argv[6]) : 0;
  try {
    auto opt = gpbandit::Optimizer::Open(storage, study, nullptr, worker);
    long told = 0;
    std::mt19937_64 rng(static_cast<std::uint64_t>(::getpid()) * 1000003u + told);
    std::uniform_real_distribution<double> tag(0.0, 1.0);
    while ((rounds == 0 || told < rounds) &&
           (until_told == 0 || static_cast<long>(opt->observations().size()) < until_told)) {
      const Eigen::VectorXd x = opt->Ask();
      if (eval_us > 0) std::this_thread::sleep_for(std::chrono::microseconds(eval_us));
      // A tag below 1e-6 in the reward makes each tell identifiable (the optimizer may suggest
      // an observed point again, so x alone is not).
      const double y = Objective(x) + 1e-6 * tag(rng);
      opt->Tell(x, y);
      ++told;
      std::printf("TOLD %s %.17g\n", Csv(x).c_str(), y);
      std::fflush(stdout);
    }
    std::printf("FINGERPRINT %s\n", opt->Fingerprint().c_str());
    std::fflush(stdout);
  } catch (const std::exception& e) {
    std::cerr << "study_worker: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
