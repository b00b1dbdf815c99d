// Capacity as the service documents it (container.h, container_capacity.cpp): the creation rule,
// a throughput change on an existing layout, the minimum RU/s, serverless capacity, hierarchical
// keys spread inside a prefix, and the least RU/s at which a workload is not throttled. Cases
// ported from a document say "from <document>" (articles/cosmos-db/ in MicrosoftDocs
// azure-databases-docs); our own cases say "authored".
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "container_test_helpers.h"
#include "partplay/core/limits.h"

namespace partplay {
namespace {

using namespace container_test;  // NOLINT

// `n` keys of 1 KB items, 1 MB each: small, so the storage never decides the count.
AnalysisReport Small(int n) { return Uniform(n, 1000, 1000000); }

ContainerOptions Manual(double ru, double created = 0) {
  ContainerOptions o;
  o.ru_per_second = ru;
  o.created_ru_per_second = created;
  return o;
}

std::vector<double> Keyspace(const LayoutView& v) {
  std::vector<double> out;
  for (const PhysicalPartition& p : v.ranges) out.push_back(p.keyspace_fraction);
  return out;
}

// --- Creation: manual RU/s / 6,000, autoscale / 10,000, storage / 50 GB ---

TEST(CapacityTest, Manual18000Is3PartitionsOf6000) {
  // From partitioning-overview.md (the reference's cosmos-partitioning-overview.md): 18,000 RU/s
  // on 3 physical partitions, each with 6,000 RU/s.
  ContainerReport r = Model(Small(100), Manual(18000));
  ASSERT_EQ(r.before.ranges.size(), 3u);
  EXPECT_EQ(r.before.ranges[0].ru_share, 6000);
  EXPECT_EQ(r.before.partitions_at_creation, 3);
  EXPECT_EQ(r.before.change.kind, "none");
  EXPECT_EQ(r.before.instant_maximum_ru_per_second, 30000);
  EXPECT_EQ(CreationPartitionCount(18000, false, 0), 3);
}

TEST(CapacityTest, Manual30000Is5PartitionsAndAutoscale30000Is3) {
  // From scaling-provisioned-throughput-best-practices.md, "Step 2: Calculate the default
  // maximum throughput": five physical partitions and 30,000 RU/s manual raise instantly to
  // 50,000; autoscale max 30,000 (3 partitions of 10,000) is authored from step 3's rule.
  ContainerReport r = Model(Small(100), Manual(30000));
  ASSERT_EQ(r.before.ranges.size(), 5u);
  EXPECT_EQ(r.before.instant_maximum_ru_per_second, 50000);
  ContainerOptions autoscale = Manual(30000);
  autoscale.autoscale = true;
  ContainerReport a = Model(Small(100), autoscale);
  EXPECT_EQ(a.before.ranges.size(), 3u);
  EXPECT_EQ(a.before.throughput_mode, "autoscale");
  EXPECT_EQ(CreationPartitionCount(30000, true, 0), 3);
}

TEST(CapacityTest, OneTerabyteIngestionIs25Partitions) {
  // From scaling-provisioned-throughput-best-practices.md, "How to optimize RU/s for large data
  // ingestion": 1,000 GB at 40 GB per partition is 25 partitions: 25 x 6,000 = 150,000 RU/s
  // manual, 25 x 10,000 = 250,000 autoscale; then 150,000 -> 250,000 is instant.
  EXPECT_EQ(CreationPartitionCount(150000, false, 0), 25);
  EXPECT_EQ(CreationPartitionCount(250000, true, 0), 25);
  ContainerReport r = Model(Small(200), Manual(250000, 150000));
  EXPECT_EQ(r.before.partitions_at_creation, 25);
  EXPECT_EQ(r.before.ranges.size(), 25u);
  EXPECT_EQ(r.before.change.kind, "instant");
  EXPECT_EQ(r.before.change.instant_maximum_ru_per_second, 250000);
  EXPECT_EQ(r.before.ranges[0].ru_share, 10000);
}

TEST(CapacityTest, StorageSetsTheCountWhenItNeedsMore) {
  // Authored: 120 GiB at 400 RU/s is ceil(120 / 50) = 3 partitions.
  ContainerReport r = Model(Uniform(120, 1000, kGiBInt), Manual(400));
  EXPECT_EQ(r.before.ranges.size(), 3u);
  EXPECT_EQ(CreationPartitionCount(400, false, 120 * kGiB), 3);
}

// --- A change of throughput on the created layout ---

TEST(CapacityTest, Raise12000To30000SplitsOnePartitionUnevenly) {
  // From scaling-provisioned-throughput-best-practices.md, "How to ensure even data distribution
  // during asynchronous scaling": two partitions raised to 30,000 RU/s split one of them: one
  // holds 50% of the keyspace, its children 25% each; raise to 40,000 first for an even split.
  ContainerReport r = Model(Small(400), Manual(30000, 12000));
  EXPECT_EQ(r.before.partitions_at_creation, 2);
  ASSERT_EQ(r.before.ranges.size(), 3u);
  EXPECT_EQ(r.before.change.kind, "splits");
  EXPECT_EQ(r.before.change.splits, 1);
  EXPECT_TRUE(r.before.change.uneven);
  EXPECT_EQ(r.before.change.instant_maximum_ru_per_second, 20000);
  EXPECT_EQ(r.before.change.even_split_ru_per_second, 40000);
  std::vector<double> keyspace = Keyspace(r.before);
  std::sort(keyspace.begin(), keyspace.end());
  EXPECT_NEAR(keyspace[0], 0.25, 1e-9);
  EXPECT_NEAR(keyspace[1], 0.25, 1e-9);
  EXPECT_NEAR(keyspace[2], 0.5, 1e-9);
  EXPECT_EQ(r.before_splits.size(), 1u);
  EXPECT_EQ(r.before.ranges[0].ru_share, 10000);
}

TEST(CapacityTest, Raise12000To20000IsInstant) {
  // From scaling-provisioned-throughput-best-practices.md, "Instant scale-up": 2 partitions x
  // 10,000 RU/s.
  ContainerReport r = Model(Small(100), Manual(20000, 12000));
  EXPECT_EQ(r.before.ranges.size(), 2u);
  EXPECT_EQ(r.before.change.kind, "instant");
  EXPECT_TRUE(r.before_splits.empty());
  EXPECT_EQ(r.before.ranges[0].ru_share, 10000);
}

TEST(CapacityTest, Raise30000To45000SplitsTwoOfThree) {
  // From scaling-provisioned-throughput-best-practices.md: three partitions at 30,000 RU/s raised
  // to 45,000 split two of them: ROUNDUP(45,000 / 10,000) = 5.
  ContainerReport r = Model(Small(100), Manual(45000, 18000));
  EXPECT_EQ(r.before.partitions_at_creation, 3);
  EXPECT_EQ(r.before.ranges.size(), 5u);
  EXPECT_EQ(r.before.change.splits, 2);
}

TEST(CapacityTest, TheEvenSplitRecipe) {
  // From scaling-provisioned-throughput-best-practices.md, "General formula": 5 partitions to
  // 150,000 RU/s: raise to 200,000 first; 2 partitions to 30,000: 40,000.
  EXPECT_EQ(EvenSplitRuPerSecond(5, 150000), 200000);
  EXPECT_EQ(EvenSplitRuPerSecond(2, 30000), 40000);
}

TEST(CapacityTest, ACreationAboveTheCurrentIsAScaleDown) {
  // Authored: created at 30,000 (5 partitions), lowered to 10,000: the same 5 at 2,000 each.
  ContainerReport r = Model(Small(100), Manual(10000, 30000));
  EXPECT_EQ(r.before.ranges.size(), 5u);
  EXPECT_EQ(r.before.change.kind, "down");
  EXPECT_EQ(r.before.ranges[0].ru_share, 2000);
  EXPECT_EQ(r.before.highest_ru_per_second, 30000);
}

// --- The minimum RU/s ---

TEST(CapacityTest, MinimumThroughputExamples) {
  // From concepts-limits.md, "Minimum throughput on container": 50,000 RU/s highest and 20 GB:
  // manual 500, autoscale max 5,000; 2,000 GB: 2,000 and 20,000.
  EXPECT_EQ(MinimumRuPerSecond(false, 20 * kGiB, 50000), 500);
  EXPECT_EQ(MinimumRuPerSecond(false, 2000 * kGiB, 50000), 2000);
  EXPECT_EQ(MinimumRuPerSecond(true, 20 * kGiB, 50000), 5000);
  EXPECT_EQ(MinimumRuPerSecond(true, 2000 * kGiB, 50000), 20000);
  // From scaling-provisioned-throughput-best-practices.md: after 100,000 RU/s the least is
  // 1,000; after 200,000 it is 2,000, and 20,000 as an autoscale maximum.
  EXPECT_EQ(MinimumRuPerSecond(false, 0, 100000), 1000);
  EXPECT_EQ(MinimumRuPerSecond(false, 0, 200000), 2000);
  EXPECT_EQ(MinimumRuPerSecond(true, 0, 200000), 20000);
  std::string rule;
  EXPECT_EQ(MinimumRuPerSecond(false, 0, 0, &rule), 400);
  EXPECT_EQ(rule, "least");
}

TEST(CapacityTest, BelowTheFloorIsAnErrorNamingIt) {
  // Authored.
  StatusOr<ContainerReport> low = ModelContainer(Small(10), Manual(300));
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(low.status().field(), "/ru_per_second");
  EXPECT_NE(low.status().message().find("400 RU/s"), std::string::npos) << low.status().message();
  // Created at 100,000 RU/s, it may not go below 1,000.
  StatusOr<ContainerReport> history = ModelContainer(Small(10), Manual(900, 100000));
  ASSERT_FALSE(history.ok());
  EXPECT_NE(history.status().message().find("1,000 RU/s"), std::string::npos)
      << history.status().message();
  EXPECT_TRUE(ModelContainer(Small(10), Manual(1000, 100000)).ok());
  // Autoscale: at least 1,000 as its maximum.
  ContainerOptions autoscale = Manual(800);
  autoscale.autoscale = true;
  StatusOr<ContainerReport> a = ModelContainer(Small(10), autoscale);
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.status().message().find("1,000 RU/s"), std::string::npos) << a.status().message();
  // Storage: 600 GiB need 600 RU/s.
  StatusOr<ContainerReport> stored = ModelContainer(Uniform(600, 10, kGiBInt), Manual(500));
  ASSERT_FALSE(stored.ok());
  EXPECT_NE(stored.status().message().find("600 RU/s"), std::string::npos)
      << stored.status().message();
  // The layout says its minimum.
  ContainerReport ok = Model(Small(10), Manual(50000));
  EXPECT_EQ(ok.before.minimum_ru_per_second, 500);
  EXPECT_EQ(ok.before.minimum_rule, "highest");
}

TEST(CapacityTest, AboveAMillionNeedsAReason) {
  // From concepts-limits.md: 1,000,000 RU/s per container until a support ticket raises it.
  StatusOr<ContainerReport> big = ModelContainer(Small(10), Manual(1200000));
  ASSERT_FALSE(big.ok());
  EXPECT_EQ(big.status().field(), "/ru_per_second");
  EXPECT_NE(big.status().message().find("quota_increase_reason"), std::string::npos);
  ContainerOptions reasoned = Manual(1200000);
  reasoned.quota_increase_reason = "support ticket 123";
  ContainerReport r = Model(Small(10), reasoned);
  EXPECT_EQ(r.before.ranges.size(), 200u);
}

// --- Serverless ---

TEST(CapacityTest, TheServerlessTable) {
  // From serverless-performance.md, "Request unit changes".
  const struct {
    double gb;
    int64_t partitions;
    double ru;
  } rows[] = {{50, 1, 5000},  {100, 2, 5000}, {150, 3, 5000}, {200, 4, 5000},   {250, 5, 5000},
              {300, 6, 6000}, {350, 7, 7000}, {400, 8, 8000}, {1000, 20, 20000}};
  for (const auto& row : rows) {
    EXPECT_EQ(ServerlessPartitionCount(row.gb * kGiB), row.partitions) << row.gb;
    EXPECT_EQ(ServerlessRuPerSecond(row.partitions), row.ru) << row.gb;
  }
}

TEST(CapacityTest, Serverless300GbIs6PartitionsOf1000) {
  // From serverless-performance.md: <= 300 GB, 6 partitions, 6,000 RU/s, 1,000 each.
  ContainerOptions o;
  o.serverless = true;
  ContainerReport r = Model(Uniform(300, 10, kGiBInt), o);
  EXPECT_EQ(r.before.throughput_mode, "serverless");
  ASSERT_EQ(r.before.ranges.size(), 6u);
  EXPECT_EQ(r.before.ru_per_second, 6000);
  EXPECT_EQ(r.before.ranges[0].ru_share, 1000);
}

TEST(CapacityTest, ServerlessWithThroughputIsAnError) {
  // Authored.
  ContainerOptions o = Manual(400, 12000);
  o.serverless = true;
  StatusOr<ContainerReport> r = ModelContainer(Small(10), o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "/created_ru_per_second");
}

// --- Hierarchical keys: a prefix spreads over several physical partitions ---

TEST(CapacityTest, AHierarchicalPrefixSpreadsInsideItself) {
  // Authored (hierarchical-partition-keys.md: a prefix may exceed 20 GB and its keys spread over
  // several physical partitions; only a full key is bound to one): one tenant with 100 keys of
  // 1 GiB after growth.
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < 100; ++i) {
    parts.push_back(
        Part(Key({KeyComponent::String("tenant"), KeyComponent::Number(i)}), 10, kGiBInt / 2));
  }
  parts.push_back(Part(Key({KeyComponent::String("other"), KeyComponent::Number(1)}), 1, 10));
  ContainerOptions options;
  options.version = V::kMultiHash;
  options.growth = 2;  // 100 GiB under one prefix
  options.route = Key({KeyComponent::String("tenant")});
  ContainerReport r = Model(Report(parts, {"/tenant", "/user"}), options);
  ASSERT_TRUE(r.grown);
  EXPECT_FALSE(r.split_cannot_help);
  EXPECT_EQ(FindCode(r, "physical_partition_over_50gb"), nullptr);
  EXPECT_EQ(FindCode(r, "logical_partition_over_20gb"), nullptr);
  int holding = 0;
  uint64_t keys = 0;
  for (const PhysicalPartition& p : r.after.ranges) {
    EXPECT_LE(p.bytes, 50 * kGiB);
    if (p.logical_partitions >= 10) {
      ++holding;
      keys += p.logical_partitions;
    }
  }
  EXPECT_GE(holding, 2);
  EXPECT_GE(keys, 100u);
  // A query on the prefix reaches the partitions that hold it: one before growing, several after
  // (route is on `before`, route_after on `after`, each with its own layout's ids).
  ASSERT_TRUE(r.route.has_value());
  EXPECT_EQ(r.route->kind, "range");
  EXPECT_EQ(r.route->range_ids.size(), 1u);
  ASSERT_TRUE(r.route_after.has_value());
  EXPECT_EQ(r.route_after->kind, "range");
  EXPECT_GE(r.route_after->range_ids.size(), 2u);
  const auto in = [](const LayoutView& v, int id) {
    for (const PhysicalPartition& p : v.ranges) {
      if (p.range.id == id) return true;
    }
    return false;
  };
  for (int id : r.route->range_ids) EXPECT_TRUE(in(r.before, id)) << id;
  for (int id : r.route_after->range_ids) EXPECT_TRUE(in(r.after, id)) << id;
  // Every logical partition that changed range went into a child of its own partition.
  EXPECT_GT(r.moved_count, 0u);
  EXPECT_EQ(r.moved_into_split_children, r.moved_count);
}

