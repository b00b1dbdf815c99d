// Cassandra 5.0's vector<element, dimension>: the type wherever a type is written, literals of
// exactly the dimension, VectorType's serialization (fixed-length elements concatenated,
// variable-length ones each after an unsigned vint), tokens of vector keys, cqlsh's rendering,
// INSERT JSON, COPY FROM CSV, sizing, and a 5.0 DESCRIBE dump with a SAI on a vector column.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "session_helpers.h"
#include "partplay/cassandra/parser.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/token.h"
#include "partplay/cassandra/value.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay::cql {
namespace {

CqlType ParseTypeOrDie(std::string_view text) {
  StatusOr<CqlType> t = ParseType(text);
  EXPECT_TRUE(t.ok()) << text << ": " << t.status().ToString();
  return t.ok() ? t.value() : CqlType();
}

TEST(CqlVectorTest, TypesAreParsedWhereverATypeIs) {
  EXPECT_EQ(ParseTypeOrDie("vector<float, 3>").ToCql(), "vector<float, 3>");
  EXPECT_EQ(ParseTypeOrDie("VECTOR<FLOAT,3>").ToCql(), "vector<float, 3>");
  // RawVector.freeze() returns the vector itself; the element is frozen.
  EXPECT_EQ(ParseTypeOrDie("frozen<vector<int, 2>>").ToCql(), "vector<int, 2>");
  EXPECT_EQ(ParseTypeOrDie("vector<list<int>, 2>").ToCql(), "vector<frozen<list<int>>, 2>");
  EXPECT_EQ(ParseTypeOrDie("list<vector<float, 2>>").ToCql(), "list<vector<float, 2>>");
  EXPECT_EQ(ParseTypeOrDie("vector<vector<int, 2>, 2>").ToCql(), "vector<vector<int, 2>, 2>");
  Session s;
  StatementResult d = Last(s, std::string(kKeyspace) + R"(
    CREATE TYPE item (name text, embedding vector<float, 2>);
    CREATE TABLE t (k vector<int, 2> PRIMARY KEY, v vector<float, 3>, i frozen<item>,
                    m map<text, vector<text, 2>>, f frozen<vector<double, 1>>);
    DESCRIBE TABLE t;)");
  EXPECT_NE(d.message.find("k vector<int, 2> PRIMARY KEY"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("v vector<float, 3>"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("f vector<double, 1>"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("m map<text, vector<text, 2>>"), std::string::npos) << d.message;
  // A column may be named vector: the type needs its <.
  Last(s, "CREATE TABLE t2 (vector int PRIMARY KEY, v vector<float, 1>);"
          "INSERT INTO t2 (vector, v) VALUES (1, [1]);");
}

TEST(CqlVectorTest, BadTypesAreLocatedWithCassandrasMessages) {
  Session s;
  Last(s, kKeyspace);
  Located zero = ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY,\n  v vector<float, 0>)");
  EXPECT_EQ(zero.message, "vectors may only have positive dimensions; given 0");
  EXPECT_EQ(zero.line, 2);
  EXPECT_EQ(zero.column, 19);
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float, -18>)").message,
            "vectors may only have positive dimensions; given -18");
  EXPECT_EQ(ErrorAt(s, "CREATE TYPE u (v vector<int, 0>)").message,
            "vectors may only have positive dimensions; given 0");
  Located word = ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float, dog>)");
  EXPECT_EQ(word.message, "mismatched input 'dog' expecting INTEGER");
  EXPECT_EQ(word.column, 52);
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float, 1.5>)").message,
            "mismatched input '1.5' expecting INTEGER");
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float, 99999999999>)").message,
            "Invalid vector dimension 99999999999: not a 32-bit integer");
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float>)").message,
            "mismatched input '>' expecting ','");
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<float, 2)").message,
            "mismatched input ')' expecting '>'");
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k int PRIMARY KEY, v vector<counter, 2>)").message,
            "vectors of counters are not modelled (Cassandra's counters are only columns of "
            "their own)");
  EXPECT_EQ(ErrorAt(s, "CREATE TABLE t (k vector<duration, 1> PRIMARY KEY)").message,
            "duration type is not supported for PRIMARY KEY column 'k'");
}

