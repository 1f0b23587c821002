// StorageOptions' checks and the registry entry points of study_storage.h (RedactUrl,
// OpenStudyStorage, ListStudies) on the built-in path scheme.
#include "gpbandit/storage/study_storage.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <limits>
#include <memory>
#include <string>

#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;

using testing::kInf;

std::string Error(const StorageOptions& options) {
  std::string error;
  EXPECT_FALSE(options.IsValid(&error));
  EXPECT_FALSE(options.IsValid(nullptr));
  return error;
}

TEST(StorageOptionsTest, DefaultsAndEdgesAreValid) {
  std::string error;
  EXPECT_TRUE(StorageOptions().IsValid(&error)) << error;
  StorageOptions edges;
  edges.reconnect_timeout_seconds = 0.0;
  edges.lock_lease_seconds = kInf;  // a lease that never expires
  EXPECT_TRUE(edges.IsValid(&error)) << error;
}

TEST(StorageOptionsTest, OutOfRangeValuesAreRefusedByName) {
  StorageOptions o;
  o.reconnect_timeout_seconds = -1.0;
  EXPECT_THAT(Error(o), HasSubstr("reconnect_timeout_seconds must be finite and >= 0, got -1"));
  o.reconnect_timeout_seconds = kInf;
  EXPECT_THAT(Error(o), HasSubstr("reconnect_timeout_seconds"));
  o.reconnect_timeout_seconds = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(Error(o), HasSubstr("reconnect_timeout_seconds"));
  o = StorageOptions();
  o.lock_lease_seconds = 0.0;
  EXPECT_THAT(Error(o), HasSubstr("lock_lease_seconds must be > 0 (or infinity), got 0"));
  o.lock_lease_seconds = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THAT(Error(o), HasSubstr("lock_lease_seconds"));
}

TEST(StudyStorageTest, RedactUrlMasksEveryScheme) {
  EXPECT_EQ(RedactUrl("postgresql://u:pw@db/x"), "postgresql://u:***@db/x");
  // An unregistered spelling of a scheme still gets the generic rules.
  EXPECT_EQ(RedactUrl("POSTGRESQL://u:pw@db/x?password=q"), "POSTGRESQL://u:***@db/x?password=***");
  EXPECT_EQ(RedactUrl("/tmp/a/study.jsonl"), "/tmp/a/study.jsonl");
}

TEST(StudyStorageTest, OpenAndListAStudyFileThroughThePathScheme) {
  const std::string path =
      "/tmp/gpbandit_study_storage_test_" + std::to_string(::getpid()) + ".jsonl";
  std::remove(path.c_str());
  {
    const std::unique_ptr<StudyStorage> storage = OpenStudyStorage(path, "");
    ASSERT_NE(storage, nullptr);
    EXPECT_EQ(storage->Describe(), path);
    const std::unique_ptr<StudySession> session = storage->Begin(LockMode::kExclusive);
    session->CreateStudy(R"({"type":"header","format":"test"})");
    session->Append(R"({"type":"tell","n":1})");
    session->Append(R"({"type":"tell","n":2})");
    session->Commit(Durability::kDurable);
  }
  const std::vector<StudySummary> studies = ListStudies(path);
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0].name, "");
  EXPECT_EQ(studies[0].records, 2);
  std::remove(path.c_str());
  std::remove((path + ".lock").c_str());
}

}  // namespace
}  // namespace gpbandit
