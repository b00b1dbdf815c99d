#include "partplay/cassandra/bulk_load.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "sanitizer_scale.h"

namespace partplay::cql {
namespace {

constexpr const char* kSchema =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "CREATE TABLE ks.t (k int, c int, v text, n varint, d decimal, PRIMARY KEY (k, c));";

// Every row of ks.t as cqlsh prints it.
std::vector<std::string> Rows(Session& s) {
  return CqlshLines(s.Execute("SELECT * FROM ks.t;").back(), "|");
}

// Loads `input` cut into pieces at `cuts` (offsets, ascending).
Status LoadInPieces(Session& s, std::string_view input, const std::vector<size_t>& cuts,
                    int64_t* rows = nullptr) {
  StatusOr<std::unique_ptr<BulkLoad>> load = BulkLoad::Start(s, "ks.t");
  if (!load.ok()) return load.status();
  Status st;
  size_t at = 0;
  for (size_t cut : cuts) {
    if (st.ok()) st = load.value()->Append(input.substr(at, cut - at));
    at = cut;
  }
  if (st.ok()) st = load.value()->Append(input.substr(at));
  if (st.ok()) st = load.value()->Finish();
  if (rows) *rows = load.value()->rows();
  return st;
}

TEST(CqlBulkLoadTest, EveryChunkingGivesTheSameRows) {
  const std::vector<std::string> inputs = {
      "{\"k\": 1, \"c\": 1, \"v\": \"a\\u00e9\"}\n{\"k\": 1, \"c\": 2, \"n\": "
      "123456789012345678901234567890}\n{\"k\": 2, \"c\": 1, \"d\": 1.000000000000000000001}\n",
      "[{\"k\": 1, \"c\": 1, \"v\": \"a\\u00e9\"}, {\"k\": 1, \"c\": 2, \"n\": "
      "123456789012345678901234567890},\n {\"k\": 2, \"c\": 1, \"d\": 1.000000000000000000001}]",
  };
  const std::vector<std::string> expected = {
      // SELECT * lists the key, then the other columns by name: k, c, d, n, v. The integer keeps
      // every digit; the decimal was a JSON double first (Jackson), so 1.000...001 is 1.0.
      "1|1|null|null|aé", "1|2|null|123456789012345678901234567890|null",
      "2|1|1.0|null|null"};
  for (const std::string& input : inputs) {
    {
      Session whole;
      whole.Execute(kSchema);
      ASSERT_TRUE(LoadInPieces(whole, input, {}).ok());
      ASSERT_EQ(Rows(whole), expected) << input;
    }
    for (size_t a = 0; a <= input.size(); a += scale::Step(4)) {
      for (size_t b = a; b <= input.size(); b += 7) {
        Session s;
        s.Execute(kSchema);
        int64_t rows = 0;
        Status st = LoadInPieces(s, input, {a, b}, &rows);
        ASSERT_TRUE(st.ok()) << "cut at " << a << ", " << b << ": " << st.ToString();
        EXPECT_EQ(rows, 3);
        ASSERT_EQ(Rows(s), expected) << "cut at " << a << ", " << b;
      }
    }
  }
}

TEST(CqlBulkLoadTest, BadRowsAreLocated) {
  struct Case {
    std::string input;
    ErrorCode code;
    int64_t line, column, byte_offset, item_index;
  };
  const std::vector<Case> cases = {
      // A value of the wrong type: located at its row, which stays unloaded.
      {"{\"k\": 1, \"c\": 1}\n{\"k\": \"x\", \"c\": 2}\n", ErrorCode::kCqlBadLiteral, 2, 1, 17, 1},
      // Broken JSON: the exact byte.
      {"{\"k\": 1, \"c\": 1}\n{\"k\": 2, \"c\": 2,}\n", ErrorCode::kMalformedJson, 2, 17, 33, 1},
      // Not an object.
      {"[{\"k\": 1, \"c\": 1}, 5]", ErrorCode::kNotAnObject, 1, 20, 19, 1},
      // A stray '}' between rows.
      {"{\"k\": 1, \"c\": 1}\n}\n{\"k\": 2, \"c\": 2}\n", ErrorCode::kMalformedJson, 2, 1, 17, 1},
      // An unknown column.
      {"{\"k\": 1, \"c\": 1, \"zz\": 0}", ErrorCode::kCqlInvalidRequest, 1, 1, 0, 0},
      // The array's ']' is missing.
      {"[{\"k\": 1, \"c\": 1}", ErrorCode::kTruncatedInput, 1, 18, 17, 1},
  };
  for (const Case& c : cases) {
    Session s;
    s.Execute(kSchema);
    int64_t rows = -1;
    Status st = LoadInPieces(s, c.input, {}, &rows);
    ASSERT_FALSE(st.ok()) << c.input;
    EXPECT_EQ(st.code(), c.code) << c.input << ": " << st.ToString();
    EXPECT_EQ(st.where().line, c.line) << c.input << ": " << st.ToString();
    EXPECT_EQ(st.where().column, c.column) << c.input << ": " << st.ToString();
    EXPECT_EQ(st.where().byte_offset, c.byte_offset) << c.input << ": " << st.ToString();
    EXPECT_EQ(st.where().item_index, c.item_index) << c.input << ": " << st.ToString();
    EXPECT_NE(st.message().find("loaded before it"), std::string::npos) << st.message();
    EXPECT_EQ(static_cast<int64_t>(Rows(s).size()), rows) << c.input;
  }
}

// A stray '}' late in a large NDJSON load is found once, at its line, without re-reading the rows
// before it (the load is linear; its speed is measured by the benchmarks, not here).
TEST(CqlBulkLoadTest, AStrayBraceInALargeLoad) {
  std::string input;
  const int kRows = 20000;
  for (int i = 0; i < kRows; ++i) {
    input += "{\"k\": " + std::to_string(i) + ", \"c\": 0, \"v\": \"row\"}\n";
    if (i == kRows - 10) input += "}\n";
  }
  std::vector<size_t> cuts;
  for (size_t at = 4096; at < input.size(); at += 4096) cuts.push_back(at);
  Session s;
  s.Execute(kSchema);
  int64_t rows = 0;
  Status st = LoadInPieces(s, input, cuts, &rows);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), ErrorCode::kMalformedJson);
  EXPECT_EQ(st.where().line, kRows - 10 + 2);
  EXPECT_EQ(st.where().column, 1);
  EXPECT_EQ(rows, kRows - 10 + 1);
}

