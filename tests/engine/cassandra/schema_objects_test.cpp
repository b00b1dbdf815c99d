// A whole DESCRIBE dump: user-defined types, tuples, duration and counter columns, secondary
// indexes (queries on an indexed column without ALLOW FILTERING), materialized views kept up to
// date on every base write (compared with the same query over the base table plus Cassandra's
// rules), statements accepted as not modelled, and sizing any table of the dump.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/value.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay::cql {
namespace {



std::string Error(Session& s, std::string_view statement) { return ErrorAt(s, statement).message; }


TEST(CqlUserTypesTest, NestedFrozenTypesTuplesAndDurationsRoundTrip) {
  Session s;
  StatementResult r = Last(s, std::string(kKeyspace) + R"(
    CREATE TYPE address (street text, zip int, geo frozen<tuple<double, double>>);
    CREATE TYPE person (name text, home frozen<address>, tags frozen<set<text>>);
    CREATE TABLE t (k frozen<person> PRIMARY KEY, d duration, p tuple<int, text>, a address);
    INSERT INTO t (k, d, p, a) VALUES ({name: 'Ann', home: {street: 'Main', zip: 1, geo: (1.5, -2)},
        tags: {'b', 'a'}}, 1y2mo3w4d5h6m7s8ms9us10ns, (1, 'x'), {zip: 7});
    INSERT INTO t (k, d) VALUES ({name: 'Bob'}, -P1DT2H);
    SELECT k, d, p, a FROM t WHERE k = {name: 'Ann', home: {street: 'Main', zip: 1, geo: (1.5, -2)}, tags: {'a', 'b'}};)");
  EXPECT_EQ(Rows(r), std::vector<std::string>(
                         {"{name: 'Ann', home: {street: 'Main', zip: 1, geo: (1.5, -2)}, tags: "
                          "{'a', 'b'}} | 1y2mo25d5h6m7s8ms9us10ns | (1, 'x') | {street: null, "
                          "zip: 7, geo: null}"}));
  StatementResult bob = Last(s, "SELECT d, token(k) FROM t WHERE k = {name: 'Bob'};");
  ASSERT_EQ(Rows(bob).size(), 1u);
  EXPECT_EQ(Rows(bob)[0].substr(0, 6), "-1d2h ");
  // DESCRIBE writes the types before the tables, in creation order.
  StatementResult d = Last(s, "DESCRIBE KEYSPACE ks;");
  EXPECT_NE(d.message.find("CREATE TYPE ks.address (\n    street text,\n    zip int,\n    geo "
                           "frozen<tuple<double, double>>\n);\n\nCREATE TYPE ks.person"),
            std::string::npos)
      << d.message;
  EXPECT_NE(d.message.find("    a address,\n    d duration,\n    p frozen<tuple<int, text>>"),
            std::string::npos)
      << d.message;
}

TEST(CqlUserTypesTest, InsertJsonAndBulkLoadsReadTuplesTypesAndDurations) {
  Session s;
  Last(s, std::string(kKeyspace) +
              "CREATE TYPE point (x int, \"Y\" text);"
              "CREATE TABLE t (k int PRIMARY KEY, p frozen<point>, u tuple<int, text>, d duration);"
              "INSERT INTO t JSON '{\"k\": 1, \"p\": {\"x\": 2, \"\\\"Y\\\"\": \"b\"}, "
              "\"u\": [3, \"c\"], \"d\": \"1h\"}';");
  ASSERT_TRUE(s.LoadJson("ks.t", R"({"k": 2, "p": {"X": 5}, "u": [4, null], "d": "P2D"})").ok());
  EXPECT_EQ(Rows(Last(s, "SELECT k, p, u, d FROM t;")),
            std::vector<std::string>({"1 | {x: 2, \"Y\": 'b'} | (3, 'c') | 1h",
                                      "2 | {x: 5, \"Y\": null} | (4, null) | 2d"}));
  EXPECT_EQ(s.LoadJson("ks.t", R"({"k": 3, "u": [1]})").status().message(),
            "Error decoding JSON value for u: Tuple is missing items (expected 2): [1]");
  EXPECT_EQ(s.LoadJson("ks.t", R"({"k": 3, "p": {"z": 1}})").status().message(),
            "Error decoding JSON value for p: Unknown field 'z' in value of user defined type "
            "point");
}

TEST(CqlUserTypesTest, CassandraMessages) {
  Session s;
  Last(s, std::string(kKeyspace) + "CREATE TYPE address (street text);");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k int PRIMARY KEY, v adress)"), "Unknown type ks.adress");
  std::vector<StatementResult> located =
      s.Execute("CREATE TABLE t (k int PRIMARY KEY,\n v adress)");
  EXPECT_EQ(located.back().status.where().line, 2);
  EXPECT_EQ(located.back().status.where().column, 4);
  EXPECT_EQ(Error(s, "CREATE TYPE address (x int)"),
            "A user type with name 'address' already exists");
  EXPECT_EQ(Error(s, "CREATE TYPE a2 (x int, x text)"), "Duplicate field name 'x' in type 'a2'");
  EXPECT_EQ(Error(s, "CREATE TYPE a3 (x counter)"), "A user type cannot contain counters");
  EXPECT_EQ(Error(s, "CREATE TYPE a4 (x address)"), "A user type cannot contain non-frozen UDTs");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k address PRIMARY KEY)"),
            "Invalid non-frozen user-defined type for PRIMARY KEY component k");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k duration PRIMARY KEY)"),
            "duration type is not supported for PRIMARY KEY column 'k'");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k int, c frozen<tuple<int, duration>>, PRIMARY KEY (k, c))"),
            "duration type is not supported for PRIMARY KEY column 'c'");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k counter PRIMARY KEY)"),
            "counter type is not supported for PRIMARY KEY column 'k'");
  EXPECT_EQ(Error(s, "CREATE TABLE t (k int PRIMARY KEY, c counter, v int)"),
            "Cannot mix counter and non counter columns in the same table");
  Last(s, "CREATE TABLE t (k int PRIMARY KEY, a frozen<address>, p tuple<int, int>, d duration);");
  EXPECT_EQ(Error(s, "INSERT INTO t (k, a) VALUES (1, {city: 'x'})"),
            "Unknown field 'city' in value of user defined type address");
  EXPECT_EQ(Error(s, "INSERT INTO t (k, p) VALUES (1, (1, 2, 3))"),
            "Invalid tuple literal for p: too many elements. Type frozen<tuple<int, int>> expects "
            "2 but got 3");
  EXPECT_EQ(Error(s, "INSERT INTO t (k, p) VALUES (1, 5)"),
            "Invalid INTEGER constant (5) for \"p\" of type frozen<tuple<int, int>>");
  EXPECT_EQ(Error(s, "INSERT INTO t (k, d) VALUES (1, 5)"),
            "Invalid INTEGER constant (5) for \"d\" of type duration");
  EXPECT_EQ(Error(s, "INSERT INTO t (k, a) VALUES (1, (1, 2))"),
            "Invalid tuple type literal for a of type frozen<address>");
  EXPECT_EQ(Error(s, "DROP TYPE address"),
            "Cannot drop user type ks.address as it is still used by table ks.t");
}

