// gpbandit run: flags -> RegretStudyOptions, rows -> CSV, summary -> stdout, curves -> PNG.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <utility>

#include "cli/io/csv.h"
#include "cli/plot.h"
#include "cli/strategy_options.h"
#include "examples/commands.h"
#include "examples/studies/regret_study.h"
#include "gpbandit/acquisition/gp_ucb.h"
#include "gpbandit/acquisition/improvement_strategy.h"

namespace gpbandit {
namespace examples {

namespace {

// Writes the rows of the study as they come, one CSV line per round; the file is opened at the
// first row, when the widths of x and z are known.
class RowWriter {
 public:
  explicit RowWriter(std::string path) : path_(std::move(path)) {}

  void Write(const RegretRow& row) {
    if (path_.empty()) return;
    if (!csv_) Open(row);
    *csv_ << row.trial << "," << row.strategy << "," << row.t;
    for (Eigen::Index i = 0; i < row.x.size(); ++i) *csv_ << "," << FormatDouble(row.x(i));
    for (Eigen::Index i = 0; i < row.z.size(); ++i) *csv_ << "," << FormatDouble(row.z(i));
    *csv_ << "," << FormatDouble(row.y) << "," << FormatDouble(row.f) << ","
          << FormatDouble(row.regret) << "," << FormatDouble(row.cumulative) << ","
          << FormatDouble(row.simple) << "\n";
  }

  // Flushes the file; true if one was written.
  bool Finish() {
    if (!csv_) return false;
    csv_->flush();
    if (!*csv_) throw std::runtime_error(path_ + ": write failed");
    return true;
  }

 private:
  void Open(const RegretRow& row) {
    csv_ = std::make_unique<std::ofstream>(path_);
    if (!*csv_) throw std::runtime_error(path_ + ": cannot open for writing");
    *csv_ << "trial,strategy,t";
    for (const std::string& n : io::NumberedNames("x", static_cast<int>(row.x.size())))
      *csv_ << "," << n;
    for (const std::string& n : io::NumberedNames("z", static_cast<int>(row.z.size())))
      *csv_ << "," << n;
    *csv_ << ",y,f,regret,cumulative_regret,simple_regret\n";
  }

