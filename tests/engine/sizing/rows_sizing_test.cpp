// Sizing a table of a live CQL session from the rows it holds (sizing/rows_sizing.h): each
// partition's rows, values and bytes as the store counts them, every figure worked out by hand
// below from the rows inserted; the schema form's request measured from them, which sizes the
// measured mean exactly when nothing is rounded; rows loaded as JSON measured as the same rows
// INSERTed; a materialized view; the errors. Authored.
#include "partplay/sizing/rows_sizing.h"

#include <gtest/gtest.h>
#include <simdjson.h>

#include <cmath>
#include <map>
#include <string>

#include "partplay/cassandra/session.h"
#include "partplay/sizing/sizing_request.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay {
namespace {

constexpr const char* kKeyspace =
    "CREATE KEYSPACE iot WITH replication = {'class': 'SimpleStrategy', "
    "'replication_factor': 3};\n";

// Readings per sensor and day; `site` is static (once per partition).
// Nc = 6, Npk = 3 (sensor, day, ts), Ns = 1: Nv = Nr × 2 + 1.
constexpr const char* kReadings =
    "CREATE TABLE iot.readings (sensor text, day date, ts timestamp, value double, note text, "
    "site text STATIC, PRIMARY KEY ((sensor, day), ts));\n";

// Runs `script`; every statement must succeed.
void RunScript(cql::Session& s, const std::string& script) {
  for (const cql::StatementResult& r : s.Execute(script)) {
    EXPECT_NE(r.kind, cql::StatementResult::Kind::kError) << r.status.message();
  }
}

// The readings of 3 partitions: s1 (3 rows, site 'north'), s2 (1 row, no note), s10 (2 rows).
void LoadReadings(cql::Session& s) {
  std::string script = std::string(kKeyspace) + kReadings +
                       "INSERT INTO iot.readings (sensor, day, ts, value, note, site) VALUES "
                       "('s1', '2024-01-01', '2024-01-01 00:00:00+0000', 1.5, 'ok', 'north');\n"
                       "INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES "
                       "('s1', '2024-01-01', '2024-01-01 00:01:00+0000', 1.5, 'ok');\n"
                       "INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES "
                       "('s1', '2024-01-01', '2024-01-01 00:02:00+0000', 2.5, 'hi there');\n"
                       "INSERT INTO iot.readings (sensor, day, ts, value) VALUES "
                       "('s2', '2024-01-01', '2024-01-01 00:00:00+0000', 3.0);\n"
                       "INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES "
                       "('s10', '2024-01-02', '2024-01-02 00:00:00+0000', 4.0, 'a');\n"
                       "INSERT INTO iot.readings (sensor, day, ts, value, note) VALUES "
                       "('s10', '2024-01-02', '2024-01-02 00:01:00+0000', 5.0, 'bb');\n";
  RunScript(s, script);
}

const MeasuredColumn* Column(const TableRowsSizing& r, std::string_view name) {
  for (const MeasuredColumn& c : r.columns) {
    if (c.name == name) return &c;
  }
  return nullptr;
}

TEST(RowsSizing, EachPartitionAsTheStoreHoldsIt) {
  cql::Session s;
  LoadReadings(s);
  StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = "iot.readings"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->keyspace, "iot");
  EXPECT_EQ(r->table, "readings");
  EXPECT_EQ(r->partitions, 3u);
  EXPECT_EQ(r->rows, 6u);
  EXPECT_EQ(r->nc, 6);
  EXPECT_EQ(r->npk, 3);
  EXPECT_EQ(r->ns, 1);
  // St = key + static + each row's ts 8 + value 8 + note + Nv × 8:
  //   s1:  (2 + 4) + 5 + (16 + 2) + (16 + 2) + (16 + 8) + (3 × 2 + 1) × 8 = 127
  //   s10: (3 + 4) + 0 + (16 + 1) + (16 + 2) + (2 × 2 + 1) × 8            = 82
  //   s2:  (2 + 4) + 0 + (16 + 0) + (1 × 2 + 1) × 8                        = 46
  ASSERT_EQ(r->largest.size(), 3u);
  EXPECT_EQ(r->largest[0].key, R"(["s1","2024-01-01"])");
  EXPECT_EQ(r->largest[0].rows, 3);
  EXPECT_EQ(r->largest[0].nv, 7);
  EXPECT_EQ(r->largest[0].st_bytes, 127);
  EXPECT_EQ(r->largest[1].key, R"(["s10","2024-01-02"])");
  EXPECT_EQ(r->largest[1].st_bytes, 82);
  EXPECT_EQ(r->largest[2].key, R"(["s2","2024-01-01"])");
  EXPECT_EQ(r->largest[2].nv, 3);
  EXPECT_EQ(r->largest[2].st_bytes, 46);