TEST(CapacityTest, AFullHierarchicalKeyOver20GbIsStillAFinding) {
  // Authored: one full key of 25 GiB.
  std::vector<LogicalPartition> parts;
  parts.push_back(
      Part(Key({KeyComponent::String("tenant"), KeyComponent::Number(0)}), 10, 25 * kGiBInt));
  parts.push_back(
      Part(Key({KeyComponent::String("tenant"), KeyComponent::Number(1)}), 10, kGiBInt));
  ContainerOptions options;
  options.version = V::kMultiHash;
  ContainerReport r = Model(Report(parts, {"/tenant", "/user"}), options);
  EXPECT_NE(FindCode(r, "logical_partition_over_20gb"), nullptr);
}

// --- RU/s needed ---

AnalysisReport Zipf1000() {
  std::vector<LogicalPartition> parts;
  for (int i = 0; i < 1000; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 1000, 1000000));
  return Report(std::move(parts));
}

ContainerOptions ZipfReads(double reads, double ru) {
  ContainerOptions o = Manual(ru);
  o.workload.point_reads_per_second = reads;
  o.workload.spread = RequestSpread::kZipf;
  o.workload.zipf_exponent = 1;
  return o;
}

TEST(CapacityTest, RuNeededIsTheLeastThatDoesNotThrottle) {
  // Authored: 1,000 keys of 1 KB items, 30,000 reads/s spread by Zipf (the hottest key needs
  // 30,000 / H(1000) = 4,000 RU/s).
  const AnalysisReport data = Zipf1000();
  ContainerReport r = Model(data, ZipfReads(30000, 400));
  const RuNeeded& n = r.ru_needed;
  ASSERT_TRUE(n.judged);
  ASSERT_TRUE(n.possible) << n.reason;
  EXPECT_NEAR(n.hottest_logical_ru, 30000 / 7.4854708606, 1);
  // Manual, created at the figure: no throttling; 100 RU/s less: throttling.
  ASSERT_GT(n.manual_ru_per_second, 500);
  EXPECT_EQ(std::fmod(n.manual_ru_per_second, 100), 0);
  EXPECT_EQ(Model(data, ZipfReads(30000, n.manual_ru_per_second)).before.throttled_fraction, 0);
  EXPECT_GT(Model(data, ZipfReads(30000, n.manual_ru_per_second - 100)).before.throttled_fraction,
            0);
  // Autoscale maximum alike.
  ContainerOptions a = ZipfReads(30000, n.autoscale_max_ru_per_second);
  a.autoscale = true;
  EXPECT_EQ(Model(data, a).before.throttled_fraction, 0);
  a.ru_per_second -= 100;
  EXPECT_GT(Model(data, a).before.throttled_fraction, 0);
  // Created at one figure and set to another.
  ContainerOptions c = ZipfReads(30000, n.manual_rescaled_ru_per_second);
  c.created_ru_per_second = n.manual_rescaled_created_ru_per_second;
  EXPECT_EQ(Model(data, c).before.throttled_fraction, 0);
  EXPECT_LE(n.manual_rescaled_ru_per_second, n.manual_ru_per_second);
}

