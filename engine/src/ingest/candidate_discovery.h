// Internal: candidate-path discovery over the sampled items (the first discover_items items):
// for each JSON pointer holding a scalar, the items, types and distinct values (what the key
// advisor ranks), and whether items with the same id hold the same value there (immutability).
// The analyzer feeds it as it walks a sampled item; a merge replays a later part's log into the
// first part's, so N parts discover exactly what one pass does.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "partplay/ingest/analysis.h"

namespace partplay::internal {

class CandidateDiscovery {
 public:
  // A sampled item begins: its index in the whole input and its bytes.
  void BeginItem(int64_t index, uint64_t bytes);
  // One scalar of the item at `path`, as canonical key bytes.
  void Observe(const std::string& path, const std::string& canonical);
  // The item's string id (its XXH3): its values are compared with the first sampled item's of
  // that id. Called after the item's observations.
  void EndItemWithId(uint64_t id_hash);

  uint64_t sampled_items() const { return sampled_items_; }
  // The paths, most common first; each with its values (largest bytes first) when `values`.
  std::vector<CandidatePath> Paths(bool values) const;

 private:
  struct ValueAgg {
    uint64_t items = 0;
    uint64_t bytes = 0;
    std::string canonical;
  };
  struct PathStats {
    CandidatePath out;
    uint32_t number = 0;  // index in path_order_
    int64_t last_item = -1;
    std::unordered_map<uint64_t, ValueAgg> values;  // by HashCanonical; cleared when capped
  };

  uint64_t sampled_items_ = 0;
  int64_t current_item_ = -1;
  uint64_t current_bytes_ = 0;
  uint64_t candidate_values_ = 0;  // distinct values kept over all paths
  std::unordered_map<std::string, PathStats> paths_;
  std::vector<PathStats*> path_order_;                      // by number (first seen first)
  std::vector<std::pair<uint32_t, uint64_t>> item_values_;  // (path number, value hash) this item
  std::unordered_map<uint64_t, uint32_t> id_first_record_;  // id hash -> index in id_records_
  std::vector<std::vector<std::pair<uint32_t, uint64_t>>> id_records_;
};

}  // namespace partplay::internal
