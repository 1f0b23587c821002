// The PostgreSQL backend's entry points in a build without libpqxx (postgres_storage.h).
#include <stdexcept>

#include "gpbandit/storage/postgres_storage.h"

namespace gpbandit {
namespace {

[[noreturn]] void Unavailable() {
  throw std::invalid_argument(
      "the storage schemes postgresql:// and postgres:// are not available: this build of "
      "gpbandit has no PostgreSQL support (libpqxx was not found when it was built: install "
      "libpqxx-dev and rebuild)");
}

}  // namespace

bool HavePostgresStorage() { return false; }

std::unique_ptr<StudyStorage> OpenPostgresStudy(const std::string&, const std::string&,
                                                const StorageOptions&) {
  Unavailable();
}

std::vector<StudySummary> ListPostgresStudies(const std::string&, const StorageOptions&) {
  Unavailable();
}

}  // namespace gpbandit
