// The CSV bulk load (bulk_load.h with format csv) against COPY ... FROM: the resumable CSV reader
// fed at every split gives the one-shot reader's records and errors; the bulk load fed at every
// split gives COPY's rows, counts and failures at the same places; the load options as JSON and
// as COPY's WITH; a materialized view receives the rows.
#include "partplay/cassandra/csv_load.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/bulk_load.h"
#include "partplay/cassandra/csv.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql {
namespace {

// A record as text: each field's location, quoting and text.
std::string Describe(const std::vector<CsvField>& fields) {
  std::string out;
  for (const CsvField& f : fields) {
    out += std::to_string(f.where.line) + ":" + std::to_string(f.where.column) + "@" +
           std::to_string(f.where.byte_offset) + (f.quoted ? "q" : "") + "[" + f.text + "]";
  }
  return out;
}

// Every record, then "error: ..." or "end".
std::vector<std::string> ReadWhole(std::string_view text, CsvOptions o) {
  CsvReader r(text, o);
  std::vector<std::string> out;
  std::vector<CsvField> fields;
  while (true) {
    StatusOr<bool> more = r.Next(fields);
    if (!more.ok()) {
      out.push_back("error " + std::to_string(more.status().where().byte_offset) + ": " +
                    more.status().message());
      return out;
    }
    if (!more.value()) {
      out.push_back("end, " + std::to_string(r.lines_read()) + " lines");
      return out;
    }
    out.push_back(Describe(fields));
  }
}

// The same through the resumable reader, fed the pieces between `cuts`.
std::vector<std::string> ReadInPieces(std::string_view text, CsvOptions o,
                                      const std::vector<size_t>& cuts) {
  CsvReader r(o);
  std::vector<std::string> out;
  std::vector<CsvField> fields;
  size_t at = 0;
  for (size_t i = 0; i <= cuts.size(); ++i) {
    size_t end = i < cuts.size() ? cuts[i] : text.size();
    r.Append(text.substr(at, end - at));
    at = end;
    if (i == cuts.size()) r.Finish();
    while (true) {
      StatusOr<CsvReader::Step> step = r.Read(fields);
      if (!step.ok()) {
        out.push_back("error " + std::to_string(step.status().where().byte_offset) + ": " +
                      step.status().message());
        return out;
      }
      if (step.value() == CsvReader::Step::kEnd) {
        out.push_back("end, " + std::to_string(r.lines_read()) + " lines");
        return out;
      }
      if (step.value() == CsvReader::Step::kNeedMore) {
        EXPECT_LT(i, cuts.size()) << "a finished input never needs more";
        break;
      }
      out.push_back(Describe(fields));
    }
  }
  return out;
}

// A BOM, CRLF, quoted newlines (LF and CRLF), doubled quotes, escapes, multi-byte UTF-8 (2, 3 and
// 4 bytes), an empty quoted field, a blank line and no newline at the end.
constexpr char kTricky[] =
    "\xEF\xBB\xBF"
    "k,v,w\r\n"
    "1,\"two\nlines\",\"say \"\"hi\"\"\"\r\n"
    "2,\"a\\\"b\",caf\xC3\xA9\n"
    "3,\"\xE2\x82\xAC\r\n\xF0\x9F\x98\x80\",\"\"\n"
    "\n"
    "4,x\ry,\"end\"";

TEST(CsvReaderStreamingTest, EverySplitReadsTheWholeInputsRecords) {
  const std::vector<std::string> inputs = {
      kTricky,
      // Reader errors: junk after a closing quote, an unterminated quote, a lone '\r' last.
      "a,b\n\"x\"y,z\n",
      "a,b\n1,\"open\nstill open",
      "a,\"b\"\r",
      "a,b\r",
      "",
      "\xEF\xBB",
  };
  for (const std::string& input : inputs) {
    for (char escape : {'\\', '"'}) {
      CsvOptions o;
      o.escape = escape;
      std::vector<std::string> whole = ReadWhole(input, o);
      ASSERT_FALSE(whole.empty());
      for (size_t cut = 0; cut <= input.size(); ++cut) {
        EXPECT_EQ(ReadInPieces(input, o, {cut}), whole) << "cut at " << cut << " of " << input;
      }
      // Byte by byte: every record spans many chunks.
      std::vector<size_t> every;
      for (size_t i = 1; i < input.size(); ++i) every.push_back(i);
      EXPECT_EQ(ReadInPieces(input, o, every), whole) << input;
    }
  }
  // What the tricky input reads as (so the comparisons above compare something).
  std::vector<std::string> tricky = ReadWhole(kTricky, CsvOptions{});
  ASSERT_EQ(tricky.size(), 7u);
  EXPECT_EQ(tricky[0], "1:1@3[k]1:3@5[v]1:5@7[w]");
  EXPECT_EQ(tricky[1], "2:1@10[1]2:3@12q[two\nlines]3:8@24q[say \"hi\"]");
  EXPECT_EQ(tricky[2], "4:1@38[2]4:3@40q[a\"b]4:10@47[caf\xC3\xA9]");
  EXPECT_EQ(tricky[3], "5:1@53[3]5:3@55q[\xE2\x82\xAC\r\n\xF0\x9F\x98\x80]6:7@67q[]");
  EXPECT_EQ(tricky[4], "7:1@70[]");
  EXPECT_EQ(tricky[5], "8:1@71[4]8:3@73[x\ry]8:7@77q[end]");
  EXPECT_EQ(tricky[6], "end, 8 lines");
  EXPECT_EQ(ReadWhole("a,b\n1,\"open\nstill open", CsvOptions{}).back(),
            "error 6: unterminated quoted field (opened at line 2, column 3)");
}

TEST(CsvReaderStreamingTest, KeepsOnlyTheRecordUnderWay) {
  CsvReader r(CsvOptions{});
  std::vector<CsvField> fields;
  r.Append("1,a\n2,\"b");
  ASSERT_EQ(r.Read(fields).value(), CsvReader::Step::kRecord);
  EXPECT_EQ(r.Read(fields).value(), CsvReader::Step::kNeedMore);
  EXPECT_TRUE(fields.empty());
  EXPECT_EQ(r.bytes_consumed(), 4u);
  EXPECT_EQ(r.lines_read(), 1);
  // Read again only once the input has grown by the 4 bytes kept (linear time for a long record).
  r.Append("\"\n");
  EXPECT_EQ(r.Read(fields).value(), CsvReader::Step::kNeedMore);
  r.Append("3,c\n");
  ASSERT_EQ(r.Read(fields).value(), CsvReader::Step::kRecord);
  EXPECT_EQ(Describe(fields), "2:1@4[2]2:3@6q[b]");
  EXPECT_EQ(r.bytes_consumed(), 10u);
  ASSERT_EQ(r.Read(fields).value(), CsvReader::Step::kRecord);
  EXPECT_EQ(Describe(fields), "3:1@10[3]3:3@12[c]");
  EXPECT_EQ(r.Read(fields).value(), CsvReader::Step::kNeedMore);
  r.Finish();
  EXPECT_EQ(r.Read(fields).value(), CsvReader::Step::kEnd);
  EXPECT_EQ(r.lines_read(), 3);
}

constexpr char kSchema[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};"
    "USE ks;"
    "CREATE TABLE t (k int, c text, l list<int>, ts timestamp, v text, PRIMARY KEY (k, c));";

std::vector<std::string> Rows(Session& s, const std::string& query) {
  std::vector<StatementResult> r = s.Execute(query);
  EXPECT_EQ(r.back().kind, StatementResult::Kind::kRows) << r.back().status.message();
  return CqlshLines(r.back(), " | ");
}

// Good rows, bad values, a wrong field count, a quoted newline, CRLF, UTF-8, an escape, a null.
constexpr char kMixed[] =
    "k,c,l,ts,v\r\n"
    "1,a,\"[1, 2]\",2024-01-02 03:04:05.678000+0000,\"two\nlines\"\r\n"
    "x,b,[3],,bad key\n"
    "2,\xC3\xA9t\xC3\xA9,[4],2024-01-02T03:04:05Z,\"q\\\"q\"\n"
    "3,c,[nope],,bad list\n"
    "4,d\n"
    "5,e,,,null ts\n"
    "6,f,[],not a time,bad ts\n"
    "7,g,[7],,\"caf\xC3\xA9\"\n";

struct Outcome {
  std::vector<std::string> rows;
  int64_t loaded = 0, failed = 0;
  std::vector<std::string> failures;  // "line L, column C: message"
  std::vector<int64_t> offsets;       // the failures' byte offsets (the bulk load's)
  std::string error;                  // the bulk load's stopping error
};

// COPY t<columns> FROM 'f.csv'<with> over the whole file.
Outcome ByCopy(const std::string& csv, const std::string& columns, const std::string& with) {
  SessionOptions options;
  options.read_file = [&](const std::string&) -> StatusOr<std::string> { return csv; };
  Session s(options);
  s.Execute(kSchema);
  StatementResult r = s.Execute("COPY t" + columns + " FROM 'f.csv'" + with + ";").back();
  EXPECT_EQ(r.kind, StatementResult::Kind::kVoid) << r.status.message();
  Outcome o;
  o.rows = Rows(s, "SELECT * FROM t;");
  // "N rows imported from f.csv into ks.t; M rows failed"
  o.loaded = std::strtoll(r.message.c_str(), nullptr, 10);
  o.failed = std::strtoll(r.message.c_str() + r.message.find("; ") + 2, nullptr, 10);
  for (const std::string& w : r.warnings)
    o.failures.push_back(w.substr(std::string("f.csv ").size()));
  return o;
}

Outcome ByBulkLoad(const std::string& csv, const BulkLoadOptions& options,
                   const std::vector<size_t>& cuts) {
  Session s;
  s.Execute(kSchema);
  std::unique_ptr<BulkLoad> load = BulkLoad::Start(s, "ks.t", options).value();
  Outcome o;
  Status st;
  size_t at = 0;
  for (size_t i = 0; i <= cuts.size() && st.ok(); ++i) {
    size_t end = i < cuts.size() ? cuts[i] : csv.size();
    st = load->Append(std::string_view(csv).substr(at, end - at));
    at = end;
  }
  if (st.ok()) st = load->Finish();
  o.error = st.ok() ? "" : st.message();
  o.rows = Rows(s, "SELECT * FROM t;");
  o.loaded = load->rows();
  o.failed = load->failed();
  for (const CsvLoadFailure& f : load->failures()) {
    o.failures.push_back("line " + std::to_string(f.where.line) + ", column " +
                         std::to_string(f.where.column) + ": " + f.message);
    o.offsets.push_back(f.where.byte_offset);
  }
  return o;
}

BulkLoadOptions CsvWithHeader() {
  BulkLoadOptions o;
  o.format = BulkLoadOptions::Format::kCsv;
  o.csv.header = true;
  return o;
}

TEST(CsvBulkLoadTest, EverySplitEqualsCopyFromOfTheWholeFile) {
  Outcome copy = ByCopy(kMixed, "", " WITH HEADER = true");
  EXPECT_EQ(copy.loaded, 4);
  EXPECT_EQ(copy.failed, 4);
  ASSERT_EQ(copy.failures.size(), 4u);
  EXPECT_EQ(copy.failures[0], "line 4, column 1: k: Unable to make int from 'x'");
  EXPECT_EQ(copy.failures[1].substr(0, 21), "line 6, column 5: l: ");
  EXPECT_EQ(copy.failures[2], "line 7, column 1: 2 fields for 5 columns");
  EXPECT_EQ(copy.failures[3].substr(0, 22), "line 9, column 8: ts: ");
  ASSERT_EQ(copy.rows.size(), 4u);
  for (size_t cut = 0; cut <= sizeof(kMixed) - 1; ++cut) {
    Outcome bulk = ByBulkLoad(kMixed, CsvWithHeader(), {cut});
    EXPECT_EQ(bulk.error, "") << cut;
    EXPECT_EQ(bulk.rows, copy.rows) << cut;
    EXPECT_EQ(bulk.loaded, copy.loaded) << cut;
    EXPECT_EQ(bulk.failed, copy.failed) << cut;
    EXPECT_EQ(bulk.failures, copy.failures) << cut;
    EXPECT_EQ(bulk.offsets, std::vector<int64_t>({70, 131, 148, 173})) << cut;
  }
  std::vector<size_t> every;
  for (size_t i = 1; i < sizeof(kMixed) - 1; ++i) every.push_back(i);
  Outcome bytewise = ByBulkLoad(kMixed, CsvWithHeader(), every);
  EXPECT_EQ(bytewise.rows, copy.rows);
  EXPECT_EQ(bytewise.failures, copy.failures);
}

// The loader reuses a record's values and its insert's buffers from record to record: a long
// value, then a null, a bad value, a short value over the long one, each row as its INSERT makes it.
TEST(CsvBulkLoadTest, RecordsAfterRecordsLoadAsTheirInserts) {
  const std::string csv =
      "k,c,l,ts,v\n"
      "1,a long clustering value of many bytes,[1],,a long value of many bytes written first\n"
      "1,b,,,\n"
      "2,c,[2],,\xFF bad\n"
      "2,d,[2],,\"\"\n"
      "1,a long clustering value of many bytes,[3],,short\n";
  Outcome copy = ByCopy(csv, "", " WITH HEADER = true");
  EXPECT_EQ(copy.loaded, 4);
  ASSERT_EQ(copy.failures.size(), 1u);
  EXPECT_EQ(copy.failures[0], "line 4, column 10: v: String didn't validate.");
  Session s;
  s.Execute(kSchema);
  for (const char* insert :
       {"INSERT INTO t (k, c, l, v) VALUES (1, 'a long clustering value of many bytes', [1], "
        "'a long value of many bytes written first');",
        "INSERT INTO t (k, c, l, ts, v) VALUES (1, 'b', null, null, null);",
        "INSERT INTO t (k, c, l, v) VALUES (2, 'd', [2], '');",
        "INSERT INTO t (k, c, l, v) VALUES (1, 'a long clustering value of many bytes', [3], "
        "'short');"}) {
    StatementResult r = s.Execute(insert).back();
    ASSERT_TRUE(r.status.ok()) << r.status.message();
  }
  EXPECT_EQ(copy.rows, Rows(s, "SELECT * FROM t;"));
  EXPECT_EQ(copy.rows.size(), 3u);
}

TEST(CsvBulkLoadTest, AReaderErrorStopsTheLoadAsCopyDoes) {
  const std::string csv = "k,c,l,ts,v\n1,a,[1],,x\n2,b,[2],,\"never closed\n3,c,[3],,y\n";
  Outcome copy = ByCopy(csv, "", " WITH HEADER = true");
  EXPECT_EQ(copy.loaded, 1);
  EXPECT_EQ(copy.failed, 1);
  ASSERT_EQ(copy.failures.size(), 1u);
  EXPECT_EQ(copy.failures[0],
            "line 3, column 10: unterminated quoted field (opened at line 3, column 10) (the load "
            "stopped here)");
  for (size_t cut = 0; cut <= csv.size(); ++cut) {
    Outcome bulk = ByBulkLoad(csv, CsvWithHeader(), {cut});
    EXPECT_EQ(bulk.rows, copy.rows) << cut;
    EXPECT_EQ(bulk.failures, copy.failures) << cut;
    EXPECT_EQ(bulk.offsets, std::vector<int64_t>({31})) << cut;
    EXPECT_EQ(bulk.error,
              "unterminated quoted field (opened at line 3, column 10) (1 row was loaded before "
              "it, 1 row failed)")
        << cut;
  }
}

TEST(CsvBulkLoadTest, OptionsAsCopyTakesThem) {
  // '|' between fields, "'" as the quote, NULL written as NULL, the file's own column order.
  const std::string csv = "v|k|c\n'a|b'|1|x\nNULL|2|y\n";
  Outcome copy =
      ByCopy(csv, " (v, k, c)",
             " WITH DELIMITER = '|' AND QUOTE = '''' AND NULL = 'NULL' AND HEADER = TRUE");
  ASSERT_EQ(copy.loaded, 2) << (copy.failures.empty() ? "" : copy.failures[0]);
  StatusOr<BulkLoadOptions> options = ParseBulkLoadOptionsJson(
      R"({"format": "csv", "header": true, "delimiter": "|", "quote": "'", "null": "NULL",
          "columns": ["v", "k", "c"], "datetimeformat": "%Y-%m-%d %H:%M:%S.%f%z"})");
  ASSERT_TRUE(options.ok()) << options.status().message();
  Outcome bulk = ByBulkLoad(csv, options.value(), {7});
  EXPECT_EQ(bulk.rows, copy.rows);
  EXPECT_EQ(bulk.rows,
            std::vector<std::string>({"1 | x | null | null | a|b", "2 | y | null | null | null"}));
}