TEST(CapacityTest, AKeyOver6000RuNeedsARaiseAfterCreation) {
  // Authored: the hottest key needs 8,000 RU/s: no container created with manual RU/s serves it
  // (6,000 per partition), one created and then raised does.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 8000, 1000000));
  for (int i = 0; i < 50; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 100, 100000));
  const AnalysisReport data = Report(std::move(parts));
  ContainerOptions o = Manual(400);
  o.workload.point_reads_per_second = 13000;  // 8,000 to "hot", 100 to each other key
  ContainerReport r = Model(data, o);
  const RuNeeded& n = r.ru_needed;
  ASSERT_TRUE(n.possible) << n.reason;
  EXPECT_EQ(n.manual_ru_per_second, 0);
  ASSERT_GT(n.manual_rescaled_ru_per_second, 0);
  EXPECT_NE(n.reason.find("6,000 RU/s"), std::string::npos) << n.reason;
  ContainerOptions c = o;
  c.created_ru_per_second = n.manual_rescaled_created_ru_per_second;
  c.ru_per_second = n.manual_rescaled_ru_per_second;
  EXPECT_EQ(Model(data, c).before.throttled_fraction, 0);
  c.ru_per_second -= 100;
  EXPECT_GT(Model(data, c).before.throttled_fraction, 0);
  EXPECT_GT(n.autoscale_max_ru_per_second, 0);
}

