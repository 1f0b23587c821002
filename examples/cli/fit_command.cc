// gpbandit fit: observations CSV -> hyperparameters by marginal likelihood -> JSON on stdout.
//
// The inputs are mapped to the unit cube of their bounding box and the outputs standardized,
// exactly as the Optimizer does, so the fitted values can be handed to it unchanged; the JSON
// also gives each lengthscale back in original units. --no-standardize fits the raw outputs
// (prior mean 0, the papers' setting) instead; the fit's variance bounds and start ranges are
// then multiplied by the outputs' mean square, so that they mean for the raw outputs what
// fit.h's defaults mean for standardized ones. The log marginal likelihood is reported with its
// units: of the outputs the model was fitted to (log_marginal_likelihood, units named in
// log_marginal_likelihood_units), and of the original outputs, log p(y) = log p(y_std) -
// t log(output_scale) (log_marginal_likelihood_original_units; the same number without
// standardization).
#include <algorithm>
#include <cmath>
#include <limits>
#include <iomanip>
#include <ostream>

#include <nlohmann/json.hpp>

#include "gpbandit/examples/cli/commands.h"
#include "gpbandit/examples/io/finite_problem.h"
#include "gpbandit/gp/gaussian_process.h"
#include "gpbandit/gp/kernel_factory.h"
#include "gpbandit/hyperparams/fit.h"

