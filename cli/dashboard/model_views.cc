#include "cli/dashboard/model_views.h"

#include <Eigen/Cholesky>
#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gpbandit/kernel/param_kind.h"
#include "gpbandit/numerics/random.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace cli {
namespace dashboard {

nlohmann::json VectorJson(const Eigen::VectorXd& v) {
  return std::vector<double>(v.data(), v.data() + v.size());
}
namespace {

using nlohmann::json;

// The values a slice visits along action coordinate d: every legal value of an integer or
// categorical parameter (up to `points` of them), else `points` evenly spaced ones.
std::vector<double> SliceValues(const Domain& domain, int d, int points) {
  const double lo = domain.lower()(d), hi = domain.upper()(d);
  const ParameterSpace* space = domain.action_space();
  std::vector<double> values;
  if (space && space->parameter(d).discrete() && hi - lo + 1 <= points) {
    for (double v = lo; v <= hi; v += 1) values.push_back(v);
    return values;
  }
  for (int i = 0; i < points; ++i) {
    double v = lo + (hi - lo) * i / (points - 1);
    if (space && space->parameter(d).discrete()) v = std::round(v);
    values.push_back(v);
  }
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

void CheckIndex(const char* field, int value, int action_dim) {
  if (value < 0 || value >= action_dim)
    throw std::invalid_argument(std::string(field) + " " + std::to_string(value) +
                                " must be an action index in [0, " + std::to_string(action_dim) +
                                ")");
}

json Slice(const Optimizer& opt, const Eigen::VectorXd& base, const Eigen::VectorXd& z, int d,
           int points) {
  const int m = opt.num_constraints();
  json xs = json::array(), mean = json::array(), sd = json::array(), margin = json::array();
  std::vector<json> g_mean(m, json::array()), g_sd(m, json::array());
  Eigen::VectorXd x = base;
  for (double v : SliceValues(opt.domain(), d, points)) {
    x(d) = v;
    const Prediction p = opt.Predict(x, z);
    xs.push_back(v);
    mean.push_back(p.mean);
    sd.push_back(p.stddev);
    margin.push_back(opt.SafetyMargin(x, z));  // NaN (null) without safety signals
    for (int i = 0; i < m; ++i) {
      const Prediction g = opt.PredictConstraint(i, x, z);
      g_mean[i].push_back(g.mean);
      g_sd[i].push_back(g.stddev);
    }
  }
  json slice = {{"dim", d}, {"x", xs}, {"mean", mean}, {"sd", sd}, {"safety_margin", margin}};
  if (m > 0) {
    json constraints = json::array();
    for (int i = 0; i < m; ++i) constraints.push_back({{"mean", g_mean[i]}, {"sd", g_sd[i]}});
    slice["constraints"] = constraints;
  }
  return slice;
}

json Contour(const Optimizer& opt, const Eigen::VectorXd& base, const Eigen::VectorXd& z, int a,
             int b, int grid) {
  const std::vector<double> xs = SliceValues(opt.domain(), a, grid);
  const std::vector<double> ys = SliceValues(opt.domain(), b, grid);
  json mean = json::array(), sd = json::array();
  Eigen::VectorXd x = base;
  for (double yv : ys) {
    json mean_row = json::array(), sd_row = json::array();
    x(b) = yv;
    for (double xv : xs) {
      x(a) = xv;
      const Prediction p = opt.Predict(x, z);
      mean_row.push_back(p.mean);
      sd_row.push_back(p.stddev);
    }
    mean.push_back(mean_row);
    sd.push_back(sd_row);
  }
  return {{"dims", {a, b}}, {"x", xs}, {"y", ys}, {"mean", mean}, {"sd", sd}};
}

// The study's strategy rebuilt from its header, begun at the state of its next round (t,
// gamma_t, the incumbents, the noise and signal variances in the model's units), over the
// model: the acquisition the next model-driven ask maximizes, up to the hallucinated pending
// points. Throws what the strategy throws (a safe strategy has no acquisition of its own).
json Acquisition(const Optimizer& opt, const Eigen::VectorXd& base, const Eigen::VectorXd& z, int d,
                 int points, const json& next) {
  const GaussianProcess& gp = opt.model();
  std::unique_ptr<Strategy> strategy =
      StrategyRegistry::Default().Create(opt.strategy_name(), opt.strategy_options());
  if (strategy->safe_seeds().size() > 0)
    throw std::logic_error("a safe strategy chooses inside its safe set (see the safety margin)");
  const Domain& domain = opt.domain();
  if (gp.input_dim() != domain.input_dim())
    throw std::logic_error("the model has a time input (a time-varying strategy)");
  RoundState state;
  state.t = std::max(1, opt.t());
  state.round = opt.rounds();
  state.action_dim = domain.action_dim();
  state.num_candidates = domain.num_candidates();
  state.information_gain = opt.information_gain();
  const double scale = gp.output_scale();
  if (gp.num_observations() > 0) {
    state.incumbent = gp.MeansAtObservations().maxCoeff();
    state.best_observed = gp.outputs().maxCoeff();
    state.signal_variance = gp.kernel().Diagonal(gp.inputs()).mean() * scale * scale;
  }
  state.noise_variance = gp.noise_variance() * scale * scale;
  strategy->BeginRound(state);
  Rng rng = SeededRng({opt.options().seed, static_cast<std::uint64_t>(opt.rounds())});
  const std::unique_ptr<ContinuousAcquisition> acquisition = strategy->MakeContinuous(gp, rng);
  json xs = json::array(), values = json::array();
  Eigen::VectorXd x = base;
  for (double v : SliceValues(domain, d, points)) {
    x(d) = v;
    const Eigen::VectorXd unit = domain.ToUnit(x, z);
    xs.push_back(v);
    values.push_back(acquisition->Evaluate(unit, nullptr));
  }
  // The next ask on this curve: the slice passes through it (base), so its value is the
  // curve's at its coordinate.
  json next_value = nullptr;
  if (next.contains("x")) {
    const std::vector<double> nx = next["x"];
    const Eigen::VectorXd x_next = Eigen::Map<const Eigen::VectorXd>(nx.data(), nx.size());
    next_value = acquisition->Evaluate(domain.ToUnit(x_next, z), nullptr);
  }
  return {{"dim", d},
          {"next_value", next_value},
          {"x", xs},
          {"value", values},
          {"name", strategy->name()},
          {"figure", state.t > 0 ? json(strategy->figure()) : json()},
          {"figure_name", strategy->figure_name()}};
}

// Each parameter's importance: 1 / lengthscale of the model's kernel, normalized to sum 1 over
// the lengthscales (a short lengthscale: the objective changes fast along that input).
json Importance(const GaussianProcess& gp) {
  const Kernel& kernel = gp.kernel();
  const std::vector<std::string> names = kernel.ParamNames();
  const std::vector<ParamKind> kinds = kernel.ParamKinds();
  const Eigen::VectorXd log_params = kernel.GetLogParams();
  json out = json::array();
  double total = 0;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i] == ParamKind::kLengthscale) total += std::exp(-log_params(i));
  for (std::size_t i = 0; i < kinds.size(); ++i) {
    if (kinds[i] != ParamKind::kLengthscale) continue;
    out.push_back({{"name", names[i]},
                   {"lengthscale", std::exp(log_params(i))},
                   {"importance", std::exp(-log_params(i)) / total}});
  }
  return out;
}

json Hyperparameters(const Optimizer& opt, const std::vector<FitRow>& fit_rows) {
  json fits = json::array();
  for (const FitRow& f : fit_rows)
    fits.push_back({{"round", f.round},
                    {"log_params", VectorJson(f.log_params)},
                    {"noise_variance", f.noise_variance}});
  return {{"names", opt.model().kernel().ParamNames()},
          {"current", VectorJson(opt.model().kernel_log_params())},
          {"noise_variance", opt.model().noise_variance()},
          {"fits", fits}};
}

// The optimizer's own next ask at context z (Optimizer::PreviewAsk: nothing recorded), or
// {"error": ...} when it cannot be asked (a safe strategy with no usable seed).
json NextAsk(Optimizer& opt, const Eigen::VectorXd& z) {
  try {
    RoundReport report;
    const Eigen::VectorXd x = opt.PreviewAsk(z, &report);
    const double value =
        report.acquisition_values.empty() ? std::nan("") : report.acquisition_values.front();
    return {{"x", VectorJson(x)},         {"z", VectorJson(z)},
            {"round", report.round},      {"design", report.num_design_points > 0},
            {"acquisition_value", value}, {"refit", report.fitted},
            {"seconds", report.seconds}};
  } catch (const std::exception& e) {
    return {{"error", e.what()}};
  }
}

json Pending(const Optimizer& opt) {
  json out = json::array();
  for (const PendingPoint& p : opt.pending_points()) {
    json mean = nullptr;
    try {
      mean = opt.Predict(p.x, p.z).mean;
    } catch (const std::invalid_argument&) {
    }
    out.push_back({{"trial", p.trial},
                   {"x", VectorJson(p.x)},
                   {"z", VectorJson(p.z)},
                   {"worker", p.worker},
                   {"lease_until", p.lease_until},
                   {"mean", mean}});
  }
  return out;
}

}  // namespace

