// Internal: an open-addressing set of 64-bit hashes, the analyzer's (partition, id) pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/huge_pages.h"

namespace partplay::internal {

// An open-addressing set of 64-bit hashes (0 is stored as 1): 8 bytes per entry at load <= 1/2.
class HashSet64 {
 public:
  // Starts loading h's slot (Insert then finds it in cache).
  void Prefetch(uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(&slots_[(h == 0 ? 1 : h) & (slots_.size() - 1)], 1);
  }

  size_t size() const { return size_; }
  // Room for `n` entries in all without growing (a merge knows how many may come).
  void Reserve(size_t n) {
    size_t want = slots_.empty() ? 1024 : slots_.size();
    while (want < 2 * n) want *= 2;
    if (want > slots_.size()) Rehash(want);
  }

  // Whether `n` more inserts could make it grow.
  bool WouldGrow(size_t n) const { return (size_ + n) * 2 > slots_.size(); }

  // Reads h's slot (for a batch that loads its slots before inserting; see PartitionTable).
  uint64_t TouchSlot(uint64_t h) const {
    return slots_.empty() ? 0 : slots_[(h == 0 ? 1 : h) & (slots_.size() - 1)];
  }

  // Whether h was inserted.
  bool Contains(uint64_t h) const {
    if (slots_.empty()) return false;
    if (h == 0) h = 1;
    for (size_t i = h & (slots_.size() - 1); slots_[i] != 0; i = (i + 1) & (slots_.size() - 1)) {
      if (slots_[i] == h) return true;
    }
    return false;
  }

  // Inserts; false when it was there already.
  bool Insert(uint64_t h) {
    if (h == 0) h = 1;
    if ((size_ + 1) * 2 > slots_.size()) Grow();
    size_t i = h & (slots_.size() - 1);
    while (slots_[i] != 0) {
      if (slots_[i] == h) return false;
      i = (i + 1) & (slots_.size() - 1);
    }
    slots_[i] = h;
    ++size_;
    return true;
  }

 private:
  void Grow() { Rehash(slots_.empty() ? 1024 : slots_.size() * 2); }
  void Rehash(size_t capacity) {
    std::vector<uint64_t> old = std::move(slots_);
    slots_ = HugePageVector<uint64_t>(capacity, 0);
    size_ = 0;
    // The new slots are scattered: 16 entries' slots are loaded together before they are filled,
    // so their misses overlap (natively the prefetch alone would do; wasm has none).
    constexpr size_t kBatch = 16;
    uint64_t batch[kBatch];
    size_t n = 0;
    uint64_t touched = 0;
    auto flush = [&] {
      for (size_t k = 0; k < n; ++k) touched += TouchSlot(batch[k]);
      for (size_t k = 0; k < n; ++k) Insert(batch[k]);
      n = 0;
    };
    for (size_t i = 0; i < old.size(); ++i) {
      if (old[i] == 0) continue;
      batch[n++] = old[i];
      if (n == kBatch) flush();
    }
    flush();
    touched_ += touched;
  }
  uint64_t touched_ = 0;  // what the batches loaded, summed (kept, so the loads are kept)
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

}  // namespace partplay::internal
