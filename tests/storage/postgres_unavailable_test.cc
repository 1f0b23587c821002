// The PostgreSQL entry points of a build without libpqxx (storage/postgres_unavailable.cc). A
// build with PostgreSQL links the real ones instead, so the file's definitions are compiled here
// into a namespace of their own and tested in every build; the library's own entry points are
// checked too when this build lacks PostgreSQL.
#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/storage/study_storage.h"

namespace unavailable {
namespace gpbandit {
using namespace ::gpbandit;  // NOLINT: the file's types, as it sees them in ::gpbandit
}  // namespace gpbandit
#include "storage/postgres_unavailable.cc"
}  // namespace unavailable

namespace gpbandit {
namespace {

// The message of the std::invalid_argument `f` throws ("" if it throws none).
template <typename F>
std::string InvalidArgument(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

void ExpectExplainsTheMissingSupport(const std::string& message) {
  EXPECT_NE(message.find("postgresql://"), std::string::npos) << message;
  EXPECT_NE(message.find("not available"), std::string::npos) << message;
  EXPECT_NE(message.find("libpqxx-dev"), std::string::npos) << message;  // how to mend it
}

TEST(PostgresUnavailable, SaysThereIsNoPostgresStorage) {
  EXPECT_FALSE(unavailable::gpbandit::HavePostgresStorage());
}

TEST(PostgresUnavailable, OpeningAStudyExplainsWhatIsMissing) {
  const std::string message = InvalidArgument([] {
    unavailable::gpbandit::OpenPostgresStudy("postgresql://u:pw@db/x", "runs", StorageOptions());
  });
  ExpectExplainsTheMissingSupport(message);
  EXPECT_EQ(message.find("pw@"), std::string::npos) << message;  // names no URL, so no password
}

TEST(PostgresUnavailable, ListingStudiesExplainsWhatIsMissing) {
  ExpectExplainsTheMissingSupport(InvalidArgument(
      [] { unavailable::gpbandit::ListPostgresStudies("postgres://db/x", StorageOptions()); }));
}

// The library's own entry points are the unavailable ones exactly when HavePostgresStorage()
// says so: without PostgreSQL they explain what is missing; with it, the real backend answers
// (here its check of the study's name, which comes before any connection).
TEST(PostgresUnavailable, ThisBuildsEntryPointsAgreeWithHavePostgresStorage) {
  if (!HavePostgresStorage()) {
    ExpectExplainsTheMissingSupport(
        InvalidArgument([] { OpenPostgresStudy("postgresql://db/x", "runs", StorageOptions()); }));
    ExpectExplainsTheMissingSupport(
        InvalidArgument([] { ListPostgresStudies("postgresql://db/x", StorageOptions()); }));
    return;
  }
  const std::string message =
      InvalidArgument([] { OpenPostgresStudy("postgresql://db/x", "", StorageOptions()); });
  EXPECT_NE(message.find("needs a name"), std::string::npos) << message;
  EXPECT_EQ(message.find("not available"), std::string::npos) << message;
}

}  // namespace
}  // namespace gpbandit
