// The GUARDRAIL console command and the guardrails it turns on (authored cases; Cassandra's own
// are in tests/cassandra-suite/GuardrailTest.cases): off by default, a warning past the warn
// threshold, a refusal that writes nothing past the fail one, GuardrailsOptions' checks of the
// values, and partition_size's warning on the partitions a write grows.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "partplay/cassandra/session.h"
#include "session_helpers.h"

namespace partplay::cql {
namespace {

constexpr char kTable[] =
    "CREATE TABLE t (k int, c int, l list<int>, m map<text, int>, PRIMARY KEY (k, c));";

TEST(CqlGuardrailsTest, OffByDefaultAndListedByTheCommand) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable);
  StatementResult w = Last(s, "INSERT INTO t (k, c, l) VALUES (1, 1, [1, 2, 3, 4, 5, 6, 7]);");
  EXPECT_TRUE(w.warnings.empty());
  StatementResult all = Last(s, "GUARDRAIL");
  EXPECT_EQ(all.kind, StatementResult::Kind::kShell);
  EXPECT_NE(all.message.find("items_per_collection_warn_threshold: -1"), std::string::npos);
  EXPECT_NE(all.message.find("partition_size_fail_threshold: -1"), std::string::npos);
  EXPECT_EQ(Last(s, "GUARDRAIL page_size_warn_threshold").message,
            "page_size_warn_threshold: -1");
}

TEST(CqlGuardrailsTest, ItemsPerCollectionWarnsThenRefusesWithoutWriting) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable +
              "GUARDRAIL items_per_collection_fail_threshold 4\n"
              "GUARDRAIL items_per_collection_warn_threshold 2\n");
  EXPECT_EQ(Last(s, "INSERT INTO t (k, c, l) VALUES (1, 1, [1, 2]);").warnings,
            std::vector<std::string>{});
  EXPECT_EQ(Last(s, "UPDATE t SET m = {'a': 1, 'b': 2, 'c': 3} WHERE k = 1 AND c = 1;").warnings,
            (std::vector<std::string>{"Guardrail items_per_collection violated: Detected "
                                      "collection m with 3 items, this exceeds the warning "
                                      "threshold of 2."}));
  Located refused = ErrorAt(s, "UPDATE t SET l = l + [3, 4, 5, 6, 7] WHERE k = 1 AND c = 1;");
  EXPECT_EQ(refused.message,
            "Guardrail items_per_collection violated: Detected collection l with 5 items, this "
            "exceeds the failure threshold of 4.");
  EXPECT_EQ(refused.column, 22);  // the list added
  EXPECT_EQ(Rows(Last(s, "SELECT l FROM t WHERE k = 1;")), (std::vector<std::string>{"[1, 2]"}));
  EXPECT_EQ(ErrorAt(s, "INSERT INTO t JSON '{\"k\": 2, \"c\": 1, \"l\": [1, 2, 3, 4, 5]}';").message,
            "Guardrail items_per_collection violated: Detected collection l with 5 items, this "
            "exceeds the failure threshold of 4.");
  EXPECT_TRUE(Rows(Last(s, "SELECT * FROM t WHERE k = 2;")).empty());
}

TEST(CqlGuardrailsTest, SelectsGuardThePageSizeAndTheKeysInAnIn) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable +
              "GUARDRAIL partition_keys_in_select_warn_threshold 2\n"
              "GUARDRAIL page_size_fail_threshold 50\n");
  // cqlsh pages by 100: past the fail threshold of 50.
  EXPECT_EQ(ErrorAt(s, "SELECT * FROM t WHERE k = 1;").message,
            "Guardrail page_size violated: Aborting query for table t, page size 100 exceeds "
            "fail threshold of 50.");
  Last(s, "PAGING 20;");
  EXPECT_EQ(Last(s, "SELECT * FROM t WHERE k IN (1, 2, 3);").warnings,
            (std::vector<std::string>{"Guardrail partition_keys_in_select violated: Query with "
                                      "partition keys in IN clause on table t, with number of "
                                      "partition keys 3 exceeds warning threshold of 2."}));
  EXPECT_TRUE(Last(s, "SELECT * FROM t WHERE k IN (1, 2);").warnings.empty());
}

