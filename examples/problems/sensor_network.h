// A simulated building with temperature sensors, standing in for the Intel Research Berkeley
// data of Srinivas et al. (2010, Fig. 5b) and Krause & Ong (2011, Fig. 3), which are not
// available offline.
//
// The floor is a width x depth rectangle with windows on the east (x = width), south (y = 0)
// and west (x = 0) walls. A reading is
//   base + heating (on in working hours, warmest near two vents, warming up and cooling down
//          with a time constant)
//        + sun through each wall's windows (a daily bump peaking at 9 h east, 13 h south,
//          16 h west, decaying with the distance from that wall, scaled by the day's
//          cloudiness)
//        + occupancy heat of two office clusters in working hours
//        + a slowly drifting outside-weather offset shared by all sensors (AR(1))
//        + a fixed per-sensor calibration bias + white reading noise.
// So the hottest sensor moves across the building with the sun during the day, which is what
// makes time of day a useful context.
//
// Deterministic for a given seed.
#ifndef GPBANDIT_EXAMPLES_PROBLEMS_SENSOR_NETWORK_H_
#define GPBANDIT_EXAMPLES_PROBLEMS_SENSOR_NETWORK_H_

#include <Eigen/Core>
#include <cstdint>
#include <string>

#include "examples/io/finite_problem.h"

namespace gpbandit {
namespace problems {

struct SensorNetworkOptions {
  // Number of sensors, >= 2. Default 46 (the Intel Berkeley deployment).
  int num_sensors = 46;
  // Days simulated, >= 3. Default 6.
  int days = 6;
  // Readings per hour, >= 1. Default 6 (every 10 minutes).
  int samples_per_hour = 6;
  // Floor size in m, > 0. Defaults 40 x 30.
  double width = 40.0;
  double depth = 30.0;
  // Standard deviation of the white reading noise in deg C, >= 0. Default 0.3.
  double reading_noise = 0.3;
  // Seed of the layout, weather and noise.
  std::uint64_t seed = 1;

  bool IsValid(std::string* error) const;
};

struct SensorNetworkData {
  Eigen::MatrixXd positions;    // 2 x S, metres
  Eigen::MatrixXd readings;     // S x snapshots, deg C
  Eigen::VectorXd hour_of_day;  // snapshots, in [0, 24)
  Eigen::VectorXi day;          // snapshots, 0-based
};

// Throws std::invalid_argument for invalid options.
SensorNetworkData SimulateSensorNetwork(const SensorNetworkOptions& options);

// Srinivas et al.'s study as a finite problem: candidates are the sensor positions (x1, x2);
// the kernel matrix is the empirical covariance of the readings of the first two thirds of the
// snapshots; the functions are the snapshots of the last third, every `function_stride`-th,
// minus the mean of the training readings (so that a zero prior mean fits; `training_mean`
// receives it).
io::FiniteProblem MakeSensorStudy(const SensorNetworkData& data, int function_stride,
                                  double* training_mean);

// Krause & Ong's contextual version: candidates are (sensor position, hour) for the hours
// 0..23 (z1 = hour of day); the kernel matrix is the same empirical covariance over sensors
// (to be combined with a kernel over the hour); each function is one of the last third's days,
// its on-the-hour readings minus the training mean; the contexts are the hours 0..23 in order
// (round t sees hour (t - 1) mod 24).
io::FiniteProblem MakeContextualSensorStudy(const SensorNetworkData& data, double* training_mean);

}  // namespace problems
}  // namespace gpbandit

#endif  // GPBANDIT_EXAMPLES_PROBLEMS_SENSOR_NETWORK_H_
