// The container model: request charges, partition counts from throughput and storage, placement
// by EPK (checked against Locate on the initial layout), option errors and a model of 200,000
// partitions. Growth, workloads, findings and routing are container_{growth,workload,findings}_
// test.cpp; the helpers they share are container_test_helpers.h. Reports are built by hand, the
// way the analyzer lists partitions (largest bytes first); sizes are just numbers to the model.
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


// --- Request charges. -------------------------------------------------------------------------

TEST(ContainerTest, ChargesAreThePublishedTableAtItsRows) {
  EXPECT_DOUBLE_EQ(PointReadCharge(1024), 1.00);
  EXPECT_DOUBLE_EQ(WriteCharge(1024), 4.95);
  EXPECT_DOUBLE_EQ(PointReadCharge(64 * 1024), 4.76);
  EXPECT_DOUBLE_EQ(WriteCharge(64 * 1024), 22.67);
  EXPECT_DOUBLE_EQ(PointReadCharge(2048 * 1024), 291.80);
  EXPECT_DOUBLE_EQ(WriteCharge(2048 * 1024), 1250.00);
}

TEST(ContainerTest, ChargesInterpolateAndExtrapolate) {
  // Below 1 KB: the 1 KB row.
  EXPECT_DOUBLE_EQ(PointReadCharge(10), 1.00);
  EXPECT_DOUBLE_EQ(WriteCharge(0), 4.95);
  // 1.5 KB: halfway between 1 KB and 2 KB.
  EXPECT_DOUBLE_EQ(PointReadCharge(1536), 1.02);
  EXPECT_DOUBLE_EQ(WriteCharge(1536), 5.62);
  // 3 KB: halfway between 2 KB (1.04) and 4 KB (1.14).
  EXPECT_DOUBLE_EQ(PointReadCharge(3 * 1024), 1.09);
  // The 1,024 -> 2,048 KB segment extended: 3,072 KB adds one segment's rise, 4,096 KB two.
  EXPECT_DOUBLE_EQ(PointReadCharge(3072.0 * 1024), 437.70);
  EXPECT_DOUBLE_EQ(WriteCharge(3072.0 * 1024), 1875.00);
  EXPECT_DOUBLE_EQ(PointReadCharge(4096.0 * 1024), 583.60);
  EXPECT_DOUBLE_EQ(WriteCharge(4096.0 * 1024), 2500.00);
}

// --- Partition counts and placement. ----------------------------------------------------------

TEST(ContainerTest, ThroughputSetsThePartitionCountAndShare) {
  ContainerOptions options;
  options.ru_per_second = 18000;
  ContainerReport r = Model(Uniform(10, 1, 1000), options);
  // Created with 18,000 RU/s manual: 3 partitions of 6,000 (the creation rule); 2 would serve
  // the throughput (partitions_for_throughput) and 1 the storage.
  ASSERT_EQ(r.before.ranges.size(), 3u);
  for (const PhysicalPartition& p : r.before.ranges) EXPECT_EQ(p.ru_share, 6000);
  EXPECT_EQ(r.before.partitions_at_creation, 3);
  EXPECT_EQ(r.before.partitions_for_throughput, 2);
  EXPECT_EQ(r.before.partitions_for_storage, 1);
  EXPECT_EQ(r.before.partitions_needed, 2);
  EXPECT_EQ(r.before.ru_per_second, 18000);
  EXPECT_FALSE(r.grown);
  EXPECT_TRUE(r.splits.empty());
  EXPECT_TRUE(r.findings.empty());
}

TEST(ContainerTest, StorageSetsThePartitionCount) {
  // 120 partitions of 1 GiB at 400 RU/s: ceil(120 / 50) = 3 ranges, each with 400 / 3 RU/s.
  ContainerOptions options;
  options.ru_per_second = 400;
  ContainerReport r = Model(Uniform(120, 10, kGiBInt), options);
  ASSERT_EQ(r.before.ranges.size(), 3u);
  EXPECT_EQ(r.before.partitions_for_throughput, 1);
  EXPECT_EQ(r.before.partitions_for_storage, 3);
  EXPECT_EQ(r.before.partitions_needed, 3);
  EXPECT_DOUBLE_EQ(r.before.ranges[0].ru_share, 400.0 / 3);
  EXPECT_EQ(r.before.storage_bytes, 120 * kGiB);
}