TEST(CqlVectorTest, SerializationIsVectorTypes) {
  ValueGenerator gen;
  auto encode = [&](std::string_view type, std::string_view literal) {
    StatusOr<Literal> lit = ParseLiteral(literal);
    EXPECT_TRUE(lit.ok()) << literal;
    StatusOr<Value> v = LiteralToValue(ParseTypeOrDie(type), lit.value(), "v", gen);
    EXPECT_TRUE(v.ok()) << literal << ": " << v.status().ToString();
    return v.ok() && v.value() ? Hex(*v.value()) : "";
  };
  // Fixed-length elements: concatenated, no count and no lengths.
  EXPECT_EQ(encode("vector<float, 3>", "[0.5, -2, 1e3]"), "3f000000c0000000447a0000");
  EXPECT_EQ(encode("vector<int, 2>", "[1, -1]"), "00000001ffffffff");
  EXPECT_EQ(encode("vector<boolean, 2>", "[true, false]"), "0100");
  // Variable-length elements: each after its unsigned vint length (smallint too: ShortType
  // declares no fixed length).
  EXPECT_EQ(encode("vector<text, 2>", "['a', 'bc']"), "0161026263");
  EXPECT_EQ(encode("vector<smallint, 2>", "[1, 2]"), "020001020002");
  EXPECT_EQ(encode("vector<vector<int, 1>, 2>", "[[1], [2]]"), "0000000100000002");
  std::string long_text(200, 'x');
  std::string enc = encode("vector<text, 1>", "['" + long_text + "']");
  EXPECT_EQ(enc.substr(0, 4), "80c8");  // 200 as a two-byte vint
  EXPECT_EQ(enc.size(), 4 + 400u);

  std::vector<std::string_view> parts;
  CqlType text2 = ParseTypeOrDie("vector<text, 2>");
  const std::string good("\x01" "a\x02" "bc", 5), past_end("\x01" "a\x05" "bc", 5),
      left_over("\x01" "a\x02" "bcd", 6), short_ints(7, '\0');
  EXPECT_TRUE(VectorElements(text2, good, parts));
  EXPECT_EQ(parts, std::vector<std::string_view>({"a", "bc"}));
  EXPECT_FALSE(VectorElements(text2, past_end, parts));
  EXPECT_FALSE(VectorElements(text2, left_over, parts));
  EXPECT_FALSE(VectorElements(ParseTypeOrDie("vector<int, 2>"), short_ints, parts));
}

TEST(CqlVectorTest, KeysRowsAndTokens) {
  Session s;
  StatementResult r = Last(s, std::string(kKeyspace) + R"(
    CREATE TABLE t (k vector<int, 2>, c vector<float, 2>, v vector<text, 2>, PRIMARY KEY (k, c));
    INSERT INTO t (k, c, v) VALUES ([1, 2], [0.5, 1], ['a', 'it''s']);
    INSERT INTO t (k, c, v) VALUES ([1, 2], [-1, 2.25], null);
    INSERT INTO t (k, c) VALUES ([3, 4], [0, 0]);
    SELECT k, c, v FROM t WHERE k = [1, 2];)");
  // Clustering by float element order: [-1, 2.25] before [0.5, 1].
  EXPECT_EQ(Rows(r), std::vector<std::string>({"[1, 2] | [-1, 2.25] | null",
                                                "[1, 2] | [0.5, 1] | ['a', 'it''s']"}));
  StatementResult tok = Last(s, "SELECT token(k) FROM t WHERE k = [1, 2] LIMIT 1;");
  int64_t expected = Murmur3Token(std::string("\0\0\0\1\0\0\0\2", 8));
  EXPECT_EQ(Rows(tok), std::vector<std::string>({std::to_string(expected)}));
  StatementResult in = Last(s, "SELECT c FROM t WHERE k IN ([3, 4]);");
  EXPECT_EQ(Rows(in), std::vector<std::string>({"[0, 0]"}));
  StatementResult filtered =
      Last(s, "SELECT c FROM t WHERE v = ['a', 'it''s'] ALLOW FILTERING;");
  EXPECT_EQ(Rows(filtered), std::vector<std::string>({"[0.5, 1]"}));
}

