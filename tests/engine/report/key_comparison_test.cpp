#include "partplay/report/key_comparison.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "partplay/core/limits.h"
#include "partplay/report/report_builder.h"

namespace partplay {
namespace {

// Orders of 40 tenants, tenant t0 holding half of them; users nested in tenants; `total` an
// amount with cents; `qty` a small whole number; a few items lack /userId.
std::string Orders(int n, uint32_t seed = 7) {
  std::mt19937 rng(seed);
  std::string s;
  for (int i = 0; i < n; ++i) {
    const int tenant = (rng() % 2 == 0) ? 0 : static_cast<int>(1 + rng() % 39);
    const int user = static_cast<int>(rng() % 25);
    const double total = static_cast<double>(rng() % 100000) / 100 + 0.01;
    s += fmt::format(R"({{"id":"o{}","tenantId":"t{}",)", i, tenant);
    if (i % 50 != 7) s += fmt::format(R"("userId":"t{}-u{}",)", tenant, user);
    s += fmt::format(R"("day":"2024-01-{:02}","total":{},"qty":{}}})", 1 + i % 28, total,
                     1 + rng() % 5);
    s += "\n";
  }
  return s;
}

AnalysisOptions Key(std::vector<std::string> paths) {
  AnalysisOptions o;
  o.key_paths = std::move(paths);
  o.discover_items = 0;
  return o;
}

AnalysisOptions Concat(std::vector<std::string> paths) {
  AnalysisOptions o = Key({paths[0]});
  o.synthetic.kind = SyntheticKeyOptions::Kind::kConcat;
  o.synthetic.paths = std::move(paths);
  return o;
}

AnalysisOptions Suffixed(SyntheticKeyOptions::Kind kind, std::string path, uint32_t buckets,
                         std::string suffix_path = {}) {
  AnalysisOptions o = Key({std::move(path)});
  o.synthetic.kind = kind;
  o.synthetic.buckets = buckets;
  o.synthetic.suffix_path = std::move(suffix_path);
  return o;
}

ComparisonReport Compare(const std::string& input, const std::vector<AnalysisOptions>& keys,
                         const ContainerOptions& container,
                         const std::vector<QueryFilter>& queries = {}) {
  auto c = KeyComparison::Create(keys);
  EXPECT_TRUE(c.ok()) << c.status().ToString();
  EXPECT_TRUE(c.value()->Feed(input).ok());
  EXPECT_TRUE(c.value()->Finish().ok());
  auto r = c.value()->Compare(container, queries);
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return std::move(r).value();
}

// The same key's own full report, the single-key way.
BuiltReport OwnReport(const std::string& input, const AnalysisOptions& key,
                      ContainerOptions container) {
  if (key.key_paths.size() > 1) container.version = PartitionKeyHashVersion::kMultiHash;
  auto a = Analyzer::Create(key);
  EXPECT_TRUE(a.ok());
  EXPECT_TRUE(a.value()->Feed(input).ok());
  EXPECT_TRUE(a.value()->Finish().ok());
  ReportRequest request;
  request.max_partitions = 1;
  request.container = container;
  auto built = BuildFullReport(*a.value(), key, request);
  EXPECT_TRUE(built.ok());
  return std::move(built).value();
}

TEST(KeyComparison, EveryRowEqualsThatKeysOwnReport) {
  const std::string input = Orders(3000);
  const std::vector<AnalysisOptions> keys = {
      Key({"/tenantId"}),
      Key({"/userId"}),
      Key({"/id"}),
      Key({"/tenantId", "/userId"}),
      Concat({"/tenantId", "/day"}),
      Suffixed(SyntheticKeyOptions::Kind::kHashSuffix, "/tenantId", 10, "/id")};
  ContainerOptions container;
  container.ru_per_second = 30000;
  container.growth = 5e6;  // t0's ~700 KB becomes > 20 GB
  container.workload.point_reads_per_second = 2000;
  container.workload.writes_per_second = 500;
  const ComparisonReport r = Compare(input, keys, container);
  ASSERT_EQ(r.keys.size(), keys.size());
  EXPECT_TRUE(r.workload_given);
  for (size_t i = 0; i < keys.size(); ++i) {
    SCOPED_TRACE(r.keys[i].label);
    const BuiltReport own = OwnReport(input, keys[i], container);
    const KeyFacts& k = r.keys[i];
    EXPECT_EQ(k.items, 3000u);
    EXPECT_EQ(k.logical_partitions, own.analysis.partition_count);
    EXPECT_EQ(k.undefined_key_items, own.analysis.undefined_key_items);
    EXPECT_EQ(k.largest_bytes, static_cast<double>(own.analysis.largest.bytes));
    EXPECT_EQ(k.largest_bytes_after, own.analysis.largest.bytes * container.growth);
    const LayoutView& last = own.container->after;
    ASSERT_TRUE(own.container->grown);
    EXPECT_EQ(k.physical_partitions, static_cast<int64_t>(last.ranges.size()));
    double busiest = 0;
    for (const PhysicalPartition& p : last.ranges) busiest = std::max(busiest, p.demand_ru);
    EXPECT_EQ(k.busiest_demand_ru, busiest);
    EXPECT_EQ(k.throttled_fraction, last.throttled_fraction);
    EXPECT_EQ(k.throttles, last.throttled_fraction > 0);
    EXPECT_EQ(k.ru_needed.manual_ru_per_second, own.container->ru_needed.manual_ru_per_second);
    EXPECT_EQ(k.ru_needed.autoscale_max_ru_per_second,
              own.container->ru_needed.autoscale_max_ru_per_second);
    EXPECT_EQ(k.ru_needed.possible, own.container->ru_needed.possible);
    uint64_t over = 0;
    for (double b : own.partition_bytes)
      over += b * container.growth > kCosmosLogicalPartitionBytes;
    EXPECT_EQ(k.over_20gb_partitions, over);
  }
  // /tenantId breaks 20 GB after growth, /userId lacks some items, /id fans the (no) queries
  // nowhere and spreads best: the pick has no problem and the lowest busiest demand.
  EXPECT_GT(r.keys[0].over_20gb_partitions, 0u);
  EXPECT_FALSE(r.keys[0].problems.empty());
  EXPECT_FALSE(r.keys[1].problems.empty());
  ASSERT_GE(r.best, 0);
  const KeyFacts& best = r.keys[static_cast<size_t>(r.best)];
  EXPECT_TRUE(best.problems.empty());
  EXPECT_EQ(best.rank, 1);
  for (const KeyFacts& k : r.keys) {
    if (k.problems.empty()) EXPECT_LE(best.busiest_demand_ru, k.busiest_demand_ru) << k.label;
  }
  EXPECT_NE(r.why.find(best.label + " is the pick"), std::string::npos) << r.why;
}

TEST(KeyComparison, QueriesThatFanOutRankBelowOnesThatRoute) {
  const std::string input = Orders(500);
  const std::vector<AnalysisOptions> keys = {Key({"/id"}), Key({"/tenantId", "/id"})};
  ContainerOptions container;
  const ComparisonReport r = Compare(input, keys, container, {{{"/tenantId"}}});
  ASSERT_EQ(r.keys[0].queries.size(), 1u);
  EXPECT_EQ(r.keys[0].queries[0].kind, "all");
  EXPECT_EQ(r.keys[0].queries[0].logical_partitions, 500);
  EXPECT_EQ(r.keys[1].queries[0].kind, "prefix");
  EXPECT_EQ(r.keys[1].queries[0].physical_partitions, -1);
  // Both fan out (a prefix reaches many logical partitions): the tie goes to balance, then order.
  EXPECT_EQ(r.keys[0].fanout_queries, 1u);
  EXPECT_EQ(r.keys[1].fanout_queries, 1u);
  const ComparisonReport full =
      Compare(input, keys, container, {{{"/tenantId", "/id"}}, {{"/id"}}});
  EXPECT_EQ(full.keys[0].fanout_queries, 0u);
  EXPECT_EQ(full.keys[1].queries[0].kind, "single");
  EXPECT_EQ(full.keys[1].queries[1].kind, "all");
  EXPECT_EQ(full.best, 0);
  EXPECT_EQ(full.keys[1].rank, 2);
  EXPECT_NE(full.why.find("sends 1 of the listed queries"), std::string::npos) << full.why;
}

// 4,000 items with a unique id and one of 200 regions, region r0 holding half of them.
std::string Regions() {
  std::string s;
  for (int i = 0; i < 4000; ++i) {
    s += fmt::format(R"({{"id":"i{}","region":"r{}"}})", i, i % 2 == 0 ? 0 : 1 + (i / 2) % 199);
    s += "\n";
  }
  return s;
}

TEST(KeyComparison, AKeyThatThrottlesIsNeverPickedOverOneThatDoesNot) {
  // Authored (issue 37): 12,000 RU/s manual is 2 partitions of 6,000; 11,000 reads/s put 5,500
  // on r0 alone, so /region throttles while /id does not. /region is listed first.
  const std::string input = Regions();
  ContainerOptions container;
  container.ru_per_second = 12000;
  container.workload.point_reads_per_second = 11000;
  const ComparisonReport r = Compare(input, {Key({"/region"}), Key({"/id"})}, container);
  const KeyFacts& region = r.keys[0];
  const KeyFacts& id = r.keys[1];
  EXPECT_TRUE(region.throttles);
  EXPECT_FALSE(id.throttles);
  ASSERT_EQ(region.problems.size(), 1u);  // "Problems" counts throttling
  EXPECT_NE(region.problems[0].find("throttled"), std::string::npos) << region.problems[0];
  EXPECT_TRUE(id.problems.empty());
  EXPECT_EQ(r.best, 1);
  EXPECT_EQ(region.rank, 2);
  EXPECT_GT(region.ru_needed_ru_per_second, 0);
  EXPECT_NE(r.why.find("/region has a problem"), std::string::npos) << r.why;
  // At 400 RU/s both throttle: the one needing fewer RU/s is picked, and the sentence says so.
  container.ru_per_second = 400;
  container.workload.point_reads_per_second = 8000;
  const ComparisonReport all = Compare(input, {Key({"/region"}), Key({"/id"})}, container);
  EXPECT_TRUE(all.keys[0].throttles);
  EXPECT_TRUE(all.keys[1].throttles);
  EXPECT_EQ(all.best, 1);
  EXPECT_LT(all.keys[1].ru_needed_ru_per_second, all.keys[0].ru_needed_ru_per_second);
  EXPECT_NE(all.why.find("although every key throttles"), std::string::npos) << all.why;
  EXPECT_NE(ComparisonToTable(all).find("RU/s needed"), std::string::npos);
}

TEST(KeyComparison, SyntheticKeysFanOutByKind) {
  const std::string input = Orders(300);
  ContainerOptions container;
  container.ru_per_second = 30000;  // 5 physical partitions (created with 6,000 RU/s each)
  const std::vector<AnalysisOptions> keys = {
      Concat({"/tenantId", "/day"}),
      Suffixed(SyntheticKeyOptions::Kind::kRandomSuffix, "/tenantId", 20),
      Suffixed(SyntheticKeyOptions::Kind::kHashSuffix, "/tenantId", 3, "/id")};
  const ComparisonReport r = Compare(
      input, keys, container, {{{"/tenantId"}}, {{"/tenantId", "/day"}}, {{"/tenantId", "/id"}}});
  EXPECT_EQ(r.keys[0].queries[0].kind, "all");
  EXPECT_EQ(r.keys[0].queries[1].kind, "single");
  EXPECT_EQ(r.keys[1].queries[0].kind, "buckets");
  EXPECT_EQ(r.keys[1].queries[0].logical_partitions, 20);
  EXPECT_EQ(r.keys[1].queries[0].physical_partitions, 5);
  EXPECT_EQ(r.keys[2].queries[0].kind, "buckets");
  EXPECT_EQ(r.keys[2].queries[0].physical_partitions, 3);
  EXPECT_EQ(r.keys[2].queries[2].kind, "single");
  EXPECT_EQ(KeyLabel(keys[0]), "/tenantId-/day");
  EXPECT_EQ(KeyLabel(keys[1]), "/tenantId-{1..20 random}");
  EXPECT_EQ(KeyLabel(keys[2]), "/tenantId-{hash(/id) % 3 + 1}");
  EXPECT_EQ(KeyLabel(Key({"/a", "/b"})), "[/a, /b]");
}

TEST(KeyComparison, MeasuresAreMarkedByFractionsOrByName) {
  const std::string input = Orders(400);
  const ComparisonReport r =
      Compare(input, {Key({"/total"}), Key({"/qty"}), Key({"/id"}), Key({"/tenantId", "/total"})},
              ContainerOptions{});
  EXPECT_TRUE(r.keys[0].measure_like);
  EXPECT_NE(r.keys[0].problems.back().find("numbers with fractions"), std::string::npos);
  EXPECT_TRUE(r.keys[1].measure_like);  // whole numbers, named like a quantity
  EXPECT_NE(r.keys[1].problems.back().find("named like a quantity"), std::string::npos);
  EXPECT_FALSE(r.keys[2].measure_like);
  EXPECT_TRUE(r.keys[3].measure_like);  // a hierarchical key's component counts too
  EXPECT_EQ(r.best, 2);
}

TEST(KeyComparison, SystemPropertiesAreAProblem) {
  std::string input;
  for (int i = 0; i < 300; ++i) {
    input += fmt::format(R"({{"id":"o{}","_rid":"r{}","_ts":{},"_etag":"\"e{}\""}})", i, i,
                         1700000000 + i, i);
    input += "\n";
  }
  const ComparisonReport r =
      Compare(input, {Key({"/_rid"}), Key({"/_ts"}), Key({"/id"})}, ContainerOptions{});
  for (int k : {0, 1}) {
    ASSERT_FALSE(r.keys[k].problems.empty()) << k;
    EXPECT_NE(r.keys[k].problems[0].find("system property Cosmos DB writes"), std::string::npos)
        << r.keys[k].problems[0];
  }
  EXPECT_TRUE(r.keys[2].problems.empty());
  EXPECT_EQ(r.best, 2);
}

