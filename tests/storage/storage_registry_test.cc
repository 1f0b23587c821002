// The storage registry (storage/storage_registry.h): every registered scheme is reachable by
// its URLs and keeps credentials out of messages; unknown and unavailable schemes are refused
// naming the scheme; a scheme registered at run time is one Register call away from
// OpenStudyStorage and ListStudies; plain paths and file:// URLs are the file backend.
#include "gpbandit/storage/storage_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "gpbandit/storage/file_storage.h"
#include "gpbandit/storage/postgres_storage.h"
#include "gpbandit/storage/study_storage.h"
#include "tests/storage/memory_storage.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The message of the std::invalid_argument that f throws, or fails the test.
template <typename F>
std::string InvalidArgumentOf(F f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  ADD_FAILURE() << "no std::invalid_argument";
  return "";
}

TEST(StorageRegistryTest, TheBuiltInSchemes) {
  for (const char* name : {"file", "postgres", "postgresql"})
    EXPECT_TRUE(StorageRegistry::Default().Contains(name)) << name;
  EXPECT_EQ(StorageRegistry::Default().Scheme("postgresql").unavailable.empty(),
            HavePostgresStorage());
}

TEST(StorageRegistryTest, EverySchemeIsReachedByItsUrlsAndDescribed) {
  const StorageRegistry& registry = StorageRegistry::Default();
  for (const std::string& name : registry.Names()) {
    EXPECT_EQ(StorageRegistry::SchemeOf(name + "://host/x"), name);
    EXPECT_TRUE(registry.Contains(name));
    const StorageScheme scheme = registry.Scheme(name);
    EXPECT_FALSE(scheme.description.empty()) << name;
    EXPECT_TRUE(scheme.open || !scheme.unavailable.empty()) << name;
  }
}

TEST(StorageRegistryTest, EverySchemeKeepsPasswordsOutOfItsUrls) {
  const StorageRegistry& registry = StorageRegistry::Default();
  for (const std::string& name : registry.Names()) {
    if (name == kPathScheme) continue;  // paths carry no credentials
    const std::string redacted = registry.Redact(name + "://alice:s3cret@db.lab:5432/x");
    EXPECT_EQ(redacted, name + "://alice:***@db.lab:5432/x");
    // The refusal of an unreachable or unavailable storage does not show the password either.
    try {
      registry.Open(name + "://alice:s3cret@127.0.0.1:1/x", "study", StorageOptions{true, 0.0});
      ADD_FAILURE() << name << ": opened an unreachable storage";
    } catch (const std::exception& e) {
      EXPECT_THAT(e.what(), Not(HasSubstr("s3cret"))) << name;
    }
  }
  EXPECT_EQ(registry.Redact("/data/runs:with@signs.jsonl"), "/data/runs:with@signs.jsonl");
  EXPECT_EQ(registry.Redact("unknown://bob:pw@host/x"), "unknown://bob:***@host/x");
}

TEST(StorageRegistryTest, SchemeOfUrlsAndPlainPaths) {
  EXPECT_EQ(StorageRegistry::SchemeOf("postgresql://db/x"), "postgresql");
  EXPECT_EQ(StorageRegistry::SchemeOf("my+scheme.v2://x"), "my+scheme.v2");
  for (const char* path :
       {"runs.jsonl", "studies/", "/data/runs:with@signs.jsonl", "1abc://x", "a b://x", "://x", ""})
    EXPECT_EQ(StorageRegistry::SchemeOf(path), kPathScheme) << path;
}

TEST(StorageRegistryTest, UnknownSchemeIsRefusedNamingItAndTheRegisteredOnes) {
  for (bool list : {false, true}) {
    const std::string message = InvalidArgumentOf([&] {
      if (list) return static_cast<void>(ListStudies("foo://alice:pw@host/x"));
      OpenStudyStorage("foo://alice:pw@host/x", "s");
    });
    EXPECT_THAT(message, HasSubstr("unknown scheme 'foo://'"));
    EXPECT_THAT(message, Not(HasSubstr(":pw@")));
    for (const std::string& name : StorageRegistry::Default().Names())
      EXPECT_THAT(message, HasSubstr(name));
  }
}

TEST(StorageRegistryTest, UnavailableSchemeNamesItselfAndWhy) {
  StorageRegistry registry;
  StorageScheme absent;
  absent.unavailable = "this build has no lab-db client (install liblabdb-dev)";
  registry.Register("labdb", absent);
  for (bool list : {false, true}) {
    const std::string message = InvalidArgumentOf([&] {
      if (list) return static_cast<void>(registry.List("labdb://host/x"));
      registry.Open("labdb://host/x", "s");
    });
    EXPECT_THAT(message, HasSubstr("the scheme 'labdb://' is not available"));
    EXPECT_THAT(message, HasSubstr("install liblabdb-dev"));
  }
  if (!HavePostgresStorage()) {
    EXPECT_THAT(InvalidArgumentOf([] { OpenStudyStorage("postgresql://db/x", "s"); }),
                HasSubstr("the scheme 'postgresql://' is not available"));
  }
}

