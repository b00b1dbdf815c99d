#include "ingest/candidate_discovery.h"

#include <algorithm>

#include "partplay/ingest/partition_key.h"

namespace partplay::internal {
namespace {

// Distinct candidate values kept over all paths (the advisor's sample); paths that would pass it
// are capped like a path with too many values.
constexpr uint64_t kMaxCandidateValues = 2000000;
// Sampled items whose (path, value) pairs are kept to compare with a later item of the same id.
constexpr size_t kMaxIdRecords = 100000;

}  // namespace

void CandidateDiscovery::BeginItem(int64_t index, uint64_t bytes) {
  ++sampled_items_;
  current_item_ = index;
  current_bytes_ = bytes;
  item_values_.clear();
}

void CandidateDiscovery::Observe(const std::string& path, const std::string& canonical) {
  auto it = paths_.find(path);
  if (it == paths_.end()) {
    if (paths_.size() >= kMaxCandidatePaths) return;
    it = paths_.emplace(path, PathStats{}).first;
    it->second.out.path = path;
    it->second.number = static_cast<uint32_t>(path_order_.size());
    path_order_.push_back(&it->second);
  }
  PathStats& s = it->second;
  if (s.last_item == current_item_) return;  // a duplicate property: count the item once
  s.last_item = current_item_;
  ++s.out.items;
  switch (static_cast<KeyKind>(static_cast<uint8_t>(canonical[0]))) {
    case KeyKind::kString:
      ++s.out.strings;
      break;
    case KeyKind::kNumber:
      ++s.out.numbers;
      break;
    case KeyKind::kNull:
      ++s.out.nulls;
      break;
    default:
      ++s.out.booleans;
      break;
  }
  uint64_t hash = HashCanonical(canonical);
  item_values_.emplace_back(s.number, hash);
  if (s.out.distinct_capped) return;
  auto [value, inserted] = s.values.try_emplace(hash);
  if (inserted) {
    value->second.canonical = canonical;
    ++candidate_values_;
  }
  ++value->second.items;
  value->second.bytes += current_bytes_;
  if (s.values.size() >= kMaxDistinctPerPath || candidate_values_ > kMaxCandidateValues) {
    s.out.distinct_capped = true;
    s.out.distinct = s.values.size();
    candidate_values_ -= s.values.size();
    s.values = {};
  }
}

void CandidateDiscovery::EndItemWithId(uint64_t id_hash) {
  auto found = id_first_record_.find(id_hash);
  if (found == id_first_record_.end()) {
    if (id_records_.size() >= kMaxIdRecords) return;
    id_first_record_.emplace(id_hash, static_cast<uint32_t>(id_records_.size()));
    id_records_.push_back(item_values_);
    return;
  }
  const auto& first = id_records_[found->second];
  for (const auto& [path, value] : item_values_) {
    for (const auto& [first_path, first_value] : first) {
      if (first_path != path) continue;
      PathStats& stats = *path_order_[path];
      ++stats.out.ids_repeated;
      if (first_value != value) ++stats.out.ids_changed;
      break;
    }
  }
}

std::vector<CandidatePath> CandidateDiscovery::Paths(bool values) const {
  std::vector<CandidatePath> out;
  out.reserve(paths_.size());
  for (const auto& [path, stats] : paths_) {
    CandidatePath c = stats.out;
    if (!c.distinct_capped) c.distinct = stats.values.size();
    if (!c.distinct_capped && values) {
      c.values.reserve(stats.values.size());
      for (const auto& [hash, agg] : stats.values) {
        c.values.push_back({agg.canonical, agg.items, agg.bytes});
      }
      std::sort(c.values.begin(), c.values.end(),
                [](const CandidateValue& a, const CandidateValue& b) {
                  if (a.bytes != b.bytes) return a.bytes > b.bytes;
                  if (a.items != b.items) return a.items > b.items;
                  return a.canonical < b.canonical;
                });
    }
    out.push_back(std::move(c));
  }
  std::sort(out.begin(), out.end(), [](const CandidatePath& a, const CandidatePath& b) {
    if (a.items != b.items) return a.items > b.items;
    return a.path < b.path;
  });
  return out;
}

}  // namespace partplay::internal
