// SELECT semantics and Cassandra 4's messages. Token orders use tokens published by npm
// cassandra-driver (see cql_token_test.cpp): for int keys, token(42) = -7160136740246525330 <
// token(1) = -4069959284402364209 < token(0) = -3485513579396041028 < token(-1) =
// 7297452126230313552.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

// Rows as cqlsh prints them, one string per row: "theo|1|hello".
std::vector<std::string> Rows(const StatementResult& r) { return CqlshLines(r, "|"); }

class CqlSelectTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Exec(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}; USE ks;");
  }
  // Runs a script whose statements must all succeed; returns the last result.
  StatementResult Exec(std::string_view script) {
    std::vector<StatementResult> all = session_.Execute(script);
    for (const StatementResult& r : all) {
      EXPECT_NE(r.kind, StatementResult::Kind::kError) << r.status.ToString() << "\n" << script;
    }
    return all.empty() ? StatementResult{} : all.back();
  }
  std::vector<std::string> Select(std::string_view query) { return Rows(Exec(query)); }
  Status Error(std::string_view statement) {
    std::vector<StatementResult> all = session_.Execute(statement);
    EXPECT_EQ(all.size(), 1u);
    EXPECT_EQ(all.back().kind, StatementResult::Kind::kError) << statement;
    return all.back().status;
  }
  Session session_;
};

constexpr char kAllowFiltering[] =
    "Cannot execute this query as it might involve data filtering and thus may have unpredictable "
    "performance. If you want to execute this query despite the performance unpredictability, use "
    "ALLOW FILTERING";