TEST(CqlDurationTest, EncodingAndRendering) {
  Duration d;
  ASSERT_TRUE(DecodeDuration(EncodeDuration({1, 2, 3}), d));
  EXPECT_EQ(d.months, 1);
  EXPECT_EQ(d.days, 2);
  EXPECT_EQ(d.nanos, 3);
  // Zig-zag vints: 0 -> 00, -1 -> 01, 1 -> 02; 64 (zig-zag 128) takes two bytes, 0x80 0x80.
  EXPECT_EQ(EncodeDuration({0, -1, 64}), std::string("\x00\x01\x80\x80", 4));
  Duration big{INT32_MIN, INT32_MAX, INT64_MIN};
  ASSERT_TRUE(DecodeDuration(EncodeDuration(big), d));
  EXPECT_EQ(d.months, INT32_MIN);
  EXPECT_EQ(d.nanos, INT64_MIN);
  EXPECT_EQ(EncodeDuration(big).size(), 5u + 5u + 9u);
  EXPECT_FALSE(DecodeDuration(std::string("\xff", 1), d));
  EXPECT_EQ(FormatDuration({14, 3, 3723004005006}), "1y2mo3d1h2m3s4ms5us6ns");
  EXPECT_EQ(FormatDuration({0, 0, 0}), "");
  EXPECT_EQ(FormatDuration({0, -1, 0}), "-1d");
  CqlType type = CqlType::Native(TypeKind::kDuration);
  StatusOr<Bytes> iso = ValueFromString(type, "P1Y2M3DT4H5M6S");
  ASSERT_TRUE(iso.ok());
  EXPECT_EQ(FormatCqlsh(type, iso.value()), "1y2mo3d4h5m6s");
  EXPECT_EQ(FormatCqlsh(type, ValueFromString(type, "P2W").value()), "14d");
  EXPECT_FALSE(ValueFromString(type, "1x").ok());
  EXPECT_FALSE(ValueFromString(type, "P").ok());
  EXPECT_EQ(ValueFromString(type, "99999999999y").status().message(),
            "Invalid duration. The total number of months must be less or equal to 2147483647");
}

