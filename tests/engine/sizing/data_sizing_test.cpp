// Sizing from data: Nr, Nv and St per partition, nearest-rank percentiles, the 1-2-5 histogram,
// and the partitions over each limit (exactly at a limit is within it).
#include <gtest/gtest.h>
#include <simdjson.h>

#include "partplay/sizing/data_sizing.h"

namespace partplay {
namespace {

TEST(SizingData, NearestRankPercentiles) {
  std::vector<double> four = {1, 2, 3, 4};
  EXPECT_EQ(NearestRankPercentile(four, 50), 2);  // rank ceil(2) = 2
  EXPECT_EQ(NearestRankPercentile(four, 51), 3);  // rank ceil(2.04) = 3
  EXPECT_EQ(NearestRankPercentile(four, 99), 4);  // rank ceil(3.96) = 4
  EXPECT_EQ(NearestRankPercentile(four, 0), 1);   // rank 0 clamps to 1
  EXPECT_EQ(NearestRankPercentile({}, 50), 0);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i * 10);
  EXPECT_EQ(NearestRankPercentile(hundred, 99), 990);  // the 99th smallest
  EXPECT_EQ(NearestRankPercentile(hundred, 50), 500);
  std::vector<double> one = {7};
  EXPECT_EQ(NearestRankPercentile(one, 99), 7);
}

TEST(SizingData, OneTwoFiveHistogram) {
  auto bins = LogHistogram({0, 1, 3, 3, 4.9, 5, 19, 20, 1000});
  // From [0, 1) to [1,000, 2,000): 0 | 1 | 3 3 4.9 | 5 | - | 19 | 20 | ... | 1000
  ASSERT_EQ(bins.size(), 11u);
  struct Want {
    double lower, upper;
    uint64_t n;
  };
  std::vector<Want> want = {{0, 1, 1},     {1, 2, 1},      {2, 5, 3},      {5, 10, 1},
                            {10, 20, 1},   {20, 50, 1},    {50, 100, 0},   {100, 200, 0},
                            {200, 500, 0}, {500, 1000, 0}, {1000, 2000, 1}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(bins[i].lower, want[i].lower) << i;
    EXPECT_EQ(bins[i].upper, want[i].upper) << i;
    EXPECT_EQ(bins[i].partitions, want[i].n) << i;
  }
  // Starts at the smallest value's bin.
  auto big = LogHistogram({150e6, 40e6});
  ASSERT_EQ(big.size(), 3u);  // [20M, 50M) [50M, 100M) [100M, 200M)
  EXPECT_EQ(big.front().lower, 20e6);
  EXPECT_EQ(big.back().upper, 200e6);
  EXPECT_TRUE(LogHistogram({}).empty());
}

TEST(SizingData, DistributionAndThresholds) {
  std::vector<MeasuredPartition> parts = {
      {"[\"small\"]", 10, 2000, 300},
      {"[\"exact\"]", 20000, 100e6, 5000},        // 100,000 values and 100 MB: at both limits
      {"[\"wide\"]", 50000, 100e6 + 1, 2097153},  // 250,000 values, one item over 2 MB
      {"[\"mid\"]", 100, 30000, 400},
  };
  auto r = SizeFromData(parts, {.values_per_row = 5});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->partitions, 4u);
  EXPECT_EQ(r->nr.max, 50000);
  EXPECT_EQ(r->nr.min, 10);
  EXPECT_EQ(r->nr.p50, 100);    // sorted 10, 100, 20,000, 50,000: rank 2
  EXPECT_EQ(r->nr.p99, 50000);  // rank ceil(3.96) = 4
  EXPECT_EQ(r->nv.max, 250000);
  EXPECT_EQ(r->nv.p50, 500);
  EXPECT_EQ(r->nv.total, 5 * (10 + 20000 + 50000 + 100));
  EXPECT_EQ(r->st_bytes.p50, 30000);
  EXPECT_EQ(r->st_bytes.mean, (2000 + 100e6 + 100e6 + 1 + 30000) / 4);

  ASSERT_EQ(r->thresholds.size(), 5u);
  const DataThreshold& cells = r->thresholds[0];
  EXPECT_EQ(cells.code, "cells_over_2_billion");
  EXPECT_EQ(cells.partitions, 0u);
  EXPECT_TRUE(cells.message.empty());
  const DataThreshold& values = r->thresholds[1];
  EXPECT_EQ(values.code, "values_over_100k");
  ASSERT_EQ(values.partitions, 1u);  // "exact" holds exactly 100,000
  EXPECT_EQ(values.examples[0].key, "[\"wide\"]");
  EXPECT_EQ(values.examples[0].value, 250000);
  EXPECT_EQ(values.buckets_needed, 3);  // 250,000 / 3 = 83,334 is within 100,000
  EXPECT_NE(values.message.find("1 partition over the recommended 100,000 values"),
            std::string::npos)
      << values.message;
  const DataThreshold& mb = r->thresholds[2];
  EXPECT_EQ(mb.code, "size_over_100mb");
  ASSERT_EQ(mb.partitions, 1u);
  EXPECT_EQ(mb.examples[0].key, "[\"wide\"]");
  EXPECT_EQ(mb.buckets_needed, 2);
  EXPECT_EQ(r->thresholds[3].partitions, 0u);  // 20 GB
  const DataThreshold& row = r->thresholds[4];
  EXPECT_EQ(row.code, "cosmos_row_over_2mb");
  EXPECT_EQ(row.measure, "row_bytes");
  ASSERT_EQ(row.partitions, 1u);
  EXPECT_EQ(row.buckets_needed, 0);
}

