// gpbandit plot: a picture of a study's model on a slice of its action domain at one context,
// for every kind of domain (cli/plot_slice.h: a box, a finite set's bounding box, named
// parameters with axes by name, log scales, integers and labels): for a 1-D slice the
// posterior mean with a band of +-width standard deviations (error bars on an integer or a
// categorical axis), for a 2-D slice the mean as a colour map with contour lines; the
// observations near the slice (the rule is written on the picture) and the point the study
// would suggest next. The coordinates off the slice are held at --at, by default the
// recommendation at the context (Optimizer::Best(context)), and the title says where. Values
// are in the study's units (costs under --sense minimize). The study is not changed: the next
// suggestion is asked of a copy of its records, read under a shared lock. For a safe-opt study
// the safe set (safe_set_slice.h) is drawn with its sides told apart: in 1-D the band is
// green where the points are safe and red where not, in 2-D a green line is its edge and grey
// crosses cover the unsafe side. A study of several objectives is drawn as its Pareto front
// instead (cli/pareto_plot.h), two objectives at a time (--objectives).
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <ostream>

#include "cli/commands.h"
#include "cli/io/csv.h"
#include "cli/parameter_flags.h"
#include "cli/pareto_plot.h"
#include "cli/plot.h"
#include "cli/plot_slice.h"
#include "cli/safe_set_slice.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/study_storage.h"