TEST(CqlCounterTest, IncrementsAndCassandraMessages) {
  Session s;
  StatementResult r = Last(s, std::string(kKeyspace) +
                                  "CREATE TABLE c (k text PRIMARY KEY, n counter, m counter);"
                                  "UPDATE c SET n = n + 5, m = m - 2 WHERE k = 'a';"
                                  "UPDATE c SET n = n - 7 WHERE k = 'a';"
                                  "SELECT k, n, m FROM c;");
  EXPECT_EQ(Rows(r), std::vector<std::string>({"a | -2 | -2"}));
  EXPECT_EQ(Error(s, "INSERT INTO c (k, n) VALUES ('b', 1)"),
            "INSERT statements are not allowed on counter tables, use UPDATE instead");
  EXPECT_EQ(Error(s, "UPDATE c SET n = 3 WHERE k = 'a'"),
            "Cannot set the value of counter column n (counters can only be "
            "incremented/decremented, not set)");
}

TEST(CqlIndexTest, IndexedColumnsNeedNoAllowFilteringAndKeepTokenOrder) {
  Session s;
  std::string script = std::string(kKeyspace) +
                       "CREATE TABLE t (k int, c int, v text, w int, s set<int>, PRIMARY KEY (k, "
                       "c));"
                       "CREATE INDEX ON t (v);"
                       "CREATE INDEX s_idx ON t (s);";
  for (int k = 0; k < 20; ++k) {
    script += "INSERT INTO t (k, c, v, w, s) VALUES (" + std::to_string(k) + ", " +
              std::to_string(k % 3) + ", '" + (k % 2 ? "odd" : "even") + "', " + std::to_string(k) +
              ", {" + std::to_string(k % 4) + "});";
  }
  Last(s, script);
  // The index answers v = 'odd' in the order of a filtering scan: by token, then clustering.
  StatementResult indexed = Last(s, "SELECT k, c FROM t WHERE v = 'odd';");
  StatementResult filtered = Last(s, "SELECT k, c FROM t WHERE v = 'odd' ALLOW FILTERING;");
  EXPECT_EQ(Rows(indexed).size(), 10u);
  EXPECT_EQ(Rows(indexed), Rows(filtered));
  EXPECT_EQ(Rows(Last(s, "SELECT k FROM t WHERE s CONTAINS 1;")),
            Rows(Last(s, "SELECT k FROM t WHERE s CONTAINS 1 ALLOW FILTERING;")));
  EXPECT_EQ(Rows(Last(s, "SELECT k FROM t WHERE k = 3 AND v = 'odd';")),
            std::vector<std::string>({"3"}));
  constexpr char kFiltering[] =
      "Cannot execute this query as it might involve data filtering and thus may have "
      "unpredictable performance. If you want to execute this query despite the performance "
      "unpredictability, use ALLOW FILTERING";
  // Two restricted columns and one index: the second one filters.
  EXPECT_EQ(Error(s, "SELECT k FROM t WHERE v = 'odd' AND w = 3"), kFiltering);
  EXPECT_EQ(Error(s, "SELECT k FROM t WHERE w = 3"), kFiltering);
  EXPECT_EQ(Error(s, "SELECT k FROM t WHERE v > 'a'"), kFiltering);
  // Storage-Attached Indexes answer several columns, and ranges.
  Last(s, "CREATE CUSTOM INDEX w_sai ON t (w) USING 'StorageAttachedIndex';");
  EXPECT_EQ(Error(s, "SELECT k FROM t WHERE v = 'odd' AND w > 3"), kFiltering);
  EXPECT_EQ(Rows(Last(s, "SELECT k FROM t WHERE w > 15;")),
            Rows(Last(s, "SELECT k FROM t WHERE w > 15 ALLOW FILTERING;")));
  // Cassandra's messages.
  EXPECT_EQ(Error(s, "CREATE INDEX ON t (nope)"), "Column 'nope' doesn't exist");
  EXPECT_EQ(Error(s, "CREATE INDEX s_idx ON t (w)"), "Index 's_idx' already exists");
  EXPECT_EQ(Error(s, "CREATE INDEX ON t (v)"),
            "Index t_v_idx_1 is a duplicate of existing index t_v_idx");
  EXPECT_EQ(Error(s, "CREATE INDEX ON t (keys(s))"),
            "Cannot create index on keys of column s with non-map type");
  EXPECT_EQ(Error(s, "CREATE INDEX ON t (full(s))"),
            "full() indexes can only be created on frozen collections");
  Last(s, "CREATE TABLE one (k int PRIMARY KEY, d duration);");
  EXPECT_EQ(Error(s, "CREATE INDEX ON one (k)"),
            "Cannot create secondary index on the only partition key column k");
  EXPECT_EQ(Error(s, "CREATE INDEX ON one (d)"),
            "Secondary indexes are not supported on duration columns");
  EXPECT_NE(Last(s, "DESCRIBE TABLE t;").message.find("CREATE INDEX t_v_idx ON ks.t (v);"),
            std::string::npos);
  Last(s, "DROP INDEX t_v_idx;");
  EXPECT_EQ(Error(s, "SELECT k FROM t WHERE v = 'odd'"), kFiltering);
}

