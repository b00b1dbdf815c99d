// The report's verdicts on the spread of sizes and the storage balance (report/judgements.h),
// each decided by a threshold of the limits table.
#include "partplay/report/judgements.h"

#include <algorithm>

#include "partplay/core/json_writer.h"
#include "partplay/core/limits.h"
#include "partplay/core/defaults.h"

namespace partplay {
namespace {

std::string JudgementJson(std::string_view figure, double value, const Judgement& j) {
  std::string s = "{";
  JsonMembers o{s};
  o.Num(figure, value);
  o.Str("verdict", j.verdict);
  o.Str("level", j.level);
  s.push_back('}');
  return s;
}

}  // namespace

Judgement SpreadJudgement(double gini, uint64_t partition_count) {
  if (partition_count <= 1) return {"one partition", ""};
  if (gini < kSpreadEvenMaxGini) return {"fairly even", "good"};
  if (gini < kSpreadStrongSkewGini) return {"moderately skewed", ""};
  return {"strongly skewed", "warn"};
}

double StorageMaxOverMean(const std::vector<PhysicalPartition>& ranges) {
  if (ranges.empty()) return 1;
  double total = 0, most = 0;
  for (const PhysicalPartition& r : ranges) {
    total += r.bytes;
    most = std::max(most, r.bytes);
  }
  if (total <= 0) return 1;
  return most / (total / static_cast<double>(ranges.size()));
}

Judgement StorageBalanceJudgement(double max_over_mean, size_t ranges) {
  if (ranges <= 1) return {"one partition", ""};
  if (max_over_mean > kStorageBalanceWarn) return {"uneven", "warn"};
  return {"even", "good"};
}

std::string SummaryLevelsJson(const AnalysisReport& r) {
  const double largest = r.has_largest ? static_cast<double>(r.largest.bytes) : 0;
  std::string s = "{";
  JsonMembers o{s};
  o.Str("partition_count", r.partition_count == 1 && r.items > 1 ? "warn" : "");
  o.Str("largest_partition", largest > kCosmosLogicalPartitionBytes ? "bad"
                             : largest > kCosmosLogicalPartitionBytes * kLargestPartitionWarnShare
                                 ? "warn"
                                 : "");
  o.Str("top1_percent", r.top1_share > kTopShareWarn &&
                                static_cast<double>(r.partition_count) >= kTopShareMinPartitions
                            ? "warn"
                            : "");
  o.Str("undefined_key", r.undefined_key_items > 0 ? "warn" : "");
  o.Str("invalid_key", r.invalid_key_items > 0 ? "bad" : "");
  o.Str("oversized_items", r.oversized_items > 0 ? "bad" : "");
  s.push_back('}');
  return s;
}

std::string_view ThrottledLevel(double throttled_fraction) {
  if (throttled_fraction > kThrottledBadFraction) return "bad";
  return throttled_fraction > 0 ? "warn" : "";
}

std::string SpreadJson(double gini, uint64_t partition_count) {
  return JudgementJson("gini", gini, SpreadJudgement(gini, partition_count));
}

std::string StorageBalanceJson(const std::vector<PhysicalPartition>& ranges) {
  const double ratio = StorageMaxOverMean(ranges);
  return JudgementJson("max_over_mean", ratio, StorageBalanceJudgement(ratio, ranges.size()));
}

}  // namespace partplay
