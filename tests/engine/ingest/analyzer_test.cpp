// The Analyzer end to end: its options and API (feeding, finishing, zero-copy chunks, errors that
// stick, the input-size hint) and the input formats it reads. Partition semantics, candidate
// paths, chunking, bad input and the bundled examples are analyzer_{key,discovery,chunk,
// bad_input}_test.cpp; the helpers they share are analyzer_test_helpers.h.
#include "partplay/ingest/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "analyzer_test_helpers.h"
#include "cli_io.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/report/report_format.h"
#include "simdjson.h"

namespace partplay {
namespace {

using namespace analyzer_test;  // NOLINT: the shared helpers
using namespace std::string_literals;

// --- options and API --------------------------------------------------------------------------

TEST(AnalyzerOptionsTest, KeyPathCount) {
  for (size_t n : {0u, 4u, 5u}) {
    std::vector<std::string> paths(n, "/a");
    auto a = Analyzer::Create(Keys(paths));
    ASSERT_FALSE(a.ok()) << n;
    EXPECT_EQ(a.status().code(), ErrorCode::kBadOption) << n;
  }
  for (size_t n : {1u, 2u, 3u}) {
    std::vector<std::string> paths;
    for (size_t i = 0; i < n; ++i) paths.push_back("/p" + std::to_string(i));
    EXPECT_TRUE(Analyzer::Create(Keys(paths)).ok()) << n;
  }
}

TEST(AnalyzerOptionsTest, DiscoverItems) {
  auto bad = Analyzer::Create(Keys({"/id"}, -2));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(Analyzer::Create(Keys({"/id"}, -1000)).status().code(), ErrorCode::kBadOption);
  EXPECT_TRUE(Analyzer::Create(Keys({"/id"}, -1)).ok());
  EXPECT_TRUE(Analyzer::Create(Keys({"/id"}, 0)).ok());
}

TEST(AnalyzerOptionsTest, BadKeyPathIsReportedWithItsColumn) {
  auto a = Analyzer::Create(Keys({"/ok", "user~2id"}));
  ASSERT_FALSE(a.ok());
  EXPECT_EQ(a.status().code(), ErrorCode::kBadKeyPath);
  EXPECT_EQ(a.status().where().column, 1);
  auto b = Analyzer::Create(Keys({"/a~"}));
  ASSERT_FALSE(b.ok());
  EXPECT_EQ(b.status().code(), ErrorCode::kBadKeyPath);
  EXPECT_EQ(b.status().where().column, 3);
}

TEST(AnalyzerOptionsTest, DefaultKeyPathIsId) {
  AnalysisOptions defaults;
  Outcome o = Analyze(R"({"id":"a"})", defaults);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.key_paths, std::vector<std::string>{"/id"});
  ASSERT_NE(FindPartition(o.report, R"(["a"])"), nullptr);
}

TEST(AnalyzerApiTest, FeedAfterFinishIsInvalidState) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a.value()->Feed(R"({"id":1})").ok());
  ASSERT_TRUE(a.value()->Finish().ok());
  Status s = a.value()->Feed(R"({"id":2})");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidState) << Where(s);
  EXPECT_EQ(a.value()->Finish().code(), ErrorCode::kInvalidState);
  // The analysis itself is unaffected.
  EXPECT_EQ(a.value()->BuildReport({}).items, 1u);
}

TEST(AnalyzerApiTest, EmptyFeedAfterFinishIsInvalidStateToo) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a.value()->Feed(R"({"id":1})").ok());
  ASSERT_TRUE(a.value()->Finish().ok());
  EXPECT_EQ(a.value()->Feed("").code(), ErrorCode::kInvalidState);
}

TEST(AnalyzerApiTest, FinishWithoutAnyFeedIsAnEmptyInput) {
  // An empty file may never produce a chunk: Finish alone must say "empty input".
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  ExpectError(a.value()->Finish(), ErrorCode::kEmptyInput, 0, 1, 1, -1);
}

TEST(AnalyzerApiTest, AnEmptyFirstChunkIsANoOp) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  Status s = a.value()->Feed("");
  EXPECT_TRUE(s.ok()) << Where(s);
  EXPECT_TRUE(a.value()->Feed(R"({"id":1})").ok());
  EXPECT_TRUE(a.value()->Feed("").ok());
  EXPECT_TRUE(a.value()->Finish().ok());
  EXPECT_EQ(a.value()->BuildReport({}).items, 1u);
}