TEST(CapacityTest, NoRuServesALogicalPartitionOver10000) {
  // Authored.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 1000, 1000000));
  parts.push_back(Part(Str("cold"), 1, 1000));
  ContainerOptions o = Manual(400);
  o.workload.point_reads_per_second = 12000;
  ContainerReport r = Model(Report(std::move(parts)), o);
  EXPECT_TRUE(r.ru_needed.judged);
  EXPECT_FALSE(r.ru_needed.possible);
  EXPECT_NE(r.ru_needed.reason.find("10,000 RU/s"), std::string::npos) << r.ru_needed.reason;
  EXPECT_EQ(r.ru_needed.manual_ru_per_second, 0);
}

// --- Throughput redistribution ---

// The target-partition-info pairs "id=RU id=RU" of the Azure CLI commands.
std::vector<std::pair<int, double>> CommandPairs(const Redistribution& r) {
  std::vector<std::pair<int, double>> out;
  for (const std::string& command : r.azure_cli) {
    const size_t at = command.find("--target-partition-info \"");
    EXPECT_NE(at, std::string::npos) << command;
    std::string list = command.substr(at + 25);
    list = list.substr(0, list.find('"'));
    size_t pos = 0;
    while (pos < list.size()) {
      size_t end = list.find(' ', pos);
      if (end == std::string::npos) end = list.size();
      const std::string pair = list.substr(pos, end - pos);
      const size_t eq = pair.find('=');
      out.emplace_back(std::stoi(pair.substr(0, eq)), std::stod(pair.substr(eq + 1)));
      pos = end + 1;
    }
  }
  return out;
}

