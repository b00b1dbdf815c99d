// ReportToJson (the documented contract, docs/report.md), ReportToTable and StatusToJson.
#include "partplay/report/report_format.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "partplay/ingest/analysis.h"
#include "simdjson.h"

namespace partplay {
namespace {

AnalysisReport AnalyzeOk(std::string_view input, std::vector<std::string> key_paths = {"/id"},
                         ReportOptions report_options = {}) {
  AnalysisOptions options;
  options.key_paths = std::move(key_paths);
  auto analyzer = Analyzer::Create(options);
  EXPECT_TRUE(analyzer.ok()) << analyzer.status().ToString();
  if (!analyzer.ok()) return {};
  Status s = analyzer.value()->Feed(input);
  EXPECT_TRUE(s.ok()) << s.ToString();
  s = analyzer.value()->Finish();
  EXPECT_TRUE(s.ok()) << s.ToString();
  return analyzer.value()->BuildReport(report_options);
}

// Three items, /id: ["a"] holds items 0 (16 bytes) and 2 (14 bytes), ["b"] item 1 (10 bytes).
const char kThreeItems[] = "{\"id\":\"a\",\"n\":1}\n{\"id\":\"b\"}\n{ \"id\" : \"a\" }\n";

TEST(ReportToJsonTest, ExactJsonForAThreeItemInput) {
  // Derived by hand: bytes 16 + 10 + 14 = 40, input 43; partitions 30 and 10 bytes: mean 20,
  // the top 1% is 1 partition of 30 bytes (share 0.75), Gini of {30, 10} = 20 / 80 = 0.25.
  const std::string expected =
      R"({"schema":"partplay.analysis/1","format":"ndjson","key_paths":["/id"],)"
      R"("items":3,"bytes":40,"input_bytes":43,"partition_count":2,)"
      R"("largest_partition":{"key":["a"],"items":2,"bytes":30},"mean_partition_bytes":20,)"
      R"("top1_percent":{"partitions":1,"bytes":30,"share":0.75},"gini":0.25,)"
      R"("spread":{"gini":0.25,"verdict":"fairly even","level":"good"},)"
      R"("levels":{"partition_count":"","largest_partition":"","top1_percent":"","undefined_key":"",)"
      R"("invalid_key":"","oversized_items":""},)"
      R"("undefined_key_items":0,"invalid_key":{"items":0,"bytes":0,"examples":[]},)"
      R"("oversized_items":{"limit_bytes":2097152,"count":0,"examples":[]},)"
      // The third item repeats id "a" in partition "a": Cosmos DB would refuse it.
      R"("missing_id":{"count":0,"examples":[]},"duplicate_id":{"count":1,"examples":[)"
      R"({"item_index":2,"bytes":14,"byte_offset":28,"line":3,"column":1,"id":"a"}]},)"
      R"("imprecise_number_key":{"count":0,"examples":[]},"weight_missing_items":0,)"
      R"("partitions":[{"key":["a"],"items":2,"bytes":30,"largest_item_bytes":16,)"
      R"("largest_item_index":0},{"key":["b"],"items":1,"bytes":10,"largest_item_bytes":10,)"
      R"("largest_item_index":1}],"partitions_omitted":0,)"
      R"("candidate_paths":{"sampled_items":3,"paths":[)"
      R"({"path":"/id","items":3,"distinct":2,"distinct_capped":false,)"
      R"("types":{"string":3,"number":0,"boolean":0,"null":0}},)"
      R"({"path":"/n","items":1,"distinct":1,"distinct_capped":false,)"
      R"("types":{"string":0,"number":1,"boolean":0,"null":0}}]},)"
      // The engine's own judgement of the key (report/insights.h).
      R"("insights":[{"code":"largest_share","level":"","message":)"
      R"("The largest partition, {0}, holds 75.0% of the data (2 items, 30 bytes).",)"
      R"("keys":[["a"]]},{"code":"largest_vs_limit","level":"","message":)"
      R"("The largest partition uses under 0.1% of the 20 GB limit: it could grow about )"
      R"(715,827,883x before reaching it.","keys":[]}]})"
      "\n";
  EXPECT_EQ(ReportToJson(AnalyzeOk(kThreeItems)), expected);
}