TEST(ContainerTest, NoDataNeedsNoStoragePartitions) {
  ContainerReport r = Model(Report({}), ContainerOptions{});
  ASSERT_EQ(r.before.ranges.size(), 1u);
  EXPECT_EQ(r.before.partitions_for_storage, 0);
  EXPECT_EQ(r.before.partitions_for_throughput, 1);
  EXPECT_EQ(r.before.partitions_needed, 1);
  EXPECT_EQ(r.before.ranges[0].logical_partitions, 0u);
}

TEST(ContainerTest, EveryPartitionLandsInTheRangeLocateGives) {
  for (V version : {V::kV1, V::kV2}) {
    std::vector<LogicalPartition> parts;
    for (int i = 0; i < 1000; ++i) {
      parts.push_back(Part(Str("user-" + std::to_string(i)), 1 + i % 7, 5000 - i));
    }
    AnalysisReport analysis = Report(parts);
    ContainerOptions options;
    options.version = version;
    options.ru_per_second = 30000;
    options.created_ru_per_second = 18000;  // 3 partitions, raised to 10,000 RU/s each
    options.top_per_range = 2000;  // list every partition
    ContainerReport r = Model(analysis, options);

    StatusOr<PhysicalLayout> layout = InitialLayout(3, version);
    ASSERT_TRUE(layout.ok());
    ASSERT_EQ(r.before.ranges.size(), 3u);
    std::vector<uint64_t> expected_count(3), expected_items(3);
    std::vector<double> expected_bytes(3);
    for (const LogicalPartition& p : parts) {
      StatusOr<size_t> at = Locate(layout.value(), Epk(p.key, version));
      ASSERT_TRUE(at.ok());
      ++expected_count[at.value()];
      expected_items[at.value()] += p.items;
      expected_bytes[at.value()] += static_cast<double>(p.bytes);
    }
    uint64_t items = 0, count = 0;
    double bytes = 0;
    for (size_t i = 0; i < 3; ++i) {
      const PhysicalPartition& range = r.before.ranges[i];
      EXPECT_EQ(range.range, layout->ranges[i]);
      EXPECT_EQ(range.logical_partitions, expected_count[i]);
      EXPECT_EQ(range.items, expected_items[i]);
      EXPECT_EQ(range.bytes, expected_bytes[i]);
      EXPECT_EQ(range.top.size(), expected_count[i]);
      EXPECT_EQ(range.others_partitions, 0u);
      for (const PlacedPartition& t : range.top) {
        EXPECT_TRUE(range.range.Contains(t.epk)) << t.key.ToJson();
        EXPECT_EQ(t.epk, Epk(t.key, version));
      }
      items += range.items;
      bytes += range.bytes;
      count += range.logical_partitions;
    }
    EXPECT_EQ(count, analysis.partitions.size());
    EXPECT_EQ(items, analysis.items);
    EXPECT_EQ(bytes, static_cast<double>(analysis.bytes));
  }
}

