// BEGIN BATCH ... APPLY BATCH (authored cases; the ones ported from Cassandra's tests are in
// tests/cassandra-suite/BatchTest.cases): one statement across the ';' inside it, applied whole or
// not at all, its statements at one timestamp, Cassandra's checks and client warnings, and the
// partitions it wrote with their tokens and replicas.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/session.h"
#include "partplay/cassandra/token.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

constexpr char kTable[] = "CREATE TABLE t (k int, c int, v text, PRIMARY KEY (k, c));";

class BatchTest : public ::testing::Test {
 protected:
  void SetUp() override { Last(s_, std::string(kKeyspace) + kTable); }
  std::vector<std::string> All() { return Rows(Last(s_, "SELECT * FROM t")); }
  Session s_;
};

TEST_F(BatchTest, AcrossPartitionsIsOneStatementAndAppliesWhole) {
  std::vector<StatementResult> r = s_.Execute(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (2, 0, 'a'); INSERT INTO t (k, c, v) VALUES "
      "(3, 0, 'b'); APPLY BATCH; SELECT k FROM t;");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kind, StatementResult::Kind::kVoid) << r[0].status.message();
  EXPECT_EQ(r[0].verb, "BATCH");
  EXPECT_EQ(r[0].source_begin, 0);
  EXPECT_EQ(r[0].statement.substr(r[0].statement.size() - 11), "APPLY BATCH");
  EXPECT_EQ(Rows(r[1]), (std::vector<std::string>{"2", "3"}));
}

// The report: the second statement fails, so the first must not be written either.
TEST_F(BatchTest, AFailingStatementLeavesNothingOfTheBatch) {
  std::vector<StatementResult> r = s_.Execute(
      "BEGIN BATCH\n"
      "  INSERT INTO t (k, c, v) VALUES (2, 0, 'a');\n"
      "  UPDATE t SET v = 'x' WHERE k = 2 AND c = 1;\n"
      "  INSERT INTO t (k, c, v) VALUES (3, 'zero', 'b');\n"
      "APPLY BATCH;");
  ASSERT_EQ(r.size(), 1u);
  ASSERT_EQ(r[0].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[0].status.message(), "Invalid STRING constant (zero) for \"c\" of type int");
  EXPECT_EQ(r[0].status.where().line, 4);
  EXPECT_EQ(r[0].status.where().column, 38);
  EXPECT_TRUE(All().empty());
  // A deletion that fails after the writes ran puts the written rows back too.
  Last(s_, "INSERT INTO t (k, c, v) VALUES (5, 0, 'kept')");
  r = s_.Execute(
      "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (5, 1, 'new'); DELETE FROM t WHERE k = 5 AND "
      "c = 0; DELETE v FROM t WHERE k = 5 AND c > 0; APPLY BATCH");
  ASSERT_EQ(r[0].kind, StatementResult::Kind::kError);
  EXPECT_EQ(r[0].status.message(), "Range deletions are not supported for specific columns");
  EXPECT_EQ(All(), (std::vector<std::string>{"5 | 0 | kept"}));
}

TEST_F(BatchTest, SyntaxErrorsNameTheTokenAndTheNextStatementRuns) {
  std::vector<StatementResult> r =
      s_.Execute("BEGIN BATCH SELECT * FROM t; APPLY BATCH; INSERT INTO t (k, c) VALUES (1, 1);");
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].status.message(), "mismatched input 'SELECT' expecting APPLY");
  EXPECT_EQ(r[0].status.where().column, 13);
  EXPECT_EQ(r[1].kind, StatementResult::Kind::kVoid);
  r = s_.Execute("BEGIN BATCH INSERT INTO t (k, c) VALUES (7, 7);\n");
  ASSERT_EQ(r.size(), 1u);
  EXPECT_EQ(r[0].status.message(), "mismatched input '<EOF>' expecting APPLY");
  r = s_.Execute("APPLY BATCH;");
  EXPECT_EQ(r[0].status.message(), "no viable alternative at input 'APPLY'");
  EXPECT_EQ(All(), (std::vector<std::string>{"1 | 1 | null"}));
}

