// The flag checks of command.h: value ranges, names from a list, and output paths, each failing
// with a message in the command line's own words.
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <stdexcept>

#include "cli/command.h"
#include "gpbandit/optimizer/strategy_registry.h"

namespace gpbandit {
namespace cli {

std::string DirectoryOf(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

namespace {

[[noreturn]] void FailPath(const std::string& flag, const std::string& path,
                           const std::string& problem) {
  throw InputError(flag + " " + path + ": " + problem);
}

// Throws unless `directory` exists and this process may create files in it.
void RequireWritableParent(const std::string& flag, const std::string& path,
                           const std::string& directory) {
  struct stat info;
  if (stat(directory.c_str(), &info) != 0)
    FailPath(flag, path,
             "cannot create it: the directory " + directory + " does not exist or cannot be " +
                 "reached (" + std::strerror(errno) + ")");
  if (!S_ISDIR(info.st_mode))
    FailPath(flag, path, "cannot create it: " + directory + " is not a directory");
  if (access(directory.c_str(), W_OK | X_OK) != 0)
    FailPath(flag, path,
             "cannot create it: the directory " + directory + " is not writable (" +
                 std::strerror(errno) + ")");
}

}  // namespace

void RequireAtLeast(const std::string& flag, long long value, long long min) {
  if (value < min)
    throw UsageError(flag + " " + std::to_string(value) + " must be >= " + std::to_string(min));
}

void RequirePositive(const std::string& flag, double value) {
  if (!(value > 0) || !std::isfinite(value))
    throw UsageError(flag + " " + FormatDouble(value) + " must be > 0 and finite");
}

void RequireNonNegative(const std::string& flag, double value) {
  if (!(value >= 0) || !std::isfinite(value))
    throw UsageError(flag + " " + FormatDouble(value) + " must be >= 0 and finite");
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

void RequireOneOf(const std::string& flag, const std::string& value,
                  const std::vector<std::string>& known) {
  for (const std::string& name : known)
    if (name == value) return;
  throw UsageError(flag + " '" + value + "' is unknown; known: " + JoinNames(known));
}

void RequireRegisteredStrategy(const std::string& flag, const std::string& name) {
  const StrategyRegistry& registry = StrategyRegistry::Default();
  if (!registry.Contains(name))
    throw UsageError(flag + " '" + name + "' is not registered; known: " +
                     JoinNames(registry.Names()) + " (gpbandit strategies describes them)");
}

void RequireValidStrategyOptions(const std::string& strategy, const StrategyParams& options) {
  try {
    StrategyRegistry::Default().Create(strategy, options);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--option: ") + e.what());
  }
}

void RequireWritableFile(const std::string& flag, const std::string& path) {
  if (path.empty()) throw UsageError(flag + " needs a file name");
  struct stat info;
  if (stat(path.c_str(), &info) != 0) {
    if (errno != ENOENT)
      FailPath(flag, path, std::string("cannot reach it: ") + std::strerror(errno));
    RequireWritableParent(flag, path, DirectoryOf(path));
    return;
  }
  if (S_ISDIR(info.st_mode)) FailPath(flag, path, "is a directory, not a file");
  if (access(path.c_str(), W_OK) != 0)
    FailPath(flag, path, std::string("cannot write to it: ") + std::strerror(errno));
}

void RequireWritableDirectory(const std::string& flag, const std::string& path) {
  if (path.empty()) throw UsageError(flag + " needs a directory name");
  if (mkdir(path.c_str(), 0755) != 0 && errno != EEXIST)
    FailPath(flag, path, std::string("cannot create the directory: ") + std::strerror(errno));
  struct stat info;
  if (stat(path.c_str(), &info) != 0 || !S_ISDIR(info.st_mode))
    FailPath(flag, path, "is not a directory");
  if (access(path.c_str(), W_OK | X_OK) != 0)
    FailPath(flag, path, std::string("the directory is not writable: ") + std::strerror(errno));
}

}  // namespace cli
}  // namespace gpbandit
