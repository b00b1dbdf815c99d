// The container model: partition counts from throughput and storage, placement by EPK (checked
// against Locate on the initial layout), conservation of items and bytes, storage and throughput
// splits at the exact midpoints, request shares and demand from hand-computed charges, throttling,
// every finding at its boundary, query routing and option errors. Reports are built by hand, the
// way the analyzer lists partitions (largest bytes first); sizes are just numbers to the model.
#include "partplay/cosmos/container.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"

namespace partplay {
namespace {

using V = PartitionKeyHashVersion;

constexpr double kGiB = 1073741824.0;
constexpr uint64_t kGiBInt = 1073741824;

PartitionKey Key(std::vector<KeyComponent> components) {
  PartitionKey key;
  key.components = std::move(components);
  return key;
}

PartitionKey Str(const std::string& s) { return Key({KeyComponent::String(s)}); }

LogicalPartition Part(PartitionKey key, uint64_t items, uint64_t bytes, double weight = 0) {
  LogicalPartition p;
  p.key = std::move(key);
  p.items = items;
  p.bytes = bytes;
  p.weight = weight;
  return p;
}

// A report listing `parts` in the given order (callers list them largest first).
AnalysisReport Report(std::vector<LogicalPartition> parts,
                      std::vector<std::string> key_paths = {"/pk"}) {
  AnalysisReport r;
  r.key_paths = std::move(key_paths);
  for (const LogicalPartition& p : parts) {
    r.items += p.items;
    r.bytes += p.bytes;
  }
  r.partition_count = parts.size();
  r.partitions = std::move(parts);
  return r;
}

// `n` partitions "k0".."k{n-1}" (or another prefix) of `items` items and `bytes` bytes each.
AnalysisReport Uniform(int n, uint64_t items, uint64_t bytes, const std::string& prefix = "k") {
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < n; ++i) parts.push_back(Part(Str(prefix + std::to_string(i)), items, bytes));
  return Report(std::move(parts));
}

ContainerReport Model(const AnalysisReport& analysis, const ContainerOptions& options) {
  StatusOr<ContainerReport> report = ModelContainer(analysis, options);
  EXPECT_TRUE(report.ok()) << report.status().ToString();
  return report.ok() ? std::move(report).value() : ContainerReport{};
}

ErrorCode ErrorOf(const AnalysisReport& analysis, const ContainerOptions& options) {
  StatusOr<ContainerReport> report = ModelContainer(analysis, options);
  return report.ok() ? ErrorCode::kOk : report.status().code();
}

std::string Epk(const PartitionKey& key, V version) {
  StatusOr<std::string> epk = EffectivePartitionKey(key, version);
  EXPECT_TRUE(epk.ok()) << epk.status().ToString();
  return epk.ok() ? epk.value() : std::string();
}

std::string Mid(std::string_view min, std::string_view max, V version = V::kV2) {
  StatusOr<std::string> mid = MidpointEffectivePartitionKey(min, max, version);
  EXPECT_TRUE(mid.ok()) << mid.status().ToString();
  return mid.ok() ? mid.value() : std::string();
}

// Every partition listed in any range's top list, by key JSON.
std::map<std::string, PlacedPartition> Listed(const LayoutView& layout) {
  std::map<std::string, PlacedPartition> out;
  for (const PhysicalPartition& p : layout.ranges) {
    for (const PlacedPartition& t : p.top) out[t.key.ToJson()] = t;
  }
  return out;
}

const Finding* FindCode(const ContainerReport& r, const std::string& code) {
  for (const Finding& f : r.findings) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

std::vector<int> Ids(const LayoutView& layout) {
  std::vector<int> ids;
  for (const PhysicalPartition& p : layout.ranges) ids.push_back(p.range.id);
  return ids;
}

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
  ASSERT_EQ(r.before.ranges.size(), 2u);
  EXPECT_EQ(r.before.ranges[0].ru_share, 9000);
  EXPECT_EQ(r.before.ranges[1].ru_share, 9000);
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

TEST(ContainerTest, AHierarchicalPrefixAbove50GbCannotBeSplit) {
  // 60 keys ["tenant", i] of 1 GiB: one first-level value, which no split cuts inside.
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
  EXPECT_TRUE(r.split_cannot_help);
  const Finding* over50 = FindCode(r, "physical_partition_over_50gb");
  ASSERT_NE(over50, nullptr);
  EXPECT_NE(over50->message.find("60 logical partitions"), std::string::npos) << over50->message;
  EXPECT_EQ(FindCode(r, "logical_partition_over_20gb"), nullptr);  // each key is 1.5 GiB
  // The tenant's 60 keys stay together in one range.
  const std::string tenant = Epk(Key({KeyComponent::String("tenant")}), V::kMultiHash);
  int holding = 0;
  for (const PhysicalPartition& p : r.after.ranges) {
    if (p.range.Contains(tenant + "00")) {
      ++holding;
      EXPECT_EQ(p.logical_partitions, 60u);
    }
  }
  EXPECT_EQ(holding, 1);
}

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

// --- Findings at their boundaries. ----------------------------------------------------------

TEST(ContainerTest, LogicalPartitionAt20GbIsAllowed) {
  ContainerReport at = Model(Report({Part(Str("a"), 1, 20 * kGiBInt)}), ContainerOptions{});
  EXPECT_EQ(FindCode(at, "logical_partition_over_20gb"), nullptr);
  ContainerReport over = Model(Report({Part(Str("a"), 1, 20 * kGiBInt + 1)}), ContainerOptions{});
  const Finding* f = FindCode(over, "logical_partition_over_20gb");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->severity, "error");
  EXPECT_EQ(f->count, 1u);
  EXPECT_EQ(f->keys, std::vector<PartitionKey>{Str("a")});
  EXPECT_EQ(f->message,
            "1 logical partition holds more than the 20 GB a logical partition may store; the "
            "largest, [\"a\"], holds 20.0 GB (21,474,836,481 bytes).");
}

TEST(ContainerTest, LogicalPartitionOver20GbAfterGrowth) {
  // 11 GiB x 2 = 22 GiB.
  ContainerOptions options;
  options.growth = 2;
  options.version = V::kMultiHash;
  ContainerReport r = Model(Report({Part(Str("a"), 1, 11 * kGiBInt)}), options);
  const Finding* f = FindCode(r, "logical_partition_over_20gb");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("after growth x2; the largest, [\"a\"], holds 22.0 GB"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("a prefix may exceed it"), std::string::npos) << f->message;
}

TEST(ContainerTest, KeyTooLargeAt2048Bytes) {
  AnalysisReport ok = Report({Part(Str(std::string(2048, 'x')), 1, 10)});
  EXPECT_EQ(FindCode(Model(ok, ContainerOptions{}), "key_too_large"), nullptr);
  AnalysisReport big = Report({Part(Str(std::string(2049, 'x')), 2, 10), Part(Str("small"), 1, 5)});
  const ContainerReport r = Model(big, ContainerOptions{});
  const Finding* f = FindCode(r, "key_too_large");
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->count, 1u);
  EXPECT_NE(f->message.find("larger than 2,048 bytes, the limit with large partition keys"),
            std::string::npos)
      << f->message;
  EXPECT_NE(f->message.find("has 2,049 bytes"), std::string::npos) << f->message;
}

