// The comparison run end to end (report/comparison_run.h): what the CLI and the page's worker
// both drive. It gives the report that the pieces give by hand, compares again under other
// containers and queries without the first read, binds parameters from the data, and refuses
// calls out of order. Authored.
#include "partplay/report/comparison_run.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "partplay/report/key_traffic.h"
#include "partplay/report/query_workload.h"

namespace partplay {
namespace {

std::string ReadExample(const std::string& name) {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/" + name, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

AnalysisOptions Key(std::vector<std::string> paths) {
  AnalysisOptions o;
  o.key_paths = std::move(paths);
  o.discover_items = 0;
  return o;
}

QuerySpec Sql(std::string sql, double rate = 0) {
  QuerySpec q;
  q.sql = std::move(sql);
  q.rate = rate;
  return q;
}

ComparisonRequest Request(std::vector<QuerySpec> queries) {
  ComparisonRequest r;
  r.keys = {Key({"/customerId"}), Key({"/id"}), Key({"/status"})};
  r.container.ru_per_second = 40000;
  r.queries = std::move(queries);
  return r;
}

// Feeds `input` in chunks of `chunk` bytes to both reads.
std::unique_ptr<ComparisonRun> ReadTwice(ComparisonRequest request, const std::string& input,
                                   size_t chunk = 4096) {
  const ContainerOptions container = request.container;
  auto run = ComparisonRun::Create(std::move(request));
  EXPECT_TRUE(run.ok()) << run.status().ToString();
  if (!run.ok()) return nullptr;
  ComparisonRun& r = *run.value();
  for (size_t at = 0; at < input.size(); at += chunk) {
    EXPECT_TRUE(r.Feed(std::string_view(input).substr(at, chunk)).ok());
  }
  EXPECT_TRUE(r.Finish().ok());
  EXPECT_TRUE(r.Compare(container, nullptr).ok());
  if (r.second_read_needed()) {
    for (size_t at = 0; at < input.size(); at += chunk) {
      EXPECT_TRUE(r.FeedSecond(std::string_view(input).substr(at, chunk)).ok());
    }
    EXPECT_TRUE(r.FinishSecond().ok());
  }
  return std::move(run).value();
}

// The same comparison made of its pieces, as docs/report.md describes the two reads.
std::string ByHand(ComparisonRequest request, const std::string& input) {
  EXPECT_TRUE(PrepareQueries(request.queries, request.parameters).ok());
  auto counter = ValueCounter::Create(PointersToCount(request.queries, request.parameters));
  EXPECT_TRUE(counter.ok());
  auto cmp = KeyComparison::Create(request.keys);
  EXPECT_TRUE(cmp.ok());
  EXPECT_TRUE(cmp.value()->Feed(input).ok());
  EXPECT_TRUE(cmp.value()->Finish().ok());
  EXPECT_TRUE(counter.value()->Feed(input).ok());
  EXPECT_TRUE(counter.value()->Finish().ok());
  EXPECT_TRUE(BindParameters(request.queries, request.parameters, counter.value().get()).ok());
  auto report = cmp.value()->Compare(request.container, request.queries);
  EXPECT_TRUE(report.ok());
  auto evaluators = EvaluatorsOf(request.queries);
  EXPECT_TRUE(evaluators.ok());
  std::vector<ItemQuery*> queries;
  for (auto& e : evaluators.value()) queries.push_back(e.get());
  auto pass = KeyTrafficPass::Create(TrafficKeysOf(report.value()), queries, request.writes);
  EXPECT_TRUE(pass.ok());
  EXPECT_TRUE(pass.value()->Feed(input).ok());
  EXPECT_TRUE(pass.value()->Finish().ok());
  EXPECT_TRUE(ApplyTraffic(report.value(), pass.value()->result()).ok());
  return ComparisonToJson(report.value());
}

TEST(ComparisonRunTest, GivesTheReportOfItsPiecesInAnyChunking) {
  const std::string input = ReadExample("orders.ndjson");
  const std::vector<QuerySpec> queries = {
      Sql("SELECT * FROM c WHERE c.customerId = @c", 50),
      Sql("SELECT * FROM c WHERE c.status = 'shipped' AND c.total > 100", 5),
      Sql("SELECT VALUE COUNT(1) FROM c WHERE c.id IN ('o-100000', 'o-100001')")};
  const std::string expected = ByHand(Request(queries), input);
  ASSERT_NE(expected.find("\"matching_items\""), std::string::npos);
  for (size_t chunk : {size_t{1} << 20, size_t{4096}, size_t{97}}) {
    auto run = ReadTwice(Request(queries), input, chunk);
    ASSERT_NE(run, nullptr);
    EXPECT_TRUE(run->report().traffic);
    EXPECT_EQ(ComparisonToJson(run->report()), expected) << "chunk " << chunk;
  }
}

TEST(ComparisonRunTest, ComparesAgainWithoutTheFirstRead) {
  const std::string input = ReadExample("orders.ndjson");
  auto run = ReadTwice(Request({Sql("SELECT * FROM c WHERE c.customerId = @c")}), input);
  ASSERT_NE(run, nullptr);
  const uint64_t read = run->items_seen();
  const int64_t before = run->report().keys[0].physical_partitions;
  // More RU/s: more physical partitions, and the second read again under that layout.
  ContainerOptions more;
  more.ru_per_second = 200000;
  ASSERT_TRUE(run->Compare(more, nullptr).ok());
  EXPECT_EQ(run->items_seen(), read);
  EXPECT_GT(run->report().keys[0].physical_partitions, before);
  ASSERT_TRUE(run->second_read_needed());
  EXPECT_FALSE(run->report().traffic);  // until the second read ends
  ASSERT_TRUE(run->FeedSecond(input).ok());
  ASSERT_TRUE(run->FinishSecond().ok());
  EXPECT_TRUE(run->report().traffic);
  ComparisonRequest fresh = Request({Sql("SELECT * FROM c WHERE c.customerId = @c")});
  fresh.container = more;
  EXPECT_EQ(ComparisonToJson(run->report()), ComparisonToJson(ReadTwice(fresh, input)->report()));
  // Other queries on the properties the first read counted are taken; a parameter compared with
  // a property it did not count is refused rather than bound to nothing.
  std::vector<QuerySpec> same_property = {Sql("SELECT c.id FROM c WHERE c.customerId = @other")};
  EXPECT_TRUE(run->Compare(more, &same_property).ok());
  std::vector<QuerySpec> other_property = {Sql("SELECT * FROM c WHERE c.status = @s")};
  Status refused = run->Compare(more, &other_property);
  EXPECT_EQ(refused.code(), ErrorCode::kInvalidState);
  EXPECT_NE(refused.message().find("/status"), std::string::npos) << refused.message();
  // A given value needs no count.
  cosmosql::Parameters given;
  given.emplace("@s", cosmosql::Value::String("open"));
  EXPECT_TRUE(run->Compare(more, &other_property, &given).ok()) << refused.ToString();
}

TEST(ComparisonRunTest, WithoutASecondReadPathListsNeedNoParser) {
  ComparisonRequest request = Request({});
  QuerySpec paths;
  paths.paths = {"/customerId"};
  request.queries = {paths};
  request.second_read = false;
  auto run = ReadTwice(request, ReadExample("orders.ndjson"));
  ASSERT_NE(run, nullptr);
  EXPECT_FALSE(run->report().traffic);
  EXPECT_EQ(run->report().queries.size(), 1u);
  EXPECT_FALSE(run->report().queries[0].parsed);  // left as the element's module takes it
}

TEST(ComparisonRunTest, TheQueryBoxTextIsTheQueriesItLists) {
  const std::string input = ReadExample("orders.ndjson");
  ComparisonRequest listed = Request({Sql("SELECT * FROM c WHERE c.status = 'shipped'"),
                                      Sql("SELECT * FROM c WHERE c.customerId = @c", 50),
                                      Sql("SELECT * FROM c WHERE c.id = @i")});
  listed.parameters.emplace("@i", cosmosql::Value::String("o-100007"));
  // The first query listed; the rest and a parameter typed in the box, after its blank lines.
  auto parsed = ParseComparisonRequestJson(
      R"({"keys": [{"key_paths": ["/customerId"]}, {"key_paths": ["/id"]},)"
      R"( {"key_paths": ["/status"]}], "container": {"ru_per_second": 40000},)"
      R"( "queries": [{"sql": "SELECT * FROM c WHERE c.status = 'shipped'"}],)"
      R"( "query_text": "\n50 SELECT * FROM c WHERE c.customerId = @c\n# a comment\n)"
      R"(SELECT * FROM c WHERE c.id = @i\n@i = \"o-100007\"\n"})");
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed.value().queries.size(), 1u);  // the text is read by the run
  const std::string expected = ComparisonToJson(ReadTwice(listed, input)->report());
  EXPECT_EQ(ComparisonToJson(ReadTwice(parsed.value(), input)->report()), expected);
  // Compared again under a model with the same text.
  auto run = ReadTwice(Request({}), input);
  auto model = ParseComparisonModelJson(
      R"({"container": {"ru_per_second": 40000}, "queries": [{"sql": "SELECT * FROM c WHERE c.status = 'shipped'"}],)"
      R"( "query_text": "50 SELECT * FROM c WHERE c.customerId = 'c-1'"})");
  ASSERT_TRUE(model.ok()) << model.status().ToString();
  ASSERT_TRUE(run->CompareModel(model.value()).ok());
  ASSERT_EQ(run->report().queries.size(), 2u);
  EXPECT_EQ(run->report().queries[1].sql, "SELECT * FROM c WHERE c.customerId = 'c-1'");
  EXPECT_EQ(run->report().queries[1].rate, 50);
  // The element's module refuses text it cannot read rather than dropping it.
  EXPECT_EQ(RefuseQueryText(model.value()).code(), ErrorCode::kBadOption);
  EXPECT_TRUE(RefuseQueryText(Request({})).ok());
}

TEST(ComparisonRunTest, BadQueryTextIsLocatedByLine) {
  ComparisonRequest request = Request({});
  request.query_text = "SELECT * FROM c\n@p 3\n";
  auto run = ComparisonRun::Create(request);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(run.status().where().line, 2);
  EXPECT_EQ(run.status().field(), "/query_text");
  EXPECT_NE(run.status().message().find("line 2"), std::string::npos) << run.status().ToString();
  // A query the parser refuses is located in the text: line 2, after its rate.
  request.query_text = "SELECT * FROM c WHERE c.a = 1\n  5 SELECT * FROM c WHERE c.a = \n";
  run = ComparisonRun::Create(request);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.status().message().find("query 2"), std::string::npos) << run.status().ToString();
  EXPECT_EQ(run.status().where().line, 2);
  // Just past the query (27 bytes once its line is trimmed), which starts at column 5.
  EXPECT_EQ(run.status().where().column, 5 + 27);
  EXPECT_EQ(run.status().field(), "/query_text");
  // A listed query is located in itself, and named by its place in the list.
  ComparisonRequest listed = Request({Sql("SELECT * FROM c"), Sql("SELECT * FROM c WHERE c.a = ")});
  run = ComparisonRun::Create(listed);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.status().where().line, 1);
  EXPECT_EQ(run.status().where().column, 29);
  EXPECT_EQ(run.status().field(), "/queries/1");
  request.query_text = "@p = 1\n";
  request.parameters.emplace("@p", cosmosql::Value::Number(2));
  EXPECT_NE(ComparisonRun::Create(request).status().message().find("second value"),
            std::string::npos);
  std::string many;
  for (int i = 0; i < 17; ++i) many += "/a\n";
  EXPECT_EQ(ParseComparisonRequestJson(R"({"keys": [{"key_paths": ["/a"]}], "query_text": ")" +
                                       std::string(kMaxQueryTextBytes + 1, ' ') + "\"}")
                .status()
                .code(),
            ErrorCode::kBadOption);
  request = Request({});
  request.query_text = many;
  EXPECT_NE(ComparisonRun::Create(request).status().message().find("at most 16"), std::string::npos);
}

