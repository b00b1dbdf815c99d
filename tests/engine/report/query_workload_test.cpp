// The comparison's queries (report/query_workload.h): the query list's text, parameters bound from
// the data, and targeting under every kind of key, checked against where the traffic pass finds
// the matching items (a query's matches can only be in the partitions it visits). Authored.
#include "partplay/report/query_workload.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "partplay/ingest/synthetic_key.h"
#include "partplay/report/key_comparison.h"

namespace partplay {
namespace {

using Kind = SyntheticKeyOptions::Kind;

AnalysisOptions Key(std::vector<std::string> paths) {
  AnalysisOptions o;
  o.key_paths = std::move(paths);
  o.discover_items = 0;
  return o;
}

std::string Orders() {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/orders.ndjson", std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

TEST(QueryWorkloadTest, ReadsAQueryListWithRatesParametersAndPaths) {
  auto list = ParseQueryList(
      "# the app's queries\n"
      "50 SELECT * FROM c WHERE c.userId = @u\n"
      "\n"
      "SELECT VALUE COUNT(1) FROM c\n"
      "2.5 /tenantId, /userId\n"
      "@u = \"u1\"\n"
      "@n = 5\n");
  ASSERT_TRUE(list.ok()) << list.status().ToString();
  ASSERT_EQ(list.value().queries.size(), 3u);
  EXPECT_EQ(list.value().queries[0].rate, 50);
  EXPECT_EQ(list.value().queries[0].sql, "SELECT * FROM c WHERE c.userId = @u");
  EXPECT_EQ(list.value().queries[1].rate, 0);
  EXPECT_EQ(list.value().queries[2].paths, (std::vector<std::string>{"/tenantId", "/userId"}));
  EXPECT_EQ(list.value().queries[2].rate, 2.5);
  EXPECT_EQ(list.value().parameters.at("@u").string(), "u1");
  EXPECT_EQ(list.value().parameters.at("@n").number(), 5);
  for (const auto& [text, message] : std::vector<std::pair<std::string, std::string>>{
           {"SELECT 1\n@u 5\n", "queries, line 2: a parameter line reads @name = JSON value"},
           {"@u = 1\n@u = 2\n", "queries, line 2: the parameter is given twice"},
           {"@u = tru\n", "queries, line 1: @u: "},
           {"5x SELECT 1\n", "queries, line 1: a line starts with a rate"},
           {"/a, b\n", "queries, line 1: a path list reads /a, /b"},
       }) {
    auto bad = ParseQueryList(text);
    ASSERT_FALSE(bad.ok()) << text;
    EXPECT_EQ(bad.status().message().rfind(message, 0), 0u) << bad.status().message();
  }
  std::string many;
  for (int i = 0; i < 17; ++i) many += "SELECT 1\n";
  EXPECT_FALSE(ParseQueryList(many).ok());
}

TEST(QueryWorkloadTest, PreparingNamesTheQueryAndWhatAParameterLacks) {
  std::vector<QuerySpec> q(2);
  q[0].sql = "SELECT * FROM c";
  q[1].sql = "SELECT * FROM c WHERE c.a >";
  Status s = PrepareQueries(q, {});
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "query 2: SC1002: Syntax error, unexpected end-of-file.");
  q[1].sql = "SELECT * FROM c WHERE c.a > @min";
  s = PrepareQueries(q, {});
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("query 2: parameter @min is not compared by = or IN"),
            std::string::npos);
  cosmosql::Parameters given;
  given.emplace("@min", cosmosql::Value::Number(3));
  EXPECT_TRUE(PrepareQueries(q, given).ok());
  EXPECT_TRUE(PointersToCount(q, given).empty());
  q[1].sql = "SELECT TOP @n * FROM c WHERE c.a = @a OR c.b IN (1, @b)";
  ASSERT_TRUE(PrepareQueries(q, {}).ok());
  EXPECT_EQ(PointersToCount(q, {}), (std::vector<std::string>{"/a", "/b"}));
  // A path list is the query it stands for.
  q[0] = QuerySpec{};
  q[0].paths = {"/tenant id", "/a~1b"};
  ASSERT_TRUE(PrepareQueries(q, {}).ok());
  EXPECT_EQ(q[0].text, "/tenant id, /a~1b");
  EXPECT_EQ(cosmosql::ToString(*q[0].parsed),
            "SELECT * FROM c WHERE c[\"tenant id\"] = @p1 AND c[\"a/b\"] = @p2");
}

// The orders example compared under `keys` with `queries` at 60,000 RU/s, then read a second
// time to place each query's matches (the comparison's two reads, as comparison_run.h runs them).
struct ComparedOrders {
  StatusOr<ComparisonReport> report = Status(ErrorCode::kInvalidState, "not compared");
  KeyTraffic traffic;