TEST(CqlVectorTest, BadLiteralsAreLocatedWithCassandrasMessages) {
  Session s;
  Last(s, std::string(kKeyspace) +
              "CREATE TABLE t (pk int PRIMARY KEY, str_val text, val vector<float, 3>, "
              "tv vector<text, 1>);");
  Located count = ErrorAt(s, "INSERT INTO t (pk, str_val, val) VALUES (0, 'A',\n [1.0, 2.0])");
  EXPECT_EQ(count.message,
            "Invalid vector literal for val of type vector<float, 3>; expected 3 elements, but "
            "given 2");
  EXPECT_EQ(count.line, 2);
  EXPECT_EQ(count.column, 2);
  Located null = ErrorAt(s, "INSERT INTO t (pk, val) VALUES (0, [1, null, 3])");
  EXPECT_EQ(null.message, "null is not supported inside vectors");
  EXPECT_EQ(null.column, 40);
  Located type = ErrorAt(s, "INSERT INTO t (pk, val) VALUES (0, [1, 'a', 3])");
  EXPECT_EQ(type.message, "Invalid vector literal for val: value 'a' is not of type float");
  EXPECT_EQ(type.column, 40);
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t (pk, tv) VALUES (0, [1])").message,
            "Invalid vector literal for tv: value 1 is not of type text");
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t (pk, val) VALUES (0, 5)").message,
            "Invalid INTEGER constant (5) for \"val\" of type vector<float, 3>");
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t (pk, val) VALUES (0, {1, 2, 3})").message,
            "Invalid set literal for val of type vector<float, 3>");
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t (pk, tv) VALUES (0, [0x00])").message,
            "Invalid vector literal for tv: value 0x00 is not of type text");
  // JSON: VectorType.fromJSONObject.
  EXPECT_EQ(ErrorAt(s, R"(INSERT INTO t JSON '{"pk": 1, "val": [1, 2]}')").message,
            "Error decoding JSON value for val: List had incorrect size: expected 3 but given 2");
  EXPECT_EQ(ErrorAt(s, R"(INSERT INTO t JSON '{"pk": 1, "val": [1, null, 2]}')").message,
            "Error decoding JSON value for val: Invalid null element in list");
  EXPECT_EQ(ErrorAt(s, R"(INSERT INTO t JSON '{"pk": 1, "val": 3}')").message,
            "Error decoding JSON value for val: Expected a list, but got a Integer: 3");
  StatementResult ok = Last(s, R"(INSERT INTO t JSON '{"pk": 1, "val": [1, 2.5, -3]}';
                                  SELECT pk, val FROM t WHERE pk = 1;)");
  EXPECT_EQ(Rows(ok), std::vector<std::string>({"1 | [1, 2.5, -3]"}));
}

TEST(CqlVectorTest, CopyFromCsvReadsCqlshAndDsbulkVectors) {
  const std::string csv =
      "pk,val\n"
      "1,\"[0.25, 0.5, 1]\"\n"
      "2,\"[1,2,3]\"\n"
      "3,\"[1, 2]\"\n"
      "4,\n";
  SessionOptions options;
  options.read_file = [&](const std::string&) -> StatusOr<std::string> { return csv; };
  Session s(options);
  Last(s, std::string(kKeyspace) + "CREATE TABLE t (pk int PRIMARY KEY, val vector<float, 3>);");
  StatementResult copy = s.Execute("COPY t (pk, val) FROM 'f.csv' WITH HEADER = TRUE;").back();
  EXPECT_EQ(copy.message, "3 rows imported from f.csv into ks.t; 1 row failed") << copy.message;
  ASSERT_EQ(copy.warnings.size(), 1u);
  EXPECT_NE(copy.warnings[0].find("line 4, column 3: val: Invalid vector literal for val of type "
                                  "vector<float, 3>; expected 3 elements, but given 2"),
            std::string::npos)
      << copy.warnings[0];
  StatementResult rows = Last(s, "SELECT pk, val FROM t;");
  std::vector<std::string> got = Rows(rows);
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, std::vector<std::string>({"1 | [0.25, 0.5, 1]", "2 | [1, 2, 3]", "4 | null"}));
}

TEST(CqlVectorTest, SizingGivesAFixedVectorItsSize) {
  TableSizingRequest request;
  request.cql =
      "CREATE TABLE ks.t (k int PRIMARY KEY, e vector<float, 768>, d vector<double, 2>, "
      "s vector<text, 4>);";
  request.table = "ks.t";
  request.rows_per_partition = ParseRowsFormula("1").value();
  request.avg_sizes = {{"s", 40}};
  StatusOr<TableSizingReport> report = SizeTable(request);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const SizedColumn& c : report->input.columns) {
    if (c.name == "e") EXPECT_EQ(ColumnFixedSize(c).value_or(-1), 3072);
    if (c.name == "d") EXPECT_EQ(ColumnFixedSize(c).value_or(-1), 16);
    if (c.name == "s") EXPECT_FALSE(ColumnFixedSize(c).has_value());
  }
  StatusOr<std::vector<SizingTableInfo>> tables = ListSizingTables(request.cql);
  ASSERT_TRUE(tables.ok());
  EXPECT_EQ(tables.value()[0].variable_columns, std::vector<std::string>({"s"}));
}

// A Cassandra 5.0 DESCRIBE KEYSPACE output: a vector column, SAI indexes under both names, the
// table options 5.0 prints; ANN queries are refused as not modelled.
constexpr char kDump50[] = R"(
CREATE KEYSPACE docs WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': '1'}  AND durable_writes = true;