// One timestamp for the whole batch: Cassandra's winner at equal timestamps, whatever the order.
TEST_F(BatchTest, StatementsShareOneTimestamp) {
  Last(s_,
       "BEGIN BATCH UPDATE t SET v = 'b' WHERE k = 1 AND c = 0; UPDATE t SET v = 'c' WHERE k = 1 "
       "AND c = 0; UPDATE t SET v = 'a' WHERE k = 1 AND c = 0; APPLY BATCH");
  EXPECT_EQ(All(), (std::vector<std::string>{"1 | 0 | c"}));  // the greatest value
  Last(s_,
       "BEGIN BATCH UPDATE t SET v = null WHERE k = 1 AND c = 0; UPDATE t SET v = 'z' WHERE k = 1 "
       "AND c = 0; APPLY BATCH");
  EXPECT_TRUE(All().empty());  // the tombstone wins; the row had no marker
  // A deletion shadows the batch's own writes to what it deletes, before or after it.
  Last(s_,
       "BEGIN BATCH DELETE FROM t WHERE k = 2 AND c = 0; INSERT INTO t (k, c, v) VALUES (2, 0, "
       "'x'); INSERT INTO t (k, c, v) VALUES (2, 1, 'y'); APPLY BATCH");
  EXPECT_EQ(All(), (std::vector<std::string>{"2 | 1 | y"}));
  Last(s_,
       "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (3, 5, 'x'); DELETE FROM t WHERE k = 3 AND c "
       ">= 5; APPLY BATCH");
  EXPECT_EQ(All(), (std::vector<std::string>{"2 | 1 | y"}));
}

TEST_F(BatchTest, CassandraChecksInItsOrderAndWording) {
  Last(s_, "CREATE TABLE n (k int PRIMARY KEY, n counter); CREATE TABLE u (k int PRIMARY KEY);");
  auto error = [&](std::string_view batch) { return ErrorAt(s_, batch).message; };
  EXPECT_EQ(error("BEGIN BATCH USING TTL 10 INSERT INTO t (k, c) VALUES (1, 1) APPLY BATCH"),
            "Global TTL on the BATCH statement is not supported.");
  EXPECT_EQ(error("BEGIN BATCH USING TIMESTAMP 10 INSERT INTO t (k, c) VALUES (1, 1) USING "
                  "TIMESTAMP 11 APPLY BATCH"),
            "Timestamp must be set either on BATCH or individual statements");
  EXPECT_EQ(error("BEGIN COUNTER BATCH USING TIMESTAMP 10 UPDATE n SET n = n + 1 WHERE k = 1 "
                  "APPLY BATCH"),
            "Cannot provide custom timestamp for counter BATCH");
  EXPECT_EQ(error("BEGIN UNLOGGED BATCH USING TIMESTAMP 10 UPDATE n SET n = n + 1 WHERE k = 1 "
                  "APPLY BATCH"),
            "Cannot provide custom timestamp for a BATCH containing counters");
  EXPECT_EQ(error("BEGIN COUNTER BATCH INSERT INTO t (k, c) VALUES (1, 1) APPLY BATCH"),
            "Cannot include non-counter statement in a counter batch");
  EXPECT_EQ(error("BEGIN UNLOGGED BATCH INSERT INTO t (k, c) VALUES (1, 1) UPDATE n SET n = n + 1 "
                  "WHERE k = 1 APPLY BATCH"),
            "Counter and non-counter mutations cannot exist in the same batch");
  EXPECT_EQ(error("BEGIN BATCH UPDATE n SET n = n + 1 WHERE k = 1 APPLY BATCH"),
            "Cannot include a counter statement in a logged batch");
  EXPECT_EQ(error("BEGIN BATCH USING TIMESTAMP 10 INSERT INTO t (k, c) VALUES (1, 1) IF NOT "
                  "EXISTS APPLY BATCH"),
            "Cannot provide custom timestamp for conditional BATCH");
  EXPECT_EQ(error("BEGIN BATCH INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS UPDATE n SET n = "
                  "n + 1 WHERE k = 1 APPLY BATCH"),
            "Counter and non-counter mutations cannot exist in the same batch");
  EXPECT_EQ(error("BEGIN BATCH INSERT INTO t (k, c) VALUES (1, 1) IF NOT EXISTS INSERT INTO t (k, "
                  "c) VALUES (2, 2) APPLY BATCH"),
            "Batch with conditions cannot span multiple partitions");
  EXPECT_EQ(error("BEGIN BATCH UPDATE t SET v = 'a' WHERE k IN (1, 2) AND c = 1 IF v = 'b' APPLY "
                  "BATCH"),
            "Batch with conditions cannot span multiple partitions (you cannot use IN on the "
            "partition key)");
  EXPECT_EQ(error("BEGIN BATCH UPDATE t SET v = 'a' WHERE k = 1 AND c = 1 IF v = 'b' INSERT INTO "
                  "u (k) VALUES (1) APPLY BATCH"),
            "Batch with conditions cannot span multiple tables");
  EXPECT_EQ(error("BEGIN BATCH INSERT INTO nope (k) VALUES (1) APPLY BATCH"),
            "unconfigured table nope");
  EXPECT_TRUE(All().empty());
  // A conditional batch on one partition: [applied], and the rows its conditions read when not.
  StatementResult applied = Last(s_,
                                 "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 1, 'a') IF NOT "
                                 "EXISTS INSERT INTO t (k, c, v) VALUES (1, 2, 'b') APPLY BATCH");
  EXPECT_EQ(Rows(applied), (std::vector<std::string>{"True"}));
  StatementResult refused = Last(s_,
                                 "BEGIN BATCH UPDATE t SET v = 'x' WHERE k = 1 AND c = 1 IF v = "
                                 "'z' UPDATE t SET v = 'y' WHERE k = 1 AND c = 2 APPLY BATCH");
  EXPECT_EQ(refused.rows.columns, (std::vector<std::string>{"[applied]", "k", "c", "v"}));
  EXPECT_EQ(Rows(refused), (std::vector<std::string>{"False | 1 | 1 | a"}));
  EXPECT_EQ(All(), (std::vector<std::string>{"1 | 1 | a", "1 | 2 | b"}));
  Last(s_, "TRUNCATE t");
  // Counters in a counter batch add up, statement after statement.
  Last(s_,
       "BEGIN COUNTER BATCH UPDATE n SET n = n + 1 WHERE k = 1; UPDATE n SET n = n + 2 WHERE k = "
       "1; APPLY BATCH");
  EXPECT_EQ(Rows(Last(s_, "SELECT n FROM n")), (std::vector<std::string>{"3"}));
  // A timestamp on the batch is the statements' timestamp.
  EXPECT_EQ(Last(s_, "BEGIN BATCH USING TIMESTAMP 10 INSERT INTO t (k, c) VALUES (1, 1) APPLY "
                     "BATCH")
                .kind,
            StatementResult::Kind::kVoid);
}

