#include "ingest/partition_table.h"

#include <algorithm>
#include <cstring>

#include "core/huge_pages.h"
#include "core/radix_sort.h"

namespace partplay::internal {

uint64_t PartitionTable::StoreKey(std::string_view canonical) {
  if (canonical.size() > kArenaBlock) {
    // A key larger than a block gets a block of its own.
    arena_.push_back(std::make_unique<char[]>(canonical.size()));
    std::memcpy(arena_.back().get(), canonical.data(), canonical.size());
    uint64_t ref = static_cast<uint64_t>(arena_.size() - 1) << 32;
    arena_used_ = kArenaBlock;  // the next key opens a fresh block
    return ref;
  }
  if (kArenaBlock - arena_used_ < canonical.size()) {
    arena_.push_back(NewArenaBlock());
    arena_used_ = 0;
  }
  uint64_t ref = (static_cast<uint64_t>(arena_.size() - 1) << 32) | arena_used_;
  if (!canonical.empty()) {
    std::memcpy(arena_.back().get() + arena_used_, canonical.data(), canonical.size());
  }
  arena_used_ += canonical.size();
  return ref;
}

void PartitionTable::Reserve(size_t n) {
  size_t capacity = index_.empty() ? 1024 : index_.size();
  while (n * 4 > capacity * 3) capacity *= 2;
  if (capacity != index_.size()) Rehash(capacity);
}

void PartitionTable::Rehash(size_t capacity) {
  // Free the old index first: its memory is there for the new one (a wasm heap never shrinks).
  index_ = std::vector<Slot>();
  index_ = HugePageVector<Slot>(capacity, Slot{0, 0});
  mask_ = capacity - 1;
  for (uint32_t n = 0; n < size_; ++n) {
    uint64_t hash = StoredAt(n).hash;
    size_t s = hash & mask_;
    while (index_[s].number != 0) s = (s + 1) & mask_;
    index_[s] = {static_cast<uint32_t>(hash >> 32), n + 1};
  }
}

void PartitionTable::ReleaseBefore(uint32_t i, PartitionTable* into) {
  index_ = std::vector<Slot>();
  mask_ = 0;
  for (size_t b = 0; b < i / kEntriesPerBlock && b < entries_.size(); ++b) {
    if (into && entries_[b]) into->spare_entries_.push_back(std::move(entries_[b]));
    entries_[b].reset();
  }
  // Keys are stored in the order of the partitions' numbers, so every block before partition
  // i's key block holds only earlier keys. (Every block holds at least kArenaBlock bytes: one
  // with a larger key of its own serves as a plain block.)
  const size_t key_block = i < size_ ? StoredAt(i).key_ref >> 32 : arena_.size();
  for (size_t b = 0; b < key_block && b < arena_.size(); ++b) {
    if (into && arena_[b]) into->spare_arena_.push_back(std::move(arena_[b]));
    arena_[b].reset();
  }
}

std::unique_ptr<PartitionTable::Stored[]> PartitionTable::NewEntryBlock() {
  // Default-initialised (not zeroed): every entry is written before it is read, and zeroing
  // 768 KB per table cost a table of a few keys more than its whole analysis.
  if (spare_entries_.empty()) return std::unique_ptr<Stored[]>(new Stored[kEntriesPerBlock]);
  std::unique_ptr<Stored[]> block = std::move(spare_entries_.back());
  spare_entries_.pop_back();
  return block;
}

std::unique_ptr<char[]> PartitionTable::NewArenaBlock() {
  if (spare_arena_.empty()) return std::unique_ptr<char[]>(new char[kArenaBlock]);  // not zeroed
  std::unique_ptr<char[]> block = std::move(spare_arena_.back());
  spare_arena_.pop_back();
  return block;
}

uint32_t PartitionTable::AddAggregate(std::string_view canonical, uint64_t hash, uint64_t items,
                                      uint64_t bytes, uint64_t largest_item_bytes,
                                      int64_t largest_item_index) {
  // Load factor at most 3/4: short probe runs over 8-byte slots.
  if (WouldGrow(1)) Grow();
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  size_t s = hash & mask_;
  uint32_t n;
  while (true) {
    Slot& slot = index_[s];
    if (slot.number == 0) {
      n = static_cast<uint32_t>(size_);
      if (n % kEntriesPerBlock == 0) {
        entries_.push_back(NewEntryBlock());
      }
      StoredAt(n) =
          Stored{hash, 0, 0, -1, StoreKey(canonical), static_cast<uint32_t>(canonical.size()), 0};
      slot = {tag, n + 1};
      ++size_;
      break;
    }
    if (slot.tag == tag) {
      const Stored& candidate = StoredAt(slot.number - 1);
      if (candidate.hash == hash && candidate.key_len == canonical.size() &&
          KeyOf(candidate) == canonical) {
        n = slot.number - 1;
        break;
      }
    }
    s = (s + 1) & mask_;
  }
  Stored& e = StoredAt(n);
  e.items += items;
  e.bytes += bytes;
  if (largest_item_index >= 0 && largest_item_bytes > e.largest_item_bytes) {
    e.largest_item_bytes = static_cast<uint32_t>(largest_item_bytes);  // items are < 4 GiB
    e.largest_item_index = largest_item_index;
  }
  return n;
}

bool PartitionTable::Contains(std::string_view canonical, uint64_t hash) const {
  if (index_.empty()) return false;
  const uint32_t tag = static_cast<uint32_t>(hash >> 32);
  for (size_t s = hash & mask_; index_[s].number != 0; s = (s + 1) & mask_) {
    if (index_[s].tag != tag) continue;
    const Stored& e = StoredAt(index_[s].number - 1);
    if (e.hash == hash && e.key_len == canonical.size() && KeyOf(e) == canonical) return true;
  }
  return false;
}

PartitionTable::Entry PartitionTable::EntryAt(uint32_t i) const {
  const Stored& s = StoredAt(i);
  Entry e;
  e.canonical = KeyOf(s);
  e.hash = s.hash;
  e.items = s.items;
  e.bytes = s.bytes;
  e.largest_item_bytes = s.largest_item_bytes;
  e.largest_item_index = s.largest_item_index;
  return e;
}

std::vector<uint64_t> PartitionTable::SizesDescending() const {
  // Sorted ascending as complements, then complemented back: largest first.
  std::vector<uint64_t> sizes(size_);
  for (uint32_t i = 0; i < size_; ++i) sizes[i] = ~StoredAt(i).bytes;
  RadixSortUInt64(sizes.data(), sizes.size());
  for (uint64_t& v : sizes) v = ~v;
  return sizes;
}

namespace {

// A non-decreasing image of the key order (CompareCanonicalKeys) in 64 bits: the first
// component's kind, then the first 7 bytes of its string or the top of its number's
// order-preserving bits. Keys with different images compare like their images; equal images
// need the full comparison.
uint64_t KeyOrderPrefix(std::string_view canonical) {
  if (canonical.empty()) return 0;
  const uint64_t kind = static_cast<uint8_t>(canonical[0]);
  uint64_t rest = 0;
  if (kind == static_cast<uint8_t>(KeyKind::kString) && canonical.size() >= 5) {
    for (size_t b = 0; b < 7; ++b) {
      rest = (rest << 8) | (5 + b < canonical.size() ? static_cast<uint8_t>(canonical[5 + b]) : 0);
    }
    // Cut at the string's own length: the next component's bytes must not count.
    uint32_t n = 0;
    for (int b = 0; b < 4; ++b) n |= uint32_t(uint8_t(canonical[1 + b])) << (8 * b);
    if (n < 7) rest &= ~((uint64_t{1} << (8 * (7 - n))) - 1);
  } else if (kind == static_cast<uint8_t>(KeyKind::kNumber) && canonical.size() >= 9) {
    uint64_t bits;
    std::memcpy(&bits, canonical.data() + 1, 8);
    bits = (bits >> 63) ? ~bits : bits | (uint64_t{1} << 63);
    rest = bits >> 8;
  }
  return kind << 56 | rest;
}

}  // namespace

std::vector<uint32_t> PartitionTable::Largest(size_t k) const {
  k = std::min(k, size_);
  if (k == 0) return {};
  // Below the full list: the k-th largest size, found on plain integers; every partition of the
  // first k is at least that large, and only those take part in the sort.
  uint64_t threshold = 0;
  if (k < size_) {
    std::vector<uint64_t> sizes(size_);
    for (uint32_t i = 0; i < size_; ++i) sizes[i] = StoredAt(i).bytes;
    std::nth_element(sizes.begin(), sizes.begin() + static_cast<std::ptrdiff_t>(k - 1), sizes.end(),
                     [](uint64_t a, uint64_t b) { return a > b; });
    threshold = sizes[k - 1];
  }
  size_t taken = 0;
  uint64_t max_bytes = 0, max_items = 0;
  for (uint32_t i = 0; i < size_; ++i) {
    const Stored& e = StoredAt(i);
    if (e.bytes < threshold) continue;
    ++taken;
    max_bytes = std::max(max_bytes, e.bytes);
    max_items = std::max(max_items, e.items);
  }
  const int item_bits = 64 - (max_items ? __builtin_clzll(max_items) : 64);
  const int byte_bits = 64 - (max_bytes ? __builtin_clzll(max_bytes) : 64);
  std::vector<uint32_t> chosen;
  ReserveHuge(chosen, k);
  chosen.resize(k);
  if (item_bits + byte_bits > 64) {
    // Sums past what one word holds (never seen): records of each field, compared in turn.
    struct Ranked {
      uint64_t bytes, items, prefix;
      uint32_t number;
    };
    std::vector<Ranked> ranked;
    ranked.reserve(taken);
    for (uint32_t i = 0; i < size_; ++i) {
      const Stored& e = StoredAt(i);
      if (e.bytes >= threshold) ranked.push_back({e.bytes, e.items, KeyOrderPrefix(KeyOf(e)), i});
    }
    auto before = [this](const Ranked& a, const Ranked& b) {
      if (a.bytes != b.bytes) return a.bytes > b.bytes;
      if (a.items != b.items) return a.items > b.items;
      if (a.prefix != b.prefix) return a.prefix < b.prefix;
      return CompareCanonicalKeys(key_of(a.number), key_of(b.number)) < 0;
    };
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(k), ranked.end(),
                      before);
    for (size_t i = 0; i < k; ++i) chosen[i] = ranked[i].number;
    return chosen;
  }
  // Largest bytes, then most items, packed into one ascending word; then the key-order prefix;
  // records equal in both get the full comparison. 24 bytes a record.
  struct Packed {
    uint64_t rank, prefix;
    uint32_t number;
  };
  std::vector<Packed> ranked;
  ReserveHuge(ranked, taken);
  for (uint32_t i = 0; i < size_; ++i) {
    const Stored& e = StoredAt(i);
    if (e.bytes < threshold) continue;
    uint64_t rank = ((max_bytes - e.bytes) << item_bits) | (max_items - e.items);
    ranked.push_back({rank, KeyOrderPrefix(KeyOf(e)), i});
  }
  auto before = [this](const Packed& a, const Packed& b) {
    if (a.rank != b.rank) return a.rank < b.rank;
    if (a.prefix != b.prefix) return a.prefix < b.prefix;
    return CompareCanonicalKeys(key_of(a.number), key_of(b.number)) < 0;
  };
  if (k < ranked.size()) {
    std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(k), ranked.end(),
                      before);
  } else {
    // A radix sort on the 128 bits, most significant first.
    auto word = [](const Packed& r, int w) { return w == 0 ? r.rank : r.prefix; };
    auto digit = [](const Packed& r, int d) {
      return static_cast<int>(((d < 8 ? r.rank : r.prefix) >> (56 - 8 * (d & 7))) & 0xFF);
    };
    auto finish = [&](Packed* first, Packed* last, bool) { std::sort(first, last, before); };
    MsdRadixSort(ranked.data(), ranked.size(),
                 FirstVaryingDigit(ranked.data(), ranked.size(), 2, word), 16, digit, finish);
  }
  for (size_t i = 0; i < k; ++i) chosen[i] = ranked[i].number;
  return chosen;
}

LogicalPartition PartitionTable::Export(uint32_t i) const {
  LogicalPartition p;
  ExportInto(i, p);
  return p;
}

void PartitionTable::ExportInto(uint32_t i, LogicalPartition& p) const {
  const Stored& s = StoredAt(i);
  p.key.AssignCanonicalBytes(KeyOf(s));
  p.weight = 0;
  p.epk.clear();
  p.items = s.items;
  p.bytes = s.bytes;
  p.largest_item_bytes = s.largest_item_bytes;
  p.largest_item_index = s.largest_item_index;
}

}  // namespace partplay::internal