TEST(ContainerTest, TopListsTheLargestThenTheHottest) {
  // One range; 30 partitions, sizes 3000 down to 100; the smallest has the most weight.
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < 30; ++i) {
    parts.push_back(Part(Str("p" + std::to_string(i)), 1, 3000 - 100 * i, i == 29 ? 10 : 1));
  }
  ContainerOptions options;
  options.top_per_range = 3;
  options.workload.spread = RequestSpread::kField;
  options.workload.queries_per_second = 39;  // 117 RU/s over weight 39: 3 RU/s per unit
  ContainerReport r = Model(Report(parts), options);
  ASSERT_EQ(r.before.ranges.size(), 1u);
  const PhysicalPartition& range = r.before.ranges[0];
  // Three largest, then up to five hottest of the rest: p29 (30 RU/s) first, then equal ones
  // (3 RU/s) in listing order.
  std::vector<std::string> keys;
  for (const PlacedPartition& t : range.top) keys.push_back(t.key.ToJson());
  EXPECT_EQ(keys, (std::vector<std::string>{"[\"p0\"]", "[\"p1\"]", "[\"p2\"]", "[\"p29\"]",
                                            "[\"p3\"]", "[\"p4\"]", "[\"p5\"]", "[\"p6\"]"}));
  EXPECT_DOUBLE_EQ(range.top[3].demand_ru, 30);
  EXPECT_EQ(range.others_partitions, 22u);
  // 3000 + ... + 100 = 46,500; listed: 3000 + 2900 + 2800 + 100 + 2700 + 2600 + 2500 + 2400.
  EXPECT_EQ(range.others_bytes, 46500.0 - 19000.0);
  EXPECT_EQ(range.bytes, 46500.0);
}

TEST(ContainerTest, TopWithoutWorkloadHoldsOnlyTheLargest) {
  ContainerOptions options;
  options.top_per_range = 4;
  ContainerReport r = Model(Uniform(10, 1, 100), options);
  EXPECT_EQ(r.before.ranges[0].top.size(), 4u);
  EXPECT_EQ(r.before.ranges[0].others_partitions, 6u);
  EXPECT_EQ(r.before.ranges[0].others_bytes, 600);
}

// --- Options. ---------------------------------------------------------------------------------

TEST(ContainerTest, OptionErrors) {
  const AnalysisReport analysis = Uniform(3, 1, 10);
  auto with = [](auto change) {
    ContainerOptions options;
    change(options);
    return options;
  };
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.ru_per_second = 0; })), ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.ru_per_second = -5; })), ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.ru_per_second = NAN; })), ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.growth = 0.5; })), ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.growth = INFINITY; })), ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.grown_ru_per_second = -1; })),
            ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) {
                      o.workload.spread = RequestSpread::kZipf;
                      o.workload.zipf_exponent = 0;
                    })),
            ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.workload.writes_per_second = -1; })),
            ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.workload.costs.read_factor = -0.5; })),
            ErrorCode::kBadOption);
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) {
                      o.route = Key({KeyComponent::Null(), KeyComponent::Null()});
                    })),
            ErrorCode::kBadOption);
  // Zipf's exponent only matters for Zipf.
  EXPECT_EQ(ErrorOf(analysis, with([](auto& o) { o.workload.zipf_exponent = 0; })), ErrorCode::kOk);
}

TEST(ContainerTest, KeyPathsMustFitTheHashVersion) {
  AnalysisReport two = Uniform(2, 1, 10);
  two.key_paths = {"/a", "/b"};
  StatusOr<ContainerReport> r = ModelContainer(two, ContainerOptions{});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(r.status().message(), "a key with 2 paths needs hash version multihash");
  ContainerOptions multihash;
  multihash.version = V::kMultiHash;
  AnalysisReport four = Uniform(2, 1, 10);
  four.key_paths = {"/a", "/b", "/c", "/d"};
  EXPECT_EQ(ErrorOf(four, multihash), ErrorCode::kBadOption);
  multihash.route = Key({KeyComponent::Null(), KeyComponent::Null(), KeyComponent::Null()});
  AnalysisReport mh2 = Uniform(2, 1, 10);
  mh2.key_paths = {"/a", "/b"};
  EXPECT_EQ(ErrorOf(mh2, multihash), ErrorCode::kBadOption);  // 3 components, 2 levels
}

TEST(ContainerTest, OmittedPartitionsAreAnInvalidState) {
  AnalysisReport analysis = Uniform(2, 1, 10);
  analysis.partitions_omitted = 5;
  EXPECT_EQ(ErrorOf(analysis, ContainerOptions{}), ErrorCode::kInvalidState);
}

