// How statement results are written out:
//  - ResultToJsonLine: the CLI's line per SELECT (and per [applied] row of a conditional statement), {"columns": [...], "rows": [[...], ...]} with
//    values as SELECT JSON writes them (integers and tokens with all their digits), and
//    {"error": {"message", "line", "column", "code", "name"}} for a failed statement; other
//    statements give "".
//  - ErrorToJson: every error the engine hands out as JSON, {"code", "name", "message",
//    "location": {"byte_offset", "line", "column", "item_index"} | null}.
//  - ResultToCqlsh: what cqlsh prints (the grid, "(N rows)", errors as
//    "<source>:LINE:InvalidRequest: ... message=\"...\"").
//  - ResultsToJson: every detail for the page: kind, statement and position, columns with their
//    types, rows as JSON values and as cqlsh text, each row's partition (token as a decimal
//    string, key, replica nodes), the table each statement touched, messages, warnings and errors.
//  - KeyspacesToJson: every keyspace with its replication, its copies of each partition and its
//    tables (the listing the page's table picker shows).
//  - RingToJson / TableLayoutToJson: the ring's nodes, vnode tokens and ownership, and a
//    table's partitions with their placement (Cassandra replicas and the Cosmos DB Cassandra
//    API's physical partition) and per-node and per-physical-partition load.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/result.h"
#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/session.h"
#include "partplay/core/status.h"

namespace partplay::cql {

std::string ErrorToJson(const Status& status);
std::string ResultToJsonLine(const StatementResult& result);
std::string ResultToCqlsh(const StatementResult& result, std::string_view source_name);
std::string ResultsToJson(const std::vector<StatementResult>& results);

// `keyspace` (may be null) adds each node's effective ownership under its replication and
// "replication": the keyspace's figures on this ring (replication_figures.h).
std::string RingToJson(const Ring& ring, const KeyspaceSchema* keyspace);

std::string KeyspacesToJson(const std::vector<KeyspaceListing>& keyspaces);

struct TableLayoutOptions {
  int64_t scan_partitions = -1;  // list from the first N partitions in token order; -1: all
  int64_t max_partitions = -1;   // of those, list every k-th so at most this many; -1: all
  int64_t ru_per_second = 0;     // the Cosmos DB Cassandra API throughput of the placement
};
// {"scan_partitions", "max_partitions", "ru_per_second"}, every field optional.
StatusOr<TableLayoutOptions> ParseTableLayoutOptionsJson(std::string_view json);

// Partitions in token order (thinned by `options`) with token, key, rows, cells and bytes (the
// sizing formulas), replicas and physical_partition, then per node: partitions, rows and bytes
// held as a replica and as the primary replica, then `cosmos`: the Cosmos DB Cassandra API
// placement of every partition (cassandra/cosmos_cassandra_api.h) under options.ru_per_second.
std::string TableLayoutToJson(const Table& table, const Ring& ring, const KeyspaceSchema& keyspace,
                              const TableLayoutOptions& options);

}  // namespace partplay::cql