TEST(ContainerTest, KeyTooLargeAt101BytesForV1WithoutLargeKeys) {
  ContainerOptions options;
  options.version = V::kV1;
  options.large_partition_keys = false;
  EXPECT_EQ(
      FindCode(Model(Report({Part(Str(std::string(101, 'x')), 1, 10)}), options), "key_too_large"),
      nullptr);
  const ContainerReport r = Model(Report({Part(Str(std::string(102, 'x')), 1, 10)}), options);
  const Finding* f = FindCode(r, "key_too_large");
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->message.find("101 bytes, the limit without large partition keys"), std::string::npos)
      << f->message;
  options.large_partition_keys = true;
  EXPECT_EQ(
      FindCode(Model(Report({Part(Str(std::string(102, 'x')), 1, 10)}), options), "key_too_large"),
      nullptr);
}

TEST(ContainerTest, KeySizeCountsEveryComponent) {
  // 2,039 string bytes + a number (8) + true (1) = 2,048; null adds 1 more; undefined nothing.
  ContainerOptions options;
  options.version = V::kMultiHash;
  std::vector<std::string> paths = {"/a", "/b", "/c"};
  const std::string text(2039, 'y');
  AnalysisReport at = Report(
      {Part(Key({KeyComponent::String(text), KeyComponent::Number(1), KeyComponent::Bool(true)}), 1,
            10)},
      paths);
  EXPECT_EQ(FindCode(Model(at, options), "key_too_large"), nullptr);
  AnalysisReport undefined = Report({Part(Key({KeyComponent::String(text + "z"),
                                               KeyComponent::Number(1), KeyComponent::Undefined()}),
                                          1, 10)},
                                    paths);
  EXPECT_EQ(FindCode(Model(undefined, options), "key_too_large"), nullptr);
  // 2,041 + 8 + null (1) = 2,050.
  AnalysisReport over = Report(
      {Part(Key({KeyComponent::String(text + "zz"), KeyComponent::Number(1), KeyComponent::Null()}),
            1, 10)},
      paths);
  EXPECT_NE(FindCode(Model(over, options), "key_too_large"), nullptr);
}

