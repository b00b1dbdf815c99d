// cqlsh's own commands in a script (authored cases): CONSISTENCY, SERIAL CONSISTENCY, TRACING and
// PAGING with cqlsh 4.1's replies; what the console's level asks of the ring (Cassandra's
// refusals, and Unavailable when the ring holds fewer replicas than the level needs); the trace
// of the replicas a statement contacts; and unpaged IN with ORDER BY sorted across partitions.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/result_format.h"
#include "partplay/cassandra/session.h"
#include "partplay/cassandra/token.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

SessionOptions Nodes(int n) {
  SessionOptions o;
  o.ring.nodes = n;
  return o;
}

constexpr char kRf3[] =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};"
    "USE ks;"
    "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));"
    "CREATE TABLE n (k int PRIMARY KEY, hits counter);";

TEST(CqlConsoleTest, CommandsReplyAsCqlshDoes) {
  Session s;
  auto reply = [&](const char* command) {
    StatementResult r = Last(s, command);
    EXPECT_EQ(r.kind, StatementResult::Kind::kShell) << command;
    return r.message;
  };
  EXPECT_EQ(reply("CONSISTENCY"), "Current consistency level is ONE.");
  EXPECT_EQ(reply("consistency local_quorum"), "Consistency level set to LOCAL_QUORUM.");
  EXPECT_EQ(reply("CONSISTENCY"), "Current consistency level is LOCAL_QUORUM.");
  EXPECT_EQ(reply("SERIAL CONSISTENCY"), "Current serial consistency level is SERIAL.");
  EXPECT_EQ(reply("SERIAL CONSISTENCY LOCAL_SERIAL"),
            "Serial consistency level set to LOCAL_SERIAL.");
  EXPECT_EQ(reply("TRACING"), "Tracing is currently disabled. Use TRACING ON to enable.");
  EXPECT_EQ(reply("TRACING ON"), "Now Tracing is enabled");
  EXPECT_EQ(reply("TRACING ON"), "Tracing is already enabled. Use TRACING OFF to disable.");
  EXPECT_EQ(reply("TRACING OFF"), "Disabled Tracing.");
  EXPECT_EQ(reply("PAGING"),
            "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: 100");
  EXPECT_EQ(reply("PAGING 7"), "Page size: 7");
  EXPECT_EQ(reply("PAGING OFF"), "Disabled Query paging.");
  EXPECT_EQ(reply("PAGING ON"), "Now Query paging is enabled\nPage size: 100");
}

TEST(CqlConsoleTest, ImproperCommandsAreLocatedAndChangeNothing) {
  Session s;
  Located bad = ErrorAt(s, "CONSISTENCY MOST");
  EXPECT_EQ(bad.message, "Improper CONSISTENCY command.");
  EXPECT_EQ(bad.column, 13);
  EXPECT_EQ(ErrorAt(s, "SERIAL CONSISTENCY QUORUM").message, "Improper SERIAL command.");
  EXPECT_EQ(ErrorAt(s, "TRACING MAYBE").message, "Improper TRACING command.");
  EXPECT_EQ(ErrorAt(s, "PAGING 1 2").message, "Improper PAGING command.");
  EXPECT_EQ(ErrorAt(s, "PAGING 99999999999").message, "Improper PAGING command.");
  EXPECT_EQ(Last(s, "CONSISTENCY").message, "Current consistency level is ONE.");
}

TEST(CqlConsoleTest, ACommandEndsAtTheEndOfItsLine) {
  Session s;
  std::vector<StatementResult> r =
      s.Execute(std::string(kKeyspace) +
                "CREATE TABLE t (k int PRIMARY KEY);\nCONSISTENCY QUORUM\nSELECT * FROM t;\n"
                "TRACING ON\nINSERT INTO t (k) VALUES (1);");
  ASSERT_EQ(r.size(), 7u);
  EXPECT_EQ(r[3].message, "Consistency level set to QUORUM.");
  EXPECT_EQ(r[4].kind, StatementResult::Kind::kRows);
  EXPECT_EQ(r[4].where.line, 3);
  EXPECT_EQ(r[6].kind, StatementResult::Kind::kVoid) << r[6].status.message();
  ASSERT_TRUE(r[6].trace.has_value());
}

