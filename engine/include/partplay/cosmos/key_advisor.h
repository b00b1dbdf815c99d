// The partition key advisor: ranks the candidate key paths an analysis discovered in its sample
// (AnalysisReport::candidate_paths, analysis.h) by what the partitioning guidance asks of a key
// (Cosmos DB docs, "Partitioning and horizontal scaling",
// learn.microsoft.com/azure/cosmos-db/partitioning-overview): every item has it, its value never
// changes, it has many distinct values, and it spreads storage evenly over logical and physical
// partitions without any logical partition reaching 20 GB.
//
// Measures per candidate (sample figures are projected to the whole data set by
// analysis.items / analysis.sampled_items, and by the growth factor):
//  - coverage: sampled items holding the path / sampled items;
//  - largest_bytes_projected: the largest value's sampled bytes x the projection;
//  - gini: of the values' sampled bytes (statistics.h);
//  - physical_partitions: the service's count for the container (container.h: the creation rule
//    at the created RU/s, splits up to ceil(RU/s / 10,000), at least ceil(bytes x growth / 50 GB);
//    serverless: by storage);
//  - physical_max_over_mean: the values placed by their EPK on InitialLayout(physical_partitions),
//    the fullest physical partition's sampled bytes / the mean (1 = perfectly even);
//  - immutability: "changes" when an item id seen again held another value here, "immutable"
//    when ids were seen again and never changed, "unknown" when no id repeats in the sample.
// A capped path (more than kMaxDistinctPerPath distinct values; the sample kept no per-value
// sizes) reports largest_bytes_projected, gini and physical_max_over_mean as -1 (unknown).
//
// Ranking rule (monotone: more values, a lower Gini or a lower max/mean never rank lower):
//  1. Verdict. "poor" when a disqualifier holds: coverage below 99% (the items lacking the path
//     all share the undefined key's partition), risk_20gb, immutability "changes" (a key value
//     cannot be updated in place), a single distinct value, a path that looks like a measure
//     rather than an identifier (measure_reason), or a system property (system_reason). Otherwise
//     "good" when the sample has at least 100 distinct values (the guidance's "hundreds or
//     thousands") or is capped, gini <= 0.5 and physical_max_over_mean <= 1.5, and the path is
//     not monotonic (its values rise, or fall, along the input in at least 90% of the changes
//     between consecutive sampled items: a timestamp or a sequence number, whose values arrive
//     in write order); otherwise "fair".
//  2. Score, 0 to 100: 50 x min(1, log10(cardinality) / 5) + 25 x (1 - gini)
//     + 25 / physical_max_over_mean. A capped path counts as 100,000 values and, its sizes
//     unknown, as even (gini 0, max/mean 1).
//  Candidates are sorted by verdict (good, fair, poor), then score (higher first), then
//  cardinality (higher first), then path; rank is the 1-based position.
// Reasons: the verdict's causes first ("Poor: ..." for each disqualifier, "Fair rather than
// good: ..." naming each criterion missed), then the cardinality, the size spread, the physical
// balance at the given throughput and the immutability evidence, each with its numbers.
//
//   std::vector<CandidateAssessment> ranked = AdviseKeys(report, {.ru_per_second = 18000});
//   // ranked[0].path == "/userId", ranked[0].verdict == "good", ranked[0].reasons explain why
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "partplay/core/status.h"
#include "partplay/cosmos/effective_partition_key.h"
#include "partplay/ingest/analysis.h"

namespace partplay {

struct AdvisorOptions {
  PartitionKeyHashVersion version = PartitionKeyHashVersion::kV2;
  double ru_per_second = 400;
  double growth = 1;  // the data multiplied by this (>= 1)
  // How the container was created (container.h's creation rule): autoscale, serverless (no RU/s),
  // and the RU/s it was created with (0: ru_per_second).
  bool autoscale = false;
  bool serverless = false;
  double created_ru_per_second = 0;
};

struct CandidateAssessment {
  std::string path;
  int rank = 0;  // 1 = best
  double score = 0;
  uint64_t cardinality = 0;  // distinct values in the sample (a lower bound when capped)
  bool cardinality_capped = false;
  double coverage = 0;                 // sampled items with the path / sampled items
  double largest_bytes_projected = 0;  // -1 when capped (unknown)
  double gini = 0;                     // -1 when capped
  int64_t physical_partitions = 0;
  double physical_max_over_mean = 0;  // -1 when capped
  bool risk_20gb = false;
  std::string immutability;  // "immutable", "changes", "unknown"
  // Over consecutive sampled items whose value here differs, the share where it rises (-1: fewer
  // than kMonotonicMinChanges changes); monotonic when at least kMonotonicShare rise, or fall.
  double rises_with_input = -1;
  bool monotonic = false;
  // Non-empty when the path looks like a measure, not an identifier (mostly numbers, with
  // fractions or named like a quantity: /total, /amount, /qty): a disqualifier.
  std::string measure_reason;
  // Non-empty when the path is a system property Cosmos DB writes (/_rid, /_etag, /_ts, ...):
  // a disqualifier.
  std::string system_reason;
  std::string verdict;               // "good", "fair", "poor"
  std::vector<std::string> reasons;  // plain sentences with the numbers behind the rank
};

// kBadOption for RU/s not > 0 or growth not >= 1 (either not finite).
Status ValidateAdvisorOptions(const AdvisorOptions& options);

// Every candidate path assessed and ranked (see the header comment). Options must be valid
// (ValidateAdvisorOptions); empty when the analysis sampled no items.
std::vector<CandidateAssessment> AdviseKeys(const AnalysisReport& analysis,
                                            const AdvisorOptions& options);

}  // namespace partplay
