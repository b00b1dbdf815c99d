// The Analyzer's partition semantics: which items share a logical partition (strings, numbers,
// the undefined partition, nested and escaped paths, hierarchical keys), invalid and imprecise
// key values, item sizes, the partitions' order, and items over the 2 MB limit.
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

}  // namespace
}  // namespace partplay