TEST(ComparisonRunTest, ASecondReadOfNothingIsAnEmptyInput) {
  auto run = ComparisonRun::Create(Request({Sql("SELECT * FROM c WHERE c.customerId = 'c-1'")}));
  ASSERT_TRUE(run.ok());
  ASSERT_TRUE(run.value()->Feed(ReadExample("orders.ndjson")).ok());
  ASSERT_TRUE(run.value()->Finish().ok());
  ASSERT_TRUE(run.value()->Compare(ContainerOptions{}, nullptr).ok());
  EXPECT_EQ(run.value()->FinishSecond().code(), ErrorCode::kEmptyInput);
}

TEST(ComparisonRunTest, BadQueriesAndCallsOutOfOrderAreRefused) {
  auto bad = ComparisonRun::Create(Request({Sql("SELECT * FROM c WHERE c.a = ")}));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("query 1"), std::string::npos) << bad.status().ToString();
  auto run = ComparisonRun::Create(Request({Sql("SELECT * FROM c WHERE c.customerId = 'c-1'")}));
  ASSERT_TRUE(run.ok());
  ContainerOptions container;
  EXPECT_EQ(run.value()->Compare(container, nullptr).code(), ErrorCode::kInvalidState);
  EXPECT_EQ(run.value()->FeedSecond("{}").code(), ErrorCode::kInvalidState);
  EXPECT_EQ(run.value()->FinishSecond().code(), ErrorCode::kInvalidState);
  ASSERT_TRUE(run.value()->Feed(ReadExample("orders.ndjson")).ok());
  ASSERT_TRUE(run.value()->Finish().ok());
  ASSERT_TRUE(run.value()->Compare(container, nullptr).ok());
  ASSERT_TRUE(run.value()->FeedSecond(ReadExample("orders.ndjson")).ok());
  Status second = run.value()->FinishSecond();
  ASSERT_TRUE(second.ok()) << second.ToString();
  EXPECT_EQ(run.value()->FinishSecond().code(), ErrorCode::kInvalidState);  // once
}

}  // namespace
}  // namespace partplay
