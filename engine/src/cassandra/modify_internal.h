// Internal: what modify.cpp (INSERT, UPDATE, DELETE) and conditions.cpp (IF conditions,
// conditional batches) share.
#pragma once

#include <optional>
#include <vector>

#include "cassandra/restrictions.h"
#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/result.h"
#include "partplay/cassandra/store.h"

namespace partplay::cql::internal {

// "Key may not be empty" for an empty single-column partition key.
Status CheckKeyNotEmpty(const std::vector<Bytes>& key, const SourceLocation& where);
// The [applied] row of IF [NOT] EXISTS: [applied], then the existing row when not applied.
ResultSet Applied(bool applied, const TableSchema& t, const Partition* p, const Clustering* c,
                  const Row* row);
// The statement's write time (USING TIMESTAMP or the write clock; USING TTL or the default,
// with 4.1's expiration overflow refusal).
StatusOr<CellTime> WriteTimeOf(const UsingClause& u, const TableSchema& t, ValueGenerator& gen,
                               const SourceLocation& where);
// Every full clustering the = / IN restrictions name (none unless all columns are restricted).
std::vector<Clustering> ClusteringKeys(const Restrictions& r);

// UPDATE and DELETE without evaluating their IF conditions (which still count for the
// static-only rule, StaticsOnly); IF EXISTS is still evaluated.
StatusOr<std::optional<ResultSet>> UpdatePlain(const UpdateStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where);
StatusOr<std::optional<ResultSet>> DeletePlain(const DeleteStatement& s, Table& table,
                                               ValueGenerator& gen, SourceLocation where);

// The kinds of column a statement's operations write (Operations.appliesToRegularColumns /
// appliesToStaticColumns): a DELETE without static columns deletes regular ones.
struct Written {
  bool regular = false;
  bool statics = false;
};
Written WrittenBy(const TableSchema& t, const UpdateStatement& s);
Written WrittenBy(const TableSchema& t, const DeleteStatement& s);

// ModificationStatement.appliesOnlyToStaticColumns(operations, conditions): no regular column
// written or conditioned, and some static one.
bool StaticsOnly(const TableSchema& t, Written ops, const std::vector<Condition>& conditions);

// UPDATE or DELETE with IF EXISTS or IF conditions (conditions.cpp).
StatusOr<std::optional<ResultSet>> ExecuteConditional(const UpdateStatement& s, Table& table,
                                                      ValueGenerator& gen, SourceLocation where);
StatusOr<std::optional<ResultSet>> ExecuteConditional(const DeleteStatement& s, Table& table,
                                                      ValueGenerator& gen, SourceLocation where);

}  // namespace partplay::cql::internal
