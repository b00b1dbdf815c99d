// Physical partitions while modelling (container_model.h's WorkRange): each a slice of the
// EPK-sorted partitions. The initial layout's assignment by one merge walk, splits at the EPK
// midpoint for storage (above 50 GB) and for throughput (to the count the RU/s needs), numbered as
// SplitAtMidpoint numbers them, and the partitions that changed range.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <unordered_map>
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

std::vector<WorkRange> AssignToRanges(const PhysicalLayout& layout, const Model& m) {
  std::vector<WorkRange> out;
  out.reserve(layout.ranges.size());
  size_t k = 0;
  for (const EpkRange& r : layout.ranges) {
    WorkRange w{r, k, k, 0, 1.0 / static_cast<double>(layout.ranges.size())};
    const std::string max = EpkBytes(r.max_exclusive);
    // `order` is in EPK order: the range ends at the first EPK not below its max.
    k = static_cast<size_t>(
        std::lower_bound(m.order.begin() + static_cast<std::ptrdiff_t>(k), m.order.end(), max,
                         [&](uint32_t i, const std::string& key) {
                           return CompareEpkBytes(m.epk(i), key) < 0;
                         }) -
        m.order.begin());
    w.end = k;
    out.push_back(std::move(w));
  }
  return out;
}

double ScaledBytesAt(const Model& m, size_t k, double scale) {
  return static_cast<double>(m.bytes_at[k]) * scale;
}

uint64_t ScaledItemsAt(const Model& m, size_t k, double scale) {
  if (scale == 1) return m.items_at[k];
  return static_cast<uint64_t>(std::llround(static_cast<double>(m.items_at[k]) * scale));
}

double SliceBytes(const Model& m, size_t begin, size_t end, double scale) {
  double total = 0;
  for (size_t k = begin; k < end; ++k) {
    total += ScaledBytesAt(m, k, scale);
  }
  return total;
}

namespace {

// Splits `r` at its midpoint into ids next_id and next_id + 1; nullopt when it is too narrow.
std::optional<std::pair<WorkRange, WorkRange>> SplitRange(const WorkRange& r, const Model& m,
                                                          Version version, int& next_id) {
  StatusOr<std::string> mid =
      MidpointEffectivePartitionKey(r.range.min_inclusive, r.range.max_exclusive, version);
  if (!mid.ok()) return std::nullopt;
  // The first partition at or past the midpoint: where the slice is cut.
  auto first = m.order.begin() + static_cast<std::ptrdiff_t>(r.begin);
  auto last = m.order.begin() + static_cast<std::ptrdiff_t>(r.end);
  const std::string mid_bytes = EpkBytes(mid.value());
  auto cut = std::lower_bound(first, last, mid_bytes, [&](uint32_t i, const std::string& key) {
    return CompareEpkBytes(m.epk(i), key) < 0;
  });
  const size_t at = static_cast<size_t>(cut - m.order.begin());
  WorkRange left{EpkRange{r.range.min_inclusive, mid.value(), next_id}, r.begin, at, r.depth + 1,
                 r.keyspace / 2};
  WorkRange right{EpkRange{mid.value(), r.range.max_exclusive, next_id + 1}, at, r.end, r.depth + 1,
                  r.keyspace / 2};
  next_id += 2;
  return std::make_pair(std::move(left), std::move(right));
}

Split RecordSplit(const WorkRange& parent, const WorkRange& left, const WorkRange& right,
                  const char* reason, const Model& m, double scale) {
  Split s;
  s.parent = parent.range.id;
  s.left = left.range.id;
  s.right = right.range.id;
  s.reason = reason;
  s.moved_to_left = left.end - left.begin;
  s.moved_to_right = right.end - right.begin;
  s.bytes_left = SliceBytes(m, left.begin, left.end, scale);
  s.bytes_right = SliceBytes(m, right.begin, right.end, scale);
  return s;
}

}  // namespace

Status TooManyRanges(std::string_view what, size_t count) {
  return BadOption(fmt::format(
      "{} {} physical partitions, more than the {} the container model lays out (Partition "
      "Playground's own bound, {} RU/s; Cosmos DB sets none)",
      what, GroupThousands(count), GroupThousands(kMaxInitialPartitions),
      GroupThousands(static_cast<uint64_t>(kMaxInitialPartitions) *
                     static_cast<uint64_t>(kCosmosPhysicalPartitionRuPerSecond))));
}

namespace {

constexpr size_t kLevelLength = 16;  // bytes of one MultiHash level: 32 hex digits

// Whether all of the range's partitions share their first key level (MultiHash): a midpoint
// split of the first level's hash never separates them.
bool OnePrefix(const WorkRange& r, const Model& m) {
  const std::string_view first = m.epk(m.order[r.begin]);
  const std::string_view last = m.epk(m.order[r.end - 1]);
  return first.substr(0, kLevelLength) == last.substr(0, kLevelLength);
}

// Cuts a range holding one prefix's keys inside the prefix: at the EPK of the first full key
// past half the range's bytes (at least one key on each side), as the service splits by storage.
// nullopt when every key of the range has the same EPK.
std::optional<std::pair<WorkRange, WorkRange>> SplitInsidePrefix(const WorkRange& r, const Model& m,
                                                                 double scale, int& next_id) {
  const double half = SliceBytes(m, r.begin, r.end, scale) / 2;
  double running = 0;
  size_t at = r.begin + 1;
  for (size_t k = r.begin; k + 1 < r.end; ++k) {
    running += ScaledBytesAt(m, k, scale);
    at = k + 1;
    if (running >= half) break;
  }
  // Keys with equal EPKs stay together: move the cut past them, or before them.
  auto same = [&](size_t a, size_t b) { return m.epk(m.order[a]) == m.epk(m.order[b]); };
  size_t cut = at;
  while (cut < r.end && same(cut - 1, cut)) ++cut;
  if (cut == r.end) {
    cut = at;
    while (cut > r.begin && same(cut - 1, cut)) --cut;
    if (cut == r.begin) return std::nullopt;
  }
  const std::string boundary = EpkText(m.epk(m.order[cut]));
  const double width = 0;  // inside one prefix: a sliver of the hash space (KeyspaceFraction)
  WorkRange left{EpkRange{r.range.min_inclusive, boundary, next_id}, r.begin, cut, r.depth + 1,
                 width};
  WorkRange right{EpkRange{boundary, r.range.max_exclusive, next_id + 1}, cut, r.end, r.depth + 1,
                  width};
  next_id += 2;
  return std::make_pair(std::move(left), std::move(right));
}

}  // namespace