TEST_F(BatchTest, ThePartitionsWrittenWithTokensAndReplicas) {
  Last(s_, "CREATE TABLE u (a text, b int, PRIMARY KEY ((a, b)));");
  StatementResult r = Last(s_,
                           "BEGIN UNLOGGED BATCH INSERT INTO t (k, c) VALUES (2, 0); INSERT INTO "
                           "t (k, c) VALUES (2, 1); INSERT INTO u (a, b) VALUES ('x', 2); DELETE "
                           "FROM t WHERE k = 3; APPLY BATCH");
  ASSERT_TRUE(r.batch.has_value()) << r.status.message();
  const BatchSummary& b = *r.batch;
  EXPECT_EQ(b.type, "UNLOGGED");
  EXPECT_EQ(b.statements, 4);
  EXPECT_EQ(b.mutations, 3);  // (ks, 2), (ks, 3) and (ks, 'x':2)
  EXPECT_EQ(b.distinct_keys, 3);
  ASSERT_EQ(b.partitions.size(), 3u);
  for (size_t i = 1; i < b.partitions.size(); ++i) {
    EXPECT_LE(b.partitions[i - 1].partition.token, b.partitions[i].partition.token);
  }
  for (const BatchPartition& p : b.partitions) {
    if (p.table == "ks.u") {
      EXPECT_EQ(p.partition.token, TokenOfLiterals(p.key_types, {"'x'", "2"}).value());
    } else {
      std::string k = p.partition.token == TokenOfLiterals(p.key_types, {"2"}).value() ? "2" : "3";
      EXPECT_EQ(p.partition.token, TokenOfLiterals(p.key_types, {k}).value());
    }
    EXPECT_EQ(p.partition.replicas.size(), 1u);  // replication factor 1
    EXPECT_EQ(p.partition.replicas[0], s_.ring().tokens()[p.partition.replica_vnodes[0]].node);
  }
}