TEST(CapacityTest, RedistributionRemovesThrottlingWithinTheSameTotal) {
  // Authored: 12,000 RU/s manual is 2 partitions of 6,000; 9,000 reads/s, 8,000 of them on one
  // key, throttle its partition; 8,000 + the other's demand fit in 12,000.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 8000, 1000000));
  for (int i = 0; i < 50; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 20, 100000));
  const AnalysisReport data = Report(std::move(parts));
  ContainerOptions o = Manual(12000);
  o.workload.point_reads_per_second = 9000;
  ContainerReport r = Model(data, o);
  ASSERT_GT(r.before.throttled_fraction, 0);
  const Redistribution& d = r.redistribution;
  ASSERT_TRUE(d.judged);
  ASSERT_TRUE(d.possible) << d.reason;
  EXPECT_TRUE(d.same_total);
  EXPECT_EQ(d.throttled_fraction, 0);
  // The command's ids are the layout's, and its RU/s sum to the container's.
  const std::vector<std::pair<int, double>> pairs = CommandPairs(d);
  ASSERT_EQ(pairs.size(), r.before.ranges.size());
  double sum = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    EXPECT_EQ(pairs[i].first, r.before.ranges[i].range.id);
    EXPECT_GE(pairs[i].second, r.before.ranges[i].demand_ru);
    EXPECT_LE(pairs[i].second, 10000);
    sum += pairs[i].second;
  }
  EXPECT_EQ(sum, 12000);
  EXPECT_NE(d.powershell.find("New-AzCosmosDBPhysicalPartitionThroughputObject -Id \"" +
                              std::to_string(pairs[0].first) + "\" -Throughput"),
            std::string::npos)
      << d.powershell;
  EXPECT_NE(d.powershell.find("Update-AzCosmosDBSqlContainerPerPartitionThroughput"),
            std::string::npos);
}