  EXPECT_EQ(r->measured.partitions, 3u);
  EXPECT_EQ(r->measured.values_per_row, 2);
  EXPECT_EQ(r->measured.nr.min, 1);
  EXPECT_EQ(r->measured.nr.p50, 2);
  EXPECT_EQ(r->measured.nr.max, 3);
  EXPECT_EQ(r->measured.nr.total, 6);
  // Nv counts the static cell once: 7, 5, 3 (not Nr × 2).
  EXPECT_EQ(r->measured.nv.max, 7);
  EXPECT_EQ(r->measured.nv.min, 3);
  EXPECT_EQ(r->measured.st_bytes.max, 127);
  EXPECT_EQ(r->measured.st_bytes.total, 127 + 82 + 46);
  // The largest row as a Cosmos DB item: s1's key 6 + static 5 + its 'hi there' row 24.
  for (const DataThreshold& t : r->measured.thresholds) EXPECT_EQ(t.partitions, 0u) << t.code;

  // Columns: the key and the static column per partition, the others per row; a null is 0 bytes.
  const MeasuredColumn* sensor = Column(r.value(), "sensor");
  ASSERT_NE(sensor, nullptr);
  EXPECT_TRUE(sensor->per_partition);
  EXPECT_FALSE(sensor->fixed_bytes.has_value());
  EXPECT_EQ(sensor->values, 3u);
  EXPECT_EQ(sensor->bytes, 7);
  EXPECT_DOUBLE_EQ(sensor->avg_bytes, 7.0 / 3);
  const MeasuredColumn* site = Column(r.value(), "site");
  ASSERT_NE(site, nullptr);
  EXPECT_EQ(site->role, ColumnRole::kStatic);
  EXPECT_EQ(site->values, 1u);
  EXPECT_EQ(site->nulls, 2u);
  EXPECT_DOUBLE_EQ(site->avg_bytes, 5.0 / 3);
  const MeasuredColumn* note = Column(r.value(), "note");
  ASSERT_NE(note, nullptr);
  EXPECT_FALSE(note->per_partition);
  EXPECT_EQ(note->values, 5u);
  EXPECT_EQ(note->nulls, 1u);
  EXPECT_EQ(note->bytes, 15);
  EXPECT_DOUBLE_EQ(note->avg_bytes, 2.5);
  const MeasuredColumn* ts = Column(r.value(), "ts");
  ASSERT_NE(ts, nullptr);
  EXPECT_EQ(ts->role, ColumnRole::kClustering);
  EXPECT_EQ(ts->fixed_bytes, 8);
  EXPECT_EQ(ts->values, 6u);
  EXPECT_EQ(ts->avg_bytes, 8);

  // The form's request: the mean rows (2), the largest as the worst case (3), the variable-width
  // columns' averages to 2 decimals, the partitions; the keyspace's replication.
  const TableSizingRequest& q = r->request;
  EXPECT_EQ(q.table, "iot.readings");
  EXPECT_EQ(q.rows_per_partition.value(), 2);
  ASSERT_TRUE(q.worst_rows_per_partition.has_value());
  EXPECT_EQ(q.worst_rows_per_partition->value(), 3);
  EXPECT_EQ(q.partitions, 3);
  EXPECT_FALSE(q.replication_factor.has_value());
  std::vector<std::pair<std::string, double>> want = {
      {"sensor", 2.33}, {"note", 2.5}, {"site", 1.67}};
  EXPECT_EQ(q.avg_sizes, want);
  EXPECT_NE(q.cql.find("CREATE KEYSPACE iot"), std::string::npos) << q.cql;
  EXPECT_NE(q.cql.find("CREATE TABLE iot.readings"), std::string::npos) << q.cql;
  // The rounding is said, and the mean.
  ASSERT_GE(r->notes.size(), 2u);
  EXPECT_NE(r->notes[0].find("the mean over 3 partitions (6 rows), 2"), std::string::npos)
      << r->notes[0];
  EXPECT_NE(r->notes[1].find("rounded to 2 decimals"), std::string::npos) << r->notes[1];
}

