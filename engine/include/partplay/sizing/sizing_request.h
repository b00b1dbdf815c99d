// The table sizing request as JSON: the page's sizing form and `partplay size --request-json`
// describe a sizing the same way (docs/sizing.md "Request").
//
//   auto r = ParseTableSizingRequestJson(R"({"cql": "...", "table": "hotel.rooms",
//                                            "rows_per_partition": "100*730"})");
//   auto report_json = SizeTableJson(text);   // the whole round trip, as the wasm module binds it
#pragma once

#include <string>
#include <string_view>

#include "partplay/core/status.h"
#include "partplay/sizing/table_sizing.h"

namespace partplay {

// {cql, table, rows_per_partition: 73000 | "100*730" | [{"name": "rooms per hotel", "value":
// 100}, ...], worst_rows_per_partition, avg_sizes: {"hotel_id": 5}, partitions,
// replication_factor, t_avg, splits: [{kind: "move_clustering_column" | "time_bucket" |
// "hash_bucket", column, distinct_values, unit, span_days, buckets, new_column}], growth:
// {rows_per_day, retention_days, horizon_days}, suggest_splits}. Unknown fields are errors
// (kBadOption naming them).
StatusOr<TableSizingRequest> ParseTableSizingRequestJson(std::string_view json);

// The page's one call: the request JSON in, the report JSON (table_sizing_writers.h) out.
StatusOr<std::string> SizeTableJson(std::string_view request_json);

// The tables a schema script defines, as JSON (SizingTablesToJson): what the sizing form offers.
StatusOr<std::string> SizingTablesJson(std::string_view cql);

}  // namespace partplay
