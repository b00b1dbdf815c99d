// INSERT, UPDATE and DELETE with Cassandra's semantics and messages: an INSERT is an upsert that
// also marks the row as existing; an UPDATE writes cells (and never creates a row on its own if
// it only writes nulls); a DELETE removes a partition, a row, a range of rows or single columns.
// Collections support = , + and - and element assignment (map['k'] = v, list[0] = v). USING TTL
// is validated and recorded, not expired. IF NOT EXISTS / IF EXISTS / IF conditions return Cassandra's [applied]
// row.
//
// Bulk loading (bulk_load.h) inserts JSON objects one by one through InsertJsonObject, exactly as
// INSERT ... JSON would.
#pragma once

#include <memory>
#include <optional>
#include <vector>
#include <string_view>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/result.h"
#include "partplay/cassandra/store.h"

namespace partplay::cql {

// Each returns the [applied] row for IF [NOT] EXISTS, nullopt otherwise.
StatusOr<std::optional<ResultSet>> ExecuteInsert(const InsertStatement& statement, Table& table,
                                                 ValueGenerator& generator, SourceLocation where);
StatusOr<std::optional<ResultSet>> ExecuteUpdate(const UpdateStatement& statement, Table& table,
                                                 ValueGenerator& generator, SourceLocation where);
StatusOr<std::optional<ResultSet>> ExecuteDelete(const DeleteStatement& statement, Table& table,
                                                 ValueGenerator& generator, SourceLocation where);

// One statement of a conditional batch as BatchStatement.makeCasRequest sees it: the partition
// it writes, the row its conditions are on (the static row when it writes only static columns),
// and its condition: none, IF EXISTS, IF NOT EXISTS or IF columns.
struct CasConditions;
struct CasPlan {
  enum class Exists : uint8_t { kNone, kExists, kNotExists };
  std::vector<Bytes> key;
  bool key_in = false;         // IN on the partition key (or several keys)
  bool clustering_in = false;  // IN on a clustering column
  bool slices = false;         // a range deletion (no row of its own)
  bool statics_only = false;
  Clustering clustering;
  Exists exists = Exists::kNone;
  std::vector<int> condition_columns;  // the IF columns, in order
  std::shared_ptr<const CasConditions> conditions;
  bool has_conditions() const { return exists != Exists::kNone || !condition_columns.empty(); }
};
StatusOr<CasPlan> PlanCas(const InsertStatement& s, const Table& table, ValueGenerator& generator,
                          SourceLocation where);
StatusOr<CasPlan> PlanCas(const UpdateStatement& s, const Table& table, ValueGenerator& generator,
                          SourceLocation where);
StatusOr<CasPlan> PlanCas(const DeleteStatement& s, const Table& table, ValueGenerator& generator,
                          SourceLocation where);
// The statement applied as its batch applies it once the conditions held: IF EXISTS and the IF
// conditions not evaluated (they still decide whether it writes only static columns).
StatusOr<std::optional<ResultSet>> ExecuteUpdateUnconditionally(const UpdateStatement& statement,
                                                                Table& table,
                                                                ValueGenerator& generator,
                                                                SourceLocation where);
StatusOr<std::optional<ResultSet>> ExecuteDeleteUnconditionally(const DeleteStatement& statement,
                                                                Table& table,
                                                                ValueGenerator& generator,
                                                                SourceLocation where);
// Whether the plan's condition holds on the table as it is.
StatusOr<bool> CasHolds(const CasPlan& plan, const Table& table, SourceLocation where);

namespace internal {
struct JsonNode;
}
// Inserts one JSON object as INSERT INTO table JSON '<object>' does; errors carry `where`.
// Written at the session's next write timestamp with the table's default TTL.
Status InsertJsonObject(const internal::JsonNode& object, Table& table, ValueGenerator& generator,
                        const SourceLocation& where);

// A value of `type` from its JSON text, as INSERT ... JSON reads a column (dsbulk writes
// collections, tuples and user-defined types this way).
StatusOr<Value> JsonTextToValue(const CqlType& type, std::string_view json,
                                std::string_view receiver, const SourceLocation& where);

// The buffers inserting one row takes (its partition key, its regular and static columns and
// values), kept by a load from row to row so that a row allocates only what the table keeps.
struct InsertScratch {
  std::vector<Bytes> key;
  std::vector<int> regular_cols, static_cols;
  std::vector<Value> regular_vals, static_vals;
  PartitionKey partition_key;
};

// Inserts one row of values for the given columns (indexes into the table's columns), as an
// INSERT of those values; errors carry `where`. The values are copied (left as they are), through
// `scratch`'s buffers.
Status InsertRow(Table& table, const std::vector<int>& columns, std::vector<Value>& values,
                 ValueGenerator& generator, const SourceLocation& where, InsertScratch& scratch);

}  // namespace partplay::cql
