// INSERT / UPDATE / DELETE semantics (upserts, row existence, static columns, collections, TTL)
// and their Cassandra messages; bulk loading from JSON; partition sizes by the sizing formulas.
#include "partplay/cassandra/modify.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cqlsh_lines.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {
namespace {

std::vector<std::string> Rows(const StatementResult& r) { return CqlshLines(r, "|"); }

class CqlModifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    Exec(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', "
        "'replication_factor': 1}; USE ks;"
        "CREATE TABLE t (k int, c int, v text, w int, PRIMARY KEY (k, c));");
  }
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
    EXPECT_EQ(all.back().kind, StatementResult::Kind::kError) << statement;
    return all.back().status;
  }
  Session session_;
};

TEST_F(CqlModifyTest, InsertIsAnUpsertOfTheColumnsWritten) {
  Exec(
      "INSERT INTO t (k, c, v, w) VALUES (1, 1, 'a', 10);"
      "INSERT INTO t (k, c, v) VALUES (1, 1, 'b');");
  EXPECT_EQ(Select("SELECT * FROM t"), (std::vector<std::string>{"1|1|b|10"}));
  Exec("INSERT INTO t (k, c, w) VALUES (1, 1, null);");
  EXPECT_EQ(Select("SELECT * FROM t"), (std::vector<std::string>{"1|1|b|null"}));
}

TEST_F(CqlModifyTest, RowsExistThroughTheirMarkerOrANonNullColumn) {
  // An INSERTed row stays even with every column null; an UPDATEd one does not.
  Exec(
      "INSERT INTO t (k, c) VALUES (1, 1);"
      "UPDATE t SET v = 'x' WHERE k = 1 AND c = 2;"
      "UPDATE t SET v = null WHERE k = 1 AND c = 2;"
      "UPDATE t SET v = null WHERE k = 1 AND c = 3;");
  EXPECT_EQ(Select("SELECT * FROM t"), (std::vector<std::string>{"1|1|null|null"}));
}

TEST_F(CqlModifyTest, DeleteRowsRangesColumnsAndPartitions) {
  for (int c = 1; c <= 5; ++c) {
    Exec("INSERT INTO t (k, c, v, w) VALUES (1, " + std::to_string(c) + ", 'x', 1);");
  }
  Exec("INSERT INTO t (k, c, v) VALUES (2, 1, 'y');");
  Exec("DELETE FROM t WHERE k = 1 AND c = 2;");
  Exec("DELETE FROM t WHERE k = 1 AND c >= 4;");
  Exec("DELETE w FROM t WHERE k = 1 AND c = 1;");
  EXPECT_EQ(Select("SELECT * FROM t WHERE k = 1"),
            (std::vector<std::string>{"1|1|x|null", "1|3|x|1"}));
  Exec("DELETE FROM t WHERE k = 1;");
  EXPECT_EQ(Select("SELECT * FROM t"), (std::vector<std::string>{"2|1|y|null"}));
  EXPECT_EQ(Error("DELETE v FROM t WHERE k = 2 AND c > 0").message(),
            "Range deletions are not supported for specific columns");
  EXPECT_EQ(Error("DELETE k FROM t WHERE k = 2").message(),
            "Invalid identifier k for deletion (should not be a PRIMARY KEY part)");
}

TEST_F(CqlModifyTest, StaticColumnsLiveOncePerPartition) {
  Exec(
      "CREATE TABLE s (k int, c int, st text STATIC, v int, PRIMARY KEY (k, c));"
      "INSERT INTO s (k, c, st, v) VALUES (1, 1, 'a', 1);"
      "INSERT INTO s (k, c, st, v) VALUES (1, 2, 'b', 2);");
  EXPECT_EQ(Select("SELECT c, st FROM s WHERE k = 1"), (std::vector<std::string>{"1|b", "2|b"}));
  EXPECT_EQ(Error("UPDATE s SET st = 'c' WHERE k = 1 AND c = 1").message(),
            "Invalid restrictions on clustering columns since the UPDATE statement modifies only "
            "static columns");
  Exec("DELETE st FROM s WHERE k = 1;");
  EXPECT_EQ(Select("SELECT c, st FROM s WHERE k = 1"),
            (std::vector<std::string>{"1|null", "2|null"}));
  EXPECT_EQ(Error("CREATE TABLE bad (k int PRIMARY KEY, st int STATIC)").message(),
            "Static columns are only useful (and thus allowed) if the table has at least one "
            "clustering column");
}

