// Keyspaces and tables as CREATE KEYSPACE / CREATE TABLE define them, validated with Cassandra's
// messages. A table's columns are partition key components, clustering columns (each ASC or DESC),
// static columns (one value per partition) and regular columns. `SELECT *` returns the partition
// key, then the clustering columns, then every other column in alphabetical order, as Cassandra.
//
//   StatusOr<TableSchema> t = BuildTable(create_table_statement, "uprofile");
//   t->Describe();   // CREATE TABLE uprofile.user (... PRIMARY KEY (user, id)) WITH ...
#pragma once

#include <cstdint>
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

  // The column named `name`, or nullptr.
  const ColumnSpec* Find(std::string_view name) const;
  int IndexOf(std::string_view name) const;  // -1 if absent
  const ColumnSpec& partition_column(size_t i) const { return columns[partition_key[i]]; }
  const ColumnSpec& clustering_column(size_t i) const { return columns[clustering[i]]; }
  std::string QualifiedName() const { return keyspace + "." + name; }

  // DESCRIBE TABLE's CREATE TABLE statement (the key, the clustering order and the options set).
  std::string Describe() const;
};

// A table from its CREATE TABLE statement, with Cassandra's checks: exactly one primary key,
// known and distinct columns, static columns only with clustering columns and outside the key,
// no non-frozen collection in the key, a CLUSTERING ORDER naming the clustering columns in order.
StatusOr<TableSchema> BuildTable(const CreateTableStatement& statement, std::string keyspace);

// A name as CQL writes it: bare when it is lower-case alphanumeric and not a keyword, else in
// double quotes.
std::string QuoteName(std::string_view name);

}  // namespace partplay::cql
