// Internal: the logical partitions seen so far, keyed by the canonical bytes of their partition
// key (partition_key.h). Open addressing on the XXH3 hash; a hash match is confirmed by comparing
// the canonical bytes, so two keys never merge, whatever the hash does.
//
// Compact, since an export keyed by /id has one partition per item: per partition one 48-byte
// entry (aggregates, hash, where its key is), its canonical key bytes in an arena of 1 MiB blocks
// (no std::string per partition), and an 8-byte index slot (32 bits of hash, the partition's
// number) at a load of at most 3/4. Entries and keys grow by blocks, never by copying everything,
// so about 48 + key bytes + 11..21 bytes per partition (HACKING.md has the measured figure).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/ingest/analysis.h"

namespace partplay::internal {

class PartitionTable {
 public:
  // A read-only view of one partition; `canonical` is valid as long as the table.
  struct Entry {
    std::string_view canonical;
    uint64_t hash = 0;
    uint64_t items = 0;
    uint64_t bytes = 0;
    uint64_t largest_item_bytes = 0;
    int64_t largest_item_index = -1;
  };

  PartitionTable() = default;
  PartitionTable(PartitionTable&&) = default;
  PartitionTable& operator=(PartitionTable&&) = default;

  // Adds one item of `bytes` bytes to the partition with this canonical key; `hash` is
  // HashCanonical(canonical). Returns the partition's number (callers may keep side data, such
  // as summed weights, in arrays indexed by it).
  uint32_t Add(std::string_view canonical, uint64_t hash, uint64_t bytes, int64_t item_index) {
    return AddAggregate(canonical, hash, 1, bytes, bytes, item_index);
  }
  uint32_t Add(std::string_view canonical, uint64_t bytes, int64_t item_index) {
    return Add(canonical, HashCanonical(canonical), bytes, item_index);
  }
  // Adds a whole partition's aggregates (a merge of partial tables): `items` items summing to
  // `bytes`, whose largest is `largest_item_bytes` at `largest_item_index` (-1: none). The
  // earlier index wins a tie, as in a single pass where the merged table's items come first.
  uint32_t AddAggregate(std::string_view canonical, uint64_t hash, uint64_t items, uint64_t bytes,
                        uint64_t largest_item_bytes, int64_t largest_item_index);
  // Asks the CPU to start loading the index slot a later Add(…, hash, …) will probe first.
  // (A no-op in WebAssembly, which has no prefetch instruction.)
  void Prefetch(uint64_t hash) const {
    if (!index_.empty()) __builtin_prefetch(&index_[hash & mask_], 0);
  }

  // What Add(…, hash, …) will read, loaded ahead for a batch of adds: the index slot, then
  // (once that has arrived) the entry its tag names, then that entry's key. Each answers a
  // value read, for the caller to keep, so the load is not optimised away; a batch's loads of
  // one kind are independent, so their cache misses overlap (in wasm too, which has no
  // prefetch instruction).
  uint64_t TouchSlot(uint64_t hash) const {
    return index_.empty() ? 0 : index_[hash & mask_].number;
  }
  uint64_t TouchEntry(uint64_t hash) const {
    const Stored* e = Candidate(hash);
    return e ? e->key_len : 0;
  }
  uint64_t TouchKey(uint64_t hash) const {
    const Stored* e = Candidate(hash);
    return e && e->key_len ? static_cast<uint8_t>(KeyOf(*e)[e->key_len - 1]) : 0;
  }

  // All three rounds for a batch of adds whose hashes are given (what they load is kept in the
  // table, so the loads stay).
  void TouchForAdds(const uint64_t* hashes, size_t n) const {
    uint64_t touched = 0;
    for (size_t k = 0; k < n; ++k) {
      Prefetch(hashes[k]);
      touched += TouchSlot(hashes[k]);
    }
    for (size_t k = 0; k < n; ++k) touched += TouchEntry(hashes[k]);
    for (size_t k = 0; k < n; ++k) touched += TouchKey(hashes[k]);
    touched_ += touched;
  }
  uint64_t hash_of(uint32_t i) const { return StoredAt(i).hash; }

  // The same for a walk over partitions by number in another order (a sorted listing).
  void PrefetchNumber(uint32_t i) const { __builtin_prefetch(&StoredAt(i), 0); }
  void PrefetchKeyOfNumber(uint32_t i) const { __builtin_prefetch(KeyOf(StoredAt(i)).data(), 0); }

