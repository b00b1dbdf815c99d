// How Cosmos DB lays a container's effective partition keys (EPKs, effective_partition_key.h)
// over physical partitions. Each physical partition owns one contiguous range [min, max) of the
// EPK space, the whole space running from "" (inclusive) to "FF" (exclusive); ranges are compared
// ordinally (byte by byte, never with locale rules), so a MultiHash EPK of 64 or 96 characters
// falls after a 32-character boundary it starts with. A container starts with N ranges that cut
// the hash space evenly, and a split cuts one range at its midpoint; a logical partition (one EPK)
// is always in exactly one range.
//
// Sources. The count of physical partitions follows the Cosmos DB partitioning overview
// (learn.microsoft.com/azure/cosmos-db/partitioning-overview: at most 10,000 RU/s and 50 GB per
// physical partition). The boundary and midpoint arithmetic is a port of the .NET SDK's
// PartitionKeyInternal (github.com/Azure/azure-cosmos-dotnet-v3,
// Microsoft.Azure.Cosmos/src/direct/PartitionKeyInternal.cs: GetMinInclusiveEffectivePartitionKey,
// GetMaxExclusiveEffectivePartitionKey, GetMiddleRangeEffectivePartitionKey; the Java SDK's
// PartitionKeyInternalHelper has the same MaxHashV2Value) and is exact for all three versions:
//
//  - V2 and MultiHash: the space is the 128-bit integers 0 .. MaxHashV2Value = 0x3FFF...FF
//    (2^126 - 1, the largest masked hash). Boundary i of N = (MaxHashV2Value / N) * i, divided
//    first and then multiplied, in exact 128-bit integers, written as 32 upper-case hex digits
//    (so the last range is up to N - 1 values wider than the others).
//  - V1: the space is the uint32 MurmurHash3 values 0 .. 4294967295. Boundary i of N =
//    (4294967295 / N) * i in 64-bit integers, written as a V1 EPK holding just that number
//    (marker 05 and Cosmos DB's order-preserving number encoding), e.g. "05C1DFFFFFFFFC" for
//    2147483647. A V1 key's EPK is its hash in that encoding followed by the key itself, so the
//    boundary sorts before every key whose hash equals it.
//  - Midpoint of [min, max): "" counts as 0 and "FF" as the top of the space (MaxHashV2Value,
//    resp. 4294967295), every other bound as its number; midpoint = min + (max - min) / 2,
//    rounded down. For MultiHash only the first level (first 32 characters) of each bound counts,
//    as in the .NET SDK, so a split never cuts inside one first-level value.
//
//   StatusOr<PhysicalLayout> layout = InitialLayout(3, PartitionKeyHashVersion::kV2);
//   // ranges: ["", "15555555555555555555555555555555") id 0,
//   //         ["15555555555555555555555555555555", "2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA") id 1,
//   //         ["2AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "FF") id 2
//   StatusOr<size_t> at = Locate(layout.value(), "22E342F38A486A088463DFF7838A5963");  // 1
//   auto halves = SplitAtMidpoint(layout.value(), 1);  // ids 3 and 4, cut at "1FFF...FF"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/core/limits.h"
#include "partplay/core/status.h"

namespace partplay {

// The quotas of a physical partition (10,000 RU/s, 50 GB) are in core/limits.h.

// The ends of the EPK space: MinimumInclusiveEffectivePartitionKey (no components) and
// MaximumExclusiveEffectivePartitionKey (the Infinity component, 0xFF) in the SDKs.
inline constexpr std::string_view kMinEffectivePartitionKey = "";
inline constexpr std::string_view kMaxEffectivePartitionKey = "FF";

// The most ranges InitialLayout makes, and the model after growth: the engine's own bound
// (core/limits.h), not a Cosmos DB limit.
inline constexpr int kMaxInitialPartitions = kCosmosMaxModelledPhysicalPartitions;

// One physical partition: the EPKs e with min_inclusive <= e < max_exclusive (ordinal order).
struct EpkRange {
  std::string min_inclusive;
  std::string max_exclusive;
  int id = 0;  // like the service's partition key range ids: 0 .. N-1, then new ones per split

  bool Contains(std::string_view epk) const {
    return min_inclusive <= epk && epk < max_exclusive;
  }
  bool operator==(const EpkRange&) const = default;
};

// Ranges in EPK order covering "" .. "FF" without gaps or overlaps (ValidateLayout checks it).
struct PhysicalLayout {
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  std::vector<EpkRange> ranges;
  int next_id = 0;  // the id the next range made by a split gets
};

// Ordinal comparison of two EPKs: bytes as unsigned, a proper prefix first (-1, 0, 1).
int CompareEffectivePartitionKeys(std::string_view a, std::string_view b);

// max(ceil(RU/s / 10,000), ceil(storage_bytes / 50 GiB), 1), computed exactly for integral
// inputs below 2^53 (exactly 10,000 RU/s is 1 partition, 10,001 is 2). Errors: kBadOption for a
// negative, NaN or infinite input, or a count above 2^53.
StatusOr<int64_t> PhysicalPartitionCount(double ru_per_second, double storage_bytes);

// The N ranges of a new container (see the header comment), ids 0 .. N-1, next_id N.
// Errors: kBadOption when n < 1 or n > kMaxInitialPartitions.
StatusOr<PhysicalLayout> InitialLayout(int n, PartitionKeyHashVersion version);

// The EPK at the middle of [min_inclusive, max_exclusive), as the .NET SDK computes it: 32 hex
// digits for V2 and MultiHash, a V1 number EPK for V1. Bounds are "" / "FF" or EPKs of the
// version in upper-case hex (V2: exactly 32 digits; MultiHash: 32 per level; V1: an EPK starting
// with a number component, whose first component is read). Errors: kBadOption for a bound that
// is not such an EPK, an empty range, or a range too narrow to split (midpoint == min).
StatusOr<std::string> MidpointEffectivePartitionKey(std::string_view min_inclusive,
                                                    std::string_view max_exclusive,
                                                    PartitionKeyHashVersion version);

// Splits the range with id `range_id` at its midpoint: in `layout` it is replaced by
// [min, mid) with id next_id and [mid, max) with id next_id + 1 (next_id grows by 2); the two
// are returned. Errors: kBadOption for an unknown id or a range that cannot be split (the
// layout is then unchanged).
StatusOr<std::pair<EpkRange, EpkRange>> SplitAtMidpoint(PhysicalLayout& layout, int range_id);

// The index in layout.ranges of the range holding `epk`, by binary search on ordinal order.
// The layout must be valid (as InitialLayout and SplitAtMidpoint keep it). Errors: kBadOption
// for an EPK at or past "FF" (outside the space) or an empty layout.
StatusOr<size_t> Locate(const PhysicalLayout& layout, std::string_view epk);

// OK when the ranges are non-empty, start at "", end at "FF", each max equals the next min,
// each min < max (ordinal), ids are distinct and below next_id. Error: kInvalidState naming the
// first problem.
Status ValidateLayout(const PhysicalLayout& layout);

}  // namespace partplay