TEST(ReportToJsonTest, ExactJsonForAHandBuiltReportWithFindings) {
  AnalysisReport r;
  r.format = "array";
  r.key_paths = {"/a~1b", "/x"};
  r.items = 4;
  r.bytes = 100;
  r.input_bytes = 120;
  r.partition_count = 1;
  r.has_largest = true;
  r.largest.key.components = {KeyComponent::String("q\"x"), KeyComponent::Undefined()};
  r.largest.items = 2;
  r.largest.bytes = 60;
  r.mean_partition_bytes = 60;
  r.top1_partitions = 1;
  r.top1_bytes = 60;
  r.top1_share = 1;
  r.gini = 0;
  r.undefined_key_items = 2;
  r.invalid_key_items = 1;
  r.invalid_key_bytes = 10;
  r.invalid_key_examples.push_back({3, 10, SourceLocation{55, 4, 2, 3}, "array"});
  r.oversized_items = 1;
  r.oversized_examples.push_back({1, 3000000, SourceLocation{20, 2, 1, 1}, ""});
  LogicalPartition p;
  p.key = r.largest.key;
  p.items = 2;
  p.bytes = 60;
  p.largest_item_bytes = 40;
  p.largest_item_index = 0;
  r.partitions.push_back(p);
  r.partitions_omitted = 5;
  r.partition_bytes = {60};
  r.sampled_items = 4;
  CandidatePath c;
  c.path = "/x";
  c.items = 4;
  c.distinct = 100000;
  c.distinct_capped = true;
  c.strings = 1;
  c.numbers = 2;
  c.nulls = 1;
  r.candidate_paths.push_back(c);

  const std::string expected =
      R"({"schema":"partplay.analysis/1","format":"array","key_paths":["/a~1b","/x"],)"
      R"("items":4,"bytes":100,"input_bytes":120,"partition_count":1,)"
      R"("largest_partition":{"key":["q\"x",{}],"items":2,"bytes":60},)"
      R"("mean_partition_bytes":60,"top1_percent":{"partitions":1,"bytes":60,"share":1},)"
      R"("gini":0,"spread":{"gini":0,"verdict":"one partition","level":""},)"
      R"("levels":{"partition_count":"warn","largest_partition":"","top1_percent":"","undefined_key":"warn",)"
      R"("invalid_key":"bad","oversized_items":"bad"},"undefined_key_items":2,)"
      R"("invalid_key":{"items":1,"bytes":10,"examples":[{"item_index":3,"bytes":10,)"
      R"("byte_offset":55,"line":4,"column":2,"type":"array"}]},)"
      R"("oversized_items":{"limit_bytes":2097152,"count":1,"examples":[{"item_index":1,)"
      R"("bytes":3000000,"byte_offset":20,"line":2,"column":1}]},)"
      R"("missing_id":{"count":0,"examples":[]},"duplicate_id":{"count":0,"examples":[]},)"
      R"("imprecise_number_key":{"count":0,"examples":[]},"weight_missing_items":0,)"
      R"("partitions":[{"key":["q\"x",{}],"items":2,"bytes":60,"largest_item_bytes":40,)"
      R"("largest_item_index":0}],"partitions_omitted":5,)"
      R"("candidate_paths":{"sampled_items":4,"paths":[{"path":"/x","items":4,)"
      R"("distinct":100000,"distinct_capped":true,)"
      R"("types":{"string":1,"number":2,"boolean":0,"null":1}}]}})"
      "\n";
  // Everything before the insights (report/insights.h, tested in insights_test.cpp).
  std::string json = ReportToJson(r);
  const size_t insights = json.find(R"(,"insights":[)");
  ASSERT_NE(insights, std::string::npos) << json;
  EXPECT_EQ(json.substr(0, insights) + "}\n", expected);
}

