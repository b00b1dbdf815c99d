// The session: statements run one after the other (an error does not stop the script), schema
// statements and their messages, DESCRIBE, and the output forms (cqlsh grid, JSON lines, details).
#include "partplay/cassandra/session.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "partplay/cassandra/result_format.h"

namespace partplay::cql {
namespace {

constexpr char kKeyspace[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};";

TEST(CqlSessionTest, AScriptGoesOnAfterAFailedStatement) {
  Session s;
  std::vector<StatementResult> r = s.Execute(std::string(kKeyspace) +
                                             "\nUSE nope;"
                                             "\nUSE ks;"
                                             "\nCREATE TABLE t (k int PRIMARY KEY, v text);"
                                             "\nINSERT INTO t (k, v) VALUES ('x', 'a');"
                                             "\nINSERT INTO t (k, v) VALUES (1, 'a');"
                                             "\nSELECT v FROM t;");
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[0].kind, StatementResult::Kind::kSchemaChange);
  EXPECT_EQ(r[1].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[1].status.message(), "Keyspace 'nope' does not exist");
  EXPECT_EQ(r[1].status.where().line, 2);
  EXPECT_EQ(r[1].status.where().column, 5);
  EXPECT_EQ(r[4].status.code(), ErrorCode::kCqlBadLiteral);
  EXPECT_EQ(r[4].status.where().line, 5);
  EXPECT_EQ(r[4].status.where().column, 30);
  EXPECT_EQ(r[6].rows.rows.size(), 1u);
  EXPECT_EQ(s.current_keyspace(), "ks");
}

TEST(CqlSessionTest, SchemaMessages) {
  Session s;
  s.Execute(kKeyspace);
  auto error = [&](std::string_view statement) {
    std::vector<StatementResult> r = s.Execute(statement);
    EXPECT_EQ(r.back().kind, StatementResult::Kind::kError) << statement;
    return r.back().status.message();
  };
  EXPECT_EQ(error("CREATE TABLE t (k int PRIMARY KEY)"),
            "No keyspace has been specified. USE a keyspace, or explicitly specify "
            "keyspace.tablename");
  EXPECT_EQ(error(kKeyspace), "Keyspace 'ks' already exists");
  s.Execute("CREATE TABLE ks.t (k int PRIMARY KEY)");
  EXPECT_EQ(error("CREATE TABLE ks.t (k int PRIMARY KEY)"),
            "Cannot add already existing table \"t\" to keyspace \"ks\"");
  EXPECT_EQ(s.Execute("CREATE TABLE IF NOT EXISTS ks.t (k int PRIMARY KEY)").back().kind,
            StatementResult::Kind::kVoid);
  EXPECT_EQ(error("CREATE TABLE ks.u (k int, v int)"),
            "No PRIMARY KEY specifed for table 'u' (exactly one required)");
  EXPECT_EQ(error("CREATE TABLE ks.u (k int PRIMARY KEY, v int, PRIMARY KEY (v))"),
            "Multiple PRIMARY KEYs specified for table 'u' (exactly one required)");
  EXPECT_EQ(error("CREATE TABLE ks.u (k int, PRIMARY KEY (k, x))"),
            "Unknown definition x referenced in PRIMARY KEY");
  EXPECT_EQ(error("CREATE TABLE ks.u (k int, k text, PRIMARY KEY (k))"),
            "Multiple definition of identifier k");
  EXPECT_EQ(error("CREATE TABLE ks.u (k list<int> PRIMARY KEY)"),
            "Invalid non-frozen collection type for PRIMARY KEY component k");
  EXPECT_EQ(error("CREATE TABLE ks.u (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH "
                  "CLUSTERING ORDER BY (b DESC, a ASC)"),
            "The order of columns in the CLUSTERING ORDER directive must match that of the "
            "clustering columns (a must appear before b)");
  EXPECT_EQ(error("CREATE TABLE ks.u (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH "
                  "CLUSTERING ORDER BY (b DESC)"),
            "Missing CLUSTERING ORDER for column a");
  // A prefix is enough; the rest keep ASC.
  EXPECT_EQ(s.Execute("CREATE TABLE ks.prefix (k int, a int, b int, PRIMARY KEY (k, a, b)) WITH "
                      "CLUSTERING ORDER BY (a DESC)")
                .back()
                .kind,
            StatementResult::Kind::kSchemaChange);
  EXPECT_EQ(error("DROP TABLE ks.nope"), "Table 'ks.nope' doesn't exist");
  EXPECT_EQ(error("CREATE KEYSPACE k2 WITH replication = {'class': 'SimpleStrategy'}"),
            "SimpleStrategy requires a replication_factor strategy option.");
  EXPECT_EQ(error("CREATE KEYSPACE k2 WITH replication = {'class': 'OldNetworkTopologyStrategy'}"),
            "Unable to find replication strategy class "
            "'org.apache.cassandra.locator.OldNetworkTopologyStrategy'");
  EXPECT_EQ(error("SELECT * FROM ks.nope"), "unconfigured table nope");
  EXPECT_EQ(error("SELECT * FROM nope.t"), "Keyspace 'nope' does not exist");
}

TEST(CqlSessionTest, DescribeTableWritesTheCreateStatement) {
  Session s;
  s.Execute(std::string(kKeyspace) +
            "CREATE TABLE ks.\"Readings\" (sensor uuid, day date, at timestamp, v double, "
            "\"Note\" text, loc text STATIC, PRIMARY KEY ((sensor, day), at)) WITH CLUSTERING "
            "ORDER BY (at DESC) AND default_time_to_live = 3600;");
  StatementResult r = s.Execute("DESCRIBE TABLE ks.\"Readings\"").back();
  ASSERT_EQ(r.kind, StatementResult::Kind::kDescribe);
  EXPECT_EQ(r.message,
            "CREATE TABLE ks.\"Readings\" (\n"
            "    sensor uuid,\n"
            "    day date,\n"
            "    at timestamp,\n"
            "    loc text static,\n"
            "    \"Note\" text,\n"
            "    v double,\n"
            "    PRIMARY KEY ((sensor, day), at)\n"
            ") WITH CLUSTERING ORDER BY (at DESC)\n"
            "    AND default_time_to_live = 3600;");
  StatementResult single =
      s.Execute("CREATE TABLE ks.kv (k text PRIMARY KEY, v blob); DESC ks.kv").back();
  EXPECT_EQ(single.message,
            "CREATE TABLE ks.kv (\n"
            "    k text PRIMARY KEY,\n"
            "    v blob\n"
            ") WITH default_time_to_live = 0;");
}

TEST(CqlSessionTest, CqlshGridAndJsonLine) {
  Session s;
  std::vector<StatementResult> r =
      s.Execute(std::string(kKeyspace) +
                "CREATE TABLE ks.user (user text, id int, message text, PRIMARY KEY (user, id));"
                "INSERT INTO ks.user (user, id, message) VALUES ('theo', 2, 'hello again');"
                "INSERT INTO ks.user (user, id, message) VALUES ('theo', 1, 'hello');"
                "SELECT * FROM ks.user WHERE user = 'theo';"
                "SELECT * FROM ks.user WHERE message = 'x';");
  EXPECT_EQ(ResultToCqlsh(r[4], "<stdin>"),
            "\n"
            " user | id | message\n"
            "------+----+-------------\n"
            " theo |  1 |       hello\n"
            " theo |  2 | hello again\n"
            "\n"
            "(2 rows)\n");
  EXPECT_EQ(ResultToJsonLine(r[4]),
            "{\"columns\":[\"user\",\"id\",\"message\"],\"rows\":[[\"theo\",1,\"hello\"],"
            "[\"theo\",2,\"hello again\"]]}\n");
  EXPECT_EQ(ResultToJsonLine(r[2]), "");  // INSERT prints nothing
  EXPECT_EQ(ResultToCqlsh(r[5], "<stdin>"),
            "<stdin>:1:InvalidRequest: Error from server: code=2200 [Invalid query] "
            "message=\"Cannot execute this query as it might involve data filtering and thus may "
            "have unpredictable performance. If you want to execute this query despite the "
            "performance unpredictability, use ALLOW FILTERING\"\n");
  std::string details = ResultsToJson(r);
  // Tokens cross as strings: 'theo' has token -1457224325554927207 (cassandra-driver).
  EXPECT_NE(details.find("\"partitions\":[{\"token\":\"-1457224325554927207\",\"key\":[\"theo\"],"
                         "\"replicas\":["),
            std::string::npos);
  EXPECT_NE(details.find("\"cells\":[[\"theo\",\"1\",\"hello\"],[\"theo\",\"2\",\"hello again\"]]"),
            std::string::npos);
}

TEST(CqlSessionTest, TokenOfLiterals) {
  auto type = [](TypeKind k) { return CqlType::Native(k); };
  StatusOr<int64_t> t =
      TokenOfLiterals({type(TypeKind::kText), type(TypeKind::kInt)}, {"'theo'", "1"});
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(t.value(), 2489062925119996681);  // cassandra-driver
  StatusOr<int64_t> bad = TokenOfLiterals({type(TypeKind::kInt)}, {"'abc'"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "Invalid STRING constant (abc) for \"key1\" of type int");
  EXPECT_FALSE(TokenOfLiterals({type(TypeKind::kInt)}, {"null"}).ok());
  EXPECT_FALSE(TokenOfLiterals({type(TypeKind::kInt)}, {"1", "2"}).ok());
}

TEST(CqlSessionTest, RingJsonSummarisesRingsTooDenseForAnArcEach) {
  RingOptions o;
  o.num_tokens = 256;
  o.nodes = 16;  // 4,096 vnodes: an arc each, no buckets
  StatusOr<Ring> arcs = Ring::Build(o);
  ASSERT_TRUE(arcs.ok());
  EXPECT_EQ(RingToJson(arcs.value(), nullptr).find("owner_buckets"), std::string::npos);
  o.nodes = 17;  // 4,352 vnodes: 1,440 owner slices
  StatusOr<Ring> dense = Ring::Build(o);
  ASSERT_TRUE(dense.ok());
  std::string json = RingToJson(dense.value(), nullptr);
  size_t at = json.find("\"owner_buckets\":[");
  ASSERT_NE(at, std::string::npos);
  std::string list = json.substr(at, json.find(']', at) - at);
  EXPECT_EQ(std::count(list.begin(), list.end(), ','), 1439);
}

TEST(CqlSessionTest, RingAndLayoutJson) {
  SessionOptions o;
  o.ring.nodes = 2;
  o.ring.num_tokens = 1;
  Session s(o);
  s.Execute(std::string(kKeyspace) +
            "CREATE TABLE ks.t (k int PRIMARY KEY, v text);"
            "INSERT INTO ks.t (k, v) VALUES (1, 'abc');");
  std::string ring = RingToJson(s.ring(), &s.FindKeyspace("ks").value()->schema);
  EXPECT_EQ(
      ring,
      "{\"nodes\":[{\"name\":\"node1\",\"address\":\"10.0.0.1\",\"datacenter\":\"datacenter1\","
      "\"rack\":\"rack1\",\"ownership\":0.5,\"effective_ownership\":0.5},"
      "{\"name\":\"node2\",\"address\":\"10.0.0.2\",\"datacenter\":\"datacenter1\","
      "\"rack\":\"rack1\",\"ownership\":0.5,\"effective_ownership\":0.5}],"
      // Each vnode with its range (start, token] and share; node1's range wraps past -2^63.
      "\"tokens\":[{\"token\":\"-9223372036854775808\",\"node\":0,\"start\":\"0\",\"share\":0.5},"
      "{\"token\":\"0\",\"node\":1,\"start\":\"-9223372036854775808\",\"share\":0.5}],"
      // The keyspace's replication on this ring (replication_figures.h).
      "\"replication\":{\"strategy\":\"SimpleStrategy\",\"replicas\":1,\"placed\":1,\"quorum\":1,"
      "\"local_quorum\":1,\"datacenters\":[],\"missing_datacenters\":[],"
      "\"ring_datacenters\":[\"datacenter1\"]},"
      "\"num_tokens\":1,\"random_tokens\":false}");
  StatusOr<Table*> table = s.FindTable("ks.t");
  ASSERT_TRUE(table.ok());
  std::string layout =
      TableLayoutToJson(*table.value(), s.ring(), s.FindKeyspace("ks").value()->schema, {});
  // token(1) = -4069959284402364209 is in (-2^63, 0]: node 2 (index 1). One row: 4 + 3 bytes of
  // values and one cell of 8 bytes of metadata.
  EXPECT_NE(layout.find("\"partitions\":[{\"token\":\"-4069959284402364209\",\"key\":[\"1\"],"
                        "\"rows\":1,\"cells\":1,\"bytes\":15,\"tombstones\":0,\"physical_partition\":0,"
                        "\"replicas\":[1],\"replica_vnodes\":[1]}]"),
            std::string::npos)
      << layout;
}

TEST(CqlSessionTest, ListsKeyspacesWithReplicationAndTables) {
  Session s;
  s.Execute(
      "CREATE KEYSPACE b WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, "
      "'dc2': 2};"
      "CREATE KEYSPACE \"A\" WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};"
      "CREATE TABLE b.zed (k int PRIMARY KEY); CREATE TABLE b.\"Alpha\" (k int PRIMARY KEY);");
  std::vector<KeyspaceListing> list = s.ListKeyspaces();
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0].name, "A");
  EXPECT_EQ(list[0].replication_class, "SimpleStrategy");
  EXPECT_EQ(list[0].copies, 1);
  EXPECT_TRUE(list[0].tables.empty());
  EXPECT_EQ(list[1].name, "b");
  EXPECT_EQ(list[1].replication_class, "NetworkTopologyStrategy");
  EXPECT_EQ(list[1].copies, 5);
  EXPECT_EQ(list[1].tables, (std::vector<std::string>{"Alpha", "zed"}));
  EXPECT_EQ(KeyspacesToJson(list),
            "[{\"name\":\"A\",\"replication\":{\"class\":\"SimpleStrategy\",\"options\":"
            "{\"replication_factor\":\"1\"}},\"copies\":1,\"text\":\"CREATE KEYSPACE \\\"A\\\" "
            "WITH replication = {'class': 'org.apache.cassandra.locator.SimpleStrategy', "
            "'replication_factor': '1'}  AND durable_writes = true;\",\"tables\":[]},"
            "{\"name\":\"b\",\"replication\":{\"class\":\"NetworkTopologyStrategy\",\"options\":"
            "{\"dc1\":\"3\",\"dc2\":\"2\"}},\"copies\":5,\"text\":\"CREATE KEYSPACE b WITH "
            "replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', "
            "'dc1': '3', 'dc2': '2'}  AND durable_writes = true;\",\"tables\":[\"Alpha\","
            "\"zed\"]}]");
}

