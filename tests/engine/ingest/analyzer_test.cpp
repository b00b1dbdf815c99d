// The Analyzer end to end: input formats, partition semantics, findings, candidate paths,
// chunking (every split must give the same report or the same located error), bad input and
// the bundled examples.
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

#include "cli_io.h"
#include "partplay/ingest/json_diagnostics.h"
#include "partplay/report/report_format.h"
#include "simdjson.h"

namespace partplay {
namespace {

using namespace std::string_literals;

// --- helpers ----------------------------------------------------------------------------------

AnalysisOptions Keys(std::vector<std::string> paths, int64_t discover_items = 10000) {
  AnalysisOptions options;
  options.key_paths = std::move(paths);
  options.discover_items = discover_items;
  return options;
}

struct Outcome {
  Status status;                  // the first failure, or OK
  bool failed_in_finish = false;  // else in the Feed of chunk `failed_chunk`
  size_t failed_chunk = 0;
  AnalysisReport report;
  std::string json;  // ReportToJson(report) when OK
  uint64_t items_seen = 0;
  uint64_t bytes_consumed = 0;
};

Outcome AnalyzeChunks(const std::vector<std::string_view>& chunks, const AnalysisOptions& options,
                      const ReportOptions& report_options = {}) {
  Outcome out;
  auto created = Analyzer::Create(options);
  if (!created.ok()) {
    ADD_FAILURE() << "Create: " << created.status().ToString();
    out.status = created.status();
    return out;
  }
  Analyzer& analyzer = *created.value();
  for (size_t i = 0; i < chunks.size(); ++i) {
    Status s = analyzer.Feed(chunks[i]);
    if (!s.ok()) {
      out.status = s;
      out.failed_chunk = i;
      return out;
    }
  }
  Status s = analyzer.Finish();
  if (!s.ok()) {
    out.status = s;
    out.failed_in_finish = true;
    return out;
  }
  out.report = analyzer.BuildReport(report_options);
  out.json = ReportToJson(out.report);
  out.items_seen = analyzer.items_seen();
  out.bytes_consumed = analyzer.bytes_consumed();
  return out;
}

Outcome Analyze(std::string_view input, const AnalysisOptions& options = Keys({"/id"}),
                const ReportOptions& report_options = {}) {
  return AnalyzeChunks({input}, options, report_options);
}

// The input cut at the given (ascending) offsets.
std::vector<std::string_view> Cut(std::string_view input, const std::vector<size_t>& cuts) {
  std::vector<std::string_view> chunks;
  size_t from = 0;
  for (size_t at : cuts) {
    chunks.push_back(input.substr(from, at - from));
    from = at;
  }
  chunks.push_back(input.substr(from));
  return chunks;
}

std::vector<std::string_view> FixedChunks(std::string_view input, size_t size) {
  std::vector<std::string_view> chunks;
  for (size_t i = 0; i < input.size(); i += size) chunks.push_back(input.substr(i, size));
  return chunks;
}

std::string Where(const Status& s) {
  const SourceLocation& w = s.where();
  return "code " + std::string(ErrorCodeName(s.code())) + ", byte " +
         std::to_string(w.byte_offset) + ", line " + std::to_string(w.line) + ", column " +
         std::to_string(w.column) + ", item " + std::to_string(w.item_index) + " (" +
         s.message() + ")";
}

void ExpectError(const Status& s, ErrorCode code, int64_t byte_offset, int64_t line,
                 int64_t column, int64_t item_index) {
  ASSERT_FALSE(s.ok()) << "expected " << ErrorCodeName(code);
  EXPECT_EQ(s.code(), code) << Where(s);
  EXPECT_EQ(s.where().byte_offset, byte_offset) << Where(s);
  EXPECT_EQ(s.where().line, line) << Where(s);
  EXPECT_EQ(s.where().column, column) << Where(s);
  EXPECT_EQ(s.where().item_index, item_index) << Where(s);
  EXPECT_FALSE(s.message().empty());
}

bool SameError(const Status& a, const Status& b) {
  return a.code() == b.code() && a.where().byte_offset == b.where().byte_offset &&
         a.where().line == b.where().line && a.where().column == b.where().column &&
         a.where().item_index == b.where().item_index;
}

const LogicalPartition* FindPartition(const AnalysisReport& r, const std::string& key_json) {
  for (const auto& p : r.partitions) {
    if (p.key.ToJson() == key_json) return &p;
  }
  return nullptr;
}

const LogicalPartition* FindNumberPartition(const AnalysisReport& r, double value) {
  for (const auto& p : r.partitions) {
    if (p.key.components.size() == 1 && p.key.components[0].kind == KeyKind::kNumber &&
        p.key.components[0].number == value) {
      return &p;
    }
  }
  return nullptr;
}

const CandidatePath* FindPath(const AnalysisReport& r, const std::string& path) {
  for (const auto& c : r.candidate_paths) {
    if (c.path == path) return &c;
  }
  return nullptr;
}

// The documented sum rules and internal consistency of a report listing every partition.
void ExpectConsistent(const AnalysisReport& r) {
  uint64_t items = 0, bytes = 0, undefined = 0;
  for (const auto& p : r.partitions) {
    items += p.items;
    bytes += p.bytes;
    EXPECT_GE(p.largest_item_index, 0);
    EXPECT_LE(p.largest_item_bytes, p.bytes);
    bool has_undefined = false;
    for (const auto& c : p.key.components) has_undefined |= c.kind == KeyKind::kUndefined;
    if (has_undefined) undefined += p.items;
  }
  ASSERT_EQ(r.partitions_omitted, 0u);
  EXPECT_EQ(r.items, items + r.invalid_key_items) << "items = sum(partition items) + invalid";
  EXPECT_EQ(r.bytes, bytes + r.invalid_key_bytes);
  EXPECT_EQ(r.undefined_key_items, undefined);
  EXPECT_EQ(r.partition_count, r.partitions.size());
  EXPECT_EQ(r.partition_bytes.size(), r.partitions.size());
  for (size_t i = 0; i < r.partitions.size(); ++i) {
    EXPECT_EQ(r.partition_bytes[i], static_cast<double>(r.partitions[i].bytes));
    if (i) {
      EXPECT_GE(r.partitions[i - 1].bytes, r.partitions[i].bytes);
    }
  }
  EXPECT_EQ(r.has_largest, !r.partitions.empty());
  if (r.has_largest) {
    EXPECT_EQ(r.largest.key, r.partitions[0].key);
    EXPECT_EQ(r.largest.bytes, r.partitions[0].bytes);
    EXPECT_EQ(r.largest.items, r.partitions[0].items);
  }
  EXPECT_LE(r.bytes, r.input_bytes);
}

std::string JoinLines(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& i : items) out += i + "\n";
  return out;
}

uint64_t SumSizes(const std::vector<std::string>& items) {
  uint64_t n = 0;
  for (const auto& i : items) n += i.size();
  return n;
}

// Feeds the input in two chunks split at every byte position; each must give the one-chunk
// result: the same report JSON, or the same error (code and location).
void ExpectEverySplitAgrees(const std::string& input, const AnalysisOptions& options) {
  Outcome whole = Analyze(input, options);
  for (size_t at = 0; at <= input.size(); ++at) {
    Outcome split = AnalyzeChunks(Cut(input, {at}), options);
    if (whole.status.ok()) {
      ASSERT_TRUE(split.status.ok()) << "split at " << at << ": " << Where(split.status);
      ASSERT_EQ(split.json, whole.json) << "split at " << at;
    } else {
      ASSERT_FALSE(split.status.ok()) << "split at " << at << " succeeded; whole input: "
                                      << Where(whole.status);
      ASSERT_TRUE(SameError(split.status, whole.status))
          << "split at " << at << ": " << Where(split.status)
          << "\n  one chunk: " << Where(whole.status);
    }
  }
}

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

// --- partition semantics ----------------------------------------------------------------------

TEST(AnalyzerKeyTest, StringFiveNumberFiveAndZeros) {
  std::vector<std::string> items = {
      R"({"k":"5"})",  R"({"k":5})",   R"({"k":5.0})",   R"({"k":5e0})",  R"({"k":50E-1})",
      R"({"k":-0})",   R"({"k":0})",   R"({"k":0.0})",   R"({"k":-0.0e5})", R"({"k":"0"})",
      R"({"k":"5.0"})",
  };
  Outcome o = Analyze(JoinLines(items), Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.partition_count, 5u);
  const LogicalPartition* five = FindPartition(o.report, "[5]");
  ASSERT_NE(five, nullptr);
  EXPECT_EQ(five->items, 4u);
  EXPECT_EQ(five->bytes, items[1].size() + items[2].size() + items[3].size() + items[4].size());
  const LogicalPartition* zero = FindPartition(o.report, "[0]");
  ASSERT_NE(zero, nullptr);
  EXPECT_EQ(zero->items, 4u);
  EXPECT_EQ(FindPartition(o.report, "[-0]"), nullptr);
  ASSERT_NE(FindPartition(o.report, R"(["5"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["5"])")->items, 1u);
  ASSERT_NE(FindPartition(o.report, R"(["0"])"), nullptr);
  ASSERT_NE(FindPartition(o.report, R"(["5.0"])"), nullptr);
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, ScalarKinds) {
  std::string input = JoinLines({R"({"k":true})", R"({"k":false})", R"({"k":null})",
                                 R"({"k":"true"})", R"({"k":"null"})", R"({"k":true})",
                                 R"({"k":-1.5})", R"({"k":""})"});
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.partition_count, 7u);
  ASSERT_NE(FindPartition(o.report, "[true]"), nullptr);
  EXPECT_EQ(FindPartition(o.report, "[true]")->items, 2u);
  EXPECT_NE(FindPartition(o.report, "[false]"), nullptr);
  EXPECT_NE(FindPartition(o.report, "[null]"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["true"])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["null"])"), nullptr);
  EXPECT_NE(FindPartition(o.report, "[-1.5]"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"([""])"), nullptr);
  EXPECT_EQ(o.report.undefined_key_items, 0u);
}

