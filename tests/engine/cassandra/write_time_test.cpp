// Write times, TTLs and tombstones (authored cases; Cassandra's own are in
// tests/cassandra-suite/WritetimeOrTTLTest.cases, TTLTest.cases and ttl_test.cases): the last
// write by timestamp wins whatever the order they arrive in, a deletion shadows what was written
// at or before it, ADVANCE CLOCK expires cells and rows, and each partition counts the
// tombstones it was given.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/session.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

SessionOptions At2026() {
  SessionOptions o;
  o.now_millis = 1796000000000;  // 2026-11-30 00:53:20Z
  return o;
}

constexpr char kTable[] = "CREATE TABLE t (k int, c int, v int, s int static, PRIMARY KEY (k, c));";

int64_t Tombstones(Session& s, int k) {
  StatusOr<Table*> t = s.FindTable("ks.t");
  EXPECT_TRUE(t.ok());
  const Partition* p = t.value()->Find(Table::KeyOf({EncodeInt32(k)}));
  if (p != nullptr) return t.value()->SizeOf(*p).tombstones;
  const Deletions* d = t.value()->DeletionsOf(Table::KeyOf({EncodeInt32(k)}));
  return d == nullptr ? 0 : d->tombstones;
}

TEST(CqlWriteTimeTest, TheLaterTimestampWinsWhateverTheOrder) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 20) USING TIMESTAMP 2000;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 10) USING TIMESTAMP 1000;");  // arrives late
  EXPECT_EQ(Rows(Last(s, "SELECT v, WRITETIME(v) FROM t WHERE k = 1;")),
            (std::vector<std::string>{"20 | 2000"}));
  // At the same timestamp the greater value wins (Cells.resolveRegular).
  Last(s, "UPDATE t USING TIMESTAMP 2000 SET v = 15 WHERE k = 1 AND c = 1;");
  Last(s, "UPDATE t USING TIMESTAMP 2000 SET v = 30 WHERE k = 1 AND c = 1;");
  EXPECT_EQ(Rows(Last(s, "SELECT v FROM t WHERE k = 1;")), (std::vector<std::string>{"30"}));
  // Without USING TIMESTAMP each write is a microsecond after the last, from the session's clock.
  StatementResult a = Last(s, "INSERT INTO t (k, c, v) VALUES (2, 1, 1);");
  (void)a;
  Last(s, "INSERT INTO t (k, c, v) VALUES (2, 2, 1);");
  EXPECT_EQ(Rows(Last(s, "SELECT WRITETIME(v) FROM t WHERE k = 2;")),
            (std::vector<std::string>{"1796000000000000", "1796000000000001"}));
}

TEST(CqlWriteTimeTest, ADeletionShadowsOnlyWhatWasWrittenAtOrBeforeIt) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TIMESTAMP 100;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 2, 2) USING TIMESTAMP 300;");
  Last(s, "DELETE FROM t USING TIMESTAMP 200 WHERE k = 1;");
  EXPECT_EQ(Rows(Last(s, "SELECT c, v FROM t WHERE k = 1;")), (std::vector<std::string>{"2 | 2"}));
  // A write older than the partition deletion is shadowed; a newer one is not.
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 3, 3) USING TIMESTAMP 150;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 4, 4) USING TIMESTAMP 250;");
  EXPECT_EQ(Rows(Last(s, "SELECT c FROM t WHERE k = 1;")), (std::vector<std::string>{"2", "4"}));
  // A row deletion shadows that row only.
  Last(s, "DELETE FROM t USING TIMESTAMP 400 WHERE k = 1 AND c = 2;");
  Last(s, "UPDATE t USING TIMESTAMP 350 SET v = 9 WHERE k = 1 AND c = 2;");
  EXPECT_EQ(Rows(Last(s, "SELECT c FROM t WHERE k = 1;")), (std::vector<std::string>{"4"}));
}

