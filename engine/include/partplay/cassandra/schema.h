// Keyspaces and tables as CREATE KEYSPACE / CREATE TABLE define them, validated with Cassandra's
// messages. A table's columns are partition key components, clustering columns (each ASC or DESC),
// static columns (one value per partition) and regular columns. `SELECT *` returns the partition
// key, then the clustering columns, then every other column in alphabetical order, as Cassandra.
//
//   StatusOr<TableSchema> t = BuildTable(create_table_statement, "uprofile");
//   t->Describe();   // CREATE TABLE uprofile.user (... PRIMARY KEY (user, id)) WITH ...
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/types.h"
#include "partplay/core/status.h"

namespace partplay::cql {

enum class ColumnKind : uint8_t { kPartitionKey, kClustering, kRegular, kStatic };

struct ColumnSpec {
  std::string name;
  CqlType type;
  ColumnKind kind = ColumnKind::kRegular;
  int position = 0;         // index among the columns of its kind (the slot in a row)
  bool descending = false;  // clustering columns: WITH CLUSTERING ORDER BY (... DESC)
  bool is_primary_key() const {
    return kind == ColumnKind::kPartitionKey || kind == ColumnKind::kClustering;
  }
};

struct ReplicationStrategy {
  enum class Class : uint8_t { kSimple, kNetworkTopology };
  Class strategy = Class::kSimple;
  int replication_factor = 1;                            // SimpleStrategy
  std::vector<std::pair<std::string, int>> datacenters;  // NetworkTopologyStrategy, sorted

  // {'class': 'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor': '3'}
  std::string ToCql() const;
};

struct KeyspaceSchema {
  std::string name;
  ReplicationStrategy replication;
  bool durable_writes = true;
  std::string Describe() const;  // CREATE KEYSPACE ... WITH replication = ...
};

// The keyspace of a CREATE KEYSPACE statement: replication = {'class': 'SimpleStrategy',
// 'replication_factor': N} or {'class': 'NetworkTopologyStrategy', 'dc1': N, ...}.
StatusOr<KeyspaceSchema> BuildKeyspace(const CreateKeyspaceStatement& statement);

// A secondary index (CREATE INDEX) or a custom one (CREATE CUSTOM INDEX ... USING 'class'):
// which column it indexes and how (values, keys, entries or full of a collection).
struct IndexSpec {
  std::string name;
  int column = -1;  // index into the table's columns
  IndexTarget::Kind target = IndexTarget::Kind::kSimple;
  std::string class_name;  // empty: Cassandra's own secondary index
  std::vector<Property> options;
  // A Storage-Attached Index (Cassandra 5.0): several indexed restrictions need no filtering.
  bool sai() const;
  // Whether a restriction `op` on the column can be answered by this index.
  bool Supports(Operator op) const;
};

// A column ALTER TABLE ... DROP removed: Cassandra refuses to re-add it with another kind or an
// incompatible type (system_schema.dropped_columns).
struct DroppedColumn {
  std::string name;
  CqlType type;
  bool is_static = false;
};

class TableSchema {
 public:
  std::string keyspace;
  std::string name;
  std::vector<ColumnSpec> columns;  // in declaration order
  std::vector<int> partition_key;   // indexes into columns, in key order
  std::vector<int> clustering;
  std::vector<int> regular;
  std::vector<int> statics;
  std::vector<int> select_order;  // SELECT *
  int64_t default_ttl = 0;
  std::string comment;
  std::vector<IndexSpec> indexes;
  std::vector<DroppedColumn> dropped;
  // A materialized view: the base table (same keyspace), whether it selects *, and its WHERE
  // clause as DESCRIBE writes it. Empty base: a table.
  std::string view_base;
  bool view_star = false;
  std::string view_where;

  bool is_view() const { return !view_base.empty(); }
  // A table whose regular columns are counters (Cassandra allows no mix).
  bool is_counter() const;
  // The indexes on the column (index into columns).
  std::vector<const IndexSpec*> IndexesOn(int column) const;

  // The column named `name`, or nullptr.
  const ColumnSpec* Find(std::string_view name) const;
  int IndexOf(std::string_view name) const;  // -1 if absent
  const ColumnSpec& partition_column(size_t i) const { return columns[partition_key[i]]; }
  const ColumnSpec& clustering_column(size_t i) const { return columns[clustering[i]]; }
  std::string QualifiedName() const { return keyspace + "." + name; }

  // After columns were added, removed or renamed: the key lists, the regular and static slots
  // (declaration order), SELECT *'s order and the indexes' columns, recomputed (the partition
  // key and clustering columns keep their positions). `index_names`: each index's column name.
  void Reindex(const std::vector<std::string>& index_names);

  // DESCRIBE TABLE's CREATE TABLE (or CREATE MATERIALIZED VIEW) statement (the key, the
  // clustering order and the options set), then its CREATE INDEX statements.
  std::string Describe() const;
  std::string DescribeIndex(const IndexSpec& index) const;
};

// A table from its CREATE TABLE statement, with Cassandra's checks: exactly one primary key,
// known and distinct columns, static columns only with clustering columns and outside the key,
// no non-frozen collection in the key, a CLUSTERING ORDER naming the clustering columns in order.
StatusOr<TableSchema> BuildTable(const CreateTableStatement& statement, std::string keyspace);

// The options of CREATE TABLE / ALTER TABLE ... WITH applied to the table: default_time_to_live
// and comment kept, compression and compaction checked as Cassandra 4.1 does (table_options.cpp).
Status ApplyTableOptions(const std::vector<Property>& properties, TableSchema& table);

// CREATE / ALTER KEYSPACE's properties (replication, durable_writes) applied to the keyspace;
// `have_replication` tells whether a replication map was given.
Status ApplyKeyspaceProperties(const std::vector<Property>& properties, KeyspaceSchema& keyspace,
                               bool& have_replication);

// Replaces the user-defined type references inside `type` (kind kUdt without fields) by their
// definitions in `types` (a keyspace's types by name): "Unknown type ks.name" otherwise.
Status ResolveUserTypes(CqlType& type, const std::string& keyspace,
                        const std::map<std::string, CqlType>& types, const SourceLocation& where);

// The user-defined type of a CREATE TYPE statement in `keyspace`, its fields resolved against
// the keyspace's `types`, with Cassandra's checks (distinct fields, no counter, nested user types
// frozen).
StatusOr<CqlType> BuildUserType(const CreateTypeStatement& statement, const std::string& keyspace,
                                const std::map<std::string, CqlType>& types);

// The serialized size of every value of the type (int 4, counter 8, a tuple or user-defined type
// of fixed-width fields: 4 + size per field), or 0 when values vary in size.
int64_t FixedValueSize(const CqlType& type);

// A user-defined type as DESCRIBE writes it: CREATE TYPE ks.address (\n    street text,\n ...);
std::string DescribeType(const CqlType& udt);

// A name as CQL writes it: bare when it is lower-case alphanumeric and not a keyword, else in
// double quotes.
std::string QuoteName(std::string_view name);
// The name in double quotes, always (a user type named like a native type).
std::string QuotedName(std::string_view name);

}  // namespace partplay::cql
