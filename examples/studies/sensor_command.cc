// gpbandit sensor-data: simulates the building (problems/sensor_network.h) and writes both
// sensor studies in the finite-problem format, with the commands that run them.
#include <ostream>

#include "cli/io/csv.h"
#include "examples/commands.h"
#include "examples/io/finite_problem.h"
#include "examples/problems/sensor_network.h"

namespace gpbandit {
namespace examples {

namespace {

// The raw readings (day, hour, one column per sensor) and the sensors' positions, so that other
// covariance estimates can be tried.
void WriteReadings(const problems::SensorNetworkData& data, const std::string& dir) {
  Eigen::MatrixXd raw(data.readings.cols(), 2 + data.readings.rows());
  raw.col(0) = data.day.cast<double>();
  raw.col(1) = data.hour_of_day;
  raw.rightCols(data.readings.rows()) = data.readings.transpose();
  std::vector<std::string> header = {"day", "hour"};
  for (const std::string& s : io::NumberedNames("s", static_cast<int>(data.readings.rows())))
    header.push_back(s);
  io::WriteNumericCsv(dir + "/readings.csv", header, raw);
  io::WriteNumericCsv(dir + "/positions.csv", {"x1", "x2"}, data.positions.transpose());
}

// What was written, and the two `gpbandit run` commands that reproduce the papers' figures.
void PrintStudies(const std::string& dir, const io::FiniteProblem& study,
                  const io::FiniteProblemFiles& files, const io::FiniteProblem& contextual,
                  const io::FiniteProblemFiles& ctx_files, double mean, std::ostream& out) {
  out << "wrote " << dir << "/: readings.csv, positions.csv, candidates.csv, kernel.csv, "
      << "functions.csv (" << study.functions.cols() << " snapshots), ctx_candidates.csv, "
      << "ctx_functions.csv (" << contextual.functions.cols() << " days), ctx_contexts.csv\n"
      << "payoffs are temperatures minus the training mean " << mean << " deg C\n\n"
      << "Srinivas et al. Fig. 5b:\n"
      << "  gpbandit run --problem file --candidates " << files.candidates << " --kernel-matrix "
      << files.kernel_matrix << " --functions " << files.functions
      << " --strategy gp-ucb,ei,pi,mean,variance --beta-scale 0.2 --rounds 50"
      << " --trials " << study.functions.cols() << "\n"
      << "Krause & Ong Fig. 3 (time of day as context):\n"
      << "  gpbandit run --problem file --candidates " << ctx_files.candidates
      << " --kernel-matrix " << ctx_files.kernel_matrix << " --functions " << ctx_files.functions
      << " --contexts " << ctx_files.contexts
      << " --strategy cgp-ucb --context-mode joint,ignore,merge --kernel se --beta-scale 0.2"
      << " --rounds 96 --trials 10\n";
}

}  // namespace

int SensorDataCommand(const std::vector<std::string>& args, cli::Streams streams) {
  problems::SensorNetworkOptions o;
  o.seed = cli::kDefaultSeed;
  std::string dir = "sensor-data";
  int stride = 6;
  cli::po::options_description desc("options (defaults in parentheses)");
  desc.add_options()("out-dir", cli::ValueWithDefault(&dir), "directory for the CSV files")(
      "sensors", cli::ValueWithDefault(&o.num_sensors), "number of sensors")(
      "days", cli::ValueWithDefault(&o.days), "days simulated")(
      "samples-per-hour", cli::ValueWithDefault(&o.samples_per_hour), "readings per hour")(
      "noise-sd", cli::ValueWithDefault(&o.reading_noise),
      "standard deviation of a reading's noise, deg C")(
      "stride", cli::ValueWithDefault(&stride),
      "use every stride-th test snapshot as a function (study 1)")(
      "seed", cli::ValueWithDefault(&o.seed), "seed of layout, weather, noise");
  cli::po::variables_map vm;
  cli::DeprecatedFlags deprecated;  // the old spelling --reading-noise, now --noise-sd
  deprecated.renamed = {{"reading-noise", "noise-sd"}};
  if (!cli::ParseArguments("sensor-data", "[--out-dir DIR] [options]", args, desc, deprecated, &vm,
                           streams))
    return cli::kExitOk;
  // The simulation's own limits, in the flags' names (SensorNetworkOptions::IsValid checks
  // them again, with the fields' names).
  cli::RequireAtLeast("--sensors", o.num_sensors, 2);
  cli::RequireAtLeast("--days", o.days, 3);
  cli::RequireAtLeast("--samples-per-hour", o.samples_per_hour, 1);
  cli::RequireNonNegative("--noise-sd", o.reading_noise);
  cli::RequireAtLeast("--stride", stride, 1);
  std::string error;
  if (!o.IsValid(&error)) throw cli::UsageError(error);
  cli::RequireWritableDirectory("--out-dir", dir);

  const problems::SensorNetworkData data = problems::SimulateSensorNetwork(o);
  WriteReadings(data, dir);
  double mean = 0;
  const io::FiniteProblem study = problems::MakeSensorStudy(data, stride, &mean);
  const io::FiniteProblemFiles files{dir + "/candidates.csv", dir + "/kernel.csv",
                                     dir + "/functions.csv", ""};
  io::WriteFiniteProblem(study, files);
  const io::FiniteProblem contextual = problems::MakeContextualSensorStudy(data, &mean);
  const io::FiniteProblemFiles ctx_files{dir + "/ctx_candidates.csv", dir + "/kernel.csv",
                                         dir + "/ctx_functions.csv", dir + "/ctx_contexts.csv"};
  io::WriteFiniteProblem(contextual, ctx_files);
  PrintStudies(dir, study, files, contextual, ctx_files, mean, streams.out);
  return cli::kExitOk;
}

}  // namespace examples
}  // namespace gpbandit
