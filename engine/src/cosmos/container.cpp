// The container model (container.h). One pass computes every logical partition's EPK and request
// demand; the partitions are sorted by EPK once, so each physical partition holds a contiguous
// slice of that order and a split only binary-searches its slice for the midpoint. Growth splits
// compute midpoints with MidpointEffectivePartitionKey and number the children as SplitAtMidpoint
// does (left = next_id, right = next_id + 1) without its linear search and vector insert, so a
// growth to many thousands of ranges stays linear.
#include "partplay/cosmos/container.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numeric>
#include <queue>
#include <utility>

#include "core/huge_pages.h"
#include "core/message_format.h"
#include "core/radix_sort.h"
#include "cosmos/container_options.h"
#include "partplay/core/tasks.h"
#include "partplay/cosmos/request_charges.h"

namespace partplay {
namespace {

using internal::BadOption;
using internal::FiniteAtLeast;
using internal::FormatPercent;
using internal::FormatRate;
using internal::FormatSize;
using internal::FormatSizeOver;
using internal::GroupThousands;
using internal::OneDecimal;

using Version = PartitionKeyHashVersion;

// ---------------------------------------------------------------------------------------------
// Message formatting.

// "1 item" / "3 items".
std::string Counted(uint64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", GroupThousands(n), n == 1 ? singular : plural);
}

// A key's JSON for a message, cut after 80 characters.
std::string KeyForMessage(const PartitionKey& key) {
  constexpr size_t kMaxShown = 80;
  std::string json = key.ToJson();
  if (json.size() <= kMaxShown) return json;
  size_t cut = kMaxShown;
  while (cut > 0 && (static_cast<uint8_t>(json[cut]) & 0xC0) == 0x80) --cut;  // not mid-UTF-8
  return json.substr(0, cut) + "...";
}

// ---------------------------------------------------------------------------------------------
// Partitions: EPKs, order and demand.

// EPK text to its bytes ("05C1" -> 0x05 0xC1; "FF" -> 0xFF, "" -> ""): EPKs and range bounds
// are upper-case hex of whole bytes, so the bytes order exactly as the text does.
void AppendEpkBytes(std::string_view hex, std::string& out) {
  auto nibble = [](char c) {
    return static_cast<uint8_t>(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
  };
  for (size_t i = 0; i + 1 < hex.size(); i += 2) {
    out.push_back(static_cast<char>(nibble(hex[i]) << 4 | nibble(hex[i + 1])));
  }
}

std::string EpkBytes(std::string_view hex) {
  std::string out;
  AppendEpkBytes(hex, out);
  return out;
}

void EpkTextInto(std::string_view bytes, std::string& out) {
  static const char kHex[] = "0123456789ABCDEF";
  out.resize(bytes.size() * 2);
  for (size_t i = 0; i < bytes.size(); ++i) {
    const uint8_t b = static_cast<uint8_t>(bytes[i]);
    out[2 * i] = kHex[b >> 4];
    out[2 * i + 1] = kHex[b & 15];
  }
}

std::string EpkText(std::string_view bytes) {
  std::string out;
  EpkTextInto(bytes, out);
  return out;
}

int CompareEpkBytes(std::string_view a, std::string_view b) {
  int c = a.compare(b);  // char_traits<char> compares as unsigned char
  return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

// The partitions with their EPKs as bytes, back to back (hex text only for what is shown).
struct Model {
  const PartitionList* parts = nullptr;
  EpkColumn epks;                 // every partition's EPK bytes, by list index
  std::vector<uint32_t> order;    // list indices in EPK order (ties: list order)
  // By position in `order`, so that a range's slice is read in sequence, not gathered from the
  // list at random: items, bytes and RU/s demand.
  std::vector<uint64_t> items_at, bytes_at;
  std::vector<double> demand_at;
  // The partitions whose key value is over the limit (KeyValueLimit), with its size in bytes.
  std::vector<std::pair<uint32_t, uint64_t>> long_keys;

  std::string_view epk(uint32_t i) const {
    return epks.Epk(i);
  }
  uint64_t items(uint32_t i) const { return parts->items(i); }
  uint64_t bytes(uint32_t i) const { return parts->bytes(i); }
  PartitionKey key(uint32_t i) const { return parts->key(i); }
};

// The first 8 bytes big-endian, zero-padded: orders like the ordinal comparison (a shorter EPK
// that ties is sorted by the full comparison), so most comparisons are one integer compare.
uint64_t OrdinalPrefix(std::string_view s) {
  uint64_t v = 0;
  for (size_t i = 0; i < 8; ++i) {
    v = (v << 8) | (i < s.size() ? static_cast<uint8_t>(s[i]) : 0);
  }
  return v;
}

std::vector<uint32_t> SortByEpk(const Model& m) {
  std::vector<std::pair<uint64_t, uint32_t>> keyed;
  internal::ReserveHuge(keyed, m.epks.size());
  keyed.resize(m.epks.size());
  internal::ParallelStretches(
      keyed.size(), internal::kMinPartitionStretch, [&](size_t, size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) {
          keyed[i] = {OrdinalPrefix(m.epk(static_cast<uint32_t>(i))), static_cast<uint32_t>(i)};
        }
      });
  auto before = [&](const auto& a, const auto& b) {
    if (a.first != b.first) return a.first < b.first;
    int c = CompareEpkBytes(m.epk(a.second), m.epk(b.second));
    return c != 0 ? c < 0 : a.second < b.second;
  };
  // A radix sort on the 8-byte prefixes; equal prefixes get the full comparison.
  auto word = [](const std::pair<uint64_t, uint32_t>& r, int) { return r.first; };
  auto digit = [](const std::pair<uint64_t, uint32_t>& r, int d) {
    return static_cast<int>((r.first >> (56 - 8 * d)) & 0xFF);
  };
  auto finish = [&](std::pair<uint64_t, uint32_t>* first, std::pair<uint64_t, uint32_t>* last,
                    bool) { std::sort(first, last, before); };
  internal::MsdRadixSort(keyed.data(), keyed.size(),
                         internal::FirstVaryingDigit(keyed.data(), keyed.size(), 1, word), 8,
                         digit, finish);
  std::vector<uint32_t> order;
  internal::ReserveHuge(order, keyed.size());
  order.resize(keyed.size());
  for (size_t i = 0; i < keyed.size(); ++i) order[i] = keyed[i].second;
  return order;
}

// The largest key value (CanonicalValueBytes) Cosmos DB accepts with these options.
uint64_t KeyValueLimit(const ContainerOptions& options) {
  const bool classic =
      options.version == PartitionKeyHashVersion::kV1 && !options.large_partition_keys;
  return classic ? kCosmosKeyBytesClassic : kCosmosKeyBytesLarge;
}

// Each partition's share w_p of the requests (summing to 1).
StatusOr<std::vector<double>> RequestShares(const PartitionList& parts, const Workload& workload) {
  std::vector<double> raw;
  internal::ReserveHuge(raw, parts.size());
  raw.resize(parts.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    switch (workload.spread) {
      case RequestSpread::kUniformItems:
        raw[i] = static_cast<double>(parts.items(i));
        break;
      case RequestSpread::kField:
        if (!FiniteAtLeast(parts.weight(i), 0)) {
          return BadOption(
              fmt::format("the weight field must sum to a finite value >= 0 in "
                          "every partition; {} sums to {}",
                          KeyForMessage(parts.key(i)), parts.weight(i)));
        }
        raw[i] = parts.weight(i);
        break;
      case RequestSpread::kZipf:
        raw[i] = std::pow(static_cast<double>(i + 1), -workload.zipf_exponent);
        break;
    }
  }
  double total = 0;
  for (double x : raw) total += x;
  if (total == 0 && parts.size() > 0) {
    if (workload.spread == RequestSpread::kField) return BadOption("the weight field sums to 0");
    return raw;  // no items at all: no requests land anywhere
  }
  for (double& x : raw) x /= total;
  return raw;
}

// RU/s of the whole workload if every request went to items of `mean_item_bytes`.
double WorkloadCharge(double mean_item_bytes, const Workload& w) {
  return w.point_reads_per_second * w.costs.read_factor * PointReadCharge(mean_item_bytes) +
         w.writes_per_second * w.costs.write_factor * WriteCharge(mean_item_bytes) +
         w.queries_per_second * w.costs.query_ru;
}

StatusOr<Model> BuildModel(const PartitionList& parts, const ContainerOptions& options) {
  Model m;
  m.parts = &parts;
  const uint64_t key_limit = KeyValueLimit(options);
  PartitionKey key;  // reused, as is epk: no allocation per partition once they have grown
  std::string epk;
  auto long_key = [key_limit](std::vector<std::pair<uint32_t, uint64_t>>& into, size_t i,
                              std::string_view canonical) {
    if (const uint64_t size = CanonicalValueBytes(canonical); size > key_limit) {
      into.emplace_back(static_cast<uint32_t>(i), size);
    }
  };
  bool hashed = false;
  if (options.version == PartitionKeyHashVersion::kV2) {
    // Every V2 EPK is 16 bytes, so each has its place before it is computed: the keys are read
    // in memory order, not in the list's (one cache miss less per partition), in stretches of
    // that order on the host's threads (core/tasks.h), each noting its long keys.
    constexpr size_t kWidth = 16;
    internal::ReserveHuge(m.epks.bytes, parts.size() * kWidth);
    m.epks.bytes.assign(parts.size() * kWidth, '\0');
    m.epks.width = kWidth;
    char* const out = m.epks.bytes.data();
    auto store_soon = [out](size_t i) { __builtin_prefetch(out + i * kWidth, 1); };
    const size_t most = static_cast<size_t>(internal::TaskThreads());
    std::vector<std::vector<std::pair<uint32_t, uint64_t>>> long_keys(most);
    std::vector<char> stretch_hashed(most, 1);
    const size_t stretches = internal::ParallelStretches(
        parts.size(), internal::kMinPartitionStretch, [&](size_t s, size_t begin, size_t end) {
          std::string scratch;
          parts.VisitStretchInMemoryOrder(begin, end, [&](size_t i, std::string_view canonical) {
            if (!EffectivePartitionKeyV2FromCanonical(canonical, scratch, out + i * kWidth).ok()) {
              stretch_hashed[s] = 0;  // the pass in list order below names the first failure
              return false;
            }
            long_key(long_keys[s], i, canonical);
            return true;
          }, store_soon);
        });
    hashed = std::all_of(stretch_hashed.begin(), stretch_hashed.begin() + stretches,
                         [](char ok) { return ok != 0; });
    for (size_t s = 0; s < stretches; ++s) {
      m.long_keys.insert(m.long_keys.end(), long_keys[s].begin(), long_keys[s].end());
    }
    std::sort(m.long_keys.begin(), m.long_keys.end());
  }
  if (!hashed) {
    m.epks = {};
    m.epks.end.reserve(parts.size());
    m.long_keys.clear();
    for (size_t i = 0; i < parts.size(); ++i) {
      parts.read_ahead(i);
      const std::string_view canonical = parts.canonical(i);
      key.AssignCanonicalBytes(canonical);
      PARTPLAY_RETURN_IF_ERROR(
          EffectivePartitionKeyInto(key, options.version, EpkForm::kBytes, epk));
      m.epks.bytes += epk;
      m.epks.end.push_back(m.epks.bytes.size());
      long_key(m.long_keys, i, canonical);
    }
  }
  m.order = SortByEpk(m);
  PARTPLAY_ASSIGN_OR_RETURN(std::vector<double> shares, RequestShares(parts, options.workload));
  // Each figure gathered in EPK order from the list's (the reads of several partitions ahead
  // overlap; stores scattered the other way did not: 74 ms against 36-42 for 1,000,000).
  const size_t n = parts.size();
  internal::ReserveHuge(m.items_at, n);
  internal::ReserveHuge(m.bytes_at, n);
  internal::ReserveHuge(m.demand_at, n);
  m.items_at.resize(n);
  m.bytes_at.resize(n);
  m.demand_at.resize(n);
  constexpr size_t kAhead = 16;
  internal::ParallelStretches(
      n, internal::kMinPartitionStretch, [&](size_t, size_t begin, size_t end) {
        for (size_t k = begin; k < end; ++k) {
          if (k + kAhead < end) {
            parts.read_sizes_ahead(m.order[k + kAhead]);
            __builtin_prefetch(&shares[m.order[k + kAhead]], 0);
          }
          const uint32_t i = m.order[k];
          const uint64_t items = parts.items(i);
          const uint64_t bytes = parts.bytes(i);
          const double mean_item =
              items > 0 ? static_cast<double>(bytes) / static_cast<double>(items) : 0;
          m.items_at[k] = items;
          m.bytes_at[k] = bytes;
          m.demand_at[k] = shares[i] * WorkloadCharge(mean_item, options.workload);
        }
      });
  return m;
}

// ---------------------------------------------------------------------------------------------
// Ranges.

// A physical partition while modelling: its range and the slice [begin, end) of Model::order
// it holds; depth counts the splits since the initial layout (each halves the width).
struct WorkRange {
  EpkRange range;
  size_t begin = 0, end = 0;
  int depth = 0;
};

// Places the EPK-sorted partitions on the layout by one merge walk.
std::vector<WorkRange> AssignToRanges(const PhysicalLayout& layout, const Model& m) {
  std::vector<WorkRange> out;
  out.reserve(layout.ranges.size());
  size_t k = 0;
  for (const EpkRange& r : layout.ranges) {
    WorkRange w{r, k, k, 0};
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

// The bytes and items of the partition at position k of Model::order, after growth.
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
  WorkRange left{EpkRange{r.range.min_inclusive, mid.value(), next_id}, r.begin, at, r.depth + 1};
  WorkRange right{EpkRange{mid.value(), r.range.max_exclusive, next_id + 1}, at, r.end,
                  r.depth + 1};
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

// `what` needs `count` ranges, more than the model lays out (core/limits.h).
Status TooManyRanges(std::string_view what, size_t count) {
  return BadOption(fmt::format(
      "{} {} physical partitions, more than the {} the container model lays out (Partition "
      "Playground's own bound, {} RU/s; Cosmos DB sets none)",
      what, GroupThousands(count), GroupThousands(kMaxInitialPartitions),
      GroupThousands(static_cast<uint64_t>(kMaxInitialPartitions) *
                     static_cast<uint64_t>(kCosmosPhysicalPartitionRuPerSecond))));
}

// Whether some midpoint split could put the range's partitions on two sides: it holds two or
// more, and (MultiHash) not all share one first level, which a split never cuts inside.
bool SplitCanSeparate(const WorkRange& r, const Model& m, Version version) {
  if (r.end - r.begin < 2) return false;
  if (version != Version::kMultiHash) return true;  // V1 / V2: narrowing ends it (SplitRange)
  constexpr size_t kLevelLength = 16;               // bytes: 32 hex digits
  const std::string_view first = m.epk(m.order[r.begin]);
  const std::string_view last = m.epk(m.order[r.end - 1]);
  return first.substr(0, kLevelLength) != last.substr(0, kLevelLength);
}

struct StorageSplitResult {
  std::vector<WorkRange> ranges;    // in EPK order
  std::vector<WorkRange> overfull;  // ranges still above 50 GB: no split can help
};

// Splits every range above 50 GB at its midpoint, depth first and left to right, until each is
// at most 50 GB or holds one logical partition (or is too narrow to split: MultiHash keys that
// share their first level, V1 keys that share a hash).
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
      if (SplitCanSeparate(r, m, version)) halves = SplitRange(r, m, version, next_id);
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

// Splits the widest range (fewest splits since the initial layout; ties: the lowest EPK) until
// there are `target` ranges. Returns the ranges in EPK order.
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

// ---------------------------------------------------------------------------------------------
// Filling a layout view.

constexpr size_t kHottestPerRange = 5;

double ThrottledFraction(double demand, double share) {
  return demand > share ? 1 - share / demand : 0;
}

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

StatusOr<LayoutView> FillLayout(const Model& m, const std::vector<WorkRange>& ranges, double ru,
                                double scale, int top_per_range) {
  LayoutView view;
  view.ru_per_second = ru;
  const double share = ru / static_cast<double>(ranges.size());
  double over = 0;  // demand above the shares
  for (const WorkRange& r : ranges) {
    PhysicalPartition p;
    p.range = r.range;
    p.logical_partitions = r.end - r.begin;
    p.ru_share = share;
    for (size_t k = r.begin; k < r.end; ++k) {
      p.items += ScaledItemsAt(m, k, scale);
      p.bytes += ScaledBytesAt(m, k, scale);
      p.demand_ru += m.demand_at[k];
    }
    p.throttled_fraction = ThrottledFraction(p.demand_ru, share);
    FillTop(m, r, scale, top_per_range, p);
    view.storage_bytes += p.bytes;
    view.demand_ru += p.demand_ru;
    over += std::max(0.0, p.demand_ru - share);
    view.ranges.push_back(std::move(p));
  }
  view.throttled_fraction = view.demand_ru > 0 ? over / view.demand_ru : 0;
  // Raw ceilings: RU/s > 0 gives at least 1 by itself; no storage needs 0 partitions.
  PARTPLAY_ASSIGN_OR_RETURN(view.partitions_for_throughput, PhysicalPartitionCount(ru, 0));
  if (view.storage_bytes > 0) {
    PARTPLAY_ASSIGN_OR_RETURN(view.partitions_for_storage,
                              PhysicalPartitionCount(0, view.storage_bytes));
  }
  PARTPLAY_ASSIGN_OR_RETURN(view.partitions_needed, PhysicalPartitionCount(ru, view.storage_bytes));
  return view;
}

// ---------------------------------------------------------------------------------------------
// Growth.

// The range id of every partition, by position in Model::order.
std::vector<int> RangeIdByPosition(const std::vector<WorkRange>& ranges, size_t n) {
  std::vector<int> ids(n, -1);
  for (const WorkRange& r : ranges) {
    for (size_t k = r.begin; k < r.end; ++k) ids[k] = r.range.id;
  }
  return ids;
}

void RecordMoves(const Model& m, const std::vector<WorkRange>& before,
                 const std::vector<WorkRange>& after, ContainerReport& report) {
  const std::vector<int> from = RangeIdByPosition(before, m.order.size());
  const std::vector<int> to = RangeIdByPosition(after, m.order.size());
  for (size_t k = 0; k < m.order.size(); ++k) {
    if (from[k] == to[k]) continue;
    if (report.moved.size() < kMaxFindingExamples) {
      report.moved.push_back({m.key(m.order[k]), from[k], to[k]});
    }
    ++report.moved_count;
  }
}

// ---------------------------------------------------------------------------------------------
// Findings.

std::vector<ItemFinding> FirstExamples(const std::vector<ItemFinding>& items) {
  return {items.begin(),
          items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), kMaxFindingExamples))};
}

// The context every finding shares.
struct FindingContext {
  const AnalysisReport& analysis;  // counts and item findings (its partition list may be cut)
  const ContainerOptions& options;
  const Model& m;
  double scale;  // growth applied to sizes in the last layout
  const LayoutView& last;
  const std::vector<WorkRange>& overfull;  // ranges above 50 GB that no split helps
  std::vector<int> overfull_ids;           // the ids they are named by (OverfullIds)
};

std::string AfterGrowth(const FindingContext& c) {
  return c.scale > 1 ? fmt::format(" after growth x{}", c.scale) : "";
}

void AddOver20Gb(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{"logical_partition_over_20gb", "error", "", 0, {}, {}};
  double largest = 0;
  uint32_t largest_at = 0;
  for (uint32_t i = 0; i < c.m.parts->size(); ++i) {
    const double bytes = static_cast<double>(c.m.bytes(i)) * c.scale;
    if (!(bytes > kCosmosLogicalPartitionBytes)) continue;
    ++f.count;
    if (f.keys.size() < kMaxFindingExamples) f.keys.push_back(c.m.key(i));
    if (bytes > largest) largest = bytes, largest_at = i;
  }
  if (f.count == 0) return;
  f.message = fmt::format(
      "{} more than the {} a logical partition may store{}; the largest, {}, holds {}",
      Counted(f.count, "logical partition holds", "logical partitions hold"),
      LimitBytesText(kCosmosLogicalPartitionBytes), AfterGrowth(c),
      KeyForMessage(c.m.key(largest_at)), FormatSizeOver(largest, kCosmosLogicalPartitionBytes));
  if (c.options.version == Version::kMultiHash) {
    f.message += fmt::format(
        " (with hierarchical keys only the full key's partition is bounded by {}; a prefix may "
        "exceed it)",
        LimitBytesText(kCosmosLogicalPartitionBytes));
  }
  f.message += ".";
  out.push_back(std::move(f));
}

void AddKeyTooLarge(const FindingContext& c, std::vector<Finding>& out) {
  const bool classic = c.options.version == Version::kV1 && !c.options.large_partition_keys;
  const uint64_t limit = KeyValueLimit(c.options);
  Finding f{"key_too_large", "error", "", 0, {}, {}};
  uint64_t longest = 0, items = 0;
  uint32_t longest_at = 0;
  for (const auto& [i, size] : c.m.long_keys) {  // found while the model hashed every key
    ++f.count;
    items += c.m.items(i);
    if (f.keys.size() < kMaxFindingExamples) f.keys.push_back(c.m.key(i));
    if (size > longest) longest = size, longest_at = i;
  }
  if (f.count == 0) return;
  f.message = fmt::format(
      "{} ({}) {} larger than {} bytes, the limit {}; the largest, {}, has {} bytes.",
      Counted(f.count, "partition key value", "partition key values"),
      Counted(items, "item", "items"), f.count == 1 ? "is" : "are", GroupThousands(limit),
      classic ? "without large partition keys (turn them on for 2,048 bytes)"
              : "with large partition keys",
      KeyForMessage(c.m.key(longest_at)), GroupThousands(longest));
  out.push_back(std::move(f));
}

void AddItemFinding(std::vector<Finding>& out, const char* code, const char* severity,
                    uint64_t count, const std::vector<ItemFinding>& examples, std::string message) {
  if (count == 0) return;
  out.push_back(Finding{code, severity, std::move(message), count, {}, FirstExamples(examples)});
}

void AddAnalysisFindings(const FindingContext& c, std::vector<Finding>& out) {
  const AnalysisReport& a = c.analysis;
  AddItemFinding(out, "invalid_key_type", "error", a.invalid_key_items, a.invalid_key_examples,
                 fmt::format("{} a partition key value that is an object, an array or a number "
                             "beyond the double range; Cosmos DB accepts only strings, numbers, "
                             "booleans and null.",
                             Counted(a.invalid_key_items, "item has", "items have")));
  if (a.undefined_key_items > 0) {
    out.push_back(Finding{
        "missing_key",
        "warning",
        fmt::format("{} no value at the key path; items without a value at the key path are "
                    "stored in the partition of the undefined key.",
                    Counted(a.undefined_key_items, "item has", "items have")),
        a.undefined_key_items,
        {},
        {}});
  }
  AddItemFinding(out, "missing_id", "error", a.missing_id_items, a.missing_id_examples,
                 fmt::format("{} no string \"id\"; Cosmos DB requires one in every item.",
                             Counted(a.missing_id_items, "item has", "items have")));
  AddItemFinding(out, "duplicate_id", "error", a.duplicate_id_items, a.duplicate_id_examples,
                 fmt::format("{} an \"id\" already used in the same logical partition; ids must "
                             "be unique within a logical partition.",
                             Counted(a.duplicate_id_items, "item repeats", "items repeat")));
  uint64_t largest_item = 0;
  for (const ItemFinding& f : a.oversized_examples) largest_item = std::max(largest_item, f.bytes);
  AddItemFinding(
      out, "item_over_2mb", "error", a.oversized_items, a.oversized_examples,
      fmt::format("{} larger than {}, the largest item Cosmos DB stores (the largest "
                  "seen has {}).",
                  Counted(a.oversized_items, "item is", "items are"),
                  LimitBytesText(kCosmosItemBytes), FormatSize(static_cast<double>(largest_item))));
  AddItemFinding(out, "imprecise_number_key", "warning", a.imprecise_number_items,
                 a.imprecise_number_examples,
                 fmt::format("{} a numeric partition key value that a double cannot hold exactly "
                             "(beyond 2^53 or with more digits than a double keeps); use strings "
                             "for such keys.",
                             Counted(a.imprecise_number_items, "item has", "items have")));
}

// The largest logical partition of a range.
uint32_t LargestIn(const Model& m, const WorkRange& r) {
  size_t best = r.begin;
  for (size_t k = r.begin + 1; k < r.end; ++k) {
    if (m.bytes_at[k] > m.bytes_at[best]) best = k;
  }
  return m.order[best];
}

void AddOver50Gb(const FindingContext& c, std::vector<Finding>& out) {
  if (c.overfull.empty()) return;
  Finding f{"physical_partition_over_50gb", "error", "", c.overfull.size(), {}, {}};
  const WorkRange* fullest = nullptr;
  double fullest_bytes = 0;
  for (size_t k = 0; k < c.overfull.size(); ++k) {
    const WorkRange& r = c.overfull[k];
    const double bytes = SliceBytes(c.m, r.begin, r.end, c.scale);
    if (bytes > fullest_bytes) fullest_bytes = bytes, fullest = &r;
    if (f.keys.size() < kMaxFindingExamples) {
      f.keys.push_back(c.m.key(LargestIn(c.m, r)));
    }
  }
  const size_t fullest_index = static_cast<size_t>(fullest - c.overfull.data());
  const bool one = fullest->end - fullest->begin == 1;
  f.message = fmt::format(
      "{} more than the {} a physical partition stores{} and no split can help: physical "
      "partition {} holds {}, {}.",
      Counted(f.count, "physical partition would hold", "physical partitions would hold"),
      LimitBytesText(kCosmosPhysicalPartitionBytes), AfterGrowth(c), c.overfull_ids[fullest_index],
      FormatSizeOver(fullest_bytes, kCosmosPhysicalPartitionBytes),
      one ? fmt::format("all of it the one logical partition {}",
                        KeyForMessage(c.m.key(c.m.order[fullest->begin])))
          : fmt::format("{} logical partitions whose keys a midpoint split cannot separate (a "
                        "split never cuts inside one first-level key or one hash value)",
                        GroupThousands(fullest->end - fullest->begin)));
  out.push_back(std::move(f));
}

// Hottest first; ties: the earlier partition of the list.
void SortHottestFirst(const Model& m, std::vector<uint32_t>& positions) {
  std::sort(positions.begin(), positions.end(), [&](uint32_t a, uint32_t b) {
    return m.demand_at[a] != m.demand_at[b] ? m.demand_at[a] > m.demand_at[b]
                                            : m.order[a] < m.order[b];
  });
}

// Positions in Model::order of the partitions whose demand exceeds `threshold`, hottest first.
std::vector<uint32_t> DemandAbove(const Model& m, double threshold) {
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < m.demand_at.size(); ++k) {
    if (m.demand_at[k] > threshold) out.push_back(k);
  }
  SortHottestFirst(m, out);
  return out;
}

void AddOver10000Ru(const FindingContext& c, std::vector<Finding>& out) {
  const std::vector<uint32_t> hot = DemandAbove(c.m, kCosmosPhysicalPartitionRuPerSecond);
  if (hot.empty()) return;
  Finding f{"logical_partition_over_10000_ru", "warning", "", hot.size(), {}, {}};
  for (size_t k = 0; k < hot.size() && k < kMaxFindingExamples; ++k) {
    f.keys.push_back(c.m.key(c.m.order[hot[k]]));
  }
  f.message = fmt::format(
      "{} more than {}, the most one physical partition serves, and one logical "
      "partition never spans two; the hottest, {}, needs {}.",
      Counted(hot.size(), "logical partition needs", "logical partitions need"),
      FormatRate(kCosmosPhysicalPartitionRuPerSecond), KeyForMessage(c.m.key(c.m.order[hot[0]])),
      FormatRate(c.m.demand_at[hot[0]]));
  out.push_back(std::move(f));
}

// The hottest logical partition of a physical partition (its top list holds up to 5 of them).
const PlacedPartition* HottestIn(const PhysicalPartition& p) {
  const PlacedPartition* best = nullptr;
  for (const PlacedPartition& t : p.top) {
    if (!best || t.demand_ru > best->demand_ru) best = &t;
  }
  return best;
}

void AddHotPartitions(const FindingContext& c, std::vector<Finding>& out) {
  std::vector<const PhysicalPartition*> hot;
  for (const PhysicalPartition& p : c.last.ranges) {
    if (p.throttled_fraction > 0) hot.push_back(&p);
  }
  if (hot.empty()) return;
  std::stable_sort(hot.begin(), hot.end(),
                   [](const PhysicalPartition* a, const PhysicalPartition* b) {
                     return a->demand_ru > b->demand_ru;
                   });
  Finding f{"hot_partition", "warning", "", hot.size(), {}, {}};
  for (const PhysicalPartition* p : hot) {
    const PlacedPartition* key = HottestIn(*p);
    if (key && f.keys.size() < kMaxFindingExamples) f.keys.push_back(key->key);
  }
  constexpr size_t kIdsNamed = 5;
  std::string ids;
  for (size_t k = 0; k < hot.size() && k < kIdsNamed; ++k) {
    ids += fmt::format("{}{}", k == 0 ? "" : ", ", hot[k]->range.id);
  }
  if (hot.size() > kIdsNamed) ids += fmt::format(" and {} more", hot.size() - kIdsNamed);
  const PhysicalPartition& worst = *hot[0];
  const PlacedPartition* top_key = HottestIn(worst);
  std::string key_part;
  if (top_key) {
    key_part = fmt::format("; its hottest key, {}, takes {}", KeyForMessage(top_key->key),
                           FormatRate(top_key->demand_ru));
    if (top_key->demand_ru > worst.ru_share) {
      key_part += " alone, more than the share, and a split cannot spread one key's load";
    }
  }
  const std::string throttled = fmt::format("about {} of its requests would be throttled (429)",
                                            FormatPercent(worst.throttled_fraction));
  if (hot.size() == 1) {
    f.message =
        fmt::format("Physical partition {} gets {}, more than its share of {}, so {}{}.", ids,
                    FormatRate(worst.demand_ru), FormatRate(worst.ru_share), throttled, key_part);
  } else {
    f.message = fmt::format(
        "Physical partitions {} get more requests than their share of {}; the busiest, {}, gets "
        "{}, so {}{}.",
        ids, FormatRate(worst.ru_share), worst.range.id, FormatRate(worst.demand_ru), throttled,
        key_part);
  }
  out.push_back(std::move(f));
}

std::vector<Finding> BuildFindings(const FindingContext& c) {
  std::vector<Finding> out;
  AddOver20Gb(c, out);
  AddKeyTooLarge(c, out);
  AddAnalysisFindings(c, out);
  AddOver50Gb(c, out);
  AddOver10000Ru(c, out);
  AddHotPartitions(c, out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Hot partitions and routing.

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

}  // namespace

namespace {

// After the storage splits: the throughput splits up to the count RU/s and storage need, the
// "after" view and the partitions that changed range.
Status GrowThroughput(const Model& m, const std::vector<WorkRange>& before, double ru, double scale,
                      const ContainerOptions& options, int& next_id, std::vector<WorkRange>& ranges,
                      ContainerReport& report) {
  PARTPLAY_ASSIGN_OR_RETURN(int64_t target,
                            PhysicalPartitionCount(ru, SliceBytes(m, 0, m.order.size(), scale)));
  PARTPLAY_RETURN_IF_ERROR(
      SplitForThroughput(ranges, target, m, scale, options.version, next_id, report.splits));
  PARTPLAY_ASSIGN_OR_RETURN(report.after, FillLayout(m, ranges, ru, scale, options.top_per_range));
  RecordMoves(m, before, ranges, report);
  return Status::Ok();
}

// The id each overfull range is named by: its own in the grown layout, or without growth the
// id of the "before" range holding it.
std::vector<int> OverfullIds(const std::vector<WorkRange>& overfull,
                             const std::vector<WorkRange>& before, bool grown) {
  std::vector<int> ids;
  for (const WorkRange& r : overfull) {
    int id = r.range.id;
    if (!grown) {
      for (const WorkRange& b : before) {
        if (b.begin <= r.begin && r.end <= b.end) id = b.range.id;
      }
    }
    ids.push_back(id);
  }
  return ids;
}

}  // namespace

StatusOr<RouteResult> RouteQuery(const PartitionKey& filter, PartitionKeyHashVersion version,
                                 size_t key_levels, const LayoutView& layout) {
  PARTPLAY_RETURN_IF_ERROR(internal::ValidateRoute(filter, version, key_levels));
  RouteResult route;
  route.filter = filter;
  if (filter.components.empty()) {  // no partition key filter: every physical partition
    route.kind = "all";
    route.epk_min = std::string(kMinEffectivePartitionKey);
    route.epk_max = std::string(kMaxEffectivePartitionKey);
    for (const PhysicalPartition& p : layout.ranges) route.range_ids.push_back(p.range.id);
    return route;
  }
  PARTPLAY_ASSIGN_OR_RETURN(std::string epk, EffectivePartitionKey(filter, version));
  const bool prefix = version == Version::kMultiHash && filter.components.size() < key_levels;
  route.kind = prefix ? "range" : "single";
  route.epk_min = epk;
  // A prefix addresses every EPK that starts with it: [prefix, prefix + "FF").
  route.epk_max = prefix ? epk + std::string(kMaxEffectivePartitionKey) : epk;
  for (const PhysicalPartition& p : layout.ranges) {
    const EpkRange& r = p.range;
    const bool touched = prefix
                             ? CompareEffectivePartitionKeys(r.min_inclusive, route.epk_max) < 0 &&
                                   CompareEffectivePartitionKeys(route.epk_min, r.max_exclusive) < 0
                             : r.Contains(epk);
    if (touched) route.range_ids.push_back(r.id);
  }
  return route;
}

namespace {

// ModelContainer over `all`; `omitted`: partitions the caller could not list (refused).
StatusOr<ContainerReport> ModelOver(const AnalysisReport& analysis, const PartitionList& all,
                                    const ContainerOptions& options, size_t epks_listed,
                                    uint64_t omitted, bool keep_all_epks) {
  PARTPLAY_RETURN_IF_ERROR(internal::ValidateContainerOptions(analysis, options, omitted));
  PARTPLAY_ASSIGN_OR_RETURN(Model m, BuildModel(all, options));
  const Version version = options.version;

  ContainerReport report;
  report.version = version;
  const double bytes = SliceBytes(m, 0, m.order.size(), 1);
  PARTPLAY_ASSIGN_OR_RETURN(int64_t n, PhysicalPartitionCount(options.ru_per_second, bytes));
  if (n > kMaxInitialPartitions) {
    return TooManyRanges("the throughput and storage need", static_cast<size_t>(n));
  }
  PARTPLAY_ASSIGN_OR_RETURN(PhysicalLayout initial, InitialLayout(static_cast<int>(n), version));
  const std::vector<WorkRange> before = AssignToRanges(initial, m);
  PARTPLAY_ASSIGN_OR_RETURN(report.before,
                            FillLayout(m, before, options.ru_per_second, 1, options.top_per_range));

  const double ru2 =
      options.grown_ru_per_second > 0 ? options.grown_ru_per_second : options.ru_per_second;
  report.grown = options.growth > 1 || ru2 != options.ru_per_second;
  const double scale = report.grown ? options.growth : 1;
  int next_id = initial.next_id;
  // Without growth the storage splits are only a check: a range above 50 GB that a split would
  // fix is what the service splits as data arrives; what no split fixes is a finding.
  PARTPLAY_ASSIGN_OR_RETURN(
      StorageSplitResult storage,
      SplitForStorage(before, m, scale, version, next_id, report.grown ? &report.splits : nullptr));
  std::vector<WorkRange> grown_ranges;
  if (report.grown) {
    grown_ranges = std::move(storage.ranges);
    PARTPLAY_RETURN_IF_ERROR(
        GrowThroughput(m, before, ru2, scale, options, next_id, grown_ranges, report));
  }
  const std::vector<WorkRange>& last = report.grown ? grown_ranges : before;
  const LayoutView& last_view = report.grown ? report.after : report.before;
  const double share = last_view.ranges.empty() ? 0 : last_view.ranges[0].ru_share;

  report.split_cannot_help =
      !storage.overfull.empty() || !DemandAbove(m, kCosmosPhysicalPartitionRuPerSecond).empty();
  report.hot = HotPartitions(m, last, share, scale, report.hot_count);
  FindingContext context{analysis,
                         options,
                         m,
                         scale,
                         last_view,
                         storage.overfull,
                         OverfullIds(storage.overfull, before, report.grown)};
  report.findings = BuildFindings(context);

  if (options.route) {
    PARTPLAY_ASSIGN_OR_RETURN(RouteResult route, RouteQuery(*options.route, version,
                                                            analysis.key_paths.size(), last_view));
    report.route = std::move(route);
  }
  epks_listed = std::min(epks_listed, all.size());
  report.partition_epks.reserve(epks_listed);
  for (uint32_t i = 0; i < epks_listed; ++i) report.partition_epks.push_back(EpkText(m.epk(i)));
  if (keep_all_epks) report.all_epks = std::move(m.epks);
  return report;
}

}  // namespace

StatusOr<ContainerReport> ModelContainer(const AnalysisReport& analysis,
                                         const ContainerOptions& options) {
  const LogicalPartitionList all(analysis.partitions);
  return ModelOver(analysis, all, options, all.size(), analysis.partitions_omitted, false);
}

StatusOr<ContainerReport> ModelContainer(const AnalysisReport& summary, const PartitionList& all,
                                         const ContainerOptions& options, size_t epks_listed,
                                         bool keep_all_epks) {
  return ModelOver(summary, all, options, epks_listed,
                   summary.partition_count > all.size() ? summary.partition_count - all.size() : 0,
                   keep_all_epks);
}

void EpkColumn::HexInto(size_t i, std::string& hex) const { EpkTextInto(Epk(i), hex); }

}  // namespace partplay