TEST_F(CqlModifyTest, CassandrasMessagesForModifications) {
  Exec("CREATE TABLE p (k1 int, k2 int, c int, v int, PRIMARY KEY ((k1, k2), c));");
  EXPECT_EQ(Error("UPDATE p SET v = 1 WHERE k1 = 1 AND c = 1").message(),
            "Some partition key parts are missing: k2");
  EXPECT_EQ(Error("INSERT INTO p (k1, c, v) VALUES (1, 1, 1)").message(),
            "Some partition key parts are missing: k2");
  EXPECT_EQ(Error("INSERT INTO p (k1, k2, v) VALUES (1, 1, 1)").message(),
            "Some clustering keys are missing: c");
  EXPECT_EQ(Error("DELETE FROM p WHERE k1 = 1 AND k2 > 1").message(),
            "Only EQ and IN relation are supported on the partition key (unless you use the "
            "token() function) for DELETE statements");
  EXPECT_EQ(Error("UPDATE p SET v = 1 WHERE k1 = 1 AND k2 = 1 AND c = 1 AND v = 2").message(),
            "Non PRIMARY KEY columns found in where clause: v");
  EXPECT_EQ(Error("UPDATE p SET v = 1 WHERE k1 = 1 AND k2 = 1 AND c > 1").message(),
            "Slice restrictions are not supported on the clustering columns in UPDATE statements");
  EXPECT_EQ(Error("UPDATE p SET c = 1 WHERE k1 = 1 AND k2 = 1").message(),
            "PRIMARY KEY part c found in SET part");
  EXPECT_EQ(Error("INSERT INTO p (k1, k2, c) VALUES (1, 1)").message(),
            "Unmatched column names/values");
  EXPECT_EQ(Error("INSERT INTO p (k1, k2, c, c) VALUES (1, 1, 1, 1)").message(),
            "The column names contains duplicates");
  EXPECT_EQ(Error("INSERT INTO p (k1, k2, c) VALUES (1, null, 1)").message(),
            "Invalid null value in condition for column k2");
  EXPECT_EQ(Error("INSERT INTO p (k1, k2, c) VALUES (1, 1, 1) USING TTL -1").message(),
            "A TTL must be greater or equal to 0, but was -1");
  EXPECT_EQ(Error("UPDATE p SET v = 1 WHERE token(k1, k2) = 1 AND c = 1").message(),
            "The token function cannot be used in WHERE clauses for UPDATE statements");
  Status bad = Error("INSERT INTO p (k1, k2, c) VALUES (1, 99999999999, 1)");
  EXPECT_EQ(bad.message(), "Unable to make int from '99999999999'");
  EXPECT_EQ(bad.where().column, 38);
}

TEST_F(CqlModifyTest, CollectionsAssignAppendRemoveAndElements) {
  Exec(
      "CREATE TABLE c (k int PRIMARY KEY, l list<int>, s set<text>, m map<text, int>);"
      "INSERT INTO c (k, l, s, m) VALUES (1, [1, 2], {'b'}, {'x': 1});"
      "UPDATE c SET l = l + [3], s = s + {'a'}, m['y'] = 2 WHERE k = 1;"
      "UPDATE c SET l = [0] + l, m = m - {'x'} WHERE k = 1;"
      "UPDATE c SET l[1] = 9, s = s - {'b'} WHERE k = 1;");
  EXPECT_EQ(Select("SELECT l, s, m FROM c"),
            (std::vector<std::string>{"[0, 9, 2, 3]|{'a'}|{'y': 2}"}));
  Exec("UPDATE c SET s = {} WHERE k = 1;");
  EXPECT_EQ(Select("SELECT s FROM c"), (std::vector<std::string>{"null"}));
  EXPECT_EQ(Error("UPDATE c SET l[7] = 1 WHERE k = 1").message(),
            "List index 7 out of bound, list has size 4");
}

TEST_F(CqlModifyTest, DeleteCollectionElements) {
  Exec(
      "CREATE TABLE c (k int, x int, l list<int>, s set<text>, m map<text, int>, f "
      "frozen<set<int>>,"
      " st set<int> static, PRIMARY KEY (k, x));"
      "INSERT INTO c (k, x, l, s, m, f, st) VALUES (1, 1, [1, 2, 3], {'a', 'b'}, {'x': 1, 'y': 2},"
      " {1}, {7, 8});"
      "DELETE l[1], s['a'], m['x'] FROM c WHERE k = 1 AND x = 1;"
      "DELETE st[7] FROM c WHERE k = 1;");
  EXPECT_EQ(Select("SELECT l, s, m, st FROM c"),
            (std::vector<std::string>{"[1, 3]|{'b'}|{'y': 2}|{8}"}));
  // The last element gone, the collection is null.
  Exec("DELETE s['b'] FROM c WHERE k = 1 AND x = 1;");
  EXPECT_EQ(Select("SELECT s FROM c"), (std::vector<std::string>{"null"}));
  EXPECT_EQ(Error("DELETE l[5] FROM c WHERE k = 1 AND x = 1").message(),
            "List index 5 out of bound, list has size 2");
  EXPECT_EQ(Error("DELETE x[1] FROM c WHERE k = 1 AND x = 1").message(),
            "Invalid identifier x for deletion (should not be a PRIMARY KEY part)");
  Exec(
      "CREATE TABLE d (k int PRIMARY KEY, v int, f frozen<set<int>>, l list<int>);"
      "INSERT INTO d (k, v) VALUES (1, 1);");
  EXPECT_EQ(Error("DELETE v[1] FROM d WHERE k = 1").message(),
            "Invalid deletion operation for non collection column v");
  EXPECT_EQ(Error("DELETE f[1] FROM d WHERE k = 1").message(),
            "Invalid deletion operation for frozen collection column f");
  EXPECT_EQ(Error("DELETE l[0] FROM d WHERE k = 1").message(),
            "Attempted to delete an element from a list which is null");
  EXPECT_EQ(Error("DELETE m[1] FROM c WHERE k = 1 AND x >= 1").message(),
            "Range deletions are not supported for specific columns");
}

