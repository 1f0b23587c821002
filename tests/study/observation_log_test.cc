#include "gpbandit/study/observation_log.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <limits>
#include <stdexcept>

#include "examples/problems/synthetic_functions.h"
#include "gpbandit/optimizer/optimizer.h"
#include "gpbandit/storage/file_storage.h"
#include "tests/optimizer/plugin_test_util.h"
#include "tests/test_util.h"

namespace gpbandit {
namespace {

using ::testing::HasSubstr;
using testing::ReadFile;
using testing::ReadLogWithoutLeases;
using testing::TempLogPath;

void Append(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::app);
  out << text;
}

// A new study in the file at `path`: the header and the records, committed by the file backend.
void WriteStudy(const std::string& path, const std::string& header,
                const std::vector<std::string>& records) {
  FileStudyStorage storage(path, /*sync=*/false);
  const std::unique_ptr<StudySession> session = storage.Begin(LockMode::kExclusive);
  session->CreateStudy(header);
  for (const std::string& r : records) session->Append(r);
  session->Commit(Durability::kDurable);
}

TEST(ObservationLogTest, DoublesRoundTripBitForBit) {
  Rng rng(testing::TestSeed(77));
  std::uniform_int_distribution<std::uint64_t> bits;
  const std::string path = TempLogPath("roundtrip");
  std::vector<Eigen::VectorXd> written;
  std::vector<std::string> records;
  {
    for (int i = 0; i < 500; ++i) {
      Eigen::VectorXd x(4);
      for (int k = 0; k < 4; ++k) {
        double v;
        do {
          const std::uint64_t b = bits(rng);
          std::memcpy(&v, &b, sizeof v);  // any finite double: subnormals, huge, tiny
        } while (!std::isfinite(v));
        x(k) = v;
      }
      x(3) = 0.1 * i;  // plus ordinary decimals, which print short
      written.push_back(x);
      records.push_back(FormatTellRecord(x, Eigen::VectorXd(), x(0), true));
    }
  }
  WriteStudy(path, R"({"type":"header"})", records);
  const LogContents read = ReadLog(path);
  ASSERT_EQ(read.records.size(), 501u);
  for (int i = 0; i < 500; ++i) {
    const LogRecord& r = read.records[static_cast<std::size_t>(i + 1)];
    for (int k = 0; k < 4; ++k) {
      EXPECT_EQ(std::memcmp(&r.x(k), &written[static_cast<std::size_t>(i)](k), sizeof(double)), 0)
          << "record " << i << " coordinate " << k;
    }
    EXPECT_EQ(r.y, written[static_cast<std::size_t>(i)](0));
  }
  EXPECT_FALSE(read.dropped_torn_line);
  std::remove(path.c_str());
}

TEST(ObservationLogTest, NonFiniteRewardsAreWrittenAsStrings) {
  const std::string path = TempLogPath("nonfinite");
  WriteStudy(path, R"({"type":"header"})",
             {FormatTellRecord(Eigen::Vector2d(1, 2), Eigen::VectorXd(), std::nan(""), false),
              FormatTellRecord(Eigen::Vector2d(1, 2), Eigen::VectorXd(), -HUGE_VAL, false)});
  EXPECT_THAT(ReadFile(path), HasSubstr(R"("y":"nan")"));
  EXPECT_THAT(ReadFile(path), HasSubstr(R"("y":"-inf")"));
  const LogContents read = ReadLog(path);
  EXPECT_TRUE(std::isnan(read.records[1].y));
  EXPECT_EQ(read.records[2].y, -HUGE_VAL);
  EXPECT_FALSE(read.records[2].accepted);
  std::remove(path.c_str());
}

// A pending record with a trial number and a drawn round, and a tell with a trial number and a
// refit claim: each field is written under its own name and read back into its own member.
TEST(ObservationLogTest, TrialsDrawnRoundsAndRefitClaimsReadBackIntoTheirOwnFields) {
  const Eigen::Vector2d x(0.25, 0.75);
  const LogRecord pending = ParseLogRecord(FormatPendingRecord(
      /*round=*/9, /*design_index=*/-1, x, Eigen::VectorXd(), "w", /*lease_until=*/100.5,
      /*trial=*/4, /*drawn_round=*/7));
  EXPECT_EQ(pending.type, LogRecordType::kPending);
  EXPECT_EQ(pending.round, 9);
  EXPECT_EQ(pending.trial, 4);
  EXPECT_EQ(pending.drawn_round, 7);
  EXPECT_EQ(pending.lease_until, 100.5);
  // A drawn round equal to the round is not written, nor are absent fields.
  const std::string same_round =
      FormatPendingRecord(9, -1, x, Eigen::VectorXd(), "w", 100.5, /*trial=*/4, /*drawn_round=*/9);
  EXPECT_THAT(same_round, ::testing::Not(HasSubstr("drawn_round")));
  EXPECT_EQ(ParseLogRecord(same_round).drawn_round, -1);
  const LogRecord bare = ParseLogRecord(FormatPendingRecord(9, -1, x, Eigen::VectorXd(), "w", 1.0));
  EXPECT_EQ(bare.trial, -1);
  EXPECT_EQ(bare.drawn_round, -1);

  const LogRecord tell = ParseLogRecord(FormatTellRecord(
      x, Eigen::VectorXd(), 1.5, true, std::nan(""), /*round=*/9, Eigen::VectorXd(),
      /*trial=*/4, /*refit_claim=*/1234.25, /*claimant=*/"host:42"));
  EXPECT_EQ(tell.type, LogRecordType::kTell);
  EXPECT_EQ(tell.round, 9);
  EXPECT_EQ(tell.trial, 4);
  EXPECT_EQ(tell.refit_claim, 1234.25);
  EXPECT_EQ(tell.worker, "host:42");
  const LogRecord unclaimed = ParseLogRecord(FormatTellRecord(
      x, Eigen::VectorXd(), 1.5, true, std::nan(""), 9, Eigen::VectorXd(), /*trial=*/4));
  EXPECT_EQ(unclaimed.trial, 4);
  EXPECT_TRUE(std::isnan(unclaimed.refit_claim));
  EXPECT_EQ(unclaimed.worker, "");
}

TEST(ObservationLogTest, MissingFileIsEmptyAndCorruptMiddleLineThrows) {
  EXPECT_TRUE(ReadLog(TempLogPath("missing")).records.empty());
  const std::string path = TempLogPath("corrupt");
  Append(path, "{\"type\":\"header\"}\nnot json\n{\"type\":\"clear_pending\"}\n");
  try {
    ReadLog(path);
    ADD_FAILURE() << "expected a runtime_error";
  } catch (const std::runtime_error& e) {
    EXPECT_THAT(e.what(), HasSubstr(path + ":2"));
  }
  std::remove(path.c_str());
  Append(path, "{\"type\":\"clear_pending\"}\n");
  EXPECT_THROW(ReadLog(path), std::runtime_error);  // no header first
  std::remove(path.c_str());
}

// A crash mid-write leaves a torn last line: it is dropped with a warning, everything before it
// is kept, the file is cut back before the next append, and the run continues exactly.
TEST(ObservationLogTest, TornLastLineIsDroppedAndTheRunContinuesExactly) {
  const auto f = problems::MakeBranin();
  const Domain d = Domain::Box(f.lower, f.upper);
  OptimizerOptions o = testing::CheapOptions(testing::TestSeed(5));
  o.initial_design_size = 3;
  const std::string reference_path = TempLogPath("torn_ref");
  const std::string path = TempLogPath("torn");
  auto step = [&](Optimizer& opt) {
    const Eigen::VectorXd x = opt.Ask();
    opt.Tell(x, f.reward(x));
  };
  o.log_path = reference_path;
  {
    Optimizer reference(d, nullptr, "gp-ucb", StrategyParams(), o);
    for (int i = 0; i < 10; ++i) step(reference);
  }
  o.log_path = path;
  {
    Optimizer first(d, nullptr, "gp-ucb", StrategyParams(), o);
    for (int i = 0; i < 6; ++i) step(first);
  }
  const std::string intact = ReadFile(path);
  const std::size_t intact_records = ReadLog(path).records.size();
  EXPECT_GE(intact_records, 13u);  // header + 6 x (pending, tell) + the fits
  // A complete last line that is not a record is corruption, not a tear: refused, left alone.
  const std::string complete_but_bad = "{\"type\":\"te\n";
  Append(path, complete_but_bad);
  EXPECT_THROW(ReadLog(path), std::runtime_error);
  EXPECT_THROW(Optimizer::Resume(path), std::runtime_error);
  EXPECT_EQ(ReadFile(path), intact + complete_but_bad);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << intact;
  for (const std::string& torn :
       {std::string(R"({"type":"tell","x":[0.12345)"), std::string("{\"type\":\"te")}) {
    Append(path, torn);
    ::testing::internal::CaptureStderr();
    const LogContents read = ReadLog(path);
    const std::string warning = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(read.dropped_torn_line);
    EXPECT_THAT(warning, HasSubstr("dropping a torn last line"));
    EXPECT_EQ(read.records.size(), intact_records);
    EXPECT_EQ(read.intact_bytes, static_cast<long long>(intact.size()));
    // Reopening reads up to the torn line and leaves the file alone; the next write cuts the
    // torn bytes off under the study's lock and appends after the intact records.
    ::testing::internal::CaptureStderr();
    const auto resumed = Optimizer::Resume(path);
    EXPECT_EQ(ReadFile(path), intact + torn);
    resumed->Ask();
    ::testing::internal::GetCapturedStderr();
    const std::string after = ReadFile(path);
    EXPECT_EQ(after.substr(0, intact.size()), intact);
    EXPECT_GT(ReadLog(path).records.size(), intact_records);  // its pending point (and a fit)
    std::ofstream(path, std::ios::binary | std::ios::trunc) << intact;
  }
  Append(path, R"({"type":"pend)");
  ::testing::internal::CaptureStderr();
  auto resumed = Optimizer::Resume(path);
  ::testing::internal::GetCapturedStderr();
  for (int i = 6; i < 10; ++i) step(*resumed);
  resumed.reset();
  const std::string continued = ReadLogWithoutLeases(path);
  const std::string reference = ReadLogWithoutLeases(reference_path);
  std::remove(path.c_str());
  std::remove(reference_path.c_str());
  GPBANDIT_SKIP_UNLESS_BIT_REPRODUCIBLE();
  EXPECT_EQ(continued, reference);
}

TEST(ObservationLogTest, PendingPointsAreLoggedBeforeAskReturns) {
  const std::string path = TempLogPath("pending");
  OptimizerOptions o = testing::CheapOptions();
  o.log_path = path;
  o.sync_log = true;
  Optimizer opt(Domain::Box(Eigen::Vector2d(0, 0), Eigen::Vector2d(1, 1)), nullptr, "gp-ucb",
                StrategyParams(), o);
  const Eigen::MatrixXd batch = opt.AskBatch(3);
  const LogContents read = ReadLog(path);
  ASSERT_EQ(read.records.size(), 4u);
  for (int j = 0; j < 3; ++j) {
    EXPECT_EQ(read.records[static_cast<std::size_t>(j + 1)].type, LogRecordType::kPending);
    EXPECT_EQ(read.records[static_cast<std::size_t>(j + 1)].x, Eigen::VectorXd(batch.col(j)));
  }
  std::remove(path.c_str());
}

TEST(ObservationLogTest, UnwritablePathThrows) {
  EXPECT_THROW(WriteStudy("/nonexistent-dir/x/log.jsonl", R"({"type":"header"})", {}),
               std::runtime_error);
}

}  // namespace
}  // namespace gpbandit
