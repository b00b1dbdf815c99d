#include "partplay/report/judgements.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/core/defaults.h"
#include "partplay/core/limits.h"
#include "partplay/report/report_builder.h"
#include "random_analysis.h"

namespace partplay {
namespace {

PhysicalPartition Range(double bytes) {
  PhysicalPartition r;
  r.bytes = bytes;
  return r;
}

TEST(Judgements, SpreadFollowsTheLimitsTableThresholds) {
  EXPECT_EQ(SpreadJudgement(0.9, 1).verdict, "one partition");
  EXPECT_EQ(SpreadJudgement(0.0, 0).verdict, "one partition");
  // The bench file keyed by /userId: the summary must agree with the even_spread finding.
  EXPECT_EQ(SpreadJudgement(0.37, 100000).verdict, "fairly even");
  EXPECT_EQ(SpreadJudgement(0.37, 100000).level, "good");
  EXPECT_EQ(SpreadJudgement(kSpreadEvenMaxGini, 100).verdict, "moderately skewed");
  EXPECT_EQ(SpreadJudgement(kSpreadEvenMaxGini, 100).level, "");
  EXPECT_EQ(SpreadJudgement(kSpreadStrongSkewGini, 100).verdict, "strongly skewed");
  EXPECT_EQ(SpreadJudgement(kSpreadStrongSkewGini, 100).level, "warn");
  EXPECT_LT(kSpreadEvenMaxGini, kSpreadStrongSkewGini);
  EXPECT_EQ(FindLimit("spread_even_max_gini")->value, kSpreadEvenMaxGini);
  EXPECT_EQ(FindLimit("spread_strong_skew_gini")->kind, "threshold");
}

TEST(Judgements, StorageBalanceIsTheFullestOverTheMean) {
  EXPECT_EQ(StorageMaxOverMean({}), 1);
  EXPECT_EQ(StorageMaxOverMean({Range(0), Range(0)}), 1);
  EXPECT_DOUBLE_EQ(StorageMaxOverMean({Range(1), Range(3)}), 1.5);
  EXPECT_DOUBLE_EQ(StorageMaxOverMean({Range(1), Range(1), Range(4)}), 2);
  EXPECT_EQ(StorageBalanceJudgement(3, 1).verdict, "one partition");
  EXPECT_EQ(StorageBalanceJudgement(kStorageBalanceWarn, 4).verdict, "even");
  EXPECT_EQ(StorageBalanceJudgement(kStorageBalanceWarn + 0.01, 4).verdict, "uneven");
  EXPECT_EQ(StorageBalanceJudgement(kStorageBalanceWarn + 0.01, 4).level, "warn");
  EXPECT_EQ(StorageBalanceJson({Range(1), Range(1), Range(4)}),
            R"({"max_over_mean":2,"verdict":"uneven","level":"warn"})");
  EXPECT_EQ(SpreadJson(0.25, 10), R"({"gini":0.25,"verdict":"fairly even","level":"good"})");
}

TEST(Judgements, SummaryLevelsFollowTheThresholds) {
  AnalysisReport r;
  r.items = 1000;
  r.partition_count = 1;
  r.has_largest = true;
  r.largest.bytes = static_cast<uint64_t>(kCosmosLogicalPartitionBytes * 0.6);
  r.top1_share = 1;
  EXPECT_EQ(SummaryLevelsJson(r),
            R"({"partition_count":"warn","largest_partition":"warn","top1_percent":"",)"
            R"("undefined_key":"","invalid_key":"","oversized_items":""})");
  r.partition_count = 100;
  r.largest.bytes = static_cast<uint64_t>(kCosmosLogicalPartitionBytes) + 1;
  r.undefined_key_items = 1;
  r.oversized_items = 2;
  EXPECT_EQ(SummaryLevelsJson(r),
            R"({"partition_count":"","largest_partition":"bad","top1_percent":"warn",)"
            R"("undefined_key":"warn","invalid_key":"","oversized_items":"bad"})");
  r.top1_share = kTopShareWarn;
  EXPECT_NE(SummaryLevelsJson(r).find(R"("top1_percent":"")"), std::string::npos);
}

TEST(Judgements, ThrottlingIsBadPastTheThreshold) {
  EXPECT_EQ(ThrottledLevel(0), "");
  EXPECT_EQ(ThrottledLevel(0.001), "warn");
  EXPECT_EQ(ThrottledLevel(kThrottledBadFraction), "warn");
  EXPECT_EQ(ThrottledLevel(kThrottledBadFraction * 1.01), "bad");
  EXPECT_EQ(FindLimit("throttled_bad_fraction")->value, kThrottledBadFraction);
}

TEST(Judgements, TheReportCarriesBothVerdicts) {
  AnalysisOptions options;
  std::unique_ptr<Analyzer> analyzer = AnalyzeRandomItems(7, 400, 50, 30, options);
  ASSERT_NE(analyzer, nullptr);
  ReportRequest request;
  request.container = ContainerOptions{};
  request.container->ru_per_second = 40000;  // seven physical partitions (created at 40,000 manual)
  auto built = BuildFullReport(*analyzer, options, request);
  ASSERT_TRUE(built.ok()) << built.status().ToString();
  const std::string& json = built->json;
  EXPECT_NE(json.find("\"spread\":{\"gini\":"), std::string::npos) << json.substr(0, 600);
  EXPECT_NE(json.find("\"levels\":{\"partition_count\":\"\",\"largest_partition\":\"\""),
            std::string::npos);
  const size_t balance = json.find("\"storage_balance\":{\"max_over_mean\":");
  ASSERT_NE(balance, std::string::npos);
  EXPECT_NE(json.find("\"verdict\":", balance), std::string::npos);
  EXPECT_NE(json.find("\"throttled_level\":\"\"", balance), std::string::npos);
}

}  // namespace
}  // namespace partplay
