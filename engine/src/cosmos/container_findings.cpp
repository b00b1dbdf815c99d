// The container model's findings (container.h's Finding) and their messages: partitions over
// 20 GB or with too long a key value, the analysis' item findings, physical partitions still
// above 50 GB that no split helps, partitions whose demand is above 10,000 RU/s, and hot
// partitions that throttle.
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

namespace {

// "1 item" / "3 items".
std::string Counted(uint64_t n, std::string_view singular, std::string_view plural) {
  return fmt::format("{} {}", GroupThousands(n), n == 1 ? singular : plural);
}

}  // namespace

std::string KeyForMessage(const PartitionKey& key) {
  constexpr size_t kMaxShown = 80;
  std::string json = key.ToJson();
  if (json.size() <= kMaxShown) return json;
  size_t cut = kMaxShown;
  while (cut > 0 && (static_cast<uint8_t>(json[cut]) & 0xC0) == 0x80) --cut;  // not mid-UTF-8
  return json.substr(0, cut) + "...";
}

namespace {

std::vector<ItemFinding> FirstExamples(const std::vector<ItemFinding>& items) {
  return {items.begin(),
          items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), kMaxFindingExamples))};
}

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

}  // namespace

void SortHottestFirst(const Model& m, std::vector<uint32_t>& positions) {
  std::sort(positions.begin(), positions.end(), [&](uint32_t a, uint32_t b) {
    return m.demand_at[a] != m.demand_at[b] ? m.demand_at[a] > m.demand_at[b]
                                            : m.order[a] < m.order[b];
  });
}

std::vector<uint32_t> DemandAbove(const Model& m, double threshold) {
  std::vector<uint32_t> out;
  for (uint32_t k = 0; k < m.demand_at.size(); ++k) {
    if (m.demand_at[k] > threshold) out.push_back(k);
  }
  SortHottestFirst(m, out);
  return out;
}

namespace {

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

}  // namespace

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

}  // namespace partplay::internal::container