json LeaveOneOut(const Optimizer& opt, int max_points) {
  const GaussianProcess& gp = opt.model();
  const int t = gp.num_observations();
  const int n = std::min(t, max_points);
  json out = {{"points", json::array()}, {"used", n}, {"of", t}};
  if (n < 2) return out;
  const Eigen::MatrixXd X = gp.inputs().rightCols(n);
  const Eigen::VectorXd y = gp.standardized_outputs().tail(n);
  Eigen::MatrixXd K = gp.kernel().Gram(X);
  K.diagonal().array() += gp.noise_variance() + gp.jitter();
  const Eigen::LLT<Eigen::MatrixXd> llt(K);
  if (llt.info() != Eigen::Success) return out;
  const Eigen::MatrixXd K_inv = llt.solve(Eigen::MatrixXd::Identity(n, n));
  const Eigen::VectorXd alpha = K_inv * y;
  // Model outputs are rewards / reward_unit, negated under minimize (optimizer.h, Units).
  const double sign = opt.options().sense == ObjectiveSense::kMinimize ? -1.0 : 1.0;
  const double to_study = sign * opt.reward_unit() * gp.output_scale();
  const double offset = sign * opt.reward_unit() * gp.output_offset();
  json points = json::array();
  for (int i = 0; i < n; ++i) {
    const double mean_std = y(i) - alpha(i) / K_inv(i, i);
    points.push_back({offset + to_study * y(i), offset + to_study * mean_std,
                      std::abs(to_study) / std::sqrt(K_inv(i, i))});
  }
  out["points"] = points;  // [observed, predicted, sd] each
  return out;
}