TEST(ContainerTest, TooManyPartitionsIsAnOptionError) {
  static_assert(kMaxInitialPartitions == kCosmosMaxModelledPhysicalPartitions);
  auto message = [](const ContainerOptions& options, int partitions = 2) {
    StatusOr<ContainerReport> report = ModelContainer(Uniform(partitions, 1, 10), options);
    EXPECT_FALSE(report.ok());
    if (report.ok()) return std::string();
    EXPECT_EQ(report.status().code(), ErrorCode::kBadOption);
    return std::string(report.status().message());
  };
  const std::string bound =
      "more than the 10,000 the container model lays out (Partition Playground's own bound, "
      "100,000,000 RU/s; Cosmos DB sets none)";
  ContainerOptions options;
  options.quota_increase_reason = "the model's bound";  // above 1,000,000 RU/s
  // Created with 6,000 per partition for the most partitions, then raised to 10,000 each.
  options.created_ru_per_second = 6000.0 * kMaxInitialPartitions;
  options.ru_per_second = 10000.0 * kMaxInitialPartitions;  // the most: accepted
  EXPECT_EQ(ErrorOf(Uniform(2, 1, 10), options), ErrorCode::kOk);
  options.ru_per_second = 10000.0 * kMaxInitialPartitions + 1;
  EXPECT_EQ(message(options), "the throughput and storage need 10,001 physical partitions, " + bound);
  options.created_ru_per_second = 6000.0 * kMaxInitialPartitions + 1;
  options.ru_per_second = 700000;  // a scale-down from 10,001 partitions
  EXPECT_EQ(message(options),
            "the throughput and storage need 10,001 physical partitions, " + bound);
  options.created_ru_per_second = 0;
  options.ru_per_second = 10000;
  options.grown_ru_per_second = 10000.0 * (kMaxInitialPartitions + 1);
  EXPECT_EQ(message(options), "the grown throughput needs 10,001 physical partitions, " + bound);
  // Storage: 20,000 partitions of 10 bytes grown to 30 GB each need one range each.
  options.grown_ru_per_second = 0;
  options.growth = 3e9;
  EXPECT_EQ(message(options, 20000),
            "the grown data needs at least 10,001 physical partitions, " + bound);
}

// --- Scale. -------------------------------------------------------------------------------------

TEST(ContainerTest, TwoHundredThousandPartitions) {
  constexpr int kCount = 200000;
  std::vector<LogicalPartition> parts;
  parts.reserve(kCount);
  for (int i = 0; i < kCount; ++i) {
    parts.push_back(Part(Str("device-" + std::to_string(i)), 1 + i % 5, 1000000 - i));
  }
  AnalysisReport analysis = Report(std::move(parts));
  ContainerOptions options;
  options.ru_per_second = 50000;
  options.created_ru_per_second = 30000;  // 5 partitions, raised to 10,000 RU/s each
  options.growth = 1000;  // about 1.8e14 bytes: thousands of ranges
  options.workload.point_reads_per_second = 1000;
  ContainerReport r = Model(analysis, options);
  ASSERT_EQ(r.before.ranges.size(), 5u);
  uint64_t count = 0, items = 0;
  double bytes = 0;
  for (const PhysicalPartition& p : r.after.ranges) {
    count += p.logical_partitions;
    items += p.items;
    bytes += p.bytes;
    EXPECT_LE(p.bytes, 50 * kGiB);
  }
  EXPECT_EQ(count, static_cast<uint64_t>(kCount));
  EXPECT_EQ(items, analysis.items * 1000);
  EXPECT_DOUBLE_EQ(bytes, static_cast<double>(analysis.bytes) * 1000);
  EXPECT_GE(static_cast<int64_t>(r.after.ranges.size()), r.after.partitions_for_storage);
  EXPECT_EQ(r.moved_count, static_cast<uint64_t>(kCount));
  EXPECT_GT(r.before.demand_ru, 0);
  // Growth keeps the request rates; only the summation order differs.
  EXPECT_NEAR(r.after.demand_ru, r.before.demand_ru, 1e-9 * r.before.demand_ru);
}

}  // namespace
}  // namespace partplay