TEST(CqlConsoleTest, LevelsNeedingMoreReplicasThanTheRingHoldsAreUnavailable) {
  Session s(Nodes(2));  // RF 3 on two nodes: two replicas of each partition
  Last(s, kRf3);
  Last(s, "CONSISTENCY QUORUM;");  // 2 of 3
  EXPECT_EQ(Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 1);").kind,
            StatementResult::Kind::kVoid);
  for (const char* level : {"ALL", "THREE"}) {
    Last(s, std::string("CONSISTENCY ") + level + ";");
    std::vector<StatementResult> r = s.Execute("SELECT * FROM t WHERE k = 1;");
    ASSERT_EQ(r[0].kind, StatementResult::Kind::kError) << level;
    EXPECT_EQ(r[0].status.code(), ErrorCode::kCqlUnavailable);
    EXPECT_EQ(r[0].status.message(), std::string("Cannot achieve consistency level ") + level);
  }
  // Conditional writes run their Paxos rounds at the serial level: QUORUM of 3 finds 2.
  Last(s, "CONSISTENCY ONE;");
  EXPECT_EQ(Rows(Last(s, "UPDATE t SET v = 2 WHERE k = 1 AND c = 1 IF v = 1;")),
            (std::vector<std::string>{"True"}));
}

TEST(CqlConsoleTest, LevelsRefusedForTheAccessWithCassandrasMessages) {
  Session s;
  Last(s, kRf3);
  auto error = [&](const char* level, const char* statement) {
    Last(s, std::string("CONSISTENCY ") + level + ";");
    return ErrorAt(s, statement).message;
  };
  EXPECT_EQ(error("ANY", "SELECT * FROM t WHERE k = 1;"),
            "ANY ConsistencyLevel is only supported for writes");
  EXPECT_EQ(error("SERIAL", "INSERT INTO t (k, c, v) VALUES (1, 1, 1);"),
            "You must use conditional updates for serializable writes");
  EXPECT_EQ(error("ANY", "UPDATE n SET hits = hits + 1 WHERE k = 1;"),
            "Consistency level ANY is not yet supported for counter table n");
  EXPECT_EQ(error("LOCAL_SERIAL", "UPDATE n SET hits = hits + 1 WHERE k = 1;"),
            "Counter operations are inherently non-serializable");
  EXPECT_EQ(error("SERIAL", "UPDATE t SET v = 1 WHERE k = 1 AND c = 1 IF EXISTS;"),
            "SERIAL is not supported as conditional update commit consistency. Use ANY if you "
            "mean \"make sure it is accepted but I don't care how many replicas commit it for "
            "non-SERIAL reads\"");
  // A write at ANY is accepted (a hint will do), and SERIAL reads run.
  Last(s, "CONSISTENCY ANY;");
  EXPECT_EQ(Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 1);").kind,
            StatementResult::Kind::kVoid);
  Last(s, "CONSISTENCY SERIAL;");
  EXPECT_EQ(Rows(Last(s, "SELECT v FROM t WHERE k = 1;")), (std::vector<std::string>{"1"}));
}