TEST(StorageRegistryTest, RegisterRefusesBadNamesEntriesAndDuplicates) {
  StorageRegistry registry;
  testing::MemoryStudies server;
  for (const char* bad : {"", "Memory", "1x", "a b", "x:", "x://"})
    EXPECT_THROW(registry.Register(bad, testing::MemoryScheme(&server)), std::invalid_argument)
        << bad;
  EXPECT_THROW(registry.Register("empty", StorageScheme()), std::invalid_argument);
  registry.Register("memory", testing::MemoryScheme(&server));
  EXPECT_THROW(registry.Register("memory", testing::MemoryScheme(&server)), std::invalid_argument);
  EXPECT_EQ(registry.Names(), std::vector<std::string>{"memory"});
  EXPECT_THROW(registry.Scheme("other"), std::invalid_argument);
}

// A scheme registered at run time: OpenStudyStorage and ListStudies reach it through the
// default registry, with the whole URL and the study's name.
TEST(StorageRegistryTest, ARegisteredSchemeIsOneRegisterCallAway) {
  static testing::MemoryStudies server;  // outlives the process-wide registry's use of it
  StorageRegistry::Default().Register("memory-registry-test", testing::MemoryScheme(&server));
  const std::string url = "memory-registry-test://lab";
  std::unique_ptr<StudyStorage> storage = OpenStudyStorage(url, "gains");
  EXPECT_EQ(storage->Describe(), "study 'gains' in " + url);
  {
    auto session = storage->Begin(LockMode::kExclusive);
    session->CreateStudy(R"({"type":"header"})");
    session->Append(R"({"type":"tell","y":1})");
    EXPECT_EQ(session->Commit(Durability::kDurable), 1);
  }
  const std::vector<StudySummary> studies = ListStudies(url);
  ASSERT_EQ(studies.size(), 1u);
  EXPECT_EQ(studies[0].name, "gains");
  EXPECT_EQ(studies[0].records, 1);
  // A second storage object on the study sees the record.
  const std::unique_ptr<StudyStorage> second = OpenStudyStorage(url, "gains");
  const std::unique_ptr<StudySession> reader = second->Begin(LockMode::kShared);
  EXPECT_EQ(reader->header(), R"({"type":"header"})");
  ASSERT_EQ(reader->ReadAfter(0).size(), 1u);
  EXPECT_EQ(reader->ReadAfter(0)[0].type, "tell");
}

TEST(StorageRegistryTest, SchemeWithoutListOrOpeningNothingIsRefused) {
  StorageRegistry registry;
  StorageScheme scheme;
  scheme.open = [](const std::string&, const std::string&, const StorageOptions&) {
    return std::unique_ptr<StudyStorage>();
  };
  registry.Register("null", scheme);
  EXPECT_THAT(InvalidArgumentOf([&] { registry.List("null://x"); }),
              HasSubstr("the scheme 'null://' cannot list its studies"));
  EXPECT_THROW(registry.Open("null://x", "s"), std::runtime_error);
  EXPECT_THROW(registry.Open("", "s"), std::invalid_argument);
  StorageOptions bad;
  bad.reconnect_timeout_seconds = -1;
  EXPECT_THROW(registry.Open("null://x", "s", bad), std::invalid_argument);
}

TEST(StorageRegistryTest, FileUrlsArePaths) {
  char pattern[] = "/tmp/gpbandit_registry_XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::string dir = pattern;
  EXPECT_EQ(OpenStudyStorage("file://" + dir, "a")->Describe(), dir + "/a.jsonl");
  EXPECT_EQ(OpenStudyStorage("file://" + dir + "/b.jsonl", "")->Describe(), dir + "/b.jsonl");
  EXPECT_EQ(FilePathOf("runs.jsonl"), "runs.jsonl");
  EXPECT_THROW(OpenStudyStorage("file://host/x.jsonl", ""), std::invalid_argument);
  std::system(("rm -rf '" + dir + "'").c_str());
}

// Registration, lookups and opening from several threads at once (ThreadSanitizer: label
// `threads`): every scheme lands, every open reaches its own scheme.
TEST(StorageRegistryTest, ConcurrentRegistrationAndOpening) {
  StorageRegistry registry;
  testing::MemoryStudies server;
  const int kThreads = 4, kSchemes = 8;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < kSchemes; ++i) {
        const std::string name = "m" + std::to_string(t) + "-" + std::to_string(i);
        registry.Register(name, testing::MemoryScheme(&server));
        const auto storage = registry.Open(name + "://x", name);
        EXPECT_EQ(storage->Describe(), "study '" + name + "' in " + name + "://x");
        EXPECT_TRUE(registry.Contains(name));
        registry.Names();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(registry.Names().size(), static_cast<std::size_t>(kThreads * kSchemes));
}

}  // namespace
}  // namespace gpbandit
