// What each item adds once its tracked paths are read (Analyzer::Impl::Account): its size and
// the findings (undefined, invalid or imprecise keys, oversized items, missing or repeated ids),
// then its partition in the table, in batches (ResolveAdds), with the (partition, id) pair check
// and each partition's exact weight sum.
#include <fmt/format.h>
#include <xxhash.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "ingest/analyzer_impl.h"

namespace partplay {

Status Analyzer::Impl::Account(const ItemContext& item) {
  uint64_t bytes = item.text.size();
  size_t first_obs = first_obs_;
  ++items_;
  bytes_ += bytes;
  if (bytes > kCosmosItemBytes) {
    ++oversized_;
    if (oversized_examples_.size() < kMaxFindingExamples) {
      oversized_examples_.push_back(Finding(item, bytes, ""));
    }
  }
  const FoundComponent* id = id_slot_ ? &found_[*id_slot_] : nullptr;
  if (id && (id->kind != KeyKind::kString || id->invalid)) {
    ++missing_id_;
    if (missing_id_examples_.size() < kMaxFindingExamples) {
      missing_id_examples_.push_back(Finding(item, bytes, KindName(*id)));
    }
    id = nullptr;
  }
  // The id's own hash serves only the sample (immutability evidence).
  uint64_t id_hash =
      discovering_ && id ? XXH3_64bits(id->text.data(), id->text.size()) : 0;
  if (discovering_ && id && !logs_sample()) discovery_->EndItemWithId(id_hash);
  if (discovering_ && logs_sample()) {  // a merge replays it
    sample_items_.push_back({bytes, id != nullptr, id_hash, static_cast<uint32_t>(first_obs),
                             static_cast<uint32_t>(sample_obs_.size() - first_obs)});
  }
  // A part remembers where each partition's (or id pair's) first item is, for a duplicate a
  // later part may hold (counted from the last item's place: each byte is read once).
  internal::ItemRecord record;
  if (records_places() && id) {
    SourceLocation at = stream_.LocateForward(item.byte_offset, item.index);
    record = {item.index, bytes, item.byte_offset, at.line, at.column};
  }
  double weight = 0;
  if (weight_slot_) {
    const FoundComponent& w = found_[*weight_slot_];
    if (w.kind == KeyKind::kNumber && !w.invalid) {
      weight = w.number;
    } else {
      ++weight_missing_;
    }
  }
  size_t key_count = options_.key_paths.size();
  for (size_t i = 0; i < key_count; ++i) {
    if (found_[i].invalid) {
      ++invalid_items_;
      invalid_bytes_ += bytes;
      if (invalid_examples_.size() < kMaxFindingExamples) {
        invalid_examples_.push_back(Finding(item, bytes, found_[i].invalid));
      }
      return Status::Ok();
    }
  }
  for (size_t i = 0; i < key_count; ++i) {
    if (!found_[i].imprecise) continue;
    ++imprecise_;
    if (imprecise_examples_.size() < kMaxFindingExamples) {
      imprecise_examples_.push_back(Finding(item, bytes, ""));
      imprecise_examples_.back().type = std::string(found_[i].raw);
    }
    break;
  }
  canonical_.clear();
  bool undefined = false;
  if (options_.synthetic.kind != SyntheticKeyOptions::Kind::kNone) {
    undefined = !BuildSyntheticKey(item.index);
    if (undefined) {
      AppendCanonical(KeyKind::kUndefined, 0, {}, canonical_);
    } else {
      AppendCanonical(KeyKind::kString, 0, synthetic_, canonical_);
    }
  } else {
    for (size_t i = 0; i < key_count; ++i) {
      const FoundComponent& f = found_[i];
      AppendCanonical(f.kind, f.number, f.text, canonical_);
      if (f.kind == KeyKind::kUndefined) undefined = true;
    }
  }
  if (undefined) ++undefined_items_;
  // Items go into the table in batches of kAddBatch (ResolveAdds): the slots, entries and keys
  // a batch will read are loaded in three rounds of independent loads first, so their cache
  // misses (100+ ns each) overlap instead of stalling one after another. Natively the index
  // and id-set slots are also prefetched as each item is read. Items are added in their order.
  uint64_t hash = HashCanonical(canonical_);
  partitions_.Prefetch(hash);
  PendingAdd& add = adds_[adds_count_++];
  std::swap(add.canonical, canonical_);
  add.hash = hash;
  add.bytes = bytes;
  add.index = item.index;
  add.byte_offset = item.byte_offset;
  add.weight = weight;
  add.record = record;
  // One logical partition holds each id once. Keyed by /id itself, the partition is the id:
  // a repeat is an item whose partition exists (no per-item memory). Otherwise the
  // (partition, id) pair is remembered as a 64-bit hash.
  add.check = !id ? IdCheck::kNone : id_is_key_ ? IdCheck::kKeyIsId : IdCheck::kPair;
  if (id) add.id.assign(id->text);
  if (add.check == IdCheck::kPair) {
    add.pair = XXH3_64bits_withSeed(id->text.data(), id->text.size(), hash);
    if (!hashed_) ids_.Prefetch(add.pair);
  }
  if (adds_count_ == kAddBatch) ResolveAdds();
  return Status::Ok();
}

void Analyzer::Impl::ResolveAdds() {
  if (expected_bytes_ != 0 && adds_count_ != 0) SizeForExpectedInput();
  uint64_t touched = 0;
  for (size_t k = 0; k < adds_count_; ++k) {
    touched += partitions_.TouchSlot(adds_[k].hash);
    if (adds_[k].check == IdCheck::kPair && !hashed_) touched += ids_.TouchSlot(adds_[k].pair);
  }
  for (size_t k = 0; k < adds_count_; ++k) touched += partitions_.TouchEntry(adds_[k].hash);
  for (size_t k = 0; k < adds_count_; ++k) touched += partitions_.TouchKey(adds_[k].hash);
  touched_ += touched;
  for (size_t k = 0; k < adds_count_; ++k) Resolve(adds_[k]);
  adds_count_ = 0;
}

void Analyzer::Impl::SizeForExpectedInput() {
  const PendingAdd& last = adds_[adds_count_ - 1];
  uint64_t read = last.byte_offset + last.bytes;  // where the batch's last item ends
  if (read == 0) return;
  auto estimate = [&](size_t held) {
    size_t at_least = held + adds_count_;
    double whole = 0.9 * static_cast<double>(items_) * static_cast<double>(expected_bytes_) /
                   static_cast<double>(read);
    double most = 16.0 * static_cast<double>(at_least);
    return std::max(at_least, static_cast<size_t>(std::min(whole, most)));
  };
  if (!hashed_ && ids_.WouldGrow(adds_count_) && options_.check_ids && !id_is_key_) {
    ids_.Reserve(estimate(ids_.size()));
  }
  if (id_is_key_ && partitions_.WouldGrow(adds_count_)) {
    partitions_.Reserve(estimate(partitions_.size()));
  }
}

void Analyzer::Impl::Resolve(const PendingAdd& add) {
  size_t before = partitions_.size();
  uint32_t number = partitions_.Add(add.canonical, add.hash, add.bytes, add.index);
  if (add.check == IdCheck::kKeyIsId && partitions_.size() == before) {
    CountDuplicateId(add);
  } else if (add.check == IdCheck::kPair) {
    if (hashed_) {
      // Kept in a column, no set: the merge checks every part's pairs at once (sorted by
      // Finish), a repeat even inside this part being one it cannot name (PartIds::kHashed).
      id_pairs_.AddHash(add.pair);
    } else if (!ids_.Insert(add.pair)) {
      CountDuplicateId(add);
    } else if (part_ && !first_) {
      id_pairs_.Add(add.pair, add.record, add.id);
      pair_partitions_.push_back(number);  // its bucket, should the part be cut (--buckets)
    }
  }
  if (weight_slot_) AddWeight(number, add.weight);
  if (records_places() && id_is_key_ && number == first_items_.size()) {
    first_items_.push_back(add.record);
  }
}

void Analyzer::Impl::CountDuplicateId(const PendingAdd& add) {
  ++duplicate_id_;
  if (duplicate_id_examples_.size() >= kMaxFindingExamples) return;
  ItemContext item;
  item.index = add.index;
  item.byte_offset = add.byte_offset;
  duplicate_id_examples_.push_back(Finding(item, add.bytes, ""));
  duplicate_id_examples_.back().type = add.id;
}

void Analyzer::Impl::AddWeight(uint32_t number, double x) {
  if (number >= weights_.size()) weights_.resize(number + 1);
  internal::WeightSum& w = weights_[number];
  if (w.spilled()) {
    internal::GrowExpansion(weight_spill_[number], x);
    return;
  }
  double parts[3];
  size_t k = 0;
  double q = x;
  for (double c : {w.lo, w.hi}) {
    if (c == 0) continue;
    double sum, err;
    internal::TwoSum(q, c, sum, err);
    if (!std::isfinite(sum)) {
      w = {sum, 0};
      return;
    }
    if (err != 0) parts[k++] = err;
    q = sum;
  }
  if (q != 0) parts[k++] = q;
  if (k <= 2) {
    w.lo = k == 2 ? parts[0] : 0;
    w.hi = k == 0 ? 0 : parts[k - 1];
    return;
  }
  weight_spill_[number].assign(parts, parts + k);
  w = {0, std::nan("")};
}

std::vector<double> Analyzer::Impl::WeightParts(uint32_t number) const {
  if (number >= weights_.size()) return {};
  const internal::WeightSum& w = weights_[number];
  if (w.spilled()) {
    auto spill = weight_spill_.find(number);
    return spill == weight_spill_.end() ? std::vector<double>{} : spill->second;
  }
  std::vector<double> out;
  if (w.lo != 0) out.push_back(w.lo);
  if (w.hi != 0) out.push_back(w.hi);
  return out;
}

double Analyzer::Impl::WeightOf(uint32_t number) const {
  if (number >= weights_.size()) return 0.0;
  const internal::WeightSum& w = weights_[number];
  if (!w.spilled() && w.lo == 0) return w.hi;
  std::vector<double> parts = WeightParts(number);
  return internal::RoundExpansion(parts.data(), parts.size());
}

ItemFinding Analyzer::Impl::Finding(const ItemContext& item, uint64_t bytes, const char* type) {
  ItemFinding f;
  f.item_index = item.index;
  f.bytes = bytes;
  f.where = stream_.Locate(item.byte_offset, item.index);
  f.type = type;
  return f;
}

const char* Analyzer::Impl::KindName(const FoundComponent& f) {
  if (f.invalid) return f.invalid[0] == 'n' ? "number" : f.invalid;
  switch (f.kind) {
    case KeyKind::kUndefined:
      return "missing";
    case KeyKind::kNull:
      return "null";
    case KeyKind::kFalse:
    case KeyKind::kTrue:
      return "boolean";
    case KeyKind::kNumber:
      return "number";
    case KeyKind::kString:
      return "string";
  }
  return "missing";
}

}  // namespace partplay
