// The Analyzer fed in chunks: every split of an input (by hand, at every byte, at random sizes,
// over generated inputs) gives the one-chunk report or the same located error.
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
#include "sanitizer_scale.h"
#include "partplay/core/json_diagnostics.h"
#include "partplay/report/report_format.h"
#include "simdjson.h"

namespace partplay {
namespace {

using namespace analyzer_test;  // NOLINT: the shared helpers
using namespace std::string_literals;

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
  for (size_t a = 1; a < input.size(); a += scale::Step(3)) {
    for (size_t b = a; b < input.size(); b += scale::Step(2)) {
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
  for (size_t a = 1; a < input.size(); a += scale::Step(3)) {
    for (size_t b = a; b < input.size(); b += scale::Step(2)) {
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
  for (size_t a = 1; a < input.size(); a += scale::Step(3)) {
    for (size_t b = a; b < input.size(); b += scale::Step(2)) {
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
  for (int round = 0; round < scale::Count(180, 60); ++round) {
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

}  // namespace
}  // namespace partplay