TEST(KeyComparison, FewDistinctValuesAreAProblemOnlyWhenTheSampleShowsIt) {
  const ComparisonReport big = Compare(Orders(3000), {Key({"/day"})}, ContainerOptions{});
  ASSERT_EQ(big.keys[0].logical_partitions, 28u);
  ASSERT_EQ(big.keys[0].problems.size(), 1u);
  EXPECT_NE(big.keys[0].problems[0].find("only 28 distinct values"), std::string::npos);
  // 200 items over 28 days: too few items to say the values are few.
  const ComparisonReport small = Compare(Orders(200), {Key({"/day"})}, ContainerOptions{});
  EXPECT_TRUE(small.keys[0].problems.empty());
}

TEST(KeyComparison, NoPickWhenEveryKeyHasAProblem) {
  const std::string input = Orders(200);
  const ComparisonReport r =
      Compare(input, {Key({"/total"}), Key({"/missing"})}, ContainerOptions{});
  EXPECT_EQ(r.best, -1);
  EXPECT_EQ(r.keys[1].coverage, 0);
  EXPECT_NE(r.why.find("No key is picked"), std::string::npos) << r.why;
}

TEST(KeyComparison, WithoutAWorkloadNoThrottlingIsJudged) {
  const std::string input = Orders(200);
  ContainerOptions container;  // 400 RU/s and no request rates
  const ComparisonReport r = Compare(input, {Key({"/tenantId"})}, container);
  EXPECT_FALSE(r.workload_given);
  EXPECT_EQ(r.keys[0].busiest_demand_ru, 0);
  EXPECT_EQ(r.keys[0].throttled_fraction, 0);
  EXPECT_EQ(r.keys[0].hot_logical_partitions, 0u);
  EXPECT_NE(ComparisonToTable(r).find("No workload given"), std::string::npos);
}