  // For a walk that consumes the table in number order (a merge into `into`): frees the index
  // at once and hands every block of entries and keys wholly before partition `i` to `into`,
  // whose next blocks they become (memory already touched: no page faults, no unmapping), or
  // frees them when `into` is null. Only partitions from `i` on may be read after it, by number
  // (hash_of, EntryAt); nothing may be added or looked up.
  void ReleaseBefore(uint32_t i, PartitionTable* into);
  // Frees the blocks handed over by ReleaseBefore that no new partition took (a merged part
  // whose keys the table held already): they must not outlive the merge.
  void DropSpareBlocks() {
    spare_entries_.clear();
    spare_arena_.clear();
  }
  size_t spare_blocks() const { return spare_entries_.size() + spare_arena_.size(); }

  // Whether a partition with this canonical key exists (`hash` as for Add).
  bool Contains(std::string_view canonical, uint64_t hash) const;
  // Sizes the index for `n` partitions at once (a merge or a partial state knows how many
  // come), so adding them never rehashes on the way.
  void Reserve(size_t n);
  // Whether `n` more partitions could make the index grow.
  bool WouldGrow(size_t n) const { return (size_ + n) * 4 > index_.size() * 3; }

  size_t size() const { return size_; }
  // Partitions are numbered 0..size()-1 in the order they first appeared.
  Entry EntryAt(uint32_t i) const;
  uint64_t bytes_of(uint32_t i) const { return StoredAt(i).bytes; }
  uint64_t items_of(uint32_t i) const { return StoredAt(i).items; }
  std::string_view key_of(uint32_t i) const { return KeyOf(StoredAt(i)); }

  // The first `k` partition numbers in the order of the report (largest bytes first; ties: more
  // items first, then key order, CompareCanonicalKeys), all when k >= size(), by selection:
  // the k-th largest size is found on plain integers and only the partitions at least that large
  // are sorted, as flat records whose key order is mostly settled by a 64-bit prefix.
  std::vector<uint32_t> Largest(size_t k) const;
  // Every partition's bytes, largest first (a sort of plain integers).
  std::vector<uint64_t> SizesDescending() const;
  LogicalPartition Export(uint32_t i) const;
  // The same into `p`, reusing its key's memory.
  void ExportInto(uint32_t i, LogicalPartition& p) const;

 private:
  struct Stored {
    uint64_t hash;
    uint64_t items;
    uint64_t bytes;
    int64_t largest_item_index;
    uint64_t key_ref;  // arena block << 32 | offset in the block
    uint32_t key_len;
    uint32_t largest_item_bytes;  // items are < 4 GiB (kMaxBufferedItemBytes)
  };
  static_assert(sizeof(Stored) == 48);
  struct Slot {
    uint32_t tag;     // the hash's high 32 bits
    uint32_t number;  // partition number + 1; 0 = empty
  };
  static constexpr size_t kEntriesPerBlock = 1u << 14;
  static constexpr size_t kArenaBlock = 1u << 20;

  const Stored& StoredAt(uint32_t i) const {
    return entries_[i / kEntriesPerBlock][i % kEntriesPerBlock];
  }
  Stored& StoredAt(uint32_t i) { return entries_[i / kEntriesPerBlock][i % kEntriesPerBlock]; }
  std::string_view KeyOf(const Stored& e) const {
    return std::string_view(arena_[e.key_ref >> 32].get() + (e.key_ref & 0xFFFFFFFFu), e.key_len);
  }
  uint64_t StoreKey(std::string_view canonical);
  // A block for entries or keys: a spare one if any (ReleaseBefore), else a new one. A spare
  // entry block keeps its old contents: every entry is written whole before it is read.
  std::unique_ptr<Stored[]> NewEntryBlock();
  std::unique_ptr<char[]> NewArenaBlock();
  // The first entry whose slot carries hash's tag (the one Add will most likely compare).
  const Stored* Candidate(uint64_t hash) const {
    if (index_.empty()) return nullptr;
    const uint32_t tag = static_cast<uint32_t>(hash >> 32);
    for (size_t s = hash & mask_; index_[s].number != 0; s = (s + 1) & mask_) {
      if (index_[s].tag == tag) return &StoredAt(index_[s].number - 1);
    }
    return nullptr;
  }
  void Grow() { Rehash(index_.empty() ? 1024 : index_.size() * 2); }
  void Rehash(size_t capacity);

  std::vector<Slot> index_;
  size_t mask_ = 0;
  size_t size_ = 0;
  std::vector<std::unique_ptr<Stored[]>> entries_;
  std::vector<std::unique_ptr<char[]>> arena_;
  size_t arena_used_ = kArenaBlock;  // bytes used in the last block (full: none yet)
  // Blocks handed over by a table being merged into this one (ReleaseBefore), used first.
  std::vector<std::unique_ptr<Stored[]>> spare_entries_;
  std::vector<std::unique_ptr<char[]>> spare_arena_;
  mutable uint64_t touched_ = 0;      // what TouchForAdds loaded, summed (never read)
};

}  // namespace partplay::internal
