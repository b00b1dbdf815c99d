// Values from JSON for INSERT ... JSON and fromJson(): a JSON value read as a value of a CQL
// type, with Cassandra's messages for a value of the wrong kind, and a JSON object read as the
// columns and values of one row (member names matched like identifiers).
#pragma once

#include <string_view>
#include <vector>

#include "cassandra/json_doc.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/status.h"

namespace partplay::cql::internal {

// The columns an INSERT sets (indices into the table's columns) and their values.
struct InsertValues {
  std::vector<int> columns;
  std::vector<Value> values;
  std::vector<SourceLocation> where;
};

// `n` as a value of `type` for `receiver` (the column or element named in messages); JSON null is
// the null value.
StatusOr<Value> JsonToValue(const CqlType& type, const JsonNode& n, std::string_view receiver,
                            const SourceLocation& where);

// fromJson('<json>') assigned to a value of `type` (FromJsonFct): JSON null and a null argument
// give null; a value of the wrong kind or a text JSON cannot read fails as Cassandra's function
// execution does ("execution of 'system.fromjson[text]' failed: ...").
StatusOr<Value> FromJsonCall(const CqlType& type, const Literal& call, std::string_view receiver);

// The JSON object `object` as the columns and values of one row of `t`; without `default_unset`
// every column the object leaves out is set to null.
StatusOr<InsertValues> JsonInsertValues(const TableSchema& t, const JsonNode& object,
                                        bool default_unset, const SourceLocation& where);

}  // namespace partplay::cql::internal
