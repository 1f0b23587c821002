#include "cli/plot_slice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "cli/command.h"
#include "cli/io/csv.h"
#include "cli/plot.h"
#include "gpbandit/space/parameter_space.h"
#include "gpbandit/space/parameter_spec.h"

namespace gpbandit {
namespace cli {
namespace {

// The action coordinate `spec` names: a parameter's name, or an index.
int IndexOf(const Domain& domain, const std::string& spec) {
  const ParameterSpace* space = domain.action_space();
  if (space != nullptr && space->Index(spec) >= 0) return space->Index(spec);
  char* end = nullptr;
  const long i = std::strtol(spec.c_str(), &end, 10);
  if (spec.empty() || *end != '\0' || i < 0 || i >= domain.action_dim())
    throw UsageError("--dims '" + spec + "' is not " +
                     (space ? "a parameter (" + space->Describe() + ") or " : std::string()) +
                     "an action index in [0, " + std::to_string(domain.action_dim()) + ")");
  return static_cast<int>(i);
}

// A tic label: 3 significant digits.
std::string Short(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

std::string Short4(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.4g", v);
  return text;
}

}  // namespace

double SliceAxis::U(double value) const { return log ? std::log10(value) : value; }

double SliceAxis::GridU(int i) const {
  return points < 2 ? u_lower : u_lower + (u_upper - u_lower) * i / (points - 1);
}

double SliceAxis::ValueAt(double u) const {
  if (!labels.empty()) return std::round(u);
  const double v = log ? std::pow(10.0, u) : u;
  return integer ? std::round(v) : v;
}

std::string SliceAxis::GnuplotAxis(const std::string& axis) const {
  const double pad = labels.empty() ? 0.0 : 0.5;
  std::string text = "set " + axis + "range [" + io::FormatDouble(u_lower - pad) + ":" +
                     io::FormatDouble(u_upper + pad) + "]\n";
  if (!labels.empty() || log) {
    text += "set " + axis + "tics (";
    const int n = labels.empty() ? 5 : static_cast<int>(labels.size());
    for (int i = 0; i < n; ++i) {
      const double u = labels.empty() ? u_lower + (u_upper - u_lower) * i / (n - 1) : i;
      const std::string label =
          labels.empty() ? Short(integer ? std::round(std::pow(10.0, u)) : std::pow(10.0, u))
                         : labels[static_cast<std::size_t>(i)];
      text += (i ? ", " : "") + GnuplotQuote(label) + " " + io::FormatDouble(u);
    }
    text += ")\n";
  }
  return text + "set " + axis + "label " + GnuplotQuote(name + (log ? " (log scale)" : "")) + "\n";
}

SliceAxis MakeAxis(const Domain& domain, const std::string& spec, int grid, int fallback) {
  SliceAxis a;
  a.index = IndexOf(domain, spec);
  const int points = grid > 0 ? grid : fallback;
  a.points = points;
  const ParameterSpace* space = domain.action_space();
  if (space == nullptr) {
    a.name = "x[" + std::to_string(a.index) + "]";
    a.u_lower = domain.lower()(a.index);
    a.u_upper = domain.upper()(a.index);
    return a;
  }
  const Parameter& p = space->parameter(a.index);
  a.name = p.name;
  if (p.fixed())
    throw UsageError("--dims " + spec + ": the parameter " + p.Describe() + " is fixed");
  if (p.kind == ParameterKind::kCategorical) {
    a.labels = p.labels;
    a.u_lower = 0;
    a.u_upper = static_cast<double>(p.labels.size()) - 1;
    a.points = static_cast<int>(p.labels.size());
    return a;
  }
  a.log = p.scale == ParameterScale::kLog;
  a.integer = p.kind == ParameterKind::kInteger;
  a.u_lower = a.U(p.vector_lower());
  a.u_upper = a.U(p.vector_upper());
  const double integers = p.vector_upper() - p.vector_lower() + 1;
  if (a.integer && !a.log && integers <= points) a.points = static_cast<int>(integers);
  return a;
}

std::string HeldText(const Domain& domain, const std::vector<SliceAxis>& axes,
                     const Eigen::VectorXd& base) {
  const ParameterSpace* space = domain.action_space();
  std::string text;
  for (int i = 0; i < domain.action_dim(); ++i) {
    if (std::any_of(axes.begin(), axes.end(), [&](const SliceAxis& a) { return a.index == i; }))
      continue;
    // Reals to 4 significant digits: a title to read, not a point to type.
    const bool real = space == nullptr || space->parameter(i).kind == ParameterKind::kReal;
    const std::string value =
        real ? Short4(base(i)) : FormatParameterValue(space->ValueAt(i, base(i)));
    const std::string pair =
        (space ? space->parameter(i).name : "x[" + std::to_string(i) + "]") + "=" + value;
    text += (text.empty() ? "" : " ") + pair;
  }
  return text;
}

Eigen::VectorXd ContextRanges(const Optimizer& opt) {
  const Domain& d = opt.domain();
  if (d.has_context_bounds()) return d.context_upper() - d.context_lower();
  Eigen::VectorXd lo = Eigen::VectorXd::Constant(d.context_dim(), INFINITY);
  Eigen::VectorXd hi = Eigen::VectorXd::Constant(d.context_dim(), -INFINITY);
  for (const Observation& o : opt.observations()) {
    if (o.z.size() != d.context_dim()) continue;
    lo = lo.cwiseMin(o.z);
    hi = hi.cwiseMax(o.z);
  }
  Eigen::VectorXd range = hi - lo;
  for (Eigen::Index j = 0; j < range.size(); ++j)
    if (!(range(j) > 0) || !std::isfinite(range(j))) range(j) = 1.0;
  return range;
}

bool NearSlice(const Domain& domain, const std::vector<SliceAxis>& axes,
               const Eigen::VectorXd& base, const Eigen::VectorXd& z0,
               const Eigen::VectorXd& z_range, const Eigen::VectorXd& x, const Eigen::VectorXd& z) {
  const ParameterSpace* space = domain.action_space();
  for (int i = 0; i < domain.action_dim(); ++i) {
    if (std::any_of(axes.begin(), axes.end(), [&](const SliceAxis& a) { return a.index == i; }))
      continue;
    if (space && space->parameter(i).kind == ParameterKind::kCategorical) {
      if (x(i) != base(i)) return false;
      continue;
    }
    const bool log = space && space->parameter(i).scale == ParameterScale::kLog;
    const auto u = [&](double v) { return log ? std::log10(v) : v; };
    const double lower = space ? space->vector_lower()(i) : domain.lower()(i);
    const double upper = space ? space->vector_upper()(i) : domain.upper()(i);
    if (std::fabs(u(x(i)) - u(base(i))) > kNearSlice * (u(upper) - u(lower))) return false;
  }
  for (Eigen::Index j = 0; j < z0.size() && j < z.size(); ++j)
    if (std::fabs(z(j) - z0(j)) > kNearSlice * z_range(j)) return false;
  return true;
}

std::string NearSliceRule(const Domain& domain, const std::vector<SliceAxis>& axes) {
  const bool holds = domain.action_dim() > static_cast<int>(axes.size());
  const std::string percent = Short(100 * kNearSlice) + "%";
  if (!holds && domain.context_dim() == 0) return "";
  std::string rule = "observations with ";
  if (holds) rule += "the held coordinates within " + percent + " of their range";
  if (holds && domain.action_space() && domain.action_space()->has_discrete())
    rule += " (labels equal)";
  if (domain.context_dim() > 0)
    rule += std::string(holds ? " and " : "") + "the context within " + percent;
  return rule;
}

}  // namespace cli
}  // namespace gpbandit
