// Internal: the WHERE clause of SELECT, UPDATE and DELETE turned into per-column restrictions,
// with the checks and messages of Cassandra 4's StatementRestrictions (which relations may follow
// which, what needs ALLOW FILTERING, what a modification must restrict).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/value.h"

namespace partplay::cql::internal {

struct Bound {
  Bytes value;
  bool inclusive = false;
};

struct ColumnRestriction {
  int column = -1;  // index into the schema's columns
  // Clustering: the multi-column restriction covering this column (index into
  // Restrictions::tuples), or -1. A multi-column = is kept as one = per column instead.
  int tuple = -1;
  bool tuple_slice = false;  // the first column of a multi-column slice
  bool has_eq = false;
  bool has_in = false;
  std::vector<Bytes> values;  // EQ: one; IN: the list as written
  std::optional<Bound> lower, upper;
  std::vector<Bytes> contains, contains_key;
  SourceLocation where;

  bool is_slice() const { return tuple_slice || (!has_eq && !has_in && (lower || upper)); }
  bool is_eq_or_in() const { return has_eq || has_in; }
  bool has_contains() const { return !contains.empty() || !contains_key.empty(); }
};

// One bound of a multi-column slice: a prefix of the clustering, from its first column on.
struct TupleBound {
  std::vector<Bytes> values;
  bool inclusive = false;
};

// A multi-column IN or slice on consecutive clustering columns: (c1, c2) IN ((1, 2), (3, 4)),
// (c1, c2) > (1, 2) [AND (c1) < (3)]. Compared component by component in each type's own
// order, whatever the clustering order (CASSANDRA-7281).
struct TupleRestriction {
  size_t first = 0;  // the clustering position of its first column
  size_t size = 0;   // the columns it covers (a slice: those of its longer bound)
  std::vector<std::vector<Bytes>> in;  // IN: the tuples, as written
  std::optional<TupleBound> lower, upper;
  SourceLocation where;

  bool is_slice() const { return lower || upper; }
};

struct TokenBounds {
  bool present = false;
  std::optional<int64_t> lower, upper;  // inclusive bounds after normalizing > and <
  bool empty = false;                   // e.g. token(k) > MAX
  SourceLocation where;
};

enum class StatementKind : uint8_t { kSelect, kUpdate, kDelete };

struct Restrictions {
  std::vector<ColumnRestriction> partition;   // by partition key position; column -1 if none
  std::vector<ColumnRestriction> clustering;  // by clustering position; column -1 if none
  std::vector<ColumnRestriction> others;      // regular and static columns, in WHERE order
  std::vector<TupleRestriction> tuples;       // multi-column IN and slices on clustering columns
  TokenBounds token;
  // The first regular or static column compared with null (also CONTAINS null): Cassandra finds it
  // only when it builds the row filter, after every other check ("Unsupported null value for
  // column c").
  std::string null_filter_column;
  SourceLocation null_filter_where;
  // A null in a multi-column relation: Cassandra finds it when it binds the values, after the
  // checks ("Invalid null value for column c", ...).
  std::string null_tuple_message;
  SourceLocation null_tuple_where;
  bool key_range = false;            // SELECT: not a set of partition keys (scan in token order)
  bool partition_filtering = false;  // SELECT: partition key components filtered while scanning
  bool clustering_filtering = false;
  // SELECT: a secondary index answers a restriction (Cassandra's usesSecondaryIndexing): the
  // query scans in token order without ALLOW FILTERING.
  bool index_query = false;

  bool partition_fully_eq_in() const;
  bool has_partition_in() const;
  bool has_clustering() const;
};

// Builds and validates the restrictions of a WHERE clause for the statement kind. `statics_only`:
// an UPDATE/DELETE touching only static columns (then clustering columns are not required).
StatusOr<Restrictions> BuildRestrictions(const TableSchema& table,
                                         const std::vector<Relation>& where, StatementKind kind,
                                         bool allow_filtering, bool statics_only,
                                         ValueGenerator& generator, SourceLocation statement_where);

// Whether a value meets one column's restriction (null never does).
bool Matches(const CqlType& type, const Value& value, const ColumnRestriction& r);

// Whether a row's clustering meets every clustering restriction, single- and multi-column.
bool ClusteringMatches(const TableSchema& table, const Restrictions& r,
                       const std::vector<Bytes>& clustering);

// Adds a multi-column relation ((c1, c2) op (v1, v2), (c1, c2) IN (...)) to the clustering
// restrictions, with Cassandra's checks and messages (MultiColumnRelation, MultiColumnRestriction,
// ClusteringColumnRestrictions.mergeWith). multi_column.cpp.
Status AddMultiColumnRelation(const TableSchema& table, const Relation& rel, bool allow_filtering,
                              Restrictions& r, ValueGenerator& generator);
// A single-column relation on a clustering column a multi-column restriction covers: merged
// into it (a slice bound on its first column) or Cassandra's error.
Status MergeIntoTuple(const TableSchema& table, const Relation& rel, std::vector<Bytes> values,
                      Restrictions& r);

// The keys of a partition key restricted by = or IN on every component, each a list of
// components, in Cassandra's order for them (the partition key type's order: component by
// component), without duplicates.
std::vector<std::vector<Bytes>> PartitionKeys(const TableSchema& table, const Restrictions& r);
// The clustering prefixes the leading clustering columns restricted by = or IN multiply out to
// (in the order written; one empty prefix when the first column is not so restricted).
std::vector<std::vector<Bytes>> ClusteringPrefixes(const Restrictions& r);

// The message Cassandra gives when a query needs ALLOW FILTERING.
extern const char kAllowFilteringMessage[];

}  // namespace partplay::cql::internal
