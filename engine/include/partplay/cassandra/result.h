// What a CQL statement returns: rows (with their columns' names and types, and for each row the
// partition it came from), or a schema change / acknowledgement, or an error with its position.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "partplay/cassandra/types.h"
#include "partplay/cassandra/value.h"
#include "partplay/core/status.h"

namespace partplay::cql {

// A partition a result row came from: its token, its key components and the nodes holding it
// (indexes into the session's ring; the first is the primary replica), with the vnode (index into
// the ring's tokens) at which the replica walk picked each of them.
struct ResultPartition {
  int64_t token = 0;
  std::vector<Bytes> key;
  std::vector<int> replicas;
  std::vector<size_t> replica_vnodes;
};

struct ResultSet {
  std::vector<std::string> columns;
  std::vector<CqlType> types;
  std::vector<std::vector<Value>> rows;
  std::vector<int32_t> row_partition;  // per row: index into partitions, -1 for aggregates
  std::vector<ResultPartition> partitions;
  std::vector<CqlType> partition_key_types;
  std::vector<std::string> partition_key_names;
};

// A partition a BATCH wrote: its table ("keyspace.table"), its key's types, and where it lives.
struct BatchPartition {
  std::string table;
  std::vector<CqlType> key_types;
  ResultPartition partition;
};

// What a BATCH applied: its type, its statements, the partitions it wrote (in token order, then
// table) and the figures Cassandra's checks read: its mutations (one per keyspace and partition
// key, as BatchStatement builds them) and its size (IMutation.dataSize, -1 when not computed).
struct BatchSummary {
  std::string type;  // LOGGED, UNLOGGED or COUNTER
  int64_t statements = 0;
  int64_t mutations = 0;
  int64_t distinct_keys = 0;  // partition keys, whatever their table (the unlogged warning's count)
  int64_t data_size = -1;
  std::vector<BatchPartition> partitions;
};

// What a statement asked of the cluster, at the console's consistency level (cqlsh's TRACING
// ON): the coordinator (the console's node, the ring's first) and, per partition read or
// written, the replicas it sent to and how many had to answer; a scan (no partition key, a
// secondary index, ALLOW FILTERING over the ring) goes to every node. A model of the requests
// Cassandra's trace lists, not its event log.
struct TraceStep {
  int64_t token = 0;
  std::vector<int> replicas;  // node indices, in the order they are asked
  int required = 0;           // answers the level waits for
};

struct StatementTrace {
  std::string consistency;  // ONE, QUORUM, ...
  std::string serial_consistency;  // conditional writes: the level of their Paxos rounds
  int coordinator = 0;
  bool write = false;
  bool scan = false;  // steps then holds one step per node
  std::vector<TraceStep> steps;
};

struct StatementResult {
  enum class Kind : uint8_t {
    kRows,          // SELECT (and the [applied] row of IF [NOT] EXISTS)
    kSchemaChange,  // CREATE/DROP: `message` says what changed
    kVoid,          // INSERT, UPDATE, DELETE, USE, TRUNCATE
    kDescribe,      // DESCRIBE: `message` holds the CQL text
    kError,
    kShell,         // cqlsh's own commands (CONSISTENCY, TRACING, PAGING): `message` is its reply
  };
  Kind kind = Kind::kVoid;
  Status status;          // kError
  SourceLocation where;   // the statement's first token
  std::string statement;  // the statement as written (empty when it does not parse)
  // The statement's bytes in the script, [begin, end): from its first token to the end of its
  // last one before ';' (comments and blanks around it excluded), also when it does not parse.
  int64_t source_begin = -1;
  int64_t source_end = -1;
  std::string verb;  // SELECT, INSERT, UPDATE, DELETE, CREATE, USE, DROP, ... (empty: unparsed)
  // The table the statement names, "keyspace.table" (an unqualified name in the keyspace current
  // when it ran), also when it failed; empty for statements on no table or with no keyspace.
  std::string table;
  std::string message;
  ResultSet rows;  // kRows
  std::vector<std::string> warnings;
  std::optional<BatchSummary> batch;  // BATCH, once applied
  std::optional<StatementTrace> trace;  // with TRACING ON
  // SELECT with paging on (cqlsh's default, 100): the rows come in pages of this many; 0: unpaged.
  int32_t page_size = 0;
};

// The requests a paging client makes for the rows: one per page_size rows, at least one.
inline int64_t PageCount(const StatementResult& r) {
  int64_t rows = static_cast<int64_t>(r.rows.rows.size());
  if (r.page_size <= 0 || rows == 0) return 1;
  return (rows + r.page_size - 1) / r.page_size;
}

}  // namespace partplay::cql