// BatchStatement.verifyBatchType: only past 10 partition keys, and never for a logged batch.
TEST_F(BatchTest, UnloggedAcrossPartitionsWarnsPastTen) {
  auto batch = [](std::string_view type, int keys) {
    std::string out = "BEGIN " + std::string(type) + " BATCH ";
    for (int k = 0; k < keys; ++k) out += "INSERT INTO t (k, c) VALUES (" + std::to_string(k) + ", 0); ";
    return out + "APPLY BATCH";
  };
  EXPECT_TRUE(Last(s_, batch("UNLOGGED", 10)).warnings.empty());
  EXPECT_TRUE(Last(s_, batch("", 11)).warnings.empty());
  StatementResult r = Last(s_, batch("UNLOGGED", 11));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0],
            "Unlogged batch covering 11 partitions detected against table [ks.t]. You should use "
            "a logged batch for atomicity, or asynchronous writes for performance.");
}

// BatchStatement.verifyBatchSize over IMutation.dataSize (batch_size.h has the formula).
TEST_F(BatchTest, SizeWarningAndFailureAsCassandraMeasures) {
  std::string big(6000, 'x');
  StatementResult r = Last(s_, "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (1, 1, '" + big +
                                   "'); INSERT INTO t (k, c, v) VALUES (2, 1, 'y') APPLY BATCH");
  ASSERT_TRUE(r.batch.has_value());
  // Per update (Cassandra 4.1): static row 21, deletion info 8; the row: clustering 4, liveness
  // 8, deletion 13, the cell 16 + its value.
  EXPECT_EQ(r.batch->data_size, (29 + 25 + 16 + 6000) + (29 + 25 + 16 + 1));
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0],
            "Batch for [ks.t] is of size 6141, exceeding specified threshold of 5120 by 1021.");
  // One partition: one mutation, no check at all.
  r = Last(s_, "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (3, 1, '" + std::string(60000, 'x') +
                   "'); INSERT INTO t (k, c, v) VALUES (3, 2, 'y') APPLY BATCH");
  EXPECT_TRUE(r.warnings.empty());
  EXPECT_EQ(r.batch->mutations, 1);
  // Two partitions past 50 KiB: refused, and nothing written.
  Located e = ErrorAt(s_, "BEGIN BATCH INSERT INTO t (k, c, v) VALUES (4, 1, '" +
                              std::string(60000, 'x') +
                              "'); INSERT INTO t (k, c, v) VALUES (5, 1, 'y') APPLY BATCH");
  EXPECT_EQ(e.message, "Batch too large");
  EXPECT_EQ(Rows(Last(s_, "SELECT k FROM t WHERE k IN (4, 5)")), std::vector<std::string>{});
}

// Not a batch, the same rule: an UPDATE over several partitions that fails on the second leaves
// the first as it was.
TEST_F(BatchTest, AMultiPartitionStatementIsWholeToo) {
  Last(s_,
       "CREATE TABLE l (k int PRIMARY KEY, x list<int>); INSERT INTO l (k, x) VALUES (1, [1, 2, 3]);"
       "INSERT INTO l (k, x) VALUES (2, [1]);");
  Located e = ErrorAt(s_, "UPDATE l SET x[2] = 9 WHERE k IN (1, 2)");
  EXPECT_EQ(e.message, "List index 2 out of bound, list has size 1");
  EXPECT_EQ(Rows(Last(s_, "SELECT x FROM l WHERE k = 1")), (std::vector<std::string>{"[1, 2, 3]"}));
}

TEST_F(BatchTest, StatementLimitIsNamed) {
  std::string script = "BEGIN UNLOGGED BATCH ";
  for (int i = 0; i <= 65535; ++i) script += "DELETE FROM t WHERE k = 1\n";
  Located e = ErrorAt(s_, script + "APPLY BATCH");
  EXPECT_EQ(e.message,
            "a batch has at most 65535 statements (the native protocol's count); statement 65536 "
            "is at line 65536, column 1");
}

}  // namespace
}  // namespace partplay::cql
