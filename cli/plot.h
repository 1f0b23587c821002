// PNG plots through gnuplot (Debian's gnuplot-nox), run as a child process. When gnuplot is
// missing the caller is told so and carries on: the CSV it wrote has the same data.
#ifndef GPBANDIT_CLI_PLOT_H_
#define GPBANDIT_CLI_PLOT_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace gpbandit {
namespace cli {

// True if a `gnuplot` executable is on the PATH.
bool GnuplotAvailable();

// One curve: y against x, drawn with `title`.
struct Curve {
  std::string title;
  std::vector<double> x, y;
};

struct PlotSpec {
  std::string png_path;
  std::string title, x_label, y_label;
  bool log_y = false;
  std::vector<Curve> curves;
};

// Writes the curves' data next to the PNG (png_path + ".dat", gnuplot's blank-line-separated
// blocks) and the script (png_path + ".gp"), then runs gnuplot. Returns true if the PNG was
// written; otherwise explains why on `err` (gnuplot missing, or its exit status).
bool PlotCurves(const PlotSpec& spec, std::ostream& err);

// Runs gnuplot on a script that writes a PNG (falling back from the pngcairo terminal to png).
// Returns true on success; otherwise explains why on `err`, naming the script and its data.
bool RunGnuplot(const std::string& script_path, const std::string& data_path, std::ostream& err);

// text as a gnuplot single-quoted string.
std::string GnuplotQuote(const std::string& text);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PLOT_H_