TEST(RowsSizing, TheRequestSizesTheMeasuredMean) {
  cql::Session s;
  RunScript(s,
            std::string(kKeyspace) +
                "CREATE TABLE iot.t (k text, c int, v text, s text STATIC, PRIMARY KEY (k, c));\n"
                "INSERT INTO iot.t (k, c, v, s) VALUES ('aa', 1, 'xyz', 'hello');\n"
                "INSERT INTO iot.t (k, c, v) VALUES ('aa', 2, 'x');\n"
                "INSERT INTO iot.t (k, c, v) VALUES ('bb', 1, 'xyz');\n"
                "INSERT INTO iot.t (k, c, v) VALUES ('bb', 2, 'xyz');\n");
  StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = "iot.t"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  // aa: 2 + 5 + (4 + 3) + (4 + 1) + (2 + 1) × 8 = 43; bb: 2 + 0 + 7 + 7 + 24 = 40.
  EXPECT_EQ(r->measured.st_bytes.mean, 41.5);
  EXPECT_FALSE(r->request.worst_rows_per_partition.has_value()) << "every partition has 2 rows";
  EXPECT_EQ(r->notes.size(), 1u) << "nothing rounded, no null in a fixed-width column";

  // The formulas on the measured averages: 2 + 2.5 + 2 × (4 + 2.5) + (2 × 1 + 1) × 8 = 41.5.
  StatusOr<TableSizingReport> sized = SizeTable(r->request);
  ASSERT_TRUE(sized.ok()) << sized.status().message();
  EXPECT_EQ(sized->average.terms.st_bytes, r->measured.st_bytes.mean);
  EXPECT_EQ(sized->average.terms.nv, r->measured.nv.mean);
  EXPECT_EQ(sized->input.replication_factor, 3) << "the keyspace's, from its CREATE KEYSPACE";

  // The same through JSON: the report's request is one SizeTableJson reads.
  StatusOr<std::string> json = SizeTableFromRowsJson(s, R"({"table": "iot.t"})");
  ASSERT_TRUE(json.ok()) << json.status().message();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(json.value()).get(doc));
  EXPECT_EQ(doc["partitions"].get_uint64().value_unsafe(), 2u);
  EXPECT_EQ(doc["rows"].get_uint64().value_unsafe(), 4u);
  EXPECT_EQ(doc["measured"]["st_bytes"]["max"].get_double().value_unsafe(), 43);
  EXPECT_EQ(doc["largest"].at(0)["key"].get_string().value_unsafe(), R"(["aa"])");
  EXPECT_TRUE(doc["request"]["worst_rows_per_partition"].is_null());
  std::string request = simdjson::to_string(doc["request"].value_unsafe());
  StatusOr<std::string> report = SizeTableJson(request);
  ASSERT_TRUE(report.ok()) << report.status().message() << "\n" << request;
  simdjson::dom::parser parser2;
  simdjson::dom::element sized_doc;
  ASSERT_FALSE(parser2.parse(report.value()).get(sized_doc));
  EXPECT_EQ(sized_doc["average"]["terms"]["st_bytes"].get_double().value_unsafe(), 41.5);
}

TEST(RowsSizing, RowsLoadedAsJsonMeasureAsTheSameRowsInserted) {
  cql::Session inserted;
  LoadReadings(inserted);
  cql::Session loaded;
  RunScript(loaded, std::string(kKeyspace) + kReadings);
  // INSERT JSON sets a column it omits to null (DEFAULT NULL), the static site too: the row
  // carrying it comes last.
  StatusOr<int64_t> n = loaded.LoadJson(
      "iot.readings",
      R"({"sensor": "s10", "day": "2024-01-02", "ts": "2024-01-02 00:01:00+0000", "value": 5.0, "note": "bb"}
{"sensor": "s2", "day": "2024-01-01", "ts": "2024-01-01 00:00:00+0000", "value": 3.0}
{"sensor": "s1", "day": "2024-01-01", "ts": "2024-01-01 00:02:00+0000", "value": 2.5, "note": "hi there"}
{"sensor": "s10", "day": "2024-01-02", "ts": "2024-01-02 00:00:00+0000", "value": 4.0, "note": "a"}
{"sensor": "s1", "day": "2024-01-01", "ts": "2024-01-01 00:01:00+0000", "value": 1.5, "note": "ok"}
{"sensor": "s1", "day": "2024-01-01", "ts": "2024-01-01 00:00:00+0000", "value": 1.5, "note": "ok", "site": "north"}
)");
  ASSERT_TRUE(n.ok()) << n.status().message();
  EXPECT_EQ(n.value(), 6);
  StatusOr<std::string> a = SizeTableFromRowsJson(inserted, R"({"table": "iot.readings"})");
  StatusOr<std::string> b = SizeTableFromRowsJson(loaded, R"({"table": "iot.readings"})");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value(), b.value());
}

