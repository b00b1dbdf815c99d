#include "ingest/candidate_discovery.h"

#include <xxhash.h>

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

void CandidateDiscovery::HashIndex::Insert(uint64_t hash, uint32_t number) {
  if ((size_ + 1) * 2 > slots_.size()) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(old.empty() ? 64 : old.size() * 2, Slot{});
    mask_ = slots_.size() - 1;
    for (const Slot& slot : old) {
      if (slot.number == 0) continue;
      size_t i = slot.hash & mask_;
      while (slots_[i].number != 0) i = (i + 1) & mask_;
      slots_[i] = slot;
    }
  }
  size_t i = hash & mask_;
  while (slots_[i].number != 0) i = (i + 1) & mask_;
  slots_[i] = {hash, number + 1};
  ++size_;
}

void CandidateDiscovery::BeginItem(int64_t index, uint64_t bytes) {
  ++sampled_items_;
  current_item_ = index;
  current_bytes_ = bytes;
  item_values_.clear();
}

void CandidateDiscovery::Observe(const std::string& path, const std::string& canonical) {
  const uint64_t path_hash = XXH3_64bits(path.data(), path.size());
  int64_t found =
      path_index_.Find(path_hash, [&](uint32_t n) { return paths_[n].out.path == path; });
  if (found < 0) {
    if (paths_.size() >= kMaxCandidatePaths) return;
    found = static_cast<int64_t>(paths_.size());
    paths_.emplace_back();
    paths_.back().out.path = path;
    path_index_.Insert(path_hash, static_cast<uint32_t>(found));
  }
  const uint32_t number = static_cast<uint32_t>(found);
  PathStats& s = paths_[number];
  if (s.last_item == current_item_) return;  // a duplicate property: count the item once
  s.last_item = current_item_;
  ++s.out.items;
  if (!s.previous.empty()) {
    const int order = CompareCanonicalKeys(canonical, s.previous);
    s.out.value_changes += order != 0;
    s.out.value_rises += order > 0;
  }
  s.previous.assign(canonical);
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
  item_values_.emplace_back(number, hash);
  if (s.out.distinct_capped) return;
  // A value is its canonical bytes' 64-bit hash, as the key advisor counts it.
  int64_t v = s.value_index.Find(hash, [](uint32_t) { return true; });
  if (v < 0) {
    v = static_cast<int64_t>(s.values.size());
    s.values.push_back({0, 0, s.text.size(), static_cast<uint32_t>(canonical.size())});
    s.text.append(canonical);
    s.value_index.Insert(hash, static_cast<uint32_t>(v));
    ++candidate_values_;
  }
  ValueAgg& value = s.values[static_cast<size_t>(v)];
  ++value.items;
  value.bytes += current_bytes_;
  if (s.values.size() >= kMaxDistinctPerPath || candidate_values_ > kMaxCandidateValues) {
    s.out.distinct_capped = true;
    s.out.distinct = s.values.size();
    candidate_values_ -= s.values.size();
    s.values = {};
    s.text = {};
    s.value_index.Clear();
  }
}

void CandidateDiscovery::EndItemWithId(uint64_t id_hash) {
  int64_t found = id_index_.Find(id_hash, [](uint32_t) { return true; });
  if (found < 0) {
    size_t records = record_begin_.size() - 1;
    if (records >= kMaxIdRecords) return;
    id_index_.Insert(id_hash, static_cast<uint32_t>(records));
    record_values_.insert(record_values_.end(), item_values_.begin(), item_values_.end());
    record_begin_.push_back(static_cast<uint32_t>(record_values_.size()));
    return;
  }
  const auto* first = record_values_.data() + record_begin_[static_cast<size_t>(found)];
  const auto* first_end = record_values_.data() + record_begin_[static_cast<size_t>(found) + 1];
  for (const auto& [path, value] : item_values_) {
    for (const auto* f = first; f != first_end; ++f) {
      if (f->first != path) continue;
      CandidatePath& stats = paths_[path].out;
      ++stats.ids_repeated;
      if (f->second != value) ++stats.ids_changed;
      break;
    }
  }
}

std::vector<CandidatePath> CandidateDiscovery::Paths(bool values) const {
  std::vector<CandidatePath> out;
  out.reserve(paths_.size());
  for (const PathStats& stats : paths_) {
    CandidatePath c = stats.out;
    if (!c.distinct_capped) c.distinct = stats.values.size();
    if (!c.distinct_capped && values) {
      c.values.reserve(stats.values.size());
      for (const ValueAgg& agg : stats.values) {
        c.values.push_back({stats.text.substr(agg.canonical_at, agg.canonical_size), agg.items,
                            agg.bytes});
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
