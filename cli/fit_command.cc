// gpbandit fit: observations CSV -> hyperparameters by marginal likelihood -> JSON on stdout.
//
// The inputs are mapped to the unit cube of their bounding box and the outputs standardized,
// exactly as the Optimizer does, so the fitted values can be handed to it unchanged; the JSON
// also gives each lengthscale and period back in original units. --no-standardize fits the raw
// outputs (prior mean 0, the papers' setting) instead; the fit's variance bounds and start
// ranges are then multiplied by the outputs' mean square, so that they mean for the raw outputs
// what fit.h's defaults mean for standardized ones. The log marginal likelihood is reported
// with its units: of the outputs the model was fitted to (log_marginal_likelihood, units named
// in log_marginal_likelihood_units), and of the original outputs, log p(y) = log p(y_std) -
// t log(output_scale) (log_marginal_likelihood_original_units; the same number without
// standardization).
#include <algorithm>
#include <cmath>
#include <iomanip>
#include <limits>
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli/commands.h"
#include "cli/io/observations.h"
#include "cli/progress.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/hyperparams/fit.h"
#include "gpbandit/kernel/kernel_factory.h"

namespace gpbandit {
namespace cli {

namespace {

using Json = nlohmann::ordered_json;

// An exact GP stores n x n matrices and factorizes them in O(n^3) at every step of the fit:
// 10000 observations take 0.8 GB per matrix and hours.
constexpr int kMaxFitObservations = 10000;

struct FitFlags {
  // The Optimizer's default kernel (Matern-5/2 with ARD), and `gpbandit run`'s.
  std::string data_path, kernel = "matern52";
  double lengthscale = 0.5;
  // The starting noise: --noise-sd, a standard deviation; the deprecated --noise, a variance.
  double noise_sd = std::sqrt(GaussianProcessOptions().noise_variance), noise_variance = -1.0;
  int restarts = HyperparameterFitOptions().num_restarts;
  std::uint64_t seed = kDefaultSeed;
  bool no_ard = false, no_standardize = false;
};

void AddFitFlags(po::options_description* desc, FitFlags* f) {
  desc->add_options()("data", po::value(&f->data_path)->required(),
                      ("observations CSV, header x1..xd[,z1..zm],y; at most " +
                       std::to_string(kMaxFitObservations) + " rows (an exact GP)")
                          .c_str())(
      "kernel", ValueWithDefault(&f->kernel),
      (JoinNames(KernelNames()) + " (contexts get a second one, multiplied)").c_str())(
      "lengthscale", ValueWithDefault(&f->lengthscale), "starting lengthscale, unit-cube units")(
      "noise-sd", ValueWithDefault(&f->noise_sd),
      "starting noise standard deviation, standardized units (original with --no-standardize)")(
      "restarts", ValueWithDefault(&f->restarts), "random restarts of L-BFGS")(
      "no-ard", po::bool_switch(&f->no_ard), "one shared lengthscale instead of one per input")(
      "no-standardize", po::bool_switch(&f->no_standardize),
      "fit the raw outputs (prior mean 0) instead of standardized ones")(
      "seed", ValueWithDefault(&f->seed), "seed of the restarts");
}

// The old spelling --noise, a variance (--noise-sd is its square root).
DeprecatedFlags FitDeprecatedFlags(FitFlags* f) {
  DeprecatedFlags deprecated;
  deprecated.changed.add_options()(
      "noise", po::value(&f->noise_variance),
      "--noise-sd SD, the standard deviation (--noise was a variance: SD = sqrt(VARIANCE))");
  return deprecated;
}

void CheckFitFlags(const FitFlags& f, const po::variables_map& vm) {
  RequireOneOf("--kernel", f.kernel, KernelNames());
  RequirePositive("--lengthscale", f.lengthscale);
  RequireNonNegative("--noise-sd", f.noise_sd);
  if (vm.count("noise") > 0) {
    RequireNonNegative("--noise", f.noise_variance);
    if (!vm["noise-sd"].defaulted())
      throw UsageError("--noise-sd and the deprecated --noise both set the noise; give one");
  }
  RequireAtLeast("--restarts", f.restarts, 0);
}

// The starting noise variance: the deprecated --noise as given, else --noise-sd squared, else
// the GP's default (exactly, not the square of its rounded square root).
double StartingNoiseVariance(const FitFlags& f, const po::variables_map& vm) {
  if (vm.count("noise") > 0) return f.noise_variance;
  if (!vm["noise-sd"].defaulted()) return f.noise_sd * f.noise_sd;
  return GaussianProcessOptions().noise_variance;
}

// The inputs' bounding box; a constant input gets a range of 1 (it stays where it is).
struct InputBox {
  Eigen::VectorXd lower, upper, range;
};

InputBox BoxOf(const Eigen::MatrixXd& X) {
  InputBox box{X.rowwise().minCoeff(), X.rowwise().maxCoeff(), {}};
  box.range = box.upper - box.lower;
  for (Eigen::Index i = 0; i < box.range.size(); ++i)
    if (box.range(i) <= 0) box.range(i) = 1.0;
  return box;
}

// A part of the model's kernel: one kernel over inputs [first, first + count).
struct KernelPart {
  int first = 0, count = 0, num_params = 0;
};

// The named kernel over the actions, times a second one over the contexts if there are any.
std::unique_ptr<Kernel> BuildKernel(const FitFlags& f, int d, int m,
                                    std::vector<KernelPart>* parts) {
  auto part = [&](int first, int count) {
    std::unique_ptr<Kernel> k =
        MakeKernel(f.kernel, DimRange(first, count), !f.no_ard, 1.0, f.lengthscale);
    parts->push_back({first, count, k->NumParams()});
    return k;
  };
  if (m == 0) return part(0, d);
  std::vector<std::unique_ptr<Kernel>> product;
  product.push_back(part(0, d));
  product.push_back(part(d, m));
  return MakeProduct(std::move(product));
}

// Multiplies the fit's bounds and start ranges of every output variance by `mean_square`, the
// raw outputs' second moment about the prior mean 0 (floored at the smallest normal double):
// the noise's, and those of every parameter kind measured in output variance (signal
// variances, param_kind.h).
void ScaleVarianceRanges(double mean_square, HyperparameterFitOptions* fit) {
  const double v = std::max(mean_square, std::numeric_limits<double>::min());
  for (ParamKind kind : ParamKind::All()) {
    if (kind.info().original_units != OriginalUnits::kOutputVariance) continue;
    const ParamRange range = FitRange(*fit, kind);
    fit->kind_ranges[kind.name()] = {range.min * v, range.max * v, range.start_min * v,
                                     range.start_max * v};
  }
  for (double* bound : {&fit->min_noise_variance, &fit->max_noise_variance,
                        &fit->start_min_noise_variance, &fit->start_max_noise_variance})
    *bound *= v;
}

// The log-params of the fitted kernel whose kind is a length along an input (lengthscales,
// periods, any registered kind with OriginalUnits::kInputWidth), in original input units: each
// is fitted in unit-cube units, so it is multiplied by the range of the input it acts on.
// Per-input parameters (ARD) map to their input in order; a shared one is given once per input
// of its part, "...lengthscale[k]". Keys are the parameter names without "log_".
Json OriginalUnitScales(const Kernel& kernel, const std::vector<KernelPart>& parts,
                        const Eigen::VectorXd& range) {
  const std::vector<std::string> names = kernel.ParamNames();
  const std::vector<ParamKind> kinds = kernel.ParamKinds();
  const Eigen::VectorXd log_params = kernel.GetLogParams();
  Json out = Json::object();
  int offset = 0;
  for (const KernelPart& part : parts) {
    for (ParamKind kind : ParamKind::All()) {
      if (kind.info().original_units != OriginalUnits::kInputWidth) continue;
      std::vector<int> of_kind;
      for (int j = offset; j < offset + part.num_params; ++j)
        if (kinds[j] == kind) of_kind.push_back(j);
      const bool shared = static_cast<int>(of_kind.size()) != part.count;
      for (int input = 0; input < part.count && !of_kind.empty(); ++input) {
        const int j = shared ? of_kind.front() : of_kind[input];
        std::string name = names[j];
        const std::size_t log = name.rfind("log_");
        if (log != std::string::npos) name.erase(log, 4);
        if (shared) name += "[" + std::to_string(input) + "]";
        out[name] = std::exp(log_params(j)) * range(part.first + input);
      }
    }
    offset += part.num_params;
  }
  return out;
}

Json FitJson(const GaussianProcess& gp, const std::vector<KernelPart>& parts, const InputBox& box,
             const FitFlags& f, const HyperparameterFitReport& report, int d, int m) {
  Json json;
  json["kernel"] = gp.kernel().Describe();
  json["num_observations"] = gp.num_observations();
  json["action_dim"] = d;
  json["context_dim"] = m;
  const std::vector<std::string> names = gp.kernel().ParamNames();
  Json hyper = Json::object();
  for (size_t i = 0; i < names.size(); ++i)
    hyper[names[i]] = gp.kernel_log_params()(static_cast<Eigen::Index>(i));
  json["log_params"] = hyper;
  json["lengthscales_original_units"] = OriginalUnitScales(gp.kernel(), parts, box.range);
  json["noise_variance"] = gp.noise_variance();
  json["noise_variance_original_units"] =
      gp.noise_variance() * gp.output_scale() * gp.output_scale();
  json["output_offset"] = gp.output_offset();
  json["output_scale"] = gp.output_scale();
  json["input_lower"] = std::vector<double>(box.lower.data(), box.lower.data() + d + m);
  json["input_upper"] = std::vector<double>(box.upper.data(), box.upper.data() + d + m);
  json["standardized_outputs"] = !f.no_standardize;
  json["log_marginal_likelihood"] = gp.LogMarginalLikelihood();
  json["log_marginal_likelihood_units"] =
      f.no_standardize ? "original outputs" : "standardized outputs";
  json["log_marginal_likelihood_original_units"] =
      gp.LogMarginalLikelihood() - gp.num_observations() * std::log(gp.output_scale());
  json["fit"] = {{"success", report.success},
                 {"kept_previous", report.kept_previous},
                 {"termination", FitTerminationName(report.termination)},
                 {"starts", report.num_starts},
                 {"failed_starts", report.failed_starts.size()},
                 {"params_at_bound", report.params_at_bound},
                 {"report", report.BriefReport()}};
  return json;
}

}  // namespace

int FitCommand(const std::vector<std::string>& args, Streams streams) {
  FitFlags f;
  po::options_description desc("options (defaults in parentheses)");
  AddFitFlags(&desc, &f);
  po::variables_map vm;
  if (!ParseArguments("fit", "--data obs.csv [options]", args, desc, FitDeprecatedFlags(&f), &vm,
                      streams))
    return kExitOk;
  CheckFitFlags(f, vm);
  const io::Observations obs = io::ReadObservations(
      f.data_path,
      {kMaxFitObservations, "gpbandit fit takes at most " + std::to_string(kMaxFitObservations) +
                                " observations: an exact GP stores n x n matrices"});
  const int d = obs.action_dim, m = obs.context_dim;
  const InputBox box = BoxOf(obs.X);
  const Eigen::MatrixXd unit = (obs.X.colwise() - box.lower).array().colwise() / box.range.array();

  std::vector<KernelPart> parts;
  GaussianProcessOptions gp_options;
  gp_options.noise_variance = StartingNoiseVariance(f, vm);
  gp_options.standardize_outputs = !f.no_standardize;
  GaussianProcess gp(BuildKernel(f, d, m, &parts), d + m, gp_options);
  gp.AddObservations(unit, obs.y);
  HyperparameterFitOptions fit_options;
  fit_options.num_restarts = f.restarts;
  if (f.no_standardize) ScaleVarianceRanges(obs.y.squaredNorm() / obs.y.size(), &fit_options);
  Rng rng(f.seed);
  const HyperparameterFitReport report = WithHeartbeat(
      streams.err,
      "[fit] fitting " + f.kernel + " to " + std::to_string(obs.y.size()) + " observations, " +
          std::to_string(fit_options.num_restarts + 1) + " starts of L-BFGS",
      [&] { return FitHyperparameters(fit_options, rng, &gp); });
  streams.out << std::setw(2) << FitJson(gp, parts, box, f, report, d, m) << "\n";
  return report.success ? kExitOk : kExitFailure;
}

}  // namespace cli
}  // namespace gpbandit