TEST(CapacityTest, RedistributionAsksForTheLeastTotalWhenTheRuSDoNotSuffice) {
  // Authored: 400 RU/s, 2,000 reads/s over 100 keys: the least total is 2,000 RU/s.
  ContainerOptions o = Manual(400);
  o.workload.point_reads_per_second = 2000;
  ContainerReport r = Model(Uniform(100, 10, 10000), o);
  const Redistribution& d = r.redistribution;
  ASSERT_TRUE(d.possible) << d.reason;
  EXPECT_FALSE(d.same_total);
  EXPECT_EQ(d.total_ru_per_second, 2000);
  EXPECT_EQ(d.throttled_fraction, 0);
}

TEST(CapacityTest, NoRedistributionServesAPartitionOver10000) {
  // Authored.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 1000, 1000000));
  ContainerOptions o = Manual(20000);
  o.workload.point_reads_per_second = 12000;
  ContainerReport r = Model(Report(std::move(parts)), o);
  EXPECT_TRUE(r.redistribution.judged);
  EXPECT_FALSE(r.redistribution.possible);
  EXPECT_TRUE(r.redistribution.azure_cli.empty());
}

// --- Burst capacity ---

TEST(CapacityTest, BurstCapacityAbsorbsASpikeFor10Seconds) {
  // From burst-capacity.md: a partition of 100 RU/s idle for 5 minutes banks 30,000 RU, spent at
  // 3,000 RU/s: 10 seconds. Here 400 RU/s over 4 partitions (created at 24,000, lowered).
  // Created at 24,000 (4 partitions), lowered to 400 (the minimum after 24,000 is 240).
  ContainerOptions o = Manual(400, 24000);
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 3000, 1000000));
  for (int i = 0; i < 40; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 1, 1000));
  o.workload.point_reads_per_second = 3040;  // 3,000 RU/s on "hot"
  ContainerReport r = Model(Report(std::move(parts)), o);
  ASSERT_EQ(r.before.ranges.size(), 4u);
  bool found = false;
  for (const PhysicalPartition& p : r.before.ranges) {
    EXPECT_TRUE(p.burst_eligible);
    EXPECT_EQ(p.burst_bank_ru, 30000);
    if (p.demand_ru >= 3000) {
      found = true;
      EXPECT_NEAR(p.burst_seconds, 10, 1e-9);
    }
  }
  EXPECT_TRUE(found);
  // 3,000 RU/s per partition and more cannot burst.
  ContainerReport big = Model(Small(10), Manual(6000));
  EXPECT_FALSE(big.before.ranges[0].burst_eligible);
}

// --- Autoscale billing ---

TEST(CapacityTest, AutoscaleBillsTheHottestPartitionUnlessScalingIsDynamic) {
  // From autoscale-per-partition-region.md, the write region of its example: 1,000 RU/s on 2
  // partitions of up to 500, one using 500 and the other 200: 1,000 billed by default, 700 with
  // dynamic scaling. Here the maximum is 20,000 (2 partitions) and the demand 10,000 and 4,000.
  std::vector<LogicalPartition> parts;
  // Two keys, one in each of 2 ranges: pick them by EPK.
  std::vector<PartitionKey> left, right;
  const std::string mid = Mid("", "FF");
  for (int i = 0; left.empty() || right.empty(); ++i) {
    PartitionKey k = Str("k" + std::to_string(i));
    (Epk(k, V::kV2) < mid ? left : right).push_back(k);
  }
  parts.push_back(Part(left[0], 5000, 1000000));
  parts.push_back(Part(right[0], 2000, 1000000));
  ContainerOptions o = Manual(20000);
  o.autoscale = true;
  o.workload.point_reads_per_second = 7000;  // 5,000 and 2,000 RU/s
  ContainerReport r = Model(Report(std::move(parts)), o);
  ASSERT_EQ(r.before.ranges.size(), 2u);
  EXPECT_DOUBLE_EQ(r.before.autoscale_billed_ru_per_second, 10000);  // 2 x 5,000
  EXPECT_DOUBLE_EQ(r.before.autoscale_dynamic_billed_ru_per_second, 7000);
  // A light workload bills the floor: max / 10.
  o.workload.point_reads_per_second = 70;
  ContainerReport light =
      Model(Report({Part(left[0], 5000, 1000000), Part(right[0], 2000, 1000000)}), o);
  EXPECT_DOUBLE_EQ(light.before.autoscale_billed_ru_per_second, 2000);
  EXPECT_DOUBLE_EQ(light.before.autoscale_dynamic_billed_ru_per_second, 2000);
}

