// ALTER TABLE and ALTER KEYSPACE (authored cases; Cassandra's own are in
// tests/cassandra-suite/AlterTest.cases): what the rows, the indexes, DESCRIBE and the replicas
// see after a column is added, dropped or renamed, and where each refusal points.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/session.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

constexpr char kTable[] =
    "CREATE TABLE t (k int, c int, s int static, a int, b text, PRIMARY KEY (k, c));"
    "CREATE INDEX b_idx ON t (b);"
    "INSERT INTO t (k, c, s, a, b) VALUES (1, 1, 7, 10, 'x');"
    "UPDATE t SET a = 20 WHERE k = 1 AND c = 2;"  // no row marker: a is its only cell
    "INSERT INTO t (k, c, b) VALUES (2, 1, 'y');";

TEST(CqlAlterTableTest, DroppingAColumnRemovesItsValuesAndTheRowsThatHeldNothingElse) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "ALTER TABLE t DROP a;");
  EXPECT_EQ(Rows(Last(s, "SELECT * FROM t;")),
            (std::vector<std::string>{"1 | 1 | 7 | x", "2 | 1 | null | y"}));
  // The index on b, declared after a, still answers.
  EXPECT_EQ(Rows(Last(s, "SELECT k, c FROM t WHERE b = 'y';")),
            (std::vector<std::string>{"2 | 1"}));
  // Added again, it reads null everywhere and takes new values.
  Last(s, "ALTER TABLE t ADD a int;");
  Last(s, "UPDATE t SET a = 3 WHERE k = 2 AND c = 1;");
  EXPECT_EQ(Rows(Last(s, "SELECT k, c, a FROM t;")),
            (std::vector<std::string>{"1 | 1 | null", "2 | 1 | 3"}));
}

TEST(CqlAlterTableTest, AddedColumnsAppearInSelectStarAndDescribe) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "ALTER TABLE t ADD (z int, m map<text, int>, s2 text static);");
  StatementResult r = Last(s, "SELECT * FROM t WHERE k = 1 AND c = 1;");
  EXPECT_EQ(r.rows.columns,
            (std::vector<std::string>{"k", "c", "s", "s2", "a", "b", "m", "z"}));
  StatementResult d = Last(s, "DESCRIBE TABLE t;");
  EXPECT_NE(d.message.find("z int"), std::string::npos) << d.message;
  EXPECT_NE(d.message.find("s2 text static"), std::string::npos) << d.message;
}

TEST(CqlAlterTableTest, RenamingAKeyColumnKeepsTheRows) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "ALTER TABLE t RENAME k TO id AND c TO pos;");
  EXPECT_EQ(Rows(Last(s, "SELECT id, pos, a FROM t WHERE id = 1;")),
            (std::vector<std::string>{"1 | 1 | 10", "1 | 2 | 20"}));
  EXPECT_EQ(ErrorAt(s, "SELECT k FROM t;").message, "Undefined column name k");
}

TEST(CqlAlterTableTest, RefusalsNameTheColumnWhereItIsWritten) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  Located drop = ErrorAt(s, "ALTER TABLE t DROP c;");
  EXPECT_EQ(drop.message, "Cannot drop PRIMARY KEY column c");
  EXPECT_EQ(drop.column, 20);
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t DROP b;").message,
            "Cannot drop column b because it has dependent secondary indexes (b_idx)");
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t DROP nope;").message,
            "Column nope was not found in table 'ks.t'");
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t RENAME a TO q;").message,
            "Cannot rename non PRIMARY KEY column a");
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t RENAME k TO a;").message,
            "Cannot rename column k to a in table 'ks.t'; another column with that name already "
            "exists");
  Located add = ErrorAt(s, "ALTER TABLE t ADD a int;");
  EXPECT_EQ(add.message, "Column with name 'a' already exists");
  EXPECT_EQ(add.column, 19);
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE nope ADD q int;").message, "Table 'ks.nope' doesn't exist");
  EXPECT_EQ(ErrorAt(s, "ALTER TABLE t WITH default_time_to_live = -1;").message,
            "default_time_to_live must be greater than or equal to 0 (got -1)");
  // A refused statement changed nothing.
  EXPECT_EQ(Rows(Last(s, "SELECT k, c, a, b FROM t WHERE k = 1;")),
            (std::vector<std::string>{"1 | 1 | 10 | x", "1 | 2 | 20 | null"}));
}

TEST(CqlAlterTableTest, AlterKeyspaceMovesTheReplicasAndWarnsWhenTheFactorGrows) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  StatementResult before = Last(s, "SELECT k FROM t WHERE k = 1;");
  ASSERT_EQ(before.rows.partitions.size(), 1u);
  EXPECT_EQ(before.rows.partitions[0].replicas.size(), 1u);
  StatementResult alter = Last(s,
                               "ALTER KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
                               "'replication_factor': 3};");
  EXPECT_EQ(alter.warnings,
            (std::vector<std::string>{"When increasing replication factor you need to run a full "
                                      "(-full) repair to distribute the data."}));
  StatementResult after = Last(s, "SELECT k FROM t WHERE k = 1;");
  EXPECT_EQ(after.rows.partitions[0].replicas.size(), 3u);
  // durable_writes alone keeps the replication.
  EXPECT_TRUE(Last(s, "ALTER KEYSPACE ks WITH durable_writes = false;").warnings.empty());
  EXPECT_EQ(Last(s, "SELECT k FROM t WHERE k = 1;").rows.partitions[0].replicas.size(), 3u);
  EXPECT_EQ(ErrorAt(s, "ALTER KEYSPACE nope WITH durable_writes = true;").message,
            "Keyspace 'nope' doesn't exist");
}

}  // namespace
}  // namespace partplay::cql