TEST(AnalyzerApiTest, AnErrorIsSticky) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  Status first = a.value()->Feed("{\"id\":1}\n5\n");
  ExpectError(first, ErrorCode::kNotAnObject, 9, 2, 1, 1);
  Status again = a.value()->Feed(R"({"id":2})");
  EXPECT_TRUE(SameError(again, first)) << Where(again);
  Status finish = a.value()->Finish();
  EXPECT_TRUE(SameError(finish, first)) << Where(finish);
}

TEST(AnalyzerApiTest, ZeroCopyFeeding) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  const std::string input = "{\"id\":\"a\"}\n{\"id\":\"b\"}\n{\"id\":\"a\"}\n";
  for (size_t i = 0; i < input.size(); i += 7) {
    size_t n = std::min<size_t>(7, input.size() - i);
    uint8_t* at = a.value()->WritableChunk(16);  // may offer more than is committed
    ASSERT_NE(at, nullptr);
    std::memcpy(at, input.data() + i, n);
    ASSERT_TRUE(a.value()->CommitChunk(n).ok());
  }
  ASSERT_TRUE(a.value()->Finish().ok());
  AnalysisReport r = a.value()->BuildReport({});
  EXPECT_EQ(ReportToJson(r), Analyze(input).json);
  EXPECT_EQ(r.items, 3u);
}

TEST(AnalyzerApiTest, CommittingMoreThanTheBufferHoldsIsInvalidState) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  ASSERT_NE(a.value()->WritableChunk(10), nullptr);
  EXPECT_EQ(a.value()->CommitChunk(size_t(1) << 40).code(), ErrorCode::kInvalidState);
}

TEST(AnalyzerApiTest, ItemsSeenAndBytesConsumed) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value()->items_seen(), 0u);
  EXPECT_EQ(a.value()->bytes_consumed(), 0u);
  ASSERT_TRUE(a.value()->Feed("{\"id\":1}\n{\"id\":2}\n{\"id\":").ok());
  EXPECT_EQ(a.value()->items_seen(), 2u);
  // Both complete items are consumed (item 2 ends at 17), nothing of the third (from 18).
  EXPECT_GE(a.value()->bytes_consumed(), 17u);
  EXPECT_LE(a.value()->bytes_consumed(), 18u);
  ASSERT_TRUE(a.value()->Feed("3}\n").ok());
  ASSERT_TRUE(a.value()->Finish().ok());
  EXPECT_EQ(a.value()->items_seen(), 3u);
  // Finished: everything was consumed, the trailing newline included (the report's
  // input_bytes is documented as the bytes consumed).
  EXPECT_EQ(a.value()->BuildReport({}).input_bytes, 27u);
  EXPECT_EQ(a.value()->bytes_consumed(), 27u);
}

TEST(AnalyzerApiTest, MaxPartitions) {
  std::string input;
  for (int i = 0; i < 5; ++i) {
    for (int k = 0; k <= i; ++k) input += "{\"id\":" + std::to_string(i) + "}\n";
  }
  ReportOptions two;
  two.max_partitions = 2;
  Outcome o = Analyze(input, Keys({"/id"}), two);
  ASSERT_TRUE(o.status.ok());
  EXPECT_EQ(o.report.partition_count, 5u);
  ASSERT_EQ(o.report.partitions.size(), 2u);
  EXPECT_EQ(o.report.partitions_omitted, 3u);
  EXPECT_EQ(o.report.partitions[0].key.ToJson(), "[4]");
  EXPECT_EQ(o.report.partitions[1].key.ToJson(), "[3]");
  EXPECT_EQ(o.report.partition_bytes.size(), 5u);  // statistics still see every partition
  EXPECT_EQ(o.report.largest.key.ToJson(), "[4]");

  ReportOptions none;
  none.max_partitions = 0;
  Outcome z = Analyze(input, Keys({"/id"}), none);
  EXPECT_TRUE(z.report.partitions.empty());
  EXPECT_EQ(z.report.partitions_omitted, 5u);
  EXPECT_TRUE(z.report.has_largest);
  EXPECT_EQ(z.report.gini, o.report.gini);
  EXPECT_GT(z.report.gini, 0);

  ReportOptions many;
  many.max_partitions = 100;
  Outcome m = Analyze(input, Keys({"/id"}), many);
  EXPECT_EQ(m.report.partitions.size(), 5u);
  EXPECT_EQ(m.report.partitions_omitted, 0u);
}

TEST(AnalyzerApiTest, BuildReportTwiceGivesTheSameReport) {
  auto a = Analyzer::Create(Keys({"/id"}));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a.value()->Feed("{\"id\":1}{\"id\":2}{\"id\":1}").ok());
  ASSERT_TRUE(a.value()->Finish().ok());
  EXPECT_EQ(ReportToJson(a.value()->BuildReport({})), ReportToJson(a.value()->BuildReport({})));
}