TEST(ContainerTest, PhysicalPartitionAt50GbIsAllowed) {
  ContainerReport at = Model(Report({Part(Str("a"), 1, 50 * kGiBInt)}), ContainerOptions{});
  EXPECT_EQ(FindCode(at, "physical_partition_over_50gb"), nullptr);
  EXPECT_FALSE(at.split_cannot_help);
  ContainerReport over = Model(Report({Part(Str("a"), 1, 50 * kGiBInt + 1)}), ContainerOptions{});
  EXPECT_NE(FindCode(over, "physical_partition_over_50gb"), nullptr);
  EXPECT_TRUE(over.split_cannot_help);
}

TEST(ContainerTest, DemandAt10000RuIsAllowed) {
  // 10,000 reads/s of 1 KB items on one key: exactly 10,000 RU/s, then 10,001.
  ContainerOptions options;
  options.ru_per_second = 20000;
  options.workload.point_reads_per_second = 10000;
  AnalysisReport analysis = Report({Part(Str("a"), 1, 1024)});
  ContainerReport at = Model(analysis, options);
  EXPECT_EQ(FindCode(at, "logical_partition_over_10000_ru"), nullptr);
  EXPECT_FALSE(at.split_cannot_help);
  options.workload.point_reads_per_second = 10001;
  ContainerReport over = Model(analysis, options);
  EXPECT_NE(FindCode(over, "logical_partition_over_10000_ru"), nullptr);
  EXPECT_TRUE(over.split_cannot_help);
}