StatusOr<StorageSplitResult> SplitForStorage(const std::vector<WorkRange>& ranges, const Model& m,
                                             double scale, Version version, int& next_id,
                                             std::vector<Split>* splits) {
  StorageSplitResult out;
  size_t count = ranges.size();
  std::vector<WorkRange> stack;
  for (const WorkRange& initial : ranges) {
    stack.push_back(initial);
    while (!stack.empty()) {
      WorkRange r = std::move(stack.back());
      stack.pop_back();
      const double bytes = SliceBytes(m, r.begin, r.end, scale);
      if (bytes <= kCosmosPhysicalPartitionBytes) {
        out.ranges.push_back(std::move(r));
        continue;
      }
      std::optional<std::pair<WorkRange, WorkRange>> halves;
      if (r.end - r.begin >= 2) {
        halves = version == Version::kMultiHash && OnePrefix(r, m)
                     ? SplitInsidePrefix(r, m, scale, next_id)
                     : SplitRange(r, m, version, next_id);
      }
      if (!halves) {
        out.overfull.push_back(r);
        out.ranges.push_back(std::move(r));
        continue;
      }
      if (++count > static_cast<size_t>(kMaxInitialPartitions)) {
        return TooManyRanges("the grown data needs at least", count);
      }
      if (splits) {
        splits->push_back(RecordSplit(r, halves->first, halves->second, "storage", m, scale));
      }
      stack.push_back(std::move(halves->second));
      stack.push_back(std::move(halves->first));  // the left half first
    }
  }
  return out;
}

Status SplitForThroughput(std::vector<WorkRange>& ranges, int64_t target, const Model& m,
                          double scale, Version version, int& next_id, std::vector<Split>& splits) {
  if (target > kMaxInitialPartitions) {
    return TooManyRanges("the grown throughput needs", static_cast<size_t>(target));
  }
  auto later = [&](size_t a, size_t b) {  // priority_queue puts the "largest" first
    if (ranges[a].depth != ranges[b].depth) return ranges[a].depth > ranges[b].depth;
    return CompareEffectivePartitionKeys(ranges[a].range.min_inclusive,
                                         ranges[b].range.min_inclusive) > 0;
  };
  std::priority_queue<size_t, std::vector<size_t>, decltype(later)> widest(later);
  for (size_t i = 0; i < ranges.size(); ++i) widest.push(i);
  while (static_cast<int64_t>(ranges.size()) < target && !widest.empty()) {
    const size_t i = widest.top();
    widest.pop();
    std::optional<std::pair<WorkRange, WorkRange>> halves =
        SplitRange(ranges[i], m, version, next_id);
    if (!halves) continue;  // too narrow: never offered again
    splits.push_back(RecordSplit(ranges[i], halves->first, halves->second, "throughput", m, scale));
    ranges[i] = std::move(halves->first);  // i left the heap when popped; it returns below
    ranges.push_back(std::move(halves->second));
    widest.push(i);
    widest.push(ranges.size() - 1);
  }
  std::sort(ranges.begin(), ranges.end(), [](const WorkRange& a, const WorkRange& b) {
    return CompareEffectivePartitionKeys(a.range.min_inclusive, b.range.min_inclusive) < 0;
  });
  return Status::Ok();
}

namespace {

// The range id of every partition, by position in Model::order.
std::vector<int> RangeIdByPosition(const std::vector<WorkRange>& ranges, size_t n) {
  std::vector<int> ids(n, -1);
  for (const WorkRange& r : ranges) {
    for (size_t k = r.begin; k < r.end; ++k) ids[k] = r.range.id;
  }
  return ids;
}

}  // namespace

void RecordMoves(const Model& m, const std::vector<WorkRange>& before,
                 const std::vector<WorkRange>& after, ContainerReport& report) {
  const std::vector<int> from = RangeIdByPosition(before, m.order.size());
  const std::vector<int> to = RangeIdByPosition(after, m.order.size());
  // Each split's children descend from its parent (a child may split again).
  std::unordered_map<int, int> parent_of;
  for (const Split& s : report.splits) {
    parent_of[s.left] = s.parent;
    parent_of[s.right] = s.parent;
  }
  const auto descends = [&](int id, int ancestor) {
    for (size_t hops = 0; hops <= report.splits.size(); ++hops) {
      auto it = parent_of.find(id);
      if (it == parent_of.end()) return false;
      id = it->second;
      if (id == ancestor) return true;
    }
    return false;
  };
  for (size_t k = 0; k < m.order.size(); ++k) {
    if (from[k] == to[k]) continue;
    if (descends(to[k], from[k])) ++report.moved_into_split_children;
    if (report.moved.size() < kMaxFindingExamples) {
      report.moved.push_back({m.key(m.order[k]), from[k], to[k]});
    }
    ++report.moved_count;
  }
}

}  // namespace partplay::internal::container