// The input-size hint sizes tables only: any hint, right or wrong, gives the same report.
TEST(AnalyzerApiTest, ExpectInputBytesNeverChangesTheReport) {
  std::string text;
  for (int i = 0; i < 30000; ++i) {
    // Ids repeat now and then (duplicates found through the grown tables), one item in 7 lacks
    // one, and items grow along the input (the first ones suggest too many items).
    text += "{\"id\":\"" + std::to_string(i % 29989) + "\",\"user\":\"u" +
            std::to_string(i % 29989 % 997) +
            "\"" + (i % 7 == 0 ? ",\"noid\":1" : "") + ",\"pad\":\"" + std::string(i / 1000, 'x') +
            "\"}\n";
    if (i % 7 == 0) text.replace(text.rfind("\"id\""), 4, "\"ix\"");
  }
  for (const char* key : {"/user", "/id"}) {
    std::string expected;
    for (uint64_t hint : {uint64_t{0}, uint64_t{text.size()}, uint64_t{text.size() / 50},
                          uint64_t{text.size()} * 1000, uint64_t{1}}) {
      auto a = Analyzer::Create(Keys({key}, 100));
      ASSERT_TRUE(a.ok());
      if (hint != 0) a.value()->ExpectInputBytes(hint);
      for (size_t at = 0; at < text.size(); at += 65536) {
        ASSERT_TRUE(a.value()->Feed(std::string_view(text).substr(at, 65536)).ok());
      }
      ASSERT_TRUE(a.value()->Finish().ok());
      AnalysisReport r = a.value()->BuildReport({});
      EXPECT_EQ(r.items, 30000u);
      EXPECT_GT(r.duplicate_id_items, 0u) << key;
      std::string json = ReportToJson(r);
      if (expected.empty()) expected = json;
      EXPECT_EQ(json, expected) << key << " hint " << hint;
    }
  }
}

// --- formats ----------------------------------------------------------------------------------

TEST(AnalyzerFormatTest, Ndjson) {
  std::vector<std::string> items = {R"({"id":"a","n":1})", R"({"id":"b"})", R"({"id":"a"})"};
  std::string input = JoinLines(items);
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "ndjson");
  EXPECT_EQ(o.report.items, 3u);
  EXPECT_EQ(o.report.bytes, SumSizes(items));
  EXPECT_EQ(o.report.input_bytes, input.size());
  EXPECT_EQ(o.report.partition_count, 2u);
  ExpectConsistent(o.report);
}

TEST(AnalyzerFormatTest, NdjsonWithCrLfAndBlankLinesAndNoFinalNewline) {
  std::string input = "\r\n{\"id\":1}\r\n\r\n\t {\"id\":2} \r\n{\"id\":1}";
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "ndjson");
  EXPECT_EQ(o.report.items, 3u);
  EXPECT_EQ(o.report.bytes, 24u);
  EXPECT_EQ(o.report.input_bytes, input.size());
}

TEST(AnalyzerFormatTest, ConcatenatedMultiLineObjects) {
  std::vector<std::string> items = {
      "{\n  \"id\": 1,\n  \"tags\": [\"a\", \"b\"],\n  \"o\": {\"x\": {}}\n}",
      R"({"id":2})",
      "{\"id\":\n1}",
  };
  std::string input = items[0] + items[1] + "\n\n" + items[2] + "\n";
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "ndjson");
  EXPECT_EQ(o.report.items, 3u);
  EXPECT_EQ(o.report.bytes, SumSizes(items));
  const LogicalPartition* one = FindPartition(o.report, "[1]");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->items, 2u);
  EXPECT_EQ(one->bytes, items[0].size() + items[2].size());
  EXPECT_EQ(one->largest_item_index, 0);
  EXPECT_EQ(one->largest_item_bytes, items[0].size());
}

TEST(AnalyzerFormatTest, JsonArray) {
  std::vector<std::string> items = {
      R"({"id":1,"a":[[1,2],[3,[4,{"x":[]}]]],"s":"],[{\"}"})",
      R"({"id":"x","q":"say \"hi\", ok]","e":"\\","b":"\\\"]"})",
      R"({ "id" : 1 , "arr" : [ { "id" : 99 } ] })",
  };
  std::string input = "[\n  " + items[0] + ",\n  " + items[1] + "  ,  " + items[2] + "\n]\n";
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "array");
  EXPECT_EQ(o.report.items, 3u);
  EXPECT_EQ(o.report.bytes, SumSizes(items));
  EXPECT_EQ(o.report.input_bytes, input.size());
  const LogicalPartition* one = FindPartition(o.report, "[1]");
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->items, 2u);  // the nested "id": 99 is not the item's id
  EXPECT_EQ(one->bytes, items[0].size() + items[2].size());
  const LogicalPartition* x = FindPartition(o.report, R"(["x"])");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->bytes, items[1].size());
  EXPECT_EQ(x->largest_item_index, 1);
  ExpectConsistent(o.report);
}

