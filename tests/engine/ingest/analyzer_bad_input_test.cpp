// The Analyzer on bad input: each malformed case located (code, offset, line, column, item) the
// same at every split, the depth limit, absolute locations after many items; and every bundled
// example analysed without error.
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