TEST_F(CqlSelectTest, CompoundKeyRowsComeInClusteringOrder) {
  Exec(
      "CREATE TABLE user (user text, id int, message text, PRIMARY KEY (user, id));"
      "insert into user (user, id, message) values ('theo', 2, 'hello again');"
      "insert into user (user, id, message) values ('theo', 1, 'hello');"
      "insert into user (user, id, message) values ('theo', -5, 'first');");
  EXPECT_EQ(Select("SELECT * FROM user WHERE user = 'theo'"),
            (std::vector<std::string>{"theo|-5|first", "theo|1|hello", "theo|2|hello again"}));
  EXPECT_EQ(Select("SELECT id FROM user WHERE user = 'theo' ORDER BY id DESC"),
            (std::vector<std::string>{"2", "1", "-5"}));
  EXPECT_EQ(Select("SELECT id FROM user WHERE user = 'theo' AND id >= 1"),
            (std::vector<std::string>{"1", "2"}));
  EXPECT_EQ(Select("SELECT id FROM user WHERE user = 'theo' AND id > -5 AND id < 2"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(Select("SELECT id FROM user WHERE user = 'theo' AND id IN (2, -5)"),
            (std::vector<std::string>{"-5", "2"}));
}

TEST_F(CqlSelectTest, PartitionsComeInTokenOrder) {
  Exec(
      "CREATE TABLE t (k int PRIMARY KEY, v text);"
      "INSERT INTO t (k, v) VALUES (0, 'zero'); INSERT INTO t (k, v) VALUES (1, 'one');"
      "INSERT INTO t (k, v) VALUES (-1, 'minus'); INSERT INTO t (k, v) VALUES (42, 'answer');");
  EXPECT_EQ(Select("SELECT k, token(k) FROM t"),
            (std::vector<std::string>{"42|-7160136740246525330", "1|-4069959284402364209",
                                      "0|-3485513579396041028", "-1|7297452126230313552"}));
  EXPECT_EQ(Select("SELECT k FROM t WHERE token(k) > -4069959284402364209"),
            (std::vector<std::string>{"0", "-1"}));
  EXPECT_EQ(Select("SELECT k FROM t WHERE token(k) >= -4069959284402364209 AND token(k) < 0"),
            (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(Select("SELECT k FROM t WHERE token(k) > 7297452126230313552"),
            std::vector<std::string>{});
  EXPECT_EQ(Select("SELECT k FROM t LIMIT 2"), (std::vector<std::string>{"42", "1"}));
}

TEST_F(CqlSelectTest, InOnThePartitionKeyFollowsTheKeyValuesNotTheTokens) {
  // Cassandra sorts IN keys by the key type (MultiCBuilder's TreeSet) and reads them in turn.
  Exec(
      "CREATE TABLE t (k int PRIMARY KEY, v text);"
      "INSERT INTO t (k, v) VALUES (0, 'a'); INSERT INTO t (k, v) VALUES (-1, 'b');"
      "INSERT INTO t (k, v) VALUES (42, 'c');");
  EXPECT_EQ(Select("SELECT k FROM t WHERE k IN (42, -1, 0, 42, 7)"),
            (std::vector<std::string>{"-1", "0", "42"}));
}

TEST_F(CqlSelectTest, DescendingClusteringAndTimeuuidOrder) {
  Exec(
      "CREATE TABLE events (k text, at timeuuid, what text, PRIMARY KEY (k, at)) "
      "WITH CLUSTERING ORDER BY (at DESC);"
      // time_low ffffffff but an earlier time_hi: the earliest of the three.
      "INSERT INTO events (k, at, what) VALUES ('a', ffffffff-0000-1000-8000-000000000000, "
      "'early');"
      "INSERT INTO events (k, at, what) VALUES ('a', 00000000-0000-1001-8000-000000000000, 'late');"
      "INSERT INTO events (k, at, what) VALUES ('a', 00000000-0001-1000-8000-000000000000, "
      "'middle');");
  EXPECT_EQ(Select("SELECT what FROM events WHERE k = 'a'"),
            (std::vector<std::string>{"late", "middle", "early"}));
  EXPECT_EQ(Select("SELECT what FROM events WHERE k = 'a' ORDER BY at ASC"),
            (std::vector<std::string>{"early", "middle", "late"}));
  EXPECT_EQ(
      Select("SELECT what FROM events WHERE k = 'a' AND at < 00000000-0000-1001-8000-000000000000"),
      (std::vector<std::string>{"middle", "early"}));
}

TEST_F(CqlSelectTest, TextClusteringByUnsignedBytes) {
  Exec(
      "CREATE TABLE t (k int, c text, PRIMARY KEY (k, c));"
      "INSERT INTO t (k, c) VALUES (1, 'b'); INSERT INTO t (k, c) VALUES (1, 'é');"
      "INSERT INTO t (k, c) VALUES (1, 'B'); INSERT INTO t (k, c) VALUES (1, 'ab');"
      "INSERT INTO t (k, c) VALUES (1, '');");
  EXPECT_EQ(Select("SELECT c FROM t WHERE k = 1"),
            (std::vector<std::string>{"", "B", "ab", "b", "é"}));
}

TEST_F(CqlSelectTest, StaticColumnsRepeatOnEveryRow) {
  Exec(
      "CREATE TABLE t (k int, c int, s text STATIC, v int, PRIMARY KEY (k, c));"
      "INSERT INTO t (k, c, s, v) VALUES (1, 1, 'first', 10);"
      "INSERT INTO t (k, c, v) VALUES (1, 2, 20);"
      "UPDATE t SET s = 'shared' WHERE k = 1;"
      "INSERT INTO t (k, s) VALUES (2, 'alone');");
  EXPECT_EQ(Select("SELECT * FROM t WHERE k = 1"),
            (std::vector<std::string>{"1|1|shared|10", "1|2|shared|20"}));
  // A partition with only a static value gives one row with a null clustering column.
  EXPECT_EQ(Select("SELECT * FROM t WHERE k = 2"), (std::vector<std::string>{"2|null|alone|null"}));
  EXPECT_EQ(Select("SELECT * FROM t WHERE k = 2 AND c = 1"), std::vector<std::string>{});
  EXPECT_EQ(Select("SELECT DISTINCT k, s FROM t WHERE k IN (1, 2)"),
            (std::vector<std::string>{"1|shared", "2|alone"}));
}

TEST_F(CqlSelectTest, CompositePartitionKey) {
  Exec(
      "CREATE TABLE user (firstname text, lastname text, id int, message text, "
      "PRIMARY KEY ((firstname, lastname), id));"
      "INSERT INTO user (firstname, lastname, id, message) VALUES ('ann', 'smith', 1, 'x');"
      "INSERT INTO user (firstname, lastname, id, message) VALUES ('ann', 'jones', 1, 'y');");
  EXPECT_EQ(Select("SELECT token(firstname, lastname) FROM user WHERE firstname = 'ann' AND "
                   "lastname = 'smith'"),
            (std::vector<std::string>{"-7183557721371002741"}));  // cassandra-driver
  EXPECT_EQ(Select("SELECT message FROM user WHERE firstname = 'ann' AND lastname IN ('smith', "
                   "'jones')"),
            (std::vector<std::string>{"y", "x"}));  // 'jones' < 'smith'
  EXPECT_EQ(Error("SELECT * FROM user WHERE firstname = 'ann'").message(), kAllowFiltering);
  EXPECT_EQ(
      Select("SELECT message FROM user WHERE firstname = 'ann' AND id = 1 ALLOW FILTERING").size(),
      2u);
}

TEST_F(CqlSelectTest, CountLimitAndPerPartitionLimit) {
  Exec(
      "CREATE TABLE t (k int, c int, v int, PRIMARY KEY (k, c));"
      "INSERT INTO t (k, c, v) VALUES (0, 1, 1); INSERT INTO t (k, c, v) VALUES (0, 2, 2);"
      "INSERT INTO t (k, c, v) VALUES (0, 3, 3); INSERT INTO t (k, c, v) VALUES (1, 1, 4);"
      "INSERT INTO t (k, c, v) VALUES (1, 2, 5);");
  EXPECT_EQ(Select("SELECT COUNT(*) FROM t"), (std::vector<std::string>{"5"}));
  EXPECT_EQ(Select("SELECT COUNT(*) FROM t LIMIT 1"), (std::vector<std::string>{"5"}));
  EXPECT_EQ(Select("SELECT count(*) AS n FROM t WHERE k = 0"), (std::vector<std::string>{"3"}));
  EXPECT_EQ(Exec("SELECT count(*) AS n FROM t WHERE k = 0").rows.columns[0], "n");
  // token(1) < token(0): partition 1 first.
  EXPECT_EQ(Select("SELECT k, c FROM t PER PARTITION LIMIT 1"),
            (std::vector<std::string>{"1|1", "0|1"}));
  EXPECT_EQ(Select("SELECT k, c FROM t PER PARTITION LIMIT 2 LIMIT 3"),
            (std::vector<std::string>{"1|1", "1|2", "0|1"}));
  // Cassandra 4 refuses PER PARTITION LIMIT on an aggregate over everything.
  EXPECT_EQ(Error("SELECT COUNT(*) FROM t PER PARTITION LIMIT 1").message(),
            "PER PARTITION LIMIT is not allowed with aggregate queries.");
  EXPECT_EQ(Select("SELECT k, c FROM t WHERE v >= 3 ALLOW FILTERING"),
            (std::vector<std::string>{"1|1", "1|2", "0|3"}));
  EXPECT_EQ(Error("SELECT * FROM t LIMIT 0").message(), "LIMIT must be strictly positive");
  EXPECT_EQ(Error("SELECT * FROM t PER PARTITION LIMIT -1").message(),
            "PER PARTITION LIMIT must be strictly positive");
}

TEST_F(CqlSelectTest, CassandrasMessagesForRestrictions) {
  Exec(
      "CREATE TABLE t (k int, c1 int, c2 int, v int, PRIMARY KEY (k, c1, c2));"
      "CREATE TABLE p (k1 int, k2 int, c int, v int, PRIMARY KEY ((k1, k2), c));");
  EXPECT_EQ(Error("SELECT * FROM t WHERE v = 1").message(), kAllowFiltering);
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 AND v = 1").message(), kAllowFiltering);
  EXPECT_EQ(Error("SELECT * FROM t WHERE c1 = 1").message(), kAllowFiltering);
  EXPECT_EQ(Error("SELECT * FROM t WHERE k > 1").message(), kAllowFiltering);
  Status skipped = Error("SELECT * FROM t WHERE k = 1 AND c2 = 1");
  EXPECT_EQ(skipped.message(),
            "PRIMARY KEY column \"c2\" cannot be restricted as preceding column \"c1\" is not "
            "restricted");
  EXPECT_EQ(skipped.where().column, 33);
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 AND c1 > 1 AND c2 = 1").message(),
            "Clustering column \"c2\" cannot be restricted (preceding column \"c1\" is restricted "
            "by a non-EQ relation)");
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 AND c2 = 1 AND c1 > 1").message(),
            "PRIMARY KEY column \"c2\" cannot be restricted (preceding column \"c1\" is "
            "restricted by a non-EQ relation)");
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 ORDER BY v").message(),
            "Order by is currently only supported on the clustered columns of the PRIMARY KEY, "
            "got v");
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 ORDER BY c2").message(),
            "Order by currently only supports the ordering of columns following their declared "
            "order in the PRIMARY KEY");
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 ORDER BY c1 ASC, c2 DESC").message(),
            "Unsupported order by relation");
  EXPECT_EQ(Error("SELECT * FROM t ORDER BY c1").message(),
            "ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
  EXPECT_EQ(Error("SELECT * FROM t WHERE k IN (1, 2) ORDER BY c1 DESC").message(),
            "Cannot page queries with both ORDER BY and a IN restriction on the partition key; "
            "you must either remove the ORDER BY or the IN and sort client side, or disable "
            "paging for this query");
  EXPECT_EQ(Error("SELECT * FROM p WHERE k1 = 1 AND c = 2").message(), kAllowFiltering);
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = 1 AND k = 2").message(),
            "k cannot be restricted by more than one relation if it includes an Equal");
  EXPECT_EQ(Error("SELECT * FROM t WHERE token(c1) > 0").message(),
            "The token() function is only supported on the partition key, found on c1");
  EXPECT_EQ(Error("SELECT * FROM p WHERE token(k2, k1) > 0").message(),
            "The token function arguments must be in the partition key order: k1, k2");
  EXPECT_EQ(Error("SELECT * FROM t WHERE v != 1 ALLOW FILTERING").message(),
            "Unsupported \"!=\" relation: v != 1");
}

