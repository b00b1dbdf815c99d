// Hostile CQL (issue 12): every limit of core/limits.h that the CQL path checks, each with its
// located error, and the same construct just inside the limit still working. None of these may
// crash, abort or run for long; the tests assert the errors, never a time.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/limits.h"

namespace partplay::cql {
namespace {

constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;\n";

std::string Repeat(std::string_view s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// The results of the script (from line 2) after the keyspace's two statements.
std::vector<StatementResult> RunScript(const std::string& script) {
  Session s;
  std::vector<StatementResult> r = s.Execute(std::string(kKeyspace) + script);
  EXPECT_GE(r.size(), 2u);
  r.erase(r.begin(), r.begin() + 2);
  return r;
}

// ---- nesting ------------------------------------------------------------------------------------

TEST(CqlHostileInput, ListLiteralsNestedPastTheLimitAreATooDeepErrorAtTheBracket) {
  const int deep = 10000;
  std::string literal = Repeat("[", deep) + Repeat("]", deep);
  StatusOr<Literal> lit = ParseLiteral(literal);
  ASSERT_FALSE(lit.ok());
  EXPECT_EQ(lit.status().code(), ErrorCode::kTooDeep);
  // The 65th '[' is the one past 64 levels: byte 64, column 65.
  EXPECT_EQ(lit.status().where().byte_offset, kCqlMaxNestingDepth);
  EXPECT_EQ(lit.status().where().column, kCqlMaxNestingDepth + 1);
  EXPECT_EQ(lit.status().message(),
            "collection literals and function calls nest deeper than 64 levels at line 1, column "
            "65");
}

TEST(CqlHostileInput, NestingUpToTheLimitParses) {
  std::string literal = Repeat("[", kCqlMaxNestingDepth) + Repeat("]", kCqlMaxNestingDepth);
  StatusOr<Literal> lit = ParseLiteral(literal);
  ASSERT_TRUE(lit.ok()) << lit.status().ToString();
  int depth = 1;
  for (const Literal* l = &lit.value(); !l->elements.empty(); l = &l->elements[0]) ++depth;
  EXPECT_EQ(depth, kCqlMaxNestingDepth);  // 64 lists, the innermost one empty
  EXPECT_FALSE(ParseLiteral("[" + literal + "]").ok());
}

TEST(CqlHostileInput, NestedFunctionCallsInAStatementAreLocated) {
  std::string call = Repeat("totimestamp(", 20000) + "now()" + Repeat(")", 20000);
  std::vector<StatementResult> r = RunScript(
      "CREATE TABLE t (k int PRIMARY KEY, at timestamp);\n"
      "INSERT INTO t (k, at) VALUES (1, " +
      call + ");\nSELECT k FROM t;");
  ASSERT_EQ(r.size(), 3u);
  ASSERT_EQ(r[1].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[1].status.code(), ErrorCode::kTooDeep);
  EXPECT_EQ(r[1].status.where().line, 3);
  // The first 64 calls are inside the limit; the 65th totimestamp( is one too many.
  EXPECT_EQ(r[1].status.where().column, 34 + 12 * kCqlMaxNestingDepth);
  // The session goes on: the next statement runs.
  EXPECT_EQ(r[2].kind, StatementResult::Kind::kRows);
}

TEST(CqlHostileInput, TypesNestedPastTheLimitAreATooDeepError) {
  std::string type = Repeat("frozen<list<", 5000) + "int" + Repeat(">>", 5000);
  StatusOr<CqlType> t = ParseType(type);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.status().code(), ErrorCode::kTooDeep);
  EXPECT_NE(t.status().message().find("types (list<list<...>>) nest deeper than 64 levels"),
            std::string::npos)
      << t.status().message();
  std::vector<StatementResult> r =
      RunScript("CREATE TABLE t (k int PRIMARY KEY, v " + Repeat("list<", 3000) + "int" +
                Repeat(">", 3000) + ");");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status.code(), ErrorCode::kTooDeep);
  EXPECT_EQ(r[0].status.where().line, 2);
}

TEST(CqlHostileInput, MapAndSetLiteralsCountTheirNestingToo) {
  std::string literal = Repeat("{1: ", 200) + "1" + Repeat("}", 200);
  StatusOr<Literal> lit = ParseLiteral(literal);
  ASSERT_FALSE(lit.ok());
  EXPECT_EQ(lit.status().code(), ErrorCode::kTooDeep);
}

// ---- TTLs, timestamps and numbers ---------------------------------------------------------------

TEST(CqlHostileInput, DefaultTimeToLivePastMaxTtlIsAnError) {
  std::vector<StatementResult> r = RunScript(
      "CREATE TABLE t (k int PRIMARY KEY) WITH default_time_to_live = "
      "99999999999999999999;\n"
      "CREATE TABLE u (k int PRIMARY KEY) WITH default_time_to_live = 630720001;\n"
      "CREATE TABLE v (k int PRIMARY KEY) WITH default_time_to_live = 630720000;");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_EQ(r[0].status.message(),
            "default_time_to_live must be less than or equal to 630720000 (got "
            "99999999999999999999)");
  EXPECT_EQ(r[0].status.where().line, 2);
  EXPECT_EQ(r[0].status.where().column, 64);
  EXPECT_EQ(r[1].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_EQ(r[2].kind, StatementResult::Kind::kSchemaChange) << r[2].status.ToString();
}

TEST(CqlHostileInput, ATimestampPastSixtyFourBitMillisecondsIsOutOfRange) {
  std::vector<StatementResult> r = RunScript(
      "CREATE TABLE t (k int PRIMARY KEY, at timestamp);\n"
      "INSERT INTO t (k, at) VALUES (1, '999999999-01-01');\n"
      "INSERT INTO t (k, at) VALUES (2, '99999999999999999999');\n"
      "INSERT INTO t (k, at) VALUES (3, '-999999999-01-01 00:00:00Z');\n"
      "INSERT INTO t (k, at) VALUES (4, '292278994-08-17');\n"  // still fits
      "SELECT k FROM t;");
  ASSERT_EQ(r.size(), 6u);
  for (int i : {1, 2, 3}) {
    EXPECT_EQ(r[static_cast<size_t>(i)].status.code(), ErrorCode::kCqlBadLiteral) << i;
    EXPECT_NE(r[static_cast<size_t>(i)].status.message().find("is out of range"), std::string::npos)
        << r[static_cast<size_t>(i)].status.message();
    EXPECT_EQ(r[static_cast<size_t>(i)].status.where().line, i + 2);
    EXPECT_EQ(r[static_cast<size_t>(i)].status.where().column, 34);
  }
  EXPECT_EQ(r[1].status.message(),
            "Timestamp '999999999-01-01' is out of range: a timestamp is a signed 64-bit count of "
            "milliseconds since 1970-01-01 (about 292 million years either way)");
  EXPECT_EQ(r[4].kind, StatementResult::Kind::kVoid) << r[4].status.ToString();
  ASSERT_EQ(r[5].kind, StatementResult::Kind::kRows);
  EXPECT_EQ(r[5].rows.rows.size(), 1u);  // only k = 4 was stored: nothing wrapped around
}

TEST(CqlHostileInput, NumbersOfMoreDigitsThanTheLimitAreRefusedWithoutConverting) {
  const std::string huge(200000, '7');
  for (std::string type : {"varint", "decimal", "double", "float"}) {
    std::vector<StatementResult> r =
        RunScript(fmt::format("CREATE TABLE t (k int PRIMARY KEY, v {});\n"
                              "INSERT INTO t (k, v) VALUES (1, {});\n"
                              "INSERT INTO t (k, v) VALUES (2, -0.{}e5);",
                              type, huge, huge));
    ASSERT_EQ(r.size(), 3u) << type;
    for (size_t i : {1u, 2u}) {
      EXPECT_EQ(r[i].status.code(), ErrorCode::kCqlBadLiteral) << type;
      EXPECT_EQ(r[i].status.where().line, static_cast<int64_t>(i + 2)) << type;
      EXPECT_EQ(r[i].status.where().column, 33) << type;
    }
    EXPECT_EQ(r[1].status.message(),
              fmt::format("a {} value of 200000 digits ('77777777777777777777...' at line 3, "
                          "column 33): at most 1000 digits per number are read",
                          type));
  }
}

TEST(CqlHostileInput, NumbersUpToTheDigitLimitKeepEveryDigit) {
  const std::string digits = "9" + std::string(999, '0');    // 9 x 10^999: 1000 digits
  const std::string decimal = "9." + std::string(999, '0');  // 1000 digits, scale 999
  std::vector<StatementResult> r = RunScript(
      "CREATE TABLE t (k int PRIMARY KEY, v varint, d decimal);\n"
      "INSERT INTO t (k, v, d) VALUES (1, " +
      digits + ", " + decimal + ");\nSELECT v, d FROM t;");
  ASSERT_EQ(r.size(), 3u);
  ASSERT_EQ(r[1].kind, StatementResult::Kind::kVoid) << r[1].status.ToString();
  ASSERT_EQ(r[2].rows.rows.size(), 1u);
  std::string line = ResultToJsonLine(r[2]);
  EXPECT_NE(line.find(digits), std::string::npos);
  EXPECT_NE(line.find(decimal), std::string::npos);
}

// ---- the product of IN lists --------------------------------------------------------------------

std::string InList(int n) {
  std::string out = "(";
  for (int i = 0; i < n; ++i) out += (i ? ", " : "") + std::to_string(i);
  return out + ")";
}

TEST(CqlHostileInput, InListsOnACompositePartitionKeyMultiplyToAtMostTheGuardrail) {
  std::string create =
      "CREATE TABLE t (a int, b int, c int, d int, v int, PRIMARY KEY ((a, b, c, d)));\n";
  std::vector<StatementResult> r =
      RunScript(create + "SELECT * FROM t WHERE a IN " + InList(120) + " AND b IN " + InList(120) +
                " AND c IN " + InList(120) + " AND d IN " + InList(120) + ";\n" +
                "SELECT * FROM t WHERE a IN " + InList(100) + " AND b IN " + InList(100) +
                " AND c = 1 AND d = 2;\n" + "DELETE FROM t WHERE a IN " + InList(101) +
                " AND b IN " + InList(100) + " AND c = 1 AND d = 2;");
  ASSERT_EQ(r.size(), 4u);
  ASSERT_EQ(r[1].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[1].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_EQ(r[1].status.message(),
            "Guardrail in_select_cartesian_product violated: Aborting query because the "
            "cartesian product of the IN restrictions on partition key produces 207360000 "
            "values, this exceeds fail threshold of 10000");
  // Located at the IN list that passes the limit: b's (120 x 120 > 10,000).
  EXPECT_EQ(r[1].status.where().line, 3);
  EXPECT_EQ(r[1].status.where().column, 23 + 5 + static_cast<int64_t>(InList(120).size()) + 5);
  EXPECT_EQ(r[2].kind, StatementResult::Kind::kRows) << r[2].status.ToString();  // 10,000 keys
  EXPECT_EQ(r[3].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_NE(r[3].status.message().find("on partition key produces 10100 values"), std::string::npos)
      << r[3].status.message();
}

TEST(CqlHostileInput, InListsOnClusteringColumnsAndBothKeysAreCapped) {
  std::vector<StatementResult> r = RunScript(
      "CREATE TABLE t (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2));\n"
      "SELECT * FROM t WHERE k = 1 AND c1 IN " +
      InList(200) + " AND c2 IN " + InList(200) +
      ";\n"
      "UPDATE t SET v = 1 WHERE k IN " +
      InList(100) + " AND c1 IN " + InList(50) + " AND c2 IN " + InList(3) + ";");
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[1].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_NE(r[1].status.message().find("on clustering key produces 40000 values"),
            std::string::npos)
      << r[1].status.message();
  EXPECT_EQ(r[2].status.code(), ErrorCode::kCqlInvalidRequest);
  EXPECT_NE(r[2].status.message().find("on primary key produces 15000 values"), std::string::npos)
      << r[2].status.message();
}

// ---- identifiers and bytes in messages ----------------------------------------------------------

TEST(CqlHostileInput, QuotedIdentifiersMustBeUtf8WithoutControlCharacters) {
  struct Case {
    std::string name;
    int64_t column;  // of the bad byte
    std::string what;
  };
  const Case cases[] = {
      {std::string("\"a\0b\"", 5), 38, "the control character \\x00"},
      {"\"a\x01\"", 38, "the control character \\x01"},
      {"\"ab\x7F\"", 39, "the control character \\x7F"},
      {"\"a\xFF\"", 38, "the byte (not UTF-8) \\xFF"},
      {"\"\xC0\xAF\"", 37, "the byte (not UTF-8) \\xC0"},  // an overlong '/'
  };
  for (const Case& c : cases) {
    std::vector<StatementResult> r =
        RunScript("CREATE TABLE t (k int PRIMARY KEY, " + c.name + " int);");
    ASSERT_EQ(r.size(), 1u);
    EXPECT_EQ(r[0].status.code(), ErrorCode::kCqlSyntax) << c.what;
    EXPECT_EQ(r[0].status.where().column, c.column) << c.what;
    EXPECT_EQ(r[0].status.message(),
              fmt::format("a quoted identifier holds {} at line 2, column {}: names must be "
                          "UTF-8 text without control characters",
                          c.what, c.column));
  }
  std::vector<StatementResult> ok =
      RunScript("CREATE TABLE t (k int PRIMARY KEY, \"Zoë \"\"q\"\"\" int);");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_EQ(ok[0].kind, StatementResult::Kind::kSchemaChange) << ok[0].status.ToString();
}

TEST(CqlHostileInput, LexerErrorsNeverEchoRawInvalidBytes) {
  std::vector<StatementResult> r = RunScript("SELECT \xFF\xFE FROM t;\nSELECT \x01 FROM t;");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].status.message(), "token recognition error at: '\\xFF'");
  EXPECT_EQ(r[1].status.message(), "token recognition error at: '\\x01'");
  std::string json = ResultToJsonLine(r[0]);
  EXPECT_EQ(json.find('\xFF'), std::string::npos) << json;
  // A string token's raw bytes echoed in a message are escaped by the JSON writer.
  std::vector<StatementResult> s = RunScript("SELECT 'a\xFF' FROM t;");
  ASSERT_EQ(s.size(), 1u);
  std::string line = ResultToJsonLine(s[0]);
  EXPECT_EQ(line.find('\xFF'), std::string::npos) << line;
  EXPECT_NE(line.find("\\\\xff"), std::string::npos) << line;
}

// ---- the ring -----------------------------------------------------------------------------------

TEST(CqlHostileInput, ADatacenterOfTwoBillionNodesIsRefusedBeforeAnyNodeIsMade) {
  StatusOr<RingOptions> o = ParseRingOptionsJson(
      R"({"datacenters": [{"name": "dc1", "nodes": 3}, {"name": "dc2", "nodes": 2147483647}]})");
  ASSERT_TRUE(o.ok()) << o.status().ToString();
  StatusOr<Ring> ring = Ring::Build(o.value());
  ASSERT_FALSE(ring.ok());
  EXPECT_EQ(ring.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(ring.status().message(), "a ring has 1 to 1000 nodes, not 2147483650");
  o->datacenters[1].nodes = 997;
  EXPECT_TRUE(Ring::Build(o.value()).ok());
}

}  // namespace
}  // namespace partplay::cql
