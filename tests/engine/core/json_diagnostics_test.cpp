// The strict RFC 8259 checker that locates and explains bad JSON, IsJsonNumber and
// AdvanceLineColumn.
#include "partplay/core/json_diagnostics.h"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

namespace partplay {
namespace {

using namespace std::string_literals;

// The checker reads an exact-size heap copy, so under ASan (make test-sanitize) a read past the
// end fails the test: it once read on after every "the input ends inside" (found by fuzzing).
JsonDiagnosis DiagnoseExact(const std::string& text) {
  std::unique_ptr<char[]> copy(new char[text.size()]);
  std::memcpy(copy.get(), text.data(), text.size());
  return DiagnoseJsonValue(std::string_view(copy.get(), text.size()));
}

// Expects the checker to find `code` at `offset` with exactly `message`.
void ExpectProblem(const std::string& text, ErrorCode code, size_t offset,
                   const std::string& message) {
  SCOPED_TRACE("input: " + text);
  JsonDiagnosis d = DiagnoseExact(text);
  ASSERT_TRUE(d.found);
  EXPECT_EQ(d.code, code) << ErrorCodeName(d.code);
  EXPECT_EQ(d.offset, offset);
  EXPECT_EQ(d.message, message);
}

void ExpectValid(const std::string& text, size_t value_end) {
  SCOPED_TRACE("input: " + text);
  JsonDiagnosis d = DiagnoseExact(text);
  EXPECT_FALSE(d.found) << d.message << " at " << d.offset;
  EXPECT_EQ(d.code, ErrorCode::kOk);
  EXPECT_EQ(d.value_end, value_end);
}

std::string Nested(int depth, char open, char close) {
  return std::string(depth, open) + std::string(depth, close);
}

// --- valid values -----------------------------------------------------------------------------

TEST(JsonDiagnosticsTest, ValidValuesAndTheirEnd) {
  ExpectValid("{}", 2);
  ExpectValid("[]", 2);
  ExpectValid(R"({"a":1,"b":[true,false,null,-0.5e+3,"x"],"c":{}})", 48);
  ExpectValid("  \n\t{ \"a\" : [ 1 , 2 ] }  ", 23);  // the end excludes trailing whitespace
  ExpectValid(R"({"a":1}{"b":2})", 7);               // only the first value is checked
  ExpectValid("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\\u00e9\\uD83D\\uDE00\"", 36);
  ExpectValid("\"Zoë 東京 😀\"", 18);
  ExpectValid("\"\xF4\x8F\xBF\xBF\"", 6);  // U+10FFFF, the largest code point
  ExpectValid("123", 3);
  ExpectValid("true", 4);
}

TEST(JsonDiagnosticsTest, EmptyInput) {
  ExpectProblem("", ErrorCode::kEmptyInput, 0, "no JSON value");
  ExpectProblem(" \r\n\t ", ErrorCode::kEmptyInput, 5, "no JSON value");
}

// --- syntax -----------------------------------------------------------------------------------

TEST(JsonDiagnosticsTest, MissingColon) {
  ExpectProblem(R"({"a" 1})", ErrorCode::kMalformedJson, 5,
                "expected ':' after a property name but found '1'");
  ExpectProblem("{\"a\"\x01", ErrorCode::kMalformedJson, 4,
                "expected ':' after a property name but found byte 0x01");
}

TEST(JsonDiagnosticsTest, MissingComma) {
  ExpectProblem(R"({"a":1 "b":2})", ErrorCode::kMalformedJson, 7,
                "expected ',' or '}' in an object but found '\"'");
  ExpectProblem("[1 2]", ErrorCode::kMalformedJson, 3,
                "expected ',' or ']' in an array but found '2'");
  ExpectProblem(R"({"a":[1,2}})", ErrorCode::kMalformedJson, 9,
                "expected ',' or ']' in an array but found '}'");
}

TEST(JsonDiagnosticsTest, TrailingComma) {
  ExpectProblem(R"({"a":1,})", ErrorCode::kMalformedJson, 7,
                "expected a property name in double quotes but found '}'");
  ExpectProblem("[1,]", ErrorCode::kMalformedJson, 3, "expected a value but found ']'");
  ExpectProblem("[1, ]", ErrorCode::kMalformedJson, 4, "expected a value but found ']'");
}

TEST(JsonDiagnosticsTest, UnquotedOrSingleQuotedPropertyName) {
  ExpectProblem("{a:1}", ErrorCode::kMalformedJson, 1,
                "expected a property name in double quotes but found 'a'");
  ExpectProblem("{'a':1}", ErrorCode::kMalformedJson, 1,
                "expected a property name in double quotes but found '''");
}

TEST(JsonDiagnosticsTest, BadValues) {
  ExpectProblem(R"({"a":})", ErrorCode::kMalformedJson, 5, "expected a value but found '}'");
  ExpectProblem(R"({"a":'x'})", ErrorCode::kMalformedJson, 5, "expected a value but found '''");
  ExpectProblem("\xEF\xBB\xBF{}", ErrorCode::kMalformedJson, 0,
                "expected a value but found byte 0xEF");
}

TEST(JsonDiagnosticsTest, BadLiteral) {
  ExpectProblem(R"({"a":tru})", ErrorCode::kMalformedJson, 8, "invalid literal: expected 'true'");
  ExpectProblem(R"({"a":nul1})", ErrorCode::kMalformedJson, 8,
                "invalid literal: expected 'null'");
  ExpectProblem(R"([fals])", ErrorCode::kMalformedJson, 5, "invalid literal: expected 'false'");
  ExpectProblem(R"([True])", ErrorCode::kMalformedJson, 1, "expected a value but found 'T'");
  ExpectProblem(R"([nan])", ErrorCode::kMalformedJson, 2, "invalid literal: expected 'null'");
}

TEST(JsonDiagnosticsTest, LeadingZero) {
  ExpectProblem(R"({"a":012})", ErrorCode::kMalformedJson, 6,
                "a number cannot have a leading zero");
  ExpectProblem("[-01]", ErrorCode::kMalformedJson, 3, "a number cannot have a leading zero");
  ExpectValid("[0,-0,0.5,0e1]", 14);
}

TEST(JsonDiagnosticsTest, BadNumbers) {
  ExpectProblem("[1.]", ErrorCode::kMalformedJson, 3,
                "expected a digit in a number but found ']'");
  ExpectProblem("[1.e5]", ErrorCode::kMalformedJson, 3,
                "expected a digit in a number but found 'e'");
  ExpectProblem("[1e+]", ErrorCode::kMalformedJson, 4,
                "expected a digit in a number but found ']'");
  ExpectProblem("[-x]", ErrorCode::kMalformedJson, 2,
                "expected a digit in a number but found 'x'");
  ExpectProblem("[.5]", ErrorCode::kMalformedJson, 1, "expected a value but found '.'");
  ExpectProblem("[+1]", ErrorCode::kMalformedJson, 1, "expected a value but found '+'");
}

TEST(JsonDiagnosticsTest, BadEscape) {
  ExpectProblem(R"("a\x")", ErrorCode::kMalformedJson, 3,
                "invalid escape sequence '\\x' in a string");
  ExpectProblem(R"("\')", ErrorCode::kMalformedJson, 2,
                "invalid escape sequence '\\'' in a string");
  ExpectProblem("\"\\\x01\"", ErrorCode::kMalformedJson, 2,
                "invalid escape sequence '\\?' in a string");
  ExpectProblem(R"("\u12G4")", ErrorCode::kMalformedJson, 5,
                "\\u must be followed by 4 hex digits");
  ExpectProblem(R"("\u")", ErrorCode::kMalformedJson, 3, "\\u must be followed by 4 hex digits");
}

TEST(JsonDiagnosticsTest, LoneLowSurrogate) {
  ExpectProblem(R"({"k":"ab\uDC00"})", ErrorCode::kMalformedJson, 8,
                "a low surrogate \\u escape without a high one");
  ExpectProblem(R"("\udfff")", ErrorCode::kMalformedJson, 1,
                "a low surrogate \\u escape without a high one");
}

TEST(JsonDiagnosticsTest, LoneHighSurrogate) {
  const std::string msg = "a high surrogate \\u escape must be followed by a low surrogate escape";
  ExpectProblem(R"("x\uD800")", ErrorCode::kMalformedJson, 2, msg);
  ExpectProblem(R"("x\uD800y")", ErrorCode::kMalformedJson, 2, msg);
  ExpectProblem(R"("\uD800\u0041")", ErrorCode::kMalformedJson, 1, msg);
  ExpectProblem(R"("\uDBFF\uD800")", ErrorCode::kMalformedJson, 1, msg);
  ExpectProblem(R"("\uD800\n")", ErrorCode::kMalformedJson, 1, msg);
  ExpectValid(R"("\uDBFF\uDFFF")", 14);
}

TEST(JsonDiagnosticsTest, ControlCharacterInString) {
  ExpectProblem("\"a\x01" "b\"", ErrorCode::kMalformedJson, 2,
                "control character 0x01 must be escaped in a string");
  ExpectProblem("{\"a\":\"x\ty\"}", ErrorCode::kMalformedJson, 7,
                "control character 0x09 must be escaped in a string");
  ExpectProblem("\"line\nbreak\"", ErrorCode::kMalformedJson, 5,
                "control character 0x0A must be escaped in a string");
  ExpectProblem("\"\0\""s, ErrorCode::kMalformedJson, 1,
                "control character 0x00 must be escaped in a string");
  ExpectValid("\"\x7f\"", 3);  // DEL is not a control character for JSON
}

// --- UTF-8 ------------------------------------------------------------------------------------

TEST(JsonDiagnosticsTest, InvalidUtf8Bytes) {
  ExpectProblem("\"a\xFF\"", ErrorCode::kInvalidUtf8, 2, "invalid UTF-8 byte 0xFF");
  ExpectProblem("\"\xFE\"", ErrorCode::kInvalidUtf8, 1, "invalid UTF-8 byte 0xFE");
  ExpectProblem("\"\x80\"", ErrorCode::kInvalidUtf8, 1, "invalid UTF-8 byte 0x80");  // lone cont.
  ExpectProblem("\"\xF5\x80\x80\x80\"", ErrorCode::kInvalidUtf8, 1, "invalid UTF-8 byte 0xF5");
}

TEST(JsonDiagnosticsTest, OverlongEncodings) {
  ExpectProblem("\"\xC0\x80\"", ErrorCode::kInvalidUtf8, 1, "invalid UTF-8 byte 0xC0");
  ExpectProblem("\"\xC1\xBF\"", ErrorCode::kInvalidUtf8, 1, "invalid UTF-8 byte 0xC1");
  ExpectProblem("\"ab\xE0\x80\x80\"", ErrorCode::kInvalidUtf8, 3,
                "invalid UTF-8 sequence starting with byte 0xE0");
  ExpectProblem("\"\xF0\x8F\xBF\xBF\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xF0");
}

TEST(JsonDiagnosticsTest, SurrogatesEncodedInUtf8) {
  ExpectProblem("\"\xED\xA0\x80\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xED");
  ExpectProblem("\"\xED\xBF\xBF\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xED");
  ExpectValid("\"\xED\x9F\xBF\"", 5);  // U+D7FF, just below the surrogates
}

TEST(JsonDiagnosticsTest, AboveU10FFFF) {
  ExpectProblem("\"\xF4\x90\x80\x80\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xF4");
}

TEST(JsonDiagnosticsTest, TruncatedSequences) {
  // A lead byte whose continuation bytes are missing before the closing quote.
  ExpectProblem("\"\xC3\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xC3");
  ExpectProblem("\"\xE6\x97\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xE6");
  ExpectProblem("\"\xF0\x9F\x98x\"", ErrorCode::kInvalidUtf8, 1,
                "invalid UTF-8 sequence starting with byte 0xF0");
  // A sequence cut by the end of the input is a truncated input.
  ExpectProblem("\"\xE6\x97", ErrorCode::kTruncatedInput, 3, "the input ends inside a string");
  ExpectProblem("\"\xF0", ErrorCode::kTruncatedInput, 2, "the input ends inside a string");
}

// --- depth ------------------------------------------------------------------------------------

TEST(JsonDiagnosticsTest, DepthExactlyAtTheLimitIsFine) {
  ExpectValid(Nested(kMaxJsonDepth, '[', ']'), 2 * kMaxJsonDepth);
  std::string objects;
  for (int i = 0; i < kMaxJsonDepth; ++i) objects += "{\"a\":";
  objects += "1" + std::string(kMaxJsonDepth, '}');
  ExpectValid(objects, objects.size());
}

TEST(JsonDiagnosticsTest, OneLevelDeeperIsTooDeep) {
  const std::string msg = "objects and arrays nest deeper than 1024 levels";
  ExpectProblem(Nested(kMaxJsonDepth + 1, '[', ']'), ErrorCode::kTooDeep, 1024, msg);
  std::string objects;
  for (int i = 0; i < kMaxJsonDepth + 1; ++i) objects += "{\"a\":";
  objects += "1" + std::string(kMaxJsonDepth + 1, '}');
  ExpectProblem(objects, ErrorCode::kTooDeep, 5 * 1024, msg);
  ExpectProblem(Nested(5000, '[', ']'), ErrorCode::kTooDeep, 1024, msg);
}

// --- truncated input --------------------------------------------------------------------------

TEST(JsonDiagnosticsTest, TruncatedInsideString) {
  ExpectProblem("\"", ErrorCode::kTruncatedInput, 1, "the input ends inside a string");
  ExpectProblem(R"("abc)", ErrorCode::kTruncatedInput, 4, "the input ends inside a string");
  ExpectProblem(R"({"ab)", ErrorCode::kTruncatedInput, 4, "the input ends inside a string");
  ExpectProblem(R"("a\)", ErrorCode::kTruncatedInput, 3, "the input ends inside a string");
  ExpectProblem(R"("\u12)", ErrorCode::kTruncatedInput, 5, "the input ends inside a string");
  ExpectProblem(R"("\uD800\u)", ErrorCode::kTruncatedInput, 9, "the input ends inside a string");
}

TEST(JsonDiagnosticsTest, TruncatedInsideObject) {
  ExpectProblem("{", ErrorCode::kTruncatedInput, 1, "the input ends inside an object");
  ExpectProblem(R"({"a")", ErrorCode::kTruncatedInput, 4, "the input ends inside an object");
  ExpectProblem(R"({"a":1)", ErrorCode::kTruncatedInput, 6, "the input ends inside an object");
  ExpectProblem("{\"a\":1, \n", ErrorCode::kTruncatedInput, 9, "the input ends inside an object");
  ExpectProblem(R"({"a":)", ErrorCode::kTruncatedInput, 5, "the input ends inside a value");
}

TEST(JsonDiagnosticsTest, TruncatedInsideArray) {
  ExpectProblem("[", ErrorCode::kTruncatedInput, 1, "the input ends inside an array");
  ExpectProblem("[1,2", ErrorCode::kTruncatedInput, 4, "the input ends inside an array");
  ExpectProblem("[1, ", ErrorCode::kTruncatedInput, 4, "the input ends inside a value");
  ExpectProblem("[[{}]", ErrorCode::kTruncatedInput, 5, "the input ends inside an array");
}

TEST(JsonDiagnosticsTest, TruncatedInsideNumberOrLiteral) {
  ExpectProblem("-", ErrorCode::kTruncatedInput, 1, "the input ends inside a number");
  ExpectProblem("[-", ErrorCode::kTruncatedInput, 2, "the input ends inside a number");
  ExpectProblem("[1.", ErrorCode::kTruncatedInput, 3, "the input ends inside a number");
  ExpectProblem("[1e", ErrorCode::kTruncatedInput, 3, "the input ends inside a number");
  ExpectProblem("[1e-", ErrorCode::kTruncatedInput, 4, "the input ends inside a number");
  ExpectProblem("[tr", ErrorCode::kTruncatedInput, 3, "the input ends inside a literal");
  // A complete number at the end is fine; what follows it is then missing.
  ExpectProblem("[12", ErrorCode::kTruncatedInput, 3, "the input ends inside an array");
}

// --- IsJsonNumber -----------------------------------------------------------------------------

TEST(IsJsonNumberTest, AcceptsTheRfcGrammar) {
  for (const char* s : {"0", "-0", "7", "12", "-12", "1.5", "0.001", "1e5", "1E5", "1e+5", "1e-5",
                        "-1.5E-10", "123456789012345678901234567890", "1e400", "-1e400",
                        "0e0", "10.0e00"}) {
    EXPECT_TRUE(IsJsonNumber(s)) << s;
  }
}

TEST(IsJsonNumberTest, RejectsEverythingElse) {
  for (const char* s : {"", " ", "-", "01", "-01", "1.", ".5", "+1", "1e", "1e+", "0x10", "1 ",
                        " 1", "1,", "1 2", "NaN", "Infinity", "-Infinity", "\"1\"", "true",
                        "null", "{}", "[1]", "1.2.3", "1e5e5", "--1", "\xEF\xBB\xBF" "1"}) {
    EXPECT_FALSE(IsJsonNumber(s)) << "'" << s << "'";
  }
}

// --- AdvanceLineColumn ------------------------------------------------------------------------

struct LineColumn {
  int64_t line, column;
  bool operator==(const LineColumn&) const = default;
};

std::ostream& operator<<(std::ostream& os, const LineColumn& lc) {
  return os << "line " << lc.line << ", column " << lc.column;
}

LineColumn Advance(std::string_view text, size_t offset, int64_t line = 1, int64_t column = 1) {
  AdvanceLineColumn(text, offset, line, column);
  return {line, column};
}

TEST(AdvanceLineColumnTest, WithinTheFirstLine) {
  EXPECT_EQ(Advance("abc", 0), (LineColumn{1, 1}));
  EXPECT_EQ(Advance("abc", 2), (LineColumn{1, 3}));
  EXPECT_EQ(Advance("abc", 3), (LineColumn{1, 4}));  // just past the end
}

TEST(AdvanceLineColumnTest, AcrossLines) {
  const std::string text = "ab\ncd\n\nef";
  EXPECT_EQ(Advance(text, 2), (LineColumn{1, 3}));  // the '\n' itself
  EXPECT_EQ(Advance(text, 3), (LineColumn{2, 1}));
  EXPECT_EQ(Advance(text, 4), (LineColumn{2, 2}));
  EXPECT_EQ(Advance(text, 6), (LineColumn{3, 1}));
  EXPECT_EQ(Advance(text, 7), (LineColumn{4, 1}));
  EXPECT_EQ(Advance(text, 9), (LineColumn{4, 3}));
}

TEST(AdvanceLineColumnTest, ColumnsCountBytesAndCarriageReturns) {
  EXPECT_EQ(Advance("é日x", 5), (LineColumn{1, 6}));  // 2 + 3 bytes
  EXPECT_EQ(Advance("a\r\nb", 3), (LineColumn{2, 1}));
  EXPECT_EQ(Advance("a\r\nb", 2), (LineColumn{1, 3}));
}

TEST(AdvanceLineColumnTest, ContinuesFromAGivenPosition) {
  EXPECT_EQ(Advance("abc", 2, 5, 10), (LineColumn{5, 12}));
  EXPECT_EQ(Advance("a\nbc", 3, 5, 10), (LineColumn{6, 2}));
  EXPECT_EQ(Advance("\n\n", 2, 5, 10), (LineColumn{7, 1}));
  EXPECT_EQ(Advance("", 0, 3, 4), (LineColumn{3, 4}));
}

TEST(AdvanceLineColumnTest, OffsetPastTheEndStopsAtTheEnd) {
  EXPECT_EQ(Advance("a\nb", 100), (LineColumn{2, 2}));
}

TEST(AdvanceLineColumnTest, SplittingTheTextGivesTheSameAnswer) {
  const std::string text = "{\"a\":1}\n\n  {\"b\":\n 2}\r\nxyz\n";
  for (size_t target = 0; target <= text.size(); ++target) {
    LineColumn whole = Advance(text, target);
    for (size_t split = 0; split <= target; ++split) {
      int64_t line = 1, column = 1;
      AdvanceLineColumn(text, split, line, column);
      AdvanceLineColumn(std::string_view(text).substr(split), target - split, line, column);
      ASSERT_EQ((LineColumn{line, column}), whole) << "target " << target << " split " << split;
    }
  }
}

}  // namespace
}  // namespace partplay
