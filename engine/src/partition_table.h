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
  std::vector<uint32_t> slots_;  // entry index + 1; 0 = empty
  size_t mask_ = 0;
};

}  // namespace partplay::internal