TEST(SizingData, ExamplesAreTheLargestFirst) {
  std::vector<MeasuredPartition> parts;
  for (int i = 1; i <= 30; ++i) parts.push_back({std::to_string(i), 1000.0 * i, 1, 0});
  auto r = SizeFromData(parts, {.values_per_row = 200, .max_examples = 3});
  ASSERT_TRUE(r.ok());
  const DataThreshold& values = r->thresholds[1];
  // 1,000 i x 200 > 100,000 for i > 0.5: every partition.
  EXPECT_EQ(values.partitions, 30u);
  ASSERT_EQ(values.examples.size(), 3u);
  EXPECT_EQ(values.examples[0].key, "30");
  EXPECT_EQ(values.examples[1].key, "29");
  EXPECT_EQ(values.examples[2].key, "28");
  EXPECT_EQ(values.buckets_needed, 60);  // 6,000,000 / 100,000
}

TEST(SizingData, JsonAndErrors) {
  auto r = SizeFromData({{"[1]", 2, 100, 0}}, {.values_per_row = 3});
  ASSERT_TRUE(r.ok());
  std::string json = DataSizingToJson(r.value());
  simdjson::dom::parser parser;
  simdjson::dom::element root;
  ASSERT_EQ(parser.parse(json).get(root), simdjson::SUCCESS) << json;
  double nv_max = 0;
  EXPECT_EQ(root["nv"]["max"].get(nv_max), simdjson::SUCCESS);
  EXPECT_EQ(nv_max, 6);
  EXPECT_NE(DataSizingToText(r.value()).find("Nv = Nr × 3"), std::string::npos);

  EXPECT_EQ(SizeFromData({}, {.values_per_row = -1}).status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(SizeFromData({{"x", -1, 0, 0}}, {}).status().code(), ErrorCode::kBadOption);
  auto empty = SizeFromData({}, {});
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->partitions, 0u);
  EXPECT_TRUE(empty->st_histogram.empty());
}

TEST(SizingData, FromAnAnalyzerReport) {
  const std::string a1 = R"({"id":"1","user":"a","x":1,"y":"s","nested":{"z":true},"arr":[1,2]})";
  const std::string a2 = R"({"id":"2","user":"a","x":2})";
  const std::string b1 = R"({"id":"3","user":"b","x":3,"y":"t"})";
  auto analyzer = Analyzer::Create({.key_paths = {"/user"}});
  ASSERT_TRUE(analyzer.ok());
  ASSERT_TRUE(analyzer.value()->Feed(a1 + "\n" + a2 + "\n" + b1 + "\n").ok());
  ASSERT_TRUE(analyzer.value()->Finish().ok());
  AnalysisReport report = analyzer.value()->BuildReport({.max_partitions = -1});
  // Scalars outside arrays, without /user (the key) and /id: /x 3, /y 2, /nested/z 1 -> 6 / 3.
  EXPECT_EQ(MeanValuesPerItem(report), 2);
  std::vector<MeasuredPartition> parts = MeasuredPartitionsOf(report);
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts[0].key, "[\"a\"]");  // largest first
  EXPECT_EQ(parts[0].rows, 2);
  EXPECT_EQ(parts[0].bytes, static_cast<double>(a1.size() + a2.size()));
  EXPECT_EQ(parts[0].largest_row_bytes, static_cast<double>(a1.size()));
  EXPECT_EQ(parts[1].key, "[\"b\"]");
  EXPECT_EQ(parts[1].bytes, static_cast<double>(b1.size()));
  auto r = SizeFromData(parts, {.values_per_row = MeanValuesPerItem(report)});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->nv.max, 4);  // 2 items x 2 values
  EXPECT_EQ(r->st_bytes.total, static_cast<double>(a1.size() + a2.size() + b1.size()));
}

TEST(SizingData, RequestFromJsonAndSizeAnalyzedData) {
  auto analyzer = Analyzer::Create({.key_paths = {"/user"}});
  ASSERT_TRUE(analyzer.ok());
  ASSERT_TRUE(analyzer.value()->Feed("{\"user\":\"a\",\"x\":1,\"y\":2}\n").ok());
  ASSERT_TRUE(analyzer.value()->Finish().ok());
  // No values_per_row: the data's mean (/x and /y), as the CLI's `size --data` without the flag.
  auto defaults = ParseDataSizingRequestJson("{}");
  ASSERT_TRUE(defaults.ok());
  EXPECT_FALSE(defaults->values_per_row.has_value());
  EXPECT_EQ(defaults->max_examples, 10u);
  auto sized = SizeAnalyzedData(*analyzer.value(), defaults.value());
  ASSERT_TRUE(sized.ok());
  EXPECT_EQ(sized->values_per_row, 2);
  auto given = ParseDataSizingRequestJson(R"({"values_per_row": 5, "max_examples": 1})");
  ASSERT_TRUE(given.ok());
  EXPECT_EQ(SizeAnalyzedData(*analyzer.value(), given.value())->nv.max, 5);
  EXPECT_EQ(ParseDataSizingRequestJson(R"({"values_per_row": null})")->values_per_row,
            std::nullopt);
  // Bad requests name the field; bad JSON is located.
  for (const char* bad :
       {R"({"values_per_row": -1})", R"({"values_per_row": "4"})", R"({"max_examples": 2.5})",
        R"({"max_examples": 10001})", R"({"max_exampels": 1})", "[]"}) {
    auto r = ParseDataSizingRequestJson(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kBadOption) << bad;
  }
  auto truncated = ParseDataSizingRequestJson(R"({"max_examples": )");
  ASSERT_FALSE(truncated.ok());
  EXPECT_EQ(truncated.status().code(), ErrorCode::kMalformedJson);
}

}  // namespace
}  // namespace partplay
