// An input analysed in parts (Analyzer::CreatePart, partial_data.h): a finished part is sealed
// into its partial state, which serializes (partial_codec.cpp) and parses back, and parts given
// in input order merge into one analysis as if the input had been read in one pass: their
// tables, findings (locations rebased to the whole input), id pairs, weights and the discovery
// sample replayed.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>

#include "ingest/analyzer_impl.h"

namespace partplay {

// ---- Parts and their merge (partial_data.h) ----

namespace internal {

bool IdIsKey(const AnalysisOptions& options) {
  return options.check_ids && options.key_paths.size() == 1 &&
         options.synthetic.kind == SyntheticKeyOptions::Kind::kNone && KeyPath::Parse("/id").ok() &&
         KeyPath::Parse(options.key_paths[0]).ok() &&
         KeyPath::Parse(options.key_paths[0]).value().segments() ==
             KeyPath::Parse("/id").value().segments();
}

bool SameOptions(const AnalysisOptions& a, const AnalysisOptions& b) {
  const SyntheticKeyOptions &x = a.synthetic, &y = b.synthetic;
  return a.key_paths == b.key_paths && a.discover_items == b.discover_items &&
         a.weight_path == b.weight_path && a.check_ids == b.check_ids && x.kind == y.kind &&
         x.paths == y.paths && x.separator == y.separator && x.buckets == y.buckets &&
         x.seed == y.seed && x.suffix_path == y.suffix_path;
}

}  // namespace internal

namespace {

using internal::SameOptions;

// Where a part starts in the whole input.
struct PartBase {
  int64_t item = 0;
  uint64_t byte = 0;
  int64_t line = 1, column = 1;
};

SourceLocation Rebase(SourceLocation w, const PartBase& b) {
  if (w.line > 0) {
    if (w.line == 1) w.column += b.column - 1;
    w.line += b.line - 1;
  }
  if (w.byte_offset >= 0) w.byte_offset += static_cast<int64_t>(b.byte);
  if (w.item_index >= 0) w.item_index += b.item;
  return w;
}

// Messages that name the item ("item 3 is a number, not an object", "array element 3 ...")
// name the part's index: rewritten with the whole input's.
std::string RebaseMessage(const std::string& message, int64_t relative, int64_t global) {
  if (relative < 0 || relative == global) return message;
  std::string rel = std::to_string(relative);
  for (std::string_view prefix : {"item ", "element "}) {
    std::string needle = std::string(prefix) + rel;
    size_t at = message.find(needle);
    while (at != std::string::npos) {
      size_t end = at + needle.size();
      if (end >= message.size() || message[end] < '0' || message[end] > '9') {
        return message.substr(0, at) + std::string(prefix) + std::to_string(global) +
               message.substr(end);
      }
      at = message.find(needle, at + 1);
    }
  }
  return message;
}

Status RebaseStatus(const Status& s, const PartBase& b) {
  return Status(s.code(),
                RebaseMessage(s.message(), s.where().item_index, s.where().item_index + b.item),
                Rebase(s.where(), b));
}

std::string ShardName(const internal::PartialData& d) {
  switch (d.shard) {
    case internal::ShardKind::kWhole:
      return "a whole part";
    case internal::ShardKind::kFigures:
      return fmt::format("the figures of a part cut into {} buckets", d.buckets);
    case internal::ShardKind::kBucket:
      return fmt::format("bucket {} of {}", d.bucket, d.buckets);
  }
  return "";
}

// Shard files merge with their kind only: every part's figures (of one bucket count), or one
// bucket of every part.
Status SameShards(const std::vector<internal::PartialData*>& parts) {
  const internal::PartialData& one = *parts[0];
  for (size_t k = 1; k < parts.size(); ++k) {
    const internal::PartialData& d = *parts[k];
    if (d.shard != one.shard || d.bucket != one.bucket || d.buckets != one.buckets) {
      return Status(ErrorCode::kBadPartial,
                    fmt::format("part {} is {} and part 1 is {}: a merge takes whole parts, every "
                                "part's figures, or one bucket of every part",
                                k + 1, ShardName(d), ShardName(one)));
    }
  }
  return Status::Ok();
}

// A part made with PartIds::kHashed holds an id an earlier part holds too, or (`twice`) holds
// one twice: it kept no record to name it by (Analyzer::CreatePart; `k` counts from 0).
Status UnnamedRepeat(size_t k, bool twice = false) {
  return Status(ErrorCode::kBadPartial,
                fmt::format("part {} holds {}, and was made without id records to name it by: "
                            "analyse the parts again with records",
                            k + 1, twice ? "an id twice" : "an id an earlier part holds too"));
}

// Where parts made with PartIds::kHashed first repeat a (partition, id) pair: the first part,
// in input order, that holds one twice (`twice`) or one an earlier part holds; `part` is
// parts.size() when none does. Finish sorted each part's pair hashes (any other column, one
// read from bytes say, is sorted here), so one ascending sweep over them all finds every repeat.
struct PairRepeat {
  size_t part;
  bool twice = false;
};
PairRepeat FirstRepeatedPair(const std::vector<internal::PartialData*>& parts) {
  PairRepeat first{parts.size()};
  auto note = [&](size_t k, bool twice) {
    if (k < first.part || (k == first.part && twice)) first = {k, twice};
  };
  std::vector<const std::vector<uint64_t>*> columns;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::IdPairRecords& pairs = parts[k]->id_pairs;
    if (pairs.RepeatsInside()) note(k, true);  // sorted and checked by the part's Finish
    columns.push_back(&pairs.hashes());
  }
  if (columns.size() == 2) {  // the common case: a merge of the two sorted columns
    const std::vector<uint64_t>& a = *columns[0];
    const std::vector<uint64_t>& b = *columns[1];
    // Branch-free steps: which column advances is a coin toss on hashes, so a branch on it
    // mispredicted about every other step (two columns of 500,000 random hashes: 3.5 ms a
    // sweep with branches, 2.0 without, g++ -O2 on this machine).
    size_t i = 0, j = 0;
    while (i < a.size() && j < b.size()) {
      const uint64_t x = a[i], y = b[j];
      if (x == y) {
        note(1, false);
        break;
      }
      i += x < y;
      j += y < x;
    }
    return first;
  }
  // Every column at once, smallest hash first and, among equal ones, the earliest part first:
  // a hash equal to the one before is a repeat in the part it comes from.
  using Head = std::pair<uint64_t, size_t>;  // (hash, part)
  std::vector<size_t> next(columns.size(), 0);
  std::priority_queue<Head, std::vector<Head>, std::greater<Head>> heads;
  for (size_t k = 0; k < columns.size(); ++k) {
    if (!columns[k]->empty()) heads.push({(*columns[k])[0], k});
  }
  bool any = false;
  uint64_t last = 0;
  while (!heads.empty()) {
    auto [hash, k] = heads.top();
    heads.pop();
    if (any && hash == last) note(k, false);
    any = true;
    last = hash;
    if (++next[k] < columns[k]->size()) heads.push({(*columns[k])[next[k]], k});
  }
  return first;
}

ItemFinding RebaseFinding(ItemFinding f, const PartBase& b) {
  f.item_index += b.item;
  f.where = Rebase(f.where, b);
  return f;
}

internal::ItemRecord RebaseRecord(internal::ItemRecord r, const PartBase& b) {
  SourceLocation w =
      Rebase({static_cast<int64_t>(r.byte_offset), r.line, r.column, r.index}, b);
  r.byte_offset = static_cast<uint64_t>(w.byte_offset);
  r.line = w.line;
  r.column = w.column;
  r.index = w.item_index;
  return r;
}

ItemFinding FindingOf(const internal::ItemRecord& r, const PartBase& b, std::string type) {
  ItemFinding f;
  f.item_index = r.index;
  f.bytes = r.bytes;
  f.where.byte_offset = static_cast<int64_t>(r.byte_offset);
  f.where.line = r.line;
  f.where.column = r.column;
  f.where.item_index = r.index;
  f.type = std::move(type);
  return RebaseFinding(std::move(f), b);
}

void AppendRebased(std::vector<ItemFinding>& out, const std::vector<ItemFinding>& part,
                   const PartBase& b) {
  for (const ItemFinding& f : part) {
    if (out.size() >= kMaxFindingExamples) return;
    out.push_back(RebaseFinding(f, b));
  }
}

std::vector<double> PartWeightParts(const internal::PartialData& d, uint32_t n) {
  if (n >= d.weights.size()) return {};
  const internal::WeightSum& w = d.weights[n];
  if (w.spilled()) {
    auto spill = d.weight_spill.find(n);
    return spill == d.weight_spill.end() ? std::vector<double>{} : spill->second;
  }
  std::vector<double> out;
  if (w.lo != 0) out.push_back(w.lo);
  if (w.hi != 0) out.push_back(w.hi);
  return out;
}

}  // namespace

