// Internal: the logical partitions seen so far, keyed by the canonical bytes of their partition
// key (partition_key.h). Open addressing on the XXH3 hash; a hash match is confirmed by comparing
// the canonical bytes, so two keys never merge, whatever the hash does.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/analysis.h"

namespace partplay::internal {

class PartitionTable {
 public:
  struct Entry {
    std::string canonical;
    uint64_t hash = 0;
    uint64_t items = 0;
    uint64_t bytes = 0;
    uint64_t largest_item_bytes = 0;
    int64_t largest_item_index = -1;
  };

  // Adds one item of `bytes` bytes to the partition with this canonical key.
  void Add(std::string_view canonical, uint64_t bytes, int64_t item_index);

  size_t size() const { return entries_.size(); }
  const Entry& at(uint32_t i) const { return entries_[i]; }
  // Entry indexes, largest bytes first; ties: more items first, then key order.
  std::vector<uint32_t> SortedBySize() const;
  LogicalPartition Export(uint32_t i) const;

 private:
  void Grow();

  std::vector<Entry> entries_;
  // Per slot: the entry index + 1 in the low 32 bits (0 = empty) and the hash's high 32 bits as a
  // tag, so a probe touches an entry only when the tags match (the entries are cold in cache).
  std::vector<uint64_t> slots_;
  size_t mask_ = 0;
};

}  // namespace partplay::internal
