// Which partitions a Cosmos DB query targets under a partition key, as the service's query plan
// decides it from the WHERE clause: the values a top-level conjunction of equalities (`c.k = v`,
// `v = c.k`), IN lists (`c.k IN (a, b)`) and disjunctions of equalities on one property
// (`c.k = a OR c.k = b`) pin each property to. A query whose filter pins every path of the key
// reaches only those keys' logical partitions (one: a single-partition query); a hierarchical key
// whose leading paths are pinned, the physical partitions holding that prefix; anything else fans
// out to every physical partition (azure-databases-docs,
// articles/cosmos-db/nosql/how-to-query-container.md: "in-partition query", "cross-partition
// query"; articles/cosmos-db/hierarchical-partition-keys.md: queries on a prefix of the key).
//
//   auto q = cosmosql::ParseQuery("SELECT * FROM c WHERE c.tenantId = 'a' AND c.userId IN ('u1','u2')");
//   std::vector<PinnedPath> pins = PinnedPaths(q.value());   // /tenantId: ["a"], /userId: ["u1","u2"]
#pragma once

#include <string>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/cosmos/query.h"

namespace partplay {

// A property the WHERE clause pins: the literal values it may hold in a matching item (each once,
// in the order written; an empty list when two conditions contradict), or a parameter standing
// for one.
struct PinnedPath {
  std::string pointer;  // "/userId", rooted at the item
  std::vector<cosmosql::Value> values;
  std::vector<std::string> parameters;  // "@u": compared by '=' or IN
};

// Every property path (of the FROM source when it is the item or a fixed path in it: see
// cosmosql::PathAsPointer) that the WHERE clause pins by its top-level AND; nothing for a query
// without WHERE or one iterating an array (`FROM x IN c.arr`). Paths through JOIN aliases do not
// count (a JOIN row's property says nothing of the item's key). A parameter with a value in
// `bound` counts as that value. Two conditions on one path intersect when both are literal; with
// a parameter left unbound, the first is kept (a superset: never fewer partitions than the truth).
std::vector<PinnedPath> PinnedPaths(const cosmosql::Query& query,
                                    const cosmosql::Parameters* bound = nullptr);

// A parameter the WHERE clause compares by '=' or IN with a property of the item: what the data
// can give it a value from.
struct ParameterSource {
  std::string name;     // "@u"
  std::string pointer;  // "/userId"
  bool filters = true;  // used in FROM, JOIN or WHERE (false: only in TOP, OFFSET or LIMIT)
};
// Every parameter of the FROM, JOIN and WHERE clauses and of TOP/OFFSET/LIMIT, in order of first
// use, with the property it is compared with where there is one (empty pointer otherwise).
std::vector<ParameterSource> QueryParameters(const cosmosql::Query& query);

}  // namespace partplay