TEST(ReportToJsonTest, AnEmptyReportHasNullLargestPartition) {
  AnalysisReport r = AnalyzeOk("[]");
  std::string json = ReportToJson(r);
  EXPECT_NE(json.find(R"("format":"array")"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("largest_partition":null,)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("partitions":[],)"), std::string::npos) << json;
  EXPECT_NE(json.find(R"("top1_percent":{"partitions":0,"bytes":0,"share":0})"),
            std::string::npos)
      << json;
}

// --- parse back -------------------------------------------------------------------------------

simdjson::dom::element Field(simdjson::dom::element e, const char* field) {
  simdjson::dom::element v;
  EXPECT_EQ(e[field].get(v), simdjson::SUCCESS) << field;
  return v;
}

std::string_view Str(simdjson::dom::element e, const char* field) {
  std::string_view v;
  EXPECT_EQ(e[field].get_string().get(v), simdjson::SUCCESS) << field;
  return v;
}

uint64_t UInt(simdjson::dom::element e, const char* field) {
  uint64_t v = 0;
  EXPECT_EQ(e[field].get_uint64().get(v), simdjson::SUCCESS) << field;
  return v;
}

int64_t Int(simdjson::dom::element e, const char* field) {
  int64_t v = 0;
  EXPECT_EQ(e[field].get_int64().get(v), simdjson::SUCCESS) << field;
  return v;
}

double Num(simdjson::dom::element e, const char* field) {
  double v = -1;
  EXPECT_EQ(e[field].get_double().get(v), simdjson::SUCCESS) << field;
  return v;
}

// A parsed key array against the key's components.
void ExpectKey(simdjson::dom::element key, const PartitionKey& expected) {
  simdjson::dom::array a;
  ASSERT_EQ(key.get_array().get(a), simdjson::SUCCESS);
  ASSERT_EQ(a.size(), expected.components.size());
  size_t i = 0;
  for (simdjson::dom::element v : a) {
    const KeyComponent& c = expected.components[i++];
    switch (c.kind) {
      case KeyKind::kUndefined: {
        simdjson::dom::object o;
        ASSERT_EQ(v.get_object().get(o), simdjson::SUCCESS);
        EXPECT_EQ(o.size(), 0u);
        break;
      }
      case KeyKind::kNull: EXPECT_TRUE(v.is_null()); break;
      case KeyKind::kFalse:
      case KeyKind::kTrue: {
        bool b;
        ASSERT_EQ(v.get_bool().get(b), simdjson::SUCCESS);
        EXPECT_EQ(b, c.kind == KeyKind::kTrue);
        break;
      }
      case KeyKind::kNumber: {
        double d;
        ASSERT_EQ(v.get_double().get(d), simdjson::SUCCESS);
        EXPECT_EQ(d, c.number);
        break;
      }
      case KeyKind::kString: {
        std::string_view s;
        ASSERT_EQ(v.get_string().get(s), simdjson::SUCCESS);
        EXPECT_EQ(s, c.text);
        break;
      }
    }
  }
}

TEST(ReportToJsonTest, ParsesBackToTheReport) {
  // Keys with escapes and control characters, numbers, hierarchical components, an invalid key,
  // a missing key, odd property names for candidate paths.
  const std::string input =
      "{\"t\":\"q\\\"uo\\\\te\",\"u\":0.1,\"a/b\":1}\n"
      "{\"t\":\"ctl\\u0001\\n\",\"u\":-2.5e-7,\"m~n\":true}\n"
      "{\"t\":\"Zoë 東京\",\"u\":1e21}\n"
      "{\"t\":\"q\\\"uo\\\\te\",\"u\":0.1,\"pad\":\"xxxxxxxxxxxxxxxxxxxx\"}\n"
      "{\"t\":[1],\"u\":2}\n"
      "{\"u\":null}\n"
      "{\"t\":false,\"u\":true}\n";
  AnalysisReport r = AnalyzeOk(input, {"/t", "/u"});
  ASSERT_EQ(r.items, 7u);
  const std::string json = ReportToJson(r);
  ASSERT_FALSE(json.empty());
  EXPECT_EQ(json.back(), '\n');

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(json).get(doc), simdjson::SUCCESS) << json;
  EXPECT_EQ(Str(doc, "schema"), "partplay.analysis/1");
  EXPECT_EQ(Str(doc, "format"), r.format);
  EXPECT_EQ(UInt(doc, "items"), r.items);
  EXPECT_EQ(UInt(doc, "bytes"), r.bytes);
  EXPECT_EQ(UInt(doc, "input_bytes"), input.size());
  EXPECT_EQ(UInt(doc, "partition_count"), r.partition_count);
  EXPECT_EQ(Num(doc, "mean_partition_bytes"), r.mean_partition_bytes);
  EXPECT_EQ(Num(doc, "gini"), r.gini);
  EXPECT_GT(r.gini, 0);
  EXPECT_EQ(UInt(doc, "undefined_key_items"), r.undefined_key_items);
  EXPECT_EQ(r.undefined_key_items, 1u);
  EXPECT_EQ(UInt(doc, "partitions_omitted"), 0u);

  simdjson::dom::array paths;
  ASSERT_EQ(doc["key_paths"].get_array().get(paths), simdjson::SUCCESS);
  ASSERT_EQ(paths.size(), 2u);

  simdjson::dom::element top1 = Field(doc, "top1_percent");
  EXPECT_EQ(UInt(top1, "partitions"), r.top1_partitions);
  EXPECT_EQ(UInt(top1, "bytes"), r.top1_bytes);
  EXPECT_EQ(Num(top1, "share"), r.top1_share);

  simdjson::dom::element largest = Field(doc, "largest_partition");
  ExpectKey(Field(largest, "key"), r.largest.key);
  EXPECT_EQ(UInt(largest, "bytes"), r.largest.bytes);

  simdjson::dom::element invalid = Field(doc, "invalid_key");
  EXPECT_EQ(UInt(invalid, "items"), 1u);
  EXPECT_EQ(UInt(invalid, "bytes"), r.invalid_key_bytes);
  simdjson::dom::array examples;
  ASSERT_EQ(invalid["examples"].get_array().get(examples), simdjson::SUCCESS);
  ASSERT_EQ(examples.size(), 1u);
  for (simdjson::dom::element e : examples) {
    EXPECT_EQ(Int(e, "item_index"), 4);
    EXPECT_EQ(Int(e, "line"), 5);
    EXPECT_EQ(Int(e, "column"), 1);
    EXPECT_EQ(Int(e, "byte_offset"), r.invalid_key_examples[0].where.byte_offset);
    EXPECT_EQ(Str(e, "type"), "array");
  }
  EXPECT_EQ(UInt(Field(doc, "oversized_items"), "limit_bytes"), 2097152u);
  EXPECT_EQ(UInt(Field(doc, "oversized_items"), "count"), 0u);

  simdjson::dom::array partitions;
  ASSERT_EQ(doc["partitions"].get_array().get(partitions), simdjson::SUCCESS);
  ASSERT_EQ(partitions.size(), r.partitions.size());
  size_t i = 0;
  for (simdjson::dom::element p : partitions) {
    SCOPED_TRACE(r.partitions[i].key.ToJson());
    ExpectKey(Field(p, "key"), r.partitions[i].key);
    EXPECT_EQ(UInt(p, "items"), r.partitions[i].items);
    EXPECT_EQ(UInt(p, "bytes"), r.partitions[i].bytes);
    EXPECT_EQ(UInt(p, "largest_item_bytes"), r.partitions[i].largest_item_bytes);
    EXPECT_EQ(Int(p, "largest_item_index"), r.partitions[i].largest_item_index);
    ++i;
  }

  simdjson::dom::element candidates = Field(doc, "candidate_paths");
  EXPECT_EQ(UInt(candidates, "sampled_items"), 7u);
  simdjson::dom::array cands;
  ASSERT_EQ(candidates["paths"].get_array().get(cands), simdjson::SUCCESS);
  ASSERT_EQ(cands.size(), r.candidate_paths.size());
  std::vector<std::string> names;
  i = 0;
  for (simdjson::dom::element c : cands) {
    const CandidatePath& want = r.candidate_paths[i++];
    names.emplace_back(Str(c, "path"));
    EXPECT_EQ(names.back(), want.path);
    EXPECT_EQ(UInt(c, "items"), want.items);
    EXPECT_EQ(UInt(c, "distinct"), want.distinct);
    bool capped = true;
    EXPECT_EQ(c["distinct_capped"].get_bool().get(capped), simdjson::SUCCESS);
    EXPECT_EQ(capped, want.distinct_capped);
    EXPECT_EQ(UInt(Field(c, "types"), "string"), want.strings);
    EXPECT_EQ(UInt(Field(c, "types"), "number"), want.numbers);
    EXPECT_EQ(UInt(Field(c, "types"), "boolean"), want.booleans);
    EXPECT_EQ(UInt(Field(c, "types"), "null"), want.nulls);
  }
  EXPECT_NE(std::find(names.begin(), names.end(), "/a~1b"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "/m~0n"), names.end());
}

TEST(ReportToJsonTest, FractionalStatisticsRoundTrip) {
  // Three partitions of 10, 11 and 12 bytes: mean 11, share 12/33, Gini 4/99.
  AnalysisReport r = AnalyzeOk("{\"id\":\"a\"}\n{\"id\":\"bb\"}\n{\"id\":\"ccc\"}\n");
  ASSERT_EQ(r.partition_count, 3u);
  EXPECT_DOUBLE_EQ(r.mean_partition_bytes, 11);
  EXPECT_NEAR(r.top1_share, 12.0 / 33.0, 1e-15);
  EXPECT_NEAR(r.gini, 4.0 / 99.0, 1e-15);
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(ReportToJson(r)).get(doc), simdjson::SUCCESS);
  EXPECT_EQ(Num(Field(doc, "top1_percent"), "share"), r.top1_share);  // exact: shortest round trip
  EXPECT_EQ(Num(doc, "gini"), r.gini);
}