TEST(RowsSizing, AMaterializedViewWithItsBaseTable) {
  cql::Session s;
  LoadReadings(s);
  RunScript(s,
            "CREATE MATERIALIZED VIEW iot.by_day AS SELECT sensor, day, ts, value FROM "
            "iot.readings WHERE day IS NOT NULL "
            "AND sensor IS NOT NULL AND ts IS NOT NULL PRIMARY KEY (day, sensor, ts);");
  StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = "iot.by_day"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->view);
  // Two days: 2024-01-01 holds s1's 3 rows and s2's 1, 2024-01-02 s10's 2.
  EXPECT_EQ(r->partitions, 2u);
  EXPECT_EQ(r->rows, 6u);
  EXPECT_EQ(r->measured.nr.max, 4);
  EXPECT_NE(r->request.cql.find("CREATE TABLE iot.readings"), std::string::npos);
  EXPECT_NE(r->request.cql.find("CREATE MATERIALIZED VIEW iot.by_day"), std::string::npos);
  StatusOr<TableSizingReport> sized = SizeTable(r->request);
  ASSERT_TRUE(sized.ok()) << sized.status().message() << "\n" << r->request.cql;
  EXPECT_EQ(sized->partition_key, std::vector<std::string>{"day"});
}

TEST(RowsSizing, AUserTypeFromTheKeyspace) {
  cql::Session s;
  RunScript(s, std::string(kKeyspace) +
                   "CREATE TYPE iot.point (x double, y double);\n"
                   "CREATE TABLE iot.track (id int, n int, at frozen<point>, tag text, "
                   "PRIMARY KEY (id, n));\n"
                   "INSERT INTO iot.track (id, n, at, tag) VALUES (1, 1, {x: 1, y: 2}, 'abcd');\n");
  StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = "iot.track"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  // A user type of fixed-width fields is fixed: 2 × (4 + 8) = 24 bytes, as its value holds.
  const MeasuredColumn* at = Column(r.value(), "at");
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(at->fixed_bytes, 24);
  EXPECT_EQ(at->bytes, 24);
  std::vector<std::pair<std::string, double>> want = {{"tag", 4}};
  EXPECT_EQ(r->request.avg_sizes, want);
  StatusOr<TableSizingReport> sized = SizeTable(r->request);
  ASSERT_TRUE(sized.ok()) << sized.status().message() << "\n" << r->request.cql;
  EXPECT_EQ(sized->average.terms.st_bytes, r->measured.st_bytes.mean);
}

TEST(RowsSizing, NullsInAFixedWidthColumnAreSaid) {
  cql::Session s;
  RunScript(s, std::string(kKeyspace) +
                   "CREATE TABLE iot.t (k int, c int, v bigint, PRIMARY KEY (k, c));\n"
                   "INSERT INTO iot.t (k, c, v) VALUES (1, 1, 10);\n"
                   "INSERT INTO iot.t (k, c) VALUES (1, 2);\n");
  StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = "t"});
  ASSERT_FALSE(r.ok()) << "no current keyspace: t alone names nothing";
  RunScript(s, "USE iot;");
  r = SizeTableFromRows(s, {.table = "t"});
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->notes.size(), 2u);
  EXPECT_EQ(r->notes[1],
            "v (bigint) is null in 1 of 2 rows: the formulas count its 8 bytes in every row, the "
            "measured St none for a null.");
  // 4 + (4 + 8) + (4 + 0) + 2 × 8 = 36; the formulas say 4 + 2 × 12 + 16 = 44.
  EXPECT_EQ(r->measured.st_bytes.max, 36);
  EXPECT_TRUE(r->request.avg_sizes.empty());
}