TEST(CsvBulkLoadTest, OptionErrors) {
  auto error = [](std::string_view json) {
    StatusOr<BulkLoadOptions> o = ParseBulkLoadOptionsJson(json);
    EXPECT_FALSE(o.ok()) << json;
    return o.ok() ? std::string() : o.status().message() + " @" + o.status().field();
  };
  EXPECT_TRUE(ParseBulkLoadOptionsJson("").ok());
  EXPECT_EQ(ParseBulkLoadOptionsJson("{}").value().format, BulkLoadOptions::Format::kJson);
  EXPECT_EQ(error(R"({"format": "csv", "headers": true})").substr(0, 30),
            "option load.headers: unknown (");
  EXPECT_EQ(error(R"({"format": "xml"})"), "option load.format: must be 'json' or 'csv' @/format");
  EXPECT_EQ(error(R"({"format": "csv", "header": "yes"})"),
            "option load.header: must be true or false @/header");
  EXPECT_EQ(error(R"({"format": "csv", "delimiter": ";;"})"),
            "option load.delimiter: delimiter must be one character, not ';;' @/delimiter");
  EXPECT_EQ(error(R"({"format": "csv", "quote": 1})"),
            "option load.quote: must be a string @/quote");
  EXPECT_EQ(error(R"({"format": "csv", "datetimeformat": "%d/%m/%Y"})").substr(0, 50),
            "option load.datetimeformat: DATETIMEFORMAT '%d/%m/");
  EXPECT_EQ(error(R"({"format": "csv", "columns": []})").substr(0, 39),
            "option load.columns: must name at least");
  EXPECT_EQ(error(R"({"format": "csv", "columns": ["k", 2]})"),
            "option load.columns: must be an array of names @/columns");
  EXPECT_EQ(error(R"({"header": true})"),
            "option load.header: is a CSV option: it needs format 'csv' @/header");
  EXPECT_EQ(ParseBulkLoadOptionsJson(R"({"format": "csv", "header": )").status().code(),
            ErrorCode::kMalformedJson);
  // An unknown column is an error of the start.
  Session s;
  s.Execute(kSchema);
  BulkLoadOptions o = CsvWithHeader();
  o.csv.columns = {"k", "nope"};
  EXPECT_EQ(BulkLoad::Start(s, "ks.t", o).status().message(), "Undefined column name nope");
  // COPY's errors are located at the value.
  SessionOptions with_files;
  with_files.read_file = [](const std::string&) -> StatusOr<std::string> { return std::string(); };
  Session copy(with_files);
  copy.Execute(kSchema);
  Status multi = copy.Execute("COPY t FROM 'f.csv'\n WITH DELIMITER = ';;';").back().status;
  EXPECT_EQ(multi.message(), "delimiter must be one character, not ';;'");
  EXPECT_EQ(multi.where().line, 2);
  EXPECT_EQ(multi.where().column, 19);
  Status header = copy.Execute("COPY t FROM 'f.csv' WITH HEADER = 'yes';").back().status;
  EXPECT_EQ(header.message(), "HEADER is true or false, not 'yes'");
  EXPECT_EQ(header.where().column, 35);
  Status unknown = copy.Execute("COPY t FROM 'f.csv' WITH HEADERS = true;").back().status;
  EXPECT_EQ(unknown.message(), "Unrecognized COPY FROM options: headers");
  EXPECT_EQ(unknown.where().column, 6);
}