TEST_F(CqlSelectTest, TokenOnTheRightHandSide) {
  Exec(
      "CREATE TABLE p (k1 int, k2 int, v int, PRIMARY KEY ((k1, k2)));"
      "INSERT INTO p (k1, k2, v) VALUES (0, 1, 1); INSERT INTO p (k1, k2, v) VALUES (0, 2, 2);");
  EXPECT_EQ(Select("SELECT v FROM p WHERE token(k1, k2) = token(0, 1)"),
            (std::vector<std::string>{"1"}));
  // The same bound written as the number token() gives.
  StatementResult t = Exec("SELECT token(k1, k2) FROM p WHERE k1 = 0 AND k2 = 2");
  std::string token = FormatCqlshValue(t.rows.types[0], t.rows.rows[0][0]);
  EXPECT_EQ(
      Select("SELECT v FROM p WHERE token(k1, k2) >= token(0, 2) AND token(k1, k2) <= " + token),
      (std::vector<std::string>{"2"}));
  EXPECT_EQ(Error("SELECT v FROM p WHERE token(k1, k2) > token(0)").message(),
            "Invalid number of arguments in call to function system.token: 2 required but 1 "
            "provided");
  EXPECT_EQ(Error("SELECT v FROM p WHERE token(k1, k2) > token(0, null)").message(),
            "Invalid null value for partition key part k2");
}

