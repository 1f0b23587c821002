// gpbandit run: flags -> RegretStudyOptions, rows -> CSV, summary -> stdout, curves -> PNG.
#include <fstream>
#include <memory>
#include <ostream>

#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/improvement_strategy.h"
#include "gpbandit/examples/cli/commands.h"
#include "gpbandit/examples/cli/plot.h"
#include "gpbandit/examples/cli/regret_study.h"
#include "gpbandit/examples/io/csv.h"

namespace gpbandit {
namespace cli {

int RunCommand(const std::vector<std::string>& args, Streams streams) {
  RegretStudyOptions o;  // every default below comes from here
  std::string strategies = "gp-ucb", modes = "joint", out_path, plot_path;
  // The strategy flags show the strategies' own defaults and are passed on only when given.
  const GpUcbOptions ucb;
  std::string beta_schedule = BetaScheduleKindName(ucb.beta.kind);
  double beta_scale = ucb.beta.scale, delta = ucb.beta.delta, xi = ImprovementOptions().xi;
  double constant_beta = 0.0;
  std::string incumbent_rule = IncumbentRuleName(ImprovementOptions().incumbent_rule);
  std::vector<std::string> options;
  po::options_description desc("options (defaults in brackets)");
  desc.add_options()
      ("problem", po::value(&o.problem)->default_value(o.problem),
       "gp-sample | rkhs | branin | hartmann3 | hartmann6 | rosenbrock | file")
      ("strategy", po::value(&strategies)->default_value(strategies),
       "registry names, comma-separated (gpbandit strategies lists them)")
      ("kernel", po::value(&o.kernel)->default_value(o.kernel),
       "se | matern12 | matern32 | matern52 | linear")
      ("lengthscale", po::value(&o.lengthscale)->default_value(o.lengthscale),
       "kernel lengthscale (candidate units; unit cube on box problems)")
      ("context-lengthscale", po::value(&o.context_lengthscale)->default_value(o.context_lengthscale),
       "lengthscale of the kernel over contexts (joint mode)")
      ("signal-variance", po::value(&o.signal_variance)->default_value(o.signal_variance),
       "file problems: the model kernel's signal variance, in the functions' units squared")
      ("noise", po::value(&o.noise)->default_value(o.noise),
       "noise variance; < 0 = the problem's default (gp-sample 0.025, rkhs 1% of f's range, "
       "file 0.5, box problems 0)")
      ("fit", po::bool_switch(&o.fit), "fit hyperparameters by marginal likelihood")
      ("T", po::value(&o.T)->default_value(o.T), "rounds per trial")
      ("trials", po::value(&o.trials)->default_value(o.trials), "trials per strategy")
      ("seed", po::value(&o.seed)->default_value(o.seed), "seed of everything")
      ("threads", po::value(&o.threads)->default_value(o.threads), "OpenMP threads, 0 = default")
      ("out", po::value(&out_path), "CSV file: one row per round")
      ("plot", po::value(&plot_path), "PNG of the mean average regret R_t/t (gnuplot)")
      ("grid", po::value(&o.grid)->default_value(o.grid),
       "points of gp-sample/rkhs; 0 = 1000 for gp-sample, 100 for rkhs")
      ("prior-mean", po::value(&o.prior_mean)->default_value(o.prior_mean),
       "constant prior mean of the finite-set model")
      ("beta-schedule", po::value(&beta_schedule)->default_value(beta_schedule),
       "auto | finite | compact | rkhs | constant | dim-log (gp-ucb, cgp-ucb; auto: finite on "
       "finite problems, dim-log = 0.2 d log(2t) on boxes)")
      ("constant-beta", po::value(&constant_beta),
       "beta of --beta-schedule constant (required with it): mu + sqrt(beta) sigma")
      ("beta-scale", po::value(&beta_scale)->default_value(beta_scale),
       "multiplies beta_t (gp-ucb, cgp-ucb; Srinivas et al. use 0.2)")
      ("delta", po::value(&delta)->default_value(delta),
       "confidence parameter delta (UCB family, gp-ts)")
      ("xi", po::value(&xi)->default_value(xi), "improvement margin xi (ei, log-ei, pi)")
      ("incumbent", po::value(&incumbent_rule)->default_value(incumbent_rule),
       "posterior-mean | best-observed: the bar of ei, log-ei, pi (the papers' baselines use "
       "the best observed reward)")
      ("option", po::value(&options),
       "key=value: a strategy option, repeatable; applies to the strategies that have the key "
       "(gpbandit strategies lists them)")
      ("rkhs-bound", po::value(&o.rkhs_bound)->default_value(o.rkhs_bound),
       "B; < 0 = ||f||_k for rkhs, else the strategy default")
      ("noise-bound", po::value(&o.noise_bound)->default_value(o.noise_bound),
       "R; < 0 = the noise standard deviation on known-kernel finite problems, from the model "
       "with a floor on box problems and with --fit")
      ("context-mode", po::value(&modes)->default_value(modes),
       "joint | ignore | merge, comma-separated (contextual problems)")
      ("candidates", po::value(&o.files.candidates), "file problem: candidates CSV (x1..,z1..)")
      ("kernel-matrix", po::value(&o.files.kernel_matrix),
       "file problem: N x N kernel matrix CSV (index kernel)")
      ("functions", po::value(&o.files.functions),
       "file problem: payoff functions CSV, one row per function")
      ("contexts", po::value(&o.files.contexts), "file problem: context sequence CSV (z1..)");
  po::variables_map vm;
  if (!ParseArguments("run", "[options]", args, desc, &vm, streams.out)) return kExitOk;
  o.strategies = ParseNameList("strategy", strategies);
  o.context_modes = ParseNameList("context-mode", modes);
  if (!vm["beta-schedule"].defaulted()) o.beta_schedule = beta_schedule;
  if (!vm["beta-scale"].defaulted()) o.beta_scale = beta_scale;
  if (!vm["delta"].defaulted()) o.delta = delta;
  if (!vm["xi"].defaulted()) o.xi = xi;
  if (vm.count("constant-beta") > 0) o.constant_beta = constant_beta;
  if (!vm["incumbent"].defaulted()) o.incumbent_rule = incumbent_rule;
  o.strategy_options = ParseOptionFlags(options);
  std::string error;
  if (!o.IsValid(&error)) throw UsageError(error);

  std::unique_ptr<std::ofstream> csv;
  auto on_row = [&](const RegretRow& row) {
    if (out_path.empty()) return;
    if (!csv) {
      csv = std::make_unique<std::ofstream>(out_path);
      if (!*csv) throw std::runtime_error(out_path + ": cannot open for writing");
      *csv << "trial,strategy,t";
      for (const std::string& n : io::NumberedNames("x", static_cast<int>(row.x.size()))) *csv << "," << n;
      for (const std::string& n : io::NumberedNames("z", static_cast<int>(row.z.size()))) *csv << "," << n;
      *csv << ",y,f,regret,cumulative_regret,simple_regret\n";
    }
    *csv << row.trial << "," << row.strategy << "," << row.t;
    for (Eigen::Index i = 0; i < row.x.size(); ++i) *csv << "," << io::FormatDouble(row.x(i));
    for (Eigen::Index i = 0; i < row.z.size(); ++i) *csv << "," << io::FormatDouble(row.z(i));
    *csv << "," << io::FormatDouble(row.y) << "," << io::FormatDouble(row.f) << ","
         << io::FormatDouble(row.regret) << "," << io::FormatDouble(row.cumulative) << ","
         << io::FormatDouble(row.simple) << "\n";
  };
  const RegretStudyResult result = RunRegretStudy(o, on_row, streams.err);
  if (csv) {
    csv->flush();
    if (!*csv) throw std::runtime_error(out_path + ": write failed");
    streams.err << "[run] wrote " << out_path << "\n";
  }
  streams.out << "problem " << o.problem << ", T = " << o.T << ", " << o.trials
              << " trials, seed " << o.seed << "\n";
  PrintSummary(result, o.T, streams.out);
  if (!plot_path.empty()) {
    PlotSpec spec;
    spec.png_path = plot_path;
    spec.title = "gpbandit run --problem " + o.problem + " (" + std::to_string(o.trials) + " trials)";
    spec.x_label = "round t";
    spec.y_label = "mean average regret R_t / t";
    spec.log_y = true;
    for (const StrategySummary& s : result.summaries) {
      Curve c;
      c.title = s.strategy;
      for (size_t t = 0; t < s.mean_average_regret.size(); ++t) {
        c.x.push_back(static_cast<double>(t + 1));
        // A log axis cannot show 0 (a lucky first pick): floor it far below the curves.
        c.y.push_back(std::max(s.mean_average_regret[t], 1e-12));
      }
      spec.curves.push_back(std::move(c));
    }
    if (PlotCurves(spec, streams.err)) streams.err << "[run] wrote " << plot_path << "\n";
  }
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