// --- table ------------------------------------------------------------------------------------

std::string Row(const std::string& label, const std::string& value) {
  return label + std::string(28 - label.size(), ' ') + value + "\n";
}

std::string Right(const std::string& s, size_t width) {
  return std::string(width > s.size() ? width - s.size() : 0, ' ') + s;
}

TEST(ReportToTableTest, ExactTableForTheThreeItemInput) {
  const std::string expected =
      Row("partition key", "/id") + Row("format", "ndjson") + Row("items", "3") +
      Row("bytes", "40 (40 B)") + Row("logical partitions", "2") +
      Row("largest partition", "[\"a\"] 30 B (2 items)") + Row("mean partition", "20 B") +
      Row("top 1% of partitions hold", "75.0% (1 partitions)") + Row("skew (Gini)", "0.250") +
      Row("items without the key", "0") + Row("items with an invalid key", "0") +
      Row("items over 2 MB", "0") + "\n" + Right("items", 12) + " " + Right("bytes", 14) + " " +
      Right("largest item", 14) + "  key\n" + Right("2", 12) + " " + Right("30", 14) + " " +
      Right("16", 14) + "  [\"a\"]\n" + Right("1", 12) + " " + Right("10", 14) + " " +
      Right("10", 14) + "  [\"b\"]\n";
  EXPECT_EQ(ReportToTable(AnalyzeOk(kThreeItems)), expected);
}