TEST(KeyComparison, ChunkedInputGivesTheSameRows) {
  const std::string input = Orders(700, 3);
  const std::vector<AnalysisOptions> keys = {Key({"/tenantId"}), Key({"/userId"})};
  const std::string whole = ComparisonToJson(Compare(input, keys, ContainerOptions{}));
  auto c = KeyComparison::Create(keys);
  ASSERT_TRUE(c.ok());
  for (size_t at = 0; at < input.size(); at += 997) {
    ASSERT_TRUE(c.value()->Feed(std::string_view(input).substr(at, 997)).ok());
  }
  ASSERT_TRUE(c.value()->Finish().ok());
  auto r = c.value()->Compare(ContainerOptions{}, {});
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ComparisonToJson(r.value()), whole);
}

TEST(KeyComparison, BadInputFailsWithTheAnalyzersLocatedError) {
  const std::string input = "{\"id\":\"1\",\"k\":1}\n{\"id\":\"2\",\"k\":}\n";
  auto c = KeyComparison::Create({Key({"/k"}), Key({"/id"})});
  ASSERT_TRUE(c.ok());
  Status fed = c.value()->Feed(input);
  if (fed.ok()) fed = c.value()->Finish();
  auto a = Analyzer::Create(Key({"/k"}));
  Status alone = a.value()->Feed(input);
  if (alone.ok()) alone = a.value()->Finish();
  ASSERT_FALSE(fed.ok());
  EXPECT_EQ(fed.ToString(), alone.ToString());
  EXPECT_EQ(fed.where().line, 2);
}