// --- Merge: merge.md's two conditions, the layout a merge leaves ---

TEST(CapacityTest, MergeTheDocsExample) {
  // From merge.md, "How to identify containers to merge": an autoscale container of 5,000 RU/s
  // (max) on five physical partitions has 1,000 RU/s per partition, and 74 GB over five is 14.8 GB
  // per partition: both conditions hold. The five partitions come from a creation at 50,000
  // (authored: the docs do not say how the container got them).
  ContainerOptions o = Manual(5000, 50000);
  o.autoscale = true;
  ContainerReport r = Model(Uniform(74, 1000, static_cast<uint64_t>(kBytesPerGigabyte)), o);
  ASSERT_EQ(r.before.ranges.size(), 5u);
  const MergeView& m = r.merge;
  ASSERT_TRUE(m.judged);
  EXPECT_EQ(m.ru_per_partition, 1000);
  EXPECT_NEAR(m.average_bytes_per_partition / kBytesPerGigabyte, 14.8, 1e-9);
  EXPECT_TRUE(m.low_throughput);
  EXPECT_TRUE(m.low_storage);
  EXPECT_TRUE(m.eligible);
  // Authored (our assumption): the fewest the RU/s and the data need, max(1, ceil(74 / 50)) = 2.
  EXPECT_EQ(m.partitions_before, 5);
  EXPECT_EQ(m.partitions_after, 2);
  EXPECT_EQ(m.ru_per_partition_after, 2500);
  EXPECT_NE(m.azure_cli.find("az cosmosdb sql container merge"), std::string::npos);
  EXPECT_NE(m.powershell.find("Invoke-AzCosmosDBSqlContainerMerge"), std::string::npos);
  EXPECT_NE(m.powershell.find("-WhatIf"), std::string::npos);
}

TEST(CapacityTest, MergeIsNotForBusyPartitionsOrServerless) {
  // Authored: 18,000 RU/s on 3 partitions is 6,000 per partition, not under 3,000.
  ContainerReport busy = Model(Small(100), Manual(18000));
  EXPECT_TRUE(busy.merge.judged);
  EXPECT_FALSE(busy.merge.low_throughput);
  EXPECT_FALSE(busy.merge.eligible);
  EXPECT_NE(busy.merge.reason.find("not under 3,000 RU/s"), std::string::npos) << busy.merge.reason;
  // 400 RU/s on one partition: both conditions, but one partition is already the fewest.
  ContainerReport one = Model(Small(100), Manual(400));
  EXPECT_TRUE(one.merge.low_throughput && one.merge.low_storage);
  EXPECT_FALSE(one.merge.eligible);
  EXPECT_EQ(one.merge.partitions_after, 1);
  // merge.md: "Merge doesn't apply to serverless accounts."
  ContainerOptions serverless;
  serverless.serverless = true;
  ContainerReport s = Model(Small(100), serverless);
  EXPECT_FALSE(s.merge.judged);
  EXPECT_FALSE(s.merge.eligible);
}

TEST(CapacityTest, AMergeGivesAHotPartitionMoreOfTheRuS) {
  // Authored: created at 60,000 RU/s (10 partitions) and lowered to 6,000, each partition has
  // 600 RU/s; a key read at 1,500 RU/s throttles. Merged to one partition of 6,000 it does not.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 1500, 1000000));
  for (int i = 0; i < 40; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 1, 100000));
  ContainerOptions o = Manual(6000, 60000);
  o.workload.point_reads_per_second = 1540;
  ContainerReport r = Model(Report(std::move(parts)), o);
  ASSERT_EQ(r.before.ranges.size(), 10u);
  const MergeView& m = r.merge;
  ASSERT_TRUE(m.eligible) << m.reason;
  EXPECT_EQ(m.partitions_after, 1);
  EXPECT_EQ(m.ru_per_partition_after, 6000);
  EXPECT_GT(m.throttled_fraction_before, 0);
  EXPECT_EQ(m.throttled_fraction_after, 0);
  EXPECT_NE(m.reason.find("throttled share goes from"), std::string::npos) << m.reason;
}

// --- Shared-throughput databases: set-throughput.md ---

AnalysisReport HotKey() {
  // 9,000 items on one key, 1,000 on fifty others: at 10,000 reads/s the hot key asks 9,000 RU/s.
  std::vector<LogicalPartition> parts;
  parts.push_back(Part(Str("hot"), 9000, 1000000));
  for (int i = 0; i < 50; ++i) parts.push_back(Part(Str("k" + std::to_string(i)), 20, 100000));
  return Report(std::move(parts));
}

