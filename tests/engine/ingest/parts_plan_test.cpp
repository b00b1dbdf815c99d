// The parts policy (ingest/parts_plan.h): the page and the CLI cut by the same rule with their own
// numbers, inputs that cannot be cut are one pass, and a failure is retried the one way.
#include "partplay/ingest/parts_plan.h"

#include <gtest/gtest.h>

#include "partplay/ingest/split_points.h"

namespace partplay {
namespace {

constexpr uint64_t kMiB = uint64_t{1} << 20;

PartsRequest Page(uint64_t bytes, int cores, int asked = 0) {
  return {.host = PartsHost::kPage, .input_bytes = bytes, .seekable = true, .workers_asked = asked,
          .cores = cores};
}

TEST(PartsPlanTest, PageUsesItsCoresUpToFourWorkersForFilesOfFourMiB) {
  PartsPlan plan = PlanParts(Page(100 * kMiB, 8));
  EXPECT_EQ(plan.parts, 4);
  EXPECT_EQ(plan.min_part_bytes, 1 * kMiB);
  EXPECT_EQ(plan.first_part_weight, kFirstPartWeightInPage);
  EXPECT_EQ(plan.retire_heap_bytes, 256 * kMiB);
  EXPECT_EQ(plan.why, "");
  EXPECT_TRUE(plan.read_ahead);  // a core is left beside the four parts
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 2)).parts, 2);
  EXPECT_FALSE(PlanParts(Page(100 * kMiB, 2)).read_ahead);
  EXPECT_EQ(PlanParts(Page(4 * kMiB, 8)).parts, 4);
  PartsPlan small = PlanParts(Page(4 * kMiB - 1, 8));
  EXPECT_EQ(small.parts, 1);
  EXPECT_EQ(small.why, "the input is small");
  EXPECT_TRUE(small.read_ahead);  // one pass, on one of eight cores
}

TEST(PartsPlanTest, PageWorkersAskedForAreCappedAtSixteen) {
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 2, 3)).parts, 3);
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 2, 40)).parts, 16);
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 8, 1)).parts, 1);
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 1)).why, "one worker");
  EXPECT_EQ(PlanParts(Page(100 * kMiB, 0)).parts, 1);  // no cores said: one
}

TEST(PartsPlanTest, InputsThatCannotBeCutAreOnePass) {
  PartsRequest text = Page(100 * kMiB, 8);
  text.seekable = false;
  EXPECT_EQ(PlanParts(text).parts, 1);
  EXPECT_EQ(PlanParts(text).why, "the input cannot be read by ranges");
  PartsRequest random = Page(100 * kMiB, 8);
  random.random_suffix = true;
  EXPECT_EQ(PlanParts(random).parts, 1);
  random.host = PartsHost::kProcess;
  EXPECT_EQ(PlanParts(random).parts, 1);
}

TEST(PartsPlanTest, ProcessUsesEveryCoreWithEightMiBPartsUnlessJobsAreGiven) {
  PartsRequest cli = {.host = PartsHost::kProcess, .input_bytes = 1000, .seekable = true,
                      .cores = 12};
  PartsPlan plan = PlanParts(cli);
  // Any size: the split search finds no cut in a file under two parts of 8 MiB.
  EXPECT_EQ(plan.parts, 12);
  EXPECT_EQ(plan.threads, 12);
  EXPECT_EQ(plan.min_part_bytes, 8 * kMiB);
  EXPECT_EQ(plan.first_part_weight, kFirstPartWeightInProcess);
  EXPECT_EQ(plan.retire_heap_bytes, 0u);
  EXPECT_FALSE(plan.read_ahead);
  cli.cores = 500;
  EXPECT_EQ(PlanParts(cli).parts, 64);
  cli.workers_asked = 3;
  EXPECT_EQ(PlanParts(cli).parts, 3);
  EXPECT_EQ(PlanParts(cli).min_part_bytes, 1u);
  cli.workers_asked = 1000;
  EXPECT_EQ(PlanParts(cli).parts, 256);
  cli.workers_asked = 1;
  EXPECT_EQ(PlanParts(cli).parts, 1);
  EXPECT_EQ(PlanParts(cli).threads, 1);
}

TEST(PartsPlanTest, RetryRule) {
  EXPECT_EQ(RetryParts(ErrorCode::kBadPartial, false), PartsRetry::kWithIdRecords);
  EXPECT_EQ(RetryParts(ErrorCode::kBadPartial, true), PartsRetry::kOnePass);
  EXPECT_EQ(RetryParts(ErrorCode::kMalformedJson, false), PartsRetry::kOnePass);
  EXPECT_EQ(RetryParts(ErrorCode::kIo, true), PartsRetry::kOnePass);
  for (ErrorCode stop : {ErrorCode::kInterrupted, ErrorCode::kCancelled, ErrorCode::kEngineFailed}) {
    EXPECT_EQ(RetryParts(stop, false), PartsRetry::kStop);
    EXPECT_EQ(RetryParts(stop, true), PartsRetry::kStop);
  }
  EXPECT_EQ(PartsRetryName(PartsRetry::kStop), "stop");
  EXPECT_EQ(PartsRetryName(PartsRetry::kWithIdRecords), "id_records");
  EXPECT_EQ(PartsRetryName(PartsRetry::kOnePass), "one_pass");
}

}  // namespace
}  // namespace partplay