TEST(CqlSessionTest, EachResultNamesTheTableItTouched) {
  Session s;
  std::vector<StatementResult> r = s.Execute(
      "SELECT * FROM t;"  // no keyspace yet: no table
      "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1};"
      "CREATE TABLE ks.\"T\" (k int PRIMARY KEY, v int);"
      "USE ks;"
      "INSERT INTO \"T\" (k, v) VALUES (1, 2);"
      "UPDATE \"T\" SET v = 3 WHERE k = 1;"
      "SELECT * FROM ks.\"T\" WHERE v = 3;"  // fails, still names the table
      "DELETE FROM \"T\" WHERE k = 1;"
      "DESCRIBE TABLE \"T\";"
      "DESCRIBE KEYSPACE ks;"
      "TRUNCATE missing;");
  std::vector<std::string> tables;
  for (const StatementResult& x : r) tables.push_back(x.table);
  EXPECT_EQ(tables, (std::vector<std::string>{"", "", "ks.T", "", "ks.T", "ks.T", "ks.T", "ks.T",
                                              "ks.T", "", "ks.missing"}));
  EXPECT_EQ(r[6].kind, StatementResult::Kind::kError);
  std::string json = ResultsToJson({r[4], r[3]});
  EXPECT_NE(json.find("\"byte_offset\":"), std::string::npos);
  EXPECT_NE(json.find(",\"table\":\"ks.T\","), std::string::npos) << json;
  EXPECT_EQ(json.find("\"table\"", json.find("\"verb\":\"USE\"")), std::string::npos) << json;
}

