// The container model's growth: storage splits at the exact EPK midpoints, depth first, and
// throughput splits of the widest range first, for V1, V2 and hierarchical keys, and what no
// split can help (one huge logical partition, a hierarchical prefix above 50 GB).
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


// --- Growth. ------------------------------------------------------------------------------------

TEST(ContainerTest, StorageGrowthSplitsAtTheMidpointDepthFirst) {
  // 200 partitions of 1,000,000 bytes grown x1000: 2e11 bytes (186.3 GiB) in one range at
  // 400 RU/s. The range splits at the midpoint (ids 1, 2), then each half (93.1 GiB) again, the
  // left first (3, 4), then the right (5, 6). Keys "d0".."d199" hash 96 / 104 into the halves
  // and 43, 53, 53, 51 into the quarters: every quarter at most 53 GB = 49.4 GiB.
  AnalysisReport analysis = Uniform(200, 2, 1000000, "d");
  ContainerOptions options;
  options.growth = 1000;
  ContainerReport r = Model(analysis, options);
  ASSERT_TRUE(r.grown);
  ASSERT_EQ(r.before.ranges.size(), 1u);
  const std::string m = Mid("", "FF");
  const std::string q1 = Mid("", m), q3 = Mid(m, "FF");
  ASSERT_EQ(r.splits.size(), 3u);
  EXPECT_EQ(r.splits[0].parent, 0);
  EXPECT_EQ(r.splits[0].left, 1);
  EXPECT_EQ(r.splits[0].right, 2);
  EXPECT_EQ(r.splits[1].parent, 1);
  EXPECT_EQ(r.splits[1].left, 3);
  EXPECT_EQ(r.splits[2].parent, 2);
  EXPECT_EQ(r.splits[2].right, 6);
  for (const Split& s : r.splits) EXPECT_EQ(s.reason, "storage");

  ASSERT_EQ(r.after.ranges.size(), 4u);
  EXPECT_EQ(Ids(r.after), (std::vector<int>{3, 4, 5, 6}));
  EXPECT_EQ(r.after.ranges[0].range, (EpkRange{"", q1, 3}));
  EXPECT_EQ(r.after.ranges[1].range, (EpkRange{q1, m, 4}));
  EXPECT_EQ(r.after.ranges[2].range, (EpkRange{m, q3, 5}));
  EXPECT_EQ(r.after.ranges[3].range, (EpkRange{q3, "FF", 6}));

  // Counts per side from the keys' EPKs; every quarter at most 50 GiB.
  std::vector<uint64_t> quarter(4);
  uint64_t left_half = 0;
  for (const LogicalPartition& p : analysis.partitions) {
    const std::string epk = Epk(p.key, V::kV2);
    const bool left = epk < m;
    left_half += left;
    ++quarter[left ? (epk < q1 ? 0 : 1) : (epk < q3 ? 2 : 3)];
  }
  EXPECT_EQ(r.splits[0].moved_to_left, left_half);
  EXPECT_EQ(r.splits[0].moved_to_right, 200 - left_half);
  EXPECT_EQ(r.splits[0].bytes_left, static_cast<double>(left_half) * 1e9);
  double total = 0;
  uint64_t items = 0;
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(r.after.ranges[i].logical_partitions, quarter[i]);
    EXPECT_EQ(r.after.ranges[i].bytes, static_cast<double>(quarter[i]) * 1e9);
    EXPECT_LE(r.after.ranges[i].bytes, 50 * kGiB);
    total += r.after.ranges[i].bytes;
    items += r.after.ranges[i].items;
  }
  EXPECT_EQ(total, 2e11);
  EXPECT_EQ(r.after.storage_bytes, 2e11);
  EXPECT_EQ(items, 400000u);                     // 2 items x 1000 x 200
  EXPECT_EQ(r.after.partitions_for_storage, 4);  // ceil(186.3 / 50)
  // Every partition left range 0.
  EXPECT_EQ(r.moved_count, 200u);
  EXPECT_EQ(r.moved.size(), kMaxFindingExamples);
  EXPECT_EQ(r.moved[0].from, 0);
  EXPECT_EQ(r.moved[0].to, 3);  // the lowest EPK is in the first quarter
  EXPECT_FALSE(r.split_cannot_help);
  EXPECT_EQ(FindCode(r, "physical_partition_over_50gb"), nullptr);
}

