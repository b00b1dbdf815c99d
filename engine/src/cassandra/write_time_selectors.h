// Internal: SELECT's WRITETIME(c) and TTL(c) (Cassandra 4.1's Selectable.WritetimeOrTTL): the
// columns they may read, and what they give for a cell.
#pragma once

#include <cstdint>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/store.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/status.h"

namespace partplay::cql::internal {

// Refused on a key column, a non-frozen collection or a non-frozen user type.
Status CheckWriteTimeSelector(const ColumnSpec& column, Selector::Time time,
                              const SourceLocation& where);

// WRITETIME: the cell's timestamp (bigint); TTL: its remaining seconds at `now_seconds` (int),
// null without a value, without a TTL, or once expired.
Value WriteTimeValue(Selector::Time time, const Value& value, const CellTime& cell,
                     int64_t now_seconds);

}  // namespace partplay::cql::internal