// The view's rows are the base rows re-keyed: the same as a query over the base table keeping
// the rows whose view key has no null, in the view's key order.
TEST(CqlViewTest, FollowsEveryWriteToItsBase) {
  Session s;
  Last(s, std::string(kKeyspace) +
              "CREATE TABLE base (k int, c int, v text, w int, PRIMARY KEY (k, c)) WITH CLUSTERING "
              "ORDER BY (c DESC);"
              "INSERT INTO base (k, c, v, w) VALUES (1, 1, 'a', 10);"
              "CREATE MATERIALIZED VIEW by_v AS SELECT k, c, v, w FROM base WHERE v IS NOT NULL "
              "AND k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (v, k, c);");
  auto check = [&]() {
    // The base rows with a non-null v, sorted as the view sorts (v by token, then k, c DESC).
    std::vector<std::string> view = Rows(Last(s, "SELECT v, k, c, w FROM by_v;"));
    std::vector<std::string> expected;
    StatementResult base = Last(s, "SELECT v, k, c, w FROM base;");
    for (const std::string& row : Rows(base)) {
      if (row.rfind("null |", 0) == 0) continue;
      expected.push_back(row);
    }
    std::sort(expected.begin(), expected.end());
    std::vector<std::string> sorted_view = view;
    std::sort(sorted_view.begin(), sorted_view.end());
    EXPECT_EQ(sorted_view, expected);
    return view;
  };
  check();
  Last(s,
       "INSERT INTO base (k, c, v, w) VALUES (1, 2, 'b', 20);"
       "INSERT INTO base (k, c, w) VALUES (2, 1, 30);"   // null v: not in the view
       "UPDATE base SET v = 'a' WHERE k = 1 AND c = 2;"  // moves between view partitions
       "INSERT INTO base (k, c, v) VALUES (3, 5, 'c');");
  std::vector<std::string> view = check();
  EXPECT_EQ(view.size(), 3u);
  // Within view partition 'a', k then c DESC (the base's order, kept by the view).
  StatementResult a = Last(s, "SELECT k, c FROM by_v WHERE v = 'a';");
  EXPECT_EQ(Rows(a), std::vector<std::string>({"1 | 2", "1 | 1"}));
  Last(s,
       "UPDATE base SET v = 'z' WHERE k = 2 AND c = 1;"
       "DELETE v FROM base WHERE k = 3 AND c = 5;"
       "DELETE FROM base WHERE k = 1 AND c = 1;");
  check();
  EXPECT_EQ(Rows(Last(s, "SELECT k, c FROM by_v WHERE v = 'a';")),
            std::vector<std::string>({"1 | 2"}));
  Last(s, "DELETE FROM base WHERE k = 1;");
  check();
  std::string load = R"({"k": 7, "c": 1, "v": "a", "w": 1}
{"k": 8, "c": 1, "w": 2})";
  ASSERT_TRUE(s.LoadJson("ks.base", load).ok());
  check();
  EXPECT_EQ(Rows(Last(s, "SELECT k FROM by_v WHERE v = 'a';")), std::vector<std::string>({"7"}));
  Last(s, "TRUNCATE base;");
  EXPECT_TRUE(Rows(Last(s, "SELECT * FROM by_v;")).empty());
  // Its own partitions and tokens: the view's token is the token of v.
  Last(s, "INSERT INTO base (k, c, v) VALUES (1, 1, 'q');");
  StatementResult tokens = Last(s, "SELECT token(v) FROM by_v;");
  ASSERT_EQ(tokens.rows.partitions.size(), 1u);
  EXPECT_EQ(tokens.rows.partitions[0].token,
            TokenOfLiterals({CqlType::Native(TypeKind::kText)}, {"'q'"}).value());
}