TEST(ContainerTest, AnalysisFindingsInTheirOrder) {
  AnalysisReport analysis = Report({Part(Str(std::string(3000, 'k')), 1, 21 * kGiBInt)});
  analysis.invalid_key_items = 2;
  analysis.invalid_key_examples = {{4, 50, {}, "object"}, {9, 60, {}, "array"}};
  analysis.undefined_key_items = 3;
  analysis.missing_id_items = 1;
  analysis.missing_id_examples = {{1, 10, {}, "missing"}};
  analysis.duplicate_id_items = 5;
  analysis.duplicate_id_examples.resize(5);
  analysis.oversized_items = 1;
  analysis.oversized_examples = {{7, 3 * 1024 * 1024, {}, ""}};
  analysis.imprecise_number_items = 200;
  analysis.imprecise_number_examples.resize(200);
  ContainerOptions options;
  options.ru_per_second = 1000;
  options.workload.queries_per_second = 4000;  // 12,000 RU/s on the one key
  ContainerReport r = Model(analysis, options);
  std::vector<std::string> codes;
  for (const Finding& f : r.findings) codes.push_back(f.code);
  EXPECT_EQ(codes,
            (std::vector<std::string>{"logical_partition_over_20gb", "key_too_large",
                                      "invalid_key_type", "missing_key", "missing_id",
                                      "duplicate_id", "item_over_2mb", "imprecise_number_key",
                                      "logical_partition_over_10000_ru", "hot_partition"}));
  const Finding* invalid = FindCode(r, "invalid_key_type");
  EXPECT_EQ(invalid->count, 2u);
  ASSERT_EQ(invalid->items.size(), 2u);
  EXPECT_EQ(invalid->items[1].item_index, 9);
  const Finding* missing = FindCode(r, "missing_key");
  EXPECT_EQ(missing->severity, "warning");
  EXPECT_EQ(missing->count, 3u);
  EXPECT_NE(missing->message.find("items without a value at the key path are stored in the "
                                  "partition of the undefined key"),
            std::string::npos);
  EXPECT_EQ(FindCode(r, "duplicate_id")->count, 5u);
  EXPECT_NE(FindCode(r, "item_over_2mb")->message.find("3.0 MB"), std::string::npos);
  const Finding* imprecise = FindCode(r, "imprecise_number_key");
  EXPECT_EQ(imprecise->severity, "warning");
  EXPECT_EQ(imprecise->count, 200u);
  EXPECT_EQ(imprecise->items.size(), kMaxFindingExamples);
  EXPECT_NE(imprecise->message.find("use strings for such keys"), std::string::npos);
}

TEST(ContainerTest, NoFindingsForCleanData) {
  ContainerOptions options;
  options.workload.point_reads_per_second = 100;
  EXPECT_TRUE(Model(Uniform(50, 3, 3000), options).findings.empty());
}

// --- Routing.
// -------------------------------------------------------------------------------------

TEST(ContainerTest, RouteAFullKeyToOneRange) {
  ContainerOptions options;
  options.ru_per_second = 40000;
  options.route = Str("k7");
  ContainerReport r = Model(Uniform(20, 1, 100), options);
  ASSERT_TRUE(r.route.has_value());
  const std::string epk = Epk(Str("k7"), V::kV2);
  EXPECT_EQ(r.route->kind, "single");
  EXPECT_EQ(r.route->epk_min, epk);
  EXPECT_EQ(r.route->epk_max, epk);
  StatusOr<PhysicalLayout> layout = InitialLayout(4, V::kV2);
  StatusOr<size_t> at = Locate(layout.value(), epk);
  ASSERT_TRUE(at.ok());
  EXPECT_EQ(r.route->range_ids, std::vector<int>{static_cast<int>(at.value())});
}

TEST(ContainerTest, PartitionEpksFollowTheAnalysisOrder) {
  AnalysisReport analysis = Uniform(12, 1, 100);
  ContainerOptions options;
  options.version = V::kV1;
  ContainerReport r = Model(analysis, options);
  ASSERT_EQ(r.partition_epks.size(), analysis.partitions.size());
  for (size_t i = 0; i < analysis.partitions.size(); ++i) {
    EXPECT_EQ(r.partition_epks[i], Epk(analysis.partitions[i].key, V::kV1)) << i;
  }
}

TEST(ContainerTest, RouteWithoutAFilterTouchesEveryRange) {
  ContainerOptions options;
  options.ru_per_second = 30000;
  options.route = PartitionKey{};
  ContainerReport r = Model(Uniform(20, 1, 100), options);
  ASSERT_TRUE(r.route.has_value());
  EXPECT_EQ(r.route->kind, "all");
  EXPECT_EQ(r.route->epk_min, "");
  EXPECT_EQ(r.route->epk_max, "FF");
  EXPECT_EQ(r.route->range_ids, (std::vector<int>{0, 1, 2}));
}

