// One throw-away PostgreSQL server (local_postgres.h) for every test of a program: the program
// runs as one ctest test (tests/CMakeLists.txt, WHOLE), so the server starts once.
//
//   REQUIRE_POSTGRES();                       // at the top of a test that needs it
//   OpenStudyStorage(PostgresServer()->Url(), "study");
//
// In a build without the PostgreSQL backend the tests skip; in a build with it they fail when
// the server cannot start (CI installs it: they must run there).
#ifndef GPBANDIT_TESTS_STORAGE_POSTGRES_ENVIRONMENT_H_
#define GPBANDIT_TESTS_STORAGE_POSTGRES_ENVIRONMENT_H_

#include <gtest/gtest.h>

#include <iostream>
#include <memory>

#include "gpbandit/storage/postgres_storage.h"
#include "tests/storage/local_postgres.h"

namespace gpbandit {
namespace testing {

inline std::unique_ptr<LocalPostgres>& PostgresServerSlot() {
  static std::unique_ptr<LocalPostgres> server;
  return server;
}

// The program's server, or nullptr (then REQUIRE_POSTGRES fails or skips).
inline LocalPostgres* PostgresServer() { return PostgresServerSlot().get(); }

class PostgresEnvironment : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!HavePostgresStorage()) return;
    try {
      PostgresServerSlot() = std::make_unique<LocalPostgres>();
    } catch (const std::exception& e) {
      std::cerr << "cannot start the PostgreSQL test server: " << e.what() << "\n";
    }
  }
  void TearDown() override { PostgresServerSlot().reset(); }
};

}  // namespace testing
}  // namespace gpbandit

#define REQUIRE_POSTGRES()                                                              \
  do {                                                                                  \
    if (!::gpbandit::HavePostgresStorage()) GTEST_SKIP() << "built without PostgreSQL"; \
    ASSERT_NE(::gpbandit::testing::PostgresServer(), nullptr)                           \
        << "the PostgreSQL test server did not start";                                  \
  } while (false)

#endif  // GPBANDIT_TESTS_STORAGE_POSTGRES_ENVIRONMENT_H_