TEST(KeyComparison, CreateRefusesNoKeysTooManyAndBadKeysNamingThem) {
  EXPECT_EQ(KeyComparison::Create({}).status().code(), ErrorCode::kBadOption);
  std::vector<AnalysisOptions> nine(kMaxComparedKeys + 1, Key({"/a"}));
  EXPECT_EQ(KeyComparison::Create(nine).status().code(), ErrorCode::kBadOption);
  AnalysisOptions bad = Suffixed(SyntheticKeyOptions::Kind::kHashSuffix, "/a", 5);  // no source
  auto s = KeyComparison::Create({Key({"/a"}), bad}).status();
  EXPECT_EQ(s.code(), ErrorCode::kBadOption);
  EXPECT_NE(s.message().find("key /a-{hash() % 5 + 1}"), std::string::npos) << s.message();
}

TEST(ComparisonRequestJson, ReadsKeysContainerQueriesAndWeight) {
  auto r = ParseComparisonRequestJson(
      R"({"keys":[{"key_paths":["/tenantId"]},{"key_paths":["/tenantId","/userId"]},
          {"key_paths":["/tenantId"],"synthetic":{"kind":"hash_suffix","suffix_path":"/id","buckets":10}},
          {"key_paths":["/id"],"discover_items":5}],
          "container":{"ru_per_second":12000,"growth":10,"workload":{"point_reads_per_second":100}},
          "queries":[{"filter":["/tenantId"]},{"filter":[]}],"weight_path":"/w"})");
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->keys.size(), 4u);
  EXPECT_EQ(r->keys[1].key_paths.size(), 2u);
  EXPECT_EQ(r->keys[2].synthetic.buckets, 10u);
  EXPECT_EQ(r->keys[0].discover_items, 0);
  EXPECT_EQ(r->keys[3].discover_items, 5);
  EXPECT_EQ(r->keys[0].weight_path, "/w");
  EXPECT_EQ(r->container.ru_per_second, 12000);
  ASSERT_EQ(r->queries.size(), 2u);
  EXPECT_EQ(r->queries[0].paths, std::vector<std::string>{"/tenantId"});
  EXPECT_TRUE(r->queries[1].paths.empty());
}