internal::PartialData& Analyzer::Impl::Seal() {
  if (sealed_) return *sealed_;
  auto d = std::make_unique<internal::PartialData>();
  d->options = options_;
  d->first = first_;
  d->id_records = !hashed_;
  if (first_) d->ids = std::move(ids_);
  d->status = failure_;
  d->format = merged_ ? merged_->format : stream_.format();
  d->input_bytes = merged_ ? merged_->input_bytes : stream_.input_bytes();
  if (merged_) {  // a merge kept as a part (MergeToPart)
    d->end_line = merged_->end_line;
    d->end_column = merged_->end_column;
  } else if (failure_.ok() || failure_.code() == ErrorCode::kEmptyInput) {
    SourceLocation end = stream_.EndPosition();
    d->end_line = end.line;
    d->end_column = end.column;
  }
  d->items = items_;
  d->bytes = bytes_;
  d->undefined_items = undefined_items_;
  d->invalid_items = invalid_items_;
  d->invalid_bytes = invalid_bytes_;
  d->oversized = oversized_;
  d->missing_id = missing_id_;
  d->duplicate_id = duplicate_id_;
  d->imprecise = imprecise_;
  d->weight_missing = weight_missing_;
  d->invalid_examples = std::move(invalid_examples_);
  d->oversized_examples = std::move(oversized_examples_);
  d->missing_id_examples = std::move(missing_id_examples_);
  d->duplicate_id_examples = std::move(duplicate_id_examples_);
  d->imprecise_examples = std::move(imprecise_examples_);
  d->table = std::move(partitions_);
  d->weights = std::move(weights_);
  d->weight_spill = std::move(weight_spill_);
  d->first_items = std::move(first_items_);
  d->id_pairs = std::move(id_pairs_);
  d->pair_partitions = std::move(pair_partitions_);
  d->sample_paths = std::move(sample_paths_);
  d->sample_items = std::move(sample_items_);
  d->sample_obs = std::move(sample_obs_);
  if (first_) d->discovery = std::move(discovery_);
  sealed_ = std::move(d);
  return *sealed_;
}

