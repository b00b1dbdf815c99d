// The playground's own defaults and thresholds: what a fresh run assumes, and where a figure
// turns from good to a warning. They are rows of the limits table (core/limits.h, kinds "default"
// and "threshold"), so the page reads them from there and never writes one itself; the engine's
// options (cosmos/container.h), findings (report/insights.cpp, cosmos/key_advisor.cpp) and
// verdicts (report/judgements.h) use these constants.
//
//   if (gini < kSpreadEvenMaxGini) ...                 // "fairly even"
//   FindLimit("storage_balance_warn")->value;          // 1.5
#pragma once

namespace partplay {

// Manual throughput of a new container: the service's minimum (cosmos-partitioning-overview.md).
inline constexpr double kCosmosDefaultRuPerSecond = 400;
// RU of one query filtered on the partition key, per physical partition it touches.
inline constexpr double kCosmosDefaultQueryRu = 3;
// Logical partitions listed per physical partition in the container model.
inline constexpr int kCosmosDefaultTopPerRange = 20;
// Suffixes N the page offers first for a random- or hash-suffix synthetic key.
inline constexpr double kCosmosDefaultSyntheticBuckets = 400;
// Spread of sizes (Gini): below this it is "fairly even" (the even_spread finding, the key
// advisor's "good"); from kSpreadStrongSkewGini on it is "strongly skewed".
inline constexpr double kSpreadEvenMaxGini = 0.5;
inline constexpr double kSpreadStrongSkewGini = 0.6;
// The summary's warnings: the largest logical partition past this share of the 20 GB quota; the
// largest 1% of partitions holding more than this share of the bytes (with at least
// kTopShareMinPartitions partitions, so that 1% means something).
inline constexpr double kLargestPartitionWarnShare = 0.5;
inline constexpr double kTopShareWarn = 0.5;
inline constexpr double kTopShareMinPartitions = 100;
// Requests throttled (429) over a layout: any is a warning, more than this share is bad.
inline constexpr double kThrottledBadFraction = 0.05;
// Storage balance of physical partitions (fullest / mean): above this the layout is uneven.
inline constexpr double kStorageBalanceWarn = 1.5;
// The key comparison's bounds on a candidate key (report/candidate_spec.h, key_comparison.h).
inline constexpr double kCandidateMaxHierarchicalPaths = 3;
inline constexpr double kCandidateMinConcatPaths = 2;
inline constexpr double kCandidateMaxConcatPaths = 5;
inline constexpr double kCandidateMaxBuckets = 1000000;

// What the page lists and draws, at most: the largest logical partitions a report lists when the
// page asks for none, and the partitions of a CQL table its ring is drawn from (the first ones in
// token order, then every k-th). The CLI lists every partition.
inline constexpr int kPageListedPartitions = 2000;
inline constexpr int kCqlViewScanPartitions = 50000;
inline constexpr int kCqlViewMaxPartitions = 4000;

// Keys one key comparison judges at once, and queries it lists, at most (report/key_comparison.h).
inline constexpr int kCompareMaxKeys = 8;
inline constexpr int kCompareMaxQueries = 16;

// The traffic pass (report/key_traffic.h). A key is monotonic when, over at least
// kMonotonicMinChanges changes of its value between consecutive items, at least kMonotonicShare
// of them rise (or as many fall) with the input's order or with the time field. The automatic
// write window is the smallest holding kWriteSpreadMinItemsPerWindow writes per window on average
// (fewer would make any key look concentrated by chance).
inline constexpr double kMonotonicShare = 0.9;
inline constexpr double kMonotonicMinChanges = 20;
inline constexpr double kWriteSpreadMinItemsPerWindow = 100;
// Whether a share of rising changes says monotonic: at least kMonotonicShare rise, or as many
// fall (the tolerance keeps 2 of 20, 0.1, from missing 1 - 0.9 by a rounding).
inline constexpr bool IsMonotonicShare(double rising) {
  return rising >= kMonotonicShare || rising <= 1 - kMonotonicShare + 1e-9;
}

}  // namespace partplay
