// The container model's workloads: request shares (Zipf, uniform, by a weight field), demand from
// hand-computed charges of each partition's mean item size, throttling within and across ranges
// and hot partitions judged in the grown layout.
#include "partplay/cosmos/container.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "container_test_helpers.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"

namespace partplay {
namespace {

using namespace container_test;  // NOLINT: the shared helpers


// --- Workload.
// ------------------------------------------------------------------------------------

TEST(ContainerTest, ZipfSharesFollowTheSizeRank) {
  // s = 1 over 3 partitions: 1, 1/2, 1/3 of 11/6, i.e. 6/11, 3/11, 2/11. Items of 1 KB read at
  // 1 RU each: 1,100 reads/s are 1,100 RU/s.
  AnalysisReport analysis =
      Report({Part(Str("a"), 3, 3072), Part(Str("b"), 2, 2048), Part(Str("c"), 1, 1024)});
  ContainerOptions options;
  options.ru_per_second = 10000;
  options.workload.point_reads_per_second = 1100;
  options.workload.spread = RequestSpread::kZipf;
  options.workload.zipf_exponent = 1;
  ContainerReport r = Model(analysis, options);
  auto listed = Listed(r.before);
  EXPECT_DOUBLE_EQ(listed["[\"a\"]"].demand_ru, 600);
  EXPECT_DOUBLE_EQ(listed["[\"b\"]"].demand_ru, 300);
  EXPECT_DOUBLE_EQ(listed["[\"c\"]"].demand_ru, 200);
  EXPECT_DOUBLE_EQ(r.before.demand_ru, 1100);
  EXPECT_EQ(r.before.throttled_fraction, 0);
}

TEST(ContainerTest, ZipfExponentTwo) {
  // s = 2: 1, 1/4 of 5/4: shares 4/5 and 1/5; 100 queries/s at 3 RU.
  AnalysisReport analysis = Report({Part(Str("a"), 1, 500), Part(Str("b"), 1, 400)});
  ContainerOptions options;
  options.workload.queries_per_second = 100;
  options.workload.spread = RequestSpread::kZipf;
  options.workload.zipf_exponent = 2;
  auto listed = Listed(Model(analysis, options).before);
  EXPECT_DOUBLE_EQ(listed["[\"a\"]"].demand_ru, 240);
  EXPECT_DOUBLE_EQ(listed["[\"b\"]"].demand_ru, 60);
}

TEST(ContainerTest, UniformSpreadFollowsItems) {
  // Items 3 and 1 of 1 KB: shares 3/4 and 1/4 of 100 writes/s at 4.95 RU = 495 RU/s.
  AnalysisReport analysis = Report({Part(Str("a"), 3, 3072), Part(Str("b"), 1, 1024)});
  ContainerOptions options;
  options.ru_per_second = 1000;
  options.workload.writes_per_second = 100;
  auto listed = Listed(Model(analysis, options).before);
  EXPECT_DOUBLE_EQ(listed["[\"a\"]"].demand_ru, 371.25);
  EXPECT_DOUBLE_EQ(listed["[\"b\"]"].demand_ru, 123.75);
}

TEST(ContainerTest, ChargesUseEachPartitionsMeanItemSizeAndFactors) {
  // "a": 2 items in 4 KB (2 KB each: read 1.04, write 6.29); "b": 2 items of 1 KB (1.00, 4.95).
  // Uniform shares 1/2 each; 100 reads and 10 writes per second, factors 2 and 3, 5 queries/s at
  // 4 RU.
  AnalysisReport analysis = Report({Part(Str("a"), 2, 4096), Part(Str("b"), 2, 2048)});
  ContainerOptions options;
  options.ru_per_second = 5000;
  options.workload.point_reads_per_second = 100;
  options.workload.writes_per_second = 10;
  options.workload.queries_per_second = 5;
  options.workload.costs.read_factor = 2;
  options.workload.costs.write_factor = 3;
  options.workload.costs.query_ru = 4;
  auto listed = Listed(Model(analysis, options).before);
  EXPECT_DOUBLE_EQ(listed["[\"a\"]"].demand_ru, 0.5 * (100 * 2 * 1.04 + 10 * 3 * 6.29 + 5 * 4));
  EXPECT_DOUBLE_EQ(listed["[\"b\"]"].demand_ru, 0.5 * (100 * 2 * 1.00 + 10 * 3 * 4.95 + 5 * 4));
}

TEST(ContainerTest, FieldSpreadFollowsTheWeights) {
  // Weights 1, 0, 3: shares 1/4, 0, 3/4 of 100 queries/s x 3 RU.
  AnalysisReport analysis =
      Report({Part(Str("a"), 5, 500, 1), Part(Str("b"), 4, 400, 0), Part(Str("c"), 3, 300, 3)});
  ContainerOptions options;
  options.workload.queries_per_second = 100;
  options.workload.spread = RequestSpread::kField;
  options.ru_per_second = 1000;
  auto listed = Listed(Model(analysis, options).before);
  EXPECT_DOUBLE_EQ(listed["[\"a\"]"].demand_ru, 75);
  EXPECT_DOUBLE_EQ(listed["[\"b\"]"].demand_ru, 0);
  EXPECT_DOUBLE_EQ(listed["[\"c\"]"].demand_ru, 225);
}

TEST(ContainerTest, FieldSpreadNeedsWeight) {
  ContainerOptions options;
  options.workload.spread = RequestSpread::kField;
  StatusOr<ContainerReport> r = ModelContainer(Uniform(3, 1, 10), options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(r.status().message(), "the weight field sums to 0");
  AnalysisReport negative = Report({Part(Str("a"), 1, 10, -1), Part(Str("b"), 1, 10, 2)});
  EXPECT_EQ(ErrorOf(negative, options), ErrorCode::kBadOption);
}

TEST(ContainerTest, ThrottledFractionOfOneOverloadedRange) {
  // 10,000 RU/s, one range; 4,000 queries/s x 3 RU = 12,000 RU/s on one key: 1 - 10/12 = 1/6.
  ContainerOptions options;
  options.ru_per_second = 10000;
  options.created_ru_per_second = 6000;  // one range, raised to 10,000 RU/s
  options.workload.queries_per_second = 4000;
  ContainerReport r = Model(Report({Part(Str("only"), 1, 100)}), options);
  ASSERT_EQ(r.before.ranges.size(), 1u);
  EXPECT_DOUBLE_EQ(r.before.ranges[0].demand_ru, 12000);
  EXPECT_DOUBLE_EQ(r.before.ranges[0].throttled_fraction, 1.0 / 6);
  EXPECT_DOUBLE_EQ(r.before.throttled_fraction, 1.0 / 6);
  ASSERT_EQ(r.hot.size(), 1u);
  EXPECT_EQ(r.hot[0].key, Str("only"));
  EXPECT_TRUE(r.hot[0].hot);
  EXPECT_TRUE(r.split_cannot_help);  // one key above 10,000 RU/s
  const Finding* ru = FindCode(r, "logical_partition_over_10000_ru");
  ASSERT_NE(ru, nullptr);
  EXPECT_EQ(ru->severity, "warning");
  EXPECT_NE(ru->message.find("12,000 RU/s"), std::string::npos) << ru->message;
  const Finding* hot = FindCode(r, "hot_partition");
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ(hot->message,
            "Physical partition 0 gets 12,000 RU/s, more than its share of 10,000 RU/s, so about "
            "16.7% of its requests would be throttled (429); its hottest key, [\"only\"], takes "
            "12,000 RU/s alone, more than the share, and a split cannot spread one key's load.");
}

TEST(ContainerTest, ThrottledFractionOverRanges) {
  // 20,000 RU/s, two ranges of 10,000. Field weights put 15,000 RU/s on "a" and 5,000 on "b";
  // if they share a range it gets 20,000 (over by 10,000), else only "a"'s range is over by 5,000.
  AnalysisReport analysis = Report({Part(Str("a"), 1, 100, 3), Part(Str("b"), 1, 100, 1)});
  ContainerOptions options;
  options.ru_per_second = 20000;
  options.workload.queries_per_second = 20000.0 / 3;
  options.workload.spread = RequestSpread::kField;
  ContainerReport r = Model(analysis, options);
  const bool together = r.before.ranges[0].logical_partitions != 1;
  EXPECT_DOUBLE_EQ(r.before.throttled_fraction, together ? 0.5 : 0.25);
  EXPECT_DOUBLE_EQ(r.before.demand_ru, 20000);
}

TEST(ContainerTest, AHotKeyBelowTheThroughputLimit) {
  // 400 RU/s in one range; "a" takes 500 RU/s, "b" 100: "a" alone exceeds the share.
  AnalysisReport analysis = Report({Part(Str("a"), 1, 100, 5), Part(Str("b"), 1, 100, 1)});
  ContainerOptions options;
  options.workload.queries_per_second = 200;
  options.workload.spread = RequestSpread::kField;
  ContainerReport r = Model(analysis, options);
  ASSERT_EQ(r.hot.size(), 1u);
  EXPECT_EQ(r.hot[0].key, Str("a"));
  EXPECT_DOUBLE_EQ(r.hot[0].demand_ru, 500);
  EXPECT_DOUBLE_EQ(r.before.ranges[0].throttled_fraction, 1.0 / 3);
  EXPECT_FALSE(r.split_cannot_help);
  EXPECT_EQ(FindCode(r, "logical_partition_over_10000_ru"), nullptr);
  const Finding* hot = FindCode(r, "hot_partition");
  ASSERT_NE(hot, nullptr);
  EXPECT_EQ(hot->count, 1u);
  ASSERT_EQ(hot->keys.size(), 1u);
  EXPECT_EQ(hot->keys[0], Str("a"));
  EXPECT_NE(hot->message.find("33.3%"), std::string::npos) << hot->message;
}

TEST(ContainerTest, HotIsJudgedInTheGrownLayout) {
  // 6,000 RU/s on one key: hot at 5,000 RU/s, not after growing to 20,000 (shares 10,000).
  ContainerOptions options;
  options.ru_per_second = 5000;
  options.grown_ru_per_second = 20000;
  options.workload.queries_per_second = 2000;
  ContainerReport r = Model(Report({Part(Str("k"), 1, 100)}), options);
  EXPECT_TRUE(r.before.ranges[0].top[0].hot);
  EXPECT_TRUE(r.hot.empty());
  EXPECT_EQ(FindCode(r, "hot_partition"), nullptr);
}

}  // namespace
}  // namespace partplay