TEST(ReportToTableTest, ContainsTheFigures) {
  std::string input;
  for (int i = 0; i < 30; ++i) input += "{\"k\":\"hot\",\"pad\":\"" + std::string(100, 'x') + "\"}\n";
  input += "{\"k\":\"cold\"}\n{\"other\":1}\n{\"k\":[1]}\n";
  AnalysisReport r = AnalyzeOk(input, {"/k", "/z"});
  std::string table = ReportToTable(r);
  EXPECT_NE(table.find(Row("partition key", "/k, /z")), std::string::npos) << table;
  EXPECT_NE(table.find(Row("items", "33")), std::string::npos) << table;
  EXPECT_NE(table.find(Row("bytes", std::to_string(r.bytes) + " (3.5 KiB)")), std::string::npos)
      << table;
  EXPECT_NE(table.find(Row("logical partitions", "3")), std::string::npos) << table;
  EXPECT_NE(table.find("[\"hot\",{}] 3.5 KiB (30 items)"), std::string::npos) << table;
  EXPECT_NE(table.find(Row("items without the key", std::to_string(r.undefined_key_items))),
            std::string::npos)
      << table;
  EXPECT_NE(table.find(Row("items with an invalid key", "1")), std::string::npos) << table;
  char gini[16];
  std::snprintf(gini, sizeof gini, "%.3f", r.gini);
  EXPECT_NE(table.find(Row("skew (Gini)", gini)), std::string::npos) << table;
  EXPECT_NE(table.find("[{},{}]"), std::string::npos) << table;  // the undefined partition row
}

