// The key comparison: several candidate partition keys (plain paths, hierarchical keys, synthetic
// keys of every kind) judged on the same items, the same container (RU/s, growth, workload) and
// the same queries, one row of facts per key, and a pick with the sentence that explains it.
// Each row is what that key's own full report says (BuildFullReport with the container model):
// the comparison runs one Analyzer per key over the same bytes and reads its report, so a row
// never disagrees with the single-key report of the same key.
//
// Ranking (documented in docs/report.md "Key comparison"), first difference wins:
//  1. keys with no problem first, then keys whose only problem is throttling, then the rest.
//     Problems: fewer than 99% of items hold the key (the rest share the undefined partition), a
//     logical partition over 20 GB after growth or any other error-severity finding of the
//     container model, one distinct value only or fewer than 100 on at least 10 items each, a
//     path that looks like a measure (numbers with fractions, or a name such as
//     total/amount/price), requests throttled (429) at the given RU/s (with a workload), and
//     with the traffic pass, writes concentrated in time: over several physical partitions, the
//     busiest one takes at least half of a window's writes (and at least twice its even share);
//  2. among keys that only throttle: the fewer RU/s needed (RuNeeded: the manual figure, else the
//     created-then-set one; a key that no RU/s serves last);
//  3. fewer listed queries that fan out (reach more than one logical partition);
//  3b. with the traffic pass (ApplyTraffic): a key that is not monotonic before one that is (its
//     value follows the input's order or the time field: report/key_traffic.h);
//  4. with a workload: the lower RU/s demand on the busiest physical partition; without one:
//     the lower storage max/mean over physical partitions;
//  5. the smaller largest logical partition after growth; then request order.
// The pick is the first key when it has no problem, or when its only problem is throttling (every
// key throttles then, and the sentence says so with the RU/s it needs); none otherwise.
//
//   auto cmp = KeyComparison::Create(request);      // one Analyzer per key
//   (*cmp)->Feed(bytes); (*cmp)->Finish();
//   StatusOr<ComparisonReport> r = (*cmp)->Compare(request.container, request.queries);
//   // The traffic pass, optional: the same bytes again, under the keys as laid out.
//   auto pass = KeyTrafficPass::Create(TrafficKeysOf(*r), {}, request.writes);
//   (*pass)->Feed(bytes); (*pass)->Finish();
//   ApplyTraffic(*r, (*pass)->result());                  // ranks again
//   std::string json = ComparisonToJson(r.value());
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/defaults.h"
#include "partplay/core/limits.h"
#include "partplay/core/status.h"
#include "partplay/cosmos/container.h"
#include "partplay/ingest/analysis.h"
#include "partplay/report/key_traffic.h"
#include "partplay/report/query_workload.h"

