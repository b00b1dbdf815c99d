// Redesign advice for a Cassandra table whose partitions break a limit (core/limits.h): a
// clustering column moved into the partition key, a time bucket or a hash bucket added, each
// recomputed in full (every term, the limits, the new CREATE TABLE, how many partitions a query
// now reads, the trade-off, and the Cosmos DB form of the same split). Not to be confused with
// the Cosmos DB key advisor (cosmos/key_advisor.h), which ranks candidate partition key paths.
//
//   auto report = SizeTable(request);                    // table_sizing.h
//   auto option = EvaluateRedesign(schema, *report, {.kind = SplitKind::kHashBucket,
//                                                    .buckets = 16}, false);
#pragma once

#include <optional>

#include "partplay/cassandra/schema.h"
#include "partplay/core/status.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay {

// `split` applied to the table of `report` (sized from `schema`), every case recomputed.
StatusOr<RedesignOption> EvaluateRedesign(const cql::TableSchema& schema,
                                          const TableSizingReport& report, PartitionSplit split,
                                          bool suggested);

// The smallest hash bucket count that brings every case (average, worst, grown) within every
// limit, or nullopt when none does (one row, or the static columns, already break one).
StatusOr<std::optional<RedesignOption>> SuggestHashBuckets(const cql::TableSchema& schema,
                                                           const TableSizingReport& report);

}  // namespace partplay