StatusOr<std::unique_ptr<Analyzer::Impl>> Analyzer::Impl::Merge(
    const std::vector<internal::PartialData*>& parts, bool keep_state) {
  if (parts.empty()) return Status(ErrorCode::kBadPartial, "no partial state to merge");
  if (keep_state) {
    for (size_t k = 0; k < parts.size(); ++k) {
      if (parts[k]->first || parts[k]->shard != internal::ShardKind::kWhole ||
          (parts[k]->options.check_ids && !parts[k]->id_records)) {
        return Status(ErrorCode::kBadPartial,
                      fmt::format("part {}: a merge kept as a part takes whole parts with id "
                                  "records (analyze --partial-out writes them)",
                                  k + 1));
      }
    }
  }
  const AnalysisOptions options = parts[0]->options;
  for (size_t k = 1; k < parts.size(); ++k) {
    if (!SameOptions(parts[k]->options, options)) {
      return Status(ErrorCode::kBadPartial,
                    fmt::format("part {} was analysed with other options than part 1 (key paths, "
                                "--discover, --weight, the id check and the synthetic key must "
                                "be the same)",
                                k + 1));
    }
  }
  PARTPLAY_RETURN_IF_ERROR(SameShards(parts));
  // Where each part starts; the earliest error in input order wins (an empty part is an error
  // only when every part is empty, as one pass over their concatenation).
  std::vector<PartBase> bases(parts.size());
  PartBase at;
  bool all_empty = true;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::PartialData& d = *parts[k];
    bases[k] = at;
    // A failed or empty part is not merged: a key repeated in it, unloaded, is found now (a
    // broken partial comes before the part's own error).
    if (!d.status.ok()) PARTPLAY_RETURN_IF_ERROR(internal::LoadPartitionTable(d));
    if (!d.status.ok() && d.status.code() != ErrorCode::kEmptyInput) {
      return RebaseStatus(d.status, at);
    }
    if (d.status.ok()) all_empty = false;
    // Counts past 2^53 cannot come from one real input (a forged or corrupt part): refused
    // rather than wrapped when the parts are added up.
    constexpr int64_t kMaxTotal = int64_t{1} << 53;
    if (d.items > static_cast<uint64_t>(kMaxTotal) ||
        d.input_bytes > static_cast<uint64_t>(kMaxTotal) || d.end_line < 1 ||
        d.end_line > kMaxTotal || d.end_column < 1 || d.end_column > kMaxTotal ||
        at.item > kMaxTotal - static_cast<int64_t>(d.items) ||
        at.byte > static_cast<uint64_t>(kMaxTotal) - d.input_bytes ||
        at.line > kMaxTotal - d.end_line || at.column > kMaxTotal - d.end_column) {
      return Status(ErrorCode::kBadPartial,
                    fmt::format("part {}: its counts (items, bytes, lines, columns) with the parts "
                                "before it pass 2^53, more than any input holds",
                                k + 1));
    }
    at.item += static_cast<int64_t>(d.items);
    at.byte += d.input_bytes;
    at.column = d.end_line == 1 ? at.column + d.end_column - 1 : d.end_column;
    at.line += d.end_line - 1;
  }
  if (all_empty) return RebaseStatus(parts.back()->status, bases.back());

  auto impl = std::make_unique<Impl>(options, keep_state);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  impl->finished_ = keep_state;
  std::unordered_map<std::string, uint32_t> sample_path_index;  // keep_state's sample log
  size_t partitions_in_parts = 0;  // at least the merged table's partitions
  for (const internal::PartialData* d : parts) {
    partitions_in_parts += d->unloaded ? d->unloaded_partitions : d->table.size();
  }
  // Parts made with PartIds::kHashed (all of them, as the CLI's --jobs and the page make them)
  // are checked for a repeated (partition, id) pair together, before their tables merge.
  bool all_hashed = options.check_ids &&
                    std::none_of(parts.begin(), parts.end(),
                                 [](const internal::PartialData* d) { return d->id_records; });
  PairRepeat repeat_at{parts.size()};
  if (all_hashed) repeat_at = FirstRepeatedPair(parts);
  Merged merged;
  merged.shard = parts[0]->shard;
  merged.bucket = parts[0]->bucket;
  merged.buckets = parts[0]->buckets;
  for (const internal::PartialData* d : parts) merged.part_ids.push_back(d->part_id);
  merged.end_line = at.line;
  merged.end_column = at.column;
  std::vector<ItemFinding> duplicates;
  for (size_t k = 0; k < parts.size(); ++k) {
    internal::PartialData& d = *parts[k];
    const PartBase& b = bases[k];
    merged.input_bytes += d.input_bytes;
    if (!d.status.ok()) continue;  // an empty part
    if (d.format == internal::InputFormat::kArray ||
        merged.format == internal::InputFormat::kUnknown) {
      merged.format = d.format;
    }
    impl->items_ += d.items;
    impl->bytes_ += d.bytes;
    impl->undefined_items_ += d.undefined_items;
    impl->invalid_items_ += d.invalid_items;
    impl->invalid_bytes_ += d.invalid_bytes;
    impl->oversized_ += d.oversized;
    impl->missing_id_ += d.missing_id;
    impl->duplicate_id_ += d.duplicate_id;
    impl->imprecise_ += d.imprecise;
    impl->weight_missing_ += d.weight_missing;
    AppendRebased(impl->invalid_examples_, d.invalid_examples, b);
    AppendRebased(impl->oversized_examples_, d.oversized_examples, b);
    AppendRebased(impl->missing_id_examples_, d.missing_id_examples, b);
    AppendRebased(impl->imprecise_examples_, d.imprecise_examples, b);
    for (const ItemFinding& f : d.duplicate_id_examples) duplicates.push_back(RebaseFinding(f, b));

    // The partitions, in the part's order of first appearance (so numbers follow the whole
    // input's). Keyed by /id, a string id whose partition an earlier part holds repeats. The
    // first part's table is adopted as it is (its indices are the whole input's already), so
    // the merge never holds two copies of it.
    bool adopt = impl->partitions_.size() == 0 && b.item == 0;
    if (d.first && !adopt) {
      return Status(ErrorCode::kInvalidState, "a part made as the first part must come first");
    }
    if (adopt) {
      PARTPLAY_RETURN_IF_ERROR(internal::LoadPartitionTable(d));
      if (d.first) {
        impl->ids_ = std::move(d.ids);
        if (d.discovery) impl->discovery_ = std::move(d.discovery);  // the sample, observed
      }
      impl->partitions_ = std::move(d.table);
      if (keep_state && internal::PartitionsHavePlaces(d)) {
        for (const internal::ItemRecord& r : d.first_items) {
          impl->first_items_.push_back(RebaseRecord(r, b));
        }
      }
      impl->weights_ = std::move(d.weights);
      impl->weight_spill_ = std::move(d.weight_spill);
    }
    // The merged table is sized for every part's partitions at once (no rehash on the way).
    impl->partitions_.Reserve(std::max(impl->partitions_.size(), partitions_in_parts));
    // A part's keys are distinct, so a key that gets a number below `earlier` was an earlier
    // part's: one probe finds it and adds to it.
    const size_t earlier = impl->partitions_.size();
    bool unnamed_repeat = false;  // keyed by /id, a repeat a part without records cannot name
    auto add = [&](uint32_t i, std::string_view canonical, uint64_t hash, uint64_t items,
                   uint64_t bytes, uint64_t largest_item_bytes, int64_t largest_item_index) {
      uint32_t n = impl->partitions_.AddAggregate(
          canonical, hash, items, bytes, largest_item_bytes,
          largest_item_index >= 0 ? largest_item_index + b.item : -1);
      if (keep_state && n == impl->first_items_.size() && i < d.first_items.size() &&
          internal::PartitionsHavePlaces(d)) {
        impl->first_items_.push_back(RebaseRecord(d.first_items[i], b));  // a new partition
      }
      if (impl->id_is_key_ && n < earlier && !canonical.empty() &&
          static_cast<KeyKind>(static_cast<uint8_t>(canonical[0])) == KeyKind::kString) {
        if (!d.id_records) {
          unnamed_repeat = true;
        } else if (i < d.first_items.size()) {
          ++impl->duplicate_id_;
          PartitionKey key = PartitionKey::FromCanonicalBytes(canonical);
          duplicates.push_back(FindingOf(d.first_items[i], b, key.components[0].text));
        }
      }
      if (impl->weight_slot_) {
        if (n >= impl->weights_.size()) impl->weights_.resize(n + 1);
        for (double c : PartWeightParts(d, i)) impl->AddWeight(n, c);
      }
      return n;
    };
    uint64_t batch[kAddBatch];
    for (uint32_t i = 0; !adopt && i < d.table.size(); ++i) {
      // The part's table is freed as it is read: the merge never holds two copies of it.
      if (i % 4096 == 0) d.table.ReleaseBefore(i, &impl->partitions_);
      if (i % kAddBatch == 0) {  // what the next adds read, loaded together (ResolveAdds)
        size_t n = std::min<size_t>(kAddBatch, d.table.size() - i);
        for (size_t k = 0; k < n; ++k) batch[k] = d.table.hash_of(i + static_cast<uint32_t>(k));
        impl->partitions_.TouchForAdds(batch, n);
      }
      internal::PartitionTable::Entry e = d.table.EntryAt(i);
      add(i, e.canonical, e.hash, e.items, e.bytes, e.largest_item_bytes, e.largest_item_index);
    }
    impl->partitions_.DropSpareBlocks();
    if (!adopt && d.unloaded) {
      // Read from the partial's bytes in batches; a key repeated inside the part is the add
      // that finds a partition this part already added to (a bit per merged partition).
      std::vector<uint64_t> added((partitions_in_parts + 64) / 64, 0);
      internal::UnloadedPartition pending[kAddBatch];
      size_t count = 0;
      Status repeat;
      auto flush = [&]() {
        for (size_t k = 0; k < count; ++k) batch[k] = HashCanonical(pending[k].canonical);
        impl->partitions_.TouchForAdds(batch, count);
        for (size_t k = 0; k < count && repeat.ok(); ++k) {
          const internal::UnloadedPartition& p = pending[k];
          uint32_t n = add(p.number, p.canonical, batch[k], p.items, p.bytes,
                           p.largest_item_bytes, p.largest_item_index);
          if (n / 64 >= added.size()) added.resize(n / 64 + 1, 0);
          if (added[n / 64] >> (n % 64) & 1) {
            repeat = internal::RepeatedPartitionKey(p.number, p.start);
          }
          added[n / 64] |= uint64_t{1} << (n % 64);
        }
        count = 0;
      };
      internal::ForEachUnloadedPartition(d, [&](const internal::UnloadedPartition& p) {
        if (!repeat.ok()) return;
        pending[count++] = p;
        if (count == kAddBatch) flush();
      });
      if (repeat.ok()) flush();
      if (!repeat.ok()) return repeat;
    }
    if (unnamed_repeat) return UnnamedRepeat(k);
    if (k == repeat_at.part) return UnnamedRepeat(k, repeat_at.twice);
    // Otherwise each (partition, id) pair's first item in the part repeats an earlier part's
    // (parts with records; hashed ones, checked above, hold no pairs here).
    // The last part's pairs are only looked up: no part after it needs them in the set. The
    // records (read and checked with the partial, or the part's own) are decoded only as far as
    // the last repeat, for the findings' places and ids.
    bool last = k + 1 == parts.size() && !keep_state;
    size_t pairs = all_hashed ? 0 : d.id_pairs.size();
    if (!last) impl->ids_.Reserve(impl->ids_.size() + pairs);
    std::vector<size_t> repeats;
    uint64_t touched = 0;
    for (size_t i = 0; i < pairs; ++i) {
      if (i % kAddBatch == 0) {  // a batch's slots loaded together: their misses overlap
        touched += impl->ids_.TouchSlots(d.id_pairs.hashes().data() + i,
                                         std::min(d.id_pairs.size() - i, kAddBatch));
      }
      uint64_t pair = d.id_pairs.hash(i);
      if (last ? impl->ids_.Contains(pair) : !impl->ids_.Insert(pair)) repeats.push_back(i);
    }
    impl->touched_ += touched;
    if (!repeats.empty() && !d.id_records) return UnnamedRepeat(k);
    // A merge kept as a part reads every record: the pairs not repeated are its own.
    internal::IdPairRecords::Cursor records(d.id_pairs.records(), d.items, d.input_bytes);
    const size_t decode = keep_state ? pairs : repeats.empty() ? 0 : repeats.back() + 1;
    for (size_t i = 0, r = 0; i < decode; ++i) {
      internal::ItemRecord first;
      std::string_view id;
      if (!records.Next(first, id)) return Status(ErrorCode::kBadPartial, records.error());
      if (r < repeats.size() && i == repeats[r]) {
        ++r;
        ++impl->duplicate_id_;
        duplicates.push_back(FindingOf(first, b, std::string(id)));
      } else if (keep_state) {
        impl->id_pairs_.Add(d.id_pairs.hash(i), RebaseRecord(first, b), id);
      }
    }
    // The sample is the whole input's first discover_items items: the part's first ones,
    // replayed through the same bookkeeping as one pass.
    uint64_t take = d.sample_items.size();
    if (options.discover_items >= 0) {
      int64_t left = std::max<int64_t>(0, options.discover_items - b.item);
      take = std::min<uint64_t>(take, static_cast<uint64_t>(left));
    }
    for (uint64_t j = 0; j < take; ++j) {
      const internal::SampleItem& item = d.sample_items[j];
      impl->discovery_->BeginItem(b.item + static_cast<int64_t>(j), item.bytes);
      for (uint32_t o = item.first_obs; o < item.first_obs + item.obs_count; ++o) {
        const internal::SampleObservation& obs = d.sample_obs[o];
        impl->discovery_->Observe(d.sample_paths[obs.path], obs.canonical);
      }
      if (item.has_id) impl->discovery_->EndItemWithId(item.id_hash);
      if (!keep_state) continue;
      // The log, for a merge of this merge: the paths renumbered into one list.
      internal::SampleItem kept = item;
      kept.first_obs = static_cast<uint32_t>(impl->sample_obs_.size());
      for (uint32_t o = item.first_obs; o < item.first_obs + item.obs_count; ++o) {
        const internal::SampleObservation& obs = d.sample_obs[o];
        auto [slot, added] = sample_path_index.try_emplace(
            d.sample_paths[obs.path], static_cast<uint32_t>(impl->sample_paths_.size()));
        if (added) impl->sample_paths_.push_back(d.sample_paths[obs.path]);
        impl->sample_obs_.push_back({slot->second, obs.canonical});
      }
      impl->sample_items_.push_back(kept);
    }
    d = internal::PartialData{};  // merged: free it before the next part
  }
  std::stable_sort(
      duplicates.begin(), duplicates.end(),
      [](const ItemFinding& x, const ItemFinding& y) { return x.item_index < y.item_index; });
  if (duplicates.size() > kMaxFindingExamples) duplicates.resize(kMaxFindingExamples);
  impl->duplicate_id_examples_ = std::move(duplicates);
  impl->merged_ = merged;
  return impl;
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::CreatePart(const AnalysisOptions& options,
                                                         bool first, PartIds ids) {
  auto impl = std::make_unique<Impl>(options, true, first, ids);
  PARTPLAY_RETURN_IF_ERROR(impl->Init());
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

Status Analyzer::Impl::CheckSerializable() const {
  if (!part()) {
    return Status(ErrorCode::kInvalidState,
                  "only an analyzer made by CreatePart (or read by ParsePartial) has a partial "
                  "state");
  }
  if (!finished_ && failure_.ok()) {
    return Status(ErrorCode::kInvalidState, "finish the part before serializing it");
  }
  if (first()) {
    return Status(ErrorCode::kInvalidState,
                  "a part made as the first part is merged in memory, never serialized");
  }
  return Status::Ok();
}

StatusOr<std::string> Analyzer::SerializePartial() {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  return internal::SerializePartialData(impl_->Seal());
}

StatusOr<uint64_t> Analyzer::PartialSize() {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  return static_cast<uint64_t>(internal::PartialDataSize(impl_->Seal()));
}

Status Analyzer::SerializePartialTo(const std::function<void(std::string_view)>& sink) {
  PARTPLAY_RETURN_IF_ERROR(impl_->CheckSerializable());
  internal::SerializePartialData(impl_->Seal(), sink);
  return Status::Ok();
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::ParsePartial(std::string_view bytes) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<internal::PartialData> data,
                            internal::ParsePartialData(bytes));
  return FromPartialData(std::move(data));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::ParsePartialForMerge(std::string bytes) {
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<internal::PartialData> data,
                            internal::ParsePartialData(std::move(bytes)));
  return FromPartialData(std::move(data));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::FromPartialData(
    std::unique_ptr<internal::PartialData> data) {
  auto impl = std::make_unique<Impl>(data->options, true);
  if (Status s = impl->Init(); !s.ok()) {
    // Located at the options, which follow the 16-byte header, the 4-byte version and the
    // shard section (its kind byte, and a shard's 16 bytes of part id, bucket and count).
    const int64_t options_at = data->shard == internal::ShardKind::kWhole ? 21 : 37;
    return Status(ErrorCode::kBadPartial,
                  fmt::format("the partial state's options are not valid: {}", s.message()),
                  SourceLocation{options_at, 0, 0, -1});
  }
  impl->sealed_ = std::move(data);
  impl->finished_ = true;
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::MergeParts(
    std::vector<std::unique_ptr<Analyzer>> parts, bool keep_state) {
  std::vector<internal::PartialData*> data;
  for (const auto& part : parts) {
    if (part == nullptr || !part->impl_->part()) {
      return Status(ErrorCode::kInvalidState, "merge takes parts (CreatePart or ParsePartial)");
    }
    if (!part->impl_->finished_ && part->impl_->failure_.ok()) {
      return Status(ErrorCode::kInvalidState, "finish every part before merging");
    }
    data.push_back(&part->impl_->Seal());
  }
  PARTPLAY_ASSIGN_OR_RETURN(std::unique_ptr<Impl> impl, Impl::Merge(data, keep_state));
  return std::unique_ptr<Analyzer>(new Analyzer(std::move(impl)));
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::Merge(std::vector<std::unique_ptr<Analyzer>> parts) {
  return MergeParts(std::move(parts), false);
}

StatusOr<std::unique_ptr<Analyzer>> Analyzer::MergeToPart(
    std::vector<std::unique_ptr<Analyzer>> parts) {
  return MergeParts(std::move(parts), true);
}

}  // namespace partplay