TEST(CqlGuardrailsTest, PartitionSizeWarnsOnThePartitionAWriteGrows) {
  Session s;
  Last(s, std::string(kKeyspace) + "CREATE TABLE big (k int, c int, v text, PRIMARY KEY (k, c));" +
              "GUARDRAIL partition_size_warn_threshold 1KiB\n"
              "GUARDRAIL partition_size_fail_threshold 2KiB\n");
  const std::string text(600, 'x');
  EXPECT_TRUE(
      Last(s, "INSERT INTO big (k, c, v) VALUES (1, 1, '" + text + "');").warnings.empty());
  std::vector<std::string> warn =
      Last(s, "INSERT INTO big (k, c, v) VALUES (1, 2, '" + text + "');").warnings;
  ASSERT_EQ(warn.size(), 1u);
  EXPECT_EQ(warn[0].rfind("Guardrail partition_size violated: Partition ks.big:1 has size ", 0), 0u)
      << warn[0];
  EXPECT_NE(warn[0].find("exceeds the warning threshold of 1024. Too large partitions can cause "
                         "performance problems."),
            std::string::npos)
      << warn[0];
  // Past the fail threshold it still only warns: Cassandra finds it writing an sstable.
  Last(s, "INSERT INTO big (k, c, v) VALUES (1, 3, '" + text + "');");
  StatementResult fail = Last(s, "INSERT INTO big (k, c, v) VALUES (1, 4, '" + text + "');");
  ASSERT_EQ(fail.kind, StatementResult::Kind::kVoid);
  ASSERT_EQ(fail.warnings.size(), 1u);
  EXPECT_NE(fail.warnings[0].find("failure threshold of 2048"), std::string::npos);
}

TEST(CqlGuardrailsTest, PartitionTombstonesWarnsOnThePartitionItCounts) {
  Session s;
  Last(s, std::string(kKeyspace) + kTable + "GUARDRAIL partition_tombstones_warn_threshold 2\n");
  // Each null written is a tombstone: the third crosses the threshold of 2.
  EXPECT_TRUE(Last(s, "INSERT INTO t (k, c, l) VALUES (1, 1, null);").warnings.empty());
  EXPECT_TRUE(Last(s, "INSERT INTO t (k, c, l) VALUES (1, 2, null);").warnings.empty());
  EXPECT_EQ(Last(s, "INSERT INTO t (k, c, l, m) VALUES (1, 3, [1], null);").warnings,
            (std::vector<std::string>{"Guardrail partition_tombstones violated: Partition ks.t:1 "
                                      "has 3 tombstones, this exceeds the warning threshold of 2. "
                                      "Partitions with too many tombstones can cause performance "
                                      "problems."}));
}

TEST(CqlGuardrailsTest, ValuesAreCheckedAsGuardrailsOptionsDoes) {
  Session s;
  EXPECT_EQ(ErrorAt(s, "GUARDRAIL page_size_warn_threshold 0").message,
            "Invalid value for page_size_warn_threshold: 0 is not allowed; if attempting to "
            "disable use -1");
  EXPECT_EQ(ErrorAt(s, "GUARDRAIL page_size_warn_threshold -2").message,
            "Invalid value -2 for page_size_warn_threshold: negative values are not allowed, "
            "outside of -1 which disables the guardrail");
  Last(s, "GUARDRAIL page_size_fail_threshold 10");
  EXPECT_EQ(ErrorAt(s, "GUARDRAIL page_size_warn_threshold 20").message,
            "The warn threshold 20 for page_size_warn_threshold should be lower than the fail "
            "threshold 10");
  EXPECT_EQ(ErrorAt(s, "GUARDRAIL partition_size_warn_threshold 10 parsecs").message,
            "Invalid value 10parsecs for partition_size_warn_threshold: a size (bytes, or a "
            "number with B, KiB, MiB or GiB)");
  EXPECT_NE(ErrorAt(s, "GUARDRAIL tables_warn_threshold 3").message.find("Unknown guardrail"),
            std::string::npos);
  EXPECT_EQ(Last(s, "GUARDRAIL page_size_fail_threshold -1").message,
            "page_size_fail_threshold: -1");
}

}  // namespace
}  // namespace partplay::cql
