#include "cli/plot.h"

#include <stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <stdexcept>

#include "cli/command.h"
#include "cli/io/csv.h"

namespace gpbandit {
namespace cli {
namespace {

// Single quotes inside a gnuplot single-quoted string are doubled.
std::string Quote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += (c == '\'') ? std::string("''") : std::string(1, c);
  return out + "'";
}

// For the shell: single quotes, with embedded ones closed and reopened.
std::string ShellQuote(const std::string& text) {
  std::string out = "'";
  for (char c : text) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// gnuplot on the script; its output (warnings, errors) to the standard error, so that the
// command's standard output keeps only its results.
int Gnuplot(const std::string& script_path) {
  return std::system(("gnuplot " + ShellQuote(script_path) + " >&2").c_str());
}

}  // namespace

bool GnuplotAvailable() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

void RequireGnuplot(const std::string& flag, const std::string& path, const std::string& skip) {
  if (GnuplotAvailable()) return;
  throw InputError(flag + " " + path +
                   ": gnuplot, which draws the pictures, is not on the PATH (Debian: apt-get "
                   "install gnuplot-nox); " +
                   skip);
}

PlotFiles::PlotFiles(const std::string& png_path, bool keep) : png_(png_path) {
  if (keep) {
    data_ = png_path + ".dat";
    script_ = png_path + ".gp";
    return;
  }
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/gpbandit_plot_XXXXXX";
  if (mkdtemp(&pattern[0]) == nullptr)
    throw std::runtime_error("cannot make a temporary directory for gnuplot's files (" + pattern +
                             "): " + std::strerror(errno));
  directory_ = pattern;
  data_ = directory_ + "/plot.dat";
  script_ = directory_ + "/plot.gp";
}

PlotFiles::~PlotFiles() {
  if (directory_.empty()) return;
  std::error_code ignored;  // a leftover temporary file is no reason to fail the command
  std::filesystem::remove_all(directory_, ignored);
}

bool PlotCurves(const PlotSpec& spec, std::ostream& err) {
  const PlotFiles files(spec.png_path, spec.keep_files);
  {
    std::ofstream data(files.data());
    if (!data) {
      err << "plot: cannot write " << files.data() << "\n";
      return false;
    }
    for (const Curve& curve : spec.curves) {
      data << "# " << curve.title << "\n";
      for (size_t i = 0; i < curve.x.size(); ++i)
        data << io::FormatDouble(curve.x[i]) << " " << io::FormatDouble(curve.y[i]) << "\n";
      data << "\n\n";  // gnuplot's index separator
    }
  }
  {
    std::ofstream script(files.script());
    if (!script) {
      err << "plot: cannot write " << files.script() << "\n";
      return false;
    }
    script << "set terminal pngcairo size 900,560 noenhanced font 'sans,11'\n"
           << "set output " << Quote(spec.png_path) << "\n"
           << "set title " << Quote(spec.title) << "\n"
           << "set xlabel " << Quote(spec.x_label) << "\n"
           << "set ylabel " << Quote(spec.y_label) << "\n"
           << "set grid\nset key inside right top box opaque\n";
    if (spec.log_y) script << "set logscale y\n";
    script << "plot ";
    for (size_t i = 0; i < spec.curves.size(); ++i) {
      script << (i ? ", \\\n     " : "") << Quote(files.data()) << " index " << i
             << " using 1:2 with lines linewidth 2 title " << Quote(spec.curves[i].title);
    }
    script << "\n";
  }
  return RunGnuplot(files, err);
}

bool RunGnuplot(const PlotFiles& files, std::ostream& err) {
  const std::string kept =
      files.kept() ? "the data are in " + files.data() + " and the script in " + files.script()
                   : "--keep-plot-files keeps gnuplot's data and script beside the picture";
  if (!GnuplotAvailable()) {
    err << "plot: gnuplot was not found on the PATH (Debian: apt-get install gnuplot-nox); " << kept
        << "\n";
    return false;
  }
  const int status = Gnuplot(files.script());
  if (status == 0) return true;
  // pngcairo is missing from some gnuplot builds; plain png is always there.
  std::ifstream in(files.script());
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto pos = text.find("pngcairo");
  if (pos != std::string::npos) {
    text.replace(pos, 8, "png");
    std::ofstream(files.script()) << text;
    if (Gnuplot(files.script()) == 0) return true;
  }
  err << "plot: gnuplot failed to draw " << files.png() << " (status " << status << "); " << kept
      << "\n";
  return false;
}

std::string GnuplotQuote(const std::string& text) { return Quote(text); }

}  // namespace cli
}  // namespace gpbandit
