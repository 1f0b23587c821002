#include "cli/plot.h"

#include <cstdlib>
#include <fstream>
#include <ostream>

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

}  // namespace

bool GnuplotAvailable() { return std::system("command -v gnuplot > /dev/null 2>&1") == 0; }

bool PlotCurves(const PlotSpec& spec, std::ostream& err) {
  const std::string data_path = spec.png_path + ".dat";
  const std::string script_path = spec.png_path + ".gp";
  {
    std::ofstream data(data_path);
    if (!data) {
      err << "plot: cannot write " << data_path << "\n";
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
    std::ofstream script(script_path);
    if (!script) {
      err << "plot: cannot write " << script_path << "\n";
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
      script << (i ? ", \\\n     " : "") << Quote(data_path) << " index " << i
             << " using 1:2 with lines linewidth 2 title " << Quote(spec.curves[i].title);
    }
    script << "\n";
  }
  return RunGnuplot(script_path, data_path, err);
}

bool RunGnuplot(const std::string& script_path, const std::string& data_path, std::ostream& err) {
  if (!GnuplotAvailable()) {
    err << "plot: gnuplot was not found on the PATH (Debian: apt-get install gnuplot-nox); the "
           "data are in "
        << data_path << " and the script in " << script_path << "\n";
    return false;
  }
  const int status = std::system(("gnuplot " + ShellQuote(script_path) + " 2>&1").c_str());
  if (status != 0) {
    // pngcairo is missing from some gnuplot builds; plain png is always there.
    std::ifstream in(script_path);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto pos = text.find("pngcairo");
    if (pos != std::string::npos) {
      text.replace(pos, 8, "png");
      std::ofstream(script_path) << text;
      if (std::system(("gnuplot " + ShellQuote(script_path) + " 2>&1").c_str()) == 0) return true;
    }
    err << "plot: gnuplot failed on " << script_path << " (status " << status << ")\n";
    return false;
  }
  return true;
}

std::string GnuplotQuote(const std::string& text) { return Quote(text); }

}  // namespace cli
}  // namespace gpbandit