TEST(RowsSizing, QuotedNamesWithDotsAndCapitals) {
  cql::Session s;
  RunScript(s,
            "CREATE KEYSPACE \"a.b\" WITH replication = {'class': 'SimpleStrategy', "
            "'replication_factor': 1};\n"
            "CREATE TABLE \"a.b\".\"Log.Lines\" (\"Id\" int, n int, body text, "
            "PRIMARY KEY (\"Id\", n));\n"
            "INSERT INTO \"a.b\".\"Log.Lines\" (\"Id\", n, body) VALUES (1, 1, 'abc');\n");
  // As the session lists it, and as CQL writes it.
  for (const char* name : {"a.b.Log.Lines", "\"a.b\".\"Log.Lines\""}) {
    StatusOr<TableRowsSizing> r = SizeTableFromRows(s, {.table = name});
    ASSERT_TRUE(r.ok()) << name << ": " << r.status().message();
    EXPECT_EQ(r->table, "Log.Lines");
    EXPECT_EQ(r->request.table, "\"a.b\".\"Log.Lines\"");
    StatusOr<TableSizingReport> sized = SizeTable(r->request);
    ASSERT_TRUE(sized.ok()) << sized.status().message() << "\n" << r->request.cql;
    // 4 + (4 + 3) + 1 × 8 = 19, and the formulas on the measured averages say the same.
    EXPECT_EQ(sized->average.terms.st_bytes, 19);
    EXPECT_EQ(r->measured.st_bytes.max, 19);
  }
}

TEST(RowsSizing, Errors) {
  cql::Session s;
  LoadReadings(s);
  StatusOr<TableRowsSizing> unknown = SizeTableFromRows(s, {.table = "iot.nope"});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), ErrorCode::kCqlUnknown);
  EXPECT_NE(unknown.status().message().find("nope"), std::string::npos);

  RunScript(s, "CREATE TABLE iot.empty (k int PRIMARY KEY, v text);");
  StatusOr<TableRowsSizing> empty = SizeTableFromRows(s, {.table = "iot.empty"});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.status().code(), ErrorCode::kInvalidState);
  EXPECT_EQ(empty.status().message(),
            "iot.empty holds no rows to measure: insert rows or load a file into it first");

  for (const char* bad : {R"({})", R"({"table": ""})", R"({"table": 3})",
                          R"({"table": "iot.readings", "max_examples": -1})",
                          R"({"table": "iot.readings", "extra": 1})"}) {
    StatusOr<std::string> r = SizeTableFromRowsJson(s, bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), ErrorCode::kBadOption) << bad;
  }
  StatusOr<std::string> missing = SizeTableFromRowsJson(s, "{}");
  EXPECT_EQ(missing.status().field(), "/table");
  StatusOr<std::string> malformed = SizeTableFromRowsJson(s, R"({"table": )");
  ASSERT_FALSE(malformed.ok());
  EXPECT_EQ(malformed.status().code(), ErrorCode::kMalformedJson);

  // max_examples bounds the largest listed.
  StatusOr<TableRowsSizing> one =
      SizeTableFromRows(s, {.table = "iot.readings", .max_examples = 1});
  ASSERT_TRUE(one.ok());
  ASSERT_EQ(one->largest.size(), 1u);
  EXPECT_EQ(one->largest[0].st_bytes, 127);
}

TEST(RowsSizing, DataSizingTakesAPartitionsMeasuredValues) {
  // Nv given per partition (a CQL partition's cells, statics included) wins over rows × per row.
  StatusOr<DataSizingReport> d =
      SizeFromData({{"[\"a\"]", 3, 300, 0, 7}, {"[\"b\"]", 1, 90}}, {.values_per_row = 2});
  ASSERT_TRUE(d.ok());
  EXPECT_EQ(d->nv.max, 7);
  EXPECT_EQ(d->nv.min, 2);
  EXPECT_FALSE(SizeFromData({{"[\"a\"]", 1, 1, 0, INFINITY}}, {}).ok());
}

TEST(RowsSizing, ScriptTablesSayWhichColumnsATimeBucketCanComeFrom) {
  StatusOr<std::string> json = SizingTablesJson(std::string(kKeyspace) + kReadings);
  ASSERT_TRUE(json.ok()) << json.status().message();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_FALSE(parser.parse(json.value()).get(doc));
  simdjson::dom::array columns;
  ASSERT_FALSE(doc["tables"].at(0)["columns"].get(columns)) << json.value();
  std::map<std::string, bool> bucket;
  for (simdjson::dom::element c : columns) {
    std::string_view name;
    bool time_bucket = false;
    ASSERT_FALSE(c["name"].get(name));
    ASSERT_FALSE(c["time_bucket"].get(time_bucket)) << json.value();
    bucket[std::string(name)] = time_bucket;
  }
  // Only a date, timestamp or timeuuid clustering column: ts, not the partition key's day.
  std::map<std::string, bool> want = {{"sensor", false}, {"day", false},  {"ts", true},
                                      {"value", false},  {"note", false}, {"site", false}};
  EXPECT_EQ(bucket, want);
}

}  // namespace
}  // namespace partplay
