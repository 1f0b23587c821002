// gpbandit sim-to-robot: flags -> SimToRobotOptions; progress on stderr, the regret against cost
// on stdout, gnuplot's data with --out and the picture with --plot.
#include <fstream>
#include <ostream>

#include "cli/plot.h"
#include "examples/commands.h"
#include "examples/demos/sim_to_robot.h"
#include "examples/report_text.h"

namespace gpbandit {
namespace examples {
namespace {

// The picture: the robot's regret at Best() against the cost, both studies, log scale.
void WriteSimToRobotPlotScript(const SimToRobotOptions& o, const cli::PlotFiles& files,
                               std::ostream& gp) {
  const std::string q = cli::GnuplotQuote(files.data());
  gp << "set terminal pngcairo size 900,600 noenhanced font 'sans,11'\n"
     << "set output " << cli::GnuplotQuote(files.png()) << "\n"
     << "set title "
     << cli::GnuplotQuote("pendulum gains: robot regret against cost over " +
                          std::to_string(o.runs) + " runs; a simulated episode costs " +
                          FormatDouble(o.sim_cost) + " robot episodes")
     << "\nset xlabel 'cost (robot episodes)'\nset ylabel 'regret on the robot at Best()'\n"
     << "set grid\nset logscale y\nset key top right\n"
     << "plot " << q
     << " index 0 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb '#de2d26' "
        "notitle, "
     << q
     << " index 0 using 1:2 with linespoints lw 2 pt 7 lc rgb '#de2d26' "
        "title 'simulator + robot, median and quartiles', "
     << q
     << " index 1 using 1:3:4 with filledcurves fs transparent solid 0.2 lc rgb '#3182bd' "
        "notitle, "
     << q
     << " index 1 using 1:2 with linespoints lw 2 pt 5 lc rgb '#3182bd' "
        "title 'robot only (gp-ucb), median and quartiles'\n";
}

}  // namespace

int SimToRobotCommand(const std::vector<std::string>& args, cli::Streams streams) {
  SimToRobotOptions o;
  std::string out_path, plot_path;
  bool keep = false;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("budget", cli::ValueWithDefault(&o.budget),
                     "robot episodes' worth of cost per study")(
      "sim-cost", cli::ValueWithDefault(&o.sim_cost),
      "the cost of one simulated episode in robot episodes")(
      "sim-mass-factor", cli::ValueWithDefault(&o.sim_mass_factor),
      "the simulator's payload mass over the robot's")(
      "sim-friction-factor", cli::ValueWithDefault(&o.sim_friction_factor),
      "the simulator's joint friction over the robot's")(
      "payload-mass", cli::ValueWithDefault(&o.payload_mass), "the robot's payload in kg")(
      "runs", cli::ValueWithDefault(&o.runs), "pairs of studies (seeds seed, seed + 1, ...)")(
      "seed", cli::ValueWithDefault(&o.seed), "the first run's seed")(
      "out", cli::po::value(&out_path), "write both studies' regret against cost for gnuplot")(
      "plot", cli::po::value(&plot_path), "draw the regret against cost into this PNG (gnuplot)")(
      "keep-plot-files", cli::po::bool_switch(&keep), "keep gnuplot's data and script");
  cli::po::variables_map vm;
  if (!cli::ParseArguments("sim-to-robot", "[--budget 20] [--sim-cost 0.05] [--plot regret.png]",
                           args, desc, &vm, streams.out))
    return cli::kExitOk;
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  if (!out_path.empty()) cli::RequireWritableFile("--out", out_path);
  if (!plot_path.empty()) {
    cli::RequireWritableFile("--plot", plot_path);
    cli::RequireGnuplot("--plot", plot_path, "install it, or leave out --plot");
  }
  const SimToRobotResult result = RunSimToRobot(o, streams.err);
  PrintSimToRobot(result, o, streams.out);
  if (!out_path.empty()) {
    std::ofstream out(out_path);
    WriteSimToRobotData(result, o, out);
    if (!out) throw std::runtime_error("cannot write " + out_path);
  }
  if (!plot_path.empty()) {
    const cli::PlotFiles files(plot_path, keep);
    {
      std::ofstream data(files.data());
      WriteSimToRobotData(result, o, data);
      std::ofstream gp(files.script());
      WriteSimToRobotPlotScript(o, files, gp);
    }
    if (!cli::RunGnuplot(files, streams.err)) return cli::kExitFailure;
    streams.err << "[sim-to-robot] wrote " << plot_path << "\n";
  }
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