TEST(AnalyzerFormatTest, ArrayElementTextsKeepTheirStringsIntact) {
  // The array scanner blanks separators in place; strings holding commas and brackets must not
  // be touched: the key values read back exactly.
  std::string input = R"([{"id":"a,b]"},{"id":"[,]"},{"id":"\",\""},{"id":"\\"}])";
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 4u);
  EXPECT_NE(FindPartition(o.report, R"(["a,b]"])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["[,]"])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["\",\""])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["\\"])"), nullptr);
}

TEST(AnalyzerFormatTest, EmptyArray) {
  for (std::string input : {"[]"s, "[ ]"s, " \n[\n\t]\n "s}) {
    Outcome o = Analyze(input);
    ASSERT_TRUE(o.status.ok()) << "'" << input << "': " << Where(o.status);
    EXPECT_EQ(o.report.format, "array");
    EXPECT_EQ(o.report.items, 0u);
    EXPECT_EQ(o.report.bytes, 0u);
    EXPECT_EQ(o.report.input_bytes, input.size());
    EXPECT_EQ(o.report.partition_count, 0u);
    EXPECT_FALSE(o.report.has_largest);
    EXPECT_EQ(o.report.mean_partition_bytes, 0);
    EXPECT_EQ(o.report.top1_partitions, 0u);
    EXPECT_EQ(o.report.gini, 0);
    EXPECT_EQ(o.report.sampled_items, 0u);
    EXPECT_TRUE(o.report.candidate_paths.empty());
    EXPECT_NE(o.json.find("\"largest_partition\":null"), std::string::npos) << o.json;
  }
}

TEST(AnalyzerFormatTest, SingleObject) {
  std::string item = "{\n  \"id\": \"only\",\n  \"n\": {\"x\": [1, {\"y\": 2}]}\n}";
  Outcome o = Analyze("\n" + item + "\n\n");
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "object");
  EXPECT_EQ(o.report.items, 1u);
  EXPECT_EQ(o.report.bytes, item.size());
  EXPECT_EQ(o.report.partition_count, 1u);
  EXPECT_DOUBLE_EQ(o.report.top1_share, 1.0);
  EXPECT_EQ(o.report.gini, 0);
}

TEST(AnalyzerFormatTest, ArrayOfOneIsStillAnArray) {
  Outcome o = Analyze(R"([{"id":1}])");
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.format, "array");
  EXPECT_EQ(o.report.items, 1u);
}

TEST(AnalyzerFormatTest, Utf8ByteOrderMarkIsSkipped) {
  const std::string bom = "\xEF\xBB\xBF";
  Outcome nd = Analyze(bom + "{\"id\":1}\n{\"id\":2}");
  ASSERT_TRUE(nd.status.ok()) << Where(nd.status);
  EXPECT_EQ(nd.report.format, "ndjson");
  EXPECT_EQ(nd.report.items, 2u);
  EXPECT_EQ(nd.report.bytes, 16u);        // the BOM is in no item
  EXPECT_EQ(nd.report.input_bytes, 20u);  // but it was read

  Outcome arr = Analyze(bom + " [{\"id\":1}]");
  ASSERT_TRUE(arr.status.ok()) << Where(arr.status);
  EXPECT_EQ(arr.report.format, "array");
  EXPECT_EQ(arr.report.items, 1u);

  Outcome obj = Analyze(bom + "\n{\"id\":1}");
  ASSERT_TRUE(obj.status.ok()) << Where(obj.status);
  EXPECT_EQ(obj.report.format, "object");

  // Locations count the BOM's bytes.
  ExpectError(Analyze(bom + "{\"id\":tru}").status, ErrorCode::kMalformedJson, 12, 1, 13, 0);
  // A BOM alone is an empty input.
  EXPECT_EQ(Analyze(bom).status.code(), ErrorCode::kEmptyInput);
}

TEST(AnalyzerFormatTest, ByteOrderMarkAnywhereElseIsAnError) {
  ExpectError(Analyze("{\"id\":1}\n\xEF\xBB\xBF{\"id\":2}").status, ErrorCode::kMalformedJson, 9,
              2, 1, 1);
}

}  // namespace
}  // namespace partplay