TEST(CqlSessionTest, ReplicationFactorOverride) {
  Session s;
  EXPECT_EQ(s.OverrideReplicationFactor(-1).code(), ErrorCode::kBadOption);
  ASSERT_TRUE(s.OverrideReplicationFactor(2).ok());
  s.Execute(
      "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};"
      "CREATE KEYSPACE b WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, "
      "'dc2': 1};");
  ASSERT_TRUE(s.OverrideReplicationFactor(0).ok());
  s.Execute(
      "CREATE KEYSPACE c WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};");
  std::vector<KeyspaceListing> list = s.ListKeyspaces();
  ASSERT_EQ(list.size(), 3u);
  EXPECT_EQ(list[0].copies, 2);
  EXPECT_EQ(list[1].copies, 4);
  EXPECT_EQ(list[1].replication_options,
            (std::vector<std::pair<std::string, std::string>>{{"dc1", "2"}, {"dc2", "2"}}));
  EXPECT_EQ(list[2].copies, 3);
}

// Each result knows its statement's bytes, as the lexer splits the script: quotes and comments
// hide semicolons, and a statement that does not parse has its extent too.
TEST(CqlSessionTest, ResultsCarryTheirStatementsExtent) {
  const std::string script =
      "-- a; comment\nCREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
      "'replication_factor': 1, 'x;y': 1};\n/* ; */ USE k;\n"
      "SELECT 'it''s; fine', \"odd;name\" FROM t // trailing; comment\n;;  SELECT $$a;b$$ FRM t";
  Session s;
  std::vector<StatementResult> r = s.Execute(script);
  ASSERT_EQ(r.size(), 4u);
  std::vector<std::string> texts;
  for (const StatementResult& x : r) {
    ASSERT_GE(x.source_begin, 0);
    texts.push_back(script.substr(static_cast<size_t>(x.source_begin),
                                  static_cast<size_t>(x.source_end - x.source_begin)));
  }
  EXPECT_EQ(texts, (std::vector<std::string>{
                       "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', "
                       "'replication_factor': 1, 'x;y': 1}",
                       "USE k", "SELECT 'it''s; fine', \"odd;name\" FROM t", "SELECT $$a;b$$ FRM t"}));
  EXPECT_EQ(r[3].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[3].statement, "SELECT $$a;b$$ FRM t");  // shown as written, though it does not parse
  EXPECT_EQ(r[3].verb, "SELECT");
  // A statement the reader refuses keeps its text and verb too (issue 40, friction 9).
  std::vector<StatementResult> refused = s.Execute("ALTER MATERIALIZED VIEW v WITH comment = 'x';");
  EXPECT_EQ(refused[0].kind, StatementResult::Kind::kError);
  EXPECT_EQ(refused[0].statement, "ALTER MATERIALIZED VIEW v WITH comment = 'x'");
  EXPECT_EQ(refused[0].verb, "ALTER");
  EXPECT_EQ(s.Execute("SELEC * FROM t;")[0].verb, "");
  std::string json = ResultsToJson({r[3]});
  EXPECT_NE(json.find(fmt::format("\"source_begin\":{},\"source_end\":{}", r[3].source_begin,
                                  r[3].source_end)),
            std::string::npos)
      << json;
}

}  // namespace
}  // namespace partplay::cql