TEST(CqlViewTest, CassandraMessages) {
  Session s;
  Last(s, std::string(kKeyspace) +
              "CREATE TABLE base (k int, c int, v text, w int, st int static, PRIMARY KEY (k, c));"
              "CREATE TABLE cnt (k int PRIMARY KEY, n counter);");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT * FROM nope WHERE k IS NOT NULL "
                  "PRIMARY KEY (k)"),
            "Base table 'nope' doesn't exist");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT * FROM cnt WHERE k IS NOT NULL "
                  "PRIMARY KEY (k)"),
            "Materialized views are not supported on counter tables");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT * FROM base WHERE k IS NOT NULL AND "
                  "c IS NOT NULL PRIMARY KEY (k, c)"),
            "Cannot include static column 'st' in materialized view 'v1'");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT k, c, v FROM base WHERE k IS NOT "
                  "NULL AND v IS NOT NULL PRIMARY KEY (v, k)"),
            "Cannot create materialized view 'v1' without primary key columns c from base table "
            "'base'");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT k, c, v, w FROM base WHERE k IS NOT "
                  "NULL AND c IS NOT NULL AND v IS NOT NULL AND w IS NOT NULL PRIMARY KEY (v, "
                  "w, k, c)"),
            "Cannot include more than one non-primary key column in materialized view primary "
            "key (got v, w)");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT k, c, v FROM base WHERE k IS NOT "
                  "NULL AND c IS NOT NULL PRIMARY KEY (v, k, c)"),
            "Primary key columns v must be restricted with 'IS NOT NULL' or otherwise");
  EXPECT_EQ(Error(s,
                  "CREATE MATERIALIZED VIEW v1 AS SELECT k, c FROM base WHERE k IS NOT NULL "
                  "AND c IS NOT NULL PRIMARY KEY (v, k, c)"),
            "Unknown column 'v' referenced in PRIMARY KEY for materialized view 'v1'");
  Last(s,
       "CREATE MATERIALIZED VIEW v1 AS SELECT k, c, v FROM base WHERE k IS NOT NULL AND c IS "
       "NOT NULL AND v IS NOT NULL PRIMARY KEY (v, k, c);");
  EXPECT_EQ(Error(s, "INSERT INTO v1 (v, k, c) VALUES ('a', 1, 1)"),
            "Cannot directly modify a materialized view");
  EXPECT_EQ(Error(s, "DROP TABLE base"),
            "Cannot drop a table when materialized views still depend on it (ks.v1)");
  EXPECT_EQ(Error(s, "SELECT * FROM base WHERE v IS NOT NULL"),
            "Unsupported restriction: v IS NOT NULL");
  EXPECT_NE(
      Last(s, "DESCRIBE TABLE v1;")
          .message.find(
              "CREATE MATERIALIZED VIEW ks.v1 AS\n    SELECT v, k, c\n    FROM ks.base\n    "
              "WHERE k IS NOT NULL AND c IS NOT NULL AND v IS NOT NULL\n    PRIMARY KEY (v, k, "
              "c)\n WITH CLUSTERING ORDER BY (k ASC, c ASC);"),
      std::string::npos)
      << Last(s, "DESCRIBE TABLE v1;").message;
  Last(s, "DROP MATERIALIZED VIEW v1; DROP TABLE base;");
}