TEST(CqlBulkLoadTest, TheTableMustExistThroughoutTheLoad) {
  Session s;
  s.Execute(kSchema);
  EXPECT_EQ(BulkLoad::Start(s, "ks.nope").status().code(), ErrorCode::kCqlUnknown);
  std::unique_ptr<BulkLoad> load = std::move(BulkLoad::Start(s, "ks.t")).value();
  ASSERT_TRUE(load->Append("{\"k\": 1, \"c\": 1}\n").ok());
  s.Execute("DROP TABLE ks.t;");
  Status st = load->Append("{\"k\": 2, \"c\": 1}\n");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), ErrorCode::kCqlUnknown);
}

TEST(CqlBulkLoadTest, ARowHasAMaximumSize) {
  Session s;
  s.Execute(kSchema);
  std::string big = "{\"k\": 1, \"c\": 1, \"v\": \"" + std::string(kMaxRowJsonBytes, 'x') + "\"}";
  int64_t rows = -1;
  Status st = LoadInPieces(s, "{\"k\": 0, \"c\": 0}\n" + big, {}, &rows);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), ErrorCode::kItemTooLarge);
  EXPECT_EQ(st.where().item_index, 1);
  EXPECT_EQ(st.where().line, 2);
  EXPECT_EQ(rows, 1);
}

TEST(CqlBulkLoadTest, EmptyInputs) {
  Session s;
  s.Execute(kSchema);
  int64_t rows = -1;
  EXPECT_TRUE(LoadInPieces(s, "[]", {}, &rows).ok());
  EXPECT_EQ(rows, 0);
  EXPECT_EQ(LoadInPieces(s, "", {}).code(), ErrorCode::kEmptyInput);
}

// INSERT ... JSON and bulk loads read numbers as Cassandra's Jackson ObjectMapper does: an
// integer keeps every digit (Integer, Long, BigInteger), a number with a fraction or an exponent
// is a Double first (a decimal keeps only what a double holds; 1e400 is Infinity, no decimal).
TEST(CqlBulkLoadTest, JsonNumbersReadAsJacksonReadsThem) {
  Session s;
  s.Execute(kSchema);
  std::vector<StatementResult> huge =
      s.Execute("INSERT INTO ks.t JSON '{\"k\": 1, \"c\": 1, \"d\": 1e400}';");
  ASSERT_EQ(huge[0].kind, StatementResult::Kind::kError);
  EXPECT_EQ(huge[0].status.message(),
            "Error decoding JSON value for d: Value 'Infinity' is not a valid representation of a "
            "decimal value");
  std::vector<StatementResult> r = s.Execute(
      "INSERT INTO ks.t JSON '{\"k\": 1, \"c\": 1, \"n\": -98765432109876543210987654321,"
      " \"d\": 2.000000000000000000001}';"
      "INSERT INTO ks.t JSON '{\"k\": 1, \"c\": 2, \"n\": 01}';"
      "INSERT INTO ks.t JSON '{\"k\": 1, \"c\": 3} x';"
      "INSERT INTO ks.t JSON '{\"k\": 1, \"c\": 4, \"v\": \"\\u00e9\\n\"}';");
  EXPECT_EQ(r[0].kind, StatementResult::Kind::kVoid) << r[0].status.ToString();
  ASSERT_EQ(r[1].kind, StatementResult::Kind::kError);
  EXPECT_NE(r[1].status.message().find("Could not decode JSON string as a map"), std::string::npos)
      << r[1].status.message();
  ASSERT_EQ(r[2].kind, StatementResult::Kind::kError);
  EXPECT_NE(r[2].status.message().find("Could not decode JSON string as a map"), std::string::npos);
  EXPECT_EQ(r[3].kind, StatementResult::Kind::kVoid) << r[3].status.ToString();
  EXPECT_EQ(Rows(s),
            (std::vector<std::string>{"1|1|2.0|-98765432109876543210987654321|null",
                                      "1|4|null|null|é\\n"}));  // cqlsh escapes the newline
  int64_t rows = 0;
  Status st = LoadInPieces(s, "{\"k\": 2, \"c\": 1, \"n\": 1.5}\n{\"k\": 2, \"c\": 2, \"n\": -0}\n",
                           {}, &rows);
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), ErrorCode::kCqlBadLiteral) << st.ToString();
  EXPECT_EQ(st.where().item_index, 0);
}

}  // namespace
}  // namespace partplay::cql
