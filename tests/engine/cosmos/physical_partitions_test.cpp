// Physical partition layout: the partition count formula at its edges, initial boundaries and
// midpoints against hand-computed values (the .NET SDK's PartitionKeyInternal arithmetic), and
// Locate's ordinal semantics at exact boundaries and for EPKs of other lengths.
#include "partplay/cosmos/physical_partitions.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cosmos/effective_partition_key.h"

namespace partplay {
namespace {

using V = PartitionKeyHashVersion;
using U128 = unsigned __int128;

constexpr double kGiB = 1073741824.0;

// 0x3FFF...FF = 2^126 - 1, MaxHashV2Value.
const U128 kMaxV2 = (static_cast<U128>(1) << 126) - 1;

std::string Repeat(char c, int n) { return std::string(static_cast<size_t>(n), c); }

// Test-side parse of 32 hex digits, independent of the engine's.
U128 ParseHex128(const std::string& hex) {
  EXPECT_EQ(hex.size(), 32u) << hex;
  U128 v = 0;
  for (char c : hex) v = v * 16 + static_cast<U128>(c <= '9' ? c - '0' : c - 'A' + 10);
  return v;
}

PhysicalLayout Layout(int n, V version) {
  StatusOr<PhysicalLayout> layout = InitialLayout(n, version);
  EXPECT_TRUE(layout.ok()) << layout.status().ToString();
  return layout.ok() ? layout.value() : PhysicalLayout{};
}

std::vector<std::string> Boundaries(const PhysicalLayout& layout) {
  std::vector<std::string> out;
  for (size_t i = 0; i + 1 < layout.ranges.size(); ++i) out.push_back(layout.ranges[i].max_exclusive);
  return out;
}

std::string Mid(std::string_view min, std::string_view max, V version) {
  StatusOr<std::string> mid = MidpointEffectivePartitionKey(min, max, version);
  EXPECT_TRUE(mid.ok()) << mid.status().ToString();
  return mid.ok() ? mid.value() : std::string();
}

int64_t Count(double ru, double bytes) {
  StatusOr<int64_t> count = PhysicalPartitionCount(ru, bytes);
  EXPECT_TRUE(count.ok()) << count.status().ToString();
  return count.ok() ? count.value() : -1;
}

size_t At(const PhysicalLayout& layout, std::string_view epk) {
  StatusOr<size_t> at = Locate(layout, epk);
  EXPECT_TRUE(at.ok()) << at.status().ToString();
  return at.ok() ? at.value() : static_cast<size_t>(-1);
}

// --- PhysicalPartitionCount ---------------------------------------------------------------------

TEST(PhysicalPartitionsTest, CountConstants) {
  EXPECT_EQ(kCosmosPhysicalPartitionRuPerSecond, 10000);
  EXPECT_EQ(kCosmosPhysicalPartitionBytes, 53687091200.0);  // 50 * 2^30 = 52,428,800 KiB
}

TEST(PhysicalPartitionsTest, CountAtThroughputBoundaries) {
  EXPECT_EQ(Count(0, 0), 1);
  EXPECT_EQ(Count(400, 0), 1);
  EXPECT_EQ(Count(10000, 0), 1);
  EXPECT_EQ(Count(10000.5, 0), 2);
  EXPECT_EQ(Count(10001, 0), 2);
  EXPECT_EQ(Count(20000, 0), 2);
  EXPECT_EQ(Count(20001, 0), 3);
  EXPECT_EQ(Count(18000, 0), 2);
  EXPECT_EQ(Count(1000000, 0), 100);
}

TEST(PhysicalPartitionsTest, CountAtStorageBoundaries) {
  EXPECT_EQ(Count(0, 1), 1);
  EXPECT_EQ(Count(0, 50 * kGiB), 1);
  EXPECT_EQ(Count(0, 50 * kGiB + 1), 2);
  EXPECT_EQ(Count(0, 50e9), 1);  // 50 decimal GB is under 50 GiB
  EXPECT_EQ(Count(0, 100 * kGiB), 2);
  EXPECT_EQ(Count(0, 100 * kGiB + 1), 3);
  // Far from the origin the +1 byte still counts.
  EXPECT_EQ(Count(0, 1000 * 50 * kGiB), 1000);
  EXPECT_EQ(Count(0, 1000 * 50 * kGiB + 1), 1001);
}

TEST(PhysicalPartitionsTest, CountIsTheLargerOfThroughputAndStorage) {
  EXPECT_EQ(Count(30000, 10 * kGiB), 3);
  EXPECT_EQ(Count(30000, 200 * kGiB), 4);
  EXPECT_EQ(Count(40001, 200 * kGiB), 5);
}

TEST(PhysicalPartitionsTest, CountRejectsBadInput) {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto [ru, bytes] : std::vector<std::pair<double, double>>{
           {-1, 0}, {-0.5, 0}, {0, -1}, {nan, 0}, {0, nan}, {inf, 0}, {0, inf}, {1e300, 0}}) {
    StatusOr<int64_t> count = PhysicalPartitionCount(ru, bytes);
    ASSERT_FALSE(count.ok()) << ru << " " << bytes;
    EXPECT_EQ(count.status().code(), ErrorCode::kBadOption);
  }
}

// --- InitialLayout ------------------------------------------------------------------------------

TEST(PhysicalPartitionsTest, OnePartitionIsTheWholeSpace) {
  for (V version : {V::kV1, V::kV2, V::kMultiHash}) {
    PhysicalLayout layout = Layout(1, version);
    ASSERT_EQ(layout.ranges.size(), 1u);
    EXPECT_EQ(layout.ranges[0], (EpkRange{"", "FF", 0}));
    EXPECT_EQ(layout.next_id, 1);
    EXPECT_EQ(layout.version, version);
  }
}

// By hand: MaxHashV2Value = 0x3FFF...FF = 2^126 - 1.
//  N = 2: (2^126 - 1) / 2 = 2^125 - 1 (rounded down) = 0x1FFF...FF.
//  N = 3: 2^126 - 1 = 4^63 - 1 is divisible by 3 (4 = 1 mod 3); digit by digit, 0x3F / 3 = 0x15
//         and 0xFF / 3 = 0x55 with no remainder, so the step is 0x1555...55; times 2 = 0x2AAA...AA.
//  N = 4: (2^126 - 1) / 4 = 2^124 - 1 = 0x0FFF...FF (rounded down, remainder 3); dividing first
//         makes boundary 2 = 2^125 - 2 = 0x1FFF...FE and boundary 3 = 3 * 2^124 - 3 = 0x2FFF...FD,
//         not the 0x1FFF...FF and 0x2FFF...FF that multiplying first would give.
TEST(PhysicalPartitionsTest, V2BoundariesByHand) {
  EXPECT_EQ(Boundaries(Layout(2, V::kV2)),
            (std::vector<std::string>{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"}));
  EXPECT_EQ(Boundaries(Layout(3, V::kV2)),
            (std::vector<std::string>{"15555555555555555555555555555555",
                                      "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}));
  EXPECT_EQ(Boundaries(Layout(4, V::kV2)),
            (std::vector<std::string>{"0FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                                      "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFE",
                                      "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFD"}));
  // N = 5: 0x3FFF...FF / 5 = 0x0CCC...CC (0x3F = 5 * 0x0C + 3, then each 0x3F.. step gives C).
  EXPECT_EQ(Boundaries(Layout(5, V::kV2))[0], "0CCCCCCCCCCCCCCCCCCCCCCCCCCCCCCC");
  EXPECT_EQ(Boundaries(Layout(5, V::kV2))[1], "19999999999999999999999999999998");
}

TEST(PhysicalPartitionsTest, MultiHashBoundariesAreTheV2Ones) {
  for (int n : {1, 2, 3, 4, 5, 7, 10, 100}) {
    EXPECT_EQ(Boundaries(Layout(n, V::kMultiHash)), Boundaries(Layout(n, V::kV2))) << n;
  }
}

TEST(PhysicalPartitionsTest, V2LayoutsCoverEvenlyWithoutGaps) {
  for (V version : {V::kV2, V::kMultiHash}) {
    for (int n : {1, 2, 3, 4, 5, 7, 10, 100}) {
      SCOPED_TRACE(n);
      PhysicalLayout layout = Layout(n, version);
      ASSERT_EQ(layout.ranges.size(), static_cast<size_t>(n));
      EXPECT_TRUE(ValidateLayout(layout).ok()) << ValidateLayout(layout).ToString();
      EXPECT_EQ(layout.ranges.front().min_inclusive, "");
      EXPECT_EQ(layout.ranges.back().max_exclusive, "FF");
      EXPECT_EQ(layout.next_id, n);
      for (int i = 0; i < n; ++i) EXPECT_EQ(layout.ranges[i].id, i);
      std::vector<std::string> b = Boundaries(layout);
      if (b.empty()) continue;
      // step = floor(MAX / n), checked with multiplication only: step * n <= MAX < (step+1) * n.
      U128 step = ParseHex128(b[0]);
      EXPECT_LE(step * static_cast<U128>(n), kMaxV2);
      EXPECT_GT((step + 1) * static_cast<U128>(n), kMaxV2);
      for (size_t i = 0; i < b.size(); ++i) {
        EXPECT_EQ(b[i].size(), 32u);
        EXPECT_LT(b[i], "40");  // inside the masked V2 space
        EXPECT_EQ(ParseHex128(b[i]), step * static_cast<U128>(i + 1)) << i;
        if (i > 0) EXPECT_LT(b[i - 1], b[i]);  // ordinal order = numeric order (same length)
      }
    }
  }
}

// By hand, V1: 4294967295 / 2 = 2147483647 = 2^31 - 1. As a double: exponent 30 (biased
// 1053 = 0x41D), mantissa 30 ones, so the bits are 0x41DFFFFFFFC00000; the order-preserving
// payload flips the sign bit: 0xC1DFFFFFFFC00000. Encoding: marker 05, first byte C1, then 7 bits
// per byte with the low bit 1 while more follow: 1101111 -> DF, 1111111 -> FF (three times),
// 1111110 and nothing after it -> FC. So "05" "C1" "DF" "FF" "FF" "FF" "FC".
// 4294967295 / 3 = 1431655765 = 0x55555555 (no remainder), times 2 = 2863311530 = 0xAAAAAAAA;
// encoded the same way: "05C1D5AB55AB54" and "05C1E5AB55AB54" (also checked with a separate
// script implementing NumberPartitionKeyComponent.WriteForBinaryEncoding).
TEST(PhysicalPartitionsTest, V1BoundariesByHand) {
  EXPECT_EQ(Boundaries(Layout(2, V::kV1)), (std::vector<std::string>{"05C1DFFFFFFFFC"}));
  EXPECT_EQ(Boundaries(Layout(3, V::kV1)),
            (std::vector<std::string>{"05C1D5AB55AB54", "05C1E5AB55AB54"}));
}

TEST(PhysicalPartitionsTest, V1LayoutsCoverWithoutGaps) {
  for (int n : {1, 2, 3, 4, 5, 7, 10, 100}) {
    SCOPED_TRACE(n);
    PhysicalLayout layout = Layout(n, V::kV1);
    ASSERT_EQ(layout.ranges.size(), static_cast<size_t>(n));
    EXPECT_TRUE(ValidateLayout(layout).ok()) << ValidateLayout(layout).ToString();
    std::vector<std::string> b = Boundaries(layout);
    for (size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(b[i].substr(0, 2), "05");
      if (i > 0) EXPECT_LT(b[i - 1], b[i]);
    }
  }
}

TEST(PhysicalPartitionsTest, V1KeysLandByTheirHash) {
  // "redmond" hashes to 0xC1EFE313830C... in the payload, i.e. above 2^31 and above 0xAAAAAAAA's
  // "05C1E5...": the last range of 2 and of 3.
  PartitionKey key;
  key.components.push_back(KeyComponent::String("redmond"));
  StatusOr<std::string> epk = EffectivePartitionKey(key, V::kV1);
  ASSERT_TRUE(epk.ok());
  EXPECT_EQ(epk.value(), "05C1EFE313830C087366656E706F6500");
  EXPECT_EQ(At(Layout(2, V::kV1), epk.value()), 1u);
  EXPECT_EQ(At(Layout(3, V::kV1), epk.value()), 2u);
  // A key EPK whose hash equals a boundary starts with the boundary, so it sorts after it.
  EXPECT_EQ(At(Layout(2, V::kV1), "05C1DFFFFFFFFC" "0862" "00"), 1u);
}

TEST(PhysicalPartitionsTest, InitialLayoutRejectsBadCounts) {
  for (int n : {0, -1, -100, kMaxInitialPartitions + 1}) {
    StatusOr<PhysicalLayout> layout = InitialLayout(n, V::kV2);
    ASSERT_FALSE(layout.ok()) << n;
    EXPECT_EQ(layout.status().code(), ErrorCode::kBadOption);
  }
  PhysicalLayout largest = Layout(kMaxInitialPartitions, V::kV2);
  EXPECT_TRUE(ValidateLayout(largest).ok());
}

// --- midpoints and splits -----------------------------------------------------------------------

TEST(PhysicalPartitionsTest, V2MidpointsByHand) {
  // "" .. "FF" is 0 .. 0x3FFF...FF: 0 + (2^126 - 1) / 2 = 2^125 - 1, the N = 2 boundary (the
  // SDK's own test asserts the same equality).
  EXPECT_EQ(Mid("", "FF", V::kV2), "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
  // 0x1555..55 + (0x2AAA..AA - 0x1555..55) / 2 = 0x1555..55 + 0x0AAA..AA = 0x1FFF..FF.
  EXPECT_EQ(Mid("15555555555555555555555555555555", "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", V::kV2),
            "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
  // 0x2AAA..AA + (0x3FFF..FF - 0x2AAA..AA) / 2 = 0x2AAA..AA + 0x0AAA..AA = 0x3555..54.
  EXPECT_EQ(Mid("2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF", V::kV2),
            "35555555555555555555555555555554");
  // (2^125 - 1) + 2^125 / 2 = 2^125 + 2^124 - 1 = 0x2FFF..FF.
  EXPECT_EQ(Mid("1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF", V::kV2),
            "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
  // Width 2 splits into 1 + 1; the midpoint rounds down.
  EXPECT_EQ(Mid("00000000000000000000000000000010", "00000000000000000000000000000012", V::kV2),
            "00000000000000000000000000000011");
  EXPECT_EQ(Mid("00000000000000000000000000000010", "00000000000000000000000000000013", V::kV2),
            "00000000000000000000000000000011");
  EXPECT_EQ(Mid("", "00000000000000000000000000000002", V::kV2),
            "00000000000000000000000000000001");
}

TEST(PhysicalPartitionsTest, V1MidpointsByHand) {
  // 0 .. 4294967295: (0 + 4294967295) / 2 = 2147483647, the N = 2 boundary.
  EXPECT_EQ(Mid("", "FF", V::kV1), "05C1DFFFFFFFFC");
  // (0 + 2147483647) / 2 = 1073741823 = 2^30 - 1: payload 0xC1CFFFFFFF800000 -> 05 C1 CF FF FF FF F8.
  EXPECT_EQ(Mid("", "05C1DFFFFFFFFC", V::kV1), "05C1CFFFFFFFF8");
  // (2147483647 + 4294967295) / 2 = 3221225471 = 0xBFFFFFFF: payload 0xC1E7FFFFFFE00000.
  EXPECT_EQ(Mid("05C1DFFFFFFFFC", "FF", V::kV1), "05C1E7FFFFFFFE");
  // A key EPK as a bound: only its leading number counts.
  EXPECT_EQ(Mid("05C1DFFFFFFFFC" "0862" "00", "FF", V::kV1), "05C1E7FFFFFFFE");
}

TEST(PhysicalPartitionsTest, MultiHashMidpointUsesTheFirstLevel) {
  const std::string level2 = "0123456789ABCDEF0123456789ABCDEF";
  // [0x1555..55 + level 2, "FF"): 0x1555..55 + (0x3FFF..FF - 0x1555..55) / 2 = 0x2AAA..AA.
  EXPECT_EQ(Mid("15555555555555555555555555555555" + level2, "FF", V::kMultiHash),
            "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
  EXPECT_EQ(Mid("", "FF", V::kMultiHash), "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
  // A first-level prefix's range [P, P + "FF") is one first-level value: not split.
  const std::string p = "22E342F38A486A088463DFF7838A5963";
  StatusOr<std::string> mid = MidpointEffectivePartitionKey(p, p + "FF", V::kMultiHash);
  ASSERT_FALSE(mid.ok());
  EXPECT_EQ(mid.status().code(), ErrorCode::kBadOption);
}

TEST(PhysicalPartitionsTest, MidpointRejectsBadRanges) {
  const std::string a = "00000000000000000000000000000010";
  const std::string a1 = "00000000000000000000000000000011";
  struct Case {
    std::string min, max;
    V version;
  };
  for (const Case& c : std::vector<Case>{
           {a, a1, V::kV2},                                  // width 1: too narrow
           {a, a, V::kV2},                                   // empty
           {a1, a, V::kV2},                                  // reversed
           {"", "00000000000000000000000000000001", V::kV2},  // width 1 from ""
           {"abcdef0123456789abcdef0123456789", "FF", V::kV2},  // lower case
           {"ABC", "FF", V::kV2},                            // not 32 digits
           {"", "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", V::kV2},  // 34 digits
           {"FF", "FF", V::kV2},
           {"0800", "FF", V::kV1},            // not a number component
           {"05C1DFFFFFFFF", "FF", V::kV1},   // odd length
           {"05C1DFFFFFFFFC", "05C1DFFFFFFFFC", V::kV1},
           {"058000", "05BFF0", V::kV1},      // 0 .. 1: too narrow
           {"054010", "FF", V::kV1},          // -1: below the hash space
           {"", "05C1F0", V::kV1},            // 2^32: above the hash space
       }) {
    StatusOr<std::string> mid = MidpointEffectivePartitionKey(c.min, c.max, c.version);
    EXPECT_FALSE(mid.ok()) << c.min << " .. " << c.max << " -> " << (mid.ok() ? mid.value() : "");
    if (!mid.ok()) EXPECT_EQ(mid.status().code(), ErrorCode::kBadOption);
  }
}

TEST(PhysicalPartitionsTest, SplitReplacesTheRangeWithTwoNewIds) {
  PhysicalLayout layout = Layout(1, V::kV2);
  StatusOr<std::pair<EpkRange, EpkRange>> halves = SplitAtMidpoint(layout, 0);
  ASSERT_TRUE(halves.ok()) << halves.status().ToString();
  EXPECT_EQ(halves.value().first, (EpkRange{"", "1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 1}));
  EXPECT_EQ(halves.value().second, (EpkRange{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF", 2}));
  ASSERT_EQ(layout.ranges.size(), 2u);
  EXPECT_EQ(layout.ranges[0], halves.value().first);
  EXPECT_EQ(layout.ranges[1], halves.value().second);
  EXPECT_EQ(layout.next_id, 3);
  EXPECT_TRUE(ValidateLayout(layout).ok());

  halves = SplitAtMidpoint(layout, 2);
  ASSERT_TRUE(halves.ok());
  ASSERT_EQ(layout.ranges.size(), 3u);
  EXPECT_EQ(layout.ranges[1], (EpkRange{"1FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF",
                                        "2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", 3}));
  EXPECT_EQ(layout.ranges[2], (EpkRange{"2FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF", "FF", 4}));
  EXPECT_EQ(layout.ranges[0].id, 1);
  EXPECT_EQ(layout.next_id, 5);
  EXPECT_TRUE(ValidateLayout(layout).ok());
}

TEST(PhysicalPartitionsTest, SplitOfAMiddleRangeV1) {
  PhysicalLayout layout = Layout(2, V::kV1);
  StatusOr<std::pair<EpkRange, EpkRange>> halves = SplitAtMidpoint(layout, 1);
  ASSERT_TRUE(halves.ok()) << halves.status().ToString();
  EXPECT_EQ(halves.value().first, (EpkRange{"05C1DFFFFFFFFC", "05C1E7FFFFFFFE", 2}));
  EXPECT_EQ(halves.value().second, (EpkRange{"05C1E7FFFFFFFE", "FF", 3}));
  EXPECT_TRUE(ValidateLayout(layout).ok());
}

TEST(PhysicalPartitionsTest, SplitErrorsLeaveTheLayoutAlone) {
  PhysicalLayout layout = Layout(3, V::kV2);
  const PhysicalLayout before = layout;
  StatusOr<std::pair<EpkRange, EpkRange>> halves = SplitAtMidpoint(layout, 7);
  ASSERT_FALSE(halves.ok());
  EXPECT_EQ(halves.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(layout.ranges, before.ranges);
  EXPECT_EQ(layout.next_id, before.next_id);

  PhysicalLayout narrow;
  narrow.version = V::kV2;
  narrow.ranges = {{"", "00000000000000000000000000000001", 0},
                   {"00000000000000000000000000000001", "FF", 1}};
  narrow.next_id = 2;
  ASSERT_TRUE(ValidateLayout(narrow).ok());
  halves = SplitAtMidpoint(narrow, 0);
  ASSERT_FALSE(halves.ok());
  EXPECT_EQ(halves.status().code(), ErrorCode::kBadOption);
  EXPECT_EQ(narrow.ranges.size(), 2u);
  EXPECT_EQ(narrow.next_id, 2);
}

TEST(PhysicalPartitionsTest, RepeatedSplitsStayValid) {
  for (V version : {V::kV1, V::kV2, V::kMultiHash}) {
    PhysicalLayout layout = Layout(3, version);
    // Always split the range holding one fixed EPK: 25 halvings down one path, then every range.
    const std::string epk = version == V::kV1 ? std::string("05C1EFE313830C087366656E706F6500")
                                              : std::string("22E342F38A486A088463DFF7838A5963");
    for (int i = 0; i < 25; ++i) {
      size_t at = At(layout, epk);
      ASSERT_TRUE(SplitAtMidpoint(layout, layout.ranges[at].id).ok()) << i;
      ASSERT_TRUE(ValidateLayout(layout).ok()) << ValidateLayout(layout).ToString();
      EXPECT_TRUE(layout.ranges[At(layout, epk)].Contains(epk));
    }
    std::vector<int> ids;
    for (const EpkRange& r : layout.ranges) ids.push_back(r.id);
    for (int id : ids) ASSERT_TRUE(SplitAtMidpoint(layout, id).ok());
    EXPECT_EQ(layout.ranges.size(), 2 * ids.size());
    EXPECT_TRUE(ValidateLayout(layout).ok()) << ValidateLayout(layout).ToString();
  }
}

// --- Locate -------------------------------------------------------------------------------------

TEST(PhysicalPartitionsTest, LocateAtExactBoundaries) {
  PhysicalLayout layout = Layout(3, V::kV2);
  EXPECT_EQ(At(layout, ""), 0u);
  EXPECT_EQ(At(layout, "00000000000000000000000000000000"), 0u);
  EXPECT_EQ(At(layout, "15555555555555555555555555555554"), 0u);  // max is exclusive
  EXPECT_EQ(At(layout, "15555555555555555555555555555555"), 1u);  // min is inclusive
  EXPECT_EQ(At(layout, "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA9"), 1u);
  EXPECT_EQ(At(layout, "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), 2u);
  EXPECT_EQ(At(layout, "3FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"), 2u);  // the largest V2 EPK
  EXPECT_EQ(At(layout, "FE"), 2u);
  EXPECT_EQ(At(layout, "FEFFFFFF"), 2u);
  for (std::string_view outside : {"FF", "FF00", "FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF"}) {
    StatusOr<size_t> at = Locate(layout, outside);
    ASSERT_FALSE(at.ok()) << outside;
    EXPECT_EQ(at.status().code(), ErrorCode::kBadOption);
  }
  StatusOr<size_t> none = Locate(PhysicalLayout{}, "00");
  ASSERT_FALSE(none.ok());
}

TEST(PhysicalPartitionsTest, LocateARealV2Key) {
  PartitionKey key;
  key.components.push_back(KeyComponent::String("redmond"));
  StatusOr<std::string> epk = EffectivePartitionKey(key, V::kV2);
  ASSERT_TRUE(epk.ok());
  EXPECT_EQ(epk.value(), "22E342F38A486A088463DFF7838A5963");
  EXPECT_EQ(At(Layout(1, V::kV2), epk.value()), 0u);
  EXPECT_EQ(At(Layout(2, V::kV2), epk.value()), 1u);  // 0x22.. >= 0x1FFF..
  EXPECT_EQ(At(Layout(3, V::kV2), epk.value()), 1u);  // 0x1555.. <= 0x22.. < 0x2AAA..
  EXPECT_EQ(At(Layout(4, V::kV2), epk.value()), 2u);  // 0x1FFF..FE <= 0x22.. < 0x2FFF..FD
}

// MultiHash EPKs are 64 or 96 characters against 32-character boundaries. Ordinal order puts a
// boundary before every longer EPK it is a prefix of, which is the numeric order of the first
// level with the later levels as a tie-break.
TEST(PhysicalPartitionsTest, LocateLongerAndShorterEpksOrdinally) {
  PhysicalLayout layout = Layout(3, V::kMultiHash);
  const std::string b1 = "15555555555555555555555555555555";
  const std::string below = "15555555555555555555555555555554";
  EXPECT_EQ(At(layout, b1 + Repeat('0', 32)), 1u);  // starts with the boundary: after it
  EXPECT_EQ(At(layout, b1 + Repeat('F', 64)), 1u);
  EXPECT_EQ(At(layout, below + Repeat('F', 32)), 0u);  // first level below the boundary
  EXPECT_EQ(At(layout, below + Repeat('F', 64)), 0u);
  EXPECT_EQ(At(layout, "15"), 0u);  // a proper prefix of the boundary sorts before it
  EXPECT_EQ(At(layout, "1556"), 1u);
  EXPECT_EQ(At(layout, b1), 1u);

  // A real hierarchical key: its first level decides.
  PartitionKey key;
  key.components.push_back(KeyComponent::String("redmond"));
  key.components.push_back(KeyComponent::String("98052"));
  StatusOr<std::string> epk = EffectivePartitionKey(key, V::kMultiHash);
  ASSERT_TRUE(epk.ok());
  ASSERT_EQ(epk.value().size(), 64u);
  EXPECT_EQ(epk.value().substr(0, 32), "22E342F38A486A088463DFF7838A5963");
  EXPECT_EQ(At(layout, epk.value()), 1u);
}

TEST(PhysicalPartitionsTest, CompareIsOrdinalOverUnsignedBytes) {
  EXPECT_EQ(CompareEffectivePartitionKeys("", ""), 0);
  EXPECT_EQ(CompareEffectivePartitionKeys("", "00"), -1);
  EXPECT_EQ(CompareEffectivePartitionKeys("15", "1555"), -1);
  EXPECT_EQ(CompareEffectivePartitionKeys("1556", "1555FFFF"), 1);
  EXPECT_EQ(CompareEffectivePartitionKeys("3F", "FF"), -1);
  EXPECT_EQ(CompareEffectivePartitionKeys("B", "a"), -1);  // 'B' 0x42 < 'a' 0x61, no case folding
  EXPECT_EQ(CompareEffectivePartitionKeys("\x80", "\x7F"), 1);  // unsigned bytes
}

TEST(PhysicalPartitionsTest, LocateAgreesWithALinearScan) {
  std::mt19937_64 rng(20240611);
  auto random_hex = [&](size_t length, bool v2_space) {
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string s;
    for (size_t i = 0; i < length; ++i) s.push_back(kDigits[rng() % 16]);
    if (v2_space) s[0] = kDigits[rng() % 4];  // first byte masked with 0x3F: "0".."3"
    return s;
  };
  for (int n : {1, 2, 3, 4, 5, 7, 10, 100}) {
    PhysicalLayout layout = Layout(n, V::kMultiHash);
    // Split a few ranges too, so the boundaries are not all from the initial formula.
    for (int i = 0; i < 5; ++i) {
      ASSERT_TRUE(SplitAtMidpoint(layout, layout.ranges[rng() % layout.ranges.size()].id).ok());
    }
    std::vector<std::string> epks;
    for (int i = 0; i < 300; ++i) {
      epks.push_back(random_hex(32, true));
      epks.push_back(random_hex(64, true));
      epks.push_back(random_hex(1 + rng() % 40, false));
    }
    for (const EpkRange& r : layout.ranges) epks.push_back(r.min_inclusive);
    for (const std::string& epk : epks) {
      if (CompareEffectivePartitionKeys(epk, "FF") >= 0) continue;
      size_t expected = 0, matches = 0;
      for (size_t i = 0; i < layout.ranges.size(); ++i) {
        if (layout.ranges[i].Contains(epk)) {
          expected = i;
          ++matches;
        }
      }
      ASSERT_EQ(matches, 1u) << epk;
      EXPECT_EQ(At(layout, epk), expected) << epk;
    }
  }
}

// --- ValidateLayout -----------------------------------------------------------------------------

TEST(PhysicalPartitionsTest, ValidateFindsBrokenLayouts) {
  auto broken = [](std::vector<EpkRange> ranges, int next_id) {
    PhysicalLayout layout;
    layout.ranges = std::move(ranges);
    layout.next_id = next_id;
    Status s = ValidateLayout(layout);
    EXPECT_EQ(s.code(), ErrorCode::kInvalidState) << s.ToString();
  };
  broken({}, 0);
  broken({{"00", "FF", 0}}, 1);                        // does not start at ""
  broken({{"", "FE", 0}}, 1);                          // does not end at "FF"
  broken({{"", "10", 0}, {"20", "FF", 1}}, 2);         // gap
  broken({{"", "20", 0}, {"10", "FF", 1}}, 2);         // overlap
  broken({{"", "10", 0}, {"10", "10", 1}, {"10", "FF", 2}}, 3);  // empty range
  broken({{"", "10", 0}, {"10", "FF", 0}}, 1);         // duplicate id
  broken({{"", "10", 0}, {"10", "FF", 5}}, 2);         // id not below next_id
  PhysicalLayout ok;
  ok.ranges = {{"", "10", 0}, {"10", "FF", 1}};
  ok.next_id = 2;
  EXPECT_TRUE(ValidateLayout(ok).ok());
}

}  // namespace
}  // namespace partplay