TEST(ReportToTableTest, LimitsTheRows) {
  std::string input;
  for (int i = 0; i < 5; ++i) input += "{\"id\":" + std::to_string(i) + "}\n";
  AnalysisReport r = AnalyzeOk(input);
  std::string two = ReportToTable(r, 2);
  EXPECT_NE(two.find("... and 3 more partitions (use --format json for all)\n"),
            std::string::npos)
      << two;
  std::string all = ReportToTable(r);
  EXPECT_EQ(all.find("more partitions"), std::string::npos) << all;
  for (int i = 0; i < 5; ++i) {
    EXPECT_NE(all.find("  [" + std::to_string(i) + "]\n"), std::string::npos) << i;
  }

  // Partitions left out of the report by max_partitions count as "more" too.
  ReportOptions listed;
  listed.max_partitions = 3;
  AnalysisReport partial = AnalyzeOk(input, {"/id"}, listed);
  std::string one = ReportToTable(partial, 1);
  EXPECT_NE(one.find("... and 4 more partitions"), std::string::npos) << one;
  // All 3 listed partitions fit in the rows, but 2 were never listed: still say so.
  std::string rest = ReportToTable(partial);
  EXPECT_NE(rest.find("... and 2 more partitions"), std::string::npos) << rest;
}

TEST(ReportToTableTest, LargeSizesInBinaryUnits) {
  AnalysisReport r;
  r.format = "ndjson";
  r.key_paths = {"/id"};
  r.bytes = 3u * 1048576;
  r.mean_partition_bytes = 1536;
  std::string table = ReportToTable(r);
  EXPECT_NE(table.find(Row("bytes", "3145728 (3.0 MiB)")), std::string::npos) << table;
  EXPECT_NE(table.find(Row("mean partition", "1.5 KiB")), std::string::npos) << table;
  EXPECT_EQ(table.find("largest partition"), std::string::npos) << "no partitions, no largest";
}

// --- StatusToJson -----------------------------------------------------------------------------

TEST(StatusToJsonTest, WithAFullLocation) {
  Status s(ErrorCode::kMalformedJson, "expected ':' but found \"x\"\n",
           SourceLocation{41, 3, 7, 2});
  EXPECT_EQ(StatusToJson(s),
            R"({"error":{"code":11,"name":"malformed_json","message":"expected ':' but found \"x\"\n",)"
            R"("byte_offset":41,"line":3,"column":7,"item_index":2}})"
            "\n");
}

TEST(StatusToJsonTest, WithoutALocation) {
  EXPECT_EQ(StatusToJson(Status(ErrorCode::kBadOption, "give 1 to 3 paths")),
            R"({"error":{"code":21,"name":"bad_option","message":"give 1 to 3 paths"}})"
            "\n");
}

TEST(StatusToJsonTest, WithPartialLocations) {
  EXPECT_EQ(StatusToJson(Status(ErrorCode::kBadKeyPath, "m", SourceLocation{-1, 1, 3, -1})),
            R"({"error":{"code":20,"name":"bad_key_path","message":"m","line":1,"column":3}})"
            "\n");
  EXPECT_EQ(StatusToJson(Status(ErrorCode::kEmptyInput, "m", SourceLocation{0, 1, 1, -1})),
            R"({"error":{"code":10,"name":"empty_input","message":"m","byte_offset":0,)"
            R"("line":1,"column":1}})"
            "\n");
  EXPECT_EQ(StatusToJson(Status(ErrorCode::kNotAnObject, "m", SourceLocation{-1, 0, 0, 0})),
            R"({"error":{"code":13,"name":"not_an_object","message":"m","item_index":0}})"
            "\n");
}

