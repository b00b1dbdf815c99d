// A CQL session over an in-memory cluster model: keyspaces, tables and their rows, a current
// keyspace (USE), and the token ring the data is placed on. Execute runs a script statement by
// statement — a failing statement gives an error result and the next one still runs — and
// returns one result per statement: rows (each row with its partition's token and replica
// nodes), a schema change, DESCRIBE text, nothing, or an error located in the script.
//
//   Session s;
//   auto results = s.Execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy',"
//                            " 'replication_factor': 3}; USE ks; CREATE TABLE t (k int PRIMARY"
//                            " KEY, v text); INSERT INTO t (k, v) VALUES (1, 'a');"
//                            " SELECT k, v, token(k) FROM t;");
//   results.back().rows.rows[0];   // 1, 'a', -4069959284402364209
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/consistency.h"
#include "partplay/cassandra/guardrails.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/result.h"
#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/store.h"
#include "partplay/cassandra/views.h"

namespace partplay::cql {

struct SessionOptions {
  RingOptions ring;
  int64_t now_millis = -1;            // the clock of now() and friends; < 0: the system clock
  uint64_t seed = 0x5EED5EED5EEDull;  // uuid()
  // SELECTs run as a paging client with this fetch size (cqlsh's 100); 0: unpaged.
  int32_t page_size = 100;
  // Reads the file a COPY ... FROM names (the CLI: relative to the script, gzip or not); unset,
  // COPY FROM is refused (the page loads files with its bulk load).
  std::function<StatusOr<std::string>(const std::string& file)> read_file;
};

// A keyspace as the page lists it: its replication as DESCRIBE writes it (class without the
// org.apache.cassandra.locator prefix, options as strings), the copies it keeps of each
// partition (the replication factor, or the sum of the datacenters' factors), its CREATE
// KEYSPACE statement and its tables' names, sorted.
struct KeyspaceListing {
  std::string name;
  std::string replication_class;  // SimpleStrategy, NetworkTopologyStrategy
  std::vector<std::pair<std::string, std::string>> replication_options;
  int copies = 0;
  std::string cql;
  std::vector<std::string> tables;
};

struct Keyspace {
  KeyspaceSchema schema;
  std::map<std::string, std::unique_ptr<Table>> tables;  // tables and materialized views
  std::map<std::string, CqlType> types;                  // user-defined types, resolved
  std::vector<std::string> type_order;                   // in creation order (DESCRIBE)
  std::map<std::string, ViewState> views;                // by view name
};

class Session {
 public:
  // The ring options must be valid (see Ring::Build); invalid ones fall back to the defaults.
  explicit Session(SessionOptions options = {});

  std::vector<StatementResult> Execute(std::string_view script);
  StatementResult ExecuteStatement(const Statement& statement);

  // Every keyspace created from now on keeps `factor` copies (SimpleStrategy's replication factor,
  // and each datacenter's of NetworkTopologyStrategy) whatever its statement says; 0 turns this
  // off. The embeddable element's rf attribute: the same script under another replication.
  Status OverrideReplicationFactor(int factor);

  // Replaces the ring (the data stays; placements are computed when asked).
  Status ConfigureRing(const RingOptions& options);
  const Ring& ring() const { return ring_; }

  const std::string& current_keyspace() const { return current_keyspace_; }
  const std::map<std::string, Keyspace>& keyspaces() const { return keyspaces_; }
  // "ks.table" or "table" (in the current keyspace).
  StatusOr<Table*> FindTable(std::string_view qualified_name);
  StatusOr<const Keyspace*> FindKeyspace(std::string_view name) const;
  // Every keyspace (sorted by name) with its replication and tables.
  std::vector<KeyspaceListing> ListKeyspaces() const;

  // Loads JSON objects (NDJSON, an array, or one object) into a table as INSERT ... JSON, all
  // at once; a BulkLoad (bulk_load.h) does the same fed in chunks.
  StatusOr<int64_t> LoadJson(std::string_view qualified_table, std::string_view json);
  ValueGenerator& generator() { return generator_; }

  // Brings the materialized views of `base` up to date with its writes since the last call.
  void SyncViews(Table& base);

 private:
  StatusOr<Keyspace*> ResolveKeyspace(const std::string& name, const SourceLocation& where);
  StatusOr<Table*> ResolveTable(const TableName& name);
  void Place(ResultSet& rows, const KeyspaceSchema& keyspace) const;
  std::string QualifiedTable(const TableName& name) const;
  // Replaces user-defined type references in `type` by the keyspace's definitions.
  Status ResolveType(CqlType& type, const Keyspace& keyspace, const SourceLocation& where) const;
  StatementResult CreateType(const CreateTypeStatement& s, StatementResult result);
  StatementResult AlterType(const AlterTypeStatement& s, StatementResult result);
  StatementResult AlterTable(const AlterTableStatement& s, StatementResult result);
  StatementResult AlterKeyspace(const AlterKeyspaceStatement& s, StatementResult result);
  StatementResult CreateIndex(const CreateIndexStatement& s, StatementResult result);
  StatementResult CreateView(const CreateViewStatement& s, StatementResult result);
  StatementResult DropSchemaObject(const DropSchemaObjectStatement& s, StatementResult result);
  StatementResult CopyFrom(const CopyStatement& s, StatementResult result);
  StatementResult ExecuteBatch(const BatchStatement& s, StatementResult result);
  // cqlsh's CONSISTENCY, SERIAL CONSISTENCY, TRACING and PAGING (session_console.cpp).
  StatementResult RunShellCommand(const ShellCommand& c, StatementResult result);
  // The console's level checked for the access to a keyspace (consistency.h).
  Status CheckLevel(Access access, const KeyspaceSchema& keyspace, std::string_view table,
                    const SourceLocation& where) const;
  // With TRACING ON, what the statement asked of the ring: the partitions at `tokens`, or every
  // node for a scan.
  void TraceAccess(StatementResult& result, Access access, const KeyspaceSchema& keyspace,
                   const std::vector<int64_t>& tokens, bool scan) const;

  SessionOptions options_;
  Ring ring_;
  ValueGenerator generator_;
  std::map<std::string, Keyspace> keyspaces_;
  std::string current_keyspace_;
  int replication_override_ = 0;
  // cqlsh's settings: the levels statements run at, tracing, and paging (on, 100 rows a page).
  Consistency consistency_ = Consistency::kOne;
  Consistency serial_consistency_ = Consistency::kSerial;
  bool tracing_ = false;
  bool paging_ = true;
  int32_t page_size_ = 100;
  Guardrails guardrails_;  // all off, as in Cassandra's default cassandra.yaml
};

// The write guardrails on a statement that ran (session_guardrails.cpp): items_per_collection on
// the collection values it sets or adds to, partition_size on the partitions it wrote.
Status GuardCollectionItems(const Guardrails& guardrails, const TableSchema& table,
                            const InsertStatement& statement, std::vector<std::string>& warnings);
Status GuardCollectionItems(const Guardrails& guardrails, const TableSchema& table,
                            const UpdateStatement& statement, std::vector<std::string>& warnings);
void GuardPartitionSizes(const Guardrails& guardrails, const Table& table,
                         const std::vector<PartitionKey>& keys, std::vector<std::string>& warnings);

// The token of a partition key given as CQL literals of the given types (several = composite),
// as `partplay token` prints it.
StatusOr<int64_t> TokenOfLiterals(const std::vector<CqlType>& types,
                                  const std::vector<std::string>& literals);

}  // namespace partplay::cql