TEST(ComparisonRequestJson, BadRequestsNameTheField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({})", "keys"},
      {R"({"keys":[]})", "keys"},
      {R"({"keys":[{"key_paths":["/a"],"bogus":1}]})", "keys[0]"},
      {R"({"keys":[{"key_paths":["/a"]}],"queries":[{"filter":"/a"}]})", "queries[0]"},
      {R"({"keys":[{"key_paths":["/a"]}],"queries":[{"filter":["a"]}]})", "queries[0]"},
      {R"({"keys":[{"key_paths":["/a"]}],"container":{"ru_per_second":"x"}})", "container"},
      {R"({"keys":[{"key_paths":["/a"]}],"extra":1})", "extra"},
      {R"({"keys":[1]})", "keys[0]"},
  };
  for (const auto& [json, field] : cases) {
    auto r = ParseComparisonRequestJson(json);
    ASSERT_FALSE(r.ok()) << json;
    EXPECT_EQ(r.status().code(), ErrorCode::kBadOption) << json;
    EXPECT_NE(r.status().message().find(field), std::string::npos)
        << json << " -> " << r.status().message();
  }
  std::string many = R"({"keys":[)";
  for (size_t i = 0; i <= kMaxComparedKeys; ++i)
    many += std::string(i ? "," : "") + R"({"key_paths":["/a"]})";
  many += "]}";
  EXPECT_FALSE(ParseComparisonRequestJson(many).ok());
  EXPECT_EQ(ParseComparisonRequestJson("{\"keys\":").status().code(), ErrorCode::kMalformedJson);
}

TEST(ComparisonRequestJson, TheModelRequestTakesNoKeys) {
  auto m = ParseComparisonModelJson(R"({"container":{"growth":3},"queries":[{"filter":["/a"]}]})");
  ASSERT_TRUE(m.ok()) << m.status().ToString();
  EXPECT_EQ(m->container.growth, 3);
  EXPECT_TRUE(m->keys.empty());
  EXPECT_TRUE(ParseComparisonModelJson("{}").ok());
  EXPECT_FALSE(ParseComparisonModelJson(R"({"keys":[{"key_paths":["/a"]}]})").ok());
  EXPECT_FALSE(ParseComparisonModelJson(R"({"weight_path":"/w"})").ok());
}

}  // namespace
}  // namespace partplay