  std::string path_;
  std::unique_ptr<std::ofstream> csv_;
};

// The mean average regret R_t / t of every strategy against t, on a log axis.
cli::PlotSpec RegretPlot(const RegretStudyOptions& o, const RegretStudyResult& result,
                         const std::string& png_path, bool keep_files) {
  cli::PlotSpec spec;
  spec.png_path = png_path;
  spec.keep_files = keep_files;
  spec.title = "gpbandit run --problem " + o.problem + " (" + std::to_string(o.trials) + " trials)";
  spec.x_label = "round t";
  spec.y_label = "mean average regret R_t / t";
  spec.log_y = true;
  for (const StrategySummary& s : result.summaries) {
    cli::Curve c;
    c.title = s.strategy;
    for (size_t t = 0; t < s.mean_average_regret.size(); ++t) {
      c.x.push_back(static_cast<double>(t + 1));
      // A log axis cannot show 0 (a lucky first pick): floor it far below the curves.
      c.y.push_back(std::max(s.mean_average_regret[t], 1e-12));
    }
    spec.curves.push_back(std::move(c));
  }
  return spec;
}

// The flags that are not fields of RegretStudyOptions. The strategy flags show the strategies'
// own defaults and are passed on only when given.
struct RunFlags {
  std::string strategies = "gp-ucb", modes = "joint", out_path, plot_path;
  std::string beta_schedule = BetaScheduleKindName(GpUcbOptions().beta.kind);
  double beta_scale = GpUcbOptions().beta.scale, delta = GpUcbOptions().beta.delta;
  double xi = ImprovementOptions().xi, constant_beta = 0.0;
  std::string incumbent_rule = IncumbentRuleName(ImprovementOptions().incumbent_rule);
  std::vector<std::string> options;
  // The noise's standard deviation (< 0: the problem's default), and the deprecated --noise,
  // a variance.
  double noise_sd = -1.0, noise_variance = -1.0;
  bool keep_plot_files = false;
};

// The old spellings: --T (now --rounds) and --noise, a variance (--noise-sd is its square root).
cli::DeprecatedFlags RunDeprecatedFlags(RunFlags* f) {
  cli::DeprecatedFlags deprecated;
  deprecated.renamed = {{"T", "rounds"}};
  deprecated.changed.add_options()(
      "noise", cli::po::value(&f->noise_variance),
      "--noise-sd SD, the standard deviation (--noise was a variance: SD = sqrt(VARIANCE))");
  return deprecated;
}

void AddRunFlags(cli::po::options_description* desc, RegretStudyOptions* o, RunFlags* f) {
  desc->add_options()("problem", cli::ValueWithDefault(&o->problem),
                      "gp-sample | rkhs | branin | hartmann3 | hartmann6 | rosenbrock | file")(
      "strategy", cli::ValueWithDefault(&f->strategies),
      "registry names, comma-separated (gpbandit strategies lists them)")(
      "kernel", cli::ValueWithDefault(&o->kernel),
      "se | matern12 | matern32 | matern52 | periodic (period 1) | linear; box problems with "
      "--fit and neither --kernel nor --lengthscale play the Optimizer's default model "
      "(Matern-5/2 ARD fitted with its priors)")(
      "lengthscale", cli::ValueWithDefault(&o->lengthscale),
      "kernel lengthscale (candidate units; unit cube on box problems)")(
      "context-lengthscale", cli::ValueWithDefault(&o->context_lengthscale),
      "lengthscale of the kernel over contexts (joint mode)")(
      "signal-variance", cli::ValueWithDefault(&o->signal_variance),
      "file problems: the model kernel's signal variance, in the functions' units squared")(
      "noise-sd", cli::ValueWithDefault(&f->noise_sd),
      "standard deviation of the observation noise; < 0 = the problem's default (gp-sample "
      "sqrt(0.025), rkhs sqrt(1% of f's range), file sqrt(0.5), box problems 0)")(
      "fit", cli::po::bool_switch(&o->fit), "fit hyperparameters by marginal likelihood")(
      "rounds", cli::ValueWithDefault(&o->T), "rounds per trial")(
      "trials", cli::ValueWithDefault(&o->trials), "trials per strategy")(
      "seed", cli::ValueWithDefault(&o->seed), "seed of everything")(
      "threads", cli::ValueWithDefault(&o->threads), "OpenMP threads, 0 = default")(
      "out", cli::po::value(&f->out_path), "CSV file: one row per round")(
      "plot", cli::po::value(&f->plot_path), "PNG of the mean average regret R_t/t (gnuplot)")(
      "keep-plot-files", cli::po::bool_switch(&f->keep_plot_files),
      "keep gnuplot's data and script beside the picture (PNG.dat, PNG.gp)")(
      "grid", cli::ValueWithDefault(&o->grid),
      "points of gp-sample/rkhs; 0 = 1000 for gp-sample, 100 for rkhs")(
      "prior-mean", cli::ValueWithDefault(&o->prior_mean),
      "constant prior mean of the finite-set model")(
      "beta-schedule", cli::ValueWithDefault(&f->beta_schedule),
      ("auto | finite | compact | rkhs | constant | dim-log (gp-ucb, cgp-ucb; auto: finite on "
       "finite problems, dim-log = " +
       cli::DefaultText(GpUcbOptions().beta.dim_log_coefficient) + " d log(2t) on boxes)")
          .c_str())("constant-beta", cli::po::value(&f->constant_beta),
                    "beta of --beta-schedule constant (required with it): mu + sqrt(beta) sigma")(
      "beta-scale", cli::ValueWithDefault(&f->beta_scale),
      "multiplies beta_t (gp-ucb, cgp-ucb; Srinivas et al. use 0.2)")(
      "delta", cli::ValueWithDefault(&f->delta), "confidence parameter delta (UCB family, gp-ts)")(
      "xi", cli::ValueWithDefault(&f->xi), "improvement margin xi (ei, log-ei, pi)")(
      "incumbent", cli::ValueWithDefault(&f->incumbent_rule),
      "posterior-mean | best-observed: the bar of ei, log-ei, pi (the papers' baselines use "
      "the best observed reward)")(
      "option", cli::po::value(&f->options),
      "[strategy:]key=value, a strategy option, repeatable: key=value applies to the "
      "strategies that have the key, strategy:key=value to that one (gpbandit strategies "
      "lists them)")("rkhs-bound", cli::ValueWithDefault(&o->rkhs_bound),
                     "B; < 0 = ||f||_k for rkhs, else the strategy default")(
      "noise-bound", cli::ValueWithDefault(&o->noise_bound),
      "R; < 0 = the noise standard deviation on known-kernel finite problems, from the model "
      "with a floor on box problems and with --fit")(
      "context-mode", cli::ValueWithDefault(&f->modes),
      "joint | ignore | merge, comma-separated (contextual problems)")(
      "candidates", cli::po::value(&o->files.candidates),
      "file problem: candidates CSV (x1..,z1..)")(
      "kernel-matrix", cli::po::value(&o->files.kernel_matrix),
      "file problem: N x N kernel matrix CSV (index kernel)")(
      "functions", cli::po::value(&o->files.functions),
      "file problem: payoff functions CSV, one row per function")(
      "contexts", cli::po::value(&o->files.contexts), "file problem: context sequence CSV (z1..)");
}

// The flags given into *o (IsValid then checks them together).
void ApplyRunFlags(const cli::po::variables_map& vm, const RunFlags& f, RegretStudyOptions* o) {
  o->strategies = cli::ParseNameList("strategy", f.strategies);
  o->context_modes = cli::ParseNameList("context-mode", f.modes);
  // A kernel asked for is played as given; otherwise box problems with --fit get the model a
  // library user gets from the Optimizer.
  o->optimizer_default_model = vm["kernel"].defaulted() && vm["lengthscale"].defaulted();
  if (!vm["beta-schedule"].defaulted()) o->beta_schedule = f.beta_schedule;
  if (!vm["beta-scale"].defaulted()) o->beta_scale = f.beta_scale;
  if (!vm["delta"].defaulted()) o->delta = f.delta;
  if (!vm["xi"].defaulted()) o->xi = f.xi;
  if (vm.count("constant-beta") > 0) o->constant_beta = f.constant_beta;
  if (!vm["incumbent"].defaulted()) o->incumbent_rule = f.incumbent_rule;
  const cli::StrategyOptionFlags options = cli::ParseStrategyOptions(f.options, o->strategies);
  o->strategy_options = options.every;
  o->strategy_options_by_name = options.by_strategy;
  if (vm.count("noise") > 0 && vm.count("noise-sd") > 0 && !vm["noise-sd"].defaulted())
    throw cli::UsageError("--noise-sd and the deprecated --noise both set the noise; give one");
  if (vm.count("noise") > 0) {
    o->noise = f.noise_variance;
  } else if (!vm["noise-sd"].defaulted()) {
    if (!std::isfinite(f.noise_sd)) throw cli::UsageError("--noise-sd must be finite");
    o->noise = f.noise_sd < 0 ? -1.0 : f.noise_sd * f.noise_sd;
  }
}

}  // namespace

int RunCommand(const std::vector<std::string>& args, cli::Streams streams) {
  RegretStudyOptions o;  // every default comes from here
  o.seed = cli::kDefaultSeed;
  RunFlags f;
  cli::po::options_description desc("options (defaults in parentheses)");
  AddRunFlags(&desc, &o, &f);
  cli::po::variables_map vm;
  if (!cli::ParseArguments("run", "[options]", args, desc, RunDeprecatedFlags(&f), &vm, streams))
    return cli::kExitOk;
  ApplyRunFlags(vm, f, &o);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);

  if (!f.out_path.empty()) cli::RequireWritableFile("--out", f.out_path);
  if (!f.plot_path.empty()) {
    cli::RequireWritableFile("--plot", f.plot_path);
    cli::RequireGnuplot("--plot", f.plot_path, "install it, or leave out --plot");
  }

  RowWriter rows(f.out_path);
  const RegretStudyResult result = RunRegretStudy(
      o, [&](const RegretRow& row) { rows.Write(row); }, streams.err);
  if (rows.Finish()) streams.err << "[run] wrote " << f.out_path << "\n";
  streams.out << "problem " << o.problem << ", T = " << o.T << ", " << o.trials << " trials, seed "
              << o.seed << "\n";
  PrintSummary(result, o.T, streams.out);
  if (!f.plot_path.empty() &&
      cli::PlotCurves(RegretPlot(o, result, f.plot_path, f.keep_plot_files), streams.err))
    streams.err << "[run] wrote " << f.plot_path << "\n";
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
