// Internal: an open-addressing set of 64-bit hashes, the analyzer's (partition, id) pairs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace partplay::internal {

// An open-addressing set of 64-bit hashes (0 is stored as 1): 8 bytes per entry at load <= 1/2.
class HashSet64 {
 public:
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
  void Grow() {
    std::vector<uint64_t> old = std::move(slots_);
    slots_.assign(old.empty() ? 1024 : old.size() * 2, 0);
    size_ = 0;
    for (uint64_t h : old) {
      if (h != 0) Insert(h);
    }
  }
  std::vector<uint64_t> slots_;
  size_t size_ = 0;
};

}  // namespace partplay::internal
