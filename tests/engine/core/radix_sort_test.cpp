// The in-place radix sort behind the listings and the container model's EPK order: the same
// order as std::sort, whatever the spread of the keys.
#include "core/radix_sort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <tuple>
#include <vector>

namespace partplay::internal {
namespace {

// Values drawn in ways that exercise the digit skipping and the buckets: few distinct values,
// a narrow range high up, every bit random, all equal.
std::vector<uint64_t> Values(std::mt19937_64& rng, size_t n, int kind) {
  std::vector<uint64_t> v(n);
  for (uint64_t& x : v) {
    switch (kind) {
      case 0: x = rng() % 7; break;
      case 1: x = (uint64_t{0xABCD} << 40) | (rng() % 5000); break;
      case 2: x = rng(); break;
      case 3: x = 42; break;
      default: x = rng() >> (rng() % 64); break;
    }
  }
  return v;
}

TEST(RadixSortTest, SortsPlainValuesAsStdSortDoes) {
  std::mt19937_64 rng(5);
  for (size_t n : {size_t{0}, size_t{1}, size_t{2}, size_t{47}, size_t{48}, size_t{49},
                   size_t{300}, size_t{20000}}) {
    for (int kind = 0; kind < 5; ++kind) {
      std::vector<uint64_t> v = Values(rng, n, kind);
      std::vector<uint64_t> want = v;
      std::sort(want.begin(), want.end());
      RadixSortUInt64(v.data(), v.size());
      EXPECT_EQ(v, want) << "n " << n << " kind " << kind;
    }
  }
}

// Records with a two-word key and a tie-break the key does not hold: runs whose keys are
// equal reach `finish` with keys_equal, and the result is the full order.
TEST(RadixSortTest, RecordsWithATieBreakFollowTheFullOrder) {
  struct Rec {
    uint64_t hi, lo;
    uint32_t tie;
  };
  auto before = [](const Rec& a, const Rec& b) {
    return std::tie(a.hi, a.lo, a.tie) < std::tie(b.hi, b.lo, b.tie);
  };
  auto word = [](const Rec& r, int w) { return w == 0 ? r.hi : r.lo; };
  auto digit = [](const Rec& r, int d) {
    return static_cast<int>(((d < 8 ? r.hi : r.lo) >> (56 - 8 * (d & 7))) & 0xFF);
  };
  std::mt19937_64 rng(8);
  for (int round = 0; round < 20; ++round) {
    const size_t n = 1 + rng() % 5000;
    std::vector<Rec> v(n);
    for (Rec& r : v) {
      r.hi = rng() % (round % 2 ? 3 : 1000);
      r.lo = round % 3 == 0 ? rng() % 4 : rng();
      r.tie = static_cast<uint32_t>(rng() % 100);
    }
    std::vector<Rec> want = v;
    std::sort(want.begin(), want.end(), before);
    int equal_runs = 0;
    auto finish = [&](Rec* first, Rec* last, bool keys_equal) {
      if (keys_equal) {
        ++equal_runs;
        for (Rec* r = first; r != last; ++r) {
          EXPECT_TRUE(r->hi == first->hi && r->lo == first->lo);
        }
      }
      std::sort(first, last, before);
    };
    MsdRadixSort(v.data(), v.size(), FirstVaryingDigit(v.data(), v.size(), 2, word), 16, digit,
                 finish);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_FALSE(before(v[i], want[i]) || before(want[i], v[i])) << "round " << round << " at " << i;
    }
    // Three hi values and four lo values: runs of equal keys past the small-run cut.
    if (round % 6 == 3 && n > 1000) EXPECT_GT(equal_runs, 0) << "round " << round;
  }
}

TEST(RadixSortTest, FirstVaryingDigitSkipsSharedLeadingBytes) {
  auto word = [](uint64_t v, int) { return v; };
  std::vector<uint64_t> v = {0x1122330000000001, 0x1122330000000100};
  EXPECT_EQ(FirstVaryingDigit(v.data(), v.size(), 1, word), 6);
  v = {0x8000000000000000, 0};
  EXPECT_EQ(FirstVaryingDigit(v.data(), v.size(), 1, word), 0);
  v = {7, 7, 7};
  EXPECT_EQ(FirstVaryingDigit(v.data(), v.size(), 1, word), 8);
  EXPECT_EQ(FirstVaryingDigit(v.data(), 0, 1, word), 8);
}

}  // namespace
}  // namespace partplay::internal