CREATE TABLE docs.chunks (
    doc_id uuid,
    chunk int,
    body text,
    embedding vector<float, 3>,
    PRIMARY KEY (doc_id, chunk)
) WITH CLUSTERING ORDER BY (chunk ASC)
    AND additional_write_policy = '99p'
    AND allow_auto_snapshot = true
    AND bloom_filter_fp_chance = 0.01
    AND caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}
    AND cdc = false
    AND comment = ''
    AND compaction = {'class': 'org.apache.cassandra.db.compaction.UnifiedCompactionStrategy', 'scaling_parameters': 'T4', 'max_sstables_to_compact': '64', 'target_sstable_size': '1GiB', 'sstable_growth': '0.3333333333333333', 'min_sstable_size': '100MiB'}
    AND compression = {'chunk_length_in_kb': '16', 'class': 'org.apache.cassandra.io.compress.LZ4Compressor'}
    AND memtable = 'default'
    AND crc_check_chance = 1.0
    AND default_time_to_live = 0
    AND extensions = {}
    AND gc_grace_seconds = 864000
    AND incremental_backups = true
    AND max_index_interval = 2048
    AND memtable_flush_period_in_ms = 0
    AND min_index_interval = 128
    AND read_repair = 'BLOCKING'
    AND speculative_retry = '99p';

CREATE CUSTOM INDEX chunks_embedding_idx ON docs.chunks (embedding) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'cosine'};

CREATE INDEX chunks_body_idx ON docs.chunks (body) USING 'sai';

INSERT INTO docs.chunks (doc_id, chunk, body, embedding) VALUES (5b6962dd-3f90-4c93-8f61-eabfa4a803e2, 0, 'hello', [0.1, 0.2, 0.3]);
INSERT INTO docs.chunks (doc_id, chunk, body, embedding) VALUES (5b6962dd-3f90-4c93-8f61-eabfa4a803e2, 1, 'world', [1, 0, -1]);
SELECT chunk, embedding FROM docs.chunks WHERE body = 'world';
SELECT chunk FROM docs.chunks WHERE embedding = [0.1, 0.2, 0.3];
)";

TEST(CqlVectorTest, ACassandra50DumpWithASaiOnAVectorRuns) {
  Session s;
  std::vector<StatementResult> results = s.Execute(kDump50);
  for (const StatementResult& r : results) {
    EXPECT_NE(r.kind, StatementResult::Kind::kError) << r.statement << ": " << r.status.message();
  }
  ASSERT_GE(results.size(), 2u);
  EXPECT_EQ(Rows(results[results.size() - 2]), std::vector<std::string>({"1 | [1, 0, -1]"}));
  EXPECT_EQ(Rows(results.back()), std::vector<std::string>({"0"}));
  Located ann = ErrorAt(s, "SELECT chunk FROM docs.chunks ORDER BY embedding ANN OF [1, 1, 1] LIMIT 2");
  EXPECT_EQ(ann.message,
            "ORDER BY ... ANN OF (vector search through a storage-attached index) is not "
            "modelled by Partition Playground");
  EXPECT_EQ(ann.column, 50);
  TableSizingRequest request;
  request.cql = kDump50;
  request.table = "docs.chunks";
  request.rows_per_partition = ParseRowsFormula("10").value();
  request.avg_sizes = {{"body", 500}};
  EXPECT_TRUE(SizeTable(request).ok());
}

// examples/cql/vector-search-dump.cql (the page's Cassandra 5.0 example) runs without one error
// and its table sizes.
TEST(CqlVectorTest, TheExampleDumpRunsAndSizes) {
  std::ifstream in(std::string(PP_EXAMPLES_DIR) + "/cql/vector-search-dump.cql", std::ios::binary);
  ASSERT_TRUE(in.good());
  std::stringstream script;
  script << in.rdbuf();
  Session s;
  std::vector<StatementResult> results = s.Execute(script.str());
  for (const StatementResult& r : results) {
    EXPECT_NE(r.kind, StatementResult::Kind::kError) << r.statement << ": " << r.status.message();
  }
  ASSERT_GE(results.size(), 3u);
  EXPECT_EQ(Rows(results[results.size() - 3]),
            std::vector<std::string>({"guide | 0 | [0.12, -0.5, 0.33] | https://example.org/guide",
                                      "guide | 1 | [0.9, 0.1, -0.25] | null"}));
  StatusOr<std::vector<SizingTableInfo>> tables = ListSizingTables(script.str());
  ASSERT_TRUE(tables.ok()) << tables.status().ToString();
  ASSERT_EQ(tables->size(), 1u);
  TableSizingRequest request;
  request.cql = script.str();
  request.table = "docs.chunks";
  request.rows_per_partition = ParseRowsFormula("100").value();
  for (const std::string& c : tables.value()[0].variable_columns) request.avg_sizes.emplace_back(c, 50);
  StatusOr<TableSizingReport> report = SizeTable(request);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  for (const SizedColumn& c : report->input.columns) {
    if (c.name == "embedding") EXPECT_EQ(ColumnFixedSize(c).value_or(-1), 12);
  }
}

}  // namespace
}  // namespace partplay::cql
