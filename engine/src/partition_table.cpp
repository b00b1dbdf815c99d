#include "partition_table.h"

#include <algorithm>

namespace partplay::internal {

void PartitionTable::Grow() {
  size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  slots_.assign(capacity, 0);
  mask_ = capacity - 1;
  for (uint32_t i = 0; i < entries_.size(); ++i) {
    size_t s = entries_[i].hash & mask_;
    while (slots_[s] != 0) s = (s + 1) & mask_;
    slots_[s] = i + 1;
  }
}

void PartitionTable::Add(std::string_view canonical, uint64_t bytes, int64_t item_index) {
  if ((entries_.size() + 1) * 2 > slots_.size()) Grow();
  uint64_t hash = HashCanonical(canonical);
  size_t s = hash & mask_;
  while (true) {
    uint32_t slot = slots_[s];
    if (slot == 0) {
      slots_[s] = static_cast<uint32_t>(entries_.size() + 1);
      entries_.push_back(Entry{std::string(canonical), hash, 0, 0, 0, -1});
      break;
    }
    const Entry& e = entries_[slot - 1];
    if (e.hash == hash && e.canonical == canonical) break;
    s = (s + 1) & mask_;
  }
  Entry& e = entries_[slots_[s] - 1];
  ++e.items;
  e.bytes += bytes;
  if (bytes > e.largest_item_bytes) {
    e.largest_item_bytes = bytes;
    e.largest_item_index = item_index;
  }
}

std::vector<uint32_t> PartitionTable::SortedBySize() const {
  std::vector<uint32_t> order(entries_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [this](uint32_t a, uint32_t b) {
    const Entry& x = entries_[a];
    const Entry& y = entries_[b];
    if (x.bytes != y.bytes) return x.bytes > y.bytes;
    if (x.items != y.items) return x.items > y.items;
    return CompareKeys(PartitionKey::FromCanonicalBytes(x.canonical),
                       PartitionKey::FromCanonicalBytes(y.canonical)) < 0;
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
