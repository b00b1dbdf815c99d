// COPY ... FROM 'file.csv': the CSV reader (quotes, escapes, newlines inside quotes, CRLF, a
// byte order mark, located errors), and rows written as cqlsh COPY TO and dsbulk unload write
// them loading back equal to the rows that produced them; bad rows listed by line and column
// while the good ones load.
#include "partplay/cassandra/csv.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/bulk_load.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {
namespace {

std::vector<std::vector<std::string>> ReadAll(std::string_view text, CsvOptions o = {}) {
  CsvReader r(text, o);
  std::vector<std::vector<std::string>> out;
  std::vector<CsvField> fields;
  while (true) {
    StatusOr<bool> more = r.Next(fields);
    EXPECT_TRUE(more.ok()) << more.status().ToString();
    if (!more.ok() || !more.value()) break;
    std::vector<std::string> texts;
    for (const CsvField& f : fields) texts.push_back(f.text);
    out.push_back(texts);
  }
  return out;
}

Status FirstError(std::string_view text, CsvOptions o = {}) {
  CsvReader r(text, o);
  std::vector<CsvField> fields;
  while (true) {
    StatusOr<bool> more = r.Next(fields);
    if (!more.ok()) return more.status();
    if (!more.value()) return Status::Ok();
  }
}

TEST(CsvReaderTest, QuotesEscapesNewlinesAndLocations) {
  using Rows = std::vector<std::vector<std::string>>;
  EXPECT_EQ(ReadAll("\xEF\xBB\xBF"
                    "a,b\r\n\"x, \"\"y\"\"\",\"two\nlines\"\n,\"\"\n"),
            Rows({{"a", "b"}, {"x, \"y\"", "two\nlines"}, {"", ""}}));
  EXPECT_EQ(ReadAll("\"a\\\"b\"|c\n", CsvOptions{'|', '"', '\\'}), Rows({{"a\"b", "c"}}));
  CsvReader r("k,v\n1,\"x\ny\"\n2,z", CsvOptions{});
  std::vector<CsvField> f;
  ASSERT_TRUE(r.Next(f).value());
  ASSERT_TRUE(r.Next(f).value());
  EXPECT_TRUE(f[1].quoted);
  EXPECT_EQ(f[1].where.line, 2);
  EXPECT_EQ(f[1].where.column, 3);
  ASSERT_TRUE(r.Next(f).value());
  EXPECT_EQ(f[0].where.line, 4);  // after the quoted newline
  EXPECT_EQ(f[1].where.column, 3);
  Status open = FirstError("a\n\"never closed,b\n");
  EXPECT_EQ(open.message(), "unterminated quoted field (opened at line 2, column 1)");
  EXPECT_EQ(open.where().line, 2);
  Status junk = FirstError("\"a\"b,c\n");
  EXPECT_EQ(junk.message(),
            "'b' after the closing quote of a field at line 1, column 4: expected the delimiter "
            "',' or the end of the line");
}

// One vector read into record after record (as a load reads): each record's fields are its own,
// whatever the record before held (more fields, longer text, a quoted field in the same place).
TEST(CsvReaderTest, FieldsReusedFromRecordToRecord) {
  using Rows = std::vector<std::vector<std::string>>;
  EXPECT_EQ(ReadAll("a long first field of many bytes,\"q\",c\nx\n\"\",y\r\nz\rw,\n,,\n"),
            Rows({{"a long first field of many bytes", "q", "c"},
                  {"x"},
                  {"", "y"},
                  {"z\rw", ""},
                  {"", "", ""}}));
  CsvReader r("\"a\",b\nc\n", CsvOptions{});
  std::vector<CsvField> f;
  ASSERT_TRUE(r.Next(f).value());
  EXPECT_TRUE(f[0].quoted);
  ASSERT_TRUE(r.Next(f).value());
  ASSERT_EQ(f.size(), 1u);
  EXPECT_FALSE(f[0].quoted);
  EXPECT_EQ(f[0].text, "c");
  EXPECT_EQ(f[0].where.line, 2);
  EXPECT_FALSE(r.Next(f).value());
  EXPECT_TRUE(f.empty());
}

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;"
    "CREATE TYPE addr (street text, zip int);"
    "CREATE TABLE %s (k text, c int, ts timestamp, b blob, flag boolean, l list<text>, "
    "m map<text, int>, a frozen<addr>, t tuple<int, text>, d duration, x double, day date, "
    "PRIMARY KEY (k, c));";

std::string Schema(const std::string& table) {
  std::string s = kSchema;
  return s.replace(s.find("%s"), 2, table);
}

std::vector<std::string> Rows(Session& s, const std::string& table) {
  std::vector<StatementResult> r = s.Execute("SELECT * FROM " + table + ";");
  EXPECT_EQ(r.back().kind, StatementResult::Kind::kRows) << r.back().status.message();
  return CqlshLines(r.back(), " | ");
}

// Loads `csv` into `table` (emptied first) through the CSV bulk load cut in two at `cut`; the
// failures as COPY lists them.
std::vector<std::string> BulkLoadCsv(Session& s, const std::string& table, const std::string& csv,
                                     const std::string& options_json, size_t cut) {
  s.Execute("TRUNCATE " + table + ";");
  StatusOr<BulkLoadOptions> options = ParseBulkLoadOptionsJson(options_json);
  EXPECT_TRUE(options.ok()) << options.status().message();
  std::unique_ptr<BulkLoad> load = BulkLoad::Start(s, table, options.value()).value();
  Status st = load->Append(std::string_view(csv).substr(0, cut));
  if (st.ok()) st = load->Append(std::string_view(csv).substr(cut));
  if (st.ok()) st = load->Finish();
  EXPECT_TRUE(st.ok()) << st.message();
  std::vector<std::string> failures;
  for (const CsvLoadFailure& f : load->failures()) {
    failures.push_back(
        fmt::format("line {}, column {}: {}", f.where.line, f.where.column, f.message));
  }
  return failures;
}

// A CSV field as Python's csv writer quotes it (cqlsh COPY TO): in quotes when it holds the
// delimiter, a quote or a newline, quotes doubled.
std::string CsvQuote(const std::string& v) {
  if (v.find_first_of(",\"\n\r") == std::string::npos) return v;
  std::string out = "\"";
  for (char c : v) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

TEST(CopyFromTest, CqlshCopyToOutputLoadsBackEqual) {
  std::map<std::string, std::string> files;
  SessionOptions options;
  options.read_file = [&](const std::string& name) -> StatusOr<std::string> {
    auto it = files.find(name);
    if (it == files.end()) return Status(ErrorCode::kIo, "cannot open " + name);
    return it->second;
  };
  Session s(options);
  s.Execute(Schema("src") + Schema("dst") + Schema("bulk"));
  std::vector<StatementResult> inserted = s.Execute(R"(
    INSERT INTO src (k, c, ts, b, flag, l, m, a, t, d, x, day) VALUES ('plain', 1,
      '2024-01-02 03:04:05.678+0000', 0xcafe, true, ['a', 'b, "c"'], {'k': 1, 'it''s': 2},
      {street: 'Main "1", N', zip: 7}, (3, 'x'), 1h30m, 1.5, '2024-02-29');
    INSERT INTO src (k, c, flag) VALUES ('two
lines, "quoted"', 2, false);
    INSERT INTO src (k, c, a, t) VALUES ('nulls', 3, {zip: 1}, (5, null));)");
  for (const StatementResult& r : inserted) ASSERT_NE(r.kind, StatementResult::Kind::kError);
  // cqlsh COPY src TO: a header, text raw, every other value as cqlsh prints it, null empty.
  std::vector<StatementResult> all = s.Execute("SELECT * FROM src;");
  const ResultSet& rs = all.back().rows;
  std::string csv;
  for (size_t i = 0; i < rs.columns.size(); ++i) csv += (i ? "," : "") + rs.columns[i];
  csv += "\n";
  for (const std::vector<Value>& row : rs.rows) {
    for (size_t i = 0; i < row.size(); ++i) {
      if (i) csv += ",";
      if (!row[i]) continue;
      bool text = rs.types[i].kind == TypeKind::kText;
      csv += CsvQuote(text ? *row[i] : FormatCqlsh(rs.types[i], *row[i]));
    }
    csv += "\n";
  }
  files["src.csv"] = csv;
  std::vector<StatementResult> copy =
      s.Execute("COPY dst FROM 'src.csv' WITH HEADER = TRUE AND DELIMITER = ',';");
  ASSERT_EQ(copy.back().kind, StatementResult::Kind::kVoid) << copy.back().status.message();
  EXPECT_EQ(copy.back().message, "3 rows imported from src.csv into ks.dst; 0 rows failed") << csv;
  EXPECT_EQ(Rows(s, "dst"), Rows(s, "src"));
  // The page's CSV bulk load of the same file, cut anywhere, loads the same rows.
  for (size_t cut = 0; cut <= csv.size(); ++cut) {
    EXPECT_EQ(BulkLoadCsv(s, "ks.bulk", csv, R"({"format": "csv", "header": true})", cut),
              std::vector<std::string>())
        << cut;
    ASSERT_EQ(Rows(s, "bulk"), Rows(s, "src")) << cut;
  }
}

TEST(CopyFromTest, DsbulkUnloadOutputAndOptions) {
  std::map<std::string, std::string> files;
  SessionOptions options;
  options.read_file = [&](const std::string& name) -> StatusOr<std::string> { return files[name]; };
  Session s(options);
  s.Execute(Schema("src") + Schema("dst") + Schema("bulk"));
  s.Execute(R"(INSERT INTO src (k, c, ts, b, flag, l, m, a, t, d, x, day) VALUES ('a', 1,
      '2024-01-02T03:04:05.678Z', 0x00ff, false, ['p', 'q'], {'z': 26}, {street: 's', zip: 9},
      (1, 'o'), 2d, -0.25, '1999-12-31');)");
  // dsbulk unload: ISO timestamps, lower-case booleans, collections, tuples and user types as
  // JSON; here '|' as the delimiter and NULL written as NULL.
  files["dsbulk.csv"] =
      "k|c|ts|b|flag|l|m|a|t|d|x|day\n"
      "a|1|2024-01-02T03:04:05.678Z|0x00ff|false|[\"p\",\"q\"]|{\"z\":26}|{\"street\":\"s\","
      "\"zip\":9}|[1,\"o\"]|2d|-0.25|1999-12-31\n"
      "b|2|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n";
  std::vector<StatementResult> copy = s.Execute(
      "COPY dst (k, c, ts, b, flag, l, m, a, t, d, x, day) FROM 'dsbulk.csv' WITH HEADER = true "
      "AND DELIMITER = '|' AND NULL = 'NULL' AND DATETIMEFORMAT = '%Y-%m-%dT%H:%M:%S.%fZ';");
  EXPECT_EQ(copy.back().message, "2 rows imported from dsbulk.csv into ks.dst; 0 rows failed")
      << copy.back().status.message()
      << (copy.back().warnings.empty() ? "" : copy.back().warnings[0]);
  std::vector<std::string> dst = Rows(s, "dst");
  ASSERT_EQ(dst.size(), 2u);
  EXPECT_EQ(dst[0], Rows(s, "src")[0]);
  EXPECT_EQ(dst[1].substr(0, 6), "b | 2 ");
  const std::string& csv = files["dsbulk.csv"];
  for (size_t cut = 0; cut <= csv.size(); ++cut) {
    EXPECT_EQ(BulkLoadCsv(s, "ks.bulk", csv,
                          R"({"format": "csv", "header": true, "delimiter": "|", "null": "NULL",
                              "datetimeformat": "%Y-%m-%dT%H:%M:%S.%fZ", "columns": ["k", "c",
                              "ts", "b", "flag", "l", "m", "a", "t", "d", "x", "day"]})",
                          cut),
              std::vector<std::string>())
        << cut;
    ASSERT_EQ(Rows(s, "bulk"), dst) << cut;
  }
}

