// How statement results are written out:
//  - ResultToJsonLine: the CLI's line per SELECT, {"columns": [...], "rows": [[...], ...]} with
//    values as SELECT JSON writes them (integers and tokens with all their digits), and
//    {"error": {"message", "line", "column", "code", "name"}} for a failed statement; other
//    statements give "".
//  - ResultToCqlsh: what cqlsh prints (the grid, "(N rows)", errors as
//    "<source>:LINE:InvalidRequest: ... message=\"...\"").
//  - ResultsToJson: every detail for the page: kind, statement and position, columns with their
//    types, rows as JSON values and as cqlsh text, each row's partition (token as a decimal
//    string, key, replica nodes), messages, warnings and errors.
//  - RingToJson / TableLayoutToJson: the ring's nodes, vnode tokens and ownership, and a
//    table's partitions with their placement and per-node load.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "partplay/cassandra/result.h"
#include "partplay/cassandra/ring.h"
#include "partplay/cassandra/session.h"

namespace partplay::cql {

std::string ResultToJsonLine(const StatementResult& result);
std::string ResultToCqlsh(const StatementResult& result, std::string_view source_name);
std::string ResultsToJson(const std::vector<StatementResult>& results);

// `keyspace` (may be null) adds each node's effective ownership under its replication.
std::string RingToJson(const Ring& ring, const KeyspaceSchema* keyspace);

// Partitions in token order (at most `max_partitions`, -1 for all) with token, key, rows, cells
// and bytes (the sizing formulas) and replicas, then per node: partitions, rows and bytes held
// as a replica and as the primary replica.
std::string TableLayoutToJson(const Table& table, const Ring& ring, const KeyspaceSchema& keyspace,
                              int64_t max_partitions);

}  // namespace partplay::cql