TEST(ContainerTest, RouteUsesTheGrownLayout) {
  ContainerOptions options;
  options.ru_per_second = 10000;
  options.grown_ru_per_second = 20000;
  options.route = Str("k1");
  ContainerReport r = Model(Uniform(5, 1, 100), options);
  const bool left = Epk(Str("k1"), V::kV2) < Mid("", "FF");
  EXPECT_EQ(r.route->range_ids, std::vector<int>{left ? 1 : 2});
}

TEST(ContainerTest, RouteAHierarchicalPrefixToARange) {
  ContainerOptions options;
  options.version = V::kMultiHash;
  options.ru_per_second = 40000;
  options.route = Key({KeyComponent::String("tenant")});
  AnalysisReport analysis =
      Report({Part(Key({KeyComponent::String("tenant"), KeyComponent::String("u1")}), 1, 100)},
             {"/tenant", "/user"});
  ContainerReport r = Model(analysis, options);
  const std::string prefix = Epk(Key({KeyComponent::String("tenant")}), V::kMultiHash);
  ASSERT_EQ(prefix.size(), 32u);
  EXPECT_EQ(r.route->kind, "range");
  EXPECT_EQ(r.route->epk_min, prefix);
  EXPECT_EQ(r.route->epk_max, prefix + "FF");
  // Initial boundaries are first-level values: a prefix falls in one range.
  StatusOr<size_t> at = Locate(InitialLayout(4, V::kMultiHash).value(), prefix);
  EXPECT_EQ(r.route->range_ids, std::vector<int>{static_cast<int>(at.value())});
  // The full key is a single EPK.
  options.route = analysis.partitions[0].key;
  EXPECT_EQ(Model(analysis, options).route->kind, "single");
}

TEST(ContainerTest, RouteAPrefixAcrossRangesThatCutInsideIt) {
  // Ranges cut inside one first-level value (as the service cuts a large prefix): the prefix
  // spans [p, p + "FF"), which the two middle ranges share.
  const PartitionKey tenant = Key({KeyComponent::String("tenant")});
  const std::string p = Epk(tenant, V::kMultiHash);
  LayoutView layout;
  auto add = [&](std::string min, std::string max, int id) {
    PhysicalPartition range;
    range.range = EpkRange{std::move(min), std::move(max), id};
    layout.ranges.push_back(range);
  };
  add("", p, 7);
  add(p, p + "8000", 8);
  add(p + "8000", p + "FF", 9);
  add(p + "FF", "FF", 10);
  StatusOr<RouteResult> prefix = RouteQuery(tenant, V::kMultiHash, 2, layout);
  ASSERT_TRUE(prefix.ok()) << prefix.status().ToString();
  EXPECT_EQ(prefix->kind, "range");
  EXPECT_EQ(prefix->range_ids, (std::vector<int>{8, 9}));
  PartitionKey full = Key({KeyComponent::String("tenant"), KeyComponent::String("u")});
  StatusOr<RouteResult> single = RouteQuery(full, V::kMultiHash, 2, layout);
  ASSERT_TRUE(single.ok());
  EXPECT_EQ(single->kind, "single");
  EXPECT_EQ(single->range_ids.size(), 1u);
  EXPECT_EQ(RouteQuery(full, V::kMultiHash, 1, layout).status().code(), ErrorCode::kBadOption);
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
  options.ru_per_second = 10000.0 * kMaxInitialPartitions;  // the most: accepted
  EXPECT_EQ(ErrorOf(Uniform(2, 1, 10), options), ErrorCode::kOk);
  options.ru_per_second = 10000.0 * kMaxInitialPartitions + 1;
  EXPECT_EQ(message(options), "the throughput and storage need 10,001 physical partitions, " + bound);
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
