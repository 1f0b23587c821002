// The path scheme: a plain path or file:// URL is a study file or a directory of them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/study_storage.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using testing::ExpectInvalid;

const char kHeader[] = R"({"type":"header","format":"test"})";

// A fresh directory under /tmp, removed (with the files the tests make) at the end.
class FileStudiesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = "/tmp/gpbandit_file_studies_" + std::to_string(::getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ::mkdir(dir_.c_str(), 0700);
  }
  void TearDown() override {
    for (const std::string& name : made_) std::remove((dir_ + "/" + name).c_str());
    ::rmdir(dir_.c_str());
  }
  // Writes a study of `records` tells to dir/<name>.
  void MakeStudy(const std::string& name, int records) {
    std::ofstream out(dir_ + "/" + name);
    out << kHeader << "\n";
    for (int i = 0; i < records; ++i) out << R"({"type":"tell","i":)" << i << "}\n";
    made_.push_back(name);
    made_.push_back(name + ".lock");
  }
  std::string dir_;
  std::vector<std::string> made_;
};

TEST_F(FileStudiesTest, FilePathOfStripsFileUrlsAndKeepsPlainPaths) {
  EXPECT_EQ(FilePathOf("file:///tmp/a.jsonl"), "/tmp/a.jsonl");
  EXPECT_EQ(FilePathOf("relative/a.jsonl"), "relative/a.jsonl");
  EXPECT_EQ(FilePathOf("/abs/a.jsonl"), "/abs/a.jsonl");
  ExpectInvalid([] { FilePathOf("file://host/a.jsonl"); }, "a file URL names a local path");
  ExpectInvalid([] { FilePathOf("file://"); }, "storage 'file://'");
  // A host with credentials is refused without showing them.
  try {
    FilePathOf("file://u:pw@host/a");
    FAIL() << "a host was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), ::testing::Not(::testing::HasSubstr("pw")));
  }
}

TEST_F(FileStudiesTest, ADirectoryListsItsStudiesByNameWithTheirRecords) {
  MakeStudy("b.jsonl", 2);
  MakeStudy("a.jsonl", 0);
  MakeStudy(".hidden.jsonl", 1);  // hidden: left out
  MakeStudy("notes.txt", 1);      // not .jsonl: left out
  MakeStudy(".jsonl", 1);         // no name: left out
  const std::vector<StudySummary> studies = ListFileStudies(dir_, StorageOptions());
  ASSERT_EQ(studies.size(), 2u);
  EXPECT_EQ(studies[0].name, "a");
  EXPECT_EQ(studies[0].records, 0);
  EXPECT_EQ(studies[1].name, "b");
  EXPECT_EQ(studies[1].records, 2);
  EXPECT_EQ(ListFileStudies("file://" + dir_ + "/", StorageOptions()).size(), 2u);
}

TEST_F(FileStudiesTest, AFileListsAsOneUnnamedStudy) {
  MakeStudy("one.jsonl", 3);
  const std::vector<StudySummary> studies = ListFileStudies(dir_ + "/one.jsonl", StorageOptions());
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0].name, "");
  EXPECT_EQ(studies[0].records, 3);
}

TEST_F(FileStudiesTest, ADirectoryOpensAStudyByNameAsAFile) {
  MakeStudy("gains.jsonl", 1);
  const std::unique_ptr<StudyStorage> storage = OpenFileStudy(dir_, "gains", StorageOptions());
  EXPECT_EQ(storage->Describe(), dir_ + "/gains.jsonl");
  const std::unique_ptr<StudySession> session = storage->Begin(LockMode::kShared);
  EXPECT_EQ(session->header(), kHeader);
  EXPECT_EQ(session->ReadAfter(0).size(), 1u);
  // A trailing slash marks a directory even before it exists.
  EXPECT_EQ(OpenFileStudy(dir_ + "/new/", "s", StorageOptions())->Describe(),
            dir_ + "/new/s.jsonl");
}

TEST_F(FileStudiesTest, StudyNamesMustFitTheirPlace) {
  MakeStudy("one.jsonl", 0);
  ExpectInvalid([&] { OpenFileStudy(dir_, "", StorageOptions()); },
                "is a directory, which holds studies by name");
  ExpectInvalid([&] { OpenFileStudy(dir_ + "/one.jsonl", "s", StorageOptions()); },
                "is a file, which holds one study");
  for (const std::string bad : {"../up", ".hidden", "a/b", "sp ace", "tab\t"})
    ExpectInvalid([&] { OpenFileStudy(dir_, bad, StorageOptions()); },
                  "study name '" + bad + "': in a directory, a study is a file name");
  EXPECT_NO_THROW(OpenFileStudy(dir_, "A-b_c.1", StorageOptions()));
  ExpectInvalid([] { OpenFileStudy("", "", StorageOptions()); }, "storage: empty path or URL");
}

}  // namespace
}  // namespace gpbandit
