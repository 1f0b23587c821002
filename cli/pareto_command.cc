// gpbandit pareto: the Pareto front of a study of several outcomes (Optimizer::ParetoFront), read
// from its log or database without changing it. One tab-separated line per point after a header
// line: its parameters (x1..xd for a box, the parameter names otherwise), its context (z1..zm),
// every outcome told for it (tell order), the objectives' posterior means there (mean_NAME, the
// values the front is non-dominated in) and its posterior probability of feasibility. A last line,
// starting with '#' so that gnuplot and pandas.read_csv(comment='#') skip it, gives the hypervolume
// of the front's told objective values and the reference point it is measured from (given by
// --reference-point or inferred, Optimizer::ReferencePoint). A study of one objective prints its
// best feasible point.
#include <cmath>
#include <memory>
#include <ostream>

#include "cli/commands.h"
#include "cli/io/csv.h"
#include "cli/outcome_declaration.h"
#include "cli/parameter_flags.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

std::vector<std::string> HeaderColumns(const Optimizer& optimizer) {
  const Domain& domain = optimizer.domain();
  const OutcomeOptions& outcomes = optimizer.options().outcomes;
  std::vector<std::string> columns;
  if (domain.action_space() != nullptr) {
    for (const Parameter& p : domain.action_space()->parameters()) columns.push_back(p.name);
  } else {
    for (int i = 0; i < domain.action_dim(); ++i) columns.push_back("x" + std::to_string(i + 1));
  }
  for (int i = 0; i < domain.context_dim(); ++i) columns.push_back("z" + std::to_string(i + 1));
  const std::vector<std::string> names = outcomes.names();
  for (const std::string& name : names) columns.push_back(name);
  for (int i = 0; i < outcomes.num_objectives(); ++i) columns.push_back("mean_" + names[i]);
  columns.push_back("p_feasible");
  return columns;
}

std::string Join(const std::vector<std::string>& words, const char* separator) {
  std::string text;
  for (std::size_t i = 0; i < words.size(); ++i) text += (i ? separator : "") + words[i];
  return text;
}

}  // namespace

int ParetoCommand(const std::vector<std::string>& args, Streams streams) {
  StudyFlags f;
  po::options_description desc("options");
  AddStudyFlags(&desc, &f, /*with_log=*/true, /*with_worker=*/false);
  po::variables_map vm;
  if (!ParseArguments("pareto", "(--log runs.jsonl | --storage URL [--study NAME])", args, desc,
                      &vm, streams.out))
    return kExitOk;
  CheckStudyFlags(f, /*with_log=*/true);
  CheckStudyAccess(f, /*writes=*/false);
  const std::unique_ptr<Optimizer> optimizer = OpenExistingStudy(f);
  RequireObservations(*optimizer, f, "to rank");
  const OutcomeOptions& outcomes = optimizer->options().outcomes;
  const std::vector<ParetoPoint> front = optimizer->ParetoFront();
  streams.out << Join(HeaderColumns(*optimizer), "\t") << "\n";
  for (const ParetoPoint& p : front) {
    std::vector<std::string> cells =
        PointValues(optimizer->domain(), SnapToBounds(optimizer->domain(), p.x));
    for (Eigen::Index i = 0; i < p.z.size(); ++i) cells.push_back(io::FormatDouble(p.z(i)));
    for (Eigen::Index i = 0; i < p.outcomes.size(); ++i)
      cells.push_back(io::FormatDouble(p.outcomes(i)));
    for (Eigen::Index i = 0; i < p.means.size(); ++i) cells.push_back(io::FormatDouble(p.means(i)));
    cells.push_back(io::FormatDouble(p.probability_feasible));
    streams.out << Join(cells, "\t") << "\n";
  }
  if (front.empty()) {
    streams.out << "# no observed point is feasible with probability >= "
                << FormatDouble(outcomes.feasibility_confidence) << " yet ("
                << optimizer->num_accepted() << " observations; "
                << DescribeOutcomes(outcomes, optimizer->options().sense) << ")\n";
    return kExitOk;
  }
  streams.err << "[pareto] " << front.size() << " of " << optimizer->num_accepted()
              << " observations on the front; "
              << DescribeOutcomes(outcomes, optimizer->options().sense) << "\n";
  if (outcomes.num_objectives() == 1) {
    // One objective orders the points: no trade-off to measure.
    streams.out << "# one objective: the best point feasible with probability >= "
                << FormatDouble(outcomes.feasibility_confidence) << "\n";
    return kExitOk;
  }
  const Eigen::VectorXd reference = optimizer->ReferencePoint();
  std::vector<std::string> named;
  const std::vector<std::string> names = outcomes.names();
  for (Eigen::Index i = 0; i < reference.size(); ++i)
    named.push_back(names[static_cast<std::size_t>(i)] + "=" + io::FormatDouble(reference(i)));
  streams.out << "# hypervolume " << io::FormatDouble(optimizer->Hypervolume()) << " of "
              << front.size() << (front.size() == 1 ? " point" : " points")
              << " with respect to the reference point " << Join(named, " ")
              << (outcomes.reference_point.empty()
                      ? " (inferred: the worst told values of the feasible points moved out by "
                        "10% of their range; --reference-point sets one)"
                      : " (--reference-point)")
              << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