TEST(CqlWriteTimeTest, AdvanceClockExpiresCellsThenRows) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TTL 100;");
  Last(s, "UPDATE t USING TTL 3600 SET v = 2 WHERE k = 1 AND c = 2;");
  EXPECT_EQ(Rows(Last(s, "SELECT c, TTL(v) FROM t WHERE k = 1;")),
            (std::vector<std::string>{"1 | 100", "2 | 3600"}));
  StatementResult advanced = Last(s, "ADVANCE CLOCK 90s");
  EXPECT_EQ(advanced.message, "Clock advanced by 1m30s to 2026-11-30 00:54:50.000Z.");
  EXPECT_EQ(Rows(Last(s, "SELECT c, TTL(v) FROM t WHERE k = 1;")),
            (std::vector<std::string>{"1 | 10", "2 | 3510"}));
  Last(s, "ADVANCE CLOCK 10s");
  // The INSERTed row's marker and cell expired together; the UPDATE's row lives on.
  EXPECT_EQ(Rows(Last(s, "SELECT c FROM t WHERE k = 1;")), (std::vector<std::string>{"2"}));
  EXPECT_EQ(Tombstones(s, 1), 1);  // the expired cell
  Last(s, "ADVANCE CLOCK 1h");
  EXPECT_TRUE(Rows(Last(s, "SELECT * FROM t;")).empty());
  EXPECT_EQ(Tombstones(s, 1), 2);
  EXPECT_EQ(ErrorAt(s, "ADVANCE CLOCK 1mo").message,
            "ADVANCE CLOCK moves the clock forward by days and smaller units (a month has no "
            "fixed length)");
  EXPECT_EQ(ErrorAt(s, "ADVANCE CLOCK soon").message,
            "ADVANCE CLOCK takes a duration: 30s, 2h, 1d, 1h30m, 500ms");
}

TEST(CqlWriteTimeTest, TombstonesAreCountedPerPartition) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "INSERT INTO t (k, c, v, s) VALUES (1, 1, null, 5);");  // a null written: a tombstone
  EXPECT_EQ(Tombstones(s, 1), 1);
  Last(s, "DELETE v FROM t WHERE k = 1 AND c = 1;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 2, 2); INSERT INTO t (k, c, v) VALUES (1, 3, 3);");
  Last(s, "DELETE FROM t WHERE k = 1 AND c >= 2;");  // one range tombstone
  EXPECT_EQ(Tombstones(s, 1), 3);
  Last(s, "DELETE FROM t WHERE k = 1;");
  EXPECT_EQ(Tombstones(s, 1), 4);
  EXPECT_EQ(Tombstones(s, 2), 0);
}

TEST(CqlWriteTimeTest, ATtlPast2038IsRefusedAsCassandra41Does) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t (k, c, v) VALUES (1, 1, 1) USING TTL 630720000;").message,
            "Request on table ks.t with ttl of 630720000 seconds exceeds maximum supported "
            "expiration date of 2038-01-19T03:14:06+00:00. In order to avoid this use a lower TTL, "
            "change the expiration date overflow policy or upgrade to a version where this "
            "limitation is fixed. See CASSANDRA-14092 for more details.");
  EXPECT_TRUE(Rows(Last(s, "SELECT * FROM t;")).empty());
}

// The store finds a partition written to again through a cache (store.h: Upsert): a partition
// gone (deleted, expired, truncated) and written again is a new one, holding only the new write.
TEST(CqlWriteTimeTest, APartitionGoneAndWrittenAgainIsNew) {
  Session s(At2026());
  Last(s, std::string(kKeyspace) + kTable);
  Last(s, "INSERT INTO t (k, c, v, s) VALUES (1, 1, 10, 7) USING TIMESTAMP 1000;");
  Last(s, "DELETE FROM t USING TIMESTAMP 2000 WHERE k = 1;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 2, 20) USING TIMESTAMP 3000;");
  EXPECT_EQ(Rows(Last(s, "SELECT c, v, s FROM t WHERE k = 1;")),
            (std::vector<std::string>{"2 | 20 | null"}));
  Last(s, "INSERT INTO t (k, c, v) VALUES (2, 1, 5) USING TTL 60;");
  Last(s, "ADVANCE CLOCK 90s");
  Last(s, "INSERT INTO t (k, c, v) VALUES (2, 3, 30);");
  EXPECT_EQ(Rows(Last(s, "SELECT c, v FROM t WHERE k = 2;")), (std::vector<std::string>{"3 | 30"}));
  Last(s, "TRUNCATE t;");
  Last(s, "INSERT INTO t (k, c, v) VALUES (1, 4, 40);");
  EXPECT_EQ(Rows(Last(s, "SELECT k, c, v FROM t;")), (std::vector<std::string>{"1 | 4 | 40"}));
}

}  // namespace
}  // namespace partplay::cql
