// The queries a key comparison is judged by, as the application sends them: Cosmos DB NoSQL
// queries (cosmos/query.h), or the older list of paths ("/tenantId, /userId": an equality filter
// on each, by a parameter), each with an optional rate. A query's parameters take the values the
// request gives, else the most common value of the property they are compared with in the data
// (the heaviest call: what the key must bear), said in the report.
//
// Targeting under a key (TargetQuery) follows the query plan the service makes from the WHERE
// clause (cosmos/query_targeting.h): every path of the key pinned to values gives those keys'
// logical partitions and, when the values are known, their exact EPKs and physical partitions; a
// hierarchical key's pinned prefix, the physical partitions holding it; a synthetic key, what its
// rule makes of the pinned paths; anything else fans out to every physical partition.
//
//   auto list = ParseQueryList("50 SELECT * FROM c WHERE c.userId = @u\n@u = \"u1\"\n");
//   auto prepared = PrepareQueries(list->queries, list->parameters);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"
#include "partplay/cosmos/query.h"
#include "partplay/cosmos/query_targeting.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/key_traffic.h"

namespace partplay {

// A parameter's value and where it came from.
struct BoundParameter {
  std::string name;  // "@u"
  cosmosql::Value value;
  // "given" (the request or a "@u = value" line), "most_common" (the value of `pointer` the
  // most items hold), "none" (no item holds `pointer`: the query matches nothing), or "unbound"
  // (bound without data: the value is taken from the data when the items are read again).
  std::string from;
  std::string pointer;     // most_common / none: the property it is compared with
  uint64_t items = 0;      // most_common: the items holding that value
  uint64_t distinct = 0;   // most_common: the property's distinct values
};

// One query of a comparison.
struct QuerySpec {
  std::vector<std::string> paths;  // the path-list form
  std::string sql;                 // or a Cosmos DB NoSQL query
  double rate = 0;                 // calls per second; 0 = not given
  // Where the query starts in the text it was read from (ParseQueryList): a parse error is
  // located there rather than in the query alone. Unknown for a query given on its own.
  SourceLocation origin;
  // Filled by PrepareQueries.
  std::string text;       // as written: the SQL, or the paths joined by ", "
  std::string canonical;  // the query as the parser prints it
  // The query parsed (a path list as `SELECT * FROM c WHERE c["a"] = @p1 AND ...`), its
  // parameters, their values (after BindParameters) and the pins under them.
  std::shared_ptr<const cosmosql::Query> parsed;
  std::vector<ParameterSource> sources;
  std::vector<BoundParameter> parameters;
  std::vector<PinnedPath> pins;
};

// The text of --queries FILE and of the page's query box: one query per line, optionally after
// a rate ("50 SELECT ..." : 50 calls per second); a line "@name = JSON" gives a parameter's
// value; blank lines and lines starting with '#' are skipped. A line starting with '/' is the
// path-list form ("/tenantId, /userId"). Errors: kBadOption naming the line.
struct QueryList {
  std::vector<QuerySpec> queries;
  cosmosql::Parameters parameters;
};
StatusOr<QueryList> ParseQueryList(std::string_view text);

// Parses every SQL query (a located error names the query: "query 2: ..."), lists its
// parameters, and checks each has a given value or a property to take one from. A comparison
// takes unprepared path lists too (their targeting needs no parser), so a module that never
// prepares queries carries no query parser.
// `path_lists` false: path lists are left as they are (what a module that never prepares
// queries sees of them).
Status PrepareQueries(std::vector<QuerySpec>& queries, const cosmosql::Parameters& given,
                      bool path_lists = true);

// The properties whose value counts the binding needs (parameters without a given value).
std::vector<std::string> PointersToCount(const std::vector<QuerySpec>& queries,
                                         const cosmosql::Parameters& given);

// Counts the values items hold at some properties, over the same bytes as the analysis.
class ValueCounter {
 public:
  static StatusOr<std::unique_ptr<ValueCounter>> Create(std::vector<std::string> pointers);
  ~ValueCounter();
  Status Feed(std::string_view bytes);
  Status Finish();
  // The most common value at `pointer` (ties: the one seen first), its items and the distinct
  // values; nullopt when no item holds one.
  struct Common {
    cosmosql::Value value;
    uint64_t items = 0;
    uint64_t distinct = 0;
  };
  std::optional<Common> MostCommon(std::string_view pointer) const;

 private:
  class Impl;
  explicit ValueCounter(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

// Gives every parameter its value (given, else the counter's most common one), and computes each
// query's pins under them. Without a counter, a parameter with no given value stays unbound.
Status BindParameters(std::vector<QuerySpec>& queries, const cosmosql::Parameters& given,
                      const ValueCounter* counter);

// The queries as the traffic pass evaluates them, their parameters bound (BindParameters).
// Errors: a construct the playground does not evaluate, located, naming the query.
StatusOr<std::vector<std::unique_ptr<ItemQuery>>> EvaluatorsOf(
    const std::vector<QuerySpec>& queries);

// Where one query goes under one key.
struct QueryTarget {
  // "single" (one logical partition), "several" (an IN list of full keys), "prefix" (a
  // hierarchical key's leading paths), "buckets" (a suffixed synthetic key: one logical
  // partition per suffix), "all" (every physical partition), "none" (the filter contradicts
  // itself: no partition).
  std::string kind;
  int64_t logical_partitions = 1;   // -1: depends on the data (a prefix)
  int64_t physical_partitions = 1;  // visited; -1: depends on a value not known
  bool exact = false;               // range_ids lists the physical partitions visited
  std::vector<int> range_ids;
  std::string epk;  // single, exact: the logical partition's EPK
};
// The query as written: its SQL, or its paths joined by ", ".
std::string QueryText(const QuerySpec& query);

QueryTarget TargetQuery(const QuerySpec& query, const AnalysisOptions& key,
                        PartitionKeyHashVersion version, const PhysicalLayout& layout,
                        uint64_t logical_partitions);

}  // namespace partplay