TEST(ContainerTest, ThroughputGrowthSplitsTheWidestRangeFirst) {
  ContainerOptions options;
  options.ru_per_second = 10000;
  options.created_ru_per_second = 6000;  // 1 partition (the creation rule), raised to 10,000
  options.grown_ru_per_second = 40000;
  ContainerReport r = Model(Uniform(50, 1, 1000), options);
  ASSERT_TRUE(r.grown);
  ASSERT_EQ(r.before.ranges.size(), 1u);
  ASSERT_EQ(r.after.ranges.size(), 4u);
  // 0 -> (1, 2); then the widest with the lowest EPK, 1 -> (3, 4); then 2 -> (5, 6).
  ASSERT_EQ(r.splits.size(), 3u);
  EXPECT_EQ(r.splits[1].parent, 1);
  EXPECT_EQ(r.splits[2].parent, 2);
  for (const Split& s : r.splits) EXPECT_EQ(s.reason, "throughput");
  EXPECT_EQ(Ids(r.after), (std::vector<int>{3, 4, 5, 6}));
  const std::string m = Mid("", "FF");
  EXPECT_EQ(r.after.ranges[1].range.max_exclusive, m);
  EXPECT_EQ(r.after.ranges[0].range.max_exclusive, Mid("", m));
  EXPECT_EQ(r.after.ranges[2].range.max_exclusive, Mid(m, "FF"));
  for (const PhysicalPartition& p : r.after.ranges) EXPECT_EQ(p.ru_share, 10000);
  EXPECT_EQ(r.after.partitions_for_throughput, 4);
  EXPECT_EQ(r.after.ru_per_second, 40000);
  EXPECT_EQ(r.moved_count, 50u);
}

TEST(ContainerTest, V1GrowthSplitsAtTheV1Midpoint) {
  // V1 bounds are number EPKs; the midpoint of the whole space is 4294967295 / 2 = 2147483647.
  ContainerOptions options;
  options.version = V::kV1;
  options.ru_per_second = 10000;
  options.created_ru_per_second = 6000;  // 1 partition
  options.grown_ru_per_second = 20000;
  AnalysisReport analysis = Uniform(40, 1, 100);
  ContainerReport r = Model(analysis, options);
  ASSERT_EQ(r.after.ranges.size(), 2u);
  const std::string mid = Mid("", "FF", V::kV1);
  EXPECT_EQ(mid, "05C1DFFFFFFFFC");
  EXPECT_EQ(r.after.ranges[0].range, (EpkRange{"", mid, 1}));
  EXPECT_EQ(r.after.ranges[1].range, (EpkRange{mid, "FF", 2}));
  uint64_t left = 0;
  for (const LogicalPartition& p : analysis.partitions) left += Epk(p.key, V::kV1) < mid;
  EXPECT_EQ(r.after.ranges[0].logical_partitions, left);
  EXPECT_EQ(r.splits[0].moved_to_left, left);
}

TEST(ContainerTest, ThroughputGrowthLeavesUnsplitRangesAndTheirPartitions) {
  // 20,000 -> 30,000 RU/s: ranges 0 and 1 are equally wide; 0 has the lower EPK and splits.
  AnalysisReport analysis = Uniform(60, 1, 1000);
  ContainerOptions options;
  options.ru_per_second = 20000;
  options.created_ru_per_second = 12000;  // 2 partitions
  options.grown_ru_per_second = 30000;
  ContainerReport r = Model(analysis, options);
  ASSERT_EQ(r.after.ranges.size(), 3u);
  EXPECT_EQ(Ids(r.after), (std::vector<int>{2, 3, 1}));
  EXPECT_EQ(r.after.ranges[2].range, r.before.ranges[1].range);
  EXPECT_EQ(r.moved_count, r.before.ranges[0].logical_partitions);
  for (const MovedPartition& moved : r.moved) EXPECT_EQ(moved.from, 0);
  // Examples in EPK order.
  for (size_t i = 1; i < r.moved.size(); ++i) {
    EXPECT_LT(Epk(r.moved[i - 1].key, V::kV2), Epk(r.moved[i].key, V::kV2));
  }
}

TEST(ContainerTest, LowerThroughputNeverMergesRanges) {
  ContainerOptions options;
  options.ru_per_second = 30000;
  options.created_ru_per_second = 18000;  // 3 partitions
  options.grown_ru_per_second = 5000;
  ContainerReport r = Model(Uniform(20, 1, 1000), options);
  ASSERT_TRUE(r.grown);
  EXPECT_EQ(r.after.ranges.size(), 3u);
  EXPECT_TRUE(r.splits.empty());
  EXPECT_EQ(r.moved_count, 0u);
  EXPECT_DOUBLE_EQ(r.after.ranges[0].ru_share, 5000.0 / 3);
}

TEST(ContainerTest, SameThroughputAndNoGrowthIsNotGrown) {
  ContainerOptions options;
  options.ru_per_second = 1000;
  options.grown_ru_per_second = 1000;
  ContainerReport r = Model(Uniform(3, 1, 10), options);
  EXPECT_FALSE(r.grown);
  EXPECT_TRUE(r.after.ranges.empty());
}

