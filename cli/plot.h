// PNG plots through gnuplot (Debian's gnuplot-nox), run as a child process. A command that draws
// checks that gnuplot is there with its other checks, before any work (RequireGnuplot); the
// data and the script gnuplot reads are written to a temporary directory and removed after
// drawing, unless the user keeps them (--keep-plot-files) beside the picture.
#ifndef GPBANDIT_CLI_PLOT_H_
#define GPBANDIT_CLI_PLOT_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace gpbandit {
namespace cli {

// True if a `gnuplot` executable is on the PATH.
bool GnuplotAvailable();

// Throws InputError "FLAG PATH: gnuplot, which draws the pictures, is not on the PATH (Debian:
// apt-get install gnuplot-nox); SKIP" unless gnuplot is on the PATH. `skip` tells how to do
// without the picture ("install it, or leave out --plot").
void RequireGnuplot(const std::string& flag, const std::string& path, const std::string& skip);

// The files gnuplot draws a picture from: its data (blocks separated by two blank lines) and
// its script. By default in a fresh temporary directory ($TMPDIR or /tmp), removed with
// everything in it (the tables gnuplot writes beside the data, e.g. contour lines) when this
// object is destroyed; with `keep`, beside the picture as PNG.dat and PNG.gp, left there.
class PlotFiles {
 public:
  // Throws std::runtime_error when the temporary directory cannot be made.
  PlotFiles(const std::string& png_path, bool keep);
  ~PlotFiles();
  PlotFiles(const PlotFiles&) = delete;
  PlotFiles& operator=(const PlotFiles&) = delete;

  const std::string& png() const { return png_; }
  const std::string& data() const { return data_; }
  const std::string& script() const { return script_; }
  bool kept() const { return directory_.empty(); }

 private:
  std::string png_, directory_, data_, script_;
};

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
  // Keep the data and script beside the picture (PlotFiles). Default false.
  bool keep_files = false;
};

// Writes the curves' data and script (PlotFiles) and runs gnuplot. Returns true if the PNG was
// written; otherwise explains why on `err` (gnuplot missing, or its exit status).
bool PlotCurves(const PlotSpec& spec, std::ostream& err);

// Runs gnuplot on files.script(), which writes files.png() (falling back from the pngcairo
// terminal to png). Gnuplot's own messages go to the standard error. Returns true on success;
// otherwise explains why on `err`.
bool RunGnuplot(const PlotFiles& files, std::ostream& err);

// text as a gnuplot single-quoted string.
std::string GnuplotQuote(const std::string& text);

}  // namespace cli
}  // namespace gpbandit

#endif  // GPBANDIT_CLI_PLOT_H_