// The page's CSV bulk load maps a header's names to columns as dsbulk does (authored; issue 40's
// friction 8: a header in another order than the table failed every row on a type error), where
// COPY FROM follows cqlsh and skips the header.
TEST(CsvBulkLoadTest, AHeaderNamesTheColumnsAsDsbulkMapsThem) {
  Session s;
  s.Execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': 1}; USE ks;"
            "CREATE TABLE r (sensor text, day date, reading double, PRIMARY KEY (sensor, day));");
  const std::string csv = "Reading,sensor,day\n21.5,s1,2024-01-02\n-3,s2,2024-01-03\n";
  for (size_t cut = 0; cut <= csv.size(); ++cut) {
    EXPECT_EQ(BulkLoadCsv(s, "ks.r", csv, R"({"format": "csv", "header": true})", cut),
              std::vector<std::string>())
        << cut;
    EXPECT_EQ(Rows(s, "ks.r"),
              (std::vector<std::string>{"s1 | 2024-01-02 | 21.5", "s2 | 2024-01-03 | -3"}))
        << cut;
  }
  // A name the table does not have stops the load at the header, located.
  std::unique_ptr<BulkLoad> bad =
      BulkLoad::Start(s, "ks.r", ParseBulkLoadOptionsJson(R"({"format": "csv", "header": true})")
                                     .value())
          .value();
  Status stopped = bad->Append("sensor,day,value\ns1,2024-01-02,1\n");
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.where().line, 1);
  EXPECT_EQ(stopped.where().column, 12);
  ASSERT_EQ(bad->failures().size(), 1u);
  EXPECT_EQ(bad->failures()[0].message,
            "the header names value, which is not a column of ks.r (the header's names map the "
            "fields to columns, as dsbulk maps them) (the load stopped here)");
  // A column list given: the header is skipped and the list maps the fields (cqlsh's way).
  EXPECT_EQ(BulkLoadCsv(s, "ks.r", "x,y,z\n1.5,s3,2024-01-04\n",
                        R"({"format": "csv", "header": true, "columns": ["reading", "sensor", "day"]})",
                        0),
            std::vector<std::string>());
  EXPECT_EQ(Rows(s, "ks.r"), (std::vector<std::string>{"s3 | 2024-01-04 | 1.5"}));
}