TEST_F(CqlSelectTest, OrderByDistinctAndNullsFollowCassandra4) {
  Exec(
      "CREATE TABLE t (k int, a int, b int, s int static, v int, PRIMARY KEY (k, a, b));"
      "INSERT INTO t (k, a, b, s, v) VALUES (1, 0, 0, 7, 0);"
      "INSERT INTO t (k, a, b, v) VALUES (1, 0, 1, 1);");
  // Columns fixed by = may be skipped, and an IN of one value is an =.
  EXPECT_EQ(Select("SELECT b FROM t WHERE k = 1 AND a = 0 ORDER BY b DESC"),
            (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(Select("SELECT b FROM t WHERE k IN (1) AND a IN (0) ORDER BY b DESC"),
            (std::vector<std::string>{"1", "0"}));
  EXPECT_EQ(Exec("SELECT * FROM t WHERE k = 1").rows.columns,
            (std::vector<std::string>{"k", "a", "b", "s", "v"}));
  EXPECT_EQ(Select("SELECT DISTINCT s FROM t WHERE k = 1"), (std::vector<std::string>{"7"}));
  EXPECT_EQ(Error("SELECT DISTINCT k FROM t WHERE k = 1 AND a = 0").message(),
            "SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or "
            "static columns.");
  EXPECT_EQ(Error("SELECT * FROM t WHERE v = null").message(), kAllowFiltering);
  Status null_filter = Error("SELECT * FROM t WHERE v = null ALLOW FILTERING");
  EXPECT_EQ(null_filter.message(), "Unsupported null value for column v");
  EXPECT_EQ(null_filter.where().column, 27);
  Exec("CREATE TABLE b (k blob PRIMARY KEY, v int);");
  EXPECT_EQ(Error("SELECT * FROM b WHERE k = 0x").message(), "Key may not be empty");
  EXPECT_EQ(Error("DELETE FROM b WHERE k = 0x").message(), "Key may not be empty");
}

TEST_F(CqlSelectTest, UnknownNamesAndBadLiteralsArePositioned) {
  Exec("CREATE TABLE t (k int PRIMARY KEY, v text);");
  Status column = Error("SELECT nope FROM t");
  EXPECT_EQ(column.code(), ErrorCode::kCqlUnknown);
  EXPECT_EQ(column.message(), "Undefined column name nope");
  EXPECT_EQ(column.where().column, 8);
  Status where = Error("SELECT * FROM t WHERE x = 1");
  EXPECT_EQ(where.message(), "Undefined column name x");
  EXPECT_EQ(where.where().column, 23);
  Status table = Error("SELECT * FROM nope");
  EXPECT_EQ(table.message(), "unconfigured table nope");
  EXPECT_EQ(table.where().column, 15);
  Status literal = Error("SELECT * FROM t WHERE k = 'abc'");
  EXPECT_EQ(literal.code(), ErrorCode::kCqlBadLiteral);
  EXPECT_EQ(literal.message(), "Invalid STRING constant (abc) for \"k\" of type int");
  EXPECT_EQ(literal.where().column, 27);
  EXPECT_EQ(Error("SELECT * FROM t WHERE k = null").message(),
            "Invalid null value in condition for column k");
}

TEST_F(CqlSelectTest, FilteringOnCollections) {
  Exec(
      "CREATE TABLE t (k int PRIMARY KEY, tags set<text>, attrs map<text, int>);"
      "INSERT INTO t (k, tags, attrs) VALUES (1, {'a', 'b'}, {'x': 1});"
      "INSERT INTO t (k, tags, attrs) VALUES (2, {'b'}, {'y': 2});");
  EXPECT_EQ(Select("SELECT k FROM t WHERE tags CONTAINS 'a' ALLOW FILTERING"),
            (std::vector<std::string>{"1"}));
  EXPECT_EQ(Select("SELECT k FROM t WHERE attrs CONTAINS KEY 'y' ALLOW FILTERING"),
            (std::vector<std::string>{"2"}));
  EXPECT_EQ(Select("SELECT tags, attrs FROM t WHERE k = 1"),
            (std::vector<std::string>{"{'a', 'b'}|{'x': 1}"}));
  EXPECT_EQ(Error("SELECT * FROM t WHERE tags = {'a'} ALLOW FILTERING").message(),
            "Collection column 'tags' (set<text>) cannot be restricted by a '=' relation");
}

}  // namespace
}  // namespace partplay::cql