namespace {

// The point the slices pass through: the recommendation, or, in a study without a single one
// (several objectives; constraints with no point feasible yet), the front's first point, else
// the last accepted observation; the views then show objective 0's model there.
Recommendation SliceBase(const Optimizer& opt, const Eigen::VectorXd& context) {
  try {
    return opt.Best(context);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::logic_error&) {
  }
  Recommendation r;
  const std::vector<ParetoPoint> front = opt.ParetoFront();
  const std::vector<Observation> observations = opt.observations();
  if (!front.empty()) {
    r.x = front.front().x;
    r.z = front.front().z;
    r.observed_reward = front.front().outcomes(0);
  } else {
    for (auto o = observations.rbegin(); o != observations.rend(); ++o) {
      if (!o->accepted) continue;
      r.x = o->x;
      r.z = o->z;
      r.observed_reward = o->y;
      break;
    }
  }
  if (r.x.size() == 0) return opt.Best(context);  // nothing observed: Best's own error
  if (context.size() > 0) r.z = context;
  r.posterior_mean = opt.Predict(r.x, r.z).mean;
  return r;
}

}  // namespace

json ModelViews(Optimizer& opt, const std::vector<std::string>& names,
                const std::vector<FitRow>& fits, const ModelRequest& request) {
  const Domain& domain = opt.domain();
  const bool contour = domain.action_dim() >= 2 && request.contour_x != request.contour_y;
  if (contour) {
    CheckIndex("cx", request.contour_x, domain.action_dim());
    CheckIndex("cy", request.contour_y, domain.action_dim());
  }
  CheckIndex("acq", request.acquisition_dim, domain.action_dim());
  const Recommendation best = SliceBase(opt, request.context);
  const Eigen::VectorXd z = request.context.size() > 0 ? request.context : best.z;
  json out = {{"recommendation",
               {{"x", VectorJson(best.x)},
                {"z", VectorJson(z)},
                {"mean", best.posterior_mean},
                {"observed", best.observed_reward}}},
              {"parameters", names},
              {"lower", VectorJson(domain.lower())},
              {"upper", VectorJson(domain.upper())},
              {"observations", opt.num_accepted()}};
  json slices = json::array();
  for (int d = 0; d < std::min(domain.action_dim(), 16); ++d)
    slices.push_back(Slice(opt, best.x, z, d, request.slice_points));
  out["slices"] = slices;
  if (contour)
    out["contour"] = Contour(opt, best.x, z, request.contour_x, request.contour_y, request.grid);
  out["next"] = NextAsk(opt, z);
  const json& next = out["next"];
  Eigen::VectorXd through = best.x;  // the acquisition's slice: through the next ask
  if (next.contains("x")) {
    const std::vector<double> nx = next["x"];
    through = Eigen::Map<const Eigen::VectorXd>(nx.data(), static_cast<Eigen::Index>(nx.size()));
  }
  try {
    out["acquisition"] =
        Acquisition(opt, through, z, request.acquisition_dim, request.slice_points, next);
  } catch (const std::exception& e) {
    out["acquisition"] = {{"error", e.what()}};
  }
  out["pending"] = Pending(opt);
  try {
    out["loo"] = LeaveOneOut(opt);
    out["importance"] = Importance(opt.model());
    out["hyperparameters"] = Hyperparameters(opt, fits);
  } catch (const std::logic_error& e) {  // a finite set kept by rank-one updates has no GP
    out["health_error"] = e.what();
  }
  out["num_constraints"] = opt.num_constraints();
  return out;
}

}  // namespace dashboard
}  // namespace cli
}  // namespace gpbandit
