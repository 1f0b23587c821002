#include "cli/pareto_plot.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <ostream>
#include <sstream>

#include "cli/io/csv.h"
#include "cli/outcome_declaration.h"
#include "cli/plot.h"

namespace gpbandit {
namespace cli {

std::pair<int, int> FrontAxes(const OutcomeOptions& outcomes, const std::string& flag_value) {
  const int k = outcomes.num_objectives();
  if (flag_value.empty()) return {0, 1};
  const std::vector<std::string> specs = ParseNameList("objectives", flag_value);
  if (specs.size() != 2)
    throw UsageError("--objectives " + flag_value + ": two objectives, by name or index");
  std::vector<int> axes;
  for (const std::string& spec : specs) {
    int i = -1;
    for (int j = 0; j < k; ++j)
      if (outcomes.objectives[static_cast<std::size_t>(j)].name == spec) i = j;
    char* end = nullptr;
    const long index = std::strtol(spec.c_str(), &end, 10);
    if (i < 0 && end != spec.c_str() && *end == '\0' && index >= 0 && index < k)
      i = static_cast<int>(index);
    if (i < 0) {
      std::vector<std::string> names;
      for (const ObjectiveSpec& o : outcomes.objectives) names.push_back(o.name);
      throw UsageError("--objectives " + flag_value + ": '" + spec +
                       "' is not an objective of this study; its objectives: " + JoinNames(names));
    }
    axes.push_back(i);
  }
  if (axes[0] == axes[1])
    throw UsageError("--objectives " + flag_value + ": two distinct objectives");
  return {axes[0], axes[1]};
}

bool DrawFront(const Optimizer& optimizer, std::pair<int, int> axes, const std::string& png,
               bool keep, std::ostream& err) {
  const OutcomeOptions& outcomes = optimizer.options().outcomes;
  const auto [a, b] = axes;
  const std::vector<ParetoPoint> front = optimizer.ParetoFront();
  const Eigen::VectorXd reference = optimizer.ReferencePoint();
  const PlotFiles files(png, keep);
  std::ofstream data(files.data());
  // Blocks 0 and 1: the told points feasible with the study's confidence, and the others.
  int infeasible = 0;
  std::string feasible_rows, infeasible_rows;
  for (const Observation& o : optimizer.observations()) {
    if (!o.accepted) continue;
    const Eigen::VectorXd v = ObservedOutcomes(outcomes, o);
    const std::string row = io::FormatDouble(v(a)) + " " + io::FormatDouble(v(b)) + "\n";
    if (outcomes.num_constraints() > 0 &&
        optimizer.ProbabilityOfFeasibility(o.x, o.z) < outcomes.feasibility_confidence) {
      infeasible_rows += row;
      ++infeasible;
    } else {
      feasible_rows += row;
    }
  }
  // Each block starts with a comment line, so that an empty one still counts as a block.
  data << "# feasible observations: " << outcomes.objectives[a].name << " "
       << outcomes.objectives[b].name << "\n"
       << feasible_rows << "\n\n# observations not feasible with the study's confidence\n"
       << infeasible_rows << "\n\n# the Pareto front\n";
  // Block 2: the front, in the order of the first axis; block 3: the reference point.
  std::vector<std::pair<double, double>> points;
  for (const ParetoPoint& p : front) points.emplace_back(p.outcomes(a), p.outcomes(b));
  std::sort(points.begin(), points.end());
  for (const auto& [u, v] : points)
    data << io::FormatDouble(u) << " " << io::FormatDouble(v) << "\n";
  data << "\n\n# the reference point\n";
  if (reference.size() > std::max(a, b))
    data << io::FormatDouble(reference(a)) << " " << io::FormatDouble(reference(b)) << "\n";
  data.close();

  const auto label = [&](int i) {
    const ObjectiveSpec& o = outcomes.objectives[static_cast<std::size_t>(i)];
    return o.name + (o.minimize ? " (minimized)" : " (maximized)");
  };
  std::ofstream gp(files.script());
  const std::string q = GnuplotQuote(files.data());
  std::string title = optimizer.strategy_name() + ": Pareto front of " +
                      DescribeOutcomes(outcomes, optimizer.options().sense) + ", " +
                      std::to_string(optimizer.num_accepted()) + " observations, " +
                      std::to_string(front.size()) + " on the front";
  // Six digits on the picture (pareto prints them all).
  const auto short_text = [](double v) {
    std::ostringstream text;
    text << std::setprecision(6) << v;
    return text.str();
  };
  std::string second = "hypervolume " + short_text(optimizer.Hypervolume());
  if (reference.size() > 0) {
    std::string point;
    for (Eigen::Index i = 0; i < reference.size(); ++i)
      point += (i ? "," : "") + short_text(reference(i));
    second += " from the reference point " + point +
              (outcomes.reference_point.empty() ? " (inferred)" : " (--reference-point)");
  }
  if (outcomes.num_objectives() > 2) second += "; the front of all objectives, drawn in two";
  gp << "set terminal pngcairo size 900,660 noenhanced font 'sans,11'\n"
     << "set output " << GnuplotQuote(png) << "\n"
     << "set title " << GnuplotQuote(title) << ".\"\\n\"." << GnuplotQuote(second) << "\n"
     << "set xlabel " << GnuplotQuote(label(a)) << "\nset ylabel " << GnuplotQuote(label(b))
     << "\nset grid\nset key outside bottom center horizontal\n"
     << "set offsets graph 0.05, graph 0.05, graph 0.05, graph 0.05\n"
     << "plot ";
  // Only blocks that hold points: gnuplot stops at an empty one.
  std::string separator;
  if (!feasible_rows.empty()) {
    gp << q << " index 0 using 1:2 with points pt 6 ps 1.2 lc rgb '#808080' title "
       << GnuplotQuote(outcomes.num_constraints() > 0 ? "observations (feasible)" : "observations");
    separator = ", ";
  }
  if (infeasible > 0)
    gp << separator << q << " index 1 using 1:2 with points pt 2 ps 1.0 lc rgb '#b0b0b0' title "
       << GnuplotQuote("P(feasible) < " + io::FormatDouble(outcomes.feasibility_confidence));
  if (!points.empty())
    gp << ", " << q << " index 2 using 1:2 with "
       << (outcomes.num_objectives() == 2 ? "linespoints lw 2" : "points") << " pt 7 ps 1.6 lc rgb "
       << "'#de2d26' title 'Pareto front'";
  if (reference.size() > std::max(a, b))
    gp << ", " << q << " index 3 using 1:2 with points pt 3 ps 2.4 lw 2 lc rgb 'black' title "
       << "'reference point'";
  gp << "\n";
  gp.close();
  if (!data || !gp) {
    err << "cannot write " << files.data() << " or " << files.script() << "\n";
    return false;
  }
  if (!RunGnuplot(files, err)) return false;
  err << "[plot] wrote " << png;
  if (files.kept()) err << " (data " << files.data() << ", script " << files.script() << ")";
  err << "\n";
  return true;
}

}  // namespace cli
}  // namespace gpbandit
