// The words the report puts beside a figure: how even the partition sizes are (from the Gini
// coefficient) and how evenly the physical partitions are filled (the fullest over the mean).
// The page shows these verdicts as written and judges nothing itself; the thresholds are rows of
// the limits table (core/limits.h: spread_even_max_gini, spread_strong_skew_gini,
// storage_balance_warn), so the summary card and the findings (report/insights.cpp, the key
// advisor) cannot disagree.
//
//   SpreadJudgement(0.37, 2000).verdict    // "fairly even" (level "good")
//   StorageBalanceJudgement(1.8, 4).level  // "warn" ("uneven")
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "partplay/cosmos/container.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

struct Judgement {
  std::string_view verdict;  // the words the page shows: "fairly even", "strongly skewed", ...
  std::string_view level;    // "good", "" (neutral) or "warn", as the findings' levels
};

// "one partition" (fewer than two), "fairly even" (gini < spread_even_max_gini), "moderately
// skewed", or "strongly skewed" (gini >= spread_strong_skew_gini, level "warn").
Judgement SpreadJudgement(double gini, uint64_t partition_count);

// The fullest physical partition's bytes over the mean (1 = even; 1 with no bytes or one range).
double StorageMaxOverMean(const std::vector<PhysicalPartition>& ranges);
// "one partition", "even" (max_over_mean <= storage_balance_warn, level "good") or "uneven"
// (above it, level "warn").
Judgement StorageBalanceJudgement(double max_over_mean, size_t ranges);

// The summary figures' levels ("", "warn" or "bad"), as the report's "levels" (docs/report.md):
// {partition_count: "warn" when all items share one partition, largest_partition: "bad" over the
// 20 GB quota or "warn" over largest_partition_warn_share of it, top1_percent: "warn" past
// top_share_warn with top_share_min_partitions partitions, undefined_key: "warn" when any item
// has no key value, invalid_key and oversized_items: "bad" when any}.
std::string SummaryLevelsJson(const AnalysisReport& report);

// A layout's throttled share of requests: "" (none), "warn" (some) or "bad" (more than
// throttled_bad_fraction).
std::string_view ThrottledLevel(double throttled_fraction);

// {"gini": g, "verdict": ..., "level": ...}: the report's "spread" (docs/report.md).
std::string SpreadJson(double gini, uint64_t partition_count);
// {"max_over_mean": x, "verdict": ..., "level": ...}: a layout's "storage_balance".
std::string StorageBalanceJson(const std::vector<PhysicalPartition>& ranges);

}  // namespace partplay
