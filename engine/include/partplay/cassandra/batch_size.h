// The size Cassandra's batch size check reads (BatchStatement.verifyBatchSize): IMutation.dataSize,
// the sum of PartitionUpdate.dataSize over the updates the batch's statements build — one update
// per table and partition key, its rows merged. Per Cassandra 4.1 (db/rows, db/partitions; 4.0
// counted only clustering values and cells, 5.0 counts 4 bytes more per cell and TTL'd marker):
//
//   update = static row + rows + deletion info (8 bytes, + 4 and per range tombstone its bounds'
//            values + 12 when there are range tombstones)
//   row    = clustering values + liveness (8, 16 with a TTL) + deletion (13) + cells
//   cell   = 16 (timestamp, TTL, local deletion time) + value + path (a collection element's key:
//            16 for a list's timeuuid, the element for a set, the key for a map, 2 for a UDT field)
//   a non-frozen collection or UDT column = 12 (its complex deletion) + its cells
//
// The static row is counted even when empty (Rows.EMPTY_STATIC_ROW: 8 + 13 = 21 bytes). A counter update's
// cell holds CounterContext.createUpdate's 36 bytes. Approximations, said where they are: a list
// element removed by value counts one tombstone per value given; cells a same-batch deletion
// shadows are counted unless the deletion is of their row.
#pragma once

#include <cstdint>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/store.h"
#include "partplay/core/status.h"

namespace partplay::cql {

struct BatchDataSize {
  int64_t bytes = 0;
};

// The size of the batch's updates; `tables[i]` is statement i's table. The statements must have
// run without error (their values are read again, not validated).
StatusOr<BatchDataSize> MeasureBatch(const BatchStatement& batch, const std::vector<Table*>& tables,
                                     ValueGenerator& generator);

}  // namespace partplay::cql
