// A layout as the report shows it (LayoutView): each physical partition's items, bytes, RU/s
// share and throttled fraction with its hottest logical partitions, and the hot logical
// partitions of the last layout, hottest first.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <utility>

#include "core/hex.h"
#include "core/huge_pages.h"
#include "core/message_format.h"
#include "core/radix_sort.h"
#include "cosmos/container_model.h"
#include "cosmos/container_options.h"
#include "partplay/core/tasks.h"
#include "partplay/cosmos/request_charges.h"

namespace partplay::internal::container {

double ThrottledFraction(double demand, double share) {
  return demand > share ? 1 - share / demand : 0;
}

namespace {

constexpr size_t kHottestPerRange = 5;

// The partition at position k of Model::order.
PlacedPartition Place(const Model& m, size_t k, double scale, double share) {
  const uint32_t i = m.order[k];
  PlacedPartition out;
  out.key = m.key(i);
  out.epk = EpkText(m.epk(i));
  out.items = ScaledItemsAt(m, k, scale);
  out.bytes = ScaledBytesAt(m, k, scale);
  out.demand_ru = m.demand_at[k];
  out.hot = m.demand_at[k] > share;
  return out;
}

// The top_per_range largest partitions of the range, then up to 5 of the hottest others.
void FillTop(const Model& m, const WorkRange& r, double scale, int top_per_range,
             PhysicalPartition& out) {
  // Positions in Model::order; ties go to the earlier partition of the list.
  std::vector<uint32_t> members(r.end - r.begin);
  std::iota(members.begin(), members.end(), static_cast<uint32_t>(r.begin));
  auto larger = [&](uint32_t a, uint32_t b) {
    if (m.bytes_at[a] != m.bytes_at[b]) return m.bytes_at[a] > m.bytes_at[b];
    return m.order[a] < m.order[b];
  };
  auto hotter = [&](uint32_t a, uint32_t b) {
    if (m.demand_at[a] != m.demand_at[b]) return m.demand_at[a] > m.demand_at[b];
    return m.order[a] < m.order[b];
  };
  const size_t largest = std::min(members.size(), static_cast<size_t>(top_per_range));
  std::partial_sort(members.begin(), members.begin() + largest, members.end(), larger);
  const size_t hottest = std::min(members.size() - largest, kHottestPerRange);
  std::partial_sort(members.begin() + largest, members.begin() + largest + hottest, members.end(),
                    hotter);
  size_t listed = largest;
  while (listed < largest + hottest && m.demand_at[members[listed]] > 0) ++listed;
  for (size_t k = 0; k < listed; ++k) out.top.push_back(Place(m, members[k], scale, out.ru_share));
  out.others_partitions = members.size() - listed;
  for (size_t k = listed; k < members.size(); ++k) {
    out.others_bytes += ScaledBytesAt(m, members[k], scale);
  }
}

}  // namespace

StatusOr<LayoutView> FillLayout(const Model& m, const std::vector<WorkRange>& ranges, double ru,
                                double scale, int top_per_range, Version version) {
  LayoutView view;
  view.ru_per_second = ru;
  const double share = ru / static_cast<double>(ranges.size());
  double over = 0;  // demand above the shares
  for (const WorkRange& r : ranges) {
    PhysicalPartition p;
    p.range = r.range;
    p.logical_partitions = r.end - r.begin;
    p.ru_share = share;
    p.keyspace_fraction = KeyspaceFraction(r, version);
    for (size_t k = r.begin; k < r.end; ++k) {
      p.items += ScaledItemsAt(m, k, scale);
      p.bytes += ScaledBytesAt(m, k, scale);
      p.demand_ru += m.demand_at[k];
    }
    p.throttled_fraction = ThrottledFraction(p.demand_ru, share);
    // Burst capacity: provisioned partitions under 3,000 RU/s (serverless ones are excluded by
    // the caller, ClearBurst).
    p.burst_eligible = share < kCosmosBurstMaxRuPerSecond;
    if (p.burst_eligible) {
      constexpr double kSecondsPerMinute = 60;
      p.burst_bank_ru = share * kCosmosBurstBankMinutes * kSecondsPerMinute;
      if (p.demand_ru > share) {
        p.burst_seconds = p.burst_bank_ru / std::min(p.demand_ru, kCosmosBurstMaxRuPerSecond);
      }
    }
    FillTop(m, r, scale, top_per_range, p);
    view.storage_bytes += p.bytes;
    view.demand_ru += p.demand_ru;
    over += std::max(0.0, p.demand_ru - share);
    view.ranges.push_back(std::move(p));
  }
  view.throttled_fraction = view.demand_ru > 0 ? over / view.demand_ru : 0;
  view.instant_maximum_ru_per_second =
      static_cast<double>(ranges.size()) * kCosmosPhysicalPartitionRuPerSecond;
  // Raw ceilings: RU/s > 0 gives at least 1 by itself; no storage needs 0 partitions.
  PARTPLAY_ASSIGN_OR_RETURN(view.partitions_for_throughput, PhysicalPartitionCount(ru, 0));
  if (view.storage_bytes > 0) {
    PARTPLAY_ASSIGN_OR_RETURN(view.partitions_for_storage,
                              PhysicalPartitionCount(0, view.storage_bytes));
  }
  PARTPLAY_ASSIGN_OR_RETURN(view.partitions_needed, PhysicalPartitionCount(ru, view.storage_bytes));
  return view;
}

void FillAutoscaleBilling(LayoutView& view) {
  if (view.ranges.empty() || !(view.demand_ru > 0)) return;
  const double n = static_cast<double>(view.ranges.size());
  const double floor = view.ru_per_second / kCosmosAutoscaleFloorDivisor;
  double busiest = 0, dynamic = 0;
  for (const PhysicalPartition& p : view.ranges) {
    busiest = std::max(busiest, p.demand_ru);
    dynamic += std::clamp(p.demand_ru, floor / n, view.ru_per_second / n);
  }
  view.autoscale_billed_ru_per_second = std::clamp(busiest * n, floor, view.ru_per_second);
  view.autoscale_dynamic_billed_ru_per_second = dynamic;
}

// Hot logical partitions of the last layout, hottest first.
std::vector<PlacedPartition> HotPartitions(const Model& m, const std::vector<WorkRange>& ranges,
                                           double share, double scale, uint64_t& count) {
  std::vector<uint32_t> hot;  // positions in Model::order
  for (const WorkRange& r : ranges) {
    for (size_t k = r.begin; k < r.end; ++k) {
      if (m.demand_at[k] > share) hot.push_back(static_cast<uint32_t>(k));
    }
  }
  count = hot.size();
  SortHottestFirst(m, hot);
  std::vector<PlacedPartition> out;
  for (size_t k = 0; k < hot.size() && k < kMaxFindingExamples; ++k) {
    out.push_back(Place(m, hot[k], scale, share));
  }
  return out;
}

}  // namespace partplay::internal::container
