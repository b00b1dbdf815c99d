// Capacity as the service documents it (container.h; every number is a row of core/limits.h
// with its document): the creation rule (manual RU/s / 6,000, autoscale / 10,000, storage /
// 50 GB), serverless capacity, the minimum RU/s, the docs' even-split recipe, the checks of the
// throughput options against them, and the least RU/s at which a workload is not throttled.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "core/message_format.h"
#include "cosmos/container_model.h"
#include "cosmos/container_options.h"

namespace partplay {

namespace {

int64_t CeilCount(double value, double per) {
  if (!(value > 0)) return 0;
  return static_cast<int64_t>(std::min(std::ceil(value / per), 9007199254740992.0));
}

}  // namespace

int64_t CreationPartitionCount(double ru_per_second, bool autoscale, double storage_bytes) {
  const double per =
      autoscale ? kCosmosAutoscaleInitialRuPerPartition : kCosmosManualInitialRuPerPartition;
  return std::max<int64_t>(
      {CeilCount(ru_per_second, per), CeilCount(storage_bytes, kCosmosPhysicalPartitionBytes), 1});
}

int64_t ServerlessPartitionCount(double storage_bytes) {
  return std::max<int64_t>(CeilCount(storage_bytes, kCosmosPhysicalPartitionBytes), 1);
}

double ServerlessRuPerSecond(int64_t partitions) {
  const double extra =
      std::max(0.0, static_cast<double>(partitions) - kCosmosServerlessBasePartitions);
  return kCosmosServerlessBaseRuPerSecond + extra * kCosmosServerlessRuPerExtraPartition;
}

double MinimumRuPerSecond(bool autoscale, double storage_bytes, double highest_ru,
                          std::string* rule) {
  const double base = autoscale ? kCosmosMinAutoscaleMaxRuPerSecond : kCosmosMinManualRuPerSecond;
  const double per_gb = autoscale ? kCosmosMinAutoscaleRuPerGb : kCosmosMinManualRuPerGb;
  const double divisor =
      autoscale ? kCosmosMinAutoscaleHighestDivisor : kCosmosMinManualHighestDivisor;
  const double storage = storage_bytes / kBytesPerGigabyte * per_gb;
  const double history = highest_ru / divisor;
  double minimum = base;
  std::string which = "least";
  if (storage > minimum) minimum = storage, which = "storage";
  if (history > minimum) minimum = history, which = "highest";
  if (rule) *rule = which;
  return minimum;
}

double EvenSplitRuPerSecond(int64_t partitions, double target) {
  const double per = kCosmosPhysicalPartitionRuPerSecond * static_cast<double>(partitions);
  if (!(per > 0) || !(target > per)) return per;
  return per * std::exp2(std::ceil(std::log2(target / per)));
}

namespace internal::container {

Status FieldError(std::string message, std::string field) {
  return BadOption(std::move(message)).WithField(std::move(field));
}

namespace {

// One RU/s option against the minimum and the 1,000,000 RU/s quota.
Status CheckThroughput(const ContainerOptions& o, double ru, double storage_bytes, double highest,
                       std::string_view name) {
  std::string rule;
  const double minimum = MinimumRuPerSecond(o.autoscale, storage_bytes, highest, &rule);
  if (ru < minimum) {
    std::string why;
    if (rule == "storage") {
      why = fmt::format("{} RU/s per GB of its {}",
                        o.autoscale ? kCosmosMinAutoscaleRuPerGb : kCosmosMinManualRuPerGb,
                        FormatSize(storage_bytes));
    } else if (rule == "highest") {
      why = fmt::format(
          "the highest RU/s it had, {}, / {}", FormatRate(highest),
          o.autoscale ? kCosmosMinAutoscaleHighestDivisor : kCosmosMinManualHighestDivisor);
    } else {
      why = "the service's least";
    }
    return FieldError(fmt::format("{}: {} is below the {} this container may be set to{} ({})",
                                  name, FormatRate(ru), FormatRate(std::ceil(minimum)),
                                  o.autoscale ? " as its autoscale maximum" : "", why),
                      fmt::format("/{}", name));
  }
  if (ru > kCosmosMaxRuPerContainer && o.quota_increase_reason.empty()) {
    return FieldError(
        fmt::format("{}: {} is above the {} a container may have; the service raises that quota "
                    "through a support ticket: say why with quota_increase_reason "
                    "(--quota-increase REASON)",
                    name, FormatRate(ru), FormatRate(kCosmosMaxRuPerContainer)),
        fmt::format("/{}", name));
  }
  return Status::Ok();
}

}  // namespace

Status ValidateCapacity(const ContainerOptions& o, double storage_bytes, double grown_bytes) {
  if (o.serverless) {
    if (o.created_ru_per_second > 0 || o.grown_ru_per_second > 0 || o.autoscale) {
      const std::string field = o.autoscale                   ? "autoscale"
                                : o.created_ru_per_second > 0 ? "created_ru_per_second"
                                                              : "grown_ru_per_second";
      return FieldError(fmt::format("{}: a serverless container has no provisioned throughput "
                                    "(its capacity follows its storage)",
                                    field),
                        "/" + field);
    }
    return Status::Ok();
  }
  if (!FiniteAtLeast(o.created_ru_per_second, 0)) {
    return FieldError(fmt::format("created_ru_per_second: the creation throughput must be a "
                                  "finite number of RU/s >= 0, got {}",
                                  o.created_ru_per_second),
                      "/created_ru_per_second");
  }
  const double created = o.created_ru_per_second > 0 ? o.created_ru_per_second : o.ru_per_second;
  // At creation only the service's least applies (the data is written afterwards).
  PARTPLAY_RETURN_IF_ERROR(CheckThroughput(
      o, created, 0, 0, o.created_ru_per_second > 0 ? "created_ru_per_second" : "ru_per_second"));
  double highest = std::max(created, o.ru_per_second);
  PARTPLAY_RETURN_IF_ERROR(
      CheckThroughput(o, o.ru_per_second, storage_bytes, highest, "ru_per_second"));
  if (o.grown_ru_per_second > 0) {
    highest = std::max(highest, o.grown_ru_per_second);
    PARTPLAY_RETURN_IF_ERROR(
        CheckThroughput(o, o.grown_ru_per_second, grown_bytes, highest, "grown_ru_per_second"));
  }
  return Status::Ok();
}

double KeyspaceFraction(const WorkRange& r, Version version) {
  if (version == Version::kV1) return r.keyspace;
  // The first 16 hex digits of an EPK as a fraction of the V2 hash space (0 .. 0x3FFF...F; "FF",
  // the end of the space, is 1).
  // The position of an EPK in units of 2^-62 of the space, clamped to 2^62 (the space's end).
  auto position = [](std::string_view epk) -> uint64_t {
    constexpr uint64_t kEnd = uint64_t{1} << 62;
    if (epk == kMaxEffectivePartitionKey) return kEnd;
    uint64_t v = 0;
    for (size_t i = 0; i < 16; ++i) {
      const char c = i < epk.size() ? epk[i] : '0';
      const int digit = c >= '0' && c <= '9'   ? c - '0'
                        : c >= 'A' && c <= 'F' ? c - 'A' + 10
                        : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                               : 0;
      v = v << 4 | static_cast<uint64_t>(digit);
    }
    return std::min(kEnd, v);
  };
  const uint64_t from = position(r.range.min_inclusive), to = position(r.range.max_exclusive);
  return to <= from ? 0.0 : static_cast<double>(to - from) / 4611686018427387904.0;  // 2^62
}

ThroughputChange DescribeChange(double from, double to, int64_t partitions_before,
                                int64_t partitions_after, bool serverless) {
  ThroughputChange c;
  c.from_ru_per_second = from;
  c.to_ru_per_second = to;
  c.partitions_before = partitions_before;
  c.partitions_after = partitions_after;
  c.instant_maximum_ru_per_second =
      static_cast<double>(partitions_before) * kCosmosPhysicalPartitionRuPerSecond;
  c.splits = partitions_after - partitions_before;
  if (serverless) {
    c.kind = partitions_after > partitions_before ? "splits" : "none";
  } else if (to > c.instant_maximum_ru_per_second) {
    c.kind = "splits";
    c.even_split_ru_per_second = EvenSplitRuPerSecond(partitions_before, to);
  } else if (to > from) {
    c.kind = "instant";
  } else if (to < from) {
    c.kind = "down";
  }
  return c;
}

namespace {

// The busiest physical partition's demand on a new container of n partitions (the even initial
// layout, as ModelContainer's "before" lays it out).
StatusOr<double> BusiestDemand(const Model& m, const std::vector<double>& prefix, int64_t n,
                               Version version) {
  PARTPLAY_ASSIGN_OR_RETURN(PhysicalLayout layout, InitialLayout(static_cast<int>(n), version));
  double busiest = 0;
  for (const WorkRange& r : AssignToRanges(layout, m)) {
    busiest = std::max(busiest, prefix[r.end] - prefix[r.begin]);
  }
  return busiest;
}

double RoundUpToStep(double ru) { return std::ceil(ru / kCosmosRuStep - 1e-9) * kCosmosRuStep; }

// The least multiple of 100 RU/s at least `lower` whose share over n partitions serves `busiest`.
double LeastServing(double lower, int64_t n, double busiest) {
  double y = RoundUpToStep(std::max(lower, static_cast<double>(n) * busiest));
  while (y / static_cast<double>(n) < busiest) y += kCosmosRuStep;
  return y;
}

}  // namespace

StatusOr<RuNeeded> ComputeRuNeeded(const Model& m, Version version, double storage_bytes) {
  RuNeeded out;
  std::vector<double> prefix(m.order.size() + 1, 0);
  for (size_t k = 0; k < m.order.size(); ++k) {
    prefix[k + 1] = prefix[k] + m.demand_at[k];
    out.hottest_logical_ru = std::max(out.hottest_logical_ru, m.demand_at[k]);
  }
  if (!(prefix.back() > 0)) return out;  // no workload: nothing to judge
  out.judged = true;
  const double hottest = out.hottest_logical_ru;
  if (hottest > kCosmosPhysicalPartitionRuPerSecond) {
    out.reason = fmt::format(
        "No RU/s can serve this workload: a logical partition needs {}, more than the {} a "
        "physical partition serves, and a logical partition never spans two physical "
        "partitions.",
        FormatRate(hottest), FormatRate(kCosmosPhysicalPartitionRuPerSecond));
    return out;
  }
  out.possible = true;
  const int64_t n_storage = ServerlessPartitionCount(storage_bytes);  // ceil(GB / 50), at least 1
  const double floor_manual = MinimumRuPerSecond(false, storage_bytes, 0);
  const double floor_autoscale = MinimumRuPerSecond(true, storage_bytes, 0);
  double best_manual = 0, best_autoscale = 0, best_rescaled = 0;
  for (int64_t n = n_storage; n <= kMaxInitialPartitions; ++n) {
    const double nd = static_cast<double>(n);
    // Stop once no band from here can beat what was found: created in band n, the RU/s are
    // above 6,000 (n - 1) (manual) or 10,000 (n - 1) (autoscale), and at least n x hottest. The
    // created-then-set figure is searched up to the other two figures' partition counts.
    const bool manual_done =
        hottest > kCosmosManualInitialRuPerPartition ||
        (best_manual > 0 && kCosmosManualInitialRuPerPartition * (nd - 1) >= best_manual);
    const bool autoscale_done =
        best_autoscale > 0 && kCosmosAutoscaleInitialRuPerPartition * (nd - 1) >= best_autoscale;
    const bool rescaled_done =
        best_rescaled > 0 && (nd * hottest >= best_rescaled ||
                              n > std::max(out.manual_partitions, out.autoscale_partitions));
    if (n > n_storage && manual_done && autoscale_done && rescaled_done) break;
    PARTPLAY_ASSIGN_OR_RETURN(double busiest, BusiestDemand(m, prefix, n, version));
    const bool first = n == n_storage;
    // Manual, created at Y: Y in (6,000 (n - 1), 6,000 n] gives n partitions (any Y up to
    // 6,000 n on the storage's own count).
    {
      const double lower =
          first ? floor_manual
                : std::max(floor_manual,
                           kCosmosManualInitialRuPerPartition * (nd - 1) + kCosmosRuStep);
      const double y = LeastServing(lower, n, busiest);
      if (y <= kCosmosManualInitialRuPerPartition * nd && (best_manual == 0 || y < best_manual)) {
        best_manual = y;
        out.manual_ru_per_second = y;
        out.manual_partitions = n;
      }
    }
    // Autoscale maximum Y: (10,000 (n - 1), 10,000 n].
    {
      const double lower =
          first ? floor_autoscale
                : std::max(floor_autoscale,
                           kCosmosAutoscaleInitialRuPerPartition * (nd - 1) + kCosmosRuStep);
      const double y = LeastServing(lower, n, busiest);
      if (y <= kCosmosAutoscaleInitialRuPerPartition * nd &&
          (best_autoscale == 0 || y < best_autoscale)) {
        best_autoscale = y;
        out.autoscale_max_ru_per_second = y;
        out.autoscale_partitions = n;
      }
    }
    // Manual, created with n partitions (at 6,000 n, or the storage's count at its least) and
    // then set to Y: instant up to 10,000 n, and no lower than the creation RU/s / 100.
    {
      const double created = first ? floor_manual : kCosmosManualInitialRuPerPartition * nd;
      const double lower = std::max(floor_manual, created / kCosmosMinManualHighestDivisor);
      const double y = LeastServing(lower, n, busiest);
      if (y <= kCosmosPhysicalPartitionRuPerSecond * nd &&
          (best_rescaled == 0 || y < best_rescaled)) {
        best_rescaled = y;
        out.manual_rescaled_ru_per_second = y;
        out.manual_rescaled_partitions = n;
        // Created at Y itself when Y gives n partitions; otherwise at the creation RU/s above.
        const bool direct = CreationPartitionCount(y, false, storage_bytes) == n;
        out.manual_rescaled_created_ru_per_second = direct ? y : created;
      }
    }
  }
  if (out.manual_ru_per_second == 0) {
    out.reason = fmt::format(
        "A container created with manual RU/s gives each physical partition at most {}, and a "
        "logical partition needs {}: create it with {} ({} physical partition(s)), then set {}, "
        "which is instant within {} per partition.",
        FormatRate(kCosmosManualInitialRuPerPartition), FormatRate(hottest),
        FormatRate(out.manual_rescaled_created_ru_per_second),
        GroupThousands(static_cast<uint64_t>(out.manual_rescaled_partitions)),
        FormatRate(out.manual_rescaled_ru_per_second),
        FormatRate(kCosmosPhysicalPartitionRuPerSecond));
  } else if (out.manual_rescaled_ru_per_second < out.manual_ru_per_second) {
    out.reason = fmt::format(
        "Created with {} no physical partition throttles; created with {} ({} partition{}) and "
        "then set to {}, none does either.",
        FormatRate(out.manual_ru_per_second), FormatRate(out.manual_rescaled_created_ru_per_second),
        GroupThousands(static_cast<uint64_t>(out.manual_rescaled_partitions)),
        out.manual_rescaled_partitions == 1 ? "" : "s",
        FormatRate(out.manual_rescaled_ru_per_second));
  } else {
    out.reason = fmt::format(
        "Created with {} ({} physical partition{}), no physical partition "
        "throttles{}.",
        FormatRate(out.manual_ru_per_second),
        GroupThousands(static_cast<uint64_t>(out.manual_partitions)),
        out.manual_partitions == 1 ? "" : "s",
        out.manual_ru_per_second <= RoundUpToStep(floor_manual)
            ? " (the least this container may be set to)"
            : "; 100 RU/s less, one does");
  }
  return out;
}

}  // namespace internal::container
}  // namespace partplay
