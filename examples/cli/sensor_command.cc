// gpbandit sensor-data: simulates the building (problems/sensor_network.h) and writes both
// sensor studies in the finite-problem format, with the commands that run them.
#include <sys/stat.h>

#include <cerrno>
#include <ostream>

#include "gpbandit/examples/cli/commands.h"
#include "gpbandit/examples/io/csv.h"
#include "gpbandit/examples/io/finite_problem.h"
#include "gpbandit/examples/problems/sensor_network.h"

namespace gpbandit {
namespace cli {

int SensorDataCommand(const std::vector<std::string>& args, Streams streams) {
  problems::SensorNetworkOptions o;
  std::string dir = "sensor-data";
  int stride = 6;
  po::options_description desc("options (defaults in brackets)");
  desc.add_options()
      ("out-dir", po::value(&dir)->default_value(dir), "directory for the CSV files")
      ("sensors", po::value(&o.num_sensors)->default_value(o.num_sensors), "number of sensors")
      ("days", po::value(&o.days)->default_value(o.days), "days simulated")
      ("samples-per-hour", po::value(&o.samples_per_hour)->default_value(o.samples_per_hour),
       "readings per hour")
      ("reading-noise", po::value(&o.reading_noise)->default_value(o.reading_noise),
       "sd of a reading's noise, deg C")
      ("stride", po::value(&stride)->default_value(stride),
       "use every stride-th test snapshot as a function (study 1)")
      ("seed", po::value(&o.seed)->default_value(o.seed), "seed of layout, weather, noise");
  po::variables_map vm;
  if (!ParseArguments("sensor-data", "[--out-dir DIR] [options]", args, desc, &vm, streams.out))
    return kExitOk;
  std::string error;
  if (!o.IsValid(&error)) throw UsageError(error);
  if (stride < 1) throw UsageError("--stride " + std::to_string(stride) + " must be >= 1");
  if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST)
    throw std::runtime_error(dir + ": cannot create directory");

  const problems::SensorNetworkData data = problems::SimulateSensorNetwork(o);
  // The raw readings too, so that other covariance estimates can be tried.
  Eigen::MatrixXd raw(data.readings.cols(), 2 + data.readings.rows());
  raw.col(0) = data.day.cast<double>();
  raw.col(1) = data.hour_of_day;
  raw.rightCols(data.readings.rows()) = data.readings.transpose();
  std::vector<std::string> header = {"day", "hour"};
  for (const std::string& s : io::NumberedNames("s", static_cast<int>(data.readings.rows())))
    header.push_back(s);
  io::WriteNumericCsv(dir + "/readings.csv", header, raw);
  io::WriteNumericCsv(dir + "/positions.csv", {"x1", "x2"}, data.positions.transpose());

  double mean = 0;
  const io::FiniteProblem study = problems::MakeSensorStudy(data, stride, &mean);
  io::FiniteProblemFiles files{dir + "/candidates.csv", dir + "/kernel.csv",
                               dir + "/functions.csv", ""};
  io::WriteFiniteProblem(study, files);
  const io::FiniteProblem contextual = problems::MakeContextualSensorStudy(data, &mean);
  io::FiniteProblemFiles ctx_files{dir + "/ctx_candidates.csv", dir + "/kernel.csv",
                                   dir + "/ctx_functions.csv", dir + "/ctx_contexts.csv"};
  io::WriteFiniteProblem(contextual, ctx_files);

  streams.out << "wrote " << dir << "/: readings.csv, positions.csv, candidates.csv, kernel.csv, "
              << "functions.csv (" << study.functions.cols() << " snapshots), ctx_candidates.csv, "
              << "ctx_functions.csv (" << contextual.functions.cols()
              << " days), ctx_contexts.csv\n"
              << "payoffs are temperatures minus the training mean " << mean << " deg C\n\n"
              << "Srinivas et al. Fig. 5b:\n"
              << "  gpbandit run --problem file --candidates " << files.candidates
              << " --kernel-matrix " << files.kernel_matrix << " --functions " << files.functions
              << " --strategy gp-ucb,ei,pi,mean,variance --beta-scale 0.2 --noise 0.5 --T 50"
              << " --trials " << study.functions.cols() << "\n"
              << "Krause & Ong Fig. 3 (time of day as context):\n"
              << "  gpbandit run --problem file --candidates " << ctx_files.candidates
              << " --kernel-matrix " << ctx_files.kernel_matrix << " --functions "
              << ctx_files.functions << " --contexts " << ctx_files.contexts
              << " --strategy cgp-ucb --context-mode joint,ignore,merge --beta-scale 0.2"
              << " --noise 0.5 --T 96 --trials 10\n";
  return kExitOk;
}

}  // namespace cli
}  // namespace gpbandit
