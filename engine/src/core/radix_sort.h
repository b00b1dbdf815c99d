// Internal: an in-place most-significant-digit radix sort (American flag sort) for the orders
// over every logical partition (a million with a key such as /id): the report's listing by
// size and the container model's EPK order. No scratch
// array, one counting pass and one permutation pass per digit level, and the leading digits
// that every record shares are skipped up front.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>

namespace partplay::internal {

// Sorts [a, a + n) by a key of `key_bytes` bytes, most significant first: digit(r, d) is byte d
// of r's key (0 = most significant), and lower keys come first. A run that radix sorting no
// longer pays for (short, or its keys equal from `depth` on) goes to finish(first, last,
// keys_equal): it must order the run by its full order (the key, then any tie-break the key
// does not hold); keys_equal says every key in the run is the same.
template <typename Rec, typename Digit, typename Finish>
void MsdRadixSort(Rec* a, size_t n, int depth, int key_bytes, const Digit& digit,
                  const Finish& finish) {
  constexpr size_t kSmall = 48;  // below this a comparison sort is faster
  while (true) {
    if (n < 2) return;
    if (depth >= key_bytes) {
      finish(a, a + n, true);
      return;
    }
    if (n < kSmall) {
      finish(a, a + n, false);
      return;
    }
    size_t count[256] = {};
    for (size_t i = 0; i < n; ++i) ++count[digit(a[i], depth)];
    if (count[digit(a[0], depth)] == n) {  // one bucket: on to the next digit
      ++depth;
      continue;
    }
    size_t end[256], next[256];
    size_t at = 0;
    for (int b = 0; b < 256; ++b) {
      next[b] = at;
      at += count[b];
      end[b] = at;
    }
    // Each record is swapped straight into its bucket's next free place.
    for (int b = 0; b < 256; ++b) {
      while (next[b] < end[b]) {
        Rec r = std::move(a[next[b]]);
        int d = digit(r, depth);
        while (d != b) {
          std::swap(r, a[next[d]++]);
          d = digit(r, depth);
        }
        a[next[b]++] = std::move(r);
      }
    }
    size_t from = 0;
    for (int b = 0; b < 256; ++b) {
      if (count[b] > 1) MsdRadixSort(a + from, count[b], depth + 1, key_bytes, digit, finish);
      from += count[b];
    }
    return;
  }
}

// The first digit at which the keys of [a, a + n) can differ (key_bytes when all are equal),
// for keys given as `words` 64-bit big-endian words word(r, w).
template <typename Rec, typename Word>
int FirstVaryingDigit(const Rec* a, size_t n, int words, const Word& word) {
  if (n == 0) return words * 8;
  for (int w = 0; w < words; ++w) {
    const uint64_t first = word(a[0], w);
    uint64_t diff = 0;
    for (size_t i = 1; i < n; ++i) diff |= word(a[i], w) ^ first;
    if (diff != 0) return w * 8 + __builtin_clzll(diff) / 8;
  }
  return words * 8;
}

// Sorts plain 64-bit values, smallest first.
inline void RadixSortUInt64(uint64_t* a, size_t n) {
  auto word = [](uint64_t v, int) { return v; };
  auto digit = [](uint64_t v, int d) { return static_cast<int>((v >> (56 - 8 * d)) & 0xFF); };
  auto finish = [](uint64_t* first, uint64_t* last, bool keys_equal) {
    if (!keys_equal) std::sort(first, last);
  };
  MsdRadixSort(a, n, FirstVaryingDigit(a, n, 1, word), 8, digit, finish);
}

}  // namespace partplay::internal