TEST(ContainerTest, OneHugeLogicalPartitionCannotBeSplit) {
  // 60 GiB in one key plus three small ones, 400 RU/s: ceil(60.x / 50) = 2 ranges. Whatever
  // the splits, the huge key stays in one range above 50 GiB.
  AnalysisReport analysis = Report({Part(Str("huge"), 1000, 60 * kGiBInt), Part(Str("a"), 1, 10),
                                    Part(Str("b"), 1, 10), Part(Str("c"), 1, 10)});
  ContainerReport r = Model(analysis, ContainerOptions{});
  EXPECT_FALSE(r.grown);
  EXPECT_EQ(r.before.ranges.size(), 2u);
  EXPECT_TRUE(r.split_cannot_help);
  const Finding* over50 = FindCode(r, "physical_partition_over_50gb");
  ASSERT_NE(over50, nullptr);
  EXPECT_EQ(over50->severity, "error");
  EXPECT_EQ(over50->count, 1u);
  ASSERT_EQ(over50->keys.size(), 1u);
  EXPECT_EQ(over50->keys[0], Str("huge"));
  EXPECT_NE(over50->message.find("60.0 GB"), std::string::npos) << over50->message;
  EXPECT_NE(over50->message.find("[\"huge\"]"), std::string::npos) << over50->message;
  // Without growth the range is named by the "before" range holding the key.
  const std::string huge_epk = Epk(Str("huge"), V::kV2);
  const int holder = r.before.ranges[0].range.Contains(huge_epk) ? 0 : 1;
  EXPECT_NE(over50->message.find("physical partition " + std::to_string(holder) + " holds 60.0 GB"),
            std::string::npos)
      << over50->message;
  const Finding* over20 = FindCode(r, "logical_partition_over_20gb");
  ASSERT_NE(over20, nullptr);
  EXPECT_EQ(over20->count, 1u);
}

TEST(ContainerTest, GrowthIsolatesAHugePartitionThenStops) {
  // 30 GiB grown x2 = 60 GiB next to small keys: storage splits go on until the huge key is
  // alone in its range, which then stays above 50 GiB.
  AnalysisReport analysis =
      Report({Part(Str("huge"), 1000, 30 * kGiBInt), Part(Str("a"), 1, 10), Part(Str("b"), 1, 10)});
  ContainerOptions options;
  options.growth = 2;
  ContainerReport r = Model(analysis, options);
  ASSERT_TRUE(r.grown);
  EXPECT_TRUE(r.split_cannot_help);
  const std::string huge_epk = Epk(Str("huge"), V::kV2);
  int huge_range = -1;
  for (const PhysicalPartition& p : r.after.ranges) {
    if (p.range.Contains(huge_epk)) {
      huge_range = p.range.id;
      EXPECT_EQ(p.logical_partitions, 1u);
      EXPECT_EQ(p.bytes, 60 * kGiB);
    } else {
      EXPECT_LE(p.bytes, 50 * kGiB);
    }
  }
  for (const Split& s : r.splits) EXPECT_EQ(s.reason, "storage");
  EXPECT_EQ(r.after.ranges.size(), r.splits.size() + 1);
  const Finding* over50 = FindCode(r, "physical_partition_over_50gb");
  ASSERT_NE(over50, nullptr);
  EXPECT_NE(over50->message.find("physical partition " + std::to_string(huge_range) + " holds"),
            std::string::npos)
      << over50->message;
  EXPECT_NE(over50->message.find("after growth x2"), std::string::npos) << over50->message;
}

TEST(ContainerTest, AHierarchicalPrefixAbove50GbSplitsInsideItself) {
  // 60 keys ["tenant", i] of 1 GiB: one first-level value. The service spreads a prefix's keys
  // over several physical partitions (only a full key is bound to one), so the split cuts inside
  // the prefix, by the full keys' EPKs. (This test said the opposite before issue 37.)
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < 60; ++i) {
    parts.push_back(
        Part(Key({KeyComponent::String("tenant"), KeyComponent::Number(i)}), 10, kGiBInt));
  }
  parts.push_back(Part(Key({KeyComponent::String("other"), KeyComponent::Number(1)}), 1, 10));
  ContainerOptions options;
  options.version = V::kMultiHash;
  options.growth = 1.5;  // 90 GiB under one prefix
  ContainerReport r = Model(Report(parts, {"/tenant", "/user"}), options);
  ASSERT_TRUE(r.grown);
  EXPECT_FALSE(r.split_cannot_help);
  EXPECT_EQ(FindCode(r, "physical_partition_over_50gb"), nullptr);
  EXPECT_EQ(FindCode(r, "logical_partition_over_20gb"), nullptr);  // each key is 1.5 GiB
  // The tenant's 60 keys spread over the ranges that cover its prefix, none above 50 GB.
  const std::string tenant = Epk(Key({KeyComponent::String("tenant")}), V::kMultiHash);
  int holding = 0;
  uint64_t keys = 0;
  for (const PhysicalPartition& p : r.after.ranges) {
    EXPECT_LE(p.bytes, 50 * kGiB);
    if (p.range.min_inclusive < tenant + "FF" && tenant < p.range.max_exclusive) {
      ++holding;
      keys += p.logical_partitions;
    }
  }
  EXPECT_GE(holding, 2);
  EXPECT_GE(keys, 60u);
}

}  // namespace
}  // namespace partplay