TEST(CapacityTest, ASharedDatabaseLetsABusyContainerStarveTheSmallOnes) {
  // Authored, on set-throughput.md's rule (the database's RU/s shared by its containers, whose
  // logical partitions share its physical partitions) and the best-practices doc's creation rule
  // for a shared database (10,000 RU/s per partition): 20,000 RU/s is 2 partitions of 10,000.
  ContainerOptions o = Manual(20000);
  o.shared_database = true;
  o.shared_with = {{"small-a", 1 * kBytesPerGigabyte, 2000}};
  o.workload.point_reads_per_second = 10000;
  ContainerReport r = Model(HotKey(), o);
  ASSERT_EQ(r.before.ranges.size(), 2u);
  const SharedDatabaseView& sh = r.shared;
  ASSERT_TRUE(sh.judged);
  EXPECT_EQ(sh.partitions, 2);
  EXPECT_EQ(sh.ru_per_partition, 10000);
  ASSERT_EQ(sh.containers.size(), 2u);
  EXPECT_EQ(sh.containers[0].name, "this container");
  EXPECT_EQ(sh.containers[1].name, "small-a");
  // Each partition throttles every container's requests alike past its 10,000 RU/s; small-a asks
  // each partition for 1,000.
  double mean = 0;
  for (const PhysicalPartition& p : r.before.ranges) {
    const double total = p.demand_ru + 1000;
    const double f = total > 10000 ? 1 - 10000 / total : 0;
    EXPECT_DOUBLE_EQ(p.throttled_fraction, f);
    mean += f / 2;
  }
  EXPECT_GT(mean, 0);
  EXPECT_DOUBLE_EQ(sh.containers[1].throttled_fraction, mean);
  EXPECT_NE(sh.reason.find("throttled too"), std::string::npos) << sh.reason;
  // Alone on its own 20,000 RU/s (4 partitions of 5,000, created manual) the same key throttles
  // on its partition, but no other container is there to suffer.
  ContainerReport alone = Model(HotKey(), [] {
    ContainerOptions d = Manual(20000);
    d.workload.point_reads_per_second = 10000;
    return d;
  }());
  EXPECT_EQ(alone.before.ranges.size(), 4u);
  EXPECT_FALSE(alone.shared.judged);
}

TEST(CapacityTest, ASharedDatabaseCountsEveryContainersStorage) {
  // Authored: 590 GB in another container and 10 MB here: ceil(590.01 GB / 50 GB) = 12
  // partitions, and the minimum RU/s counts the database's 590 GB too (1 RU/s per GB: 400 is
  // below it).
  ContainerOptions o = Manual(400);
  o.shared_database = true;
  o.shared_with = {{"archive", 590 * kBytesPerGigabyte, 0}};
  EXPECT_EQ(ErrorOf(Small(10), o), ErrorCode::kBadOption);
  o.ru_per_second = 1000;
  ContainerReport r = Model(Small(10), o);
  EXPECT_EQ(r.before.ranges.size(), 12u);
  EXPECT_GE(r.before.minimum_ru_per_second, 590);
  EXPECT_NE(r.shared.reason.find("No container's requests are throttled"), std::string::npos)
      << r.shared.reason;
}

TEST(CapacityTest, SharedDatabaseOptionsAreChecked) {
  ContainerOptions stray = Manual(1000);
  stray.shared_with = {{"a", 0, 0}};  // without shared_database
  StatusOr<ContainerReport> r = ModelContainer(Small(10), stray);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "/shared_with");
  ContainerOptions many = Manual(1000);
  many.shared_database = true;
  for (int i = 0; i < 25; ++i) many.shared_with.push_back({"c" + std::to_string(i), 0, 0});
  r = ModelContainer(Small(10), many);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("26 containers in all, more than the 25"), std::string::npos)
      << r.status().message();
  ContainerOptions negative = Manual(1000);
  negative.shared_database = true;
  negative.shared_with = {{"a", -1, 0}};
  r = ModelContainer(Small(10), negative);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "/shared_with/0/storage_gb");
  ContainerOptions serverless;
  serverless.serverless = true;
  serverless.shared_database = true;
  r = ModelContainer(Small(10), serverless);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().field(), "/shared_database");
}

TEST(CapacityTest, NoWorkloadIsNotJudged) {
  ContainerReport r = Model(Small(10), Manual(400));
  EXPECT_FALSE(r.ru_needed.judged);
  EXPECT_FALSE(r.redistribution.judged);
}

}  // namespace
}  // namespace partplay
