#include "partition_table.h"

#include <algorithm>

namespace partplay::internal {

namespace {
uint64_t Slot(uint32_t entry, uint64_t hash) { return (hash & 0xFFFFFFFF00000000ull) | (entry + 1u); }
}  // namespace

void PartitionTable::Grow() {
  size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    size_t s = entries_[i].hash & mask_;
    while (slots_[s] != 0) s = (s + 1) & mask_;
    slots_[s] = Slot(i, entries_[i].hash);
  }
}

void PartitionTable::Add(std::string_view canonical, uint64_t bytes, int64_t item_index) {
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  const uint64_t hash = HashCanonical(canonical);
  const uint64_t tag = hash & 0xFFFFFFFF00000000ull;
  size_t s = hash & mask_;
  Entry* e = nullptr;
  while (true) {
    uint64_t slot = slots_[s];
    if (slot == 0) {
      slots_[s] = Slot(static_cast<uint32_t>(entries_.size()), hash);
      e = &entries_.emplace_back(Entry{std::string(canonical), hash, 0, 0, 0, -1});
      break;
    }
    if ((slot & 0xFFFFFFFF00000000ull) == tag) {
      Entry& candidate = entries_[static_cast<uint32_t>(slot) - 1];
      if (candidate.hash == hash && candidate.canonical == canonical) {
        e = &candidate;
        break;
      }
    }
    s = (s + 1) & mask_;
  }
  ++e->items;
  e->bytes += bytes;
  if (bytes > e->largest_item_bytes) {
    e->largest_item_bytes = bytes;
    e->largest_item_index = item_index;
  }
}

std::vector<uint32_t> PartitionTable::SortedBySize() const {
  std::vector<uint32_t> order(entries_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<PartitionKey> keys(entries_.size());  // decoded once, for the rare ties
  std::vector<bool> decoded(entries_.size(), false);
  auto key = [&](uint32_t i) -> const PartitionKey& {
    if (!decoded[i]) {
      keys[i] = PartitionKey::FromCanonicalBytes(entries_[i].canonical);
      decoded[i] = true;
    }
    return keys[i];
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    if (x.bytes != y.bytes) return x.bytes > y.bytes;
    if (x.items != y.items) return x.items > y.items;
    return CompareKeys(key(a), key(b)) < 0;
  });
  return order;
}

LogicalPartition PartitionTable::Export(uint32_t i) const {
  const Entry& e = entries_[i];
  LogicalPartition p;
  p.key = PartitionKey::FromCanonicalBytes(e.canonical);
  p.items = e.items;
  p.bytes = e.bytes;
  p.largest_item_bytes = e.largest_item_bytes;
  p.largest_item_index = e.largest_item_index;
  return p;
}

}  // namespace partplay::internal