namespace partplay {

// Keys compared at once, and queries listed, at most (core/defaults.h, in the limits table).
inline constexpr size_t kMaxComparedKeys = kCompareMaxKeys;
inline constexpr size_t kMaxComparedQueries = kCompareMaxQueries;
// The query box's text: as many queries as the longest query text Cosmos DB takes.
inline constexpr size_t kMaxQueryTextBytes =
    kMaxComparedQueries * static_cast<size_t>(kCosmosQueryMaxTextBytes);

// A query the application runs (report/query_workload.h): a Cosmos DB NoSQL query, or the
// paths it filters on by equality ("/tenantId, /userId"; an empty list: no filter).
using QueryFilter = QuerySpec;

struct ComparisonRequest {
  std::vector<AnalysisOptions> keys;  // 1..kMaxComparedKeys
  // Shared by every key; the hash version applies to single-path keys (a key of several paths is
  // hierarchical: MultiHash). The route is not used.
  ContainerOptions container;
  std::vector<QueryFilter> queries;  // prepared (PrepareQueries) and bound without data
  cosmosql::Parameters parameters;   // values given for the queries' parameters
  // The traffic pass's write spread: the time field and window (request JSON "time_path",
  // "write_window_seconds", "write_spread": false to skip the pass).
  WriteSpreadOptions writes;
  // Whether the items are read a second time (request "second_read", --no-second-read):
  // parameters bound from the data, the queries' matches, the write spread. ComparisonRun
  // (report/comparison_run.h) does it for the CLI and the page; the element's module, which
  // binds KeyComparison alone, does not.
  bool second_read = true;
  // The page's query box as typed (request "query_text"), read as --queries FILE is
  // (ParseQueryList) by ComparisonRun::Create and CompareModel; its queries follow `queries`.
  std::string query_text;
};

// {keys: [analysis options (report/options_json.h)...], container: container options,
//  queries: [{filter: ["/a", ...]} or {sql: "SELECT ...", rate: N}, ...], query_text: the page's
//  query box (kept as text: ComparisonRun reads it, up to kMaxQueryTextBytes),
//  parameters: [{name: "@p", value: JSON}, ...], weight_path: "/w" (applied to every key)}.
// The queries are prepared and their parameters bound to the given values; a parameter the data
// would give a value to stays unbound (BindParameters with a ValueCounter binds it).
// Every key gets discover_items 0 unless it says otherwise. Errors: kBadOption naming the field.
StatusOr<ComparisonRequest> ParseComparisonRequestJson(std::string_view json);
// The same without keys ({container, queries, weight_path}; "keys" is an error): what a created
// comparison is compared under, again and again without re-reading the input.
StatusOr<ComparisonRequest> ParseComparisonModelJson(std::string_view json);
// What the element's module, which binds KeyComparison without a query reader, answers a request
// or model with query text: kBadOption naming query_text (Ok without any).
Status RefuseQueryText(const ComparisonRequest& request);

// A key as people write it: "/tenantId", "[/tenantId, /userId]" (hierarchical),
// "/tenantId-/date" (concatenated), "/tenantId-{1..10 random}", "/tenantId-{hash(/id) % 10 + 1}".
std::string KeyLabel(const AnalysisOptions& key);

// Where one listed query goes under one key.
// Where a listed query goes under one key (TargetQuery), and with the traffic pass what it
// matches there and costs.
struct QueryFanout : QueryTarget {
  int64_t matching_items = -1;  // -1: the traffic pass did not run
  int64_t rows = -1;            // rows before projection (JOINs may give several per item)
  int64_t returned_rows = -1;   // after TOP, OFFSET/LIMIT and aggregates
  int64_t physical_partitions_with_matches = -1;
  // Our RU model (docs/report.md): visited physical partitions x query_ru + returned rows x the
  // point-read charge of the mean item; -1 when the visited count is not known.
  double ru_per_call = -1;
};

struct KeyFacts {
  std::string label;
  AnalysisOptions options;
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  uint64_t items = 0;
  uint64_t logical_partitions = 0;
  uint64_t undefined_key_items = 0;  // items lacking the key (or a part of a synthetic key)
  uint64_t invalid_key_items = 0;
  double coverage = 0;  // items with a key value / items
  double largest_bytes = 0;
  std::string largest_key_json;       // "[\"t1\"]"
  double largest_bytes_after = 0;     // x growth
  uint64_t over_20gb_partitions = 0;  // after growth
  double gini = 0;
  double top1_share = 0;
  int64_t physical_partitions = 0;  // after growth when grown
  double storage_max_over_mean = 0;
  double busiest_demand_ru = 0;  // the busiest physical partition (workload given)
  double busiest_share_ru = 0;   // its share of the throughput
  int busiest_range = -1;
  double throttled_fraction = 0;
  bool throttles = false;  // requests are throttled at the given RU/s (a problem)
  uint64_t hot_logical_partitions = 0;
  // The least RU/s at which this key throttles nowhere (the key's report's container.ru_needed),
  // and the figure the ranking weighs: the manual one, else the created-then-set one; 0 = none
  // (no workload, or no RU/s can: a logical partition needs over 10,000 RU/s).
  RuNeeded ru_needed;
  double ru_needed_ru_per_second = 0;
  std::vector<QueryFanout> queries;  // in request order
  uint64_t fanout_queries = 0;       // queries that reach more than one logical partition
  double mean_item_bytes = 0;
  bool measure_like = false;
  std::vector<std::string> problems;  // sentences; a key with any is not picked
  int rank = 0;                       // 1 = best
  PhysicalLayout layout;              // the layout the figures are of (not in the JSON)
  // From the traffic pass (ApplyTraffic), when it ran.
  WriteSpread write_spread;
  Monotonicity monotonicity;
  bool writes_concentrated = false;  // a problem (the header's ranking)
};

struct ComparisonReport {
  std::vector<KeyFacts> keys;  // in request order
  bool workload_given = false;
  double ru_per_second = 0;
  double growth = 1;
  std::vector<QueryFilter> queries;
  double query_ru = 0;  // the container's query cost per visited physical partition
  int best = -1;    // index into keys; -1 when every key has a problem
  std::string why;  // one sentence
  bool traffic = false;  // the traffic pass ran (ApplyTraffic)
};

// Every key of a comparison as laid out, for a traffic pass over the same items.
std::vector<TrafficKey> TrafficKeysOf(const ComparisonReport& report);

// Adds a finished traffic pass's figures (same keys, same order; its queries the report's, in
// order) to the report: each query's matches and cost per key, write spread and monotonicity per
// key, writes concentrated in time as a problem; then ranks the keys again and rewrites the
// pick's sentence. Errors: kInvalidState when the key or query counts differ.
Status ApplyTraffic(ComparisonReport& report, const KeyTraffic& traffic);

class KeyComparison {
 public:
  // Errors: kBadOption for no key, too many keys, or a key's own option error (naming the key).
  static StatusOr<std::unique_ptr<KeyComparison>> Create(const std::vector<AnalysisOptions>& keys);
  ~KeyComparison();

  // Every key's analyzer reads the same bytes; the input's errors are the same for each (the
  // first key's is returned).
  Status Feed(std::string_view bytes);
  Status Finish();
  uint64_t bytes_consumed() const;
  uint64_t items_seen() const;

  // The comparison of the finished input under `container` and `queries` (no re-read); the
  // queries' rates add up to the workload's queries per second.
  StatusOr<ComparisonReport> Compare(const ContainerOptions& container,
                                     const std::vector<QueryFilter>& queries) const;

 private:
  KeyComparison() = default;
  std::vector<AnalysisOptions> options_;
  std::vector<std::unique_ptr<Analyzer>> analyzers_;
};

// {"workload_given", "ru_per_second", "growth", "queries": [[paths]...], "best", "why",
//  "keys": [{label, key_paths, synthetic, hash_version, items, logical_partitions, ...}]}
// (docs/report.md "Key comparison").
std::string ComparisonToJson(const ComparisonReport& report);
// A plain-text table for the CLI, a row per key in rank order, then the pick and its sentence.
std::string ComparisonToTable(const ComparisonReport& report);

}  // namespace partplay
