// gpbandit plot: a picture of a study's model on a slice of its action box at one context: for
// a 1-D slice the posterior mean with a band of +-width standard deviations, for a 2-D slice the
// mean as a colour map with contour lines; the observations (projected onto the slice, every
// context) and the point the study would suggest next. The coordinates off the slice are held
// at --at, by default the recommendation at the context (Optimizer::Best(context)). Values are
// in the study's units (costs under --sense minimize). The study is not changed: the next
// suggestion is asked of a copy of the log (a database study shows none). For a safe-opt study
// the safe set (safe_set_slice.h) is drawn too: in 1-D the band is shaded green where the
// points are safe, in 2-D a contour line encloses them.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <ostream>
#include <set>

#include "cli/commands.h"
#include "cli/io/csv.h"
#include "cli/plot.h"
#include "cli/safe_set_slice.h"
#include "cli/study_flags.h"
#include "gpbandit/optimizer/optimizer.h"

namespace gpbandit {
namespace cli {
namespace {

struct PlotFlags {
  StudyFlags study;
  std::string context, dims = "0", at, out;
  int grid = 0;  // 0: 200 points on a 1-D slice, 60 x 60 on a 2-D one
  double width = 2.0;
  bool keep_plot_files = false;
};

// The slice's action coordinates: one or two distinct indices below action_dim.
std::vector<int> SliceDims(const std::string& text, int action_dim) {
  const Eigen::VectorXd v = ParseDoubleList("dims", text);
  std::vector<int> dims;
  for (Eigen::Index i = 0; i < v.size(); ++i) {
    const int d = static_cast<int>(v(i));
    if (d != v(i) || d < 0 || d >= action_dim)
      throw UsageError("--dims " + text + ": each entry must be an action index in [0, " +
                       std::to_string(action_dim) + ")");
    dims.push_back(d);
  }
  if (dims.size() > 2 || (dims.size() == 2 && dims[0] == dims[1]))
    throw UsageError("--dims " + text + ": one index or two distinct ones");
  return dims;
}

// The optimizer's next suggestion at z, asked of a copy of the log so that the study does not
// change; false (and a note on err) for a database study or when the copy cannot be made.
bool NextSuggestion(const PlotFlags& f, const Eigen::VectorXd& z, Eigen::VectorXd* next,
                    std::ostream& err) {
  if (f.study.log_path.empty()) {
    err << "[plot] a database study: no next suggestion drawn (asking would record it)\n";
    return false;
  }
  const char* dir = std::getenv("TMPDIR");
  std::string copy = std::string(dir ? dir : "/tmp") + "/gpbandit_plot_XXXXXX";
  const int fd = mkstemp(&copy[0]);
  if (fd < 0) return false;
  close(fd);
  {
    std::ifstream in(f.study.log_path, std::ios::binary);
    std::ofstream out(copy, std::ios::binary | std::ios::trunc);
    out << in.rdbuf();
  }
  bool ok = true;
  try {
    *next = Optimizer::Resume(copy)->Ask(z);
  } catch (const std::exception& e) {
    err << "[plot] no next suggestion: " << e.what() << "\n";
    ok = false;
  }
  std::remove(copy.c_str());
  std::remove((copy + ".lock").c_str());  // the copy's lock file (file_storage.h)
  return ok;
}

struct SliceData {
  std::vector<int> dims;
  Eigen::VectorXd base, z, next;
  bool has_next = false;
  int grid = 0;
  double width = 2.0;
  SafetyRule safety;
};

// Block 0: the grid (1-D: x mean lo hi margin; 2-D: x y mean margin, a blank line after each x;
// margin: SafetyMargin, NaN without a safe strategy), block 1: the observations, block 2: the
// next suggestion.
void WriteSliceData(const Optimizer& opt, const SliceData& s, std::ostream& out) {
  const Domain& domain = opt.domain();
  const auto coordinate = [&](int d, int i) {
    return domain.lower()(d) + (domain.upper()(d) - domain.lower()(d)) * i / (s.grid - 1);
  };
  Eigen::VectorXd x = s.base;
  const int n2 = s.dims.size() == 2 ? s.grid : 1;
  for (int i = 0; i < s.grid; ++i) {
    x(s.dims[0]) = coordinate(s.dims[0], i);
    for (int j = 0; j < n2; ++j) {
      if (s.dims.size() == 2) x(s.dims[1]) = coordinate(s.dims[1], j);
      const Prediction p = opt.Predict(x, s.z);
      const double margin = SafetyMargin(opt, s.safety, x, s.z);
      out << io::FormatDouble(x(s.dims[0])) << " ";
      if (s.dims.size() == 2) {
        out << io::FormatDouble(x(s.dims[1])) << " " << io::FormatDouble(p.mean);
      } else {
        out << io::FormatDouble(p.mean) << " " << io::FormatDouble(p.mean - s.width * p.stddev)
            << " " << io::FormatDouble(p.mean + s.width * p.stddev);
      }
      out << " " << (std::isnan(margin) ? std::string("NaN") : io::FormatDouble(margin)) << "\n";
    }
    if (s.dims.size() == 2) out << "\n";
  }
  out << "\n\n";
  for (const Observation& o : opt.observations()) {
    if (!o.accepted) continue;
    out << io::FormatDouble(o.x(s.dims[0])) << " "
        << io::FormatDouble(s.dims.size() == 2 ? o.x(s.dims[1]) : o.y) << "\n";
  }
  out << "\n\n";
  if (s.has_next) {
    out << io::FormatDouble(s.next(s.dims[0])) << " "
        << io::FormatDouble(s.dims.size() == 2 ? s.next(s.dims[1]) : opt.Predict(s.next, s.z).mean)
        << "\n";
  }
}

void WriteSliceScript(const Optimizer& opt, const SliceData& s, const std::string& png,
                      const std::string& data, std::ostream& out) {
  const std::string units = opt.options().sense == ObjectiveSense::kMinimize ? "cost" : "reward";
  const std::string q = GnuplotQuote(data);
  out << "set terminal pngcairo size 900,640 noenhanced font 'sans,11'\n"
      << "set output " << GnuplotQuote(png) << "\n"
      << "set title "
      << GnuplotQuote(opt.strategy_name() + ": posterior mean (" + units + ")" +
                      (s.z.size() > 0 ? " at context " + FormatVector(s.z) : "") + ", " +
                      std::to_string(opt.num_accepted()) + " observations")
      << "\nset xlabel " << GnuplotQuote("x[" + std::to_string(s.dims[0]) + "]") << "\n"
      << "set xrange [" << io::FormatDouble(opt.domain().lower()(s.dims[0])) << ":"
      << io::FormatDouble(opt.domain().upper()(s.dims[0])) << "]\n"
      << "set key outside bottom center horizontal\n";
  const bool has_obs = opt.num_accepted() > 0;
  const std::string obs = has_obs ? ", " + q +
                                        " index 1 using 1:2 with points pt 7 ps 1.2 lc rgb "
                                        "'black' title 'observations (all contexts)'"
                                  : "";
  // The next suggestion: a white diamond ringed in black, which stands out on every colour of
  // the map (a red mark vanished on the red of its maximum) and on the 1-D band.
  const std::string next =
      s.has_next
          ? ", " + q + " index 2 using 1:2 with points pt 13 ps 2.6 lc rgb 'white' notitle, " + q +
                " index 2 using 1:2 with points pt 12 ps 2.6 lw 2 lc rgb 'black' title "
                "'next suggestion'"
          : "";
  if (s.dims.size() == 1) {
    out << "set ylabel " << GnuplotQuote(units) << "\nset grid\n"
        << "plot " << q << " index 0 using 1:3:4 with filledcurves lc rgb '#c6dbef' title "
        << GnuplotQuote("mean +- " + io::FormatDouble(s.width) + " sd");
    if (s.safety.active)
      out << ", " << q
          << " index 0 using 1:($5 >= 0 ? $3 : 1/0):($5 >= 0 ? $4 : 1/0) with filledcurves "
             "lc rgb '#a1d99b' title 'safe set (lower bounds clear the thresholds)'";
    out << ", " << q << " index 0 using 1:2 with lines lw 2 lc rgb '#08519c' title 'posterior mean'"
        << obs << next << "\n";
    return;
  }
  // The contour lines are traced into a table first, then drawn over the colour map.
  const std::string contours = GnuplotQuote(data + ".contours");
  out << "set ylabel " << GnuplotQuote("x[" + std::to_string(s.dims[1]) + "]") << "\n"
      << "set yrange [" << io::FormatDouble(opt.domain().lower()(s.dims[1])) << ":"
      << io::FormatDouble(opt.domain().upper()(s.dims[1])) << "]\n"
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
      << " with lines lc rgb 'white' notitle"
      << (s.safety.active
              ? ", " + edge + " with lines lw 3 lc rgb '#00a000' title 'edge of the safe set'"
              : std::string())
      << obs << next << "\n";
}

}  // namespace

int PlotCommand(const std::vector<std::string>& args, Streams streams) {
  PlotFlags f;
  po::options_description desc("options (defaults in parentheses)");
  AddStudyFlags(&desc, &f.study, /*with_log=*/true, /*with_worker=*/false);
  desc.add_options()("out", po::value(&f.out)->required(), "the PNG to write")(
      "dims", ValueWithDefault(&f.dims), "the action coordinates of the slice: i or i,j")(
      "context", po::value(&f.context), "the context z1,z2,... (contextual studies)")(
      "at", po::value(&f.at),
      "the action x1,x2,... the other coordinates are held at (default: the recommendation "
      "at the context)")("grid", ValueWithDefault(&f.grid),
                         "points per slice coordinate (0: 200 in 1-D, 60 in 2-D)")(
      "width", ValueWithDefault(&f.width), "the band: mean +- width standard deviations (1-D)")(
      "keep-plot-files", po::bool_switch(&f.keep_plot_files),
      "keep gnuplot's data and script beside the picture (PNG.dat, PNG.gp)");
  po::variables_map vm;
  if (!ParseArguments("plot",
                      "(--log runs.jsonl | --storage URL [--study NAME]) --out model.png "
                      "[--dims 0,1] [--context z] [--at x]",
                      args, desc, &vm, streams.out))
    return kExitOk;
  RequireWritableFile("--out", f.out);
  RequireGnuplot("--out", f.out, "install it to draw the model");
  RequireNonNegative("--width", f.width);
  CheckStudyFlags(f.study, /*with_log=*/true);
  CheckStudyAccess(f.study, /*writes=*/false);
  const std::unique_ptr<Optimizer> opt = OpenExistingStudy(f.study);
  if (opt->domain().kind() != DomainKind::kBox)
    throw UsageError("plot draws slices of an action box; this study's domain is a finite set");
  SliceData s;
  s.dims = SliceDims(f.dims, opt->domain().action_dim());
  s.grid = f.grid > 0 ? f.grid : (s.dims.size() == 1 ? 200 : 60);
  RequireAtLeast("--grid", s.grid, 2);
  s.width = f.width;
  s.safety = SafetyRuleOf(*opt);
  try {
    s.z = f.context.empty() ? Eigen::VectorXd() : ParseDoubleList("context", f.context);
    s.base = f.at.empty() ? opt->Best(s.z).x : ParseDoubleList("at", f.at);
    opt->domain().CheckAction(s.base, "--at");
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
  s.has_next = NextSuggestion(f, s.z, &s.next, streams.err);
  const PlotFiles files(f.out, f.keep_plot_files);
  {
    std::ofstream out(files.data());
    WriteSliceData(*opt, s, out);
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
