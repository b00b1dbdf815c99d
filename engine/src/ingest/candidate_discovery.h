// Internal: candidate-path discovery over the sampled items (the first discover_items items):
// for each JSON pointer holding a scalar, the items, types and distinct values (what the key
// advisor ranks), and whether items with the same id hold the same value there (immutability).
// The analyzer feeds it as it walks a sampled item; a merge replays a later part's log into the
// first part's, so N parts discover exactly what one pass does.
#pragma once

#include <cstdint>
#include <string>
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
  // An open-addressing index of 64-bit hashes to numbers (load at most 1/2, linear probing),
  // with no node or string per entry: what the std::unordered_maps here cost per sampled value
  // (a node, a rehash by a prime) was most of discovery's time. Equal hashes may hold several
  // numbers; Find's `same` tells them apart.
  class HashIndex {
   public:
    // The number stored for `hash` that `same(number)` accepts, or -1.
    template <typename Same>
    int64_t Find(uint64_t hash, Same same) const {
      if (slots_.empty()) return -1;
      for (size_t i = hash & mask_; slots_[i].number != 0; i = (i + 1) & mask_) {
        if (slots_[i].hash == hash && same(slots_[i].number - 1)) return slots_[i].number - 1;
      }
      return -1;
    }
    // Stores `number` for `hash` (not looked up first: Find it first).
    void Insert(uint64_t hash, uint32_t number);
    void Clear() {
      slots_ = {};
      size_ = 0;
      mask_ = 0;
    }

   private:
    struct Slot {
      uint64_t hash = 0;
      uint32_t number = 0;  // the number + 1; 0 marks an empty slot
    };
    std::vector<Slot> slots_;
    size_t size_ = 0;
    size_t mask_ = 0;
  };
  struct ValueAgg {
    uint64_t items = 0;
    uint64_t bytes = 0;
    uint64_t canonical_at = 0;  // in its path's text
    uint32_t canonical_size = 0;
  };
  struct PathStats {
    CandidatePath out;
    int64_t last_item = -1;
    std::string previous;  // the previous sampled item's value here (canonical bytes)
    HashIndex value_index;          // HashCanonical -> index in values; cleared when capped
    std::vector<ValueAgg> values;
    std::string text;  // the values' canonical bytes, one after another (freed when capped)
  };

  uint64_t sampled_items_ = 0;
  int64_t current_item_ = -1;
  uint64_t current_bytes_ = 0;
  uint64_t candidate_values_ = 0;  // distinct values kept over all paths
  std::vector<PathStats> paths_;   // by number (first seen first)
  HashIndex path_index_;           // the path's XXH3 -> number
  std::vector<std::pair<uint32_t, uint64_t>> item_values_;  // (path number, value hash) this item
  HashIndex id_index_;  // id hash -> record number
  // The records of the first sampled item of each id: record r's (path, value hash) pairs are
  // record_values_[record_begin_[r] .. record_begin_[r + 1]).
  std::vector<std::pair<uint32_t, uint64_t>> record_values_;
  std::vector<uint32_t> record_begin_{0};
};

}  // namespace partplay::internal
