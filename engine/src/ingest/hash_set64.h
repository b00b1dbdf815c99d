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
    if (!slots_.empty()) __builtin_prefetch(&slots_[Home(h)], 1);
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
  uint64_t TouchSlot(uint64_t h) const { return slots_.empty() ? 0 : slots_[Home(h)]; }
  // The same for `n` hashes at once, their loads independent, so their misses overlap (wasm
  // has no prefetch); what they read, summed (kept by the caller, so the loads are kept).
  uint64_t TouchSlots(const uint64_t* hashes, size_t n) const {
    uint64_t touched = 0;
    for (size_t k = 0; k < n; ++k) touched += TouchSlot(hashes[k]);
    return touched;
  }

  // Whether h was inserted.
  bool Contains(uint64_t h) const {
    if (slots_.empty()) return false;
    h = Stored(h);
    return slots_[Probe(h)] == h;
  }

  // Inserts; false when it was there already.
  bool Insert(uint64_t h) {
    if (WouldGrow(1)) Grow();
    h = Stored(h);
    size_t i = Probe(h);
    if (slots_[i] == h) return false;
    slots_[i] = h;
    ++size_;
    return true;
  }

 private:
  static uint64_t Stored(uint64_t h) { return h == 0 ? 1 : h; }  // 0 marks an empty slot
  size_t Home(uint64_t h) const { return Stored(h) & (slots_.size() - 1); }
  // The slot holding stored hash h, or the empty slot where it would go (slots_ not empty).
  size_t Probe(uint64_t h) const {
    size_t i = h & (slots_.size() - 1);
    while (slots_[i] != 0 && slots_[i] != h) i = (i + 1) & (slots_.size() - 1);
    return i;
  }
  void Grow() { Rehash(slots_.empty() ? 1024 : slots_.size() * 2); }
  void Rehash(size_t capacity) {
    std::vector<uint64_t> old = std::move(slots_);
    slots_ = HugePageVector<uint64_t>(capacity, 0);
    size_ = 0;
    // The new slots are scattered: a batch's slots are loaded together before it is inserted.
    constexpr size_t kBatch = 16;
    uint64_t batch[kBatch];
    size_t n = 0;
    uint64_t touched = 0;
    auto flush = [&] {
      touched += TouchSlots(batch, n);
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