TEST(CqlSchemaDumpTest, UnmodelledStatementsAreAcceptedWithANote) {
  Session s;
  std::vector<StatementResult> r = s.Execute(std::string(kKeyspace) + R"(
    CREATE FUNCTION ks.plus(a int, b int) CALLED ON NULL INPUT RETURNS int LANGUAGE java
      AS $$ return a + b; $$;
    CREATE OR REPLACE AGGREGATE ks.total(int) SFUNC plus STYPE int INITCOND 0;
    CREATE ROLE IF NOT EXISTS reader WITH PASSWORD = 'p' AND LOGIN = true;
    GRANT SELECT ON KEYSPACE ks TO reader;
    REVOKE SELECT ON KEYSPACE ks FROM reader;
    CREATE TABLE t (k int PRIMARY KEY) WITH additional_write_policy = '99p'
      AND bloom_filter_fp_chance = 0.01 AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
      AND cdc = false AND compaction = {'class': 'SizeTieredCompactionStrategy'}
      AND extensions = {} AND read_repair = 'BLOCKING' AND memtable = 'default'
      AND dclocal_read_repair_chance = 0.1 AND incremental_backups = true;)");
  ASSERT_EQ(r.size(), 8u);
  for (const StatementResult& one : r) {
    EXPECT_NE(one.kind, StatementResult::Kind::kError) << one.status.message();
  }
  EXPECT_EQ(r[2].verb, "CREATE");
  ASSERT_EQ(r[2].warnings.size(), 1u);
  EXPECT_EQ(r[2].warnings[0],
            "CREATE FUNCTION is not modelled by Partition Playground: the statement was accepted "
            "and ignored");
  EXPECT_EQ(r[5].warnings[0].substr(0, 6), "GRANT ");
}