TEST(AnalyzerKeyTest, MissingKeyIsTheUndefinedPartition) {
  std::vector<std::string> items = {R"({"k":"a"})", R"({"other":1})", R"({})",
                                    R"({"k":null})", R"({"K":"a"})", R"({"x":{"k":"a"}})"};
  Outcome o = Analyze(JoinLines(items), Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.undefined_key_items, 4u);
  const LogicalPartition* undef = FindPartition(o.report, "[{}]");
  ASSERT_NE(undef, nullptr);
  EXPECT_EQ(undef->items, 4u);
  EXPECT_EQ(undef->bytes, items[1].size() + items[2].size() + items[4].size() + items[5].size());
  EXPECT_EQ(undef->largest_item_index, 5);
  ASSERT_NE(FindPartition(o.report, "[null]"), nullptr);  // null is a value, not undefined
  EXPECT_EQ(FindPartition(o.report, "[null]")->items, 1u);
  EXPECT_EQ(o.report.invalid_key_items, 0u);
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, NestedPath) {
  std::vector<std::string> items = {
      R"({"address":{"city":"Oslo"}})",
      R"({"address":{"zip":"0150","city":"Oslo","more":{"city":"X"}}})",
      R"({"address":{"city":"Bergen"}})",
      R"({"address":"Oslo"})",
      R"({"address":[{"city":"Oslo"}]})",
      R"({"city":"Oslo"})",
      R"({"address":null})",
      R"({"address":{"city":{"name":"Oslo"}}})",
      R"({"other":{"address":{"city":"Oslo"}}})",
  };
  Outcome o = Analyze(JoinLines(items), Keys({"/address/city"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  ASSERT_NE(FindPartition(o.report, R"(["Oslo"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["Oslo"])")->items, 2u);
  ASSERT_NE(FindPartition(o.report, R"(["Bergen"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["X"])"), nullptr);
  ASSERT_NE(FindPartition(o.report, "[{}]"), nullptr);
  EXPECT_EQ(FindPartition(o.report, "[{}]")->items, 5u);  // items 3, 4 (array), 5, 6, 8
  EXPECT_EQ(o.report.undefined_key_items, 5u);
  EXPECT_EQ(o.report.invalid_key_items, 1u);
  ASSERT_EQ(o.report.invalid_key_examples.size(), 1u);
  EXPECT_EQ(o.report.invalid_key_examples[0].item_index, 7);
  EXPECT_EQ(o.report.invalid_key_examples[0].type, "object");
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, EscapedPathNamesAPropertyWithASlashOrTilde) {
  std::string input = JoinLines({R"({"a/b":"x"})", R"({"a":{"b":"y"}})", R"({"a\/b":"x"})",
                                 R"({"m~n":"t","a/b":"z"})"});
  Outcome slash = Analyze(input, Keys({"/a~1b"}));
  ASSERT_TRUE(slash.status.ok()) << Where(slash.status);
  ASSERT_NE(FindPartition(slash.report, R"(["x"])"), nullptr);
  EXPECT_EQ(FindPartition(slash.report, R"(["x"])")->items, 2u);  // "a\/b" is "a/b" too
  EXPECT_EQ(FindPartition(slash.report, R"(["y"])"), nullptr);
  ASSERT_NE(FindPartition(slash.report, R"(["z"])"), nullptr);
  EXPECT_EQ(slash.report.undefined_key_items, 1u);

  Outcome nested = Analyze(input, Keys({"/a/b"}));
  ASSERT_TRUE(nested.status.ok());
  ASSERT_NE(FindPartition(nested.report, R"(["y"])"), nullptr);
  EXPECT_EQ(nested.report.undefined_key_items, 3u);

  Outcome tilde = Analyze(input, Keys({"/m~0n"}));
  ASSERT_TRUE(tilde.status.ok());
  ASSERT_NE(FindPartition(tilde.report, R"(["t"])"), nullptr);
  EXPECT_EQ(tilde.report.undefined_key_items, 3u);
}

TEST(AnalyzerKeyTest, EmptyPropertyNames) {
  std::string input = JoinLines({R"({"":"top"})", R"({"a":{"":"inner"}})", R"({"x":1})"});
  Outcome top = Analyze(input, Keys({"/"}));
  ASSERT_TRUE(top.status.ok()) << Where(top.status);
  EXPECT_NE(FindPartition(top.report, R"(["top"])"), nullptr);
  EXPECT_EQ(top.report.undefined_key_items, 2u);
  Outcome inner = Analyze(input, Keys({"/a/"}));
  ASSERT_TRUE(inner.status.ok()) << Where(inner.status);
  EXPECT_NE(FindPartition(inner.report, R"(["inner"])"), nullptr);
  EXPECT_EQ(inner.report.undefined_key_items, 2u);
}

TEST(AnalyzerKeyTest, PropertyNamesWithJsonEscapesMatch) {
  std::string input =
      JoinLines({R"({"\u0061":"v"})", R"({"a":"v"})", R"({"\u0069\u0064":7,"a":"w"})",
                 R"({"\u00e9t\u00e9":"s","a":"\u0076"})"});
  Outcome o = Analyze(input, Keys({"/a"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  ASSERT_NE(FindPartition(o.report, R"(["v"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["v"])")->items, 3u);  // "\u0076" is "v" too
  EXPECT_EQ(o.report.undefined_key_items, 0u);

  Outcome id = Analyze(input, Keys({"/id"}));
  ASSERT_TRUE(id.status.ok());
  ASSERT_NE(FindPartition(id.report, "[7]"), nullptr);

  Outcome ete = Analyze(input, Keys({"/été"}));
  ASSERT_TRUE(ete.status.ok());
  ASSERT_NE(FindPartition(ete.report, R"(["s"])"), nullptr);
}

TEST(AnalyzerKeyTest, EscapedAndLiteralStringValuesAreOneKey) {
  std::string input = JoinLines({R"({"k":"é"})", R"({"k":"\u00e9"})", R"({"k":"\u00E9"})",
                                 R"({"k":"😀"})", R"({"k":"\ud83d\ude00"})", R"({"k":"a\/b"})",
                                 R"({"k":"a/b"})", R"({"k":"tab\there"})"});
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.partition_count, 4u);
  ASSERT_NE(FindPartition(o.report, R"(["é"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["é"])")->items, 3u);
  ASSERT_NE(FindPartition(o.report, R"(["😀"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["😀"])")->items, 2u);
  ASSERT_NE(FindPartition(o.report, R"(["a/b"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["a/b"])")->items, 2u);
  EXPECT_NE(FindPartition(o.report, R"(["tab\there"])"), nullptr);
}

TEST(AnalyzerKeyTest, ObjectOrArrayKeyValuesAreInvalid) {
  std::vector<std::string> items = {
      R"({"k":"x"})", R"({"k":{"a":1}})", R"({"k":[1,2]})", R"({"k":"x"})", R"({"k":[]})",
      R"({"k":{}})",
  };
  std::string input = JoinLines(items);
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 6u);
  EXPECT_EQ(o.report.invalid_key_items, 4u);
  EXPECT_EQ(o.report.invalid_key_bytes,
            items[1].size() + items[2].size() + items[4].size() + items[5].size());
  ASSERT_EQ(o.report.invalid_key_examples.size(), 4u);
  const int64_t indexes[] = {1, 2, 4, 5};
  const char* types[] = {"object", "array", "array", "object"};
  for (size_t i = 0; i < 4; ++i) {
    const ItemFinding& f = o.report.invalid_key_examples[i];
    EXPECT_EQ(f.item_index, indexes[i]);
    EXPECT_EQ(f.type, types[i]);
    EXPECT_EQ(f.bytes, items[indexes[i]].size());
    EXPECT_EQ(f.where.line, indexes[i] + 1);
    EXPECT_EQ(f.where.column, 1);
    EXPECT_EQ(f.where.byte_offset, static_cast<int64_t>(input.find(items[indexes[i]])));
  }
  EXPECT_EQ(o.report.partition_count, 1u);
  EXPECT_EQ(o.report.partitions[0].items, 2u);
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, InvalidKeyInAnArrayReportsElementLocations) {
  std::string input = "[\n  {\"k\":1},\n  {\"k\":[1]},\n  {\"k\":{\"x\":2}}\n]";
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  ASSERT_EQ(o.report.invalid_key_examples.size(), 2u);
  EXPECT_EQ(o.report.invalid_key_examples[0].item_index, 1);
  EXPECT_EQ(o.report.invalid_key_examples[0].where.byte_offset,
            static_cast<int64_t>(input.find("{\"k\":[1]}")));
  EXPECT_EQ(o.report.invalid_key_examples[0].where.line, 3);
  EXPECT_EQ(o.report.invalid_key_examples[0].where.column, 3);
  EXPECT_EQ(o.report.invalid_key_examples[1].item_index, 2);
  EXPECT_EQ(o.report.invalid_key_examples[1].where.line, 4);
  EXPECT_EQ(o.report.invalid_key_examples[1].type, "object");
}

TEST(AnalyzerKeyTest, InvalidExamplesStopAtTheLimitButCountsDoNot) {
  std::string input;
  for (int i = 0; i < 250; ++i) input += "{\"k\":[" + std::to_string(i) + "]}\n";
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.invalid_key_items, 250u);
  ASSERT_EQ(o.report.invalid_key_examples.size(), kMaxFindingExamples);
  EXPECT_EQ(o.report.invalid_key_examples.back().item_index, 99);
  EXPECT_EQ(o.report.partition_count, 0u);
  EXPECT_EQ(o.report.items, 250u);
}

TEST(AnalyzerKeyTest, FirstOccurrenceOfADuplicatePropertyWins) {
  Outcome o = Analyze(JoinLines({R"({"k":1,"k":2})", R"({"k":{},"k":"x"})",
                                 R"({"k":"y","k":[]})"}),
                      Keys({"/k"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_NE(FindPartition(o.report, "[1]"), nullptr);
  EXPECT_EQ(FindPartition(o.report, "[2]"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["y"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["x"])"), nullptr);
  EXPECT_EQ(o.report.invalid_key_items, 1u);
}

TEST(AnalyzerKeyTest, BytesAreTheExactUtf8LengthOfEachItem) {
  std::vector<std::string> items = {
      R"({"id":"Zoë","t":"東京😀"})",
      "{ \"id\" : \"Zoë\" ,\n  \"n\" : [ 1 , 2 ]\t}",
      R"({"id":"\u00e9","s":"\"quoted\" \\ back"})",
      R"({"id":"é","s":"ÅÄÖ ßü ✓"})",
      R"({})",
  };
  std::string input = items[0] + "\n\n" + items[1] + "  " + items[2] + "\r\n" + items[3] + items[4];
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 5u);
  EXPECT_EQ(o.report.bytes, SumSizes(items));
  EXPECT_EQ(o.report.input_bytes, input.size());
  const LogicalPartition* zoe = FindPartition(o.report, R"(["Zoë"])");
  ASSERT_NE(zoe, nullptr);
  EXPECT_EQ(zoe->bytes, items[0].size() + items[1].size());
  EXPECT_EQ(zoe->largest_item_bytes, std::max(items[0].size(), items[1].size()));
  const LogicalPartition* e = FindPartition(o.report, R"(["é"])");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->bytes, items[2].size() + items[3].size());
  EXPECT_EQ(e->largest_item_index, items[2].size() >= items[3].size() ? 2 : 3);
  const LogicalPartition* undef = FindPartition(o.report, "[{}]");
  ASSERT_NE(undef, nullptr);
  EXPECT_EQ(undef->bytes, 2u);
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, HierarchicalKeys) {
  std::vector<std::string> items = {
      R"({"tenant":"t1","user":"u1","session":1})",
      R"({"session":1,"x":2,"user":"u1","tenant":"t1"})",
      R"({"tenant":"t1","user":"u2","session":1})",
      R"({"tenant":"t1","session":1})",
      R"({"tenant":"t2","user":"u1","session":"1"})",
      R"({"tenant":"t1","user":["u1"],"session":1})",
      R"({"tenant":"t1","user":"u1"})",
  };
  Outcome o = Analyze(JoinLines(items), Keys({"/tenant", "/user", "/session"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.key_paths, (std::vector<std::string>{"/tenant", "/user", "/session"}));
  EXPECT_EQ(o.report.partition_count, 5u);
  const LogicalPartition* p = FindPartition(o.report, R"(["t1","u1",1])");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->items, 2u);
  EXPECT_EQ(p->bytes, items[0].size() + items[1].size());
  EXPECT_EQ(p->largest_item_index, 1);
  EXPECT_NE(FindPartition(o.report, R"(["t1","u2",1])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["t1",{},1])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["t2","u1","1"])"), nullptr);
  EXPECT_NE(FindPartition(o.report, R"(["t1","u1",{}])"), nullptr);
  EXPECT_EQ(o.report.undefined_key_items, 2u);
  EXPECT_EQ(o.report.invalid_key_items, 1u);
  ASSERT_EQ(o.report.invalid_key_examples.size(), 1u);
  EXPECT_EQ(o.report.invalid_key_examples[0].item_index, 5);
  EXPECT_EQ(o.report.invalid_key_examples[0].type, "array");
  ExpectConsistent(o.report);
}

TEST(AnalyzerKeyTest, TwoLevelHierarchicalKeyWithNestedPaths) {
  std::string input = JoinLines({R"({"a":{"x":1,"y":"p"},"b":2})", R"({"a":{"y":"p","x":1}})",
                                 R"({"a":{"x":1}})", R"({"a":{"x":{"deep":1},"y":"p"}})"});
  Outcome o = Analyze(input, Keys({"/a/x", "/a/y"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  ASSERT_NE(FindPartition(o.report, R"([1,"p"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"([1,"p"])")->items, 2u);
  EXPECT_NE(FindPartition(o.report, R"([1,{}])"), nullptr);
  EXPECT_EQ(o.report.invalid_key_items, 1u);
  EXPECT_EQ(o.report.invalid_key_examples[0].type, "object");
}

TEST(AnalyzerKeyTest, LargestItemIndexPerPartition) {
  std::vector<std::string> items = {
      R"({"k":"a","p":"x"})", R"({"k":"b"})", R"({"k":"a","p":"xxxxx"})",
      R"({"k":"a","p":"xxxxx"})",  // as large as item 2, later
      R"({"k":"b","p":"xxxxxxxxxx"})", R"({"k":"a"})",
  };
  Outcome o = Analyze(JoinLines(items), Keys({"/k"}));
  ASSERT_TRUE(o.status.ok());
  const LogicalPartition* a = FindPartition(o.report, R"(["a"])");
  const LogicalPartition* b = FindPartition(o.report, R"(["b"])");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->largest_item_index, 2);
  EXPECT_EQ(a->largest_item_bytes, items[2].size());
  EXPECT_EQ(b->largest_item_index, 4);
  EXPECT_EQ(b->largest_item_bytes, items[4].size());
}

TEST(AnalyzerKeyTest, PartitionsAreSortedLargestFirstWithTies) {
  std::string input = JoinLines({
      R"({"k":"b","p":"xxxx"})",  // 20 bytes
      R"({"k":"a","p":"xxxx"})",  // 20 bytes
      R"({"k":"c"})",             // 9 + 11 = 20 bytes in two items
      R"({ "k":"c" })",
      R"({"k":"big","p":"xxxxxxxxxxxxx"})",
      R"({"k":2,"p":"xxxxxx"})",  // 20 bytes, a number: before the strings
  });
  Outcome o = Analyze(input, Keys({"/k"}));
  ASSERT_TRUE(o.status.ok());
  std::vector<std::string> keys;
  for (const auto& p : o.report.partitions) keys.push_back(p.key.ToJson());
  EXPECT_EQ(keys, (std::vector<std::string>{R"(["big"])", R"(["c"])", "[2]", R"(["a"])",
                                            R"(["b"])"}));
}

TEST(AnalyzerKeyTest, NumbersOutOfDoubleRange) {
  std::vector<std::string> items = {
      R"({"k":1e400})",
      R"({"k":-1e400})",
      R"({"k":"a","big":1e400,"neg":-1E+999})",
      R"({"k":123456789012345678901234567890})",
      R"({"k":"a","v":[1e400,-1e999,{"w":1e400}],"i":123456789012345678901234567890})",
      R"({"k":18446744073709551616})",
      R"({"k":-9223372036854775809})",
  };
  for (int64_t discover : {int64_t{10000}, int64_t{0}}) {
    SCOPED_TRACE("discover_items " + std::to_string(discover));
    Outcome o = Analyze(JoinLines(items), Keys({"/k"}, discover));
    ASSERT_TRUE(o.status.ok()) << Where(o.status);
    EXPECT_EQ(o.report.items, 7u);
    EXPECT_EQ(o.report.invalid_key_items, 2u);
    ASSERT_EQ(o.report.invalid_key_examples.size(), 2u);
    EXPECT_EQ(o.report.invalid_key_examples[0].type, "number_out_of_range");
    EXPECT_EQ(o.report.invalid_key_examples[0].item_index, 0);
    EXPECT_EQ(o.report.invalid_key_examples[1].type, "number_out_of_range");
    EXPECT_EQ(o.report.invalid_key_examples[1].item_index, 1);
    ASSERT_NE(FindPartition(o.report, R"(["a"])"), nullptr);
    EXPECT_EQ(FindPartition(o.report, R"(["a"])")->items, 2u);
    // Big integers are numbers (as doubles).
    EXPECT_NE(FindNumberPartition(o.report, 1.2345678901234568e29), nullptr) << o.json;
    EXPECT_NE(FindNumberPartition(o.report, 18446744073709551616.0), nullptr) << o.json;
    EXPECT_NE(FindNumberPartition(o.report, -9223372036854775808.0), nullptr) << o.json;
    EXPECT_EQ(o.report.partition_count, 4u);
    ExpectConsistent(o.report);
  }
}

TEST(AnalyzerKeyTest, MalformedNumbersAnywhereAreRejected) {
  // Every item is validated, not only the key path.
  for (int64_t discover : {int64_t{10000}, int64_t{0}}) {
    SCOPED_TRACE("discover_items " + std::to_string(discover));
    ExpectError(Analyze("{\"id\":1}\n{\"id\":2,\"n\":012}", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 9 + 13, 2, 14, 1);
    ExpectError(Analyze("{\"id\":1,\"n\":[1.]}", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 15, 1, 16, 0);
    ExpectError(Analyze("{\"id\":1,\"n\":-}", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 13, 1, 14, 0);
  }
}

TEST(AnalyzerKeyTest, BadStringsAnywhereAreRejected) {
  for (int64_t discover : {int64_t{10000}, int64_t{0}}) {
    SCOPED_TRACE("discover_items " + std::to_string(discover));
    // A lone surrogate escape in a value that is not the key.
    ExpectError(Analyze(R"({"id":1,"s":"x\uD800"})", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 14, 1, 15, 0);
    // ... and in a property name.
    ExpectError(Analyze(R"({"id":1,"\uDC00":1})", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 9, 1, 10, 0);
    // A bad escape.
    ExpectError(Analyze(R"({"id":1,"s":"\q"})", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 14, 1, 15, 0);
    // A raw control character.
    ExpectError(Analyze("{\"id\":1,\"s\":\"a\tb\"}", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 14, 1, 15, 0);
    // A bad literal deep inside.
    ExpectError(Analyze(R"({"id":1,"a":[{"b":nul}]})", Keys({"/id"}, discover)).status,
                ErrorCode::kMalformedJson, 21, 1, 22, 0);
  }
}

// --- oversized items --------------------------------------------------------------------------

std::string ItemOfSize(const std::string& id, size_t size) {
  std::string head = "{\"id\":\"" + id + "\",\"pad\":\"";
  std::string tail = "\"}";
  return head + std::string(size - head.size() - tail.size(), 'x') + tail;
}

TEST(AnalyzerOversizeTest, ItemsOverTwoMegabytesAreReportedAndCounted) {
  ASSERT_EQ(kCosmosItemBytes, 2097152u);
  std::vector<std::string> items = {
      R"({"id":"small"})",
      ItemOfSize("big", 2097152),      // exactly the limit: fine
      ItemOfSize("big", 2097153),      // one byte over
      R"({"id":"small"})",
      ItemOfSize("huge", 3 * 1048576),
  };
  ASSERT_EQ(items[1].size(), 2097152u);
  std::string input = JoinLines(items);
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 5u);
  EXPECT_EQ(o.report.bytes, SumSizes(items));
  EXPECT_EQ(o.report.oversized_items, 2u);
  ASSERT_EQ(o.report.oversized_examples.size(), 2u);
  EXPECT_EQ(o.report.oversized_examples[0].item_index, 2);
  EXPECT_EQ(o.report.oversized_examples[0].bytes, 2097153u);
  EXPECT_EQ(o.report.oversized_examples[0].where.byte_offset,
            static_cast<int64_t>(items[0].size() + items[1].size() + 2));
  EXPECT_EQ(o.report.oversized_examples[0].where.line, 3);
  EXPECT_EQ(o.report.oversized_examples[0].where.column, 1);
  EXPECT_EQ(o.report.oversized_examples[1].item_index, 4);
  EXPECT_EQ(o.report.oversized_examples[1].bytes, 3u * 1048576);
  EXPECT_EQ(o.report.oversized_examples[1].where.line, 5);
  // Still counted in their partitions.
  ASSERT_NE(FindPartition(o.report, R"(["big"])"), nullptr);
  EXPECT_EQ(FindPartition(o.report, R"(["big"])")->items, 2u);
  EXPECT_EQ(FindPartition(o.report, R"(["big"])")->largest_item_index, 2);
  ASSERT_NE(FindPartition(o.report, R"(["huge"])"), nullptr);
  EXPECT_EQ(o.report.partitions[0].key.ToJson(), R"(["big"])");
  ExpectConsistent(o.report);

  // Fed in 64 KiB chunks: the same report.
  EXPECT_EQ(AnalyzeChunks(FixedChunks(input, 65536), Keys({"/id"})).json, o.json);
}

TEST(AnalyzerOversizeTest, AnItemLargerThanTheCarryCheckThresholdStreamsThrough) {
  // 5 MiB in one item, fed in 256 KiB chunks: the carried-over item passes the strict check
  // that runs on large carries and is analyzed once complete.
  std::string big = ItemOfSize("big", 5 * 1048576);
  std::string input = "{\"id\":\"a\"}\n" + big + "\n{\"id\":\"a\"}\n";
  Outcome o = AnalyzeChunks(FixedChunks(input, 262144), Keys({"/id"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 3u);
  EXPECT_EQ(o.report.oversized_items, 1u);
  EXPECT_EQ(o.report.oversized_examples[0].bytes, big.size());
  EXPECT_EQ(o.report.oversized_examples[0].where.line, 2);
  EXPECT_EQ(o.json, Analyze(input).json);
}

// --- candidate paths --------------------------------------------------------------------------

TEST(AnalyzerCandidatePathsTest, ItemsDistinctAndTypes) {
  std::string input = JoinLines({
      R"({"id":1,"user":{"name":"a","tags":["x","y"],"deep":{"z":true}},"n":null,"b":true})",
      R"({"id":"2","user":{"name":"a"},"arr":[{"deep":1}],"b":false})",
      R"({"id":3,"user":{"name":"b"},"b":"yes","a/b":1,"m~n":2})",
      R"({"id":1,"user":"flat"})",
  });
  Outcome o = Analyze(input);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.sampled_items, 4u);

  const CandidatePath* id = FindPath(o.report, "/id");
  ASSERT_NE(id, nullptr);
  EXPECT_EQ(id->items, 4u);
  EXPECT_EQ(id->distinct, 3u);  // 1, "2", 3
  EXPECT_FALSE(id->distinct_capped);
  EXPECT_EQ(id->numbers, 3u);
  EXPECT_EQ(id->strings, 1u);

  const CandidatePath* name = FindPath(o.report, "/user/name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->items, 3u);
  EXPECT_EQ(name->distinct, 2u);
  EXPECT_EQ(name->strings, 3u);

  const CandidatePath* user = FindPath(o.report, "/user");
  ASSERT_NE(user, nullptr);  // a scalar in item 3 only
  EXPECT_EQ(user->items, 1u);

  const CandidatePath* b = FindPath(o.report, "/b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->items, 3u);
  EXPECT_EQ(b->booleans, 2u);
  EXPECT_EQ(b->strings, 1u);
  EXPECT_EQ(b->distinct, 3u);  // true, false, "yes"

  const CandidatePath* n = FindPath(o.report, "/n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->nulls, 1u);
  EXPECT_NE(FindPath(o.report, "/user/deep/z"), nullptr);
  EXPECT_NE(FindPath(o.report, "/a~1b"), nullptr);
  EXPECT_NE(FindPath(o.report, "/m~0n"), nullptr);

  // Arrays are not descended; containers are not paths.
  EXPECT_EQ(FindPath(o.report, "/user/tags"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/arr"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/arr/deep"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/deep"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/user/deep"), nullptr);
  EXPECT_EQ(o.report.candidate_paths.size(), 8u);

  // Most common first, then by path.
  for (size_t i = 1; i < o.report.candidate_paths.size(); ++i) {
    const auto& prev = o.report.candidate_paths[i - 1];
    const auto& cur = o.report.candidate_paths[i];
    EXPECT_TRUE(prev.items > cur.items || (prev.items == cur.items && prev.path < cur.path))
        << prev.path << " before " << cur.path;
  }
  EXPECT_EQ(o.report.candidate_paths[0].path, "/id");
}

// The values of each candidate path (what the key advisor ranks) come only when asked for; the
// counts are the same either way.
TEST(AnalyzerCandidatePathsTest, ValuesOnlyWhenAsked) {
  std::string input =
      JoinLines({R"({"id":"a","u":1})", R"({"id":"b","u":1})", R"({"id":"c","u":2})"});
  Outcome with = Analyze(input);
  Outcome without = Analyze(input, Keys({"/id"}), {.candidate_values = false});
  ASSERT_TRUE(with.status.ok() && without.status.ok());
  ASSERT_EQ(with.report.candidate_paths.size(), 2u);
  ASSERT_EQ(without.report.candidate_paths.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    const CandidatePath& w = with.report.candidate_paths[i];
    const CandidatePath& wo = without.report.candidate_paths[i];
    EXPECT_EQ(w.path, wo.path);
    EXPECT_EQ(w.items, wo.items);
    EXPECT_EQ(w.distinct, wo.distinct);
    EXPECT_EQ(w.values.size(), w.distinct) << w.path;
    EXPECT_TRUE(wo.values.empty()) << wo.path;
  }
  EXPECT_EQ(with.json, without.json);  // the report's JSON never lists them
  const CandidatePath* u = FindPath(with.report, "/u");
  ASSERT_NE(u, nullptr);
  ASSERT_EQ(u->values.size(), 2u);
  EXPECT_EQ(u->values[0].items, 2u);  // largest bytes first: the two items holding 1
}

TEST(AnalyzerCandidatePathsTest, NumbersCompareAsDoublesForDistinct) {
  Outcome o = Analyze(JoinLines({R"({"n":5})", R"({"n":5.0})", R"({"n":-0})", R"({"n":0})",
                                 R"({"n":"5"})", R"({"n":1e400})"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  const CandidatePath* n = FindPath(o.report, "/n");
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->distinct, 3u);  // 5, 0, "5"
  EXPECT_EQ(n->items, 5u);     // an out-of-range number is no candidate value
}

TEST(AnalyzerCandidatePathsTest, DuplicatePropertyCountsTheItemOnce) {
  Outcome o = Analyze(R"({"x":1,"x":2})");
  ASSERT_TRUE(o.status.ok());
  const CandidatePath* x = FindPath(o.report, "/x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->items, 1u);
  EXPECT_EQ(x->numbers, 1u);
}

TEST(AnalyzerCandidatePathsTest, DiscoverItemsLimit) {
  std::string input = JoinLines({R"({"id":1,"first":1})", R"({"id":2,"second":1})",
                                 R"({"id":3,"third":1})", R"({"id":4})", R"({"id":5})"});
  Outcome none = Analyze(input, Keys({"/id"}, 0));
  ASSERT_TRUE(none.status.ok());
  EXPECT_EQ(none.report.sampled_items, 0u);
  EXPECT_TRUE(none.report.candidate_paths.empty());
  EXPECT_EQ(none.report.partition_count, 5u);  // discovery does not affect the analysis

  Outcome two = Analyze(input, Keys({"/id"}, 2));
  ASSERT_TRUE(two.status.ok());
  EXPECT_EQ(two.report.sampled_items, 2u);
  ASSERT_NE(FindPath(two.report, "/id"), nullptr);
  EXPECT_EQ(FindPath(two.report, "/id")->items, 2u);
  EXPECT_NE(FindPath(two.report, "/first"), nullptr);
  EXPECT_NE(FindPath(two.report, "/second"), nullptr);
  EXPECT_EQ(FindPath(two.report, "/third"), nullptr);

  Outcome all = Analyze(input, Keys({"/id"}, -1));
  ASSERT_TRUE(all.status.ok());
  EXPECT_EQ(all.report.sampled_items, 5u);
  EXPECT_EQ(FindPath(all.report, "/id")->items, 5u);
  EXPECT_NE(FindPath(all.report, "/third"), nullptr);

  Outcome more = Analyze(input, Keys({"/id"}, 100));
  EXPECT_EQ(more.report.sampled_items, 5u);
}

TEST(AnalyzerCandidatePathsTest, DistinctIsCappedAt100000) {
  std::string input;
  input.reserve(3u << 20);
  for (int i = 0; i < 100005; ++i) {
    input += "{\"u\":" + std::to_string(i) + ",\"c\":" + std::to_string(i % 3) + "}\n";
  }
  Outcome o = Analyze(input, Keys({"/c"}, -1));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  const CandidatePath* u = FindPath(o.report, "/u");
  ASSERT_NE(u, nullptr);
  EXPECT_EQ(u->items, 100005u);
  EXPECT_TRUE(u->distinct_capped);
  EXPECT_EQ(u->distinct, kMaxDistinctPerPath);
  const CandidatePath* c = FindPath(o.report, "/c");
  ASSERT_NE(c, nullptr);
  EXPECT_FALSE(c->distinct_capped);
  EXPECT_EQ(c->distinct, 3u);
  EXPECT_EQ(o.report.partition_count, 3u);
}

TEST(AnalyzerCandidatePathsTest, AtMost1000PathsAreTracked) {
  std::string item = "{";
  for (int i = 0; i < 1200; ++i) item += (i ? ",\"p" : "\"p") + std::to_string(i) + "\":1";
  item += "}";
  Outcome o = Analyze(item);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.candidate_paths.size(), kMaxCandidatePaths);
  EXPECT_NE(FindPath(o.report, "/p0"), nullptr);
  EXPECT_NE(FindPath(o.report, "/p999"), nullptr);
  EXPECT_EQ(FindPath(o.report, "/p1000"), nullptr);  // the first seen win
}

// --- chunking ---------------------------------------------------------------------------------

const std::string kNdjsonNonAscii =
    "{\"id\":\"ä\",\"name\":\"Zoë 😀\",\"n\":1}\n"
    "{\"id\":\"日本\",\"v\":[1,2,{\"x\":\"y\"}],\"t\":\"\\u00e4\"}\n\n"
    "{\"id\":\"\\u00e4\",\"n\":-0.0}\r\n"
    "  {\"id\":5,\"s\":\"a\\\"b\\\\\"}{\"id\":5.0}\n"
    "{\"other\":true,\"deep\":{\"id\":\"no\"}}\n";

const std::string kArrayNested =
    "[ {\"id\":\"a\\\"b\",\"x\":{\"y\":[1,{\"z\":\"]}\"}]}},\n"
    "  {\"id\":\"a\\\"b\",\"s\":\"\\\\\"} ,{\"id\":\"\\u00e9\"},\n"
    "  {\"id\":\"é\",\"t\":\"[{,}]\",\"e\":[]}, {\"id\":[1]} ]\n";

TEST(AnalyzerChunkTest, TheChunkInputsAreWhatTheyClaim) {
  Outcome nd = Analyze(kNdjsonNonAscii);
  ASSERT_TRUE(nd.status.ok()) << Where(nd.status);
  EXPECT_EQ(nd.report.format, "ndjson");
  EXPECT_EQ(nd.report.items, 6u);
  EXPECT_EQ(nd.report.partition_count, 4u);  // "ä" (x2), "日本", 5 (x2), undefined
  Outcome arr = Analyze(kArrayNested);
  ASSERT_TRUE(arr.status.ok()) << Where(arr.status);
  EXPECT_EQ(arr.report.format, "array");
  EXPECT_EQ(arr.report.items, 5u);
  EXPECT_EQ(arr.report.partition_count, 2u);  // "a\"b" (x2), "é" (x2)
  EXPECT_EQ(arr.report.invalid_key_items, 1u);
}

TEST(AnalyzerChunkTest, EverySplitOfNdjsonWithNonAsciiText) {
  ExpectEverySplitAgrees(kNdjsonNonAscii, Keys({"/id"}));
  ExpectEverySplitAgrees(kNdjsonNonAscii, Keys({"/n", "/id"}, 2));
}

TEST(AnalyzerChunkTest, EverySplitOfAnArrayWithNestedObjectsAndEscapes) {
  ExpectEverySplitAgrees(kArrayNested, Keys({"/id"}));
}

TEST(AnalyzerChunkTest, EverySplitOfASingleObjectAndAnEmptyArray) {
  ExpectEverySplitAgrees("\n{\"id\" : {\"x\":[1,2,\"]\"]}, \"k\": \"ü\"}\n", Keys({"/k"}));
  ExpectEverySplitAgrees(" [ \n ] ", Keys({"/k"}));
}

TEST(AnalyzerChunkTest, EverySplitOfAnInputWithAByteOrderMark) {
  ExpectEverySplitAgrees("\xEF\xBB\xBF{\"id\":1}\n{\"id\":2}\n", Keys({"/id"}));
  ExpectEverySplitAgrees("\xEF\xBB\xBF[{\"id\":1}]", Keys({"/id"}));
}

TEST(AnalyzerChunkTest, EverySplitOfAnInputWithAnError) {
  const std::string bad = "{\"id\":\"ä\"}\n{\"id\":2}\n{\"id\":3,\"x\":[1,tru]}\n{\"id\":4}\n";
  Outcome whole = Analyze(bad);
  ExpectError(whole.status, ErrorCode::kMalformedJson, 39, 3, 19, 2);
  ExpectEverySplitAgrees(bad, Keys({"/id"}));
}

TEST(AnalyzerChunkTest, AMultiByteCharacterCutByAChunkBoundaryAfterACompleteItem) {
  // "日" is E6 97 A5; the first chunk ends after E6, with a complete item before it.
  const std::string first = "{\"id\":1}\n{\"id\":\"\xE6";
  const std::string second = "\x97\xA5\"}\n";
  Outcome o = AnalyzeChunks({first, second}, Keys({"/id"}));
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 2u);
  EXPECT_NE(FindPartition(o.report, "[1]"), nullptr);
  EXPECT_NE(FindPartition(o.report, "[\"日\"]"), nullptr);
  EXPECT_EQ(o.json, Analyze(first + second).json);
}

TEST(AnalyzerChunkTest, InvalidUtf8ByteAtAChunkEndKeepsItsCode) {
  const std::string first = "{\"id\":1}\n{\"id\":\"a\xFF";
  Outcome o = AnalyzeChunks({first, "b\"}\n"}, Keys({"/id"}));
  ExpectError(o.status, ErrorCode::kInvalidUtf8, 17, 2, 9, 1);
}

TEST(AnalyzerChunkTest, AByteOrderMarkCutByAChunkBoundary) {
  for (size_t cut : {1u, 2u}) {
    std::string input = "\xEF\xBB\xBF{\"id\":1}";
    Outcome o = AnalyzeChunks(Cut(input, {cut}), Keys({"/id"}));
    ASSERT_TRUE(o.status.ok()) << "cut " << cut << ": " << Where(o.status);
    EXPECT_EQ(o.report.items, 1u);
  }
}

TEST(AnalyzerChunkTest, StaleBufferBytesDoNotCompleteAMalformedItem) {
  // Item 1 lacks its closing '}'. The first chunk (one item full of '}' characters) is consumed
  // and its bytes stay behind in the input buffer; the second chunk ends inside item 2, so the
  // byte just past it is a leftover '}'. That byte must not close item 1.
  const std::string a = "{\"id\":\"" + std::string(60, '}') + "\"}\n";
  const int64_t at = static_cast<int64_t>(a.size() + 20);  // line 3's '{'
  struct Variant {
    std::string b, c;
  };
  for (const Variant& v : {Variant{"{\"id\":1,\"a\":{\"b\":1}\n{\"id\":", "2}\n"},
                           Variant{"{\"id\":1,\"a\":{\"b\":1}\n{\"id\":2,\"c\":{\"d\":1}\n", "\n}\n"}}) {
    SCOPED_TRACE(v.b);
    ExpectError(Analyze(a + v.b + v.c).status, ErrorCode::kMalformedJson, at, 3, 1, 1);
    Outcome chunked = AnalyzeChunks({a, v.b, v.c}, Keys({"/id"}));
    ExpectError(chunked.status, ErrorCode::kMalformedJson, at, 3, 1, 1);
    if (chunked.status.ok()) {
      EXPECT_LE(chunked.report.bytes, chunked.report.input_bytes) << chunked.json;
    }
  }
}

TEST(AnalyzerChunkTest, AMalformedNumberItemHasItsOwnErrorWhereverTheChunksEnd) {
  // Found by tests/fuzz/ingest_fuzz (corpus/ingest_fuzz/regression-leading-zero-item): item 2 is
  // "00...". Fed whole, the strict checker names the leading zero (byte 16); with a chunk ending
  // after "\r0" simdjson typed the carried-over item from its first byte and the error was
  // "item 2 is a number" at byte 15.
  const std::string input =
      "{\"a\":1}{\"a\":3}\r00)\",\"qty\":1,\"price\":6.25},{\"name\":\"Decaf beans 500g\"}\n";
  ExpectError(Analyze(input).status, ErrorCode::kMalformedJson, 16, 1, 17, 2);
  ExpectError(AnalyzeChunks(Cut(input, {30}), Keys({"/id"})).status, ErrorCode::kMalformedJson, 16,
              1, 17, 2);
  ExpectEverySplitAgrees(input, Keys({"/id"}));
  // A good number item is "a number, not an object" however it is cut.
  ExpectEverySplitAgrees("{\"a\":1}\n-12.5e3 {\"a\":2}\n", Keys({"/a"}));
}

TEST(AnalyzerChunkTest, ANulByteItemIsNamedTheSameWhereverTheChunksEnd) {
  // Found by tests/fuzz/ingest_fuzz (corpus/ingest_fuzz/regression-nul-item): in some chunkings
  // simdjson handed over an empty item and the message was "not a JSON value".
  const std::string input("{\"a\":2}{\"a\":2} \0\0\0\0{\"a\":3}\r\n\t{\"a\":4}\n", 36);
  Outcome whole = Analyze(input);
  ExpectError(whole.status, ErrorCode::kMalformedJson, 15, 1, 16, 2);
  EXPECT_EQ(whole.status.message(), "expected a value but found byte 0x00");
  for (size_t a = 1; a < input.size(); ++a) {
    for (size_t b = a; b < input.size(); ++b) {
      Outcome split = AnalyzeChunks(Cut(input, {a, b}), Keys({"/id"}));
      ExpectError(split.status, ErrorCode::kMalformedJson, 15, 1, 16, 2);
      ASSERT_EQ(split.status.message(), whole.status.message()) << "cut at " << a << ", " << b;
    }
  }
}

TEST(AnalyzerChunkTest, ANulAfterWhitespaceGetsTheSameErrorInEveryChunking) {
  // Found by tests/fuzz/ingest_fuzz (corpus/ingest_fuzz/regression-nul-after-whitespace-wrapped-
  // length): when a chunk began with the whitespace before the NUL, the item's length wrapped
  // around below zero and the strict checker read nothing ("not a JSON value").
  const std::string input("{\"a\":1}{\"a\":3}\r\n\t\0\0\0\0\0\0\0\0\ne\"\xbc:", 28);
  Outcome whole = Analyze(input);
  ExpectError(whole.status, ErrorCode::kMalformedJson, 17, 2, 2, 2);
  EXPECT_EQ(whole.status.message(), "expected a value but found byte 0x00");
  for (size_t a = 1; a < input.size(); ++a) {
    for (size_t b = a; b < input.size(); ++b) {
      Outcome split = AnalyzeChunks(Cut(input, {a, b}), Keys({"/a"}));
      ExpectError(split.status, ErrorCode::kMalformedJson, 17, 2, 2, 2);
      ASSERT_EQ(split.status.message(), whole.status.message()) << "cut at " << a << ", " << b;
    }
  }
}

TEST(AnalyzerChunkTest, ABrokenItemIsDiagnosedFromItsFirstByte) {
  // Found by tests/fuzz/ingest_fuzz (corpus/ingest_fuzz/regression-surrogate-then-bad-byte): with
  // chunks ending at bytes 1 and 12, simdjson's index of the broken item 1 pointed at its 0xFB
  // byte and the error was "expected a value" there instead of the surrogate at byte 9.
  const std::string input = "{\"a\":1}{\"\\ud800\xfb\t{\"x\":1}\n";
  ExpectError(Analyze(input).status, ErrorCode::kMalformedJson, 9, 1, 10, 1);
  for (size_t a = 1; a < input.size(); ++a) {
    for (size_t b = a; b < input.size(); ++b) {
      SCOPED_TRACE("cut at " + std::to_string(a) + ", " + std::to_string(b));
      ExpectError(AnalyzeChunks(Cut(input, {a, b}), Keys({"/id"})).status,
                  ErrorCode::kMalformedJson, 9, 1, 10, 1);
    }
  }
}

TEST(AnalyzerChunkTest, OneByteChunks) {
  for (const std::string& input : {kNdjsonNonAscii, kArrayNested}) {
    Outcome whole = Analyze(input);
    ASSERT_TRUE(whole.status.ok());
    Outcome bytes = AnalyzeChunks(FixedChunks(input, 1), Keys({"/id"}));
    ASSERT_TRUE(bytes.status.ok()) << Where(bytes.status);
    EXPECT_EQ(bytes.json, whole.json);
  }
}

// A seeded generator of varied items: nested objects and arrays, escapes, non-ASCII text.
class ItemGenerator {
 public:
  // `pretty`: items spread over several lines (a property per line, the '}' on its own line).
  explicit ItemGenerator(uint32_t seed, bool pretty = false) : rng_(seed), pretty_(pretty) {}

  std::string Item(int index) {
    const char* sep = pretty_ ? ",\n  " : ",";
    std::string s = std::string(pretty_ ? "{\n  " : "{") + "\"id\":" + Id() + sep + "\"i\":" +
                    std::to_string(index);
    int fields = Pick(5);
    for (int f = 0; f < fields; ++f) s += sep + ("\"" + Name() + "\":") + Value(0);
    return s + (pretty_ ? "\n}" : "}");
  }

 private:
  int Pick(int n) { return static_cast<int>(rng_() % static_cast<uint32_t>(n)); }
  std::string Id() {
    switch (Pick(6)) {
      case 0: return std::to_string(Pick(20));
      case 1: return "\"u" + std::to_string(Pick(30)) + "\"";
      case 2: return "\"ü" + std::to_string(Pick(5)) + "\"";
      case 3: return std::to_string(Pick(20)) + ".0";
      case 4: return "\"\\u00fc" + std::to_string(Pick(5)) + "\"";
      default: return Pick(2) ? "null" : "{\"nested\":1}";
    }
  }
  std::string Name() {
    static const char* names[] = {"a", "b/c", "d~e", "ö", "long_name", "x"};
    return names[Pick(6)];
  }
  std::string Value(int depth) {
    switch (depth > 3 ? Pick(4) : Pick(7)) {
      case 0: return std::to_string(Pick(1000) - 500);
      case 1: return "\"" + Text() + "\"";
      case 2: return Pick(2) ? "true" : "null";
      case 3: return "1.5e" + std::to_string(Pick(10));
      case 4: {
        std::string s = "[";
        int n = Pick(4);
        for (int i = 0; i < n; ++i) s += (i ? "," : "") + Value(depth + 1);
        return s + "]";
      }
      default: {
        std::string s = "{";
        int n = Pick(4);
        for (int i = 0; i < n; ++i) s += (i ? ",\"" : "\"") + Name() + "\":" + Value(depth + 1);
        return s + "}";
      }
    }
  }
  std::string Text() {
    static const char* parts[] = {"plain", "Zoë", "東京", "😀", "\\\"", "\\\\", "]}", "[{",
                                  ",", "\\n", "\\u00e9", " "};
    std::string s;
    int n = Pick(6);
    for (int i = 0; i < n; ++i) s += parts[Pick(12)];
    return s;
  }

  std::mt19937 rng_;
  bool pretty_;
};

std::string GenerateNdjson(uint32_t seed, int items) {
  ItemGenerator gen(seed);
  std::string s;
  for (int i = 0; i < items; ++i) s += gen.Item(i) + (i % 7 == 3 ? "\r\n" : "\n");
  return s;
}

// Pretty-printed objects one after another, sometimes with no whitespace between them.
std::string GeneratePretty(uint32_t seed, int items) {
  ItemGenerator gen(seed, true);
  std::string s;
  for (int i = 0; i < items; ++i) s += gen.Item(i) + (i % 5 == 2 ? "" : "\n");
  return s;
}

std::string GenerateArray(uint32_t seed, int items) {
  ItemGenerator gen(seed);
  std::string s = "[";
  for (int i = 0; i < items; ++i) s += (i ? ",\n " : "\n ") + gen.Item(i);
  return s + "\n]\n";
}

std::vector<std::string_view> RandomChunks(std::string_view input, std::mt19937& rng,
                                           size_t max_size) {
  std::vector<std::string_view> chunks;
  size_t at = 0;
  while (at < input.size()) {
    size_t n = 1 + rng() % max_size;
    chunks.push_back(input.substr(at, n));
    at += std::min(n, input.size() - at);
  }
  return chunks;
}

TEST(AnalyzerChunkTest, RandomChunkSizesOnLargerGeneratedInputs) {
  for (uint32_t seed : {1u, 2u, 3u}) {
    for (int kind : {0, 1, 2}) {
      bool array = kind == 1;
      std::string input = kind == 0   ? GenerateNdjson(seed, 3000)
                          : kind == 1 ? GenerateArray(seed, 3000)
                                      : GeneratePretty(seed, 3000);
      AnalysisOptions options = Keys({"/id"}, -1);
      Outcome whole = Analyze(input, options);
      ASSERT_TRUE(whole.status.ok()) << Where(whole.status);
      EXPECT_EQ(whole.report.items, 3000u);
      EXPECT_EQ(whole.report.format, array ? "array" : "ndjson");
      ExpectConsistent(whole.report);
      std::mt19937 rng(seed * 7919 + kind);
      for (size_t max_size : {7u, 300u, 5000u, 70000u}) {
        Outcome chunked = AnalyzeChunks(RandomChunks(input, rng, max_size), options);
        ASSERT_TRUE(chunked.status.ok()) << Where(chunked.status);
        EXPECT_EQ(chunked.json, whole.json) << "seed " << seed << ", max chunk " << max_size;
      }
    }
  }
}

TEST(AnalyzerChunkTest, RandomCorruptionsFailTheSameWayInAnyChunking) {
  // Damage a generated input at a random byte; however it is chunked, the outcome (report or
  // located error) must be the one-chunk outcome.
  std::mt19937 rng(424242);
  const char replacements[] = {'{', '}', '[', ']', ',', ':', '"', '\\', 'x', '\n', '\xFF', '\xC3'};
  for (int round = 0; round < 180; ++round) {
    std::string input = round % 3 == 0   ? GenerateNdjson(round, 40)
                        : round % 3 == 1 ? GenerateArray(round, 40)
                                         : GeneratePretty(round, 40);
    size_t at = rng() % input.size();
    if ((round / 3) % 2 == 0) {
      input.erase(at, 1);
    } else {
      input[at] = replacements[rng() % sizeof replacements];
    }
    AnalysisOptions options = Keys({"/id"});
    Outcome whole = Analyze(input, options);
    for (size_t max_size : {1u, 13u, 200u}) {
      Outcome chunked = AnalyzeChunks(RandomChunks(input, rng, max_size), options);
      SCOPED_TRACE("round " + std::to_string(round) + ", damaged at " + std::to_string(at) +
                   ", max chunk " + std::to_string(max_size));
      if (whole.status.ok()) {
        ASSERT_TRUE(chunked.status.ok()) << Where(chunked.status);
        ASSERT_EQ(chunked.json, whole.json);
      } else {
        ASSERT_FALSE(chunked.status.ok()) << "one chunk: " << Where(whole.status);
        ASSERT_TRUE(SameError(chunked.status, whole.status))
            << "chunked: " << Where(chunked.status) << "\n  one chunk: " << Where(whole.status);
      }
    }
  }
}

// --- bad input --------------------------------------------------------------------------------

struct BadCase {
  const char* name;
  std::string input;
  ErrorCode code;
  int64_t byte_offset, line, column, item_index;
};

std::vector<BadCase> BadCases() {
  std::string deep = "{\"id\":1}\n{\"a\":" + std::string(1999, '[') + std::string(1999, ']') + "}";
  return {
      {"malformed JSON in line 3 of NDJSON",
       "{\"id\":1}\n{\"id\":2}\n{\"id\":3,\"x\":tru}\n{\"id\":4}\n", ErrorCode::kMalformedJson,
       33, 3, 16, 2},
      {"a top-level string", "\"hello\"", ErrorCode::kNotAnObject, 0, 1, 1, 0},
      {"a top-level number after whitespace", "\n  42\n", ErrorCode::kNotAnObject, 3, 2, 3, 0},
      {"a top-level literal", "true", ErrorCode::kNotAnObject, 0, 1, 1, 0},
      {"top-level garbage", "  xyz", ErrorCode::kMalformedJson, 2, 1, 3, 0},
      {"an NDJSON line that is a number", "{\"id\":1}\n5\n", ErrorCode::kNotAnObject, 9, 2, 1, 1},
      {"an NDJSON line that is an array", "{\"id\":1}\n[{\"id\":2}]\n", ErrorCode::kNotAnObject,
       9, 2, 1, 1},
      {"an array element that is a number", "[{\"id\":1}, 5]", ErrorCode::kNotAnObject, 11, 1,
       12, 1},
      {"an array element that is a string", "[{\"id\":1},\n \"s\"]", ErrorCode::kNotAnObject, 12,
       2, 2, 1},
      {"an array element that is an array", "[[{\"id\":1}]]", ErrorCode::kNotAnObject, 1, 1, 2,
       0},
      {"invalid UTF-8 inside a string", "{\"id\":1}\n{\"id\":\"a\xFF" "b\"}\n",
       ErrorCode::kInvalidUtf8, 17, 2, 9, 1},
      {"an overlong UTF-8 sequence in an array element", "[{\"id\":\"\xC0\xAF\"}]",
       ErrorCode::kInvalidUtf8, 8, 1, 9, 0},
      {"a UTF-8 sequence cut short inside a string", "{\"id\":\"\xE6\x97\"}",
       ErrorCode::kInvalidUtf8, 7, 1, 8, 0},
      {"empty input", "", ErrorCode::kEmptyInput, 0, 1, 1, -1},
      {"whitespace-only input", " \n\t ", ErrorCode::kEmptyInput, 4, 2, 3, -1},
      {"nesting 2000 deep", deep, ErrorCode::kTooDeep, 1037, 2, 1029, 1},
      {"input ending inside an item", "{\"id\":1}\n{\"id\":2,\"name\":\"ab",
       ErrorCode::kTruncatedInput, 27, 2, 19, 1},
      {"input ending inside a single object", "{\"id\":1", ErrorCode::kTruncatedInput, 7, 1, 8,
       0},
      {"an array without its closing ']'", "[{\"id\":1},{\"id\":2}", ErrorCode::kTruncatedInput,
       18, 1, 19, 2},
      {"an array without ']' but a newline", "[{\"id\":1},{\"id\":2}\n",
       ErrorCode::kTruncatedInput, 19, 2, 1, 2},
      {"an array ending after a comma", "[{\"id\":1},", ErrorCode::kTruncatedInput, 10, 1, 11,
       1},
      {"an array ending inside an element", "[{\"id\":1},{\"id\":",
       ErrorCode::kTruncatedInput, 16, 1, 17, 1},
      {"content after the array's ']'", "[{\"id\":1}]\n{\"id\":2}", ErrorCode::kMalformedJson,
       11, 2, 1, -1},
      {"a second array after the first", "[]\n[]", ErrorCode::kMalformedJson, 3, 2, 1, -1},
      {"missing comma between array elements", "[{\"id\":1} {\"id\":2}]",
       ErrorCode::kMalformedJson, 10, 1, 11, 0},
      {"a trailing comma in an array", "[{\"id\":1},{\"id\":2},]", ErrorCode::kMalformedJson,
       19, 1, 20, 2},
      {"a leading comma in an array", "[,{\"id\":1}]", ErrorCode::kMalformedJson, 1, 1, 2, 0},
      {"a trailing comma in an object", "{\"id\":1}\n{\"id\":2,}\n", ErrorCode::kMalformedJson,
       17, 2, 9, 1},
      {"a stray '}' between NDJSON items", "{\"id\":1}\n}\n{\"id\":2}\n",
       ErrorCode::kMalformedJson, 9, 2, 1, 1},
      {"a stray ']' between NDJSON items", "{\"id\":1}\n]\n{\"id\":2}\n",
       ErrorCode::kMalformedJson, 9, 2, 1, 1},
      {"a missing colon", "{\"id\" 1}", ErrorCode::kMalformedJson, 6, 1, 7, 0},
      {"an unclosed item followed by a pretty-printed item",
       "{\"id\":1,\"a\":{\"b\":1}\n{\"id\":2,\"c\":{\"d\":1}\n}", ErrorCode::kMalformedJson, 20,
       2, 1, 0},
      // The first bad byte wins, also when the array scanner meets a later problem first.
      {"a bad element before a non-object element", "[{\"id\":1,\"x\":tru}, 5]",
       ErrorCode::kMalformedJson, 16, 1, 17, 0},
      {"a bad element before a missing comma", "[{\"id\":tru} {\"id\":2}]",
       ErrorCode::kMalformedJson, 10, 1, 11, 0},
      {"a bad element before a trailing comma", "[{\"id\":tru},]", ErrorCode::kMalformedJson,
       10, 1, 11, 0},
      {"a bad element before content after ']'", "[{\"id\":tru}] x", ErrorCode::kMalformedJson,
       10, 1, 11, 0},
      {"commas between NDJSON items", "{\"id\":1},{\"id\":2}", ErrorCode::kMalformedJson, 8,
       1, 9, 1},
      {"an extra '}' after an item", "{\"id\":1}\n{\"id\":2}}\n{\"id\":3}\n",
       ErrorCode::kMalformedJson, 17, 2, 9, 2},
      {"an extra '}' at the end", "{\"id\":1}}", ErrorCode::kMalformedJson, 8, 1, 9, 1},
      {"a NUL byte after the last item", "{\"id\":1}\n\0"s, ErrorCode::kMalformedJson, 9, 2, 1,
       1},
      {"a lone surrogate escape in the key value", "{\"id\":\"\\uDE00\"}",
       ErrorCode::kMalformedJson, 7, 1, 8, 0},
  };
}

TEST(AnalyzerBadInputTest, EachIsLocated) {
  for (const BadCase& c : BadCases()) {
    SCOPED_TRACE(c.name);
    Outcome o = Analyze(c.input);
    ExpectError(o.status, c.code, c.byte_offset, c.line, c.column, c.item_index);
  }
}

TEST(AnalyzerBadInputTest, EachIsLocatedTheSameAtEverySplit) {
  for (const BadCase& c : BadCases()) {
    SCOPED_TRACE(c.name);
    ExpectEverySplitAgrees(c.input, Keys({"/id"}));
  }
}

TEST(AnalyzerBadInputTest, DepthExactlyAtTheLimitIsAccepted) {
  // The root object is level 1; 1023 nested arrays make 1024 levels.
  std::string ok = "{\"id\":1,\"a\":" + std::string(1023, '[') + std::string(1023, ']') + "}";
  Outcome o = Analyze(ok);
  ASSERT_TRUE(o.status.ok()) << Where(o.status);
  EXPECT_EQ(o.report.items, 1u);
  std::string over = "{\"id\":1,\"a\":" + std::string(1024, '[') + std::string(1024, ']') + "}";
  ExpectError(Analyze(over).status, ErrorCode::kTooDeep, 12 + 1023, 1, 12 + 1023 + 1, 0);
  // The same through objects.
  std::string objects = "{\"id\":1";
  for (int i = 0; i < 1023; ++i) objects += ",\"o\":{\"id\":2";
  objects += std::string(1023, '}') + "}";
  ASSERT_TRUE(Analyze(objects).status.ok()) << Where(Analyze(objects).status);
}

TEST(AnalyzerBadInputTest, UnbalancedBraceEarlyInALongInputNamesItsLine) {
  // Line 5 lacks its closing '}': the error must be found where it is (line 6 starts with '{'
  // where ',' or '}' was expected), not at the end of the 8 MB input.
  std::string input;
  const std::string pad(80, 'p');
  for (int i = 0; i < 90000; ++i) {
    std::string line = "{\"id\":" + std::to_string(i) + ",\"pad\":\"" + pad + "\"";
    if (i != 4) line += "}";
    input += line + "\n";
  }
  size_t line6 = 0;
  for (int n = 0; n < 5; ++n) line6 = input.find('\n', line6) + 1;
  ASSERT_GT(input.size(), 8u << 20);

  Outcome whole = Analyze(input);
  ExpectError(whole.status, ErrorCode::kMalformedJson, static_cast<int64_t>(line6), 6, 1, 4);

  auto chunks = FixedChunks(input, 65536);
  Outcome chunked = AnalyzeChunks(chunks, Keys({"/id"}));
  ExpectError(chunked.status, ErrorCode::kMalformedJson, static_cast<int64_t>(line6), 6, 1, 4);
  EXPECT_FALSE(chunked.failed_in_finish) << "found only at the end of the input";
  EXPECT_LT(chunked.failed_chunk * 65536, size_t{5} << 20) << "found late";
}

TEST(AnalyzerBadInputTest, ErrorsAfterManyGoodItemsKeepAbsoluteLocations) {
  // Locations are absolute even after earlier input was consumed and discarded.
  std::string input;
  for (int i = 0; i < 20000; ++i) input += "{\"id\":" + std::to_string(i) + "}\n";
  size_t bad_line_start = input.size();
  input += "{\"id\":1,\"x\":[1,2,,3]}\n{\"id\":2}\n";
  int64_t offset = static_cast<int64_t>(bad_line_start + 17);
  ExpectError(Analyze(input).status, ErrorCode::kMalformedJson, offset, 20001, 18, 20000);
  Outcome chunked = AnalyzeChunks(FixedChunks(input, 4096), Keys({"/id"}));
  ExpectError(chunked.status, ErrorCode::kMalformedJson, offset, 20001, 18, 20000);
}

// --- the bundled examples ---------------------------------------------------------------------

std::string ReadFile(const std::string& path, bool& ok) {
  std::ifstream f(path, std::ios::binary);
  ok = static_cast<bool>(f);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

TEST(AnalyzerExamplesTest, EveryListedExampleAnalyzesWithoutError) {
  const std::string dir = PP_EXAMPLES_DIR;
  bool found = false;
  std::string index = ReadFile(dir + "/index.json", found);
  if (!found) GTEST_SKIP() << "no " << dir << "/index.json";
  simdjson::dom::parser parser;
  simdjson::dom::array entries;
  ASSERT_EQ(parser.parse(index).get_array().get(entries), simdjson::SUCCESS)
      << "examples/index.json is not a JSON array";
  int analyzed = 0;
  for (simdjson::dom::element entry : entries) {
    std::string_view file, key, format;
    ASSERT_EQ(entry["file"].get_string().get(file), simdjson::SUCCESS);
    SCOPED_TRACE(std::string(file));
    // Read as the CLI reads a file: a gzipped example (cosmos-export.json.gz) is decompressed.
    StatusOr<std::string> read = cli::ReadWholeFile(dir + "/" + std::string(file));
    ASSERT_TRUE(read.ok()) << "listed but not readable: " << read.status().message();
    const std::string& input = read.value();
    std::vector<std::string> paths = {"/id"};
    if (entry["key"].get_string().get(key) == simdjson::SUCCESS) paths = {std::string(key)};
    Outcome o = Analyze(input, Keys(paths));
    ASSERT_TRUE(o.status.ok()) << Where(o.status);
    EXPECT_GT(o.report.items, 0u);
    EXPECT_GT(o.report.partition_count, 0u);
    EXPECT_EQ(o.report.input_bytes, input.size());
    if (entry["format"].get_string().get(format) == simdjson::SUCCESS) {
      EXPECT_EQ(o.report.format, format);
    }
    ExpectConsistent(o.report);
    // Chunked the way a browser reads a file: the same report.
    EXPECT_EQ(AnalyzeChunks(FixedChunks(input, 65536), Keys(paths)).json, o.json);
    ++analyzed;
  }
  EXPECT_GT(analyzed, 0);
}

}  // namespace
}  // namespace partplay
