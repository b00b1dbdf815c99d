// Where the application's traffic lands under each compared key: a second pass over the same
// items, once the comparison has laid every key out (its physical partitions after growth), that
// finds each item's logical and physical partition under every key and counts, over the data
// itself rather than by estimate:
//  - for each listed query, the items (and rows) it matches and which physical partitions hold
//    them;
//  - the write spread: the items cut into windows of their time field (writes in the order they
//    were written), and per window how many logical and physical partitions the writes touch and
//    the busiest physical partition's share of them;
//  - the monotonicity of the key: whether its value rises with the input's order and with the
//    time field, as MongoDB's analyzeShardKey reports it for a shard key.
// docs/report.md ("Key comparison") documents every figure and its threshold.
//
//   KeyTrafficPass pass(keys, queries, {.time_path = ""});   // "" = detect a time field
//   pass.Feed(bytes)...; pass.Finish();
//   const KeyTraffic& t = pass.result();
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/core/iso_time.h"  // ParseIsoTimeMillis, which this pass reads times with
#include "partplay/core/status.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/cosmos/physical_partitions.h"
#include "partplay/ingest/analysis.h"

namespace simdjson::dom {
class element;
}  // namespace simdjson::dom

namespace partplay {

// One compared key as the comparison laid it out.
struct TrafficKey {
  AnalysisOptions options;  // paths and synthetic key
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  PhysicalLayout layout;  // its physical partitions (after growth when grown)
};

// A query as the pass evaluates it: the rows one item (the `item_index`-th of the input) yields,
// 0 when it does not match. An error stops the pass. Not const: an evaluator reuses its scratch.
class ItemQuery {
 public:
  virtual ~ItemQuery() = default;
  virtual StatusOr<uint64_t> Rows(const simdjson::dom::element& item, int64_t item_index) = 0;
};

struct WriteSpreadOptions {
  bool enabled = true;
  // The field holding each item's write time (a JSON pointer); empty: detected among the first
  // items' top-level fields (ISO-8601 strings, epoch seconds or milliseconds).
  std::string time_path;
  // The window's width in seconds; 0: the smallest of a minute, an hour, a day, a week, 30 days
  // holding at least kWriteSpreadMinItemsPerWindow items per window on average.
  int64_t window_seconds = 0;
};

// One query under one key.
struct QueryTraffic {
  uint64_t matching_items = 0;
  uint64_t rows = 0;                      // with JOINs, an item may yield several
  std::vector<uint64_t> items_per_range;  // matching items per physical partition (layout order)
  uint64_t ranges_with_matches = 0;
  // Undefined-key items are placed in the undefined partition; items whose key is an object or
  // array have no partition and are counted here.
  uint64_t unplaced_items = 0;
};

struct WriteSpread {
  bool measured = false;
  std::string why_not;  // when not measured: no time field, too few timed items, ...
  std::string time_path;
  std::string time_form;  // "iso8601", "epoch_seconds", "epoch_milliseconds"
  bool time_path_detected = false;
  int64_t window_seconds = 0;
  uint64_t windows = 0;       // windows holding at least one write
  uint64_t timed_items = 0;   // items whose time field was read
  uint64_t untimed_items = 0;
  // Means over windows, each window weighted by its writes (a busy hour counts for more).
  double logical_per_window = 0;
  double physical_per_window = 0;
  double busiest_share = 0;  // the busiest physical partition's share of the window's writes
  uint64_t max_physical_per_window = 0;
  int64_t physical_partitions = 0;  // of the layout
};

struct Monotonicity {
  // Among consecutive items (input order) whose key differs: the share where it rises.
  uint64_t key_changes = 0;
  double rises_with_input = 0;
  // Among consecutive items whose key and time both differ: the share where they move the same
  // way (a key that follows time: near 1; a key unrelated to time: near 0.5). -1: no time.
  uint64_t timed_changes = 0;
  double follows_time = -1;
  bool monotonic = false;  // either share at least kMonotonicShare, or at most 1 - it
};

struct KeyTrafficReport {
  std::vector<QueryTraffic> queries;  // in query order
  WriteSpread write_spread;
  Monotonicity monotonicity;
};

struct KeyTraffic {
  std::vector<KeyTrafficReport> keys;  // in key order
  uint64_t items = 0;
};

class KeyTrafficPass {
 public:
  // `queries` must outlive the pass (and are used by it alone while it runs). Errors: kBadOption for a key whose layout is empty or a bad
  // time path.
  static StatusOr<std::unique_ptr<KeyTrafficPass>> Create(std::vector<TrafficKey> keys,
                                                          std::vector<ItemQuery*> queries,
                                                          const WriteSpreadOptions& writes);
  ~KeyTrafficPass();
  Status Feed(std::string_view bytes);
  Status Finish();
  uint64_t items_seen() const;
  // After Finish.
  const KeyTraffic& result() const;

 private:
  class Impl;
  explicit KeyTrafficPass(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};


}  // namespace partplay
