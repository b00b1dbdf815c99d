// The key advisor (key_advisor.h): measures each candidate path from the sampled values, then ranks
// by verdict and score. Every reason is a sentence built from the same numbers the fields hold.
#include "partplay/cosmos/key_advisor.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "core/message_format.h"
#include "cosmos/measure_paths.h"
#include "partplay/core/defaults.h"
#include "partplay/core/statistics.h"
#include "partplay/cosmos/container.h"
#include "partplay/cosmos/physical_partitions.h"

namespace partplay {
namespace {

using internal::FormatPercent;
using internal::FormatRate;
using internal::FormatSize;
using internal::FormatSizeOver;
using internal::GroupThousands;
using internal::OneDecimal;

constexpr double kMinCoverage = 0.99;
constexpr uint64_t kGoodCardinality = 100;
constexpr double kGoodGini = kSpreadEvenMaxGini;          // core/defaults.h
constexpr double kGoodMaxOverMean = kStorageBalanceWarn;  // core/defaults.h
constexpr double kFullCardinalityLog10 = 5;  // 100,000 values earn the full cardinality points
constexpr double kUnknown = -1;

// --- Measures. --------------------------------------------------------------------------------

std::string Immutability(const CandidatePath& c) {
  if (c.ids_changed > 0) return "changes";
  return c.ids_repeated > 0 ? "immutable" : "unknown";
}

int64_t PhysicalPartitions(const AnalysisReport& analysis, const AdvisorOptions& options) {
  const double bytes = static_cast<double>(analysis.bytes) * options.growth;
  if (!std::isfinite(bytes) || !std::isfinite(options.ru_per_second)) return 1;  // see ValidateAdvisorOptions
  if (options.serverless) return std::min<int64_t>(ServerlessPartitionCount(bytes), kMaxInitialPartitions);
  const double created =
      options.created_ru_per_second > 0 ? options.created_ru_per_second : options.ru_per_second;
  StatusOr<int64_t> for_now = PhysicalPartitionCount(options.ru_per_second, bytes);
  if (!for_now.ok()) return 1;
  const int64_t n =
      std::max(CreationPartitionCount(created, options.autoscale, bytes), for_now.value());
  return std::min<int64_t>(n, kMaxInitialPartitions);
}

// The fullest physical partition's sampled bytes over the mean, the values placed by EPK.
double MaxOverMean(const CandidatePath& c, int64_t n, PartitionKeyHashVersion version) {
  if (n <= 1) return 1;
  StatusOr<PhysicalLayout> layout = InitialLayout(static_cast<int>(n), version);
  if (!layout.ok()) return 1;
  std::vector<double> bytes(layout->ranges.size(), 0);
  double total = 0;
  for (const CandidateValue& v : c.values) {
    StatusOr<std::string> epk =
        EffectivePartitionKey(PartitionKey::FromCanonicalBytes(v.canonical), version);
    if (!epk.ok()) continue;  // not valid UTF-8: the service would refuse the item too
    StatusOr<size_t> at = Locate(layout.value(), epk.value());
    if (!at.ok()) continue;
    bytes[at.value()] += static_cast<double>(v.bytes);
    total += static_cast<double>(v.bytes);
  }
  if (total == 0) return 1;
  const double mean = total / static_cast<double>(bytes.size());
  return *std::max_element(bytes.begin(), bytes.end()) / mean;
}

// Fills the measured fields of `a` (everything but rank, score, verdict and reasons).
void Measure(const AnalysisReport& analysis, const CandidatePath& c, const AdvisorOptions& options,
             CandidateAssessment& a) {
  a.path = c.path;
  a.cardinality = c.distinct_capped ? std::max<uint64_t>(c.distinct, kMaxDistinctPerPath)
                                    : std::max<uint64_t>(c.distinct, c.values.size());
  a.cardinality_capped = c.distinct_capped;
  a.coverage = static_cast<double>(c.items) / static_cast<double>(analysis.sampled_items);
  a.immutability = Immutability(c);
  if (static_cast<double>(c.value_changes) >= kMonotonicMinChanges) {
    a.rises_with_input = static_cast<double>(c.value_rises) / static_cast<double>(c.value_changes);
    a.monotonic = IsMonotonicShare(a.rises_with_input);
  }
  a.physical_partitions = PhysicalPartitions(analysis, options);
  internal::MeasureEvidence evidence;
  evidence.fractions_known = !c.distinct_capped;
  for (const CandidateValue& v : c.values) {
    internal::TallyCanonicalComponent(v.canonical, v.items, evidence);
  }
  // The type counts cover every sampled item, kept values or not.
  evidence.valued = c.strings + c.numbers + c.booleans + c.nulls;
  evidence.numbers = c.numbers;
  a.measure_reason = internal::MeasureReason(c.path, evidence);
  a.system_reason = internal::SystemPropertyReason(c.path);
  if (c.distinct_capped) {
    a.largest_bytes_projected = a.gini = a.physical_max_over_mean = kUnknown;
    return;
  }
  const double projection = static_cast<double>(analysis.items) /
                            static_cast<double>(analysis.sampled_items) * options.growth;
  std::vector<double> sizes;
  sizes.reserve(c.values.size());
  for (const CandidateValue& v : c.values) sizes.push_back(static_cast<double>(v.bytes));
  std::sort(sizes.begin(), sizes.end(), std::greater<>());
  a.largest_bytes_projected = sizes.empty() ? 0 : sizes[0] * projection;
  a.gini = ComputeSpread(sizes).gini;
  a.physical_max_over_mean = MaxOverMean(c, a.physical_partitions, options.version);
  a.risk_20gb = a.largest_bytes_projected > kCosmosLogicalPartitionBytes;
}

// --- Verdict, score and reasons. ----------------------------------------------------------------

bool Disqualified(const CandidateAssessment& a) {
  return a.coverage < kMinCoverage || a.risk_20gb || a.immutability == "changes" ||
         a.cardinality <= 1 || !a.measure_reason.empty() || !a.system_reason.empty();
}

std::string Verdict(const CandidateAssessment& a) {
  if (Disqualified(a)) return "poor";
  if (a.monotonic) return "fair";
  if (a.cardinality_capped) return "good";
  const bool good = a.cardinality >= kGoodCardinality && a.gini <= kGoodGini &&
                    a.physical_max_over_mean <= kGoodMaxOverMean;
  return good ? "good" : "fair";
}

double Score(const CandidateAssessment& a) {
  const double cardinality_points =
      a.cardinality == 0
          ? 0
          : std::min(1.0, std::log10(static_cast<double>(a.cardinality)) / kFullCardinalityLog10);
  const double gini = a.cardinality_capped ? 0 : a.gini;
  const double ratio = a.cardinality_capped ? 1 : std::max(1.0, a.physical_max_over_mean);
  return 50 * cardinality_points + 25 * (1 - gini) + 25 / ratio;
}

int VerdictOrder(const std::string& verdict) {
  if (verdict == "good") return 0;
  return verdict == "fair" ? 1 : 2;
}

// The sentences for a disqualified candidate, the cause of its "poor" first.
void DisqualifierReasons(const CandidateAssessment& a, const CandidatePath& c,
                         const AdvisorOptions& options, std::vector<std::string>& out) {
  if (a.coverage < kMinCoverage) {
    out.push_back(fmt::format(
        "Poor: {} of the sampled items lack it, and all of them would share the one logical "
        "partition of the undefined key.",
        FormatPercent(1 - a.coverage)));
  }
  if (a.risk_20gb) {
    out.push_back(fmt::format(
        "Poor: its largest value would hold about {}{}, over the {} a logical partition may "
        "store.",
        FormatSize(a.largest_bytes_projected),
        options.growth > 1 ? fmt::format(" after growth x{}", options.growth) : "",
        LimitBytesText(kCosmosLogicalPartitionBytes)));
  }
  if (a.immutability == "changes") {
    out.push_back(fmt::format(
        "Poor: {} of the {} items seen again in the sample held a different value here, and a "
        "partition key value cannot be updated in place.",
        GroupThousands(c.ids_changed), GroupThousands(c.ids_repeated)));
  }
  if (a.cardinality <= 1) {
    out.push_back("Poor: it has a single value, so every item would be in one logical partition.");
  }
  if (!a.measure_reason.empty()) out.push_back(fmt::format("Poor: {}.", a.measure_reason));
  if (!a.system_reason.empty()) out.push_back(fmt::format("Poor: {}.", a.system_reason));
}

std::string CardinalityReason(const CandidateAssessment& a, const CandidatePath& c,
                              uint64_t sampled) {
  if (a.cardinality_capped) {
    return fmt::format(
        "More than {} distinct values in {} sampled items (counting stopped there): a high "
        "cardinality, but per-value sizes were not kept, so the largest partition is unknown.",
        GroupThousands(kMaxDistinctPerPath), GroupThousands(sampled));
  }
  std::string text =
      fmt::format("{} distinct {} in {} sampled items", GroupThousands(a.cardinality),
                  a.cardinality == 1 ? "value" : "values", GroupThousands(sampled));
  if (a.cardinality > 1 && a.cardinality == c.items) {
    text += "; every item holds its own value, so each item is its own logical partition";
    if (c.path == "/id") text += " and a point read needs only the id";
  }
  return text + ".";
}

// Why a candidate without disqualifiers is not "good".
std::string FairReason(const CandidateAssessment& a) {
  std::vector<std::string> gaps;
  if (a.cardinality < kGoodCardinality) {
    gaps.push_back(fmt::format("{} distinct values are fewer than the hundreds a key should have",
                               GroupThousands(a.cardinality)));
  }
  if (a.gini > kGoodGini) {
    gaps.push_back(
        fmt::format("the values' sizes are uneven (a Gini coefficient of {:.2f}, above {})", a.gini,
                    kGoodGini));
  }
  if (a.physical_max_over_mean > kGoodMaxOverMean) {
    gaps.push_back(fmt::format(
        "the fullest physical partition would hold {} more than the mean "
        "(above {})",
        FormatPercent(a.physical_max_over_mean - 1), FormatPercent(kGoodMaxOverMean - 1)));
  }
  if (a.monotonic) {
    gaps.push_back(fmt::format(
        "its values rise and fall with the input's order (they {} in {} of the changes between "
        "consecutive sampled items), as a timestamp or a sequence does: writes arrive in key "
        "order, so a coarser form of it (a date, an hour) sends each period's writes to one "
        "partition and a query over a range of it reaches every partition",
        a.rises_with_input >= 0.5 ? "rise" : "fall",
        FormatPercent(a.rises_with_input >= 0.5 ? a.rises_with_input : 1 - a.rises_with_input)));
  }
  std::string text = "Fair rather than good: ";
  for (size_t i = 0; i < gaps.size(); ++i) text += (i ? "; " : "") + gaps[i];
  return text + ".";
}

std::string SpreadReason(const CandidateAssessment& a, const CandidatePath& c,
                         const AdvisorOptions& options) {
  uint64_t total = 0, largest = 0;
  for (const CandidateValue& v : c.values) {
    total += v.bytes;
    largest = std::max(largest, v.bytes);
  }
  const double share = total > 0 ? static_cast<double>(largest) / static_cast<double>(total) : 0;
  return fmt::format(
      "The largest value holds {} of the sampled data (about {} in the whole data set{}), and "
      "the sizes have a Gini coefficient of {:.2f} (0 when all values are the same size).",
      FormatPercent(share), FormatSize(a.largest_bytes_projected),
      options.growth > 1 ? fmt::format(" after growth x{}", options.growth) : "", a.gini);
}

std::string PhysicalReason(const CandidateAssessment& a, const AnalysisReport& analysis,
                           const AdvisorOptions& options) {
  const std::string at =
      fmt::format("At {} and {}", FormatRate(options.ru_per_second),
                  FormatSize(static_cast<double>(analysis.bytes) * options.growth));
  if (a.physical_partitions <= 1) {
    return at +
           " the container has 1 physical partition, so how the values hash does not matter "
           "yet.";
  }
  if (a.cardinality_capped) {
    return fmt::format("{} the container has {} physical partitions.", at,
                       GroupThousands(static_cast<uint64_t>(a.physical_partitions)));
  }
  return fmt::format(
      "{} the fullest of the {} physical partitions would hold {} more than the mean.", at,
      GroupThousands(static_cast<uint64_t>(a.physical_partitions)),
      FormatPercent(a.physical_max_over_mean - 1));
}

std::string ImmutabilityReason(const CandidateAssessment& a, const CandidatePath& c) {
  if (a.immutability == "immutable") {
    return fmt::format("The {} items seen again in the sample kept their value here.",
                       GroupThousands(c.ids_repeated));
  }
  if (a.immutability == "unknown") {
    return "No item id repeats in the sample, so whether the value ever changes is unknown.";
  }
  return {};  // "changes" is a disqualifier, explained first
}

void Explain(const CandidateAssessment& a, const CandidatePath& c, const AnalysisReport& analysis,
             const AdvisorOptions& options, std::vector<std::string>& out) {
  DisqualifierReasons(a, c, options, out);
  if (a.verdict == "fair") out.push_back(FairReason(a));
  out.push_back(CardinalityReason(a, c, analysis.sampled_items));
  if (!a.cardinality_capped) out.push_back(SpreadReason(a, c, options));
  out.push_back(PhysicalReason(a, analysis, options));
  std::string immutability = ImmutabilityReason(a, c);
  if (!immutability.empty()) out.push_back(std::move(immutability));
}

}  // namespace

Status ValidateAdvisorOptions(const AdvisorOptions& options) {
  if (!(std::isfinite(options.ru_per_second) && options.ru_per_second > 0)) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("throughput must be a finite number of RU/s > 0, got {}",
                              options.ru_per_second));
  }
  if (!(std::isfinite(options.growth) && options.growth >= 1)) {
    return Status(ErrorCode::kBadOption,
                  fmt::format("growth must be a finite factor >= 1, got {}", options.growth));
  }
  return Status::Ok();
}

std::vector<CandidateAssessment> AdviseKeys(const AnalysisReport& analysis,
                                            const AdvisorOptions& options) {
  std::vector<CandidateAssessment> out;
  if (analysis.sampled_items == 0) return out;
  for (const CandidatePath& c : analysis.candidate_paths) {
    CandidateAssessment a;
    Measure(analysis, c, options, a);
    a.verdict = Verdict(a);
    a.score = Score(a);
    Explain(a, c, analysis, options, a.reasons);
    out.push_back(std::move(a));
  }
  std::sort(out.begin(), out.end(), [](const CandidateAssessment& x, const CandidateAssessment& y) {
    if (x.verdict != y.verdict) return VerdictOrder(x.verdict) < VerdictOrder(y.verdict);
    if (x.score != y.score) return x.score > y.score;
    if (x.cardinality != y.cardinality) return x.cardinality > y.cardinality;
    return x.path < y.path;
  });
  for (size_t i = 0; i < out.size(); ++i) out[i].rank = static_cast<int>(i) + 1;
  return out;
}

}  // namespace partplay
