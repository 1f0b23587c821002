#include "examples/io/finite_problem.h"

#include <cmath>
#include <map>
#include <vector>

#include "cli/io/csv.h"

namespace gpbandit {
namespace io {
namespace {

// Lexicographic order on columns, to find distinct actions without hashing doubles.
struct VectorLess {
  bool operator()(const std::vector<double>& a, const std::vector<double>& b) const {
    return a < b;
  }
};

std::vector<double> ToStd(const Eigen::VectorXd& v) { return {v.data(), v.data() + v.size()}; }

}  // namespace

std::vector<int> FiniteProblem::CandidatesWithContext(const Eigen::VectorXd& context) const {
  std::vector<int> indices;
  for (int i = 0; i < size(); ++i) {
    if (context_dim == 0 || candidates.col(i).tail(context_dim) == context) indices.push_back(i);
  }
  return indices;
}

namespace {

// The candidates and their distinct actions (in order of first appearance). Without contexts
// every candidate must be a distinct action. Returns the file line of the header.
int ReadCandidates(const std::string& path, FiniteProblem* problem) {
  const CsvTable table =
      ReadNumericCsv(path, true, true,
                     {kMaxCandidates, "the model holds an N x N covariance over the candidates"});
  const std::vector<int> counts =
      ParseNumberedHeader(path, table.header_line, table.header, {"x", "z"});
  problem->action_dim = counts[0];
  problem->context_dim = counts[1];
  if (problem->action_dim == 0)
    throw FileFormatError(path, table.header_line, 1,
                          "the candidates need at least one action column x1");
  problem->candidates = table.values.transpose();
  const int n = problem->size(), d = problem->action_dim;
  std::map<std::vector<double>, int, VectorLess> seen;
  std::vector<int> first_of_action;  // the first candidate of each distinct action
  for (int i = 0; i < n; ++i) {
    const auto [it, inserted] =
        seen.emplace(ToStd(problem->candidates.col(i).head(d)), static_cast<int>(seen.size()));
    problem->action_index.push_back(it->second);
    if (inserted) first_of_action.push_back(i);
    if (!inserted && problem->context_dim == 0)
      throw FileFormatError(path, table.lines[i], 1,
                            "duplicate candidate (same as an earlier row)");
  }
  problem->actions.resize(d, static_cast<Eigen::Index>(first_of_action.size()));
  for (std::size_t a = 0; a < first_of_action.size(); ++a)
    problem->actions.col(static_cast<Eigen::Index>(a)) =
        problem->candidates.col(first_of_action[a]).head(d);
  return table.header_line;
}

// The Na x Na kernel matrix over the distinct actions: square of that size and symmetric.
Eigen::MatrixXd ReadKernelMatrix(const std::string& path, const std::string& candidates_path,
                                 int na) {
  const CsvTable kernel = ReadNumericCsv(path, false);
  if (kernel.rows() != na || kernel.cols() != na)
    throw FileFormatError(path, kernel.lines.back(), 0,
                          "kernel matrix is " + std::to_string(kernel.rows()) + " x " +
                              std::to_string(kernel.cols()) + ", expected " + std::to_string(na) +
                              " x " + std::to_string(na) +
                              " (one row and column per distinct action of " + candidates_path +
                              ")");
  for (int r = 0; r < na; ++r) {
    for (int c = 0; c < r; ++c) {
      const double a = kernel.values(r, c), b = kernel.values(c, r);
      if (std::abs(a - b) > 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}))
        throw FileFormatError(path, kernel.lines[r], c + 1,
                              "kernel matrix is not symmetric: (" + std::to_string(r + 1) + "," +
                                  std::to_string(c + 1) + ") = " + FormatDouble(a) + " but (" +
                                  std::to_string(c + 1) + "," + std::to_string(r + 1) +
                                  ") = " + FormatDouble(b));
    }
  }
  return kernel.values;
}

// The revealed contexts: header z1..zm matching the candidates', each the context of at least
// one candidate.
void ReadContexts(const FiniteProblemFiles& files, int candidates_header_line,
                  FiniteProblem* problem) {
  if (files.contexts.empty())
    throw FileFormatError(files.candidates, candidates_header_line, problem->action_dim + 1,
                          "the candidates have context columns z1..; --contexts is required");
  const CsvTable contexts = ReadNumericCsv(files.contexts, true);
  const std::vector<int> zc =
      ParseNumberedHeader(files.contexts, contexts.header_line, contexts.header, {"z"});
  if (zc[0] != problem->context_dim)
    throw FileFormatError(files.contexts, contexts.header_line, 0,
                          "has " + std::to_string(zc[0]) + " context columns, the candidates " +
                              std::to_string(problem->context_dim));
  problem->contexts = contexts.values.transpose();
  for (int r = 0; r < contexts.rows(); ++r) {
    if (problem->CandidatesWithContext(problem->contexts.col(r)).empty())
      throw FileFormatError(files.contexts, contexts.lines[r], 1,
                            "no candidate in " + files.candidates + " has this context");
  }
}

}  // namespace

FiniteProblem LoadFiniteProblem(const FiniteProblemFiles& files) {
  if (files.candidates.empty()) throw FileFormatError("--candidates", 0, 0, "no file given");
  if (files.functions.empty()) throw FileFormatError("--functions", 0, 0, "no file given");
  FiniteProblem problem;
  const int candidates_header_line = ReadCandidates(files.candidates, &problem);
  if (!files.kernel_matrix.empty())
    problem.kernel_matrix =
        ReadKernelMatrix(files.kernel_matrix, files.candidates, problem.num_actions());
  const CsvTable functions = ReadNumericCsv(files.functions, false);
  if (functions.cols() != problem.size())
    throw FileFormatError(
        files.functions, functions.lines.front(), 0,
        "each row needs one payoff per candidate: " + std::to_string(problem.size()) +
            " fields expected, found " + std::to_string(functions.cols()));
  problem.functions = functions.values.transpose();
  if (problem.context_dim > 0) {
    ReadContexts(files, candidates_header_line, &problem);
  } else if (!files.contexts.empty()) {
    throw FileFormatError(files.contexts, 0, 0,
                          "contexts given, but the candidates have no z columns");
  }
  return problem;
}

void WriteFiniteProblem(const FiniteProblem& problem, const FiniteProblemFiles& files) {
  std::vector<std::string> header = NumberedNames("x", problem.action_dim);
  for (const std::string& z : NumberedNames("z", problem.context_dim)) header.push_back(z);
  WriteNumericCsv(files.candidates, header, problem.candidates.transpose());
  if (problem.kernel_matrix.size() > 0 && !files.kernel_matrix.empty())
    WriteNumericCsv(files.kernel_matrix, {}, problem.kernel_matrix);
  WriteNumericCsv(files.functions, {}, problem.functions.transpose());
  if (problem.context_dim > 0 && !files.contexts.empty())
    WriteNumericCsv(files.contexts, NumberedNames("z", problem.context_dim),
                    problem.contexts.transpose());
}

}  // namespace io
}  // namespace gpbandit
