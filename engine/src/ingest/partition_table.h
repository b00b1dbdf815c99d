// Internal: the logical partitions seen so far, keyed by the canonical bytes of their partition
// key (partition_key.h). Open addressing on the XXH3 hash; a hash match is confirmed by comparing
// the canonical bytes, so two keys never merge, whatever the hash does.
//
// Every item of the input lands here, at a random place, so the layout is built for one cache
// miss per item: a slot is one 64-byte line holding the hash, the aggregates and, for keys of up
// to 20 canonical bytes (strings of up to 15 bytes, every number and boolean), the key itself. Longer keys live in
// an arena and cost a second access only when the hashes match.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/ingest/analysis.h"

namespace partplay::internal {

class PartitionTable {
 public:
  // A read-only view of one partition; `canonical` is valid until the next Add.
  struct Entry {
    std::string_view canonical;
    uint64_t hash = 0;
    uint64_t items = 0;
    uint64_t bytes = 0;
    uint64_t largest_item_bytes = 0;
    int64_t largest_item_index = -1;
  };

  // Adds one item of `bytes` bytes to the partition with this canonical key; `hash` is
  // HashCanonical(canonical). Returns the partition's number (callers may keep side data, such
  // as summed weights, in arrays indexed by it).
  uint32_t Add(std::string_view canonical, uint64_t hash, uint64_t bytes, int64_t item_index);
  uint32_t Add(std::string_view canonical, uint64_t bytes, int64_t item_index) {
    return Add(canonical, HashCanonical(canonical), bytes, item_index);
  }
  // Asks the CPU to start loading the slot a later Add(…, hash, …) will probe first.
  // (A no-op in WebAssembly, which has no prefetch instruction; an early plain load measured no
  // better there.)
  void Prefetch(uint64_t hash) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[hash & mask_], 1);
  }

  size_t size() const { return dense_.size(); }
  // Partitions are numbered 0..size()-1 in the order they first appeared.
  Entry EntryAt(uint32_t i) const;
  // Partition numbers, largest bytes first; ties: more items first, then key order.
  std::vector<uint32_t> SortedBySize() const;
  LogicalPartition Export(uint32_t i) const;

 private:
  static constexpr uint32_t kInlineKey = 20;
  static constexpr uint32_t kEmpty = 0xFFFFFFFF;
  struct alignas(64) Slot {
    uint64_t hash;
    uint64_t items;
    uint64_t bytes;
    int64_t largest_item_index;
    uint32_t largest_item_bytes;
    uint32_t key_len;            // kEmpty: an empty slot
    uint32_t number;             // the partition's number (index in dense_)
    // key_len <= kInlineKey: the key; otherwise the first 8 bytes hold where the key starts in
    // arena_ (memcpy'd: the field is only 4-byte aligned).
    char inline_key[kInlineKey];
  };
  static_assert(sizeof(Slot) == 64);

  std::string_view KeyOf(const Slot& slot) const;
  static uint64_t ArenaOffset(const Slot& slot);
  void Grow();

  std::vector<Slot> slots_;
  std::vector<uint32_t> dense_;  // slot index of partition i
  std::string arena_;            // keys longer than kInlineKey, back to back
  size_t mask_ = 0;
};

}  // namespace partplay::internal
