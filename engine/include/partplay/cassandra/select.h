// SELECT: validated with Cassandra 4's rules and messages, executed over a table in Cassandra's
// order. Partitions come in token order when scanned (no partition key, a token() range, or a
// partial key with ALLOW FILTERING); with = / IN on the whole partition key they come in the
// order of the keys' own values (Cassandra sorts IN keys by the partition key type and queries
// them one after the other), duplicates removed. Rows come in clustering order (DESC columns
// reversed; ORDER BY may reverse the whole partition). Static columns repeat on every row; a
// partition holding only static values gives one row with null clustering columns when no
// clustering column is restricted.
//
// ORDER BY with IN on the partition key fails as it does in cqlsh, which pages: "Cannot page
// queries with both ORDER BY and a IN restriction on the partition key; ...". Unpaged (cqlsh's
// PAGING OFF), Cassandra sorts the rows of all the partitions by the ORDER BY columns, then
// applies the LIMIT, and so does the model.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "partplay/cassandra/ast.h"
#include "partplay/cassandra/literal.h"
#include "partplay/cassandra/result.h"
#include "partplay/cassandra/store.h"

namespace partplay::cql {

// What a SELECT read: a scan over the ring, or the tokens of the partition keys it names.
struct SelectAccess {
  bool scan = false;
  bool key_in = false;  // IN on the partition key
  std::vector<int64_t> tokens;
  // Whether a paging client pages it at all: an aggregate, or a read longer than its LIMIT
  // allows (SelectStatement.execute runs a non-aggregate with LIMIT <= page size unpaged).
  bool aggregate = false;
  std::optional<int64_t> limit;  // the read's LIMIT (none: unlimited or sorted afterwards)
};

// `warnings`, if given, receives Cassandra's client warnings (an aggregate or GROUP BY query
// without the partition key, or with IN on it); `access`, if given, what the query read.
// `paged`: as a paging client runs it (cqlsh and the drivers by default).
StatusOr<ResultSet> ExecuteSelect(const SelectStatement& statement, const Table& table,
                                  ValueGenerator& generator, SourceLocation where,
                                  std::vector<std::string>* warnings = nullptr,
                                  bool paged = true, SelectAccess* access = nullptr);

}  // namespace partplay::cql