namespace gpbandit {
namespace cli {
namespace {

struct PlotFlags {
  StudyFlags study;
  std::string context, dims = "0";
  std::vector<std::string> at;
  std::string out, objectives;
  int grid = 0;  // 0: 200 points on a 1-D slice, 60 x 60 on a 2-D one
  double width = 2.0;
  bool keep_plot_files = false;
};

// The slice's axes: one or two distinct action coordinates, by name or index.
std::vector<SliceAxis> SliceAxes(const Domain& domain, const PlotFlags& f) {
  const std::vector<std::string> specs = ParseNameList("dims", f.dims);
  if (specs.size() > 2) throw UsageError("--dims " + f.dims + ": one coordinate or two");
  std::vector<SliceAxis> axes;
  for (const std::string& spec : specs)
    axes.push_back(MakeAxis(domain, spec, f.grid, specs.size() == 1 ? 200 : 60));
  if (axes.size() == 2 && axes[0].index == axes[1].index)
    throw UsageError("--dims " + f.dims + ": two distinct coordinates");
  for (const SliceAxis& a : axes) RequireAtLeast("--grid", a.points, a.labels.empty() ? 2 : 1);
  return axes;
}

// The study's records as a JSON-Lines log in a temporary file (the caller removes it).
std::string CopyOfStudy(const StudyFlags& f) {
  const std::string url = f.log_path.empty() ? f.storage : f.log_path;
  const std::unique_ptr<StudyStorage> storage = OpenStudyStorage(url, f.study);
  const std::unique_ptr<StudySession> session = storage->Begin(LockMode::kShared);
  std::string text = session->header() + "\n";
  for (const StudyRecord& r : session->ReadAfter(0)) text += r.json + "\n";
  const char* dir = std::getenv("TMPDIR");
  std::string copy = std::string(dir && *dir ? dir : "/tmp") + "/gpbandit_plot_XXXXXX";
  const int fd = mkstemp(&copy[0]);
  if (fd < 0) throw std::runtime_error("cannot make a temporary file " + copy);
  close(fd);
  std::ofstream(copy, std::ios::binary | std::ios::trunc) << text;
  return copy;
}

// The optimizer's next suggestion at z, asked of a copy of the study so that the study does
// not change; false (and a note on err) when the copy cannot be made or asked.
bool NextSuggestion(const PlotFlags& f, const Eigen::VectorXd& z, Eigen::VectorXd* next,
                    std::ostream& err) {
  std::string copy;
  bool ok = true;
  try {
    copy = CopyOfStudy(f.study);
    *next = Optimizer::Resume(copy)->Ask(z);
  } catch (const std::exception& e) {
    err << "[plot] no next suggestion drawn: " << e.what() << "\n";
    ok = false;
  }
  if (!copy.empty()) {
    std::remove(copy.c_str());
    std::remove((copy + ".lock").c_str());  // the copy's lock file (file_storage.h)
  }
  return ok;
}

struct SliceData {
  std::vector<SliceAxis> axes;
  Eigen::VectorXd base, z, next;
  bool has_next = false, at_given = false;
  double width = 2.0;
  SafetyRule safety;
  int near = 0;  // observations drawn
};

// Block 0: the grid (1-D: u mean lo hi margin; 2-D: u v mean margin, a blank line after each
// u; margin: SafetyMargin, NaN without a safe strategy).
void WriteGrid(const Optimizer& opt, const SliceData& s, std::ostream& out) {
  Eigen::VectorXd x = s.base;
  const bool two = s.axes.size() == 2;
  for (int i = 0; i < s.axes[0].points; ++i) {
    const double u = s.axes[0].GridU(i);
    x(s.axes[0].index) = s.axes[0].ValueAt(u);
    for (int j = 0; j < (two ? s.axes[1].points : 1); ++j) {
      const double v = two ? s.axes[1].GridU(j) : 0.0;
      if (two) x(s.axes[1].index) = s.axes[1].ValueAt(v);
      const Prediction p = opt.Predict(x, s.z);
      const double margin = SafetyMargin(opt, s.safety, x, s.z);
      out << io::FormatDouble(u) << " ";
      if (two) {
        out << io::FormatDouble(v) << " " << io::FormatDouble(p.mean);
      } else {
        out << io::FormatDouble(p.mean) << " " << io::FormatDouble(p.mean - s.width * p.stddev)
            << " " << io::FormatDouble(p.mean + s.width * p.stddev);
      }
      out << " " << (std::isnan(margin) ? std::string("NaN") : io::FormatDouble(margin)) << "\n";
    }
    if (two) out << "\n";
  }
  out << "\n\n";
}

// Block 1: the observations near the slice (plot_slice.h); block 2: the next suggestion.
void WritePoints(const Optimizer& opt, SliceData* s, std::ostream& out) {
  const Eigen::VectorXd z_range = ContextRanges(opt);
  const SliceAxis& a = s->axes[0];
  const bool two = s->axes.size() == 2;
  for (const Observation& o : opt.observations()) {
    if (!o.accepted || !NearSlice(opt.domain(), s->axes, s->base, s->z, z_range, o.x, o.z))
      continue;
    ++s->near;
    out << io::FormatDouble(a.U(o.x(a.index))) << " "
        << io::FormatDouble(two ? s->axes[1].U(o.x(s->axes[1].index)) : o.y) << "\n";
  }
  out << "\n\n";
  if (s->has_next) {
    out << io::FormatDouble(a.U(s->next(a.index))) << " "
        << io::FormatDouble(two ? s->axes[1].U(s->next(s->axes[1].index))
                                : opt.Predict(s->next, s->z).mean)
        << "\n";
  }
}

// The title: what is drawn, then where the other coordinates are held and which observations
// are shown.
std::string Title(const Optimizer& opt, const SliceData& s, const std::string& units) {
  const std::string first = opt.strategy_name() + ": posterior mean (" + units + ")" +
                            (s.z.size() > 0 ? " at context " + FormatVector(s.z) : "") + ", " +
                            std::to_string(opt.num_accepted()) + " observations";
  std::string title = GnuplotQuote(first);
  const auto line = [&](const std::string& text) { title += ".\"\\n\"." + GnuplotQuote(text); };
  const std::string held = HeldText(opt.domain(), s.axes, s.base);
  if (!held.empty()) line("held at " + held + (s.at_given ? " (--at)" : " (the recommendation)"));
  const std::string rule = NearSliceRule(opt.domain(), s.axes);
  if (!rule.empty()) line("drawn: " + std::to_string(s.near) + " " + rule);
  return title;
}

std::string ObservationsPlot(const Optimizer& opt, const SliceData& s, const std::string& q) {
  if (s.near == 0) return "";
  const bool all = NearSliceRule(opt.domain(), s.axes).empty();
  return ", " + q + " index 1 using 1:2 with points pt 7 ps 1.2 lc rgb 'black' title " +
         GnuplotQuote(all ? "observations" : "observations near the slice");
}

// The next suggestion: a white diamond ringed in black, which stands out on every colour of
// the map (a red mark vanished on the red of its maximum) and on the 1-D band.
std::string NextPlot(const SliceData& s, const std::string& q) {
  if (!s.has_next) return "";
  return ", " + q + " index 2 using 1:2 with points pt 13 ps 2.6 lc rgb 'white' notitle, " + q +
         " index 2 using 1:2 with points pt 12 ps 2.6 lw 2 lc rgb 'black' title 'next "
         "suggestion'";
}

void WriteOneDimensional(const SliceData& s, const std::string& q, const std::string& units,
                         const std::string& rest, std::ostream& out) {
  // Room above and below, so that no error bar ends on the frame.
  out << "set ylabel " << GnuplotQuote(units)
      << "\nset grid\nset offsets 0, 0, graph 0.05, graph 0.05\nplot ";
  const std::string band = GnuplotQuote("mean +- " + io::FormatDouble(s.width) + " sd");
  if (s.axes[0].discrete()) {
    out << q << " index 0 using 1:2:3:4 with yerrorbars pt 7 ps 1.4 lc rgb '#08519c' title "
        << band;
    if (s.safety.active)
      out << ", " << q
          << " index 0 using 1:($5 >= 0 ? $2 : 1/0) with points pt 7 ps 2 lc rgb '#31a354' "
             "title 'safe (lower bounds clear the thresholds)', "
          << q
          << " index 0 using 1:($5 < 0 ? $2 : 1/0) with points pt 7 ps 2 lc rgb '#de2d26' "
             "title 'unsafe'";
    out << rest << "\n";
    return;
  }
  out << q << " index 0 using 1:3:4 with filledcurves lc rgb '#c6dbef' title " << band;
  if (s.safety.active)
    out << ", " << q
        << " index 0 using 1:($5 >= 0 ? $3 : 1/0):($5 >= 0 ? $4 : 1/0) with filledcurves "
           "lc rgb '#a1d99b' title 'safe side (lower bounds clear the thresholds)', "
        << q
        << " index 0 using 1:($5 < 0 ? $3 : 1/0):($5 < 0 ? $4 : 1/0) with filledcurves "
           "lc rgb '#fcbba1' title 'unsafe side'";
  out << ", " << q << " index 0 using 1:2 with lines lw 2 lc rgb '#08519c' title 'posterior mean'"
      << rest << "\n";
}

void WriteTwoDimensional(const SliceData& s, const std::string& data, const std::string& units,
                         const std::string& rest, std::ostream& out) {
  const std::string q = GnuplotQuote(data);
  // The contour lines are traced into a table first, then drawn over the colour map.
  const std::string contours = GnuplotQuote(data + ".contours");
  out << s.axes[1].GnuplotAxis("y")
      << "set contour base\nset cntrparam levels 12\nunset surface\nset view map\n"
      << "set table " << contours << "\nsplot " << q << " index 0 using 1:2:3 with lines\n"
      << "unset table\n";
  // The safe set's edge: the contour of the safety margin at 0.
  const std::string edge = GnuplotQuote(data + ".safe");
  if (s.safety.active)
    out << "set cntrparam levels discrete 0\nset table " << edge << "\nsplot " << q
        << " index 0 using 1:2:4 with lines\nunset table\n";
  out << "unset contour\nset surface\n"
      << "set palette rgbformulae 33,13,10\nset cblabel " << GnuplotQuote(units) << "\n"
      << "plot " << q << " index 0 using 1:2:3 with image notitle, " << contours
      << " with lines lc rgb 'white' notitle";
  if (s.safety.active)
    out << ", " << edge << " with lines lw 3 lc rgb '#00a000' title 'edge of the safe set', " << q
        << " index 0 every 3:3 using 1:($4 < 0 ? $2 : 1/0) with points pt 2 ps 0.6 lc rgb "
           "'#505050' title 'unsafe side'";
  out << rest << "\n";
}

void WriteSliceScript(const Optimizer& opt, const SliceData& s, const std::string& png,
                      const std::string& data, std::ostream& out) {
  const std::string units = opt.options().sense == ObjectiveSense::kMinimize ? "cost" : "reward";
  const std::string q = GnuplotQuote(data);
  out << "set terminal pngcairo size 900,660 noenhanced font 'sans,11'\n"
      << "set output " << GnuplotQuote(png) << "\n"
      << "set title " << Title(opt, s, units) << "\n"
      << s.axes[0].GnuplotAxis("x") << "set key outside bottom center horizontal\n";
  const std::string rest = ObservationsPlot(opt, s, q) + NextPlot(s, q);
  if (s.axes.size() == 1) {
    WriteOneDimensional(s, q, units, rest, out);
  } else {
    WriteTwoDimensional(s, data, units, rest, out);
  }
}

}  // namespace

int PlotCommand(const std::vector<std::string>& args, Streams streams) {
  PlotFlags f;
  po::options_description desc("options (defaults in parentheses)");
  AddStudyFlags(&desc, &f.study, /*with_log=*/true, /*with_worker=*/false);
  desc.add_options()("out", po::value(&f.out)->required(), "the PNG to write")(
      "dims", ValueWithDefault(&f.dims),
      "the action coordinates of the slice: i or i,j (indices), or parameter names kp,taps")(
      "context", po::value(&f.context), "the context z1,z2,... (contextual studies)")(
      "at", po::value(&f.at),
      "the action the other coordinates are held at, x1,x2,... or name=value pairs (default: "
      "the recommendation at the context)")(
      "grid", ValueWithDefault(&f.grid),
      "points per real slice coordinate (0: 200 in 1-D, 60 in 2-D; a categorical has one per "
      "label)")("width", ValueWithDefault(&f.width),
                "the band: mean +- width standard deviations (1-D)")(
      "keep-plot-files", po::bool_switch(&f.keep_plot_files),
      "keep gnuplot's data and script beside the picture (PNG.dat, PNG.gp)")(
      "objectives", po::value(&f.objectives),
      "a study of several objectives: the two drawn against each other, by name or index "
      "(default: the first two)");
  po::variables_map vm;
  if (!ParseArguments("plot",
                      "(--log runs.jsonl | --storage URL [--study NAME]) --out model.png "
                      "[--dims 0,1 | --dims kp,taps] [--context z] [--at x]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  RequireWritableFile("--out", f.out);
  RequireGnuplot("--out", f.out, "install it to draw the model");
  RequireNonNegative("--width", f.width);
  RequireAtLeast("--grid", f.grid, 0);
  CheckStudyFlags(f.study, /*with_log=*/true);
  CheckStudyAccess(f.study, /*writes=*/false);
  const std::unique_ptr<Optimizer> opt = OpenExistingStudy(f.study);
  const OutcomeOptions& outcomes = opt->options().outcomes;
  if (outcomes.num_objectives() > 1) {
    for (const char* flag : {"dims", "at", "context", "grid", "width"})
      if (vm.count(flag) && !vm[flag].defaulted())
        throw UsageError(std::string("--") + flag +
                         " draws the model of one objective; a study of several objectives is "
                         "drawn as its Pareto front (--objectives a,b)");
    RequireObservations(*opt, f.study, "to draw");
    const std::pair<int, int> axes = FrontAxes(outcomes, f.objectives);
    return DrawFront(*opt, axes, f.out, f.keep_plot_files, streams.err) ? kExitOk : kExitFailure;
  }
  if (!f.objectives.empty())
    throw UsageError("--objectives " + f.objectives +
                     " draws the front of a study of several objectives; this one has one");
  SliceData s;
  s.axes = SliceAxes(opt->domain(), f);
  s.width = f.width;
  s.safety = SafetyRuleOf(*opt);
  s.at_given = !f.at.empty();
  if (!s.at_given) RequireObservations(*opt, f.study, "to draw (or give --at)");
  try {
    s.z = f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
    opt->domain().CheckContext(s.z, "--context");
    s.base = s.at_given ? ParsePoint(opt->domain(), "at", f.at) : opt->Best(s.z).x;
    opt->domain().CheckAction(s.base, "--at");
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  } catch (const std::logic_error& e) {
    // A constrained study with no point feasible with its confidence yet: no recommendation.
    throw InputError(DescribeStudy(f.study) + ": " + e.what() + "; give --at to draw anyway");
  }
  s.has_next = NextSuggestion(f, s.z, &s.next, streams.err);
  const PlotFiles files(f.out, f.keep_plot_files);
  {
    std::ofstream out(files.data());
    WriteGrid(*opt, s, out);
    WritePoints(*opt, &s, out);
    std::ofstream gp(files.script());
    WriteSliceScript(*opt, s, f.out, files.data(), gp);
    if (!out || !gp) throw InputError("cannot write " + files.data() + " or " + files.script());
  }
  if (!RunGnuplot(files, streams.err)) return kExitFailure;
  streams.err << "[plot] wrote " << f.out;
  if (files.kept())
    streams.err << " (data " << files.data() << ", script " << files.script() << ")";
  streams.err << "\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
