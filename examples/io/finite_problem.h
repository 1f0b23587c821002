// The finite-problem file format of `gpbandit run --problem file`, shared by the sensor-network
// examples, so that anyone can rerun a study and swap in real data:
//   candidates   CSV with header x1..xd[,z1..zm]: one candidate (action, and context if any) per
//                row, N rows.
//   kernel-matrix (optional) CSV without header, a symmetric PSD matrix over the distinct
//                actions in order of first appearance (Na x Na; Na = N without contexts), e.g.
//                an empirical covariance. The index kernel over actions is then used.
//   functions    CSV without header, each row the true payoff at every candidate (N columns);
//                trial i uses row i mod rows.
//   contexts     (contextual problems) CSV with header z1..zm, the context revealed at each
//                round (round t uses row (t - 1) mod rows); every row must be the context of at
//                least one candidate.
// At most kMaxCandidates candidates: the model of a finite problem holds an N x N covariance
// (8 N^2 bytes, 3.2 GB at the limit).
// Errors are io::FileFormatError with file, line and column.
#ifndef GPBANDIT_EXAMPLES_IO_FINITE_PROBLEM_H_
#define GPBANDIT_EXAMPLES_IO_FINITE_PROBLEM_H_

#include <Eigen/Core>
#include <string>
#include <vector>

#include "cli/io/csv.h"

namespace gpbandit {
namespace io {

constexpr int kMaxCandidates = 20000;

struct FiniteProblemFiles {
  std::string candidates;     // required
  std::string kernel_matrix;  // optional ("" = none)
  std::string functions;      // required
  std::string contexts;       // required iff the candidates have z columns
};

struct FiniteProblem {
  int action_dim = 0;
  int context_dim = 0;
  Eigen::MatrixXd candidates;     // (action_dim + context_dim) x N, one candidate per column
  std::vector<int> action_index;  // N: the distinct action of each candidate
  Eigen::MatrixXd actions;        // action_dim x Na: the distinct actions
  Eigen::MatrixXd kernel_matrix;  // Na x Na, or empty
  Eigen::MatrixXd functions;      // N x F: one true payoff function per column
  Eigen::MatrixXd contexts;       // context_dim x C: the revealed sequence (empty if m = 0)

  int size() const { return static_cast<int>(candidates.cols()); }
  int num_actions() const { return static_cast<int>(actions.cols()); }
  // The candidates whose context equals `context` exactly (all of them when m = 0).
  std::vector<int> CandidatesWithContext(const Eigen::VectorXd& context) const;
};

// Reads and cross-checks the files (sizes, headers, symmetry of the kernel matrix, that each
// context has candidates). Throws FileFormatError.
FiniteProblem LoadFiniteProblem(const FiniteProblemFiles& files);

// Writes a problem in this format (kernel_matrix and contexts only when non-empty).
void WriteFiniteProblem(const FiniteProblem& problem, const FiniteProblemFiles& files);

}  // namespace io
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_IO_FINITE_PROBLEM_H_
