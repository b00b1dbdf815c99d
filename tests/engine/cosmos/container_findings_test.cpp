// The container model's findings at their boundaries (20 GB logical partitions, key sizes, 50 GB
// physical partitions, 10,000 RU/s of demand, the analysis' item findings in their order) and
// query routing: a full key, no filter, the grown layout and hierarchical prefixes.
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
  options.created_ru_per_second = 24000;  // 4 partitions, raised to 10,000 RU/s each
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
  options.created_ru_per_second = 18000;  // 3 partitions
  options.route = PartitionKey{};
  ContainerReport r = Model(Uniform(20, 1, 100), options);
  ASSERT_TRUE(r.route.has_value());
  EXPECT_EQ(r.route->kind, "all");
  EXPECT_EQ(r.route->epk_min, "");
  EXPECT_EQ(r.route->epk_max, "FF");
  EXPECT_EQ(r.route->range_ids, (std::vector<int>{0, 1, 2}));
}

// The route is given on each layout with that layout's ids: before growing, on the one partition;
// after, on the split child holding the key (a route mixing the two named ids of neither).
TEST(ContainerTest, RouteIsGivenOnTheLayoutBeforeAndOnTheGrownLayout) {
  ContainerOptions options;
  options.ru_per_second = 10000;
  options.created_ru_per_second = 6000;  // 1 partition
  options.grown_ru_per_second = 20000;
  options.route = Str("k1");
  ContainerReport r = Model(Uniform(5, 1, 100), options);
  EXPECT_EQ(r.route->range_ids, std::vector<int>{0});
  ASSERT_TRUE(r.route_after.has_value());
  const bool left = Epk(Str("k1"), V::kV2) < Mid("", "FF");
  EXPECT_EQ(r.route_after->range_ids, std::vector<int>{left ? 1 : 2});
  EXPECT_EQ(r.moved_into_split_children, r.moved_count);
  options.grown_ru_per_second = 0;
  EXPECT_FALSE(Model(Uniform(5, 1, 100), options).route_after.has_value());
}

TEST(ContainerTest, RouteAHierarchicalPrefixToARange) {
  ContainerOptions options;
  options.version = V::kMultiHash;
  options.ru_per_second = 40000;
  options.created_ru_per_second = 24000;  // 4 partitions
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

}  // namespace
}  // namespace partplay
