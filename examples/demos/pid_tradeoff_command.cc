// gpbandit pid-tradeoff: flags -> PidTradeoffOptions; progress on stderr, the front on stdout,
// gnuplot's data with --out and the picture with --plot.
#include <fstream>
#include <ostream>

#include "cli/plot.h"
#include "examples/commands.h"
#include "examples/demos/pid_tradeoff.h"
#include "examples/report_text.h"

namespace gpbandit {
namespace examples {
namespace {

// The picture: every step response tried (grey), the front (red), the reference point.
void WritePlotScript(const PidTradeoffOptions& o, const PidTradeoffResult& r,
                     const cli::PlotFiles& files, std::ostream& gp) {
  const std::string q = cli::GnuplotQuote(files.data());
  gp << "set terminal pngcairo size 900,660 noenhanced font 'sans,11'\n"
     << "set output " << cli::GnuplotQuote(files.png()) << "\n"
     << "set title "
     << cli::GnuplotQuote("PID gains: tracking error against control effort, overshoot <= " +
                          FormatDouble(o.overshoot_limit) + "; hypervolume " +
                          Fixed(r.hypervolume, 3))
     << "\nset xlabel 'ITAE (s^2)'\nset ylabel 'effort: total variation of u'\nset grid\n"
     << "set key outside bottom center horizontal\nset logscale xy\n"
     << "plot " << q << " index 0 using 4:($6 <= " << FormatDouble(o.overshoot_limit)
     << " ? $5 : 1/0) with points pt 6 lc rgb '#808080' title 'tried, within the limit', " << q
     << " index 0 using 4:($6 > " << FormatDouble(o.overshoot_limit)
     << " ? $5 : 1/0) with points pt 2 lc rgb '#b0b0b0' title 'tried, overshooting'";
  if (!r.front.empty())
    gp << ", " << q << " index 1 using 4:5 with linespoints lw 2 pt 7 ps 1.5 lc rgb '#de2d26' "
       << "title 'Pareto front'";
  gp << ", '-' using 1:2 with points pt 3 ps 2.4 lw 2 lc rgb 'black' title 'reference point'\n"
     << FormatDouble(o.reference_itae) << " " << FormatDouble(o.reference_effort) << "\ne\n";
}

}  // namespace

int PidTradeoffCommand(const std::vector<std::string>& args, cli::Streams streams) {
  PidTradeoffOptions o;
  std::string out_path, plot_path;
  bool keep = false;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("evaluations", cli::ValueWithDefault(&o.evaluations), "step responses tried")(
      "strategy", cli::ValueWithDefault(&o.strategy), "registry name (ehvi, gp-ucb, gp-ts, ...)")(
      "seed", cli::ValueWithDefault(&o.seed), "seed")(
      "overshoot-limit", cli::ValueWithDefault(&o.overshoot_limit),
      "the constraint overshoot <= limit (relative to the setpoint step)")(
      "reference-itae", cli::ValueWithDefault(&o.reference_itae),
      "the hypervolume's reference point: ITAE")("reference-effort",
                                                 cli::ValueWithDefault(&o.reference_effort),
                                                 "the hypervolume's reference point: effort")(
      "dead-time", cli::ValueWithDefault(&o.plant.dead_time),
      "the plant's dead time in s (a multiple of 0.02)")(
      "log", cli::po::value(&o.log_path),
      "keep the study in this JSON-Lines log (gpbandit pareto / plot read it)")(
      "out", cli::po::value(&out_path), "write every step response and the front for gnuplot")(
      "plot", cli::po::value(&plot_path), "draw the front into this PNG (gnuplot)")(
      "keep-plot-files", cli::po::bool_switch(&keep), "keep gnuplot's data and script");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("pid-tradeoff",
                           "[--evaluations 40] [--out front.dat] [--plot front.png]", args, desc,
                           &vm, streams.out))
    return cli::kExitOk;
  cli::RequireRegisteredStrategy("--strategy", o.strategy);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  if (!out_path.empty()) cli::RequireWritableFile("--out", out_path);
  if (!plot_path.empty()) {
    cli::RequireWritableFile("--plot", plot_path);
    cli::RequireGnuplot("--plot", plot_path, "install it, or leave out --plot");
  }
  if (!o.log_path.empty()) cli::RequireWritableFile("--log", o.log_path);
  const PidTradeoffResult result = RunPidTradeoff(o, streams.err);
  PrintPidFront(result, o, streams.out);
  if (!out_path.empty()) {
    std::ofstream out(out_path);
    WritePidData(result, out);
    if (!out) throw std::runtime_error("cannot write " + out_path);
  }
  if (!plot_path.empty()) {
    const cli::PlotFiles files(plot_path, keep);
    {
      std::ofstream data(files.data());
      WritePidData(result, data);
      std::ofstream gp(files.script());
      WritePlotScript(o, result, files, gp);
    }
    if (!cli::RunGnuplot(files, streams.err)) return cli::kExitFailure;
    streams.err << "[pid-tradeoff] wrote " << plot_path << "\n";
  }
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