TEST(CqlSchemaDumpTest, SizeAnyTableOfADump) {
  constexpr char kDump[] = R"(
CREATE KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3'}  AND durable_writes = true;
CREATE TYPE shop.point (lat double, lon double);
CREATE TABLE shop.stops (
    route int,
    seq int,
    at frozen<point>,
    name text,
    PRIMARY KEY (route, seq)
) WITH CLUSTERING ORDER BY (seq ASC) AND comment = '';
CREATE INDEX stops_name_idx ON shop.stops (name);
CREATE MATERIALIZED VIEW shop.stops_by_name AS
    SELECT * FROM shop.stops
    WHERE name IS NOT NULL AND route IS NOT NULL AND seq IS NOT NULL
    PRIMARY KEY (name, route, seq)
 WITH CLUSTERING ORDER BY (route ASC, seq ASC) AND comment = '';
CREATE FUNCTION shop.f(a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return a; $$;
)";
  TableSizingRequest request;
  request.cql = kDump;
  request.table = "shop.stops";
  request.rows_per_partition = ParseRowsFormula("100").value();
  request.avg_sizes = {{"name", 10}};
  StatusOr<TableSizingReport> table = SizeTable(request);
  ASSERT_TRUE(table.ok()) << table.status().ToString();
  // at: a frozen point of two doubles, 2 x (4 + 8) bytes.
  const SizedColumn* at = nullptr;
  for (const SizedColumn& c : table->input.columns) {
    if (c.name == "at") at = &c;
  }
  ASSERT_NE(at, nullptr);
  EXPECT_EQ(ColumnFixedSize(*at).value_or(-1), 24);
  request.table = "stops_by_name";
  StatusOr<TableSizingReport> view = SizeTable(request);
  ASSERT_TRUE(view.ok()) << view.status().ToString();
  EXPECT_EQ(view->input.columns[0].name, "name");
  EXPECT_EQ(view->input.columns[0].role, ColumnRole::kPartitionKey);
  StatusOr<std::vector<SizingTableInfo>> tables = ListSizingTables(kDump);
  ASSERT_TRUE(tables.ok());
  ASSERT_EQ(tables->size(), 2u);
  EXPECT_EQ(tables.value()[1].name, "shop.stops_by_name");
}

// examples/cql/shop-describe-dump.cql: a Cassandra 4.1 DESCRIBE KEYSPACE output with writes and
// queries runs without one error, and every table and view of it can be sized.
TEST(CqlSchemaDumpTest, TheExampleDumpRunsAndEveryTableSizes) {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/shop-describe-dump.cql", std::ios::binary);
  ASSERT_TRUE(in.good());
  std::stringstream script;
  script << in.rdbuf();
  Session s;
  std::vector<StatementResult> results = s.Execute(script.str());
  int unmodelled = 0;
  for (const StatementResult& r : results) {
    EXPECT_NE(r.kind, StatementResult::Kind::kError) << r.statement << ": " << r.status.message();
    for (const std::string& w : r.warnings) unmodelled += w.find("is not modelled") != w.npos;
  }
  EXPECT_EQ(unmodelled, 3);  // CREATE FUNCTION, CREATE ROLE, GRANT
  StatusOr<std::vector<SizingTableInfo>> tables = ListSizingTables(script.str());
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  std::vector<std::string> names;
  for (const SizingTableInfo& t : tables.value()) {
    names.push_back(t.name);
    TableSizingRequest request;
    request.cql = script.str();
    request.table = t.name;
    request.rows_per_partition = ParseRowsFormula("1000").value();
    for (const std::string& c : t.variable_columns) request.avg_sizes.emplace_back(c, 20);
    StatusOr<TableSizingReport> report = SizeTable(request);
    EXPECT_TRUE(report.ok()) << t.name << ": " << report.status().ToString();
  }
  EXPECT_EQ(names, std::vector<std::string>({"shop.customers", "shop.orders",
                                             "shop.orders_by_status", "shop.page_hits"}));
}

}  // namespace
}  // namespace partplay::cql