TEST(CqlConsoleTest, TheTraceNamesTheReplicasTheLevelContacts) {
  Session s;  // three nodes, RF 3
  Last(s, kRf3);
  Last(s, "CONSISTENCY QUORUM; TRACING ON;");
  const int64_t token = Murmur3Token(PartitionKeyBytes(std::vector<std::string>{EncodeInt32(7)}));
  const std::vector<int> replicas =
      s.ring().Replicas(token, s.keyspaces().at("ks").schema.replication);
  ASSERT_EQ(replicas.size(), 3u);

  StatementResult write = Last(s, "INSERT INTO t (k, c, v) VALUES (7, 1, 1);");
  ASSERT_TRUE(write.trace.has_value());
  EXPECT_EQ(write.trace->consistency, "QUORUM");
  EXPECT_TRUE(write.trace->write);
  ASSERT_EQ(write.trace->steps.size(), 1u);
  EXPECT_EQ(write.trace->steps[0].token, token);
  EXPECT_EQ(write.trace->steps[0].replicas, replicas);  // a write goes to every replica
  EXPECT_EQ(write.trace->steps[0].required, 2);

  StatementResult read = Last(s, "SELECT * FROM t WHERE k = 7;");
  ASSERT_TRUE(read.trace.has_value());
  EXPECT_FALSE(read.trace->scan);
  EXPECT_EQ(read.trace->steps[0].replicas, (std::vector<int>{replicas[0], replicas[1]}));

  for (const char* scan : {"SELECT * FROM t;", "SELECT * FROM t WHERE v = 1 ALLOW FILTERING;"}) {
    StatementResult r = Last(s, scan);
    ASSERT_TRUE(r.trace.has_value()) << scan;
    EXPECT_TRUE(r.trace->scan) << scan;
    EXPECT_EQ(r.trace->steps[0].replicas, (std::vector<int>{0, 1, 2})) << scan;
  }
  Last(s, "CREATE INDEX ON t (v);");
  EXPECT_TRUE(Last(s, "SELECT * FROM t WHERE v = 1;").trace->scan);

  StatementResult batch = Last(s,
                               "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (7, 2, 2); "
                               "INSERT INTO t (k, c, v) VALUES (8, 1, 1); APPLY BATCH;");
  ASSERT_TRUE(batch.trace.has_value());
  EXPECT_EQ(batch.trace->steps.size(), 2u);
  Last(s, "TRACING OFF;");
  EXPECT_FALSE(Last(s, "SELECT * FROM t WHERE k = 7;").trace.has_value());
}

TEST(CqlConsoleTest, UnpagedInWithOrderBySortsAcrossPartitionsThenLimits) {
  Session s;
  Last(s, std::string(kKeyspace) +
              "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));"
              "INSERT INTO t (k, c, v) VALUES (1, 1, 10); INSERT INTO t (k, c, v) VALUES (1, 4, 40);"
              "INSERT INTO t (k, c, v) VALUES (2, 2, 20); INSERT INTO t (k, c, v) VALUES (2, 3, 30);");
  EXPECT_NE(ErrorAt(s, "SELECT c FROM t WHERE k IN (1, 2) ORDER BY c DESC;")
                .message.find("Cannot page queries with both ORDER BY and a IN restriction"),
            std::string::npos);
  Last(s, "PAGING OFF;");
  EXPECT_EQ(Rows(Last(s, "SELECT c FROM t WHERE k IN (1, 2) ORDER BY c DESC;")),
            (std::vector<std::string>{"4", "3", "2", "1"}));
  EXPECT_EQ(Rows(Last(s, "SELECT v FROM t WHERE k IN (2, 1) ORDER BY c ASC LIMIT 3;")),
            (std::vector<std::string>{"10", "20", "30"}));
  EXPECT_EQ(Last(s, "SELECT * FROM t;").page_size, 0);
  Last(s, "PAGING 3;");
  StatementResult paged = Last(s, "SELECT * FROM t;");
  EXPECT_EQ(paged.page_size, 3);
  EXPECT_EQ(PageCount(paged), 2);
  // The paging state after the first page: its third row, in partition k = 2 (token order).
  EXPECT_NE(ResultToJsonLine(paged).find(
                "\"page_size\":3,\"pages\":2,\"page_ends\":[{\"rows\":3,\"token\":\""),
            std::string::npos)
      << ResultToJsonLine(paged);
}

}  // namespace
}  // namespace partplay::cql
