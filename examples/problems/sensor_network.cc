#include "examples/problems/sensor_network.h"

#include <cmath>
#include <random>
#include <stdexcept>

#include "gpbandit/numerics/format.h"
#include "gpbandit/numerics/random.h"

namespace gpbandit {
namespace problems {
namespace {

constexpr double kBaseTemperature = 19.0;
constexpr double kWorkStart = 7.0, kWorkEnd = 19.0;

// A smooth daily bump: exp(-(h - peak)^2 / (2 width^2)).
double Bump(double hour, double peak, double width) {
  const double d = hour - peak;
  return std::exp(-d * d / (2 * width * width));
}

}  // namespace

bool SensorNetworkOptions::IsValid(std::string* error) const {
  auto fail = [error](const std::string& what) {
    if (error) *error = "SensorNetworkOptions." + what;
    return false;
  };
  if (num_sensors < 2)
    return fail("num_sensors = " + std::to_string(num_sensors) + " must be >= 2");
  if (days < 3) return fail("days = " + std::to_string(days) + " must be >= 3");
  if (samples_per_hour < 1)
    return fail("samples_per_hour = " + std::to_string(samples_per_hour) + " must be >= 1");
  if (!(width > 0) || !std::isfinite(width))
    return fail("width = " + FormatDouble(width) + " must be > 0");
  if (!(depth > 0) || !std::isfinite(depth))
    return fail("depth = " + FormatDouble(depth) + " must be > 0");
  if (!(reading_noise >= 0) || !std::isfinite(reading_noise))
    return fail("reading_noise = " + FormatDouble(reading_noise) + " must be >= 0");
  return true;
}

namespace {

// Per-sensor exposure to each wall's sun (east, south, west), heating and occupancy (columns
// 0-4): fixed by the layout.
Eigen::MatrixXd Exposure(const Eigen::MatrixXd& positions, const SensorNetworkOptions& o) {
  const Eigen::Vector2d vents[2] = {{0.3 * o.width, 0.7 * o.depth},
                                    {0.75 * o.width, 0.6 * o.depth}};
  const Eigen::Vector2d offices[2] = {{0.2 * o.width, 0.3 * o.depth},
                                      {0.6 * o.width, 0.85 * o.depth}};
  Eigen::MatrixXd exposure(positions.cols(), 5);
  for (Eigen::Index s = 0; s < positions.cols(); ++s) {
    const Eigen::Vector2d p = positions.col(s);
    exposure(s, 0) = std::exp(-(o.width - p(0)) / 5.0);  // east
    exposure(s, 1) = std::exp(-p(1) / 5.0);              // south
    exposure(s, 2) = std::exp(-p(0) / 5.0);              // west
    double heat = 0, people = 0;
    for (int v = 0; v < 2; ++v) heat += std::exp(-(p - vents[v]).squaredNorm() / (2 * 8.0 * 8.0));
    for (int v = 0; v < 2; ++v)
      people += std::exp(-(p - offices[v]).squaredNorm() / (2 * 5.0 * 5.0));
    exposure(s, 3) = heat;
    exposure(s, 4) = people;
  }
  return exposure;
}

}  // namespace

SensorNetworkData SimulateSensorNetwork(const SensorNetworkOptions& o) {
  std::string error;
  if (!o.IsValid(&error)) throw std::invalid_argument(error);
  Rng rng(o.seed);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::normal_distribution<double> normal(0.0, 1.0);

  SensorNetworkData data;
  const int s_count = o.num_sensors;
  data.positions.resize(2, s_count);
  Eigen::VectorXd bias(s_count);
  for (int s = 0; s < s_count; ++s) {
    data.positions(0, s) = o.width * (0.03 + 0.94 * unit(rng));
    data.positions(1, s) = o.depth * (0.03 + 0.94 * unit(rng));
    bias(s) = 0.4 * normal(rng);
  }
  const Eigen::MatrixXd exposure = Exposure(data.positions, o);

  const int per_day = 24 * o.samples_per_hour;
  const int snapshots = o.days * per_day;
  data.readings.resize(s_count, snapshots);
  data.hour_of_day.resize(snapshots);
  data.day.resize(snapshots);
  const double dt = 1.0 / o.samples_per_hour;  // hours
  double weather = 0.0;                        // AR(1) outside offset, deg C
  double heating = 0.0;                        // heating level in [0, 1], first-order response
  Eigen::VectorXd cloud(o.days);
  for (int d = 0; d < o.days; ++d) cloud(d) = 0.4 + 0.6 * unit(rng);  // 1 = clear sky
  const double weather_keep = std::exp(-dt / 12.0);
  for (int k = 0; k < snapshots; ++k) {
    const int d = k / per_day;
    const double hour = (k % per_day) * dt;
    data.hour_of_day(k) = hour;
    data.day(k) = d;
    weather =
        weather_keep * weather + std::sqrt(1 - weather_keep * weather_keep) * 0.8 * normal(rng);
    const bool working = hour >= kWorkStart && hour < kWorkEnd;
    heating += (1.0 - std::exp(-dt / 1.5)) * ((working ? 1.0 : 0.0) - heating);
    const double sun_east = 4.0 * cloud(d) * Bump(hour, 9.0, 1.6);
    const double sun_south = 3.0 * cloud(d) * Bump(hour, 13.0, 1.8);
    const double sun_west = 4.5 * cloud(d) * Bump(hour, 16.5, 1.5);
    const double occupancy = working ? 1.5 * Bump(hour, 13.0, 3.0) : 0.0;
    for (int s = 0; s < s_count; ++s) {
      data.readings(s, k) = kBaseTemperature + weather + 2.0 * heating * (0.5 + exposure(s, 3)) +
                            sun_east * exposure(s, 0) + sun_south * exposure(s, 1) +
                            sun_west * exposure(s, 2) + occupancy * exposure(s, 4) + bias(s) +
                            o.reading_noise * normal(rng);
    }
  }
  return data;
}

namespace {

// The empirical covariance over sensors of the first two thirds of the snapshots, and their
// overall mean.
Eigen::MatrixXd TrainingCovariance(const SensorNetworkData& data, int train, double* mean) {
  const Eigen::MatrixXd readings = data.readings.leftCols(train);
  const Eigen::VectorXd sensor_mean = readings.rowwise().mean();
  const Eigen::MatrixXd centered = readings.colwise() - sensor_mean;
  *mean = readings.mean();
  return centered * centered.transpose() / (train - 1);
}

}  // namespace

io::FiniteProblem MakeSensorStudy(const SensorNetworkData& data, int function_stride,
                                  double* training_mean) {
  if (function_stride < 1)
    throw std::invalid_argument("function_stride = " + std::to_string(function_stride) +
                                " must be >= 1");
  const int snapshots = static_cast<int>(data.readings.cols());
  const int train = 2 * snapshots / 3;
  double mean = 0;
  io::FiniteProblem problem;
  problem.action_dim = 2;
  problem.candidates = data.positions;
  problem.actions = data.positions;
  for (int s = 0; s < data.positions.cols(); ++s) problem.action_index.push_back(s);
  problem.kernel_matrix = TrainingCovariance(data, train, &mean);
  const int count = (snapshots - train + function_stride - 1) / function_stride;
  problem.functions.resize(data.readings.rows(), count);
  for (int f = 0; f < count; ++f)
    problem.functions.col(f) = data.readings.col(train + f * function_stride).array() - mean;
  if (training_mean) *training_mean = mean;
  return problem;
}

io::FiniteProblem MakeContextualSensorStudy(const SensorNetworkData& data, double* training_mean) {
  const int snapshots = static_cast<int>(data.readings.cols());
  const int sensors = static_cast<int>(data.readings.rows());
  const int train = 2 * snapshots / 3;
  const int days = data.day(snapshots - 1) + 1;
  const int per_day = snapshots / days;
  const int per_hour = per_day / 24;
  const int first_test_day = (train + per_day - 1) / per_day;
  double mean = 0;
  io::FiniteProblem problem;
  problem.action_dim = 2;
  problem.context_dim = 1;
  problem.kernel_matrix = TrainingCovariance(data, train, &mean);
  problem.actions = data.positions;
  problem.candidates.resize(3, sensors * 24);
  for (int h = 0; h < 24; ++h) {
    for (int s = 0; s < sensors; ++s) {
      const int i = h * sensors + s;
      problem.candidates.col(i) << data.positions.col(s), static_cast<double>(h);
      problem.action_index.push_back(s);
    }
  }
  const int test_days = days - first_test_day;
  if (test_days < 1) throw std::invalid_argument("the simulation has no complete test day");
  problem.functions.resize(sensors * 24, test_days);
  for (int d = 0; d < test_days; ++d) {
    for (int h = 0; h < 24; ++h) {
      const int k = (first_test_day + d) * per_day + h * per_hour;
      problem.functions.col(d).segment(h * sensors, sensors) = data.readings.col(k).array() - mean;
    }
  }
  problem.contexts.resize(1, 24);
  for (int h = 0; h < 24; ++h) problem.contexts(0, h) = h;
  if (training_mean) *training_mean = mean;
  return problem;
}

}  // namespace problems
}  // namespace gpbandit