TEST_F(CqlModifyTest, ConditionalStatementsReturnApplied) {
  StatementResult first = Exec("INSERT INTO t (k, c, v) VALUES (1, 1, 'a') IF NOT EXISTS");
  EXPECT_EQ(Rows(first), (std::vector<std::string>{"True"}));
  StatementResult second = Exec("INSERT INTO t (k, c, v) VALUES (1, 1, 'b') IF NOT EXISTS");
  EXPECT_EQ(Rows(second), (std::vector<std::string>{"False|1|1|a|null"}));
  EXPECT_EQ(second.rows.columns[0], "[applied]");
  EXPECT_EQ(Rows(Exec("UPDATE t SET v = 'c' WHERE k = 9 AND c = 9 IF EXISTS")),
            (std::vector<std::string>{"False"}));
  EXPECT_EQ(Select("SELECT v FROM t"), (std::vector<std::string>{"a"}));
}

TEST_F(CqlModifyTest, InsertJsonAndBulkLoading) {
  Exec(
      "CREATE TABLE j (id uuid PRIMARY KEY, \"Name\" text, n bigint, tags set<int>);"
      "INSERT INTO j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\", "
      "\"\\\"Name\\\"\": \"x\", \"n\": 9223372036854775807, \"tags\": [3, 1]}';");
  EXPECT_EQ(Select("SELECT \"Name\", n, tags FROM j"),
            (std::vector<std::string>{"x|9223372036854775807|{1, 3}"}));
  EXPECT_EQ(Error("INSERT INTO j JSON '{\"id\": \"6ab09bec-e68e-48d9-a5f8-97e6fb4c9b47\", "
                  "\"bogus\": 1}'")
                .message(),
            "JSON values map contains unrecognized column: bogus");
  StatusOr<int64_t> loaded = session_.LoadJson(
      "ks.t", "{\"k\": 5, \"c\": 1, \"v\": \"a\"}\n{\"k\": 5, \"c\": 2, \"w\": 7}\n");
  ASSERT_TRUE(loaded.ok()) << loaded.status().ToString();
  EXPECT_EQ(loaded.value(), 2);
  EXPECT_EQ(Select("SELECT * FROM t WHERE k = 5"),
            (std::vector<std::string>{"5|1|a|null", "5|2|null|7"}));
  StatusOr<int64_t> array = session_.LoadJson("t", "[{\"k\": 6, \"c\": 1}, {\"k\": 6}]");
  ASSERT_FALSE(array.ok());
  // A column missing from the JSON is null (DEFAULT NULL), as in INSERT ... JSON.
  EXPECT_EQ(array.status().message(), "Invalid null value in condition for column c");
  EXPECT_EQ(array.status().where().item_index, 1);
}

TEST_F(CqlModifyTest, PartitionSizesFollowTheSizingFormulas) {
  // The hotel example of cassandra-partition-sizing.md: Nc = 4, Npk = 3, Ns = 0, so Nv = Nr, and
  // St = 5 (hotel_id) + Nr x (4 (date) + 2 (room_number) + 1 (is_available)) + Nv x 8.
  Exec(
      "CREATE TABLE available_rooms_by_hotel_date (hotel_id text, date date, room_number "
      "smallint, is_available boolean, PRIMARY KEY ((hotel_id), date, room_number));");
  StatusOr<Table*> table = session_.FindTable("available_rooms_by_hotel_date");
  ASSERT_TRUE(table.ok());
  std::string script;
  for (int day = 0; day < 73; ++day) {
    for (int room = 1; room <= 100; ++room) {
      script +=
          "INSERT INTO available_rooms_by_hotel_date (hotel_id, date, room_number, "
          "is_available) VALUES ('AZ123', " +
          std::to_string(2147483648LL + 19000 + day) + ", " + std::to_string(room) + ", true);";
    }
  }
  Exec(script);
  ASSERT_EQ(table.value()->partitions().size(), 1u);
  PartitionSize size = table.value()->SizeOf(table.value()->partitions().begin()->second);
  EXPECT_EQ(size.rows, 7300);
  EXPECT_EQ(size.cells, 7300);
  EXPECT_EQ(size.bytes, 5 + 7300 * 7 + 7300 * 8);
}

}  // namespace
}  // namespace partplay::cql