namespace gpbandit {
namespace cli {

namespace {

// Multiplies the fit's variance bounds and start ranges (signal and noise) by `mean_square`, the
// raw outputs' second moment about the prior mean 0 (floored at the smallest normal double).
void ScaleVarianceRanges(double mean_square, HyperparameterFitOptions* fit) {
  const double v = std::max(mean_square, std::numeric_limits<double>::min());
  for (double* bound : {&fit->min_signal_variance, &fit->max_signal_variance,
                        &fit->start_min_signal_variance, &fit->start_max_signal_variance,
                        &fit->min_noise_variance, &fit->max_noise_variance,
                        &fit->start_min_noise_variance, &fit->start_max_noise_variance})
    *bound *= v;
}

}  // namespace

int FitCommand(const std::vector<std::string>& args, Streams streams) {
  std::string data_path, kernel_name = "matern52";
  const HyperparameterFitOptions fit_defaults;
  const GaussianProcessOptions gp_defaults;
  int restarts = fit_defaults.num_restarts;
  double noise = gp_defaults.noise_variance, lengthscale = 0.5;
  std::uint64_t seed = 1;
  bool no_ard = false, no_standardize = false;
  po::options_description desc("options (defaults in brackets)");
  desc.add_options()
      ("data", po::value(&data_path)->required(), "observations CSV, header x1..xd[,z1..zm],y")
      ("kernel", po::value(&kernel_name)->default_value(kernel_name),
       "se | matern12 | matern32 | matern52 | linear (contexts get a second one, multiplied)")
      ("lengthscale", po::value(&lengthscale)->default_value(lengthscale),
       "starting lengthscale, unit-cube units")
      ("noise", po::value(&noise)->default_value(noise),
       "starting noise variance, standardized units (original with --no-standardize)")
      ("restarts", po::value(&restarts)->default_value(restarts), "random restarts of L-BFGS")
      ("no-ard", po::bool_switch(&no_ard), "one shared lengthscale instead of one per input")
      ("no-standardize", po::bool_switch(&no_standardize),
       "fit the raw outputs (prior mean 0) instead of standardized ones")
      ("seed", po::value(&seed)->default_value(seed), "seed of the restarts");
  po::variables_map vm;
  if (!ParseArguments("fit", "--data obs.csv [options]", args, desc, &vm, streams.out))
    return kExitOk;
  const io::Observations obs = io::ReadObservations(data_path);
  const int d = obs.action_dim, m = obs.context_dim, p = d + m;

  Eigen::VectorXd lower = obs.X.rowwise().minCoeff(), upper = obs.X.rowwise().maxCoeff();
  Eigen::VectorXd range = upper - lower;
  for (int i = 0; i < p; ++i)
    if (range(i) <= 0) range(i) = 1.0;  // a constant column: leave it where it is
  const Eigen::MatrixXd unit = (obs.X.colwise() - lower).array().colwise() / range.array();

  std::unique_ptr<Kernel> kernel;
  if (m == 0) {
    kernel = MakeKernel(kernel_name, FirstDims(d), !no_ard, 1.0, lengthscale);
  } else {
    std::vector<std::unique_ptr<Kernel>> parts;
    parts.push_back(MakeKernel(kernel_name, FirstDims(d), !no_ard, 1.0, lengthscale));
    parts.push_back(MakeKernel(kernel_name, DimRange(d, m), !no_ard, 1.0, lengthscale));
    kernel = MakeProduct(std::move(parts));
  }
  GaussianProcessOptions gp_options;
  gp_options.noise_variance = noise;
  gp_options.standardize_outputs = !no_standardize;
  GaussianProcess gp(std::move(kernel), p, gp_options);
  gp.AddObservations(unit, obs.y);
  HyperparameterFitOptions fit_options;
  fit_options.num_restarts = restarts;
  if (no_standardize) ScaleVarianceRanges(obs.y.squaredNorm() / obs.y.size(), &fit_options);
  Rng rng(seed);
  const HyperparameterFitReport report = FitHyperparameters(fit_options, rng, &gp);

  nlohmann::ordered_json json;
  json["kernel"] = gp.kernel().Describe();
  json["num_observations"] = gp.num_observations();
  json["action_dim"] = d;
  json["context_dim"] = m;
  const std::vector<std::string> names = gp.kernel().ParamNames();
  const Eigen::VectorXd log_params = gp.kernel_log_params();
  nlohmann::ordered_json hyper = nlohmann::ordered_json::object();
  nlohmann::ordered_json original = nlohmann::ordered_json::object();
  for (size_t i = 0; i < names.size(); ++i) {
    hyper[names[i]] = log_params(static_cast<Eigen::Index>(i));
    // "...lengthscale[k]" of an ARD kernel acts on input k of that part; back to original units.
    const auto pos = names[i].find("lengthscale");
    if (pos != std::string::npos) {
      const double value = std::exp(log_params(static_cast<Eigen::Index>(i)));
      // "se.log_lengthscale[0]" -> "se.lengthscale[0]": these are values, not logs.
      std::string plain = names[i];
      if (pos >= 4 && plain.compare(pos - 4, 4, "log_") == 0) plain.erase(pos - 4, 4);
      original[plain] = value;
      const auto bracket = names[i].find('[', pos);
      if (bracket != std::string::npos && !no_ard) {
        const int k = std::stoi(names[i].substr(bracket + 1));
        const size_t action_params = 1 + static_cast<size_t>(d);  // log variance + ARD
        const bool context_part = m > 0 && i >= action_params;
        const int input = context_part ? d + k : k;
        if (input < p) original[plain] = value * range(input);
      }
    }
  }
  json["log_params"] = hyper;
  json["lengthscales_original_units"] = original;
  json["noise_variance"] = gp.noise_variance();
  json["noise_variance_original_units"] = gp.noise_variance() * gp.output_scale() * gp.output_scale();
  json["output_offset"] = gp.output_offset();
  json["output_scale"] = gp.output_scale();
  json["input_lower"] = std::vector<double>(lower.data(), lower.data() + p);
  json["input_upper"] = std::vector<double>(upper.data(), upper.data() + p);
  json["standardized_outputs"] = !no_standardize;
  json["log_marginal_likelihood"] = gp.LogMarginalLikelihood();
  json["log_marginal_likelihood_units"] =
      no_standardize ? "original outputs" : "standardized outputs";
  json["log_marginal_likelihood_original_units"] =
      gp.LogMarginalLikelihood() - gp.num_observations() * std::log(gp.output_scale());
  json["fit"] = {{"success", report.success},
                 {"kept_previous", report.kept_previous},
                 {"termination", report.termination},
                 {"starts", report.num_starts},
                 {"failed_starts", report.failed_starts.size()},
                 {"params_at_bound", report.params_at_bound},
                 {"report", report.BriefReport()}};
  streams.out << std::setw(2) << json << "\n";
  return report.success ? kExitOk : kExitFailure;
}

}  // namespace cli
}  // namespace gpbandit
