#include "ingest/partition_table.h"

#include <algorithm>
#include <cstring>

namespace partplay::internal {

std::string_view PartitionTable::KeyOf(const Slot& slot) const {
  if (slot.key_len <= kInlineKey) return std::string_view(slot.inline_key, slot.key_len);
  return std::string_view(arena_.data() + ArenaOffset(slot), slot.key_len);
}

uint64_t PartitionTable::ArenaOffset(const Slot& slot) {
  uint64_t offset;
  std::memcpy(&offset, slot.inline_key, sizeof offset);
  return offset;
}

void PartitionTable::Grow() {
  size_t capacity = slots_.empty() ? 1024 : slots_.size() * 2;
  std::vector<Slot> old = std::move(slots_);
  Slot empty{};
  empty.key_len = kEmpty;
  slots_.assign(capacity, empty);
  mask_ = capacity - 1;
  for (uint32_t& at : dense_) {
    const Slot& moving = old[at];
    size_t s = moving.hash & mask_;
    while (slots_[s].key_len != kEmpty) s = (s + 1) & mask_;
    slots_[s] = moving;
    at = static_cast<uint32_t>(s);
  }
}

uint32_t PartitionTable::Add(std::string_view canonical, uint64_t hash, uint64_t bytes,
                             int64_t item_index) {
  // Load factor at most 2/3: short probe runs, and a slot is 64 bytes.
  if ((dense_.size() + 1) * 3 > slots_.size() * 2) Grow();
  const uint32_t len = static_cast<uint32_t>(canonical.size());
  size_t s = hash & mask_;
  while (true) {
    Slot& slot = slots_[s];
    if (slot.key_len == kEmpty) {
      slot.hash = hash;
      slot.items = 0;
      slot.bytes = 0;
      slot.largest_item_index = -1;
      slot.largest_item_bytes = 0;
      slot.key_len = len;
      if (len <= kInlineKey) {
        std::memcpy(slot.inline_key, canonical.data(), len);
      } else {
        uint64_t offset = arena_.size();
        std::memcpy(slot.inline_key, &offset, sizeof offset);
        arena_.append(canonical);
      }
      slot.number = static_cast<uint32_t>(dense_.size());
      dense_.push_back(static_cast<uint32_t>(s));
      break;
    }
    if (slot.hash == hash && slot.key_len == len && KeyOf(slot) == canonical) break;
    s = (s + 1) & mask_;
  }
  Slot& slot = slots_[s];
  ++slot.items;
  slot.bytes += bytes;
  if (bytes > slot.largest_item_bytes) {
    slot.largest_item_bytes = static_cast<uint32_t>(bytes);  // items are < 4 GiB
    slot.largest_item_index = item_index;
  }
  return slot.number;
}

PartitionTable::Entry PartitionTable::EntryAt(uint32_t i) const {
  const Slot& slot = slots_[dense_[i]];
  Entry e;
  e.canonical = KeyOf(slot);
  e.hash = slot.hash;
  e.items = slot.items;
  e.bytes = slot.bytes;
  e.largest_item_bytes = slot.largest_item_bytes;
  e.largest_item_index = slot.largest_item_index;
  return e;
}

std::vector<uint32_t> PartitionTable::SortedBySize() const {
  std::vector<uint32_t> order(dense_.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::vector<PartitionKey> keys(dense_.size());  // decoded once, for the rare ties
  std::vector<bool> decoded(dense_.size(), false);
  auto key = [&](uint32_t i) -> const PartitionKey& {
    if (!decoded[i]) {
      keys[i] = PartitionKey::FromCanonicalBytes(KeyOf(slots_[dense_[i]]));
      decoded[i] = true;
    }
    return keys[i];
  };
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    const Slot& x = slots_[dense_[a]];
    const Slot& y = slots_[dense_[b]];
    if (x.bytes != y.bytes) return x.bytes > y.bytes;
    if (x.items != y.items) return x.items > y.items;
    return CompareKeys(key(a), key(b)) < 0;
  });
  return order;
}

LogicalPartition PartitionTable::Export(uint32_t i) const {
  Entry e = EntryAt(i);
  LogicalPartition p;
  p.key = PartitionKey::FromCanonicalBytes(e.canonical);
  p.items = e.items;
  p.bytes = e.bytes;
  p.largest_item_bytes = e.largest_item_bytes;
  p.largest_item_index = e.largest_item_index;
  return p;
}

}  // namespace partplay::internal