TEST(CsvBulkLoadTest, AViewReceivesTheRows) {
  Session s;
  s.Execute(std::string(kSchema) +
            "CREATE MATERIALIZED VIEW by_v AS SELECT k, c, v FROM t WHERE v IS NOT NULL AND k IS "
            "NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);");
  BulkLoadOptions o;
  o.format = BulkLoadOptions::Format::kCsv;
  o.csv.columns = {"k", "c", "v"};
  std::unique_ptr<BulkLoad> load = BulkLoad::Start(s, "ks.t", o).value();
  ASSERT_TRUE(load->Append("1,a,x\n2,b,").ok());
  ASSERT_TRUE(load->Append("\n3,c,y\n").ok());
  ASSERT_TRUE(load->Finish().ok());
  EXPECT_EQ(load->rows(), 3);
  std::vector<std::string> view = Rows(s, "SELECT v, k, c FROM by_v;");
  std::sort(view.begin(), view.end());
  EXPECT_EQ(view, std::vector<std::string>({"x | 1 | a", "y | 3 | c"}));  // a null v is left out
  EXPECT_FALSE(BulkLoad::Start(s, "ks.by_v", o).ok());
}

TEST(CsvBulkLoadTest, ProgressAsJson) {
  Session s;
  s.Execute(kSchema);
  BulkLoadOptions o;
  o.format = BulkLoadOptions::Format::kCsv;
  o.csv.columns = {"k", "c"};
  std::unique_ptr<BulkLoad> load = BulkLoad::Start(s, "ks.t", o).value();
  ASSERT_TRUE(load->Append("1,a\nz,\"b\"\n3,\"c").ok());
  EXPECT_EQ(BulkLoadProgressJson(*load),
            "{\"rows\":1,\"failed\":1,\"bytes_consumed\":10,\"lines\":2,\"failures\":[{\"line\":2,"
            "\"column\":1,\"byte_offset\":4,\"message\":\"k: Unable to make int from 'z'\"}]}");
  ASSERT_TRUE(load->Append("\"").ok());
  ASSERT_TRUE(load->Finish().ok());
  EXPECT_EQ(load->rows(), 2);
  EXPECT_EQ(load->lines(), 3);
  EXPECT_EQ(load->bytes_consumed(), 15u);
  // A JSON load: no failures, the lines fed.
  std::unique_ptr<BulkLoad> json = BulkLoad::Start(s, "ks.t").value();
  ASSERT_TRUE(json->Append("{\"k\": 9, \"c\": \"j\"}\n{\"k\": 10, \"c\": \"j\"}").ok());
  ASSERT_TRUE(json->Finish().ok());
  EXPECT_EQ(BulkLoadProgressJson(*json),
            "{\"rows\":2,\"failed\":0,\"bytes_consumed\":38,\"lines\":2,\"failures\":[]}");
}

}  // namespace
}  // namespace partplay::cql
