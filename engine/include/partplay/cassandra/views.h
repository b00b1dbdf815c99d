// Materialized views: a view is a table of its own (its own primary key, so its own partitions
// and tokens) whose rows are its base table's rows re-keyed. CREATE MATERIALIZED VIEW is checked
// with Cassandra 4's messages (the view's key holds every base key column and at most one other
// column, each restricted with IS NOT NULL, no static column ...); after every write to the base
// table the view rows of each written base partition are rebuilt from that partition, so a base
// row whose view key has a null is left out, as in Cassandra.
//
//   StatusOr<BuiltView> v = BuildView(create_view, base_table.schema(), "ks");
//   ... base writes ...;  SyncView(base_table, touched_keys, cleared, view_table, v->state);
#pragma once

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/schema.h"
#include "partplay/cassandra/store.h"

namespace partplay::cql {

// What keeps a view in step with its base table.
struct ViewState {
  std::string base;              // the base table's name (same keyspace)
  std::vector<int> base_column;  // per view column: the base column it copies
  // Per base partition (its serialized key): the view rows it produced, as (view partition key
  // components, view clustering).
  std::map<Bytes, std::vector<std::pair<std::vector<Bytes>, Clustering>>> derived;
};

struct BuiltView {
  TableSchema schema;
  ViewState state;
};

// The view of a CREATE MATERIALIZED VIEW statement on `base`, with Cassandra's checks.
StatusOr<BuiltView> BuildView(const CreateViewStatement& statement, const TableSchema& base,
                              const std::string& keyspace);

// Brings the view up to date with the base partitions written since the last call (`touched`),
// or with the whole base table when `cleared` (TRUNCATE) or `all`.
void SyncView(const Table& base, const std::set<PartitionKey>& touched, bool rebuild_all,
              Table& view, ViewState& state);

}  // namespace partplay::cql