TEST(CopyFromTest, BadRowsAreListedAndTheGoodOnesLoad) {
  SessionOptions options;
  options.read_file = [](const std::string&) -> StatusOr<std::string> {
    return std::string(
        "k,c,x\n"
        "a,1,1.5\n"
        "b,two,2\n"
        "c,3\n"
        ",4,4\n"
        "d,5,\"oops\"x\n"
        "e,6,6\n");
  };
  Session s(options);
  s.Execute(Schema("t"));
  std::vector<StatementResult> copy =
      s.Execute("COPY t (k, c, x) FROM 'bad.csv' WITH HEADER = true;");
  const StatementResult& r = copy.back();
  EXPECT_EQ(r.verb, "COPY");
  EXPECT_EQ(r.message, "1 row imported from bad.csv into ks.t; 4 rows failed");
  ASSERT_EQ(r.warnings.size(), 4u);
  EXPECT_EQ(r.warnings[0], "bad.csv line 3, column 3: c: Unable to make int from 'two'");
  EXPECT_EQ(r.warnings[1], "bad.csv line 4, column 1: 2 fields for 3 columns");
  EXPECT_EQ(r.warnings[2].substr(0, 26), "bad.csv line 5, column 1: ");
  EXPECT_NE(r.warnings[3].find("(the load stopped here)"), std::string::npos);
  EXPECT_EQ(Rows(s, "t").size(), 1u);
  EXPECT_EQ(s.Execute("COPY t FROM 'x.csv' WITH HEADERS = true;").back().status.message(),
            "Unrecognized COPY FROM options: headers");
  Session no_files;
  no_files.Execute(Schema("t"));
  EXPECT_EQ(no_files.Execute("COPY t FROM 'x.csv';").back().status.message(),
            "COPY FROM reads a file, which `partplay cql` does; on the page, load the CSV with "
            "the bulk load");
}

// examples/cql/shop-load-csv.cql loads examples/cql/shop-orders.csv (cqlsh's COPY TO format)
// without a failed row, and the view follows.
TEST(CopyFromTest, TheExampleCsvLoads) {
  auto read = [](const std::string& name) -> StatusOr<std::string> {
    std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/" + name, std::ios::binary);
    if (!in.good()) return Status(ErrorCode::kIo, "cannot open " + name);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  SessionOptions options;
  options.read_file = read;
  Session s(options);
  std::vector<StatementResult> results = s.Execute(read("shop-load-csv.cql").value());
  for (const StatementResult& r : results) {
    EXPECT_NE(r.kind, StatementResult::Kind::kError) << r.statement << ": " << r.status.message();
    if (r.verb == "COPY") {
      EXPECT_EQ(r.message, "4 rows imported from shop-orders.csv into shop.orders; 0 rows failed");
    }
  }
  ASSERT_EQ(results.back().rows.rows.size(), 3u);  // the order without a status is not in the view
}

}  // namespace
}  // namespace partplay::cql