  void Compare(const std::vector<AnalysisOptions>& keys, std::vector<QuerySpec>& queries) {
    ASSERT_TRUE(PrepareQueries(queries, {}).ok());
    ASSERT_TRUE(BindParameters(queries, {}, nullptr).ok());
    const std::string input = Orders();
    auto cmp = KeyComparison::Create(keys);
    ASSERT_TRUE(cmp.ok());
    ASSERT_TRUE(cmp.value()->Feed(input).ok());
    ASSERT_TRUE(cmp.value()->Finish().ok());
    ContainerOptions container;
    container.ru_per_second = 60000;
    report = cmp.value()->Compare(container, queries);
    ASSERT_TRUE(report.ok()) << report.status().ToString();
    auto evaluators = EvaluatorsOf(queries);
    ASSERT_TRUE(evaluators.ok());
    std::vector<ItemQuery*> raw;
    for (auto& e : evaluators.value()) raw.push_back(e.get());
    WriteSpreadOptions writes;
    writes.enabled = false;
    auto pass = KeyTrafficPass::Create(TrafficKeysOf(report.value()), raw, writes);
    ASSERT_TRUE(pass.ok());
    ASSERT_TRUE(pass.value()->Feed(input).ok());
    ASSERT_TRUE(pass.value()->Finish().ok());
    traffic = pass.value()->result();
    ASSERT_TRUE(ApplyTraffic(report.value(), traffic).ok());
  }
};

// Every kind of key, queries with literals on its paths: each query's matches lie in the
// physical partitions its targeting visits, and a single-partition query's EPK is its key's.
TEST(QueryWorkloadTest, MatchesLieInTheVisitedPartitionsUnderEveryKindOfKey) {
  AnalysisOptions concat = Key({"/customerId"});
  concat.synthetic.kind = Kind::kConcat;
  concat.synthetic.paths = {"/customerId", "/status"};
  AnalysisOptions random = Key({"/customerId"});
  random.synthetic.kind = Kind::kRandomSuffix;
  random.synthetic.buckets = 5;
  random.synthetic.seed = 3;
  AnalysisOptions hashed = Key({"/customerId"});
  hashed.synthetic.kind = Kind::kHashSuffix;
  hashed.synthetic.buckets = 4;
  hashed.synthetic.suffix_path = "/channel";
  const std::vector<AnalysisOptions> keys = {Key({"/customerId"}), Key({"/status", "/customerId"}),
                                             concat, random, hashed};
  std::vector<QuerySpec> queries(6);
  queries[0].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018'";
  queries[1].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018' AND c.status = 'shipped'";
  queries[2].sql = "SELECT * FROM c WHERE c.status = 'shipped' AND c.customerId IN ('c-2018', 'c-1001')";
  queries[3].sql = "SELECT * FROM c WHERE c.status = 'delivered'";
  queries[4].sql = "SELECT * FROM c WHERE c.customerId = 'c-1001' AND c.channel = 'app'";
  queries[5].sql = "SELECT * FROM c WHERE c.customerId = 'c-1001' AND c.customerId = 'c-2018'";
  ComparedOrders run;
  ASSERT_NO_FATAL_FAILURE(run.Compare(keys, queries));
  const KeyTraffic& traffic = run.traffic;
  StatusOr<ComparisonReport>& report = run.report;
  std::map<std::string, std::vector<std::string>> kinds;
  for (size_t k = 0; k < keys.size(); ++k) {
    const KeyFacts& f = report.value().keys[k];
    for (size_t q = 0; q < queries.size(); ++q) {
      SCOPED_TRACE(fmt::format("{}: {}", f.label, queries[q].sql));
      const QueryFanout& target = f.queries[q];
      kinds[f.label].push_back(target.kind);
      ASSERT_TRUE(target.exact);
      const std::set<int> visited(target.range_ids.begin(), target.range_ids.end());
      EXPECT_EQ(static_cast<int64_t>(visited.size()), target.physical_partitions);
      const QueryTraffic& t = traffic.keys[k].queries[q];
      for (size_t r = 0; r < t.items_per_range.size(); ++r) {
        if (t.items_per_range[r] > 0) {
          EXPECT_TRUE(visited.count(f.layout.ranges[r].id)) << "matches in range " << r;
        }
      }
      EXPECT_EQ(target.matching_items, static_cast<int64_t>(t.matching_items));
      if (target.kind == "single" && t.matching_items > 0) {
        EXPECT_EQ(t.ranges_with_matches, 1u);
      }
    }
  }
  EXPECT_EQ(kinds["/customerId"],
            (std::vector<std::string>{"single", "single", "several", "all", "single", "none"}));
  EXPECT_EQ(kinds["[/status, /customerId]"],
            (std::vector<std::string>{"all", "single", "several", "prefix", "all", "all"}));
  EXPECT_EQ(kinds["/customerId-/status"],
            (std::vector<std::string>{"all", "single", "several", "all", "all", "all"}));
  EXPECT_EQ(kinds["/customerId-{1..5 random}"],
            (std::vector<std::string>{"buckets", "buckets", "buckets", "all", "buckets", "none"}));
  EXPECT_EQ(kinds["/customerId-{hash(/channel) % 4 + 1}"],
            (std::vector<std::string>{"buckets", "buckets", "buckets", "all", "single", "none"}));
  // The random suffix's 5 logical partitions per value; the hashed one's single key.
  EXPECT_EQ(report.value().keys[3].queries[0].logical_partitions, 5);
  EXPECT_EQ(report.value().keys[3].queries[2].logical_partitions, 10);
  PartitionKey hashed_key;
  hashed_key.components.push_back(
      KeyComponent::String(fmt::format("c-1001-{}", HashSuffixBucket("app", 4))));
  StatusOr<std::string> epk = EffectivePartitionKey(hashed_key, PartitionKeyHashVersion::kV2);
  ASSERT_TRUE(epk.ok());
  EXPECT_EQ(report.value().keys[4].queries[4].epk, epk.value());
  // The comparison counts the contradiction as reaching no partition, not as a fan-out.
  EXPECT_EQ(report.value().keys[0].queries[5].physical_partitions, 0);
}

// A concatenated key with a date part (ingest/synthetic_key.h): a query pinning the tenant and the
// date asks the one key of that month; two dates of one month are one key, of two months two; the
// tenant alone reaches every partition. The matches lie where the targeting looks. Authored.
TEST(QueryWorkloadTest, AKeyOfTheCustomerAndTheMonthOfTheOrderDate) {
  AnalysisOptions monthly = Key({"/customerId"});
  monthly.synthetic.kind = Kind::kConcat;
  monthly.synthetic.paths = {"/customerId", "month(/orderDate)"};
  std::vector<QuerySpec> queries(4);
  queries[0].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018' AND c.orderDate = '2024-01-01T17:13:00Z'";
  queries[1].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018' AND "
                   "c.orderDate IN ('2024-01-01T17:13:00Z', '2024-01-20T08:00:00Z')";
  queries[2].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018' AND "
                   "c.orderDate IN ('2024-01-01T17:13:00Z', '2024-02-20T08:00:00Z')";
  queries[3].sql = "SELECT * FROM c WHERE c.customerId = 'c-2018'";
  ComparedOrders run;
  ASSERT_NO_FATAL_FAILURE(run.Compare({monthly}, queries));
  const KeyTraffic& traffic = run.traffic;
  StatusOr<ComparisonReport>& report = run.report;
  const KeyFacts& f = report.value().keys[0];
  EXPECT_EQ(f.label, "/customerId-month(/orderDate)");
  std::vector<std::string> kinds;
  for (size_t q = 0; q < queries.size(); ++q) {
    SCOPED_TRACE(queries[q].sql);
    kinds.push_back(f.queries[q].kind);
    const std::set<int> visited(f.queries[q].range_ids.begin(), f.queries[q].range_ids.end());
    const QueryTraffic& t = traffic.keys[0].queries[q];
    EXPECT_GT(t.matching_items, 0u);
    for (size_t r = 0; r < t.items_per_range.size(); ++r) {
      if (t.items_per_range[r] > 0) EXPECT_TRUE(visited.count(f.layout.ranges[r].id)) << r;
    }
  }
  EXPECT_EQ(kinds, (std::vector<std::string>{"single", "single", "several", "all"}));
  EXPECT_EQ(f.queries[2].logical_partitions, 2);
  PartitionKey january;
  january.components.push_back(KeyComponent::String("c-2018-2024-01"));
  StatusOr<std::string> epk = EffectivePartitionKey(january, PartitionKeyHashVersion::kV2);
  ASSERT_TRUE(epk.ok());
  EXPECT_EQ(f.queries[0].epk, epk.value());
  EXPECT_EQ(f.queries[1].epk, epk.value());
}

}  // namespace
}  // namespace partplay