TEST(StatusToJsonTest, OkStatus) {
  EXPECT_EQ(StatusToJson(Status::Ok()), R"({"error":{"code":0,"name":"ok","message":""}})" "\n");
}

TEST(StatusToJsonTest, AnalyzerErrorsParseBack) {
  AnalysisOptions options;
  auto analyzer = Analyzer::Create(options);
  ASSERT_TRUE(analyzer.ok());
  Status s = analyzer.value()->Feed("{\"id\":1}\n{\"id\":\"\\q\"}\n");
  if (s.ok()) s = analyzer.value()->Finish();
  ASSERT_FALSE(s.ok());
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(StatusToJson(s)).get(doc), simdjson::SUCCESS) << StatusToJson(s);
  simdjson::dom::element e = Field(doc, "error");
  EXPECT_EQ(Int(e, "code"), 11);
  EXPECT_EQ(Str(e, "name"), "malformed_json");
  EXPECT_EQ(Str(e, "message"), s.message());
  EXPECT_EQ(Int(e, "byte_offset"), 17);
  EXPECT_EQ(Int(e, "line"), 2);
  EXPECT_EQ(Int(e, "column"), 9);
  EXPECT_EQ(Int(e, "item_index"), 1);
}

// The listing's fast way writes exactly what the general way writes, for every partition it
// takes (a key of one string of printable ASCII without '"' or '\\'), and takes no other: on
// seeded partitions of every key kind, text and number, with and without an EPK.
TEST(ReportFormatTest, PlainPartitionJsonEqualsTheGeneralWay) {
  uint64_t state = 11;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  const std::vector<std::string> pieces = {"a", "7", "-", " ", "~", "\"", "\\", "\n", "\x01",
                                           "\x7f", "\xc3\xa9", "\xff", "/"};
  const std::vector<uint64_t> numbers = {0, 1, 9, 10, 99, 100, 12345, 18446744073709551615ull};
  int fast = 0, general = 0;
  for (int round = 0; round < 5000; ++round) {
    LogicalPartition p;
    const uint64_t shape = next(8);
    if (shape == 0) {
      p.key.components.push_back(KeyComponent::Number(static_cast<double>(next(1000)) / 8));
    } else if (shape == 1) {
      p.key.components.push_back(KeyComponent::String("a"));
      p.key.components.push_back(KeyComponent::Null());
    } else if (shape == 2) {
      p.key.components.push_back(KeyComponent::Undefined());
    } else {
      std::string text;
      const uint64_t n = next(6) == 0 ? 250 + next(12) : next(40);  // around the buffer's limit
      const bool clean = next(3) != 0;
      for (uint64_t k = 0; k < n; ++k) text += clean ? pieces[next(5)] : pieces[next(pieces.size())];
      p.key.components.push_back(KeyComponent::String(text));
    }
    p.items = numbers[next(numbers.size())];
    p.bytes = numbers[next(numbers.size())];
    p.largest_item_bytes = numbers[next(numbers.size())];
    p.largest_item_index = next(4) == 0 ? -1 : static_cast<int64_t>(numbers[next(6)]);
    if (next(2)) p.epk = next(8) == 0 ? std::string(300, 'A') : "05C1D0A3B7F2E1";
    std::string want, got;
    internal::AppendPartitionJsonGeneral(p, want);
    if (internal::AppendPlainPartitionJson(p, got)) {
      ASSERT_EQ(got, want) << round;
      ++fast;
    } else {
      ASSERT_TRUE(got.empty()) << round;
      ++general;
    }
    std::string listed;
    AppendPartitionJson(p, listed);
    ASSERT_EQ(listed, want) << round;
  }
  EXPECT_GT(fast, 1500);
  EXPECT_GT(general, 1500);
}

}  // namespace
}  // namespace partplay
